// Benchmarks of whole models (model_bench.hpp): the metric list, one model measured through
// the profiler's forward point, one metric compared across models, and an optimized model
// against its base. Nothing here simulates accuracy or energy.
#include "perflab/suite/model_bench.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/tensor/memory.hpp"

namespace perflab {

const char* const kAccuracyNotMeasured =
    "not measured: the lab has no trained models yet (every model's weights come from its "
    "spec's seed), so there is no accuracy to measure; it is never simulated";
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
      {"size_bytes", "model size (parameters × 4 bytes)", "bytes", true, false},
      {"flops_per_sample", "FLOPs per sample (matmul headline, counted)", "FLOPs", true, false},
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
  if (name == "accuracy") {
    throw ValueError(std::string("metric \"accuracy\" is ") + kAccuracyNotMeasured +
                     "; the metrics are " + metric_list());
  }
  throw ValueError("unknown metric " + describe(std::string(name)) + "; the metrics are " +
                   metric_list());
}

double original_energy_estimate_j(double latency_ms, double peak_memory_bytes) {
  return 0.1 + 2.0 * (latency_ms / 1000.0) + 0.01 * (peak_memory_bytes / (1024.0 * 1024.0));
}

TimedSummary summarize_timing(const Stats& stats) {
  return {stats.median_ms, stats.mean_ms, stats.stddev_ms, "sample standard deviation"};
}

double metric_value(const ModelBenchmark& b, std::string_view metric) {
  const std::string& name = model_metric(metric).name;
  if (name == "latency_ms") return b.latency_ms;
  if (name == "throughput_samples_per_s") return b.throughput_samples_per_s;
  if (name == "peak_memory_bytes") return b.peak_memory_bytes;
  if (name == "parameters") return static_cast<double>(b.parameters);
  if (name == "size_bytes") return b.size_bytes;
  return b.flops_per_sample;  // flops_per_sample, the last of model_metrics()
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
  return report_number(value) + " " + info.unit;
}

std::string model_name(const nlohmann::json& model) {
  return model.is_string() ? model.get<std::string>() : spec_name(model);
}

ModelBenchmark benchmark_model(const nlohmann::json& model, std::size_t batch,
                               const TimerOptions& timer, Clock& clock) {
  const nlohmann::json spec = resolve_model(model);
  const ForwardPoint p = measure_forward_point(spec, batch, timer, clock);
  ModelBenchmark b;
  b.name = p.name;
  b.source = model.is_string() ? "zoo" : "spec";
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

std::vector<MetricRanking> compare_models(const std::vector<ModelBenchmark>& models,
                                          std::string_view metric) {
  const MetricInfo& info = model_metric(metric);
  if (models.empty()) throw ValueError("compare_models needs at least one model, got none");
  std::vector<MetricRanking> rows;
  for (const auto& m : models) rows.push_back({m.name, metric_value(m, info.name), 1});
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

OptimizationComparison compare_optimization(const ModelBenchmark& base,
                                            const ModelBenchmark& optimized,
                                            double noise_threshold) {
  if (!(noise_threshold >= 0 && noise_threshold < 1)) {
    throw ValueError("noise_threshold must be at least 0 and below 1, got " +
                     format_number(noise_threshold));
  }
  OptimizationComparison c;
  c.base = base;
  c.optimized = optimized;
  c.noise_threshold = noise_threshold;
  c.speedup = ratio(base.latency_ms, optimized.latency_ms);
  c.throughput_ratio = ratio(optimized.throughput_samples_per_s, base.throughput_samples_per_s);
  c.memory_ratio = ratio(optimized.peak_memory_bytes, base.peak_memory_bytes);
  c.size_ratio = ratio(optimized.size_bytes, base.size_bytes);
  c.flops_ratio = ratio(optimized.flops_per_sample, base.flops_per_sample);
  c.accuracy_retention_reason = kAccuracyNotMeasured;

  const std::string who = optimized.name + " against " + base.name + ": ";
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
  const bool faster = c.speedup > 1 + noise_threshold;
  const bool smaller = c.memory_ratio > 0 && c.memory_ratio < 1 - noise_threshold;
  const bool slower = c.speedup > 0 && c.speedup < 1 - noise_threshold;
  const bool larger = c.memory_ratio > 1 + noise_threshold;
  std::string verdict;
  if ((faster || smaller) && !slower && !larger) {
    verdict = "adopt " + optimized.name + " where accuracy holds: it is better on what was "
              "measured and worse on nothing";
  } else if ((faster || smaller) && (slower || larger)) {
    verdict = "a trade-off: choose " + optimized.name + " only where its gain (" +
              std::string(faster ? "latency" : "memory") + ") matters more than its loss (" +
              std::string(slower ? "latency" : "memory") + ")";
  } else if (slower || larger) {
    verdict = "keep " + base.name + ": the optimized model is worse on what was measured";
  } else {
    verdict = "no measured gain: latency and memory are within the noise threshold";
  }
  rec.push_back(verdict + ". Accuracy retention is " + kAccuracyNotMeasured +
                "; a decision needs the accuracy of both models on the same held-out data.");
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
  const TimedSummary t = summarize_timing(b.latency);
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
          {"latency_mean_ms", t.mean},
          {"latency_spread_ms", t.spread},
          {"latency_spread_kind", t.spread_kind},
          {"throughput_samples_per_s", b.throughput_samples_per_s},
          {"latency", to_json(b.latency)},
          {"original_energy_estimate_j", b.original_energy_estimate_j},
          {"original_energy_estimate_label", kEnergyEstimateLabel},
          {"peak_memory_text", b.peak_memory_text()},
          {"size_text", b.size_text()}};
}

std::string ModelBenchmark::peak_memory_text() const {
  return metric_text("peak_memory_bytes", peak_memory_bytes);
}
std::string ModelBenchmark::size_text() const { return metric_text("size_bytes", size_bytes); }

nlohmann::json to_json(const OptimizationComparison& c) {
  return {{"base", c.base.name},
          {"optimized", c.optimized.name},
          {"speedup", c.speedup},
          {"throughput_ratio", c.throughput_ratio},
          {"memory_ratio", c.memory_ratio},
          {"size_ratio", c.size_ratio},
          {"flops_ratio", c.flops_ratio},
          {"accuracy_retention", nullptr},
          {"accuracy_retention_reason", c.accuracy_retention_reason},
          {"noise_threshold", c.noise_threshold},
          {"recommendations", c.recommendations}};
}

}  // namespace perflab
