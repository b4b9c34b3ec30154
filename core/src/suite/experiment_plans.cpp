#include "perflab/suite/experiment_plans.hpp"

#include "perflab/base/error.hpp"
#include "perflab/model/conv_methods.hpp"

namespace perflab {
namespace {

using nlohmann::json;

// The convolution experiment's sizes: conv_plan's shapes, as the page reads them.
json conv_sizes(bool quick) {
  json out = json::array();
  for (const ConvShape& s : conv_plan(quick)) out.push_back(to_json(s));
  return out;
}

json timer(int warmup, int samples, double min_sample_ms, double max_total_ms) {
  return {{"warmup", warmup}, {"samples", samples}, {"min_sample_ms", min_sample_ms},
          {"max_total_ms", max_total_ms}};
}

// The full plans (experiments not listed here still keep their plans in the page).
json full_plan(std::string_view id) {
  // Each call is a whole convolution, so few samples suffice.
  if (id == "acceleration-conv") return {{"sizes", conv_sizes(false)}, {"options", timer(1, 7, 10, 3000)}};
  if (id == "acceleration-blocking") return {{"options", timer(1, 8, 10, 1000)}};
  return nullptr;
}

// ?quick=1: a few small sizes and short budgets, seconds in all; noisier numbers.
json quick_plan(std::string_view id) {
  if (id == "acceleration-conv") return {{"sizes", conv_sizes(true)}, {"options", timer(1, 3, 2, 300)}};
  if (id == "acceleration-blocking") return {{"options", timer(0, 2, 1, 60)}};
  return nullptr;
}

}  // namespace

const std::vector<std::string>& experiment_plan_ids() {
  static const std::vector<std::string> ids = {"acceleration-conv", "acceleration-blocking"};
  return ids;
}

json experiment_plan(std::string_view id, bool quick) {
  json plan = quick ? quick_plan(id) : full_plan(id);
  if (plan.is_null()) {
    std::string known;
    for (const std::string& k : experiment_plan_ids()) known += (known.empty() ? "" : ", ") + k;
    throw ValueError("no experiment plan named \"" + std::string(id) + "\"; the plans are " +
                     known);
  }
  return plan;
}

}  // namespace perflab
