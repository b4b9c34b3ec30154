// Protects an Olympics entry's path through the grader (olympics/entry.hpp): a pipeline is
// read with a sentence naming the path for anything an entry may not hold; a made model's
// lineage gives its pipeline; the model rebuilt from the pipeline is the one the page's
// session-table calls made, byte for byte; the checker rebuilds a shared prefix once, refuses
// malformed entries and another base with sentences (never throwing), flags a claim the
// rebuild does not bear out and timing samples off the clock's grid. Tiny data: a small MLP
// trained on the first 300 training images, evaluated on the first 100 test images.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/olympics/entry.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/session_table.hpp"
#include "real_data.hpp"

using namespace perflab;
using nlohmann::json;

TEST_CASE("A pipeline is read canonically, keyed and told in words") {
  const json p = json::array({{{"transform", "prune"},
                               {"method", "structured"},
                               {"fraction", 0.5},
                               {"finetune_epochs", 1},
                               {"train_images", 12000}},
                              {{"transform", "quantize"},
                               {"scheme", "int8"},
                               {"calibration", "minmax"},
                               {"calibration_images", 512},
                               {"train_images", 12000}}});
  const std::vector<OlympicsStep> steps = olympics_pipeline_from_json(p);
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].fraction == 0.5);
  CHECK(steps[0].train_images == 12000);
  // A quantize reads only its calibration images: that is its train_images.
  CHECK(steps[1].train_images == 512);
  CHECK(olympics_pipeline_json(steps)[1]["train_images"] == 512);
  CHECK(olympics_lineage_text(steps) == "prune 50%, fine-tune 1 epoch, int8 (minmax, 512 images)");
  CHECK(olympics_lineage_text({}) == "the baseline (no transform)");
  // A prune that does not fine-tune reads no training image, whatever the entry says.
  json q = json::array({{{"transform", "prune"},
                         {"method", "structured"},
                         {"fraction", 0.25},
                         {"finetune_epochs", 0},
                         {"train_images", 12000}}});
  const std::vector<OlympicsStep> no_tuning = olympics_pipeline_from_json(q);
  q[0].erase("train_images");
  CHECK(olympics_pipeline_key(no_tuning) == olympics_pipeline_key(olympics_pipeline_from_json(q)));
  CHECK(olympics_pipeline_key(no_tuning) != olympics_pipeline_key({steps[0]}));
  CHECK(olympics_lineage_text(no_tuning) == "prune 25%");
}

TEST_CASE("A pipeline an entry may not hold is refused, naming the path") {
  const json prune = {{"transform", "prune"},
                      {"method", "structured"},
                      {"fraction", 0.5},
                      {"finetune_epochs", 1},
                      {"train_images", 12000}};
  const json quantize = {{"transform", "quantize"},
                         {"scheme", "int8"},
                         {"calibration", "minmax"},
                         {"calibration_images", 512}};
  json bad = quantize;
  bad["calibration"] = "mean";
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({prune, bad})),
                       "entry.pipeline[1].calibration is \"mean\"; allowed: minmax, percentile",
                       ValueError);
  const std::string allowed =
      "an entry's pipeline is a structured prune (with 0 to 3 fine-tuning epochs), then "
      "optionally one int8 quantize, or either alone, or nothing (the baseline itself)";
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({{{"transform", "distill"}}})),
                       ("entry.pipeline[0].transform is \"distill\": distillation trains "
                        "another model, which is not an Olympics step; " +
                        allowed)
                           .c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({quantize, prune})),
                       ("entry.pipeline[1] is a prune after a quantize; " + allowed).c_str(),
                       ValueError);
  bad = prune;
  bad["finetune_epochs"] = 4;
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({bad})),
                       "entry.pipeline[0].finetune_epochs must be a whole number from 0 to 3 "
                       "(the fine-tuning epochs after the prune), got 4",
                       ValueError);
  bad = prune;
  bad["method"] = "magnitude";
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({bad})),
                       ("entry.pipeline[0].method is \"magnitude\"; an Olympics prune is "
                        "\"structured\" (whole hidden units removed, so the model really "
                        "shrinks): " +
                        allowed)
                           .c_str(),
                       ValueError);
  bad = prune;
  bad["fraction"] = 1;
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({bad})),
                       "entry.pipeline[0].fraction must be a number at least 0 and below 1 (0.5 "
                       "removes half the hidden units), got 1",
                       ValueError);
  bad = quantize;
  bad["seed"] = 3;
  CHECK_THROWS_WITH_AS(olympics_pipeline_from_json(json::array({bad})),
                       "entry.pipeline[0] has a field \"seed\" a quantize step does not have; "
                       "its fields are calibration, calibration_images, scheme, train_images, "
                       "transform",
                       ValueError);
  bad = quantize;
  bad["train_images"] = 100;
  CHECK_THROWS_AS(olympics_pipeline_from_json(json::array({bad})), ValueError);
  CHECK_THROWS_WITH_AS(
      olympics_pipeline_from_json(json::object()),
      ("entry.pipeline must be an array of steps (" + allowed + "), got {}").c_str(), ValueError);
}

