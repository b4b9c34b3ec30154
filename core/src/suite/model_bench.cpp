// Benchmarks of whole models (model_bench.hpp): the metric list, one model measured through
// the profiler's forward point (a model file's with its trained weights, and its accuracy by
// evaluate()), one metric compared across models, and an optimized model against its base.
// Nothing here simulates accuracy or energy.
#include "perflab/suite/model_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/quantization.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab {

const char* const kAccuracyFromSeed =
    "not measured: random weights from the spec's seed, no training (the accuracy of untrained "
    "weights is chance, so it is never simulated)";
const char* const kAccuracyNoData =
    "not measured: trained weights, but no test data was given to measure them on";
const char* const kEnergyEstimateLabel =
    "original course's estimate (a formula, not a measurement)";

const std::vector<MetricInfo>& model_metrics() {
  static const std::vector<MetricInfo> metrics = {
      {"latency_ms", "latency (median of one forward pass at the batch)", "ms", true, true},
      {"throughput_samples_per_s", "throughput (batch / median latency)", "samples/s", false,
       true},
      {"peak_memory_bytes", "peak memory of one inference forward (measured)", "bytes", true,
       false},
      {"parameters", "parameters (counted)", "parameters", true, false},
      {"size_bytes", "model size (parameter bytes as stored: × 4 for float32, codes and scales for int8)", "bytes", true, false},
      {"flops_per_sample", "FLOPs per sample (matmul headline, counted)", "FLOPs", true, false},
      {"accuracy", "accuracy on the test split (evaluate(); trained models only)", "fraction",
       false, false},
  };
  return metrics;
}

namespace {
std::string metric_list() {
  std::string names;
  for (const auto& m : model_metrics()) names += (names.empty() ? "" : ", ") + m.name;
  return names;
}
}  // namespace

const MetricInfo& model_metric(std::string_view name) {
  for (const auto& m : model_metrics()) {
    if (m.name == name) return m;
  }
  throw ValueError("unknown metric " + describe(std::string(name)) + "; the metrics are " +
                   metric_list());
}

double original_energy_estimate_j(double latency_ms, double peak_memory_bytes) {
  return 0.1 + 2.0 * (latency_ms / 1000.0) + 0.01 * (peak_memory_bytes / (1024.0 * 1024.0));
}

std::optional<double> metric_value(const ModelBenchmark& b, std::string_view metric) {
  const std::string& name = model_metric(metric).name;
  if (name == "latency_ms") return b.latency_ms;
  if (name == "throughput_samples_per_s") return b.throughput_samples_per_s;
  if (name == "peak_memory_bytes") return b.peak_memory_bytes;
  if (name == "parameters") return static_cast<double>(b.parameters);
  if (name == "size_bytes") return b.size_bytes;
  if (name == "flops_per_sample") return b.flops_per_sample;
  return b.accuracy;  // accuracy, the last of model_metrics()
}

nlohmann::json resolve_model(const nlohmann::json& model, std::string_view what) {
  const std::string where(what);
  if (model.is_string()) {
    try {
      return zoo_spec(model.get<std::string>());
    } catch (const ValueError& e) {
      throw ValueError(where + ": " + e.what());
    }
  }
  if (!model.is_object()) {
    throw ValueError(where + " must be a zoo model name or a model spec object, got " +
                     describe(model));
  }
  try {
    (void)model_from_json(model);  // the spec's own errors, before anything is measured
  } catch (const Error& e) {
    throw ValueError(where + ": " + e.what());
  }
  return model;
}

std::string report_number(double value) {
  std::string text = format_number(value, 4);
  if (text.find_first_of("eEIN") != std::string::npos) return text;  // 1e+15, Infinity, NaN
  const std::size_t begin = text[0] == '-' ? 1 : 0;
  std::size_t end = text.find('.');
  if (end == std::string::npos) end = text.size();
  for (std::size_t at = end; at > begin + 3; at -= 3) text.insert(at - 3, ",");
  return text;
}

std::string metric_text(std::string_view metric, double value) {
  const MetricInfo& info = model_metric(metric);
  if (info.unit == "bytes") return format_bytes(static_cast<std::size_t>(value));
  if (info.name == "accuracy") return format_fixed(100 * value, 2) + "%";
  return report_number(value) + " " + info.unit;
}

std::string model_name(const nlohmann::json& model) {
  return model.is_string() ? model.get<std::string>() : spec_name(model);
}

