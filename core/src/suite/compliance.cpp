// The compliance report (compliance.hpp): the task list with its targets, each task's model
// timed by model_bench's benchmark_model / benchmark_model_file at batch 1, the median's
// interval against the target, and the report as JSON and Markdown in the suite's style.
// Not for: timing or evaluating anything itself (model_bench.cpp does both).
#include "perflab/suite/compliance.hpp"

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

namespace {

using nlohmann::json;

// MLPerf Tiny's data sets are not in the lab, and the zoo's weights are the spec's seed.
std::string no_data(const std::string& dataset) {
  return "not measured: the lab has no " + dataset +
         " data, and the model's weights are random, from its spec's seed (never trained), "
         "so an accuracy would be chance; it is never simulated";
}

std::vector<ComplianceTask> make_tasks() {
  // Targets and shapes as the original course lists them; references, data sets and quality
  // targets are MLPerf Tiny's (mlcommons.org, "MLPerf Inference: Tiny").
  std::vector<ComplianceTask> t = {
      {"keyword-spotting", "Keyword spotting", {1, 16000}, 100.0, "kws_mlp_16000",
       "DS-CNN on 49×10 MFCC features", "Speech Commands", "90% top-1",
       "one second of 16 kHz audio, timed as given, [1, 16000]", ""},
      {"visual-wake-words", "Visual wake words", {1, 96, 96, 3}, 200.0, "vww_cnn_96",
       "MobileNetV1 (width 0.25)", "Visual Wake Words (COCO person detection)", "80% top-1",
       "core's images are NCHW: (1, 96, 96, 3) is timed as [1, 3, 96, 96]", ""},
      {"anomaly-detection", "Anomaly detection", {1, 640}, 50.0, "ad_autoencoder_640",
       "fully connected autoencoder", "ToyADMOS (toy car)", "0.85 AUC",
       "five frames of 128 log-mel bins, timed as given, [1, 640]", ""},
      {"image-classification", "Image classification", {1, 32, 32, 3}, 150.0, "ic_cnn_32",
       "ResNet-8", "CIFAR-10", "85% top-1",
       "core's images are NCHW: (1, 32, 32, 3) is timed as [1, 3, 32, 32]", ""},
  };
  for (auto& task : t) task.accuracy_reason = no_data(task.dataset);
  ComplianceTask fashion;
  fashion.id = "fashion-mnist";
  fashion.name = "Image classification on Fashion-MNIST (the lab's data)";
  fashion.listed_input = {1, 28, 28, 1};
  fashion.target_ms = t[3].target_ms;  // image classification's target
  fashion.reference = "none, not an MLPerf Tiny task; the trained model file given";
  fashion.dataset = "Fashion-MNIST";
  fashion.quality_target = "none";
  fashion.input_note =
      "one 28×28 grayscale image, timed at the model file's own input shape at batch 1 "
      "(fashion_mlp takes it flattened, [1, 784]); held to image classification's target";
  t.push_back(fashion);
  return t;
}

std::string ids_joined() {
  std::string s;
  for (const auto& t : compliance_tasks()) s += (s.empty() ? "" : ", ") + t.id;
  return s;
}

std::string ms_text(double ms) { return report_number(ms) + " ms"; }

json optional_number(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

const std::vector<ComplianceTask>& compliance_tasks() {
  static const std::vector<ComplianceTask> tasks = make_tasks();
  return tasks;
}

const ComplianceTask& compliance_task(std::string_view id) {
  for (const auto& t : compliance_tasks()) {
    if (t.id == id) return t;
  }
  throw ValueError("unknown compliance task " + describe(std::string(id)) +
                   "; the tasks are " + ids_joined());
}

LatencyVerdict judge_compliance_latency(const Stats& latency, double target_ms) {
  if (!(target_ms > 0 && std::isfinite(target_ms))) {
    throw ValueError("a latency target must be a positive number of milliseconds, got " +
                     format_number(target_ms));
  }
  if (latency.samples == 0) {
    throw ValueError("a latency verdict needs a timing with at least one sample, got none");
  }
  LatencyVerdict v;
  const bool pass = latency.median_ms <= target_ms;
  v.verdict = pass ? "pass" : "fail";
  v.target_in_interval = latency.ci95_low_ms <= target_ms && target_ms <= latency.ci95_high_ms;
  const double share = latency.median_ms / target_ms;
  v.sentence = "median " + ms_text(latency.median_ms) + " (95% interval " +
               report_number(latency.ci95_low_ms) + "-" + ms_text(latency.ci95_high_ms) + ", " +
               std::to_string(latency.samples) + (latency.samples == 1 ? " sample" : " samples") +
               ") is " + (pass ? "within" : "over") + " the " + ms_text(target_ms) +
               " target (" +
               (pass ? report_number(100 * share) + "% of it" : report_number(share) + "× it") +
               "): " + v.verdict;
  if (v.target_in_interval) {
    v.sentence += "; the target lies inside the median's 95% interval, so another run may "
                  "give the other verdict";
  }
  return v;
}

TimerOptions default_compliance_timer_options() {
  TimerOptions o;
  o.warmup = 2;
  o.samples = 20;
  o.min_sample_ms = 1.0;
  o.max_total_ms = 1000.0;
  return o;
}

namespace {

ComplianceRow timed_row(const ComplianceTask& task, ModelBenchmark b) {
  ComplianceRow row;
  row.task = task;
  row.model = b.name;
  const LatencyVerdict v = judge_compliance_latency(b.latency, task.target_ms);
  row.verdict = v.verdict;
  row.target_in_interval = v.target_in_interval;
  row.latency_sentence = v.sentence;
  row.accuracy_note = b.accuracy ? b.accuracy_note : task.accuracy_reason;
  row.benchmark = std::move(b);
  return row;
}

}  // namespace

ComplianceReport run_compliance(std::string_view version, const ComplianceInputs& in,
                                Clock& clock) {
  in.timer.validate();
  std::vector<ComplianceRow> rows;
  for (const ComplianceTask& task : compliance_tasks()) {
    if (!task.model.empty()) {
      ComplianceRow row =
          timed_row(task, benchmark_model(json(task.model), kComplianceBatch, in.timer, clock));
      for (const ZooEntry& e : zoo()) {
        if (e.name == task.model) row.description = e.description;
      }
      row.input = zoo_spec(task.model).at("input").get<std::vector<std::size_t>>();
      row.input[0] = kComplianceBatch;
      rows.push_back(std::move(row));
      continue;
    }
    if (in.baseline == nullptr) {
      ComplianceRow row;
      row.task = task;
      row.verdict = "not measured";
      row.latency_sentence = "not measured: " + in.baseline_missing;
      row.accuracy_note = "not measured: " + in.baseline_missing;
      rows.push_back(std::move(row));
      continue;
    }
    std::optional<ModelBenchmark> b;
    try {
      b = benchmark_model_file(*in.baseline, in.baseline_name, in.test, kComplianceBatch,
                               in.timer, clock);
    } catch (const ValueError& e) {
      throw ValueError(task.id + " task: model file " + in.baseline_name + ": " + e.what());
    }
    ComplianceRow row = timed_row(task, std::move(*b));
    row.description = "trained model file" +
                      (in.baseline_path.empty() ? std::string() : " " + in.baseline_path) +
                      ", architecture " + in.baseline->model.name();
    row.input = in.baseline->model.input_shape();
    row.input[0] = kComplianceBatch;
    if (in.test == nullptr) {
      row.accuracy_note = "not measured: " + in.test_missing;
    } else if (!in.test_data.empty()) {
      row.accuracy_note += ", " + in.test_data;
    }
    rows.push_back(std::move(row));
  }
  return make_compliance_report(system_info(version, clock), in.timer, std::move(rows));
}

ComplianceReport make_compliance_report(const SystemInfo& system, const TimerOptions& timer,
                                        std::vector<ComplianceRow> rows) {
  ComplianceReport r;
  r.system = system;
  r.timer = timer;
  r.rows = std::move(rows);
  for (const auto& row : r.rows) {
    if (row.verdict == "pass") ++r.passed;
    else if (row.verdict == "fail") ++r.failed;
    else ++r.not_measured;
    if (row.benchmark && row.benchmark->accuracy) ++r.accuracy_measured;
  }
  return r;
}

namespace {

const char* const kLatencyRule =
    "one input (batch 1) per forward pass (single stream), timed by core's Timer; a task "
    "passes when the median per-call time is at most its target, and the median's 95% "
    "interval (order statistics) says whether another run could decide otherwise";
const char* const kAccuracyRule =
    "measured only where the lab has the task's data and trained weights "
    "(Fashion-MNIST, with a model file); elsewhere it is not measured, with the reason, "
    "never simulated";

json row_json(const ComplianceRow& row) {
  const ComplianceTask& t = row.task;
  json j = {{"task", t.id},
            {"name", t.name},
            {"listed_input", t.listed_input},
            {"input", nullptr},
            {"input_note", t.input_note},
            {"model", row.model.empty() ? json(nullptr) : json(row.model)},
            {"description", row.description},
            {"reference", t.reference},
            {"dataset", t.dataset},
            {"quality_target", t.quality_target},
            {"target_ms", t.target_ms},
            {"latency_ms", nullptr},
            {"latency_interval_ms", nullptr},
            {"latency", nullptr},
            {"verdict", row.verdict},
            {"target_in_interval", row.target_in_interval},
            {"latency_sentence", row.latency_sentence},
            {"parameters", nullptr},
            {"size_bytes", nullptr},
            {"flops_per_sample", nullptr},
            {"accuracy", nullptr},
            {"accuracy_images", 0},
            {"accuracy_correct", 0},
            {"accuracy_text", "not measured"},
            {"accuracy_note", row.accuracy_note}};
  if (row.benchmark) {
    const ModelBenchmark& b = *row.benchmark;
    j["input"] = row.input;
    j["latency_ms"] = b.latency_ms;
    j["latency_interval_ms"] = {b.latency.ci95_low_ms, b.latency.ci95_high_ms};
    j["latency"] = to_json(b.latency);
    j["parameters"] = b.parameters;
    j["size_bytes"] = b.size_bytes;
    j["flops_per_sample"] = b.flops_per_sample;
    j["accuracy"] = optional_number(b.accuracy);
    j["accuracy_images"] = b.accuracy_images;
    j["accuracy_correct"] = b.accuracy_correct;
    j["accuracy_text"] = b.accuracy_text();
  }
  return j;
}

}  // namespace

json to_json(const ComplianceReport& r) {
  json rows = json::array();
  for (const auto& row : r.rows) rows.push_back(row_json(row));
  return {{"tool", "perflab"},
          {"kind", "compliance"},
          {"system", to_json(r.system)},
          {"batch", kComplianceBatch},
          {"options", to_json(r.timer)},
          {"latency_rule", kLatencyRule},
          {"accuracy_rule", kAccuracyRule},
          {"rows", rows},
          {"summary",
           {{"tasks", r.rows.size()},
            {"passed", r.passed},
            {"failed", r.failed},
            {"not_measured", r.not_measured},
            {"accuracy_measured", r.accuracy_measured}}}};
}

std::string compliance_report_markdown(const ComplianceReport& r) {
  std::ostringstream md;
  md << "# Compliance report (MLPerf Tiny style)\n\n"
     << r.passed << " of " << r.rows.size() << " tasks within their latency target, " << r.failed
     << " over it, " << r.not_measured << " not measured; accuracy measured for "
     << r.accuracy_measured << ".\n\n";
  md << "## System\n\n| fact | value |\n|---|---|\n"
     << system_markdown_rows(r.system) << "| batch | " << kComplianceBatch
     << " (single stream) |\n"
     << "| timer | warmup " << r.timer.warmup << ", " << r.timer.samples
     << " samples, each at least " << report_number(r.timer.min_sample_ms) << " ms, at most "
     << report_number(r.timer.max_total_ms) << " ms per task |\n\n";

  md << "## Tasks\n\nLatency: the median per-call time (95% interval of the median). Result: "
        "pass when the median is at most the target.\n\n"
        "| task | input as listed | timed as | model | target | latency | result | accuracy "
        "| quality target (MLPerf Tiny) |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& row : r.rows) {
    const ComplianceTask& t = row.task;
    md << "| " << t.name << " | " << shape_to_string(t.listed_input) << " | "
       << (row.input.empty() ? std::string("-") : shape_to_string(row.input)) << " | "
       << (row.model.empty() ? std::string("none") : row.model) << " | "
       << ms_text(t.target_ms) << " | ";
    if (row.benchmark) {
      const Stats& l = row.benchmark->latency;
      md << ms_text(l.median_ms) << " (" << report_number(l.ci95_low_ms) << "-"
         << report_number(l.ci95_high_ms) << ")";
    } else {
      md << "not measured";
    }
    md << " | " << row.verdict << (row.target_in_interval ? " (target inside the interval)" : "")
       << " | " << (row.benchmark ? row.benchmark->accuracy_text() : std::string("not measured"))
       << " | " << t.quality_target << " |\n";
  }

  md << "\n## Accuracy\n\nAccuracy is " << kAccuracyRule << ".\n\n";
  for (const auto& row : r.rows) md << "- " << row.task.name << ": " << row.accuracy_note << "\n";

  md << "\n## Models\n\n";
  for (const auto& row : r.rows) {
    md << "- " << row.task.name << " (MLPerf Tiny's reference: " << row.task.reference << "; "
       << row.task.input_note << "): ";
    if (row.benchmark) {
      const ModelBenchmark& b = *row.benchmark;
      md << "**" << row.model << "**, " << row.description << "; "
         << report_number(static_cast<double>(b.parameters)) << " parameters ("
         << b.size_text() << "), " << report_number(b.flops_per_sample)
         << " FLOPs per input\n";
    } else {
      md << row.latency_sentence << "\n";
    }
  }

  md << "\n## Notes\n\n- Latency rule: " << kLatencyRule << ".\n";
  for (const auto& row : r.rows) {
    md << "- " << row.task.name << ": " << row.latency_sentence << ".\n";
    if (row.benchmark && !row.benchmark->latency.warning.empty()) {
      md << "- Timer warning (" << row.model << "): " << row.benchmark->latency.warning << "\n";
    }
  }
  return md.str();
}

}  // namespace perflab
