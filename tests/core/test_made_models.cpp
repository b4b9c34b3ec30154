// What this file protects: the Optimization chapter's work on held models
// (optimize/made_models.hpp). The Pareto frontier keeps exactly the points no other point
// beats in both cost and accuracy (hand-made points); quantizing a held model holds an int8
// model whose file, bytes, lineage and evaluation are the ones quantize_int8 and
// evaluate(ModelFile&) give independently; an int8 model is neither quantized again nor
// trained; a timing run gives each model its own per-call samples.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/optimize/quantize.hpp"
#include "perflab/timing/clock.hpp"

using namespace perflab;

TEST_CASE("The Pareto frontier keeps the points no other point beats in cost and accuracy") {
  // (cost, accuracy): b beats a (cheaper, as accurate); c is the most accurate; d is dominated
  // by b; e ties b exactly, so both stay.
  const std::vector<ParetoPoint> points = {
      {10, 0.80}, {5, 0.80}, {20, 0.90}, {6, 0.70}, {5, 0.80}, {1, 0.50}};
  CHECK(pareto_front(points) == std::vector<bool>{false, true, true, false, true, true});
  CHECK(pareto_front({}).empty());
  CHECK(pareto_front({{3, 0.1}}) == std::vector<bool>{true});
  CHECK_THROWS_WITH_AS(pareto_front({{1, 0.5}, {-1, 0.5}}),
                       "points[1] must have a finite cost of at least 0 and a finite accuracy, got "
                       "cost -1.000000 and accuracy 0.500000",
                       ValueError);
}

#ifndef __EMSCRIPTEN__
namespace {

const nlohmann::json kSmallMlp = {{"name", "small_mlp"},
                                  {"input", {16, 784}},
                                  {"seed", 4},
                                  {"layers",
                                   {{{"type", "Linear"}, {"in", 784}, {"out", 16}},
                                    {{"type", "ReLU"}},
                                    {{"type", "Linear"}, {"in", 16}, {"out", 10}}}}};

}  // namespace

TEST_CASE("A held model quantized to int8 is held with its file, bytes, lineage and evaluation") {
  const std::string dir = kFashionMnistDir;
  const auto images = read_maybe_gzip_file(dir + "/t10k-images-idx3-ubyte.gz");
  const auto labels = read_maybe_gzip_file(dir + "/t10k-labels-idx1-ubyte.gz");
  SessionTable t;
  const std::size_t test = t.add_fashion_mnist(images, labels, "test", 200);
  // Calibration reads a "train" split; the first test images stand in for it here.
  const std::size_t train = t.add_fashion_mnist(images, labels, "train", 120);
  const std::size_t source = t.add_model(kSmallMlp);

  const nlohmann::json r =
      quantize_held_model(t, source, train, test, 100, Calibration::Percentile, 50);
  const std::size_t q = r["model"];
  CHECK(q != source);
  CHECK(r["source"] == source);
  CHECK(r["calibration"] == "percentile");
  CHECK(r["calibration_images"] == 100);
  // Codes K·N, a float32 scale and bias per output: counted by hand.
  const std::size_t int8_bytes = 784 * 16 + 16 * 10 + (16 + 10) * 4 * 2;
  CHECK(r["parameter_bytes"] == int8_bytes);
  CHECK(r["float_parameter_bytes"] == (784 * 16 + 16 + 16 * 10 + 10) * 4);
  CHECK(t.model_info(q)["parameter_bytes"] == int8_bytes);
  CHECK(t.model_info(source)["quantization"].is_null());
  REQUIRE(r["layers"].size() == 2);
  CHECK(r["layer_errors"].size() == 3);  // every layer, the ReLU too
  CHECK(r["layer_errors"][2]["max_abs"].get<double>() > 0);
  REQUIRE(r["lineage"].size() == 1);
  CHECK(r["lineage"][0]["transform"] == "quantize");

  // The same quantization done independently: same codes in the file, same evaluation.
  ModelFile mine = read_model_file(t.model_file(source), "the source");
  const LabeledImages calib = take_first(load_fashion_mnist(dir, "test"), 120);
  const Quantization own = quantize_int8(mine.model, calib, mine.preprocessing, 100,
                                         Calibration::Percentile);
  const ModelFile held = read_model_file(t.model_file(q), "the int8 model");
  REQUIRE(held.quantization.has_value());
  REQUIRE(held.quantization->layers.size() == own.layers.size());
  for (std::size_t i = 0; i < own.layers.size(); ++i) {
    CHECK(held.quantization->layers[i].input_lo == own.layers[i].input_lo);
    CHECK(held.quantization->layers[i].input_hi == own.layers[i].input_hi);
    CHECK(held.quantization->layers[i].weights.scale == own.layers[i].weights.scale);
  }
  ModelFile independent{std::move(mine.model), mine.preprocessing, mine.training, own};
  const LabeledImages test_images = take_first(load_fashion_mnist(dir, "test"), 200);
  const Evaluation expected = evaluate(independent, test_images);
  const nlohmann::json got = t.evaluate(q, test, 0);
  CHECK(got["correct"] == expected.correct);
  CHECK(got["parameter_bytes"] == int8_bytes);
  CHECK(got["mean_loss"].get<double>() == doctest::Approx(expected.mean_loss));

  CHECK_THROWS_WITH_AS(
      quantize_held_model(t, q, train, test, 100, Calibration::MinMax, 50),
      ("model " + std::to_string(q) + " is int8 already; quantize the float model it came from")
          .c_str(),
      ValueError);
  CHECK_THROWS_WITH_AS(t.start_training(q, train, nlohmann::json::object()),
                       ("model " + std::to_string(q) +
                        " is int8; train the float model it came from, then quantize again")
                           .c_str(),
                       ValueError);
  CHECK_THROWS_AS(quantize_held_model(t, source, test, test, 100, Calibration::MinMax, 50),
                  ValueError);  // calibration needs the train split
  CHECK_THROWS_AS(quantize_held_model(t, source, train, test, 0, Calibration::MinMax, 50),
                  ValueError);

  SUBCASE("a timing run gives each model its own samples") {
    // The steady clock with a small budget: what is checked is the shape, never a time.
    Clock& clock = default_clock();
    TimerOptions o;
    o.warmup = 0;
    o.samples = 4;
    o.min_sample_ms = 0.1;
    o.max_total_ms = 100;
    const nlohmann::json run = time_held_models(t, {source, q}, test, 8, o, clock);
    CHECK(run["batch"] == 8);
    REQUIRE(run["models"].size() == 2);
    CHECK(run["models"][1]["model"] == q);
    CHECK(run["models"][0]["per_call_ms"].size() == run["rounds"].get<std::size_t>());
    CHECK_THROWS_WITH_AS(time_held_models(t, {q, q}, test, 8, o, clock),
                         "model_ids lists a model twice; list each held model once", ValueError);
    CHECK_THROWS_WITH_AS(time_held_models(t, {q}, test, 0, o, clock),
                         "batch must be from 1 to the test split's 200 images, got 0", ValueError);
  }
}
#endif
