// An MLPerf-Tiny-style compliance report: the four tasks the original course lists with their
// input shapes and latency targets (keyword spotting, visual wake words, anomaly detection,
// image classification), each timed at batch 1 (single stream) on the zoo's stand-in for
// MLPerf Tiny's reference model, the median's 95% interval set against the target; plus
// image classification on the lab's own data, Fashion-MNIST, with a trained model file, the
// one task whose accuracy the lab can measure. Accuracy is never invented: the four MLPerf
// tasks' data sets are not in the lab and their models' weights come from the spec's seed,
// so their accuracy is "not measured" with that reason.
// Timing and evaluation are model_bench.hpp's (benchmark_model, benchmark_model_file).
// Not for: reading files (the CLI loads the model file and the data) or MLPerf's own rules.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// Every task is timed at this batch: MLPerf Tiny measures single-stream latency, one input.
inline constexpr std::size_t kComplianceBatch = 1;

struct ComplianceTask {
  std::string id;    // "keyword-spotting"
  std::string name;  // "Keyword spotting"
  // The input as the benchmark lists it, batch first, channels last for images: {1, 96, 96, 3}.
  std::vector<std::size_t> listed_input;
  double target_ms = 0;  // the original course's latency target for one input
  // The zoo model timed for the task; "" for the Fashion-MNIST task (a trained model file).
  std::string model;
  std::string reference;       // MLPerf Tiny's reference model: "DS-CNN"
  std::string dataset;         // the task's data set: "Speech Commands"
  std::string quality_target;  // MLPerf Tiny's quality target: "90% top-1"; "none" if it has none
  // How the lab's model takes the listed shape: "NCHW: (1, 96, 96, 3) is timed as [1, 3, 96, 96]".
  std::string input_note;
  // Why accuracy is not measured (the data set is not in the lab, the weights are the seed's);
  // "" for the Fashion-MNIST task, whose accuracy is measured when a model file and data are given.
  std::string accuracy_reason;
};

// keyword-spotting, visual-wake-words, anomaly-detection, image-classification, then
// fashion-mnist (image classification's target, on the lab's data with a model file).
const std::vector<ComplianceTask>& compliance_tasks();
// ValueError naming the id and listing the tasks' ids.
const ComplianceTask& compliance_task(std::string_view id);

// A median latency against a target. verdict "pass" when median_ms ≤ target_ms, else "fail";
// target_in_interval when the target lies inside the median's 95% interval (ci95_low_ms,
// ci95_high_ms), so another run may give the other verdict, which the sentence then says:
//   "median 12.3 ms (95% interval 12.1-12.6 ms, 20 samples) is within the 150 ms target
//    (8.2% of it): pass"
// ValueError for a target that is not a positive finite number or a timing without samples.
struct LatencyVerdict {
  std::string verdict;  // "pass" or "fail"
  bool target_in_interval = false;
  std::string sentence;
};
LatencyVerdict judge_compliance_latency(const Stats& latency, double target_ms);

struct ComplianceRow {
  ComplianceTask task;
  std::string model;        // the zoo name, or the model file's name; "" when none was given
  std::string description;  // the zoo entry's description, or what the model file is
  std::vector<std::size_t> input;  // the shape timed, batch kComplianceBatch; empty when none
  // Measured at kComplianceBatch (latency, counts, and accuracy for a model file with data);
  // empty when there was no model to time (the Fashion-MNIST task without a model file).
  std::optional<ModelBenchmark> benchmark;
  std::string verdict;  // "pass", "fail" or "not measured"
  bool target_in_interval = false;
  std::string latency_sentence;  // the verdict's sentence, or why latency was not measured
  std::string accuracy_note;     // how accuracy was measured, or why not
};

// The Timer's settings for every task: a few hundred milliseconds per model at most, so the
// whole report takes seconds.
TimerOptions default_compliance_timer_options();

struct ComplianceInputs {
  // The Fashion-MNIST task's trained model file (the pretrained baseline), named
  // baseline_name in the report; null: that task is not measured, for baseline_missing.
  ModelFile* baseline = nullptr;
  std::string baseline_name;  // "fashion_mlp.perflab"
  std::string baseline_path;  // where it was read, for the row's description; may be empty
  std::string baseline_missing = "no model file was given";
  // Fashion-MNIST's test split the model file's accuracy is measured on; null: not measured,
  // for test_missing. test_data names it, after the accuracy note ("Fashion-MNIST from DIR").
  const LabeledImages* test = nullptr;
  std::string test_data;
  std::string test_missing = "no Fashion-MNIST test split was given";
  TimerOptions timer = default_compliance_timer_options();
};

struct ComplianceReport {
  SystemInfo system;
  TimerOptions timer;
  std::vector<ComplianceRow> rows;  // compliance_tasks()' order
  std::size_t passed = 0, failed = 0, not_measured = 0, accuracy_measured = 0;
};

// One row per task, in order, each model timed at kComplianceBatch on `clock`. ValueError
// "fashion-mnist task: model file NAME: " and evaluate's reason when the baseline does not
// classify the test split's images.
ComplianceReport run_compliance(std::string_view version, const ComplianceInputs& inputs,
                                Clock& clock = default_clock());
// The report's rows and totals from rows already measured (run_compliance's last step).
ComplianceReport make_compliance_report(const SystemInfo& system, const TimerOptions& timer,
                                        std::vector<ComplianceRow> rows);

// The report as JSON: {tool: "perflab", kind: "compliance", system, batch, options (the
// timer's), latency_rule, accuracy_rule, rows: [{task, name, listed_input, input (the timed
// shape, or null), input_note, model (or null), description, reference, dataset,
// quality_target, target_ms, latency_ms, latency_interval_ms ([low, high]), latency (Stats),
// verdict, target_in_interval, latency_sentence, parameters, size_bytes, flops_per_sample,
// accuracy, accuracy_images, accuracy_correct, accuracy_text, accuracy_note}] (the measured
// fields null when not measured), summary: {tasks, passed, failed, not_measured,
// accuracy_measured}}. Markdown: headings System, Tasks (one table row per task), Accuracy,
// Models, Notes.
nlohmann::json to_json(const ComplianceReport& report);
std::string compliance_report_markdown(const ComplianceReport& report);

}  // namespace perflab
