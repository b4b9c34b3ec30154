// The Benchmarking chapter's experiment plans, full and quick: what experiment_plan answers
// for a "benchmarking-..." id (experiment_plans.cpp asks here first). Private to core/src/suite.
// Not for: the other chapters' plans (experiment_plans.cpp) or running anything.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab::detail {

// The Benchmarking experiment ids benchmarking_plan knows, in the chapter's order.
const std::vector<std::string>& benchmarking_plan_ids();

// The plan of Benchmarking experiment `id` (full, or quick for ?quick=1), or null for an id
// that is not one of benchmarking_plan_ids(); experiment_plans.hpp lists each plan's fields.
nlohmann::json benchmarking_plan(std::string_view id, bool quick);

}  // namespace perflab::detail
