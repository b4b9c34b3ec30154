// Bindings for the plans core keeps for the page's experiments: experimentPlan(experiment,
// quick), the sizes or points and Timer options of one experiment, full or quick.
// Not for: the plans themselves (core/suite/experiment_plans); this function only converts.
#include <string>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/suite/experiment_plans.hpp"

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

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_plans) {
  expose<&experiment_plan_js>("experimentPlan");
}

}  // namespace perflab::wasm
