// What this file protects: the compliance report. The task list keeps the original course's
// shapes and latency targets, each task's zoo model takes that shape (NCHW for images) at
// batch 1; a median against a target passes or fails by hand-computed statistics, and says
// when the target lies inside the median's interval; a whole run on a fake clock (every
// clock read 100 ms apart, one call per sample, so every per-call time is exactly 100 ms)
// gives each task the verdict its target decides; accuracy is measured only for the model
// file with data (and then equals evaluate()'s), never for the seeded zoo models.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/suite/compliance.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/train/evaluate.hpp"

using namespace perflab;

namespace {

// Twelve 28×28 images with hand-set pixels and labels 0..9, 0, 1.
LabeledImages tiny_images() {
  LabeledImages d;
  d.count = 12;
  d.rows = d.cols = 28;
  d.pixels.resize(d.count * 28 * 28);
  for (std::size_t i = 0; i < d.pixels.size(); ++i) {
    d.pixels[i] = static_cast<std::uint8_t>(i * 7 % 256);
  }
  for (std::size_t i = 0; i < d.count; ++i) d.labels.push_back(static_cast<std::uint8_t>(i % 10));
  return d;
}

// One call per sample and a clock read costing 100 ms: each sample is the two reads around
// one call, 100 ms, whatever the call really took.
TimerOptions one_call_per_sample() {
  TimerOptions o;
  o.warmup = 0;
  o.samples = 3;
  o.min_sample_ms = 0;
  o.resolution_multiple = 1;
  o.max_inner_iterations = 1;
  o.max_total_ms = 1e9;
  return o;
}

}  // namespace

TEST_CASE("the compliance tasks keep the listed shapes and targets; their zoo models take them") {
  const auto& tasks = compliance_tasks();
  REQUIRE(tasks.size() == 5);
  const std::vector<std::string> ids = {"keyword-spotting", "visual-wake-words",
                                        "anomaly-detection", "image-classification",
                                        "fashion-mnist"};
  for (std::size_t i = 0; i < ids.size(); ++i) CHECK(tasks[i].id == ids[i]);
  CHECK(tasks[0].listed_input == std::vector<std::size_t>{1, 16000});
  CHECK(tasks[0].target_ms == 100);
  CHECK(tasks[1].listed_input == std::vector<std::size_t>{1, 96, 96, 3});
  CHECK(tasks[1].target_ms == 200);
  CHECK(tasks[2].listed_input == std::vector<std::size_t>{1, 640});
  CHECK(tasks[2].target_ms == 50);
  CHECK(tasks[3].listed_input == std::vector<std::size_t>{1, 32, 32, 3});
  CHECK(tasks[3].target_ms == 150);
  CHECK(tasks[4].target_ms == tasks[3].target_ms);
  CHECK(tasks[4].model.empty());
  for (std::size_t i = 0; i < 4; ++i) {
    const ComplianceTask& t = tasks[i];
    CAPTURE(t.id);
    // Channels last as listed, channels first as core's images: (1, H, W, C) → [1, C, H, W].
    std::vector<std::size_t> nchw = t.listed_input;
    if (nchw.size() == 4) nchw = {nchw[0], nchw[3], nchw[1], nchw[2]};
    const Model m = model_from_json(zoo_spec(t.model));
    CHECK(m.input_shape() == nchw);
    CHECK(t.accuracy_reason.find("not measured: the lab has no " + t.dataset) == 0);
  }
  CHECK(&compliance_task("anomaly-detection") == &tasks[2]);
  CHECK_THROWS_WITH_AS(compliance_task("kws"),
                       "unknown compliance task \"kws\"; the tasks are keyword-spotting, "
                       "visual-wake-words, anomaly-detection, image-classification, fashion-mnist",
                       ValueError);
}