TEST_CASE(
    "A made model's lineage gives its pipeline; a distilled or magnitude-pruned one is "
    "refused") {
  ModelFile file{model_from_json({{"name", "m"},
                                  {"input", {1, 4}},
                                  {"layers", {{{"type", "Linear"}, {"in", 4}, {"out", 2}}}}}),
                 Preprocessing{}, std::nullopt};
  CHECK(olympics_pipeline_of(file).empty());
  TrainingFacts facts;
  facts.train_samples = 11000;
  facts.validation_samples = 1000;
  facts.lineage = json::array({{{"transform", "prune"},
                                {"method", "structured"},
                                {"fraction", 0.5},
                                {"criterion", "l2 norm of incoming weights"},
                                {"layers", json::array()},
                                {"finetune_epochs", 2}},
                               {{"transform", "quantize"},
                                {"scheme", "int8"},
                                {"calibration", "percentile"},
                                {"calibration_images", 1000}}});
  file.training = facts;
  const std::vector<OlympicsStep> p = olympics_pipeline_of(file);
  REQUIRE(p.size() == 2);
  CHECK(p[0].finetune_epochs == 2);
  CHECK(p[0].train_images == 12000);  // the fine-tuning's training and validation images
  CHECK(p[1].calibration == Calibration::Percentile);
  CHECK(p[1].calibration_images == 1000);
  // A fine-tuning cancelled after 2 of 3 epochs followed a 3-epoch schedule: not rebuildable.
  file.training->recipe = {{"epochs", 3}};
  CHECK_THROWS_WITH_AS(olympics_pipeline_of(file, "model 3"),
                       "model 3's lineage[0] is a prune whose fine-tuning was cancelled after 2 "
                       "of 3 epochs; its learning rate followed the schedule of all 3, so the "
                       "grader cannot rebuild it: fine-tune it again to the end and enter that "
                       "model",
                       ValueError);
  file.training->recipe = {{"epochs", 2}};
  CHECK(olympics_pipeline_of(file).size() == 2);
  file.training->lineage =
      json::array({{{"transform", "distill"}, {"teacher", "fashion_mlp"}, {"temperature", 4}}});
  CHECK_THROWS_WITH_AS(olympics_pipeline_of(file, "model 3"),
                       "model 3's lineage[0] is a distillation, which an Olympics entry cannot "
                       "hold: an entry's pipeline is a structured prune (with 0 to 3 "
                       "fine-tuning epochs), then optionally one int8 quantize, or either alone, "
                       "or nothing (the baseline itself); enter a model made that way",
                       ValueError);
  file.training->lineage = json::array({{{"transform", "prune"}, {"method", "magnitude"}}});
  CHECK_THROWS_WITH_AS(olympics_pipeline_of(file, "model 3"),
                       doctest::Contains("model 3's lineage[0] is a magnitude prune"), ValueError);
}

