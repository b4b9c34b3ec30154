// What this file protects: the Benchmarking chapter's model benchmarks and suites. The metric
// list and its errors, the original course's energy formula (labelled, never a result),
// comparisons on one metric, an optimized model against its base, the suite file's checks
// naming each field, and the report's decisions (best per metric, recommendations) are
// checked on benchmarks built by hand, where every number can be worked out on paper.
// Measured runs use tiny budgets on the real clock (a fake one does not move with the work,
// so the Timer would batch to its cap); their timings are never asserted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/train.hpp"

#include "real_data.hpp"
#include "timer_helpers.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

ModelBenchmark bench(const std::string& name, double latency_ms, double peak_bytes,
                     std::size_t parameters = 100, std::size_t batch = 4) {
  ModelBenchmark b;
  b.name = name;
  b.source = "spec";
  b.batch = batch;
  b.parameters = parameters;
  b.size_bytes = 4.0 * static_cast<double>(parameters);
  b.flops_per_sample = 2.0 * static_cast<double>(parameters);
  b.flops_per_batch = b.flops_per_sample * static_cast<double>(batch);
  b.peak_memory_bytes = peak_bytes;
  b.latency.samples = 10;
  b.latency.median_ms = latency_ms;
  b.latency.mean_ms = latency_ms + 0.5;
  b.latency.stddev_ms = 0.25;
  b.latency_ms = latency_ms;
  b.throughput_samples_per_s = static_cast<double>(batch) / (latency_ms / 1000.0);
  b.original_energy_estimate_j = original_energy_estimate_j(latency_ms, peak_bytes);
  b.accuracy_note = kAccuracyFromSeed;  // as benchmark_model says of a zoo model or a spec
  return b;
}

// bench() with trained weights: `correct` of 1,000 test images right.
ModelBenchmark trained(const std::string& name, double latency_ms, double peak_bytes,
                       std::size_t correct, std::size_t parameters = 100) {
  ModelBenchmark b = bench(name, latency_ms, peak_bytes, parameters);
  b.source = "model file";
  b.accuracy = static_cast<double>(correct) / 1000.0;
  b.accuracy_images = 1000;
  b.accuracy_correct = correct;
  b.accuracy_note = "measured by evaluate() on the test split";
  return b;
}

SuitePointResult model_point(std::size_t index, const ModelBenchmark& b) {
  SuitePointResult p;
  p.kind = "model";
  p.index = index;
  p.model = b;
  return p;
}

using timer_test::tiny_timer;

const char* kMetricList =
    "latency_ms, throughput_samples_per_s, peak_memory_bytes, parameters, size_bytes, "
    "flops_per_sample, accuracy";

}  // namespace

TEST_CASE("the metric list names seven metrics and an unknown one is an error listing them") {
  REQUIRE(model_metrics().size() == 7);
  CHECK(model_metric("latency_ms").lower_is_better);
  CHECK(model_metric("latency_ms").timed);
  CHECK_FALSE(model_metric("throughput_samples_per_s").lower_is_better);
  CHECK_FALSE(model_metric("parameters").timed);
  CHECK_THROWS_WITH_AS(model_metric("speed"),
                       (std::string("unknown metric \"speed\"; the metrics are ") + kMetricList)
                           .c_str(),
                       ValueError);
  SUBCASE("accuracy is a counted fraction, higher is better, with a value only when measured") {
    const MetricInfo& a = model_metric("accuracy");
    CHECK_FALSE(a.lower_is_better);
    CHECK_FALSE(a.timed);
    CHECK_FALSE(metric_value(bench("a", 1, 1), "accuracy").has_value());
    CHECK(*metric_value(trained("t", 1, 1, 853), "accuracy") == doctest::Approx(0.853));
    CHECK(metric_text("accuracy", 0.853) == "85.30%");
    CHECK(std::string(kAccuracyFromSeed).find("not measured: random weights from the spec's "
                                              "seed, no training") == 0);
  }
}

TEST_CASE("the original course's energy figure is its formula, labelled as an estimate") {
  // 0.1 + 2.0 · 0.5 s + 0.01 · 10 MiB = 0.1 + 1.0 + 0.1
  CHECK(original_energy_estimate_j(500.0, 10.0 * 1024 * 1024) == doctest::Approx(1.2));
  CHECK(original_energy_estimate_j(0.0, 0.0) == doctest::Approx(0.1));
  CHECK(std::string(kEnergyEstimateLabel) ==
        "original course's estimate (a formula, not a measurement)");
  const json j = to_json(bench("a", 500.0, 10.0 * 1024 * 1024));
  CHECK(j["original_energy_estimate_j"].get<double>() == doctest::Approx(1.2));
  CHECK(j["original_energy_estimate_label"] == kEnergyEstimateLabel);
}

TEST_CASE("a model's latency fields are its Timer's median, mean and sample standard deviation") {
  ModelBenchmark b = bench("a", 2, 400);
  b.latency.median_ms = 2;
  b.latency.mean_ms = 2.5;
  b.latency.stddev_ms = 0.75;
  const json j = to_json(b);
  CHECK(j["latency_mean_ms"] == 2.5);
  CHECK(j["latency_spread_ms"] == 0.75);
  CHECK(j["latency_spread_kind"] == "sample standard deviation");
  CHECK(j["latency"] == to_json(b.latency));
}

TEST_CASE("compare_models ranks by the metric's direction, relative to the best") {
  const std::vector<ModelBenchmark> models = {bench("a", 2, 400), bench("b", 1, 800),
                                              bench("c", 4, 100)};
  SUBCASE("lower is better: value / best") {
    const auto r = compare_models(models, "latency_ms");
    REQUIRE(r.size() == 3);
    CHECK(r[0].name == "b");
    CHECK(r[0].times_worse_than_best == 1);
    CHECK(r[1].name == "a");
    CHECK(r[1].times_worse_than_best == doctest::Approx(2));
    CHECK(r[2].name == "c");
    CHECK(r[2].times_worse_than_best == doctest::Approx(4));
  }
  SUBCASE("higher is better: best / value") {
    // batch 4: throughput 2000, 4000 and 1000 samples/s
    const auto r = compare_models(models, "throughput_samples_per_s");
    CHECK(r[0].name == "b");
    CHECK(r[0].value == doctest::Approx(4000));
    CHECK(r[2].name == "c");
    CHECK(r[2].times_worse_than_best == doctest::Approx(4));
  }
  SUBCASE("ties keep the input order") {
    const auto r = compare_models(models, "parameters");
    CHECK(r[0].name == "a");
    CHECK(r[1].name == "b");
    CHECK(r[2].times_worse_than_best == 1);
  }
  SUBCASE("bad arguments") {
    CHECK_THROWS_AS(compare_models(models, "energy"), ValueError);
    CHECK_THROWS_WITH_AS(compare_models({}, "latency_ms"),
                         "compare_models needs at least one model, got none", ValueError);
  }
}

