// Bindings for benchmark suites (core/include/perflab/suite), in the training module: a
// suite's points in run order, one point measured, and the report of the points the page
// kept, as JSON, Markdown and CSV, so the page sweeps a suite point by point (progress and
// cancel between points) and prints what `perflab suite` prints. A suite may name trained
// models the module holds (the session table's, train/session_table.hpp): `models` maps each
// {"model_file": NAME} entry's NAME to a held model's id, whose model file core reads as
// `perflab suite` reads one from disk, and `test_dataset` names a held test split on which
// their accuracy is measured. Those live in this module, so suites do too.
// Not for: measuring models or kernels themselves (core) or the statistics of two runs.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/train/session_table.hpp"

namespace perflab::wasm {
namespace {

using nlohmann::json;

// The most models and kernels one suite from the page may list: a suite is a page of
// results a student reads, and each point is measured in turn.
constexpr std::size_t kMaxSuitePoints = 256;

// models: undefined, or {NAME: held model id}; a suite's {"model_file": NAME} entry is that
// model's file (SessionTable::model_file), read back as `perflab suite` reads a file.
std::map<std::string, std::size_t> held_models(const val& models) {
  std::map<std::string, std::size_t> out;
  if (models.isUndefined()) return out;
  const nlohmann::json m = to_json(models, "models");
  if (!m.is_object()) {
    throw ValueError("models must be an object from each model_file name the suite uses to the "
                     "id of a model the lab holds, got " + perflab::describe(m));
  }
  for (const auto& [name, id] : m.items()) {
    if (!id.is_number_unsigned() || id.get<std::size_t>() == 0) {
      throw ValueError("models." + name + " must be the id of a model the lab holds (a positive "
                       "integer), got " + perflab::describe(id));
    }
    out.emplace(name, id.get<std::size_t>());
  }
  return out;
}

// The suite with its model file entries read from the held models `models` names. The suite
// is checked first (a bad suite is the first complaint), `models` when an entry needs it and
// in any case before the suite is returned.
Suite to_suite(const val& suite, const val& models) {
  std::optional<std::map<std::string, std::size_t>> converted;
  const auto held_map = [&]() -> const std::map<std::string, std::size_t>& {
    if (!converted) converted = held_models(models);
    return *converted;
  };
  const ModelFileReader read = [&held_map](const std::string& name) {
    const std::map<std::string, std::size_t>& held = held_map();
    const auto it = held.find(name);
    if (it == held.end()) {
      std::string names;
      for (const auto& [n, _] : held) names += (names.empty() ? "" : ", ") + n;
      throw ValueError("the page's models name no model file " +
                       perflab::describe(nlohmann::json(name)) +
                       (held.empty() ? std::string(" (they name none)")
                                     : " (they name " + names + ")"));
    }
    return read_model_file(session_table().model_file(it->second),
                           "held model " + std::to_string(it->second));
  };
  const Suite s = suite_from_json(to_json(suite, "suite"), read);
  held_map();
  if (suite_point_count(s) > kMaxSuitePoints) {
    throw ValueError("a suite may have at most " + std::to_string(kMaxSuitePoints) +
                     " models and kernels, got " + std::to_string(suite_point_count(s)));
  }
  return s;
}

// {name, metrics, batch, options, points: [{kind, index, label}]}: the suite as core read
// it, and what each point of a sweep measures.
val suite_plan_js(val suite, val models) {
  const Suite s = to_suite(suite, models);
  json points = json::array();
  for (std::size_t i = 0; i < s.models.size(); ++i) {
    points.push_back({{"kind", "model"}, {"index", i}, {"label", model_name(s.models[i])}});
  }
  for (std::size_t i = 0; i < s.kernels.size(); ++i) {
    const SuiteKernel& k = s.kernels[i];
    points.push_back({{"kind", "kernel"},
                      {"index", i},
                      {"label", k.op + (k.variant.empty() ? "" : " " + k.variant) + " at n=" +
                                    std::to_string(k.n)}});
  }
  return to_val({{"name", s.name},
                 {"metrics", s.metrics},
                 {"batch", s.batch},
                 {"options", to_json(s.timer)},
                 {"points", points}});
}

// test_dataset: undefined (trained models' accuracy not measured: no test data), or the id
// of a held test split.
val measure_suite_point_js(val suite, val index, val models, val test_dataset) {
  Suite s = to_suite(suite, models);
  const std::size_t i = to_size(index, "index");
  if (!test_dataset.isUndefined()) {
    s.test = session_table().images(to_size(test_dataset, "test_dataset"), "test");
  }
  return to_val(to_json(measure_suite_point(s, i)));
}

// The host, which a wasm build cannot ask its OS for: what the worker's navigator says
// (platform, hardwareConcurrency), or Node's process.platform and arch in the tests.
void name_host(SystemInfo& system) {
  const val navigator = val::global("navigator");
  const val process = val::global("process");
  if (!navigator.isUndefined() && !navigator.isNull()) {
    const val platform = navigator["platform"];
    const val cpus = navigator["hardwareConcurrency"];
    if (platform.isString() && !platform.as<std::string>().empty()) {
      system.platform = "WebAssembly on " + platform.as<std::string>();
    }
    if (cpus.isNumber() && cpus.as<double>() >= 1 && cpus.as<double>() < 1e6) {
      system.cpu_count = static_cast<std::size_t>(cpus.as<double>());
    }
  } else if (!process.isUndefined() && !process.isNull() && process["platform"].isString()) {
    system.platform = "WebAssembly on " + process["platform"].as<std::string>() + " " +
                      process["arch"].as<std::string>();
  }
}

// The report of the points measured so far (a cancelled run's report says it is partial).
val suite_report_js(val suite, val points, val version, val models) {
  const Suite s = to_suite(suite, models);
  const json list = to_json(points, "points");
  const std::string v = to_string(version, "version");
  if (!list.is_array()) throw ValueError("points must be an array of measured suite points");
  if (list.size() > suite_point_count(s)) {
    throw ValueError("points has " + std::to_string(list.size()) + " entries; the suite has " +
                     std::to_string(suite_point_count(s)) + " points");
  }
  std::vector<SuitePointResult> measured;
  for (std::size_t i = 0; i < list.size(); ++i) {
    measured.push_back(suite_point_from_json(list[i], s, "points[" + std::to_string(i) + "]"));
  }
  SystemInfo system = system_info(v);
  name_host(system);
  const SuiteReport r = make_suite_report(s, measured, system);
  return to_val({{"json", to_json(r)},
                 {"markdown", suite_report_markdown(r)},
                 {"csv", suite_report_csv(r)}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_suite) {
  expose<&suite_plan_js>("suitePlan");
  expose<&measure_suite_point_js>("measureSuitePoint");
  expose<&suite_report_js>("suiteReport");
}

}  // namespace perflab::wasm
