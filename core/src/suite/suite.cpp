// Suites (suite.hpp): the file format checked field by field, the points measured one at a
// time, and the report's decisions (best per metric, recommendations). Writing the report
// as text is suite_report.cpp.
#include "perflab/suite/suite.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <thread>
#include <utility>

#ifndef __EMSCRIPTEN__
#include <sys/utsname.h>
#endif

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/model/model.hpp"
#include "perflab/profiler/profiler.hpp"

namespace perflab {

TimerOptions default_suite_timer_options() { return default_profile_timer_options(); }

namespace {

using nlohmann::json;

const char* const kSuiteFields = "name, models, kernels, metrics, batch, options, optimizations";

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// A whole number in [lo, hi], or ValueError naming the field.
double whole_number(const json& v, const std::string& field, double lo, double hi) {
  const bool ok = v.is_number() && std::isfinite(v.get<double>()) &&
                  v.get<double>() == std::floor(v.get<double>()) && v.get<double>() >= lo &&
                  v.get<double>() <= hi;
  if (!ok) {
    throw ValueError(field + " must be an integer from " + format_number(lo, 17) + " to " +
                     format_number(hi, 17) + ", got " + describe(v));
  }
  return v.get<double>();
}

const json& array_field(const json& j, const char* key, bool required) {
  static const json empty = json::array();
  if (!j.contains(key)) {
    if (required) throw ValueError(std::string("suite.") + key + " is missing; it is a list");
    return empty;
  }
  const json& v = j.at(key);
  if (!v.is_array()) {
    throw ValueError(std::string("suite.") + key + " must be a list, got " + describe(v));
  }
  return v;
}

SuiteKernel kernel_from_json(const json& k, const std::string& where) {
  if (!k.is_object()) {
    throw ValueError(where + " must be an object {op, variant, n}, got " + describe(k));
  }
  for (const auto& [key, value] : k.items()) {
    if (key != "op" && key != "variant" && key != "n") {
      throw ValueError(where + "." + key + " is not a field of a kernel; the fields are op, "
                       "variant, n");
    }
  }
  SuiteKernel out;
  if (!k.contains("op") || !k["op"].is_string()) {
    throw ValueError(where + ".op must be one of " + join(operation_names()) + ", got " +
                     (k.contains("op") ? describe(k["op"]) : std::string("nothing")));
  }
  out.op = k["op"].get<std::string>();
  const auto& ops = operation_names();
  if (std::find(ops.begin(), ops.end(), out.op) == ops.end()) {
    throw ValueError(where + ".op must be one of " + join(ops) + ", got " + describe(k["op"]));
  }
  if (k.contains("variant")) {
    if (!k["variant"].is_string()) {
      throw ValueError(where + ".variant must be a variant name, got " + describe(k["variant"]));
    }
    out.variant = k["variant"].get<std::string>();
  }
  if (!k.contains("n")) throw ValueError(where + ".n is missing; it is the size to measure");
  out.n = static_cast<std::size_t>(
      whole_number(k["n"], where + ".n", 1, static_cast<double>(kMaxOperationElements)));
  return out;
}

// {base, optimized}: two different models of the suite, by the names the report gives them.
SuiteOptimization optimization_from_json(const json& o, const std::vector<std::string>& names,
                                         const std::string& where) {
  if (!o.is_object()) {
    throw ValueError(where + " must be an object {base, optimized} naming two of the suite's "
                     "models, got " + describe(o));
  }
  for (const auto& item : o.items()) {
    if (item.key() != "base" && item.key() != "optimized") {
      throw ValueError(where + "." + item.key() +
                       " is not a field of an optimization; the fields are base, optimized");
    }
  }
  SuiteOptimization out;
  for (const char* field : {"base", "optimized"}) {
    const json v = o.contains(field) ? o.at(field) : json();
    if (!v.is_string() || std::find(names.begin(), names.end(), v.get<std::string>()) == names.end()) {
      throw ValueError(where + "." + field + " must name one of the suite's models (" + join(names) +
                       "), got " + (o.contains(field) ? describe(v) : std::string("nothing")));
    }
    (std::string(field) == "base" ? out.base : out.optimized) = v.get<std::string>();
  }
  if (out.base == out.optimized) {
    throw ValueError(where + " compares " + describe(json(out.base)) +
                     " with itself; the optimized model and its base must differ");
  }
  return out;
}

// The Timer's options and the data set's folder.
TimerOptions options_from_json(const json& o, std::string& data) {
  TimerOptions t = default_suite_timer_options();
  if (o.is_null()) return t;
  const std::string fields = std::string(kTimerOptionFields) + ", data";
  if (!o.is_object()) {
    throw ValueError("suite.options must be an object with " + fields + ", got " + describe(o));
  }
  for (const auto& [key, value] : o.items()) {
    const std::string field = "suite.options." + key;
    if (key == "data") {
      if (!value.is_string() || value.get<std::string>().empty()) {
        throw ValueError(field + " must be the folder of a Fashion-MNIST data set (its test "
                         "split measures the trained models' accuracy), got " + describe(value));
      }
      data = value.get<std::string>();
    } else if (!read_timer_option(t, key, value, field)) {
      throw ValueError(field + " is not a suite option; the options are " + fields);
    }
  }
  try {
    t.validate();
  } catch (const ValueError& e) {
    // The Timer's messages start with the field's name: "samples must be between ...".
    throw ValueError(std::string("suite.options.") + e.what());
  }
  return t;
}

// {model_file, name?}: a trained model, read through `read`; stored with its name.
json model_file_entry(const json& m, const std::string& where, const ModelFileReader& read,
                      std::shared_ptr<ModelFile>& file) {
  for (const auto& item : m.items()) {
    if (item.key() != "model_file" && item.key() != "name") {
      throw ValueError(where + "." + item.key() + " is not a field of a model file entry; the "
                       "fields are model_file, name");
    }
  }
  const json& path = m.at("model_file");
  if (!path.is_string() || path.get<std::string>().empty()) {
    throw ValueError(where + ".model_file must be the path of a model file (perflab train "
                     "--out writes one), got " + describe(path));
  }
  if (m.contains("name") && (!m["name"].is_string() || m["name"].get<std::string>().empty())) {
    throw ValueError(where + ".name must be a non-empty string, got " + describe(m["name"]));
  }
  if (!read) {
    throw ValueError(where + ".model_file: this build reads no files, so a suite here takes "
                     "zoo names and specs; run a suite with model files with perflab suite");
  }
  try {
    file = std::make_shared<ModelFile>(read(path.get<std::string>()));
  } catch (const ValueError& e) {
    throw ValueError(where + ".model_file: " + e.what());
  }
  return {{"model_file", path},
          {"name", m.contains("name") ? m["name"].get<std::string>() : file->model.name()}};
}

}  // namespace

Suite suite_from_json(const json& j, const ModelFileReader& read) {
  if (!j.is_object()) {
    throw ValueError("suite must be a JSON object with " + std::string(kSuiteFields) +
                     ", got " + describe(j));
  }
  for (const auto& [key, value] : j.items()) {
    const std::string k = key;
    if (k != "name" && k != "models" && k != "kernels" && k != "metrics" && k != "batch" &&
        k != "options" && k != "optimizations") {
      throw ValueError("suite." + k + " is not a field of a suite; the fields are " +
                       kSuiteFields);
    }
  }
  Suite s;
  if (!j.contains("name") || !j["name"].is_string() || j["name"].get<std::string>().empty()) {
    throw ValueError("suite.name must be a non-empty string, got " +
                     (j.contains("name") ? describe(j["name"]) : std::string("nothing")));
  }
  s.name = j["name"].get<std::string>();

  const json& metrics = array_field(j, "metrics", true);
  if (metrics.empty()) {
    throw ValueError("suite.metrics must name at least one metric; the metrics are " +
                     [] {
                       std::vector<std::string> names;
                       for (const auto& m : model_metrics()) names.push_back(m.name);
                       return join(names);
                     }());
  }
  std::set<std::string> seen;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string where = "suite.metrics[" + std::to_string(i) + "]";
    if (!metrics[i].is_string()) {
      throw ValueError(where + " must be a metric name, got " + describe(metrics[i]));
    }
    try {
      s.metrics.push_back(model_metric(metrics[i].get<std::string>()).name);
    } catch (const ValueError& e) {
      throw ValueError(where + ": " + e.what());
    }
    if (!seen.insert(s.metrics.back()).second) {
      throw ValueError(where + " repeats " + describe(metrics[i]) + "; name each metric once");
    }
  }

