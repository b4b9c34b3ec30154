// A benchmark suite: models (zoo names or specs) × metrics, plus kernel variants, measured
// point by point (progress and cancel between points), and its report written by core as
// JSON, Markdown and CSV, so `perflab suite` and the page print the same report.
// Not for: deciding significance between two runs (stats/ and `perflab compare`).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/roofline/operations.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

struct SuiteKernel {
  std::string op;       // operation_names()
  std::string variant;  // "" : the op's default
  std::size_t n = 0;    // measure_operation's n
};

// Timer settings for every point of a suite: a suite times each model as a profile does
// (default_profile_timer_options: small, so a suite of the zoo answers in seconds).
TimerOptions default_suite_timer_options();

// One optimized model against its base, both named as models of the suite (model_name: the
// zoo name, or the spec's "name", "model" when it has none): the report adds
// compare_optimization's ratios and sentences.
struct SuiteOptimization {
  std::string base, optimized;
};

struct Suite {
  std::string name;
  // As given: zoo names or specs (checked by resolve_model), or {"model_file", "name"} for a
  // trained model (its "name" filled in from the file's architecture when not given).
  std::vector<nlohmann::json> models;
  // Per model: the model file's contents (read through suite_from_json's reader), or null
  // for a zoo name or a spec.
  std::vector<std::shared_ptr<ModelFile>> model_files;
  std::vector<SuiteKernel> kernels;
  std::vector<std::string> metrics;    // model_metrics() names, at least one
  std::size_t batch = 0;               // 0: each spec's own batch
  TimerOptions timer = default_suite_timer_options();
  std::vector<SuiteOptimization> optimizations;  // may be empty
  // options.data: the Fashion-MNIST folder (IDX files, gzip'd or not) whose test split the
  // trained models' accuracy is measured on; kFashionMnistDir when not given. The caller
  // loads it (natively: load_fashion_mnist(data, "test"), relative to the suite file) into
  // `test` when suite_needs_test_data; null: those accuracies are not measured.
  std::string data = kFashionMnistDir;
  std::shared_ptr<const LabeledImages> test;
};

// Reads the model file a suite entry names (`path` as the suite file gives it) or throws a
// ValueError naming it; natively the CLI's, relative to the suite file. A build that reads no
// files (the page) passes none, and a model file entry is refused.
using ModelFileReader = std::function<ModelFile(const std::string& path)>;

// From {name, models: [zoo name | spec | {model_file, name?}], kernels?: [{op, variant?, n}],
// metrics: [...], batch?, options?: {warmup, samples, min_sample_ms, max_total_ms, data},
// optimizations?: [{base, optimized}]}. At least one model or kernel. ValueError naming the
// field and what is allowed:
//   suite.models[1]: unknown zoo model "resnet"; the zoo has ...
//   suite.metrics[0]: unknown metric "speed"; the metrics are ...
//   suite.kernels[0].n must be a positive integer, got "big"
//   suite.colour is not a field of a suite; the fields are name, models, ...
//   suite.optimizations[0].base must name one of the suite's models (a, b), got "c"
//   suite.models[2] is named "same", as suite.models[0] is; give each model its own "name" ...
//   suite.models[1].model_file: model file 'mlp.plm' is cut short: ... (the reader's)
// (every model has one name, model_name's, and no two models share it).
Suite suite_from_json(const nlohmann::json& json, const ModelFileReader& read = nullptr);
// spec_from_text's twin for suite files: ValueError "suite is not valid JSON: ..." first.
Suite suite_from_text(std::string_view text, const ModelFileReader& read = nullptr);
// Whether any model has trained weights, so the caller should load `suite.data`'s test split.
bool suite_needs_test_data(const Suite& suite);

// The suite's points in run order: every model, then every kernel. A point is one call of
// measure_suite_point, so a worker can loop, report progress and keep partial rows.
std::size_t suite_point_count(const Suite& suite);
struct SuitePointResult {
  std::string kind;  // "model" or "kernel"
  std::size_t index = 0;  // in suite.models or suite.kernels
  ModelBenchmark model;   // when kind == "model"
  OperationMeasurement kernel;  // when kind == "kernel"
};
// ValueError when index ≥ suite_point_count.
SuitePointResult measure_suite_point(const Suite& suite, std::size_t index,
                                     Clock& clock = default_clock());

// One measured point as JSON, so a page can keep the points it measured one call at a time
// and hand them back for the report: {kind, index, model: to_json(ModelBenchmark)} or
// {kind, index, kernel: to_json(OperationMeasurement)}. suite_point_from_json reads it back
// (extra fields ignored); ValueError naming the field under `where` ("points[2].model.latency
// .median_ms must be a number") or a point that is not one of `suite`'s (index out of range,
// the wrong kind, another model's or kernel's name).
nlohmann::json to_json(const SuitePointResult& point);
SuitePointResult suite_point_from_json(const nlohmann::json& point, const Suite& suite,
                                       const std::string& where = "point");