#ifndef __EMSCRIPTEN__
namespace {

const json kMlp = {{"name", "mlp_64_32"},
                   {"input", {16, 784}},
                   {"layers",
                    {{{"type", "Linear"}, {"in", 784}, {"out", 64}},
                     {{"type", "ReLU"}},
                     {{"type", "Linear"}, {"in", 64}, {"out", 32}},
                     {{"type", "ReLU"}},
                     {{"type", "Linear"}, {"in", 32}, {"out", 10}}}}};

std::shared_ptr<const LabeledImages> train_images() {
  static const auto t =
      std::make_shared<const LabeledImages>(take_first(real_data::fashion_mnist("train"), 300));
  return t;
}
std::shared_ptr<const LabeledImages> test_images() {
  static const auto t =
      std::make_shared<const LabeledImages>(take_first(real_data::fashion_mnist("test"), 100));
  return t;
}

// The base: the MLP trained one epoch on the 300 training images, as its model file.
const std::vector<std::uint8_t>& base_bytes() {
  static const std::vector<std::uint8_t> bytes = [] {
    SessionTable t;
    const std::size_t d = t.add_images(*train_images(), "train");
    const std::size_t m = t.add_model(kMlp);
    t.start_training(
        m, d, {{"epochs", 1}, {"batch", 16}, {"validation_samples", 30}, {"learning_rate", 0.004}});
    t.train_steps(m, 1000);
    return t.model_file(m);
  }();
  return bytes;
}

// An honest-shaped interleaved timing: 12 rounds on a 0.1 ms grid (one call per sample),
// the entry's model `factor` times the baseline's.
json timing(double factor) {
  json a = json::array(), b = json::array(), first = json::array();
  for (int i = 0; i < 12; ++i) {
    const int ticks = 40 + i % 5;
    a.push_back(ticks * 0.1);
    b.push_back(std::round(ticks * factor) * 0.1);
    first.push_back(i % 3 == 0);
  }
  return {{"batch", 1},
          {"mode", "interleaved"},
          {"rounds", 12},
          {"a_ms", a},
          {"b_ms", b},
          {"a_first", first},
          {"resolution_ms", 0.1},
          {"inner_iterations_a", 1},
          {"inner_iterations_b", 1}};
}

json entry_with(const json& pipeline, const std::string& checksum) {
  return {{"id", "entry-1"},
          {"name", "test entry"},
          {"events", {"latency-sprint", "all-around"}},
          {"base", {{"model", "mlp_64_32"}, {"checksum", checksum}}},
          {"pipeline", pipeline},
          {"timing", timing(0.5)},
          {"finished_at", "2026-12-02T07:00:00.000Z"}};
}

const json kPrune = {{"transform", "prune"},
                     {"method", "structured"},
                     {"fraction", 0.5},
                     {"finetune_epochs", 1},
                     {"train_images", 240}};
const json kQuantize = {{"transform", "quantize"},
                        {"scheme", "int8"},
                        {"calibration", "percentile"},
                        {"calibration_images", 50}};

}  // namespace

TEST_CASE("The model rebuilt from a made model's pipeline is the page's, byte for byte") {
  // What the page's worker does: load the splits and the base, prune, fine-tune in chunks with
  // an evaluation after each epoch, then quantize the made model's file.
  SessionTable t;
  const std::size_t train = t.add_images(take_first(*train_images(), 240), "train");
  const std::size_t test = t.add_images(*test_images(), "test");
  CHECK_THROWS_WITH_AS(t.add_images(*test_images(), "validation"),
                       "split must be \"train\" or \"test\", got \"validation\"", ValueError);
  CHECK(t.dataset_info(test)["count"] == 100);
  const std::size_t base = t.add_model_file(base_bytes(), "the base");
  t.evaluate(base, test, 0);
  const std::size_t pruned = t.prune_structured(base, 0.5)["model"];
  t.evaluate(pruned, test, 0);
  t.start_finetuning(pruned, train, 1);
  while (!t.train_steps(pruned, 3)["finished"].get<bool>()) {
  }
  t.evaluate(pruned, test, 0);
  const std::vector<std::uint8_t> made = t.model_file(pruned);
  const std::size_t source = t.add_model_file(made, "the made model");
  const std::size_t calibration = t.add_images(take_first(*train_images(), 50), "train");
  const std::size_t q =
      quantize_held_model(t, source, calibration, test, 50, Calibration::Percentile, 16)["model"];
  const std::vector<std::uint8_t> made_int8 = t.model_file(q);

  const std::vector<OlympicsStep> pipeline =
      olympics_pipeline_of(read_model_file(made_int8, "the int8 model"));
  CHECK(olympics_pipeline_json(pipeline) == json::array({
                                                {{"transform", "prune"},
                                                 {"method", "structured"},
                                                 {"fraction", 0.5},
                                                 {"finetune_epochs", 1},
                                                 {"train_images", 240}},
                                                {{"transform", "quantize"},
                                                 {"scheme", "int8"},
                                                 {"calibration", "percentile"},
                                                 {"calibration_images", 50},
                                                 {"train_images", 50}},
                                            }));
  // The grader's training split is longer; the steps read its first images, as the page did.
  CHECK(rebuild_olympics_model(base_bytes(), {pipeline[0]}, *train_images(), *test_images()) ==
        made);
  CHECK(rebuild_olympics_model(base_bytes(), pipeline, *train_images(), *test_images()) ==
        made_int8);
  CHECK(rebuild_olympics_model(base_bytes(), {}, *train_images(), *test_images()) == base_bytes());
  // Another step builds another model.
  std::vector<OlympicsStep> other = pipeline;
  other[1].calibration = Calibration::MinMax;
  CHECK(rebuild_olympics_model(base_bytes(), other, *train_images(), *test_images()) != made_int8);
}

