// The sweep plans of the page's experiments that have no plan of their own elsewhere in core
// (the roofline's is roofline_plan): for each experiment
// id, the sizes or points it measures and the Timer settings of each point, full and quick
// (?quick=1). Core owns them so the page measures and its text names one set of numbers.
// Not for: running the experiments (the page's runner) or checking a student's values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

// The experiment ids experiment_plan knows, in chapter order.
const std::vector<std::string>& experiment_plan_ids();

// The plan of experiment `id`, a JSON object whose fields that experiment reads; every
// "options" field is Timer options {warmup, samples, min_sample_ms, max_total_ms}.
//   acceleration-conv          {sizes: [conv_plan's shapes as to_json writes them], options}
//   acceleration-blocking      {options}
// Throws ValueError naming the known ids for any other id.
nlohmann::json experiment_plan(std::string_view id, bool quick);

}  // namespace perflab