  const json& models = array_field(j, "models", true);
  std::vector<std::string> model_names;  // as the report names them (model_name)
  for (std::size_t i = 0; i < models.size(); ++i) {
    // Checked now, kept as given, so a zoo model is reported as one.
    const std::string where = "suite.models[" + std::to_string(i) + "]";
    std::shared_ptr<ModelFile> file;
    json entry = models[i];
    if (entry.is_object() && entry.contains("model_file")) {
      entry = model_file_entry(models[i], where, read, file);
    } else {
      (void)resolve_model(models[i], where);
    }
    const std::string name = model_name(entry);
    const auto same = std::find(model_names.begin(), model_names.end(), name);
    if (same != model_names.end()) {
      // Rankings, recommendations and optimizations name models, so two of one name would
      // read as one model listed twice.
      throw ValueError(where + " is named " + describe(json(name)) + ", as suite.models[" +
                       std::to_string(same - model_names.begin()) +
                       "] is; give each model its own \"name\" (a spec without one is named \"" +
                       kDefaultModelName + "\", and a zoo model is named by its zoo name)");
    }
    model_names.push_back(name);
    s.models.push_back(std::move(entry));
    s.model_files.push_back(std::move(file));
  }
  const json& optimizations = array_field(j, "optimizations", false);
  for (std::size_t i = 0; i < optimizations.size(); ++i) {
    s.optimizations.push_back(
        optimization_from_json(optimizations[i], model_names, "suite.optimizations[" + std::to_string(i) + "]"));
  }
  const json& kernels = array_field(j, "kernels", false);
  for (std::size_t i = 0; i < kernels.size(); ++i) {
    s.kernels.push_back(kernel_from_json(kernels[i], "suite.kernels[" + std::to_string(i) + "]"));
  }
  if (s.models.empty() && s.kernels.empty()) {
    throw ValueError("suite.models is empty and there are no suite.kernels; a suite measures "
                     "at least one model or kernel");
  }
  if (j.contains("batch") && !j["batch"].is_null()) {
    s.batch = static_cast<std::size_t>(
        whole_number(j["batch"], "suite.batch", 0, static_cast<double>(kMaxSpecDimension)));
  }
  s.timer = options_from_json(j.contains("options") ? j["options"] : json(), s.data);
  return s;
}