namespace {
ModelBenchmark from_forward_point(const ForwardPoint& p) {
  ModelBenchmark b;
  b.name = p.name;
  b.batch = p.batch;
  b.parameters = p.parameters;
  b.size_bytes = 4.0 * static_cast<double>(p.parameters);
  b.flops_per_sample = p.flops_per_sample;
  b.flops_per_batch = p.flops_per_batch;
  b.peak_memory_bytes = static_cast<double>(p.peak_bytes);
  b.activation_bytes = static_cast<double>(p.activation_bytes);
  b.latency = p.latency;
  b.latency_ms = p.latency.median_ms;
  b.throughput_samples_per_s = p.samples_per_s;
  b.original_energy_estimate_j = original_energy_estimate_j(b.latency_ms, b.peak_memory_bytes);
  return b;
}
}  // namespace

ModelBenchmark benchmark_model(const nlohmann::json& model, std::size_t batch,
                               const TimerOptions& timer, Clock& clock) {
  const nlohmann::json spec = resolve_model(model);
  ModelBenchmark b = from_forward_point(measure_forward_point(spec, batch, timer, clock));
  b.source = model.is_string() ? "zoo" : "spec";
  b.accuracy_note = kAccuracyFromSeed;
  return b;
}

ModelBenchmark benchmark_model_file(ModelFile& file, const std::string& name,
                                    const LabeledImages* test, std::size_t batch,
                                    const TimerOptions& timer, Clock& clock) {
  // Accuracy first: a model that does not classify the data is refused before it is timed.
  // An int8 file is measured as it runs: its int8 forward for accuracy and latency, its
  // stored bytes for size (its float weights are only codes × scales).
  std::optional<Evaluation> e;
  if (test != nullptr) {
    EvaluateOptions o;
    o.max_misclassified = 0;
    e = evaluate(file, *test, o);
  }
  ModelBenchmark b = from_forward_point(measure_forward_point(file.model, batch, timer, clock));
  if (file.quantization) {
    const Quantization& q = *file.quantization;
    b.size_bytes = static_cast<double>(quantized_parameter_bytes(file.model, q));
    const InferenceScope scope(file.model);
    Shape shape = file.model.input_shape();
    shape[0] = b.batch;
    const Tensor x = Tensor::random(shape, 1);  // measure_forward_point's input seed
    Timer t(clock);
    t.options(timer);
    b.latency = t.run([&] { Tensor y = quantized_forward(file.model, q, x); });
    b.latency_ms = b.latency.median_ms;
    b.throughput_samples_per_s = per_second(static_cast<double>(b.batch), b.latency_ms);
    b.original_energy_estimate_j = original_energy_estimate_j(b.latency_ms, b.peak_memory_bytes);
  }
  b.name = name;
  b.source = "model file";
  if (e) {
    b.accuracy = e->accuracy;
    b.accuracy_images = e->n;
    b.accuracy_correct = e->correct;
    b.accuracy_note = "measured by evaluate() on the test split: " +
                      report_number(static_cast<double>(e->correct)) + " of " +
                      report_number(static_cast<double>(e->n)) + " images right";
  } else {
    b.accuracy_note = kAccuracyNoData;
  }
  return b;
}

std::vector<MetricRanking> compare_models(const std::vector<ModelBenchmark>& models,
                                          std::string_view metric) {
  const MetricInfo& info = model_metric(metric);
  if (models.empty()) throw ValueError("compare_models needs at least one model, got none");
  std::vector<MetricRanking> rows;
  for (const auto& m : models) {
    const std::optional<double> v = metric_value(m, info.name);
    if (v) rows.push_back({m.name, *v, 1});
  }
  if (rows.empty()) return rows;
  std::stable_sort(rows.begin(), rows.end(), [&](const MetricRanking& a, const MetricRanking& b) {
    return info.lower_is_better ? a.value < b.value : a.value > b.value;
  });
  const double best = rows.front().value;
  for (auto& r : rows) {
    if (r.value == best) {
      r.times_worse_than_best = 1;
    } else if (info.lower_is_better) {
      r.times_worse_than_best = best > 0 ? r.value / best : 0;
    } else {
      r.times_worse_than_best = r.value > 0 ? best / r.value : 0;
    }
  }
  return rows;
}

namespace {
double ratio(double num, double den) { return den != 0 ? num / den : 0; }

// "1.8x faster", "about the same (within 2%)", "1.3x slower" for a ratio where > 1 is good.
std::string change(double good_ratio, double threshold, const char* better, const char* worse) {
  if (good_ratio <= 0) return "not comparable (a value is 0)";
  if (std::abs(good_ratio - 1) <= threshold) {
    return "about the same (within " + format_number(100 * threshold) + "%)";
  }
  if (good_ratio > 1) return format_number(good_ratio) + "x " + better;
  return format_number(1 / good_ratio) + "x " + worse;
}
}  // namespace