// What the report says about the machine and the build.
struct SystemInfo {
  std::string version;       // the caller's (the CLI's project version; the page's build id)
  std::string build;         // "native, optimized" / "wasm, optimized" / "... debug"
  std::string simd_backend;  // simd_backend()
  double timer_resolution_ms = 0;  // measured on `clock`
  std::string clock;         // clock.name()
  // The machine: natively the OS and architecture ("Linux x86_64") and the logical CPUs the
  // OS reports; a wasm build cannot see its host, so its caller (the page's binding) names
  // them. cpu_count 0: not known. The lab measures on one thread either way.
  std::string platform;
  std::size_t cpu_count = 0;
};
SystemInfo system_info(std::string_view version, Clock& clock = default_clock());
// {version, build, simd_backend, timer_resolution_ms, clock, platform, cpu_count}: every
// report's "system".
nlohmann::json to_json(const SystemInfo& system);
// The same facts as the Markdown rows of a report's System table ("| version | 1.0 |\n",
// build, platform, CPUs, SIMD backend, timer resolution, clock), under a "| fact | value |"
// header the report writes, so every report describes the machine alike.
std::string system_markdown_rows(const SystemInfo& system);

// Per metric, across the suite's models.
struct MetricSummary {
  MetricInfo metric;
  std::string best;          // model name; "" when no models
  double best_value = 0;
  std::vector<MetricRanking> ranking;
};
struct Recommendation {
  std::string use;       // "latency-critical", "memory-constrained", "accuracy-preserving",
                         // "balanced"
  std::string model;     // "" when it cannot be decided
  bool measured = true;  // false: not decided from measurements (accuracy)
  std::string reason;
};

struct SuiteReport {
  std::string name;
  SystemInfo system;
  std::vector<std::string> metrics;
  std::size_t batch = 0;  // the suite's (0: each spec's)
  TimerOptions timer;
  std::vector<ModelBenchmark> models;
  std::vector<OperationMeasurement> kernels;
  std::vector<MetricSummary> summary;
  std::vector<Recommendation> recommendations;
  // Which models' accuracy was measured, on what data, and why the others' was not.
  std::string accuracy;
  std::string accuracy_data;  // "Fashion-MNIST test split, 10,000 images (DIR)"; "" when none
  // The suite's optimized-against-base pairs whose two models were measured, in suite order;
  // a pair with a model not measured (a cancelled run) is named in optimizations_not_measured.
  std::vector<OptimizationComparison> optimizations;
  std::vector<std::string> optimizations_not_measured;  // "mlp_small against mlp_784"
  bool complete = true;  // false: built from the points measured before a cancel
  std::size_t points_done = 0, points_total = 0;
};

// The report from measured points (any subset, in any order; kept in suite order).
// Recommendations: latency-critical the lowest latency_ms, memory-constrained the lowest
// peak_memory_bytes (size_bytes when peak memory is not among the metrics), accuracy-
// preserving the highest measured accuracy (whether or not it is among the metrics; not
// decided, with what it would need, when no model's was measured), balanced the lowest
// geometric mean of times_worse_than_best over the measured metrics (accuracy counts only
// when it is among them and measured for every model).
SuiteReport make_suite_report(const Suite& suite, const std::vector<SuitePointResult>& points,
                              const SystemInfo& system);

// Every point in order, progress(done / total) before each; progress returning false stops
// with CancelledError("suite NAME cancelled after K of N points").
SuiteReport run_suite(const Suite& suite, std::string_view version,
                      const ProgressFn& progress = nullptr, Clock& clock = default_clock());

// The report three ways. JSON: {tool: "perflab", kind: "suite", name, system, metrics
// (MetricInfo objects), batch, options, models, kernels, summary, recommendations, accuracy,
// accuracy_data (a string, or null), optimizations (to_json(OptimizationComparison)),
// optimizations_not_measured, energy_note, complete, points_done, points_total}. Markdown:
// headings System, Models, Kernels, Best per metric, Recommendations, Optimized against base
// (when the suite names pairs), Notes. CSV: one row per model and per kernel,
// a header row first, the energy column named by kEnergyEstimateLabel.
nlohmann::json to_json(const SuiteReport& report);
std::string suite_report_markdown(const SuiteReport& report);
std::string suite_report_csv(const SuiteReport& report);

}  // namespace perflab
