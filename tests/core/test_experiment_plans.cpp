// What this file protects: the page's experiment plans (suite/experiment_plans), which the
// page measures and its text quotes. Each plan's fields are the ones its experiment reads,
// every point's Timer options are valid, sizes rise, and quick is smaller than full.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/model/conv_methods.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "perflab/timing/timer.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

// The plan's Timer options read as the page's measurements read them, then validated.
void check_options(const json& plan) {
  REQUIRE(plan.contains("options"));
  TimerOptions options;
  for (const auto& [key, value] : plan["options"].items()) {
    CHECK(read_timer_option(options, key, value, "options." + key));
  }
  CHECK_NOTHROW(options.validate());
}

}  // namespace

TEST_CASE("experiment plan acceleration-conv: conv_plan's sizes, as to_json writes them") {
  for (const bool quick : {false, true}) {
    const json sizes = experiment_plan("acceleration-conv", quick)["sizes"];
    const std::vector<ConvShape> shapes = conv_plan(quick);
    REQUIRE(sizes.size() == shapes.size());
    for (std::size_t i = 0; i < shapes.size(); ++i) CHECK(sizes[i] == to_json(shapes[i]));
  }
}

TEST_CASE("experiment plan acceleration-conv and -blocking: Timer options, shorter when quick") {
  for (const std::string id : {"acceleration-conv", "acceleration-blocking"}) {
    check_options(experiment_plan(id, false));
    check_options(experiment_plan(id, true));
    CHECK(experiment_plan(id, true)["options"]["max_total_ms"].get<double>() <
          experiment_plan(id, false)["options"]["max_total_ms"].get<double>());
  }
}

TEST_CASE("experiment plans: every id has both plans; an unknown id names the known ones") {
  for (const std::string& id : experiment_plan_ids()) {
    CHECK(experiment_plan(id, false).is_object());
    CHECK(experiment_plan(id, true).is_object());
  }
  CHECK_THROWS_WITH_AS(experiment_plan("acceleration-nope", false),
                       doctest::Contains("no experiment plan named \"acceleration-nope\"; the plans are acceleration-conv, acceleration-blocking"),
                       ValueError);
}