TEST_CASE("an optimized model against its base: ratios, retention not measured from seeds, advice") {
  const ModelBenchmark base = bench("base", 10, 1000, 200);
  SUBCASE("faster and smaller: adopt where accuracy holds") {
    const auto c = compare_optimization(base, bench("opt", 5, 500, 100));
    CHECK(c.speedup == doctest::Approx(2));
    CHECK(c.throughput_ratio == doctest::Approx(2));
    CHECK(c.memory_ratio == doctest::Approx(0.5));
    CHECK(c.size_ratio == doctest::Approx(0.5));
    CHECK(c.flops_ratio == doctest::Approx(0.5));
    CHECK_FALSE(c.accuracy_retention.has_value());
    CHECK_FALSE(c.accuracy_change_points.has_value());
    CHECK(c.accuracy_retention_reason == std::string("opt's accuracy is ") + kAccuracyFromSeed);
    REQUIRE(c.recommendations.size() == 5);
    CHECK(c.recommendations[0].find("opt against base: latency 2x faster") == 0);
    CHECK(c.recommendations[1] == "opt against base: peak memory 2x smaller");
    CHECK(c.recommendations[4].find("adopt opt where accuracy holds") == 0);
    CHECK(c.recommendations[4].find("Accuracy retention is not measured (opt's accuracy is "
                                    "not measured: random weights") != std::string::npos);
    CHECK(c.recommendations[4].find("accuracy of both models") != std::string::npos);
    const json j = to_json(c);
    CHECK(j["accuracy_retention"].is_null());
    CHECK(j["accuracy_change_points"].is_null());
    CHECK(j["speedup"].get<double>() == doctest::Approx(2));
  }
  SUBCASE("faster but larger: a trade-off") {
    const auto c = compare_optimization(base, bench("opt", 5, 2000, 200));
    CHECK(c.memory_ratio == doctest::Approx(2));
    CHECK(c.recommendations[1] == "opt against base: peak memory 2x larger");
    CHECK(c.recommendations[2] == "opt against base: size about the same (within 2%)");
    CHECK(c.recommendations[4].find("a trade-off") == 0);
  }
  SUBCASE("within the noise threshold: no measured gain") {
    const auto c = compare_optimization(base, bench("opt", 10.1, 1000, 200));
    CHECK(c.recommendations[0].find("latency about the same (within 2%)") !=
          std::string::npos);
    CHECK(c.recommendations[4].find("no measured gain") == 0);
  }
  SUBCASE("a bad threshold is refused") {
    CHECK_THROWS_WITH_AS(compare_optimization(base, base, -0.1),
                         "noise_threshold must be at least 0 and below 1, got -0.1",
                         ValueError);
    CHECK_THROWS_WITH_AS(compare_optimization(base, base, 0.02, -1),
                         "accuracy_tolerance_points must be from 0 to 100 percentage points, "
                         "got -1",
                         ValueError);
  }
  SUBCASE("only the base trained: retention not measured, naming the optimized model") {
    const auto c = compare_optimization(trained("base", 10, 1000, 860), bench("opt", 5, 500));
    CHECK_FALSE(c.accuracy_retention.has_value());
    CHECK(c.accuracy_retention_reason.find("opt's accuracy is not measured: random") == 0);
  }
}

TEST_CASE("an optimized model against its base, both trained: accuracy retention decides") {
  const ModelBenchmark base = trained("base", 10, 1000, 860, 200);
  SUBCASE("faster, smaller, and the accuracy holds within the tolerance: adopt") {
    // 855 / 860 right: retention 0.99419, -0.5 points.
    const auto c = compare_optimization(base, trained("opt", 5, 500, 855, 100));
    REQUIRE(c.accuracy_retention.has_value());
    CHECK(*c.accuracy_retention == doctest::Approx(855.0 / 860.0));
    CHECK(*c.accuracy_change_points == doctest::Approx(-0.5));
    CHECK(c.accuracy_retention_reason.find("measured: both accuracies by evaluate() on the same "
                                           "test split (1,000 and 1,000 images)") == 0);
    REQUIRE(c.recommendations.size() == 6);
    CHECK(c.recommendations[4] ==
          "opt against base: accuracy 85.50% against 86.00%, retention 99.42% (-0.50 points; "
          "within the 1-point tolerance)");
    CHECK(c.recommendations[5] ==
          "adopt opt: it is better on what was measured, worse on nothing, and its accuracy "
          "holds (within the 1-point tolerance).");
    const json j = to_json(c);
    CHECK(j["accuracy_retention"].get<double>() == doctest::Approx(855.0 / 860.0));
    CHECK(j["accuracy_change_points"].get<double>() == doctest::Approx(-0.5));
    CHECK(j["accuracy_tolerance_points"] == 1.0);
  }
  SUBCASE("faster but 6 points less accurate: a trade-off that names the loss") {
    const auto c = compare_optimization(base, trained("opt", 5, 500, 800, 100));
    CHECK(*c.accuracy_change_points == doctest::Approx(-6.0));
    CHECK(c.recommendations[4].find("(-6.00 points; a loss beyond the 1-point tolerance)") !=
          std::string::npos);
    CHECK(c.recommendations[5] ==
          "a trade-off: opt gains latency but it loses 6.00 points of accuracy; adopt it only "
          "where that gain matters more than the lost accuracy.");
  }
  SUBCASE("no speed or memory gain and less accurate: keep the base") {
    const auto c = compare_optimization(base, trained("opt", 10, 1000, 800, 200));
    CHECK(c.recommendations[5] ==
          "no measured gain: latency and memory are within the noise threshold, and it loses "
          "6.00 points of accuracy: keep base.");
  }
  SUBCASE("a wider tolerance reads the same loss as holding") {
    const auto c = compare_optimization(base, trained("opt", 5, 500, 800, 100), 0.02, 10);
    CHECK(c.recommendations[5].find("adopt opt: ") == 0);
  }
}