TEST_CASE("The checker rebuilds a shared lineage once and judges every event") {
  OlympicsChecker checker(base_bytes(), train_images(), test_images());
  const std::string sum = checker.base_checksum();
  CHECK(sum == model_file_checksum_hex(base_bytes()));
  CHECK(sum.size() == 16);
  json minmax = kQuantize;
  minmax["calibration"] = "minmax";
  const json a = checker.check(entry_with(json::array({kPrune}), sum));
  REQUIRE(a["valid"] == true);
  CHECK(checker.rebuilds() == 1);
  const json b = checker.check(entry_with(json::array({kPrune, kQuantize}), sum));
  const json c = checker.check(entry_with(json::array({kPrune, minmax}), sum));
  const json again = checker.check(entry_with(json::array({kPrune, kQuantize}), sum));
  // The prune and its fine-tuning once, each quantize once.
  CHECK(checker.rebuilds() == 3);
  CHECK(again == b);
  REQUIRE(b["valid"] == true);
  CHECK(b["error"].is_null());
  CHECK(b["lineage_text"] == "prune 50%, fine-tune 1 epoch, int8 (percentile, 50 images)");
  CHECK(b["images"] == 100);
  CHECK(b["accuracy"].get<double>() == b["correct"].get<double>() / 100);
  // The rebuilt model's own figures: its file evaluated afresh.
  ModelFile rebuilt = read_model_file(
      rebuild_olympics_model(base_bytes(), olympics_pipeline_from_json(b["pipeline"]),
                             *train_images(), *test_images()),
      "rebuilt");
  const Evaluation e = evaluate(rebuilt, *test_images());
  CHECK(b["accuracy"].get<double>() == e.accuracy);
  CHECK(b["parameter_bytes"] == e.parameter_bytes);
  CHECK(b["parameter_bytes"].get<std::size_t>() < a["parameter_bytes"].get<std::size_t>());
  const json baseline = checker.baseline();
  CHECK(b["baseline"] == baseline);
  CHECK(b["bytes_ratio"].get<double>() ==
        doctest::Approx(b["parameter_bytes"].get<double>() /
                        baseline["parameter_bytes"].get<double>()));
  CHECK(b["latency"]["self_reported"] == true);
  CHECK(b["latency"]["ratio"].get<double>() == doctest::Approx(0.5).epsilon(0.05));
  // Every event, in order, entered as the entry says; the verdicts are the judge's.
  REQUIRE(b["events"].size() == olympics_events().size());
  OlympicsFigures f;
  f.accuracy = b["accuracy"];
  f.parameter_bytes = b["parameter_bytes"];
  f.baseline_accuracy = baseline["accuracy"];
  f.baseline_parameter_bytes = baseline["parameter_bytes"];
  f.latency_ratio = b["latency"]["ratio"];
  f.latency_ratio_low = b["latency"]["interval"][0];
  f.latency_ratio_high = b["latency"]["interval"][1];
  const std::vector<EventJudgement> judged = judge_olympics_entry(f);
  for (std::size_t i = 0; i < judged.size(); ++i) {
    CAPTURE(i);
    json expected = to_json(judged[i]);
    expected["entered"] = judged[i].event == "latency-sprint" || judged[i].event == "all-around";
    CHECK(b["events"][i] == expected);
  }
  CHECK(b["flags"] == json::array());  // no claim, timing on its grid, no export time
  CHECK(c["accuracy"].is_number());
}

TEST_CASE("The checker keeps the most recently used rebuilt models, and the base for good") {
  OlympicsChecker checker(base_bytes(), train_images(), test_images());
  const auto pruned = [&](std::size_t i) {
    json step = kPrune;
    step["finetune_epochs"] = 0;
    step["fraction"] = 0.001 * static_cast<double>(i);
    return checker.check(entry_with(json::array({step}), checker.base_checksum()));
  };
  for (std::size_t i = 0; i <= kOlympicsCachedModels; ++i) REQUIRE(pruned(i)["valid"] == true);
  CHECK(checker.rebuilds() == kOlympicsCachedModels + 1);
  pruned(kOlympicsCachedModels);  // the latest is kept
  CHECK(checker.rebuilds() == kOlympicsCachedModels + 1);
  pruned(0);  // the first went when the 65th came
  CHECK(checker.rebuilds() == kOlympicsCachedModels + 2);
  checker.check(entry_with(json::array(), checker.base_checksum()));  // the base: no rebuild
  CHECK(checker.rebuilds() == kOlympicsCachedModels + 2);
}

