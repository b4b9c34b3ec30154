// Bindings for the plans core keeps for the page's experiments: experimentPlan(experiment,
// quick), the sizes or points and Timer options of one experiment, full or quick; and
// modelMetrics, the metrics a suite may name (the suite's controls, read at page load; the
// suites themselves run in the training module, bind_suite.cpp).
// Not for: the plans themselves (core/suite/experiment_plans); this function only converts.
#include <string>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "perflab/suite/model_bench.hpp"

namespace perflab::wasm {
namespace {

// experimentPlan(experiment, quick): core's suite/experiment_plans.hpp lists the ids and each
// plan's fields.
val experiment_plan_js(val experiment, val quick) {
  const std::string id = to_string(experiment, "experiment");
  if (!quick.isTrue() && !quick.isFalse()) {
    throw ValueError("quick must be true or false, got " + describe(quick));
  }
  return to_val(experiment_plan(id, quick.isTrue()));
}

val model_metrics_js() {
  nlohmann::json out = nlohmann::json::array();
  for (const MetricInfo& m : model_metrics()) out.push_back(to_json(m));
  return to_val(out);
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_plans) {
  expose<&experiment_plan_js>("experimentPlan");
  expose<&model_metrics_js>("modelMetrics");
}

}  // namespace perflab::wasm