TEST_CASE("suite files are checked field by field") {
  const json ok = json::parse(R"({"name": "s", "models": ["mlp_784"], "metrics": ["latency_ms"]})");
  SUBCASE("a good file, with defaults") {
    const Suite s = suite_from_json(ok);
    CHECK(s.name == "s");
    REQUIRE(s.models.size() == 1);
    CHECK(s.models[0] == "mlp_784");
    CHECK(s.metrics == std::vector<std::string>{"latency_ms"});
    CHECK(s.batch == 0);
    CHECK(s.timer.samples == default_suite_timer_options().samples);
    CHECK(suite_point_count(s) == 1);
  }
  SUBCASE("optimizations name two different models of the suite") {
    json j = json::parse(R"({"name": "o", "models": ["mlp_784", "linear_128_64"], "metrics": ["latency_ms"],
                             "optimizations": [{"base": "mlp_784", "optimized": "linear_128_64"}]})");
    const Suite s = suite_from_json(j);
    REQUIRE(s.optimizations.size() == 1);
    CHECK(s.optimizations[0].base == "mlp_784");
    CHECK(s.optimizations[0].optimized == "linear_128_64");
    j["optimizations"][0]["base"] = "cnn_28";
    CHECK_THROWS_WITH_AS(suite_from_json(j),
                         "suite.optimizations[0].base must name one of the suite's models "
                         "(mlp_784, linear_128_64), got \"cnn_28\"",
                         ValueError);
    j["optimizations"][0] = json{{"base", "mlp_784"}, {"optimized", "mlp_784"}};
    CHECK_THROWS_WITH_AS(suite_from_json(j),
                         "suite.optimizations[0] compares \"mlp_784\" with itself; the optimized "
                         "model and its base must differ",
                         ValueError);
    j["optimizations"][0] = json{{"base", "mlp_784"}};
    CHECK_THROWS_WITH_AS(suite_from_json(j),
                         "suite.optimizations[0].optimized must name one of the suite's models "
                         "(mlp_784, linear_128_64), got nothing",
                         ValueError);
    j["optimizations"][0] = json{{"base", "mlp_784"}, {"optimized", "linear_128_64"}, {"by", 2}};
    CHECK_THROWS_WITH_AS(suite_from_json(j),
                         "suite.optimizations[0].by is not a field of an optimization; the fields "
                         "are base, optimized",
                         ValueError);
    j["optimizations"] = json::array({"mlp_784"});
    CHECK_THROWS_AS(suite_from_json(j), ValueError);
  }
  SUBCASE("kernels, batch and options") {
    const Suite s = suite_from_json(json::parse(
        R"({"name": "k", "models": [], "metrics": ["latency_ms"], "batch": 8,
            "kernels": [{"op": "gelu", "variant": "fused-simd", "n": 1024}, {"op": "sum", "n": 9}],
            "options": {"samples": 3, "min_sample_ms": 0.5}})"));
    REQUIRE(s.kernels.size() == 2);
    CHECK(s.kernels[0].op == "gelu");
    CHECK(s.kernels[0].variant == "fused-simd");
    CHECK(s.kernels[1].variant == "");
    CHECK(s.kernels[1].n == 9);
    CHECK(s.batch == 8);
    CHECK(s.timer.samples == 3);
    CHECK(s.timer.min_sample_ms == 0.5);
  }
  auto with = [&](const char* key, const json& value) {
    json j = ok;
    j[key] = value;
    return j;
  };
  CHECK_THROWS_WITH_AS(suite_from_json(json::array()),
                       "suite must be a JSON object with name, models, kernels, metrics, "
                       "batch, options, optimizations, got []",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("colour", "red")),
                       "suite.colour is not a field of a suite; the fields are name, models, "
                       "kernels, metrics, batch, options, optimizations",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("name", 3)),
                       "suite.name must be a non-empty string, got 3", ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("metrics", json::array({"latency_ms", "speed"}))),
                       (std::string("suite.metrics[1]: unknown metric \"speed\"; the metrics "
                                    "are ") + kMetricList).c_str(),
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("metrics", json::array({"parameters", "parameters"}))),
                       "suite.metrics[1] repeats \"parameters\"; name each metric once",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("metrics", "latency_ms")),
                       "suite.metrics must be a list, got \"latency_ms\"", ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("models", json::array({"mlp_784", 7}))),
                       "suite.models[1] must be a zoo model name or a model spec object, got 7",
                       ValueError);
  CHECK_THROWS_AS(suite_from_json(with("models", json::array({"resnet"}))), ValueError);
  try {
    suite_from_json(with("models", json::array({"resnet"})));
  } catch (const ValueError& e) {
    CHECK(std::string(e.what()).find("suite.models[0]: unknown zoo model") == 0);
  }
  CHECK_THROWS_WITH_AS(
      suite_from_json(with("models", json::array({json::parse(
                                         R"({"input": [2, 3], "layers": [
                                             {"type": "Linear", "in": 4, "out": 2}]})")}))),
      "suite.models[0]: layers[0].in is 4 but the model input gives 3 features; set "
      "layers[0].in to 3",
      ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("models", json::array())),
                       "suite.models is empty and there are no suite.kernels; a suite measures "
                       "at least one model or kernel",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("kernels", json::array({{{"op", "conv"}, {"n", 4}}}))),
                       "suite.kernels[0].op must be one of matmul, add, mul, gelu, sum, "
                       "softmax, layernorm, got \"conv\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("kernels", json::array({{{"op", "sum"}, {"n", "big"}}}))),
                       "suite.kernels[0].n must be an integer from 1 to 16777216, got \"big\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("batch", -1)),
                       "suite.batch must be an integer from 0 to 16777216, got -1", ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("options", {{"samples", 0}})),
                       "suite.options.samples must be between 1 and 100000, got 0", ValueError);
  CHECK_THROWS_WITH_AS(suite_from_json(with("options", {{"runs", 3}})),
                       "suite.options.runs is not a suite option; the options are warmup, "
                       "samples, min_sample_ms, max_total_ms, data",
                       ValueError);
  try {
    suite_from_text("{\"name\": ");
    FAIL("no error");
  } catch (const ValueError& e) {
    CHECK(std::string(e.what()).find("suite is not valid JSON: ") == 0);
  }
}

