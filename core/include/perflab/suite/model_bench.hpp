// Benchmarks of whole models: latency and throughput at a batch (the Timer), peak memory of
// an inference pass (the tracking allocator), parameters, size and FLOPs (the profiler's
// counts), and accuracy on a labelled test split (evaluate()) for a model with trained
// weights; one metric compared across models; an optimized model compared with its base.
// Accuracy is never simulated: a model whose weights come from its spec's seed (random, no
// training) is reported as not measured, with that reason. The original course's energy
// figure is a formula, carried only as a labelled estimate beside the measurements.
// Not for: significance tests or A/B verdicts (stats/), or per-layer profiles (profiler/).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// Metrics. One list owns the names, units and direction; the page and the CLI ask for it.

struct MetricInfo {
  std::string name;    // "latency_ms"
  std::string label;   // "latency (median of one forward pass at the batch)"
  std::string unit;    // "ms"
  bool lower_is_better = true;
  bool timed = false;  // from the Timer's samples (median and mean ± spread), else counted
};
// latency_ms, throughput_samples_per_s, peak_memory_bytes, parameters, size_bytes,
// flops_per_sample, accuracy, in that order. Accuracy (a fraction of the test images right,
// higher is better) has a value only for a model with trained weights and test data.
const std::vector<MetricInfo>& model_metrics();
// ValueError for an unknown name, naming it and listing the allowed ones:
//   unknown metric "speed"; the metrics are latency_ms, throughput_samples_per_s, ...
const MetricInfo& model_metric(std::string_view name);

// Why a model's accuracy is not measured, the sentence its row and the report carry: its
// weights are random, from its spec's seed, and were never trained (a zoo name or a spec).
extern const char* const kAccuracyFromSeed;
// A model with trained weights whose suite was given no test data (the page's build reads no
// files).
extern const char* const kAccuracyNoData;
// The label of the original course's energy figure, wherever it appears.
extern const char* const kEnergyEstimateLabel;

// The original course's energy figure: 0.1 + 2.0·latency_s + 0.01·memory_MB joules, with
// memory_MB = peak bytes / 2^20 (the original divides by 1024 twice). A formula, not a
// measurement: a web page cannot measure energy.
double original_energy_estimate_j(double latency_ms, double peak_memory_bytes);

// ---------------------------------------------------------------------------------------
// One model measured.

struct ModelBenchmark {
  std::string name;    // the spec's name (the zoo name for a zoo model)
  std::string source;  // "zoo", "spec" or "model file" (trained weights)
  std::size_t batch = 0;
  std::size_t parameters = 0;
  double size_bytes = 0;          // parameters × 4 (float32); an int8 file's stored bytes
  double flops_per_sample = 0;    // the matmul headline (layers.hpp)
  double flops_per_batch = 0;
  double peak_memory_bytes = 0;   // measured: one inference forward (MemoryReport::peak_bytes)
  double activation_bytes = 0;    // counted
  Stats latency;                  // one forward pass at the batch, per call; a report prints its
                                  // median_ms (mean_ms ± stddev_ms, kTimingSpreadKind)
  double latency_ms = 0;          // latency.median_ms
  double throughput_samples_per_s = 0;  // batch / latency_ms
  double original_energy_estimate_j = 0;  // the formula above; not a measurement
  // evaluate()'s accuracy (correct / images) on the test split; empty: not measured, and
  // accuracy_note says why (kAccuracyFromSeed, kAccuracyNoData).
  std::optional<double> accuracy;
  std::size_t accuracy_images = 0, accuracy_correct = 0;  // 0 when not measured
  std::string accuracy_note;  // how it was measured ("evaluate() on the test split: ..."), or why not

  // The sizes as the report and the page's table print them (format_bytes, "32.2 KiB"):
  // one writer, so one size never reads two ways side by side.
  std::string peak_memory_text() const;
  std::string size_text() const;
  // "85.12%" (metric_text), or "not measured" when the accuracy was not measured.
  std::string accuracy_text() const;
};

// The value of a metric (model_metric's names) for one benchmark; empty when the model has
// none (accuracy, not measured).
std::optional<double> metric_value(const ModelBenchmark& benchmark, std::string_view metric);

// Numbers in the suite's report and sentences, as a person reads them: 4 significant digits,
// the integer part grouped in thousands ("235,146", "1,777"); CSV and JSON keep plain numbers.
std::string report_number(double value);
// A metric's value with its unit, the one text every table and sentence of a report uses:
// sizes as format_bytes writes them ("128.0 KiB", ModelBenchmark's size texts), others as
// report_number and the unit ("235,146 parameters", "0.7938 ms"), accuracy as a percentage
// with two decimals ("85.12%").
std::string metric_text(std::string_view metric, double value);

// A model given as a zoo name (a JSON string) or a spec (a JSON object). ValueError naming
// `what` ("models[2]") for anything else, an unknown zoo name, or a spec model_from_json
// refuses (its message, prefixed with `what`).
nlohmann::json resolve_model(const nlohmann::json& model, std::string_view what = "model");