namespace {
// "+0.25 points", "-1.30 points": an accuracy change in percentage points, signed.
std::string points_text(double points) {
  char text[48];
  std::snprintf(text, sizeof(text), "%+.2f points", points);
  return text;
}
}  // namespace

OptimizationComparison compare_optimization(const ModelBenchmark& base,
                                            const ModelBenchmark& optimized,
                                            double noise_threshold,
                                            double accuracy_tolerance_points) {
  if (!(noise_threshold >= 0 && noise_threshold < 1)) {
    throw ValueError("noise_threshold must be at least 0 and below 1, got " +
                     format_number(noise_threshold));
  }
  if (!(accuracy_tolerance_points >= 0 && accuracy_tolerance_points <= 100)) {
    throw ValueError("accuracy_tolerance_points must be from 0 to 100 percentage points, got " +
                     format_number(accuracy_tolerance_points));
  }
  OptimizationComparison c;
  c.base = base;
  c.optimized = optimized;
  c.noise_threshold = noise_threshold;
  c.accuracy_tolerance_points = accuracy_tolerance_points;
  c.speedup = ratio(base.latency_ms, optimized.latency_ms);
  c.throughput_ratio = ratio(optimized.throughput_samples_per_s, base.throughput_samples_per_s);
  c.memory_ratio = ratio(optimized.peak_memory_bytes, base.peak_memory_bytes);
  c.size_ratio = ratio(optimized.size_bytes, base.size_bytes);
  c.flops_ratio = ratio(optimized.flops_per_sample, base.flops_per_sample);

  const std::string who = optimized.name + " against " + base.name + ": ";
  const std::string tolerance = format_number(accuracy_tolerance_points) + "-point tolerance";
  const bool accuracy_measured = base.accuracy && optimized.accuracy;
  if (accuracy_measured) {
    c.accuracy_retention = ratio(*optimized.accuracy, *base.accuracy);
    c.accuracy_change_points = 100 * (*optimized.accuracy - *base.accuracy);
    c.accuracy_retention_reason =
        "measured: both accuracies by evaluate() on the same test split (" +
        report_number(static_cast<double>(optimized.accuracy_images)) + " and " +
        report_number(static_cast<double>(base.accuracy_images)) + " images)";
  } else {
    const ModelBenchmark& missing = optimized.accuracy ? base : optimized;
    c.accuracy_retention_reason = missing.name + "'s accuracy is " + missing.accuracy_note;
  }
  const double drop = accuracy_measured ? -*c.accuracy_change_points : 0;
  const bool accuracy_lost = accuracy_measured && drop > accuracy_tolerance_points;
  const bool accuracy_gained = accuracy_measured && -drop > accuracy_tolerance_points;

  auto& rec = c.recommendations;
  rec.push_back(who + "latency " + change(c.speedup, noise_threshold, "faster", "slower") +
                " (one run each, median of " + std::to_string(optimized.latency.samples) +
                " and " + std::to_string(base.latency.samples) +
                " samples; an interleaved A/B run decides significance)");
  // Smaller is better for memory, size and FLOPs: pass base / optimized.
  rec.push_back(who + "peak memory " +
                change(ratio(base.peak_memory_bytes, optimized.peak_memory_bytes),
                       noise_threshold, "smaller", "larger"));
  rec.push_back(who + "size " +
                change(ratio(base.size_bytes, optimized.size_bytes), noise_threshold, "smaller",
                       "larger"));
  rec.push_back(who + "FLOPs per sample " +
                change(ratio(base.flops_per_sample, optimized.flops_per_sample),
                       noise_threshold, "fewer", "more"));
  if (accuracy_measured) {
    rec.push_back(who + "accuracy " + metric_text("accuracy", *optimized.accuracy) +
                  " against " + metric_text("accuracy", *base.accuracy) + ", retention " +
                  metric_text("accuracy", *c.accuracy_retention) + " (" +
                  points_text(*c.accuracy_change_points) + "; " +
                  (accuracy_lost ? "a loss beyond the " + tolerance
                   : accuracy_gained ? "a gain beyond the " + tolerance
                                     : "within the " + tolerance) +
                  ")");
  }
  const bool faster = c.speedup > 1 + noise_threshold;
  const bool smaller = c.memory_ratio > 0 && c.memory_ratio < 1 - noise_threshold;
  const bool slower = c.speedup > 0 && c.speedup < 1 - noise_threshold;
  const bool larger = c.memory_ratio > 1 + noise_threshold;
  const std::string lost = "it loses " + points_text(drop).substr(1) + " of accuracy";
  std::string verdict;
  if ((faster || smaller) && !slower && !larger) {
    if (!accuracy_measured) {
      verdict = "adopt " + optimized.name + " where accuracy holds: it is better on what was "
                "measured and worse on nothing";
    } else if (!accuracy_lost) {
      verdict = "adopt " + optimized.name + ": it is better on what was measured, worse on "
                "nothing, and its accuracy holds (within the " + tolerance + ")";
    } else {
      verdict = "a trade-off: " + optimized.name + " gains " +
                std::string(faster ? "latency" : "memory") + " but " + lost +
                "; adopt it only where that gain matters more than the lost accuracy";
    }
  } else if ((faster || smaller) && (slower || larger)) {
    verdict = "a trade-off: choose " + optimized.name + " only where its gain (" +
              std::string(faster ? "latency" : "memory") + ") matters more than its loss (" +
              std::string(slower ? "latency" : "memory") + ")" +
              (accuracy_lost ? ", and " + lost : "");
  } else if (slower || larger) {
    verdict = "keep " + base.name + ": the optimized model is worse on what was measured" +
              (accuracy_gained ? ", though it gains accuracy" : "");
  } else {
    verdict = "no measured gain: latency and memory are within the noise threshold";
    if (accuracy_lost) verdict += ", and " + lost + ": keep " + base.name;
    if (accuracy_gained) verdict += "; it gains accuracy, so it is the better model here";
  }
  if (accuracy_measured) {
    rec.push_back(verdict + ".");
  } else {
    rec.push_back(verdict + ". Accuracy retention is not measured (" +
                  c.accuracy_retention_reason +
                  "); a decision needs the accuracy of both models on the same held-out data: "
                  "give each as a trained model file.");
  }
  return c;
}