TEST_CASE("the report names the best per metric and recommends from what was measured") {
  Suite suite;
  suite.name = "hand";
  suite.metrics = {"latency_ms", "peak_memory_bytes"};
  suite.models = {json::object(), json::object(), json::object()};  // only the count is used
  // latency: a 1, c 1.5, b 2 (times the best); memory: b 1, c 3, a 4.
  const std::vector<SuitePointResult> points = {
      model_point(2, bench("c", 3, 300)), model_point(0, bench("a", 2, 400)),
      model_point(1, bench("b", 4, 100))};
  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const SuiteReport r = make_suite_report(suite, points, system);
  REQUIRE(r.models.size() == 3);
  CHECK(r.models[0].name == "a");  // suite order, not arrival order
  CHECK(r.complete);
  REQUIRE(r.summary.size() == 2);
  CHECK(r.summary[0].best == "a");
  CHECK(r.summary[0].best_value == 2);
  CHECK(r.summary[1].best == "b");
  REQUIRE(r.recommendations.size() == 4);
  CHECK(r.recommendations[0].use == "latency-critical");
  CHECK(r.recommendations[0].model == "a");
  CHECK(r.recommendations[0].reason ==
        "a has the lowest latency (median of one forward pass at the batch): 2 ms (a single "
        "run, not a significance test)");
  CHECK(r.recommendations[1].use == "memory-constrained");
  CHECK(r.recommendations[1].model == "b");
  CHECK(r.recommendations[2].use == "accuracy-preserving");
  CHECK(r.recommendations[2].model == "");
  CHECK_FALSE(r.recommendations[2].measured);
  CHECK(r.recommendations[2].reason.find("needs each model's accuracy") != std::string::npos);
  // Geometric means: a √(1·4) = 2, b √(2·1) = 1.41, c √(1.5·3) = 2.12.
  CHECK(r.recommendations[3].use == "balanced");
  CHECK(r.recommendations[3].model == "b");
  CHECK(r.recommendations[3].reason.find("(1.41;") != std::string::npos);

  SUBCASE("JSON carries the same decisions and the labelled energy note") {
    const json j = to_json(r);
    CHECK(j["kind"] == "suite");
    CHECK(j["system"]["simd_backend"] == "sse2");
    CHECK(j["summary"][1]["best"] == "b");
    CHECK(j["recommendations"][2]["model"].is_null());
    CHECK(j["accuracy"].get<std::string>().find(
              "not measured: every model's weights are random, from its spec's seed, with no "
              "training") == 0);
    CHECK(j["accuracy_data"].is_null());
    CHECK(j["energy_note"].get<std::string>().find(kEnergyEstimateLabel) == 0);
    CHECK(j["models"][0]["latency_mean_ms"] == 2.5);
    CHECK(j["models"][0]["latency_spread_ms"] == 0.25);
  }
  SUBCASE("Markdown has every section, mean ± spread, and the energy only under its label") {
    const std::string md = suite_report_markdown(r);
    for (const char* heading : {"# Suite: hand", "## System", "## Models", "## Best per metric",
                                "## Recommendations", "## Notes"}) {
      CAPTURE(heading);
      CHECK(md.find(heading) != std::string::npos);
    }
    CHECK(md.find("| a | 4 | 2 (2.5 ± 0.25) | 400 B |") != std::string::npos);
    CHECK(md.find("- **balanced**: b.") != std::string::npos);
    CHECK(md.find("### original course's estimate (a formula, not a measurement)") !=
          std::string::npos);
    CHECK(md.find("## Kernels") == std::string::npos);
  }
  SUBCASE("CSV: a header and one row per model, the energy column labelled") {
    const std::string csv = suite_report_csv(r);
    CHECK(csv.find("kind,name,op,variant,n,batch,latency_median_ms,latency_mean_ms,"
                   "latency_spread_ms,throughput_samples_per_s,peak_memory_bytes,parameters,"
                   "size_bytes,flops_per_sample,gflops_per_s,gb_per_s,accuracy,"
                   "\"original course's estimate (a formula, not a measurement) [J]\",warning\n") ==
          0);  // quoted: the label has a comma
    // a: 0.1 + 2·0.002 + 0.01·400/2^20
    const double energy = 0.1 + 0.004 + 0.01 * 400.0 / 1048576.0;
    CHECK(csv.find("model,a,,,,4,2,2.5,0.25,2000,400,100,400,200,,,," +
                   format_number(energy, kRoundTripDigits) + ",\n") != std::string::npos);
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 4);
  }
  SUBCASE("a partial report says so") {
    const SuiteReport partial = make_suite_report(suite, {points[1]}, system);
    CHECK_FALSE(partial.complete);
    CHECK(partial.points_done == 1);
    CHECK(suite_report_markdown(partial).find("cancelled after 1 of 3 points") !=
          std::string::npos);
  }
  SUBCASE("without peak memory, size decides memory-constrained") {
    Suite s2 = suite;
    s2.metrics = {"size_bytes", "latency_ms"};
    const SuiteReport r2 = make_suite_report(s2, points, system);
    CHECK(r2.recommendations[1].reason.find("size of the parameters decides") !=
          std::string::npos);
  }
  SUBCASE("models at different batches: latency-critical says to set one batch") {
    std::vector<SuitePointResult> mixed = points;
    mixed[0].model.batch = 8;
    const SuiteReport r4 = make_suite_report(suite, mixed, system);
    CHECK(r4.recommendations[0].reason.find("set the suite's batch") != std::string::npos);
  }
  SUBCASE("an optimized model against its base: ratios and sentences in all the report's forms") {
    Suite s5 = suite;
    s5.optimizations = {{"b", "a"}, {"a", "c"}};  // {base, optimized}
    const SuiteReport r5 = make_suite_report(s5, points, system);
    REQUIRE(r5.optimizations.size() == 2);
    // a against b: latency 4 -> 2 ms is 2x faster; peak memory 100 -> 400 B is 4x.
    CHECK(r5.optimizations[0].speedup == doctest::Approx(2.0));
    CHECK(r5.optimizations[0].memory_ratio == doctest::Approx(4.0));
    CHECK(r5.optimizations[1].speedup == doctest::Approx(2.0 / 3.0));
    const json j = to_json(r5);
    REQUIRE(j.at("optimizations").size() == 2);
    CHECK(j.at("optimizations")[0].at("base") == "b");
    CHECK(j.at("optimizations")[0].at("optimized") == "a");
    CHECK(j.at("optimizations")[0].at("accuracy_retention").is_null());
    CHECK(j.at("optimizations_not_measured").empty());
    const std::string md = suite_report_markdown(r5);
    CHECK(md.find("## Optimized against base") != std::string::npos);
    CHECK(md.find("| a | b | 2x | 2x | 4x |") != std::string::npos);
    CHECK(md.find("- a against b: latency 2x faster") != std::string::npos);
    CHECK(md.find("a trade-off: choose a only where its gain (latency) matters more than its "
                  "loss (memory)") != std::string::npos);
    // Without the pairs, no section.
    CHECK(suite_report_markdown(r).find("Optimized against base") == std::string::npos);
    // A pair whose model was not measured (a cancelled run) is named, not compared.
    const SuiteReport partial = make_suite_report(s5, {points[1], points[2]}, system);
    REQUIRE(partial.optimizations.size() == 1);
    CHECK(partial.optimizations_not_measured == std::vector<std::string>{"c against a"});
    CHECK(suite_report_markdown(partial).find("- c against a: not compared") != std::string::npos);
  }
  SUBCASE("without latency, latency-critical is not decided") {
    Suite s3 = suite;
    s3.metrics = {"parameters"};
    const SuiteReport r3 = make_suite_report(s3, points, system);
    CHECK(r3.recommendations[0].model == "");
    CHECK(r3.recommendations[0].reason == "not decided: add latency_ms to the suite's metrics");
  }
}