Suite suite_from_text(std::string_view text, const ModelFileReader& read) {
  return suite_from_json(parse_json_text(text, "suite"), read);
}

bool suite_needs_test_data(const Suite& suite) {
  return std::any_of(suite.model_files.begin(), suite.model_files.end(),
                     [](const auto& file) { return file != nullptr; });
}

std::size_t suite_point_count(const Suite& suite) {
  return suite.models.size() + suite.kernels.size();
}

SuitePointResult measure_suite_point(const Suite& suite, std::size_t index, Clock& clock) {
  const std::size_t total = suite_point_count(suite);
  if (index >= total) {
    throw ValueError("point index must be below " + std::to_string(total) + " for suite " +
                     describe(suite.name) + ", got " + std::to_string(index));
  }
  SuitePointResult r;
  if (index < suite.models.size()) {
    r.kind = "model";
    r.index = index;
    try {
      const std::shared_ptr<ModelFile> file =
          index < suite.model_files.size() ? suite.model_files[index] : nullptr;
      r.model = file ? benchmark_model_file(*file, model_name(suite.models[index]),
                                            suite.test.get(), suite.batch, suite.timer, clock)
                     : benchmark_model(suite.models[index], suite.batch, suite.timer, clock);
    } catch (const CancelledError&) {
      throw;
    } catch (const ValueError& e) {
      throw ValueError("suite.models[" + std::to_string(index) + "]: " + e.what());
    }
    return r;
  }
  r.kind = "kernel";
  r.index = index - suite.models.size();
  const SuiteKernel& k = suite.kernels[r.index];
  OperationOptions o;
  o.timer = suite.timer;
  o.variant = k.variant;
  try {
    r.kernel = measure_operation(k.op, k.n, o, clock);
  } catch (const CancelledError&) {
    throw;
  } catch (const ValueError& e) {
    throw ValueError("suite.kernels[" + std::to_string(r.index) + "]: " + e.what());
  }
  return r;
}

