// The session table's transforms of held models, which the Optimization chapter's structured
// pruning and distillation sections run in the page's worker (train/session_table.hpp):
// structured pruning makes a new, smaller held model and leaves its source alone; fine-tuning
// it runs the recipe of optimize/finetune.hpp in chunks and its file records the prune with
// the epochs done; a distillation session at α = 0 is the labels-only run bit for bit (same
// split, seed and recipe), at α > 0 it is not and its loss falls; the forward A/B of two held
// models refuses what it cannot time. Real data natively (the test split's first images).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/optimize/structured.hpp"
#include "perflab/train/session_table.hpp"

using namespace perflab;

namespace {

const nlohmann::json kMlp = {{"name", "mlp_64_32"},
                             {"input", {16, 784}},
                             {"layers",
                              {{{"type", "Linear"}, {"in", 784}, {"out", 64}},
                               {{"type", "ReLU"}},
                               {{"type", "Linear"}, {"in", 64}, {"out", 32}},
                               {{"type", "ReLU"}},
                               {{"type", "Linear"}, {"in", 32}, {"out", 10}}}}};

}  // namespace

TEST_CASE("The session table's transforms refuse what they cannot do, naming it") {
  SessionTable t;
  const std::size_t a = t.add_model(kMlp);
  const std::size_t student = t.add_model(default_distill_student_spec());
  CHECK_THROWS_WITH_AS(t.prune_structured(a, 1.0),
                       "fraction must be at least 0 and below 1 (0.5 removes half the hidden "
                       "units), got 1",
                       ValueError);
  CHECK_THROWS_AS(t.prune_structured(9, 0.5), ValueError);
  CHECK_THROWS_WITH_AS(t.start_distillation(student, student, 1, nlohmann::json::object(), 1, 0.5),
                       "distillation needs two models: student and teacher are both model 2",
                       ValueError);
  CHECK_THROWS_WITH_AS(t.forward_ab(a, a, 0, AbOptions{}), "batch must be 1 to 256, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(t.forward_ab(a, a, kMaxForwardAbBatch + 1, AbOptions{}),
                       "batch must be 1 to 256, got 257", ValueError);
  const nlohmann::json small = {{"name", "small"},
                                {"input", {1, 100}},
                                {"layers", {{{"type", "Linear"}, {"in", 100}, {"out", 10}}}}};
  const std::size_t other = t.add_model(small);
  CHECK_THROWS_WITH_AS(t.forward_ab(a, other, 4, AbOptions{}),
                       "model 1 takes (4, 784) and model 3 takes (4, 100): the two forwards need "
                       "the same input",
                       ValueError);
  // Core's default student: 784-32-10.
  CHECK(t.model_info(student)["parameter_count"] == 784 * 32 + 32 + 32 * 10 + 10);
}