TEST_CASE("run_suite measures every point with progress, and stops when asked") {
  const Suite s = suite_from_json(json::parse(R"({
      "name": "tiny", "metrics": ["parameters", "latency_ms"], "batch": 2,
      "models": [{"name": "one", "input": [4, 8], "layers": [{"type": "Linear", "in": 8, "out": 3}]}],
      "kernels": [{"op": "sum", "n": 64}],
      "options": {"warmup": 0, "samples": 2, "min_sample_ms": 0, "max_total_ms": 50}})"));
  // The real clock: a fake one does not move with the work, so the Timer would batch up to
  // its 2^24-call cap before a sample reached its target. Times are never asserted here.
  Clock& clock = default_clock();
  std::vector<double> seen;
  const SuiteReport r = run_suite(s, "test", [&](double f) { seen.push_back(f); return true; },
                                  clock);
  CHECK(seen == std::vector<double>{0.0, 0.5, 1.0});
  REQUIRE(r.models.size() == 1);
  const ModelBenchmark& m = r.models[0];
  CHECK(m.source == "spec");
  CHECK(m.name == "one");
  CHECK(m.source == "spec");
  CHECK(m.batch == 2);
  CHECK(m.parameters == 8 * 3 + 3);
  CHECK(m.size_bytes == 4 * 27);
  CHECK(m.flops_per_sample == 2 * 8 * 3);
  CHECK(m.latency_ms == m.latency.median_ms);
  CHECK(m.throughput_samples_per_s == doctest::Approx(2 / (m.latency_ms / 1000)));
  CHECK(m.original_energy_estimate_j ==
        doctest::Approx(original_energy_estimate_j(m.latency_ms, m.peak_memory_bytes)));
  REQUIRE(r.kernels.size() == 1);
  CHECK(r.kernels[0].op == "sum");
  CHECK(r.system.clock == std::string(clock.name()));
  CHECK(r.system.version == "test");

  SUBCASE("cancel between points") {
    int calls = 0;
    CHECK_THROWS_WITH_AS(run_suite(s, "test", [&](double) { return ++calls < 2; }, clock),
                         "suite \"tiny\" cancelled after 1 of 2 points", CancelledError);
  }
  SUBCASE("one point at a time, as a worker loops") {
    const SuitePointResult p = measure_suite_point(s, 1, clock);
    CHECK(p.kind == "kernel");
    CHECK(p.index == 0);
    CHECK_THROWS_WITH_AS(measure_suite_point(s, 2, clock),
                         "point index must be below 2 for suite \"tiny\", got 2", ValueError);
  }
  SUBCASE("an unknown kernel variant names the kernel") {
    Suite bad = s;
    bad.kernels[0].variant = "quantum";
    try {
      measure_suite_point(bad, 1, clock);
      FAIL("no error");
    } catch (const ValueError& e) {
      CHECK(std::string(e.what()).find("suite.kernels[0]: unknown sum variant 'quantum'") == 0);
    }
  }
  SUBCASE("a zoo model by name") {
    const ModelBenchmark z = benchmark_model("linear_128_64", 1, tiny_timer(), clock);
    CHECK(z.source == "zoo");
    CHECK(z.name == "linear_128_64");
    CHECK(z.parameters == 128 * 64 + 64);
  }
}

TEST_CASE("a measured point survives the JSON round trip a page makes, and a foreign one is refused") {
  Suite suite = suite_from_json(json::parse(
      R"({"name": "trip", "models": ["linear_128_64"], "kernels": [{"op": "sum", "n": 64}],
          "metrics": ["latency_ms", "parameters"]})"));
  suite.timer = tiny_timer();
  const SuitePointResult model = measure_suite_point(suite, 0);
  const SuitePointResult kernel = measure_suite_point(suite, 1);
  const json model_json = to_json(model), kernel_json = to_json(kernel);
  CHECK(model_json["kind"] == "model");
  CHECK(kernel_json["kind"] == "kernel");
  CHECK(kernel_json["index"] == 0);
  // Read back, written again: the same JSON, so the report from kept points is the report.
  CHECK(to_json(suite_point_from_json(model_json, suite)) == model_json);
  CHECK(to_json(suite_point_from_json(kernel_json, suite)) == kernel_json);
  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const json direct = to_json(make_suite_report(suite, {model, kernel}, system));
  const json kept = to_json(make_suite_report(
      suite, {suite_point_from_json(kernel_json, suite, "points[0]"),
              suite_point_from_json(model_json, suite, "points[1]")},
      system));
  CHECK(kept == direct);

  json wrong = model_json;
  wrong["model"]["latency"]["median_ms"] = "fast";
  CHECK_THROWS_WITH_AS(suite_point_from_json(wrong, suite, "points[1]"),
                       "points[1].model.latency.median_ms must be a number, got \"fast\"", ValueError);
  wrong = model_json;
  wrong["model"]["name"] = "cnn_28";
  CHECK_THROWS_WITH_AS(suite_point_from_json(wrong, suite),
                       "point.model.name is \"cnn_28\", but the suite's models[0] is \"linear_128_64\"",
                       ValueError);
  wrong = kernel_json;
  wrong["index"] = 3;
  CHECK_THROWS_WITH_AS(suite_point_from_json(wrong, suite),
                       "point.index must be below 1 (the suite's kernels), got 3", ValueError);
  wrong = kernel_json;
  wrong["kind"] = "layer";
  CHECK_THROWS_WITH_AS(suite_point_from_json(wrong, suite),
                       "point.kind must be \"model\" or \"kernel\", got \"layer\"", ValueError);
  wrong = kernel_json;
  wrong["kernel"].erase("stats");
  CHECK_THROWS_WITH_AS(suite_point_from_json(wrong, suite), "point.kernel.stats is missing", ValueError);
}