nlohmann::json to_json(const MetricInfo& m) {
  return {{"name", m.name},
          {"label", m.label},
          {"unit", m.unit},
          {"lower_is_better", m.lower_is_better},
          {"timed", m.timed}};
}

nlohmann::json to_json(const MetricRanking& r) {
  return {{"name", r.name}, {"value", r.value}, {"times_worse_than_best", r.times_worse_than_best}};
}

nlohmann::json to_json(const ModelBenchmark& b) {
  return {{"name", b.name},
          {"source", b.source},
          {"batch", b.batch},
          {"parameters", b.parameters},
          {"size_bytes", b.size_bytes},
          {"flops_per_sample", b.flops_per_sample},
          {"flops_per_batch", b.flops_per_batch},
          {"peak_memory_bytes", b.peak_memory_bytes},
          {"activation_bytes", b.activation_bytes},
          {"latency_ms", b.latency_ms},
          {"latency_mean_ms", b.latency.mean_ms},
          {"latency_spread_ms", b.latency.stddev_ms},
          {"latency_spread_kind", kTimingSpreadKind},
          {"throughput_samples_per_s", b.throughput_samples_per_s},
          {"latency", to_json(b.latency)},
          {"original_energy_estimate_j", b.original_energy_estimate_j},
          {"original_energy_estimate_label", kEnergyEstimateLabel},
          {"peak_memory_text", b.peak_memory_text()},
          {"size_text", b.size_text()},
          {"accuracy", b.accuracy ? nlohmann::json(*b.accuracy) : nlohmann::json(nullptr)},
          {"accuracy_images", b.accuracy_images},
          {"accuracy_correct", b.accuracy_correct},
          {"accuracy_note", b.accuracy_note},
          {"accuracy_text", b.accuracy_text()}};
}

std::string ModelBenchmark::peak_memory_text() const {
  return metric_text("peak_memory_bytes", peak_memory_bytes);
}
std::string ModelBenchmark::size_text() const { return metric_text("size_bytes", size_bytes); }
std::string ModelBenchmark::accuracy_text() const {
  return accuracy ? metric_text("accuracy", *accuracy) : "not measured";
}

nlohmann::json to_json(const OptimizationComparison& c) {
  return {{"base", c.base.name},
          {"optimized", c.optimized.name},
          {"speedup", c.speedup},
          {"throughput_ratio", c.throughput_ratio},
          {"memory_ratio", c.memory_ratio},
          {"size_ratio", c.size_ratio},
          {"flops_ratio", c.flops_ratio},
          {"accuracy_retention", c.accuracy_retention ? nlohmann::json(*c.accuracy_retention)
                                                      : nlohmann::json(nullptr)},
          {"accuracy_change_points", c.accuracy_change_points
                                         ? nlohmann::json(*c.accuracy_change_points)
                                         : nlohmann::json(nullptr)},
          {"accuracy_retention_reason", c.accuracy_retention_reason},
          {"noise_threshold", c.noise_threshold},
          {"accuracy_tolerance_points", c.accuracy_tolerance_points},
          {"recommendations", c.recommendations}};
}

}  // namespace perflab