TEST_CASE("Structured pruning of a held model makes a smaller held model and keeps the source") {
  SessionTable t;
  const std::size_t a = t.add_model(kMlp);
  const std::size_t before = t.model_info(a)["parameter_count"];
  const nlohmann::json r = t.prune_structured(a, 0.5);
  const std::size_t b = r["model"];
  CHECK(b != a);
  CHECK(r["source"] == a);
  CHECK(t.model_info(a)["parameter_count"] == before);
  // 784→32→16→10: the hidden layers lost half their units, the output kept its 10.
  const std::size_t after = 784 * 32 + 32 + 32 * 16 + 16 + 16 * 10 + 10;
  CHECK(r["info"]["parameter_count"] == after);
  CHECK(r["info"]["parameter_bytes"] == 4 * after);
  CHECK(r["report"]["parameters_before"] == before);
  CHECK(r["report"]["parameters_after"] == after);
  REQUIRE(r["report"]["layers"].size() == 2);
  CHECK(r["report"]["layers"][0]["before"] == 64);
  CHECK(r["report"]["layers"][0]["after"] == 32);
  CHECK(r["report"]["layers"][1]["after"] == 16);
  CHECK(r["info"]["spec"]["layers"][2]["in"] == 32);
  // The A/B of the two forwards: a few rounds, the fields the page reads (times unasserted).
  AbOptions o;
  o.rounds = 3;
  o.warmup = 0;
  o.min_sample_ms = 0.2;
  const nlohmann::json ab = t.forward_ab(a, b, 2, o);
  CHECK(ab["a_ms"].size() == 3);
  CHECK(ab["b_ms"].size() == 3);
  CHECK(ab["batch"] == 2);
  CHECK(ab["name_b"] == "mlp_64_32");
  CHECK(ab["flops_per_sample_a"].get<double>() == r["report"]["flops_before"].get<double>());
  CHECK(ab["flops_per_sample_b"].get<double>() == r["report"]["flops_after"].get<double>());
  CHECK(ab["comparison"].contains("ratio"));
  // The timer's facts beside the samples (an Olympics entry's evidence is held to its grid).
  CHECK(ab["inner_iterations_a"].get<long>() >= 1);
  CHECK(ab["inner_iterations_b"].get<long>() >= 1);
  CHECK(ab["resolution_ms"].get<double>() > 0);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("Fine-tuning a pruned held model in chunks, and its file's lineage") {
  const std::string dir = kFashionMnistDir;
  SessionTable t;
  const std::size_t d =
      t.add_fashion_mnist(read_maybe_gzip_file(dir + "/t10k-images-idx3-ubyte.gz"),
                          read_maybe_gzip_file(dir + "/t10k-labels-idx1-ubyte.gz"), "test", 300);
  const std::size_t a = t.add_model(kMlp);
  t.start_training(a, d, {{"epochs", 1}, {"batch", 16}, {"validation_samples", 30},
                          {"learning_rate", 0.004}});
  t.train_steps(a, 1000);
  const std::size_t b = t.prune_structured(a, 0.5)["model"];
  CHECK_THROWS_WITH_AS(t.start_finetuning(b, d, 0), "fine-tuning needs at least 1 epoch, got 0",
                       ValueError);
  const nlohmann::json start = t.start_finetuning(b, d, 2);
  // The source's recipe at its own learning rate, from the pruned weights.
  CHECK(start["recipe"]["learning_rate"] == 0.004);
  CHECK(start["recipe"]["init"] == "keep");
  CHECK(start["recipe"]["epochs"] == 2);
  CHECK(start["validation_samples"] == 30);
  const double pruned_loss = t.evaluate(b, d, 0)["mean_loss"];
  const nlohmann::json first = t.train_steps(b, start["steps_per_epoch"].get<std::size_t>());
  CHECK(first["epochs"].size() == 1);
  CHECK(t.evaluate(b, d, 0)["mean_loss"].get<double>() < pruned_loss);
  // Cancelled in the second epoch: the file keeps one epoch, and its lineage says so.
  t.train_steps(b, 3);
  t.cancel_training(b);
  const ModelFile file = read_model_file(t.model_file(b), "the pruned file");
  REQUIRE(file.training.has_value());
  CHECK(file.training->epochs == 1);
  REQUIRE(file.training->lineage.size() == 1);
  CHECK(file.training->lineage[0]["method"] == "structured");
  CHECK(file.training->lineage[0]["finetune_epochs"] == 1);
  CHECK(file.model.parameter_count() == t.model_info(b)["parameter_count"]);
}

TEST_CASE("A distillation session: α = 0 is the labels-only run, α = 0.9 differs and learns") {
  const std::string dir = kFashionMnistDir;
  SessionTable t;
  const std::size_t d =
      t.add_fashion_mnist(read_maybe_gzip_file(dir + "/t10k-images-idx3-ubyte.gz"),
                          read_maybe_gzip_file(dir + "/t10k-labels-idx1-ubyte.gz"), "test", 320);
  const std::size_t teacher = t.add_model(kMlp);
  t.start_training(teacher, d, {{"epochs", 2}, {"batch", 16}, {"validation_samples", 0}});
  t.train_steps(teacher, 1000);
  const nlohmann::json recipe = {{"epochs", 2}, {"batch", 32}, {"validation_samples", 32}};
  const std::size_t labels = t.add_model(default_distill_student_spec());
  const std::size_t zero = t.add_model(default_distill_student_spec());
  const std::size_t distilled = t.add_model(default_distill_student_spec());
  const nlohmann::json plain = t.start_training(labels, d, recipe);
  const nlohmann::json z = t.start_distillation(zero, teacher, d, recipe, 1, 0);
  const nlohmann::json s = t.start_distillation(distilled, teacher, d, recipe, 2, 0.9);
  CHECK(z["steps_total"] == plain["steps_total"]);
  CHECK(s["train_samples"] == plain["train_samples"]);
  CHECK(s["teacher"] == "mlp_64_32");
  CHECK(s["alpha"] == 0.9);
  CHECK_THROWS_WITH_AS(t.start_distillation(distilled, teacher, d, recipe, 0, 0.5),
                       doctest::Contains("temperature"), ValueError);
  t.start_distillation(distilled, teacher, d, recipe, 2, 0.9);  // again, after the refusal
  const double first = t.train_steps(distilled, 1)["loss"];
  t.train_steps(labels, 1000);
  t.train_steps(zero, 1000);
  const nlohmann::json last = t.train_steps(distilled, 1000);
  CHECK(last["finished"] == true);
  const nlohmann::json result = t.training_result(distilled);
  CHECK(result["epochs"][1]["train_loss"].get<double>() < first);
  // α = 0: the same weights as the labels alone, bit for bit; α = 0.9: not.
  const auto weights = [&](std::size_t id) { return t.weight_distribution(id)["all"].dump(); };
  CHECK(weights(zero) == weights(labels));
  CHECK(weights(distilled) != weights(labels));
  // The distilled student's file names its teacher; the teacher may go.
  t.drop_model(teacher);
  const ModelFile file = read_model_file(t.model_file(distilled), "the student's file");
  REQUIRE(file.training.has_value());
  REQUIRE(file.training->lineage.size() == 1);
  CHECK(file.training->lineage[0]["transform"] == "distill");
  CHECK(file.training->lineage[0]["teacher"] == "mlp_64_32");
  CHECK(file.training->lineage[0]["epochs"] == 2);
  CHECK(file.training->lineage[0]["alpha"] == 0.9);
}
#endif