TEST_CASE("a spec without a name is the model called \"model\" everywhere a suite names it") {
  const json unnamed = json::parse(R"({"input": [2, 8], "layers": [{"type": "Linear", "in": 8, "out": 3}]})");
  const json named = json::parse(
      R"({"name": "small", "input": [2, 8], "layers": [{"type": "Linear", "in": 8, "out": 2}]})");
  CHECK(spec_name(unnamed) == "model");
  CHECK(model_name(unnamed) == "model");
  CHECK(model_name("mlp_784") == "mlp_784");
  json file = {{"name", "names"},
               {"models", json::array({unnamed, named})},
               {"metrics", json::array({"parameters"})},
               {"optimizations", json::array({{{"base", "model"}, {"optimized", "small"}}})}};
  Suite suite = suite_from_json(file);
  REQUIRE(suite.optimizations.size() == 1);
  CHECK(suite.optimizations[0].base == "model");
  suite.timer = tiny_timer();
  const SuitePointResult a = measure_suite_point(suite, 0), b = measure_suite_point(suite, 1);
  CHECK(a.model.name == "model");
  // A point read back is checked against the same name.
  CHECK(suite_point_from_json(to_json(a), suite).model.name == "model");
  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const SuiteReport r = make_suite_report(suite, {a, b}, system);
  // Both were measured, so the pair is compared, not "not measured".
  CHECK(r.optimizations_not_measured.empty());
  REQUIRE(r.optimizations.size() == 1);
  CHECK(r.optimizations[0].base.name == "model");
  CHECK(r.optimizations[0].size_ratio == doctest::Approx((8.0 * 2 + 2) / (8.0 * 3 + 3)));

  SUBCASE("the empty name is not a model of the suite") {
    file["optimizations"][0]["base"] = "";
    CHECK_THROWS_WITH_AS(suite_from_json(file),
                         "suite.optimizations[0].base must name one of the suite's models "
                         "(model, small), got \"\"",
                         ValueError);
  }
  SUBCASE("two models of one name are refused, naming both") {
    json twice = file;
    twice.erase("optimizations");
    twice["models"] = json::array({named, unnamed, named});
    CHECK_THROWS_WITH_AS(suite_from_json(twice),
                         "suite.models[2] is named \"small\", as suite.models[0] is; give each "
                         "model its own \"name\" (a spec without one is named \"model\", and a "
                         "zoo model is named by its zoo name)",
                         ValueError);
    twice["models"] = json::array({unnamed, json::parse(R"({"name": "model", "input": [1, 4],
                                     "layers": [{"type": "ReLU"}]})")});
    CHECK_THROWS_AS(suite_from_json(twice), ValueError);
    twice["models"] = json::array({"mlp_784", "mlp_784"});
    CHECK_THROWS_AS(suite_from_json(twice), ValueError);
  }
}

TEST_CASE("the Markdown report reads as a person reads numbers: a named header, grouped digits, one size text, each warning once") {
  Suite suite;
  suite.name = "read";
  suite.metrics = {"parameters", "size_bytes"};
  suite.models = {json::object(), json::object(), json::object()};
  ModelBenchmark a = bench("a", 2, 400, 8256), b = bench("b", 3, 400, 235146), c = bench("c", 4, 400);
  const std::string busy = "CV 12% over 10 samples: the machine was busy; close other tabs and run again";
  a.latency.warning = busy;
  c.latency.warning = busy;
  b.latency.warning = "only 3 samples kept";
  SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  system.platform = "Linux x86_64";
  system.cpu_count = 2;
  const SuiteReport r =
      make_suite_report(suite, {model_point(0, a), model_point(1, b), model_point(2, c)}, system);
  const std::string md = suite_report_markdown(r);
  CHECK(md.find("| | |") == std::string::npos);
  CHECK(md.find("| fact | value |\n|---|---|\n") != std::string::npos);
  CHECK(md.find("| platform | Linux x86_64 |") != std::string::npos);
  CHECK(md.find("| CPUs | 2 logical (the lab measures on one) |") != std::string::npos);
  // 8,256 parameters × 4 = 33,024 bytes: core's one text for it, in the report and the JSON
  // the page's table reads.
  CHECK(a.size_text() == "32.2 KiB");
  CHECK(md.find("| a | 4 | 8,256 | 32.2 KiB |") != std::string::npos);
  CHECK(md.find("| b | 4 | 235,146 | 918.5 KiB |") != std::string::npos);
  CHECK(to_json(a)["size_text"] == "32.2 KiB");
  CHECK(to_json(a)["peak_memory_text"] == "400 B");
  // A size column names no unit of its own: each cell has one.
  CHECK(md.find("model size (parameter bytes as stored: × 4 for float32, codes and scales for int8) |") != std::string::npos);
  CHECK(md.find("[bytes]") == std::string::npos);
  // The ranking's factors are grouped too: 235,146 / 100 parameters.
  CHECK(md.find("b 2,351x") != std::string::npos);
  // One line per distinct warning, naming its points.
  CHECK(md.find("- Timer warning (2 points: a, c): " + busy + "\n") != std::string::npos);
  CHECK(md.find("- Timer warning (1 point: b): only 3 samples kept\n") != std::string::npos);
  CHECK(md.find(busy) == md.rfind(busy));

  SUBCASE("warnings that differ only in their numbers are one warning, its numbers per point") {
    ModelBenchmark d = bench("d", 2, 400), e = bench("e", 3, 400), f = bench("f", 4, 400);
    d.latency.warning = "only 3 samples kept: the median's 95% interval spans 33% of it; CV 17%";
    e.latency.warning = "only 3 samples kept: the median's 95% interval spans 23% of it; CV 12.5%";
    f.latency.warning = "only 3 samples kept: the median's 95% interval spans 23% of it; CV 8%";
    const std::string grouped = suite_report_markdown(make_suite_report(
        suite, {model_point(0, d), model_point(1, e), model_point(2, f)}, system));
    CHECK(grouped.find("- Timer warning (3 points: d, e, f): only 3 samples kept: the median's 95% "
                       "interval spans 33 / 23 / 23% of it; CV 17 / 12.5 / 8%\n") != std::string::npos);
    CHECK(grouped.find("only 3 samples") == grouped.rfind("only 3 samples"));
  }
  const json j = to_json(r);
  CHECK(j["system"]["platform"] == "Linux x86_64");
  CHECK(j["system"]["cpu_count"] == 2);
  // CSV keeps plain numbers for programs.
  CHECK(suite_report_csv(r).find(",235146,") != std::string::npos);

  SUBCASE("a machine that does not say how many CPUs it has") {
    SystemInfo unknown = system;
    unknown.cpu_count = 0;
    CHECK(suite_report_markdown(make_suite_report(suite, {model_point(0, a)}, unknown))
              .find("| CPUs | not known (this platform does not say) |") != std::string::npos);
  }
}

TEST_CASE("system_info names this machine's platform and CPU count") {
  const SystemInfo s = system_info("test");
  CHECK_FALSE(s.platform.empty());
#ifndef __EMSCRIPTEN__
  CHECK(s.cpu_count >= 1);
#endif
}

TEST_CASE("a size reads the same in the Models table, the best-per-metric table and the recommendations") {
  Suite suite;
  suite.name = "sizes";
  suite.metrics = {"peak_memory_bytes", "parameters"};
  suite.models = {json::object(), json::object()};
  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const SuiteReport r = make_suite_report(
      suite, {model_point(0, bench("a", 2, 131072, 235146)), model_point(1, bench("b", 3, 262144))}, system);
  const std::string md = suite_report_markdown(r);
  CHECK(metric_text("peak_memory_bytes", 131072) == "128.0 KiB");
  CHECK(metric_text("parameters", 235146) == "235,146 parameters");
  CHECK(report_number(-1234567.5) == "-1,234,568");
  CHECK(report_number(0.0004441) == "0.0004441");
  CHECK(md.find("| a | 4 | 128.0 KiB | 235,146 |") != std::string::npos);
  CHECK(md.find("| peak_memory_bytes | a | 128.0 KiB |") != std::string::npos);
  CHECK(r.recommendations[1].reason ==
        "a has the lowest peak memory of one inference forward (measured): 128.0 KiB (measured "
        "by the tracking allocator)");
  CHECK(md.find("131072") == std::string::npos);
}

TEST_CASE("the report measures accuracy for trained models only: ranking, recommendation, notes") {
  Suite suite;
  suite.name = "acc";
  suite.metrics = {"latency_ms", "accuracy"};
  suite.models = {json::object(), json::object(), json::object()};
  suite.data = "/data/fashion";
  // a: trained, 86.0%; b: trained, 84.0% and faster; c: from its spec's seed.
  const std::vector<SuitePointResult> points = {model_point(0, trained("a", 4, 400, 860)),
                                                model_point(1, trained("b", 2, 400, 840)),
                                                model_point(2, bench("c", 1, 400))};
  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const SuiteReport r = make_suite_report(suite, points, system);
  REQUIRE(r.summary.size() == 2);
  // Ranked among the measured models only: c has no accuracy.
  const MetricSummary& acc = r.summary[1];
  CHECK(acc.best == "a");
  CHECK(acc.best_value == doctest::Approx(0.86));
  REQUIRE(acc.ranking.size() == 2);
  CHECK(acc.ranking[1].name == "b");
  CHECK(acc.ranking[1].times_worse_than_best == doctest::Approx(860.0 / 840.0));
  CHECK(r.recommendations[2].use == "accuracy-preserving");
  CHECK(r.recommendations[2].model == "a");
  CHECK(r.recommendations[2].measured);
  CHECK(r.recommendations[2].reason ==
        "a has the highest accuracy on the test split: 86.00% (860 of 1,000 images), of the 2 "
        "models whose accuracy was measured; not measured for c (random weights, no training)");
  // Balanced leaves accuracy out when a model has none: over latency alone, c is best.
  CHECK(r.recommendations[3].model == "c");
  CHECK(r.recommendations[3].reason.find("over latency_ms (1;") != std::string::npos);
  CHECK(r.recommendations[3].reason.find("Accuracy is not in it: it was not measured for every "
                                         "model.") != std::string::npos);
  CHECK(r.accuracy_data == "Fashion-MNIST's test split, 1,000 images (/data/fashion)");
  CHECK(r.accuracy ==
        "measured by evaluate() on Fashion-MNIST's test split, 1,000 images (/data/fashion) for "
        "a, b; not measured for c: random weights from the spec's seed, no training (the "
        "accuracy of untrained weights is chance, so it is never simulated)");
  const json j = to_json(r);
  CHECK(j["accuracy_data"] == r.accuracy_data);
  CHECK(j["models"][0]["accuracy"] == 0.86);
  CHECK(j["models"][0]["accuracy_correct"] == 860);
  CHECK(j["models"][2]["accuracy"].is_null());
  CHECK(j["models"][2]["accuracy_note"] == kAccuracyFromSeed);
  const std::string md = suite_report_markdown(r);
  CHECK(md.find("| a | 4 | 4 (4.5 ± 0.25) | 86.00% |") != std::string::npos);
  CHECK(md.find("| c | 4 | 1 (1.5 ± 0.25) | not measured |") != std::string::npos);
  CHECK(md.find("(evaluate(); trained models only) |") != std::string::npos);  // no [fraction]
  CHECK(md.find("| accuracy | a | 86.00% | a 1x, b 1.024x |") != std::string::npos);
  const std::string csv = suite_report_csv(r);
  CHECK(csv.find(",,,0.86,") != std::string::npos);

  SUBCASE("every model trained: accuracy joins the balanced score") {
    Suite s2 = suite;
    s2.models.pop_back();
    const SuiteReport r2 = make_suite_report(s2, {points[0], points[1]}, system);
    CHECK(r2.recommendations[3].reason.find("over latency_ms, accuracy (") != std::string::npos);
    CHECK(r2.recommendations[3].reason.find("Accuracy is not in it") == std::string::npos);
  }
  SUBCASE("no model trained: accuracy is a row that says so, and nothing decides on it") {
    const SuiteReport r3 = make_suite_report(suite, {model_point(2, bench("c", 1, 400))}, system);
    REQUIRE(r3.summary.size() == 2);
    CHECK(r3.summary[1].best.empty());
    CHECK(r3.recommendations[2].model.empty());
    CHECK_FALSE(r3.recommendations[2].measured);
    CHECK(r3.recommendations[2].reason.find("not decided: no model's accuracy was measured "
                                            "(random weights from the specs' seeds, no "
                                            "training)") == 0);
    CHECK(suite_report_markdown(r3).find("| accuracy | none | not measured for any model |") !=
          std::string::npos);
  }
  SUBCASE("an optimized model against its base, both trained: retention in every form") {
    Suite s4 = suite;
    s4.optimizations = {{"a", "b"}};
    const SuiteReport r4 = make_suite_report(s4, points, system);
    REQUIRE(r4.optimizations.size() == 1);
    CHECK(*r4.optimizations[0].accuracy_retention == doctest::Approx(840.0 / 860.0));
    CHECK(*r4.optimizations[0].accuracy_change_points == doctest::Approx(-2.0));
    CHECK(to_json(r4)["optimizations"][0]["accuracy_change_points"].get<double>() ==
          doctest::Approx(-2.0));
    const std::string md = suite_report_markdown(r4);
    CHECK(md.find("| b | a | 2x | 2x | 1x | 1x | 1x | 97.67% (-2.00 points) |") !=
          std::string::npos);
    CHECK(md.find("a trade-off: b gains latency but it loses 2.00 points of accuracy") !=
          std::string::npos);
  }
  SUBCASE("accuracy survives the point's JSON round trip, and a fraction above 1 is refused") {
    Suite s5;
    s5.name = "trip";
    s5.metrics = {"accuracy"};
    s5.models = {json{{"model_file", "a.plm"}, {"name", "a"}}};
    const json p = to_json(points[0]);
    const SuitePointResult back = suite_point_from_json(p, s5);
    CHECK(back.model.accuracy == points[0].model.accuracy);
    CHECK(back.model.accuracy_correct == 860);
    CHECK(to_json(back) == p);
    json bad = p;
    bad["model"]["accuracy"] = 86;
    CHECK_THROWS_WITH_AS(suite_point_from_json(bad, s5),
                         "point.model.accuracy must be a fraction from 0 to 1, got 86",
                         ValueError);
  }
}

namespace {
// A small untrained classifier of 28×28 images, as a model file's bytes.
std::vector<std::uint8_t> tiny_model_file(const char* name) {
  Model m = model_from_json(json{{"name", name},
                                 {"input", {8, 784}},
                                 {"layers", json::array({{{"type", "Linear"}, {"in", 784}, {"out", 10}}})}});
  return model_file_bytes(m, Preprocessing{}, std::nullopt);
}
}  // namespace

TEST_CASE("a suite's model file entries are read through the caller's reader and named from the file") {
  const std::vector<std::uint8_t> bytes = tiny_model_file("tiny_file");
  std::vector<std::string> asked;
  const ModelFileReader read = [&](const std::string& path) {
    asked.push_back(path);
    if (path != "tiny.plm") throw ValueError("cannot read model file '" + path + "'");
    return read_model_file(bytes, "model file '" + path + "'");
  };
  json j = json::parse(R"({"name": "files", "metrics": ["accuracy"],
      "models": [{"model_file": "tiny.plm"}, {"model_file": "tiny.plm", "name": "again"}, "linear_128_64"],
      "options": {"data": "here"}})");
  const Suite s = suite_from_json(j, read);
  CHECK(asked == std::vector<std::string>{"tiny.plm", "tiny.plm"});
  REQUIRE(s.models.size() == 3);
  CHECK(model_name(s.models[0]) == "tiny_file");
  CHECK(model_name(s.models[1]) == "again");
  REQUIRE(s.model_files.size() == 3);
  CHECK(s.model_files[0] != nullptr);
  CHECK(s.model_files[2] == nullptr);
  CHECK(s.data == "here");
  CHECK(suite_needs_test_data(s));
  CHECK_FALSE(suite_needs_test_data(suite_from_json(json::parse(
      R"({"name": "zoo", "metrics": ["accuracy"], "models": ["linear_128_64"]})"))));
  CHECK(suite_from_json(json::parse(R"({"name": "zoo", "metrics": ["accuracy"], "models": ["linear_128_64"]})"))
            .data == kFashionMnistDir);

  SUBCASE("without test data a model file's accuracy is not measured, and says why") {
    Suite t = s;
    t.timer = tiny_timer();
    const SuitePointResult p = measure_suite_point(t, 0);
    CHECK(p.model.source == "model file");
    CHECK(p.model.name == "tiny_file");
    CHECK(p.model.parameters == 784 * 10 + 10);
    CHECK_FALSE(p.model.accuracy.has_value());
    CHECK(p.model.accuracy_note == kAccuracyNoData);
  }
  SUBCASE("the entry's own errors name the field") {
    j["models"][0] = json{{"model_file", "other.plm"}};
    CHECK_THROWS_WITH_AS(suite_from_json(j, read),
                         "suite.models[0].model_file: cannot read model file 'other.plm'",
                         ValueError);
    j["models"][0] = json{{"model_file", 3}};
    CHECK_THROWS_WITH_AS(suite_from_json(j, read),
                         "suite.models[0].model_file must be the path of a model file (perflab "
                         "train --out writes one), got 3",
                         ValueError);
    j["models"][0] = json{{"model_file", "tiny.plm"}, {"seed", 3}};
    CHECK_THROWS_WITH_AS(suite_from_json(j, read),
                         "suite.models[0].seed is not a field of a model file entry; the fields "
                         "are model_file, name",
                         ValueError);
    j["models"][0] = json{{"model_file", "tiny.plm"}, {"name", "again"}};
    CHECK_THROWS_AS(suite_from_json(j, read), ValueError);  // two models named "again"
    j["options"]["data"] = "";
    j["models"][0] = json{{"model_file", "tiny.plm"}};
    CHECK_THROWS_WITH_AS(suite_from_json(j, read),
                         "suite.options.data must be the folder of a Fashion-MNIST data set (its "
                         "test split measures the trained models' accuracy), got \"\"",
                         ValueError);
  }
  SUBCASE("a build that reads no files refuses the entry in a sentence") {
    CHECK_THROWS_WITH_AS(suite_from_json(j),
                         "suite.models[0].model_file: this build reads no files, so a suite here "
                         "takes zoo names and specs; run a suite with model files with perflab "
                         "suite",
                         ValueError);
  }
}

