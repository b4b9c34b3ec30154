// What this file protects: the page's experiment plans (suite/experiment_plans), which the
// page measures and its text quotes. Each plan's fields are the ones its experiment reads,
// every point's Timer options are valid, sizes rise, and quick is smaller than full.
#include <doctest/doctest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
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

// A non-empty, strictly rising list of positive integers.
void check_rising(const json& list) {
  REQUIRE(list.is_array());
  REQUIRE_FALSE(list.empty());
  for (std::size_t i = 0; i < list.size(); ++i) {
    REQUIRE(list[i].is_number_integer());
    CHECK(list[i].get<long long>() > 0);
    if (i > 0) CHECK(list[i].get<long long>() > list[i - 1].get<long long>());
  }
}

// full[field] and quick[field], checked, with quick no longer than full.
void check_list(const std::string& id, const std::string& field) {
  const json full = experiment_plan(id, false);
  const json quick = experiment_plan(id, true);
  check_rising(full[field]);
  check_rising(quick[field]);
  CHECK(quick[field].size() < full[field].size());
  check_options(full);
  check_options(quick);
}

}  // namespace

TEST_CASE("experiment plan acceleration-linear-loops: layer shapes [in, out], smaller when quick") {
  for (const bool quick : {false, true}) {
    const json plan = experiment_plan("acceleration-linear-loops", quick);
    REQUIRE(plan["shapes"].is_array());
    for (const json& shape : plan["shapes"]) {
      REQUIRE(shape.size() == 2);
      CHECK(shape[0].get<int>() > 0);
      CHECK(shape[1].get<int>() > 0);
    }
    check_options(plan);
  }
  CHECK(experiment_plan("acceleration-linear-loops", true)["shapes"].size() <
        experiment_plan("acceleration-linear-loops", false)["shapes"].size());
}

TEST_CASE("experiment plan acceleration-cache-sweep: powers of two from 4 KiB to 256 MiB") {
  check_list("acceleration-cache-sweep", "sizes");
  const json sizes = experiment_plan("acceleration-cache-sweep", false)["sizes"];
  CHECK(sizes.front().get<std::size_t>() == 4096);
  CHECK(sizes.back().get<std::size_t>() == std::size_t{256} << 20);
  for (const json& b : sizes) CHECK((b.get<std::size_t>() & (b.get<std::size_t>() - 1)) == 0);
}

TEST_CASE("experiment plan acceleration-builds and -vectorization: N sizes, scalar loops capped") {
  for (const std::string id : {"acceleration-builds", "acceleration-vectorization"}) {
    check_list(id, "sizes");
    const json full = experiment_plan(id, false);
    REQUIRE(full["maxN"].is_object());
    CHECK(full["maxN"].contains("naive"));
    CHECK(full["maxN"]["naive"].get<std::size_t>() < full["sizes"].back().get<std::size_t>());
    CHECK(experiment_plan(id, true)["maxN"].empty());
  }
}

TEST_CASE("experiment plan acceleration-gelu-fusion: element counts, smaller when quick") {
  check_list("acceleration-gelu-fusion", "elements");
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
                       doctest::Contains("no experiment plan named \"acceleration-nope\"; the plans are acceleration-linear-loops"),
                       ValueError);
}