TEST_CASE("a median passes at or under its target, and a target inside its interval is named") {
  // Ten samples 1..10 ms: median 5.5; the interval's ranks round(5 − 1.96·√10/2) = 2 and
  // round(1 + 5 + 1.96·√10/2) = 9, so [2, 9] ms.
  const Stats s = compute_stats({1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  REQUIRE(s.median_ms == doctest::Approx(5.5));
  REQUIRE(s.ci95_low_ms == 2);
  REQUIRE(s.ci95_high_ms == 9);
  SUBCASE("far under: pass") {
    const LatencyVerdict v = judge_compliance_latency(s, 100);
    CHECK(v.verdict == "pass");
    CHECK_FALSE(v.target_in_interval);
    CHECK(v.sentence ==
          "median 5.5 ms (95% interval 2-9 ms, 10 samples) is within the 100 ms target (5.5% of "
          "it): pass");
  }
  SUBCASE("over, the target inside the interval: fail, and another run may pass") {
    const LatencyVerdict v = judge_compliance_latency(s, 4);
    CHECK(v.verdict == "fail");
    CHECK(v.target_in_interval);
    CHECK(v.sentence ==
          "median 5.5 ms (95% interval 2-9 ms, 10 samples) is over the 4 ms target (1.375× it): "
          "fail; the target lies inside the median's 95% interval, so another run may give the "
          "other verdict");
  }
  SUBCASE("exactly at the target: pass") {
    CHECK(judge_compliance_latency(s, 5.5).verdict == "pass");
  }
  SUBCASE("far over: fail, outside the interval") {
    const LatencyVerdict v = judge_compliance_latency(s, 1.5);
    CHECK(v.verdict == "fail");
    CHECK_FALSE(v.target_in_interval);
  }
  CHECK_THROWS_WITH_AS(judge_compliance_latency(s, 0),
                       "a latency target must be a positive number of milliseconds, got 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(judge_compliance_latency(Stats{}, 10),
                       "a latency verdict needs a timing with at least one sample, got none",
                       ValueError);
}

TEST_CASE("a run on a fake clock gives each task the verdict its target decides") {
  FakeClock clock(0.0, 100.0);  // every per-call time is 100 ms
  const LabeledImages test = tiny_images();
  ModelFile file{model_from_json(zoo_spec("fashion_mlp")), Preprocessing{}, std::nullopt};
  ComplianceInputs in;
  in.baseline = &file;
  in.baseline_name = "mlp.perflab";
  in.test = &test;
  in.test_data = "twelve hand-made images";
  in.timer = one_call_per_sample();
  const ComplianceReport r = run_compliance("test", in, clock);
  REQUIRE(r.rows.size() == 5);
  for (const ComplianceRow& row : r.rows) {
    CAPTURE(row.task.id);
    REQUIRE(row.benchmark);
    CHECK(row.benchmark->latency.median_ms == 100);
    CHECK(row.benchmark->batch == 1);
    CHECK(row.input[0] == 1);
  }
  // Targets 100, 200, 50, 150, 150 ms.
  CHECK(r.rows[0].verdict == "pass");
  CHECK(r.rows[0].target_in_interval);  // 100 ms exactly: the interval is [100, 100]
  CHECK(r.rows[1].verdict == "pass");
  CHECK(r.rows[2].verdict == "fail");
  CHECK_FALSE(r.rows[2].target_in_interval);
  CHECK(r.rows[3].verdict == "pass");
  CHECK(r.rows[4].verdict == "pass");
  CHECK(r.passed == 4);
  CHECK(r.failed == 1);
  CHECK(r.not_measured == 0);
  CHECK(r.rows[1].input == std::vector<std::size_t>{1, 3, 96, 96});
  CHECK(r.rows[4].input == std::vector<std::size_t>{1, 784});

  // Accuracy: the model file's, as evaluate() gives it on the same images; the others not.
  CHECK(r.accuracy_measured == 1);
  const Evaluation e = evaluate(file, test);
  REQUIRE(r.rows[4].benchmark->accuracy);
  CHECK(*r.rows[4].benchmark->accuracy == e.accuracy);
  CHECK(r.rows[4].benchmark->accuracy_images == 12);
  CHECK(r.rows[4].accuracy_note.find(", twelve hand-made images") != std::string::npos);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK_FALSE(r.rows[i].benchmark->accuracy);
    CHECK(r.rows[i].accuracy_note == r.rows[i].task.accuracy_reason);
  }

  const nlohmann::json j = to_json(r);
  CHECK(j["kind"] == "compliance");
  CHECK(j["batch"] == 1);
  CHECK(j["summary"]["passed"] == 4);
  CHECK(j["rows"][2]["verdict"] == "fail");
  CHECK(j["rows"][2]["latency_interval_ms"] == nlohmann::json::array({100.0, 100.0}));
  CHECK(j["rows"][1]["listed_input"] == nlohmann::json::array({1, 96, 96, 3}));
  CHECK(j["rows"][1]["input"] == nlohmann::json::array({1, 3, 96, 96}));
  CHECK(j["rows"][0]["accuracy"].is_null());
  CHECK(j["rows"][4]["accuracy"] == e.accuracy);
  const std::string md = compliance_report_markdown(r);
  CHECK(md.find("| Anomaly detection | (1, 640) | (1, 640) | ad_autoencoder_640 | 50 ms | 100 ms "
                "(100-100) | fail | not measured | 0.85 AUC |") != std::string::npos);
  CHECK(md.find("4 of 5 tasks within their latency target, 1 over it, 0 not measured") !=
        std::string::npos);
}

TEST_CASE("without a model file the Fashion-MNIST task is not measured, with the reason") {
  FakeClock clock(0.0, 100.0);
  ComplianceInputs in;
  in.baseline_missing = "no baseline model file: there is none at x.perflab";
  in.timer = one_call_per_sample();
  const ComplianceReport r = run_compliance("test", in, clock);
  const ComplianceRow& row = r.rows.back();
  CHECK(row.task.id == "fashion-mnist");
  CHECK_FALSE(row.benchmark);
  CHECK(row.verdict == "not measured");
  CHECK(row.latency_sentence == "not measured: no baseline model file: there is none at x.perflab");
  CHECK(row.accuracy_note == row.latency_sentence);
  CHECK(r.not_measured == 1);
  CHECK(r.accuracy_measured == 0);
  const nlohmann::json j = to_json(r).at("rows").back();
  CHECK(j["latency_ms"].is_null());
  CHECK(j["model"].is_null());
  CHECK(j["verdict"] == "not measured");
}

TEST_CASE("a model file without test data is timed, and its accuracy is not measured") {
  FakeClock clock(0.0, 100.0);
  ModelFile file{model_from_json(zoo_spec("fashion_mlp")), Preprocessing{}, std::nullopt};
  ComplianceInputs in;
  in.baseline = &file;
  in.baseline_name = "mlp.perflab";
  in.test_missing = "no Fashion-MNIST data at /nowhere";
  in.timer = one_call_per_sample();
  const ComplianceRow row = run_compliance("test", in, clock).rows.back();
  REQUIRE(row.benchmark);
  CHECK(row.verdict == "pass");
  CHECK_FALSE(row.benchmark->accuracy);
  CHECK(row.accuracy_note == "not measured: no Fashion-MNIST data at /nowhere");
}

TEST_CASE("a model file that does not classify the images is refused, naming the task and file") {
  FakeClock clock(0.0, 100.0);
  const LabeledImages test = tiny_images();
  // linear_128_64 takes 128 inputs, not 784 pixels.
  ModelFile file{model_from_json(zoo_spec("linear_128_64")), Preprocessing{}, std::nullopt};
  ComplianceInputs in;
  in.baseline = &file;
  in.baseline_name = "wrong.perflab";
  in.test = &test;
  in.timer = one_call_per_sample();
  try {
    run_compliance("test", in, clock);
    FAIL("run_compliance accepted a model that does not take the images");
  } catch (const ValueError& e) {
    CHECK(std::string(e.what()).find("fashion-mnist task: model file wrong.perflab: ") == 0);
  }
}