#ifndef __EMSCRIPTEN__
TEST_CASE("a trained model's accuracy in a suite is evaluate()'s on the test split; a seed's is not measured") {
  // A small MLP trained three epochs on 600 real images, then measured on 300 test images.
  Model m = model_from_json(json::parse(R"({"name": "tiny_mlp", "input": [32, 784], "layers": [
      {"type": "Linear", "in": 784, "out": 16}, {"type": "ReLU"},
      {"type": "Linear", "in": 16, "out": 10}]})"));
  TrainRecipe recipe;
  recipe.epochs = 3;
  recipe.batch = 32;
  recipe.learning_rate = 0.01;
  recipe.schedule = "constant";
  recipe.validation_samples = 30;
  (void)train_with_validation_split(m, take_first(real_data::fashion_mnist("train"), 630), recipe);
  const std::vector<std::uint8_t> bytes = model_file_bytes(m, recipe.preprocessing, std::nullopt);
  const auto test =
      std::make_shared<const LabeledImages>(take_first(real_data::fashion_mnist("test"), 300));

  Suite s = suite_from_json(
      json::parse(R"({"name": "trained", "metrics": ["accuracy", "parameters"],
          "models": [{"model_file": "tiny.plm", "name": "trained"}, {"model_file": "tiny.plm"},
                     {"name": "seeded", "input": [32, 784], "layers": [
                       {"type": "Linear", "in": 784, "out": 16}, {"type": "ReLU"},
                       {"type": "Linear", "in": 16, "out": 10}]}],
          "optimizations": [{"base": "trained", "optimized": "seeded"}]})"),
      [&](const std::string& path) { return read_model_file(bytes, path); });
  s.test = test;
  s.timer = tiny_timer();
  ModelFile again = read_model_file(bytes, "again");
  const Evaluation expected = evaluate(again.model, *test, again.preprocessing);
  CHECK(expected.accuracy > 0.2);  // it learned: chance is 0.1

  const SuitePointResult a = measure_suite_point(s, 0), b = measure_suite_point(s, 2);
  REQUIRE(a.model.accuracy.has_value());
  CHECK(*a.model.accuracy == expected.accuracy);
  CHECK(a.model.accuracy_correct == expected.correct);
  CHECK(a.model.accuracy_images == 300);
  CHECK(a.model.accuracy_note == "measured by evaluate() on the test split: " +
                                     std::to_string(expected.correct) + " of 300 images right");
  CHECK(a.model.batch == 32);
  CHECK(a.model.parameters == 784 * 16 + 16 + 16 * 10 + 10);
  CHECK_FALSE(b.model.accuracy.has_value());
  CHECK(b.model.accuracy_note == kAccuracyFromSeed);
  // The same file twice gives the same accuracy (evaluation leaves the weights alone).
  CHECK(*measure_suite_point(s, 1).model.accuracy == expected.accuracy);

  const SystemInfo system{"1.0", "native, optimized", "sse2", 1e-6, "fake"};
  const SuiteReport r = make_suite_report(s, {a, b}, system);
  REQUIRE(r.optimizations.size() == 1);
  CHECK_FALSE(r.optimizations[0].accuracy_retention.has_value());
  CHECK(r.optimizations[0].accuracy_retention_reason ==
        std::string("seeded's accuracy is ") + kAccuracyFromSeed);
  CHECK(r.recommendations[2].model == "trained");
}
#endif