// The name a benchmark and a report give a model: the zoo name for a string, else
// spec_name(spec) (its "name", or "model" when it has none). One rule for the suite file's
// checks, its optimizations, its report and the page's labels.
std::string model_name(const nlohmann::json& model);

// Measures one model at `batch` (0: the spec's): counts, the peak memory of one inference
// forward, and the Timer's statistics of that forward. Its weights come from the spec's seed,
// so its accuracy is not measured (kAccuracyFromSeed).
ModelBenchmark benchmark_model(const nlohmann::json& model, std::size_t batch = 0,
                               const TimerOptions& timer = TimerOptions{},
                               Clock& clock = default_clock());
// The same for a model file's trained model, named `name` in the report, with its own
// weights, plus its accuracy: evaluate() (train/evaluate.hpp) on every image of `test` with
// the file's preprocessing. An int8 file (a quantization) is timed and evaluated through its
// int8 forward and sized by its stored bytes (quantized_parameter_bytes); its peak memory is
// the float forward's. `test` null: accuracy not measured (kAccuracyNoData). ValueError
// (evaluate's) when the model does not classify the data's images.
ModelBenchmark benchmark_model_file(ModelFile& file, const std::string& name,
                                    const LabeledImages* test, std::size_t batch = 0,
                                    const TimerOptions& timer = TimerOptions{},
                                    Clock& clock = default_clock());

// ---------------------------------------------------------------------------------------
// Comparing models on one metric: best first (by the metric's direction), each with its
// value relative to the best (≥ 1 for lower-is-better as value / best, for
// higher-is-better as best / value: "how many times worse"). Ties keep the input order.
// Models without a value of the metric (accuracy not measured) are left out, so the ranking
// may be shorter than the list, or empty. ValueError for an unknown metric or an empty list.
struct MetricRanking {
  std::string name;
  double value = 0;
  double times_worse_than_best = 1;  // 1 for the best; 0 when the best is 0 and this is not
};
std::vector<MetricRanking> compare_models(const std::vector<ModelBenchmark>& models,
                                          std::string_view metric);

// ---------------------------------------------------------------------------------------
// An optimized model against its base: ratios of what is measured and counted, accuracy
// retention when both accuracies were measured (else the reason), and recommendations in
// sentences.
// An accuracy drop of at most this many percentage points reads as "holds" (10,000 test
// images give a binomial standard error of about 0.35 points at 85%).
inline constexpr double kAccuracyTolerancePoints = 1.0;
struct OptimizationComparison {
  ModelBenchmark base, optimized;
  double speedup = 0;             // base latency / optimized latency (> 1: faster)
  double throughput_ratio = 0;    // optimized / base
  double memory_ratio = 0;        // optimized peak / base peak (< 1: smaller)
  double size_ratio = 0;          // optimized size / base size
  double flops_ratio = 0;         // optimized FLOPs per sample / base
  // Both accuracies measured: optimized / base, and 100 × (optimized − base) in percentage
  // points; else empty.
  std::optional<double> accuracy_retention;
  std::optional<double> accuracy_change_points;
  // How retention was measured, or why not (the unmeasured model's accuracy_note).
  std::string accuracy_retention_reason;
  double noise_threshold = 0.02;  // ratios within 2% of 1 read as "about the same"
  double accuracy_tolerance_points = kAccuracyTolerancePoints;
  std::vector<std::string> recommendations;
};
// Ratios whose denominator is 0 are 0. The recommendations name each change beyond the
// noise threshold and the accuracy change beyond its tolerance, and the verdict weighs
// accuracy when both were measured; otherwise it says what a decision still needs.
// ValueError for a threshold outside [0, 1) or a tolerance outside [0, 100].
OptimizationComparison compare_optimization(const ModelBenchmark& base,
                                            const ModelBenchmark& optimized,
                                            double noise_threshold = 0.02,
                                            double accuracy_tolerance_points =
                                                kAccuracyTolerancePoints);

// ---- JSON, the struct field names.
// {name, source, batch, parameters, size_bytes, flops_per_sample, flops_per_batch,
//  peak_memory_bytes, activation_bytes, latency_ms, latency_mean_ms, latency_spread_ms,
//  latency_spread_kind, throughput_samples_per_s, latency (Stats),
//  original_energy_estimate_j, original_energy_estimate_label, peak_memory_text, size_text,
//  accuracy (a number, or null when not measured), accuracy_images, accuracy_correct,
//  accuracy_note, accuracy_text}
nlohmann::json to_json(const ModelBenchmark& benchmark);
nlohmann::json to_json(const MetricInfo& metric);
nlohmann::json to_json(const MetricRanking& ranking);
// {base, optimized (the models' names: a report lists the models themselves), speedup,
//  throughput_ratio, memory_ratio, size_ratio, flops_ratio, accuracy_retention and
//  accuracy_change_points (numbers, or null when not measured), accuracy_retention_reason,
//  noise_threshold, accuracy_tolerance_points, recommendations}
nlohmann::json to_json(const OptimizationComparison& comparison);

}  // namespace perflab