TEST_CASE("The checker refuses malformed entries and another base with a sentence") {
  OlympicsChecker checker(base_bytes(), train_images(), test_images());
  const std::string sum = checker.base_checksum();
  const auto error_of = [&](const json& entry) {
    const json r = checker.check(entry);
    CHECK(r["valid"] == false);
    CHECK(r["events"] == json::array());
    CHECK(r["accuracy"].is_null());
    return r["error"].get<std::string>();
  };
  json bad_step = kQuantize;
  bad_step["calibration"] = "mean";
  CHECK(error_of(entry_with(json::array({kPrune, bad_step}), sum)) ==
        "entry.pipeline[1].calibration is \"mean\"; allowed: minmax, percentile");
  CHECK(error_of(entry_with(json::array(), "0123456789abcdef")) ==
        "entry.base is mlp_64_32 with checksum 0123456789abcdef, but the base here is mlp_64_32 "
        "with checksum " +
            sum +
            ": the entry was made from another model; an entry transforms "
            "the pretrained mlp_64_32");
  json e = entry_with(json::array(), sum);
  e["events"] = {"latency-sprint", "marathon"};
  CHECK(error_of(e).rfind("entry.events[1]: ", 0) == 0);
  e = entry_with(json::array(), sum);
  e.erase("timing");
  CHECK(error_of(e) == "entry.timing is missing");
  e = entry_with(json::array(), sum);
  e["timing"]["batch"] = 8;
  CHECK(error_of(e) == "entry.timing.batch is 8; an Olympics latency is timed at batch 1");
  e = entry_with(json::array(), sum);
  e["claimed"] = {{"accuracy", 1.5}, {"parameter_bytes", 100}};
  CHECK(error_of(e) ==
        "entry.claimed.accuracy must be a number from 0 to 1 (the test accuracy "
        "the page measured), got 1.5");
  json many = kPrune;
  many["train_images"] = 5000;
  CHECK(error_of(entry_with(json::array({many}), sum)) ==
        "entry.pipeline[0].train_images is 5000 but the training split here holds 300 images");
  CHECK(error_of(json::array()) ==
        "entry must be an object {id, name, events, base, pipeline, claimed, timing, "
        "finished_at}, got []");
  // Nothing above was worth a rebuild.
  CHECK(checker.rebuilds() == 0);
  CHECK(checker.check(entry_with(json::array(), sum))["valid"] == true);
}

TEST_CASE("The checker flags a claim the rebuild does not bear out and timing off the grid") {
  OlympicsChecker checker(base_bytes(), train_images(), test_images());
  const std::string sum = checker.base_checksum();
  json e = entry_with(json::array(), sum);
  const json honest = checker.check(e);
  REQUIRE(honest["valid"] == true);
  e["claimed"] = {{"accuracy", honest["accuracy"]}, {"parameter_bytes", honest["parameter_bytes"]}};
  CHECK(checker.check(e, "2026-12-02T08:00:00.000Z")["flags"] == json::array());

  e["claimed"]["accuracy"] = honest["accuracy"].get<double>() + 0.05;
  e["claimed"]["parameter_bytes"] = 1000;
  json flags = checker.check(e)["flags"];
  REQUIRE(flags.size() == 2);
  CHECK(flags[0]["code"] == "olympics-claim-differs");
  CHECK(flags[0]["reason"].get<std::string>().find("rebuilt") != std::string::npos);
  CHECK(flags[1]["code"] == "olympics-claim-differs");
  CHECK(flags[1]["reason"].get<std::string>().rfind("claimed 1000 parameter bytes, rebuilt ", 0) ==
        0);

  // Samples between the ticks of the 0.1 ms clock the timing records.
  e = entry_with(json::array(), sum);
  e["timing"]["b_ms"][3] = 2.1234;
  flags = checker.check(e)["flags"];
  REQUIRE(flags.size() == 1);
  CHECK(flags[0]["code"] == "evidence-off-grid");
  CHECK(flags[0]["reason"].get<std::string>().rfind("entry.timing: rows[0].b_ms: 1 of 12 samples "
                                                    "are not whole ticks",
                                                    0) == 0);
  // A run that finished after the file that carries it was exported.
  e = entry_with(json::array(), sum);
  flags = checker.check(e, "2026-12-02T06:00:00.000Z")["flags"];
  REQUIRE(flags.size() == 1);
  CHECK(flags[0]["code"] == "evidence-chronology");
}
#endif
