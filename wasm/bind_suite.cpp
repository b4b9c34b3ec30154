// Bindings for benchmark suites (core/include/perflab/suite): the metrics a suite may name,
// a suite's points in run order, one point measured, and the report of the points the page
// kept, as JSON, Markdown and CSV, so the page sweeps a suite point by point (progress and
// cancel between points) and prints what `perflab suite` prints.
// Not for: measuring models or kernels themselves (core) or the statistics of two runs.
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/suite/model_bench.hpp"
#include "perflab/suite/suite.hpp"

namespace perflab::wasm {
namespace {

using nlohmann::json;

// The most models and kernels one suite from the page may list: a suite is a page of
// results a student reads, and each point is measured in turn.
constexpr std::size_t kMaxSuitePoints = 256;

Suite to_suite(const val& suite) {
  const Suite s = suite_from_json(to_json(suite, "suite"));
  if (suite_point_count(s) > kMaxSuitePoints) {
    throw ValueError("a suite may have at most " + std::to_string(kMaxSuitePoints) +
                     " models and kernels, got " + std::to_string(suite_point_count(s)));
  }
  return s;
}

val model_metrics_js() {
  json out = json::array();
  for (const MetricInfo& m : model_metrics()) out.push_back(to_json(m));
  return to_val(out);
}

// {name, metrics, batch, options, points: [{kind, index, label}]}: the suite as core read
// it, and what each point of a sweep measures.
val suite_plan_js(val suite) {
  const Suite s = to_suite(suite);
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

val measure_suite_point_js(val suite, val index) {
  const Suite s = to_suite(suite);
  return to_val(to_json(measure_suite_point(s, to_size(index, "index"))));
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
val suite_report_js(val suite, val points, val version) {
  const Suite s = to_suite(suite);
  const json list = to_json(points, "points");
  if (!list.is_array()) throw ValueError("points must be an array of measured suite points");
  if (list.size() > suite_point_count(s)) {
    throw ValueError("points has " + std::to_string(list.size()) + " entries; the suite has " +
                     std::to_string(suite_point_count(s)) + " points");
  }
  std::vector<SuitePointResult> measured;
  for (std::size_t i = 0; i < list.size(); ++i) {
    measured.push_back(suite_point_from_json(list[i], s, "points[" + std::to_string(i) + "]"));
  }
  SystemInfo system = system_info(to_string(version, "version"));
  name_host(system);
  const SuiteReport r = make_suite_report(s, measured, system);
  return to_val({{"json", to_json(r)},
                 {"markdown", suite_report_markdown(r)},
                 {"csv", suite_report_csv(r)}});
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_suite) {
  expose<&model_metrics_js>("modelMetrics");
  expose<&suite_plan_js>("suitePlan");
  expose<&measure_suite_point_js>("measureSuitePoint");
  expose<&suite_report_js>("suiteReport");
}

}  // namespace perflab::wasm