nlohmann::json to_json(const SuitePointResult& point) {
  json j = {{"kind", point.kind}, {"index", point.index}};
  if (point.kind == "model") {
    j["model"] = to_json(point.model);
  } else {
    j["kernel"] = to_json(point.kernel);
  }
  return j;
}

namespace {

// Typed fields of a point handed back, each named by its path.
const json& need(const json& j, const std::string& where, const char* key) {
  if (!j.is_object()) throw ValueError(where + " must be an object");
  const auto it = j.find(key);
  if (it == j.end()) throw ValueError(where + "." + key + " is missing");
  return *it;
}
double number_at(const json& j, const std::string& where, const char* key) {
  const json& v = need(j, where, key);
  if (!v.is_number()) throw ValueError(where + "." + key + " must be a number, got " + v.dump());
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0) {
    throw ValueError(where + "." + key + " must be a finite number ≥ 0, got " + v.dump());
  }
  return d;
}
std::size_t size_at(const json& j, const std::string& where, const char* key) {
  const double d = number_at(j, where, key);
  if (d != std::floor(d) || d > 9007199254740991.0) {
    throw ValueError(where + "." + key + " must be a whole number, got " + need(j, where, key).dump());
  }
  return static_cast<std::size_t>(d);
}
std::string string_at(const json& j, const std::string& where, const char* key) {
  const json& v = need(j, where, key);
  if (!v.is_string()) throw ValueError(where + "." + key + " must be a string, got " + v.dump());
  return v.get<std::string>();
}

}  // namespace

SuitePointResult suite_point_from_json(const json& j, const Suite& suite, const std::string& where) {
  SuitePointResult r;
  r.kind = string_at(j, where, "kind");
  r.index = size_at(j, where, "index");
  if (r.kind == "model") {
    if (r.index >= suite.models.size()) {
      throw ValueError(where + ".index must be below " + std::to_string(suite.models.size()) +
                       " (the suite's models), got " + std::to_string(r.index));
    }
    const std::string w = where + ".model";
    const json& m = need(j, where, "model");
    ModelBenchmark& b = r.model;
    b.name = string_at(m, w, "name");
    const std::string expected = model_name(suite.models[r.index]);
    if (b.name != expected) {
      throw ValueError(w + ".name is \"" + b.name + "\", but the suite's models[" +
                       std::to_string(r.index) + "] is \"" + expected + "\"");
    }
    b.source = string_at(m, w, "source");
    b.batch = size_at(m, w, "batch");
    b.parameters = size_at(m, w, "parameters");
    b.size_bytes = number_at(m, w, "size_bytes");
    b.flops_per_sample = number_at(m, w, "flops_per_sample");
    b.flops_per_batch = number_at(m, w, "flops_per_batch");
    b.peak_memory_bytes = number_at(m, w, "peak_memory_bytes");
    b.activation_bytes = number_at(m, w, "activation_bytes");
    b.latency = stats_from_json(need(m, w, "latency"), w + ".latency");
    b.latency_ms = number_at(m, w, "latency_ms");
    b.throughput_samples_per_s = number_at(m, w, "throughput_samples_per_s");
    b.original_energy_estimate_j = number_at(m, w, "original_energy_estimate_j");
    // Accuracy: null (or absent, in points kept before it was measured) when not measured.
    if (m.contains("accuracy") && !m["accuracy"].is_null()) {
      b.accuracy = number_at(m, w, "accuracy");
      if (*b.accuracy > 1) {
        throw ValueError(w + ".accuracy must be a fraction from 0 to 1, got " +
                         m["accuracy"].dump());
      }
      b.accuracy_images = size_at(m, w, "accuracy_images");
      b.accuracy_correct = size_at(m, w, "accuracy_correct");
    }
    b.accuracy_note = m.contains("accuracy_note") ? string_at(m, w, "accuracy_note")
                                                  : std::string(kAccuracyFromSeed);
    return r;
  }
  if (r.kind == "kernel") {
    if (r.index >= suite.kernels.size()) {
      throw ValueError(where + ".index must be below " + std::to_string(suite.kernels.size()) +
                       " (the suite's kernels), got " + std::to_string(r.index));
    }
    const std::string w = where + ".kernel";
    const json& k = need(j, where, "kernel");
    OperationMeasurement& m = r.kernel;
    m.op = string_at(k, w, "op");
    m.variant = string_at(k, w, "variant");
    m.n = size_at(k, w, "n");
    const SuiteKernel& planned = suite.kernels[r.index];
    if (m.op != planned.op || m.n != planned.n) {
      throw ValueError(w + " is " + m.op + " at n=" + std::to_string(m.n) +
                       ", but the suite's kernels[" + std::to_string(r.index) + "] is " +
                       planned.op + " at n=" + std::to_string(planned.n));
    }
    m.elements = size_at(k, w, "elements");
    m.flops = number_at(k, w, "flops");
    m.bytes = number_at(k, w, "bytes");
    m.intensity = number_at(k, w, "intensity");
    m.gflops_per_s = number_at(k, w, "gflops_per_s");
    m.gb_per_s = number_at(k, w, "gb_per_s");
    m.ns_per_element = number_at(k, w, "ns_per_element");
    m.stats = stats_from_json(need(k, w, "stats"), w + ".stats");
    return r;
  }
  throw ValueError(where + ".kind must be \"model\" or \"kernel\", got \"" + r.kind + "\"");
}

SystemInfo system_info(std::string_view version, Clock& clock) {
  SystemInfo s;
  s.version = std::string(version);
#ifdef __EMSCRIPTEN__
  s.build = "wasm";
#else
  s.build = "native";
#endif
#ifdef NDEBUG
  s.build += ", optimized";
#else
  s.build += ", debug (assertions on)";
#endif
  s.simd_backend = simd_backend();
  s.timer_resolution_ms = measure_resolution_ms(clock);
  s.clock = clock.name();
#ifdef __EMSCRIPTEN__
  s.platform = "WebAssembly (the host was not named)";
#else
  utsname host{};
  s.platform = uname(&host) == 0 ? std::string(host.sysname) + " " + host.machine : "not known";
  s.cpu_count = std::thread::hardware_concurrency();
#endif
  return s;
}

namespace {

// The models whose accuracy was measured, and the others by reason.
struct AccuracyGroups {
  std::vector<const ModelBenchmark*> measured;
  std::vector<std::string> from_seed, without_data;
};
AccuracyGroups accuracy_groups(const std::vector<ModelBenchmark>& models) {
  AccuracyGroups g;
  for (const auto& m : models) {
    if (m.accuracy) {
      g.measured.push_back(&m);
    } else if (m.accuracy_note == kAccuracyNoData) {
      g.without_data.push_back(m.name);
    } else {
      g.from_seed.push_back(m.name);
    }
  }
  return g;
}

const char* const kSeedReason =
    "random weights from the spec's seed, no training (the accuracy of untrained weights is "
    "chance, so it is never simulated)";
const char* const kHowToMeasure =
    "a suite measures the accuracy of trained models given as model files ({\"model_file\": "
    "\"mlp.plm\"}, which perflab train --out writes)";

// The report's accuracy note; `data` gets the data set's description when any was measured.
std::string accuracy_sentence(const std::vector<ModelBenchmark>& models, const Suite& suite,
                              std::string& data) {
  if (models.empty()) return "not measured: the suite measured no models";
  const AccuracyGroups g = accuracy_groups(models);
  std::vector<std::string> parts;
  if (!g.measured.empty()) {
    std::vector<std::string> names;
    for (const auto* m : g.measured) names.push_back(m->name);
    data = "Fashion-MNIST's test split, " +
           report_number(static_cast<double>(g.measured.front()->accuracy_images)) +
           " images (" + suite.data + ")";
    parts.push_back("measured by evaluate() on " + data + " for " + join(names));
  }
  if (!g.from_seed.empty()) {
    if (g.measured.empty() && g.without_data.empty()) {
      return std::string("not measured: every model's weights are ") +
             "random, from its spec's seed, with no training (the accuracy of untrained "
             "weights is chance, so it is never simulated); " + kHowToMeasure;
    }
    parts.push_back("not measured for " + join(g.from_seed) + ": " + kSeedReason);
  }
  if (!g.without_data.empty()) {
    parts.push_back("not measured for " + join(g.without_data) +
                    ": trained weights, but no test data was given");
  }
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// accuracy-preserving: the highest measured accuracy (the first in suite order on a tie).
Recommendation most_accurate(const std::vector<ModelBenchmark>& models) {
  const AccuracyGroups g = accuracy_groups(models);
  if (g.measured.empty()) {
    return {"accuracy-preserving", "", false,
            "not decided: no model's accuracy was measured" +
                std::string(models.empty()             ? ""
                            : g.without_data.empty() ? " (random weights from the specs' seeds, "
                                                       "no training)"
                                                     : " (no test data was given)") +
                ". This recommendation needs each model's accuracy on the same held-out data: " +
                kHowToMeasure + "."};
  }
  const ModelBenchmark* best = g.measured.front();
  for (const auto* m : g.measured) {
    if (*m->accuracy > *best->accuracy) best = m;
  }
  std::string reason = best->name + " has the highest accuracy on the test split: " +
                       metric_text("accuracy", *best->accuracy) + " (" +
                       report_number(static_cast<double>(best->accuracy_correct)) + " of " +
                       report_number(static_cast<double>(best->accuracy_images)) + " images)";
  reason += g.measured.size() == 1
                ? ", the only model whose accuracy was measured"
                : ", of the " + std::to_string(g.measured.size()) +
                      " models whose accuracy was measured";
  if (!g.from_seed.empty()) {
    reason += "; not measured for " + join(g.from_seed) + " (random weights, no training)";
  }
  return {"accuracy-preserving", best->name, true, reason};
}

Recommendation lowest(const std::vector<MetricSummary>& summary, const char* use,
                      const char* metric, const char* why) {
  for (const auto& m : summary) {
    if (m.metric.name == metric && !m.best.empty()) {
      return {use, m.best, true,
              m.best + " has the lowest " + m.metric.label + ": " +
                  metric_text(m.metric.name, m.best_value) + why};
    }
  }
  return {use, "", true, ""};
}

// Geometric mean of times_worse_than_best over the measured metrics; lowest wins. A model
// with a 0 factor (the best is 0, it is not) counts as worst on that metric.
Recommendation balanced(const std::vector<MetricSummary>& summary,
                        const std::vector<ModelBenchmark>& models) {
  Recommendation r{"balanced", "", true, ""};
  if (models.empty() || summary.empty()) {
    r.reason = "no models were measured";
    return r;
  }
  // Only metrics every model has a value of (accuracy is measured for trained models only).
  std::vector<const MetricSummary*> used;
  bool accuracy_partial = false;
  for (const auto& m : summary) {
    if (m.ranking.size() == models.size()) {
      used.push_back(&m);
    } else if (m.metric.name == "accuracy") {
      accuracy_partial = true;
    }
  }
  if (used.empty()) {
    r.reason = "not decided: no metric was measured for every model";
    return r;
  }
  std::string best;
  double best_score = std::numeric_limits<double>::infinity();
  for (const auto& model : models) {
    double log_sum = 0;
    for (const MetricSummary* mp : used) {
      const MetricSummary& m = *mp;
      for (const auto& row : m.ranking) {
        if (row.name != model.name) continue;
        const double f = row.times_worse_than_best > 0 ? row.times_worse_than_best : 1e9;
        log_sum += std::log(f);
        break;
      }
    }
    const double score = std::exp(log_sum / static_cast<double>(used.size()));
    if (score < best_score) {
      best_score = score;
      best = model.name;
    }
  }
  std::vector<std::string> names;
  bool with_accuracy = false;
  for (const MetricSummary* m : used) {
    names.push_back(m->metric.name);
    with_accuracy = with_accuracy || m->metric.name == "accuracy";
  }
  r.model = best;
  r.reason = best + " has the lowest geometric mean of how many times worse than the best it "
             "is over " + join(names) + " (" + format_number(best_score) +
             "; 1 would be best on every one).";
  if (accuracy_partial) {
    r.reason += " Accuracy is not in it: it was not measured for every model.";
  } else if (!with_accuracy) {
    r.reason += " Accuracy is not in it: it is not among the suite's metrics.";
  }
  return r;
}

}  // namespace

SuiteReport make_suite_report(const Suite& suite, const std::vector<SuitePointResult>& points,
                              const SystemInfo& system) {
  SuiteReport r;
  r.name = suite.name;
  r.system = system;
  r.metrics = suite.metrics;
  r.batch = suite.batch;
  r.timer = suite.timer;
  r.points_total = suite_point_count(suite);
  std::vector<const SuitePointResult*> sorted;
  for (const auto& p : points) sorted.push_back(&p);
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    if (a->kind != b->kind) return a->kind == "model";
    return a->index < b->index;
  });
  for (const auto* p : sorted) {
    if (p->kind == "model") {
      r.models.push_back(p->model);
    } else {
      r.kernels.push_back(p->kernel);
    }
  }
  r.points_done = points.size();
  r.complete = r.points_done == r.points_total;

  if (!r.models.empty()) {
    for (const auto& name : suite.metrics) {
      MetricSummary m;
      m.metric = model_metric(name);
      m.ranking = compare_models(r.models, name);
      if (!m.ranking.empty()) {
        m.best = m.ranking.front().name;
        m.best_value = m.ranking.front().value;
      }
      r.summary.push_back(m);
    }
  }

  auto missing = [](const char* use, const char* metric) {
    return Recommendation{use, "", true,
                          std::string("not decided: add ") + metric + " to the suite's metrics"};
  };
  for (const auto& o : suite.optimizations) {
    const auto find = [&](const std::string& name) {
      return std::find_if(r.models.begin(), r.models.end(),
                          [&](const ModelBenchmark& b) { return b.name == name; });
    };
    const auto base = find(o.base), optimized = find(o.optimized);
    if (base == r.models.end() || optimized == r.models.end()) {
      r.optimizations_not_measured.push_back(o.optimized + " against " + o.base);
    } else {
      r.optimizations.push_back(compare_optimization(*base, *optimized));
    }
  }

  Recommendation latency = lowest(r.summary, "latency-critical", "latency_ms",
                                  " (a single run, not a significance test)");
  if (latency.model.empty()) latency = missing("latency-critical", "latency_ms");
  // Latency per forward pass only compares models run at the same batch.
  std::set<std::size_t> batches;
  for (const auto& m : r.models) batches.insert(m.batch);
  if (!latency.model.empty() && batches.size() > 1) {
    latency.reason += "; the models ran at different batches (each spec's own), so set the "
                      "suite's batch to compare latency at one batch";
  }
  Recommendation memory = lowest(r.summary, "memory-constrained", "peak_memory_bytes",
                                 " (measured by the tracking allocator)");
  if (memory.model.empty()) {
    memory = lowest(r.summary, "memory-constrained", "size_bytes",
                    " (peak memory was not among the metrics, so the size of the parameters "
                    "decides)");
  }
  if (memory.model.empty()) memory = missing("memory-constrained", "peak_memory_bytes");
  r.accuracy = accuracy_sentence(r.models, suite, r.accuracy_data);
  Recommendation accuracy = most_accurate(r.models);
  if (r.models.empty()) {
    const char* none = "not decided: the suite measured no models";
    latency.reason = memory.reason = none;
    latency.model = memory.model = "";
  }
  r.recommendations = {latency, memory, accuracy, balanced(r.summary, r.models)};
  return r;
}

SuiteReport run_suite(const Suite& suite, std::string_view version, const ProgressFn& progress,
                      Clock& clock) {
  const SystemInfo system = system_info(version, clock);
  const std::size_t total = suite_point_count(suite);
  std::vector<SuitePointResult> points;
  for (std::size_t i = 0; i < total; ++i) {
    if (progress && !progress(static_cast<double>(i) / static_cast<double>(total))) {
      throw CancelledError("suite " + describe(suite.name) + " cancelled after " +
                           std::to_string(i) + " of " + std::to_string(total) + " points");
    }
    points.push_back(measure_suite_point(suite, i, clock));
  }
  if (progress) progress(1.0);
  return make_suite_report(suite, points, system);
}

}  // namespace perflab
