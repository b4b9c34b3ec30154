// What this file protects: the Benchmarking chapter's experiment plans
// (suite/experiment_plans_benchmarking.cpp), which the page measures and its text quotes:
// each id answers full and quick with the same fields, every Timer option is one the timer
// accepts, the plans stay within core's limits for what they measure, quick is smaller than
// full (or equal where a smaller value would change what the experiment shows), and an
// unknown id names the Benchmarking plans among the known ones.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/coverage.hpp"
#include "perflab/stats/lab_kernels.hpp"
#include "perflab/suite/experiment_plans.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/timing/timer.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

const std::vector<std::string> kIds = {
    "benchmarking-warmup", "benchmarking-clock",  "benchmarking-distribution",
    "benchmarking-intervals", "benchmarking-aa", "benchmarking-ab",
    "benchmarking-complexity", "benchmarking-suite"};

// A plan's Timer options read as the page's measurements read them, then validated.
TimerOptions timer_options(const json& options) {
  TimerOptions t;
  REQUIRE(options.is_object());
  for (auto it = options.begin(); it != options.end(); ++it) {
    const std::string field = "options." + it.key();
    INFO(field);
    CHECK(read_timer_option(t, it.key(), it.value(), field));
  }
  CHECK_NOTHROW(t.validate());
  return t;
}

std::vector<std::string> keys(const json& o) {
  std::vector<std::string> out;
  for (const auto& [key, value] : o.items()) out.push_back(key);
  return out;
}

bool rising(const json& sizes) {
  for (std::size_t i = 1; i < sizes.size(); ++i) {
    if (!(sizes[i].get<double>() > sizes[i - 1].get<double>())) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("benchmarking plans: every id is known, in the chapter's order, full and quick with the same fields") {
  const std::vector<std::string>& ids = experiment_plan_ids();
  auto at = std::search(ids.begin(), ids.end(), kIds.begin(), kIds.end());
  CHECK(at != ids.end());
  for (const std::string& id : kIds) {
    CAPTURE(id);
    const json full = experiment_plan(id, false);
    const json quick = experiment_plan(id, true);
    REQUIRE(full.is_object());
    REQUIRE(quick.is_object());
    CHECK(keys(full) == keys(quick));
    CHECK(full != quick);
  }
}

TEST_CASE("benchmarking-warmup: every one of the first calls timed, both stretches inside them") {
  for (const bool quick : {false, true}) {
    CAPTURE(quick);
    const json p = experiment_plan("benchmarking-warmup", quick);
    const int calls = p["calls"].get<int>();
    // The point the page makes of it: no warmup, one call per sample.
    TimerOptions t = timer_options({{"warmup", 0}, {"samples", calls}, {"min_sample_ms", 0},
                                    {"max_total_ms", p["max_total_ms"]}});
    CHECK_NOTHROW(check_sample_kernel_limits("matmul", 128, t, KernelSampling{1, 0}));
    CHECK(p["first"].get<int>() >= 1);
    CHECK(p["last"].get<int>() >= 1);
    CHECK(p["first"].get<int>() + p["last"].get<int>() < calls);
  }
  const json full = experiment_plan("benchmarking-warmup", false);
  const json quick = experiment_plan("benchmarking-warmup", true);
  CHECK(quick["calls"] < full["calls"]);
  CHECK(quick["max_total_ms"] < full["max_total_ms"]);
  CHECK(quick["first"] == full["first"]);  // the first calls are what warmup is about
}

TEST_CASE("benchmarking-clock: fixed batches that rise by powers of two, the quick ones among the full ones") {
  const json full = experiment_plan("benchmarking-clock", false);
  const json quick = experiment_plan("benchmarking-clock", true);
  for (const json& p : {full, quick}) {
    const TimerOptions t = timer_options(p["options"]);
    CHECK(rising(p["batches"]));
    CHECK(p["batches"][0] == 1);  // one call per sample is the point of comparison
    for (const json& k : p["batches"]) {
      const long batch = k.get<long>();
      CHECK((batch & (batch - 1)) == 0);
      CHECK_NOTHROW(KernelSampling{batch, 0.1}.validate());
      CHECK_NOTHROW(check_sample_kernel_limits("gelu", 1024, t, KernelSampling{batch, 0.1}));
    }
  }
  for (const json& k : quick["batches"]) {
    CHECK(std::find(full["batches"].begin(), full["batches"].end(), k) != full["batches"].end());
  }
  CHECK(full["batches"].back() == 1024);
  CHECK(quick["options"]["samples"] < full["options"]["samples"]);
  CHECK(quick["options"]["max_total_ms"] < full["options"]["max_total_ms"]);
  CHECK(quick["options"]["warmup"] == full["options"]["warmup"]);  // a millisecond of calls either way
}

TEST_CASE("benchmarking-distribution and -intervals: one reference run, coverage within core's limits") {
  for (const bool quick : {false, true}) {
    CAPTURE(quick);
    const json dist = experiment_plan("benchmarking-distribution", quick);
    const json iv = experiment_plan("benchmarking-intervals", quick);
    const TimerOptions t = timer_options(dist["options"]);
    CHECK(t.min_sample_ms == 0);  // the timer's minimum: 100 ticks per sample
    CHECK(iv["options"] == dist["options"]);
    CoverageOptions c;
    c.trials = iv["coverage"]["trials"].get<int>();
    c.bootstrap_resamples = iv["coverage"]["bootstrap_resamples"].get<int>();
    c.seed = iv["coverage"]["seed"].get<std::uint64_t>();
    CHECK_NOTHROW(c.validate());
  }
  const json full = experiment_plan("benchmarking-intervals", false);
  const json quick = experiment_plan("benchmarking-intervals", true);
  CHECK(full["options"]["samples"] == 1000);  // the chapter's "1,000 samples"
  CHECK(quick["options"]["samples"] < full["options"]["samples"]);
  CHECK(quick["options"]["max_total_ms"] < full["options"]["max_total_ms"]);
  CHECK(quick["coverage"]["trials"] < full["coverage"]["trials"]);
  CHECK(quick["coverage"]["bootstrap_resamples"] < full["coverage"]["bootstrap_resamples"]);
  CHECK(quick["coverage"]["seed"] == full["coverage"]["seed"]);
}

TEST_CASE("benchmarking-aa and -ab: rounds the A/B runner accepts; quick has fewer, the A/A caps its repeats") {
  for (const std::string id : {"benchmarking-aa", "benchmarking-ab"}) {
    CAPTURE(id);
    const json full = experiment_plan(id, false);
    const json quick = experiment_plan(id, true);
    for (const json& p : {full, quick}) {
      AbOptions o;
      o.rounds = p["rounds"].get<int>();
      o.warmup = p["warmup"].get<int>();
      CHECK_NOTHROW(o.validate());
      CHECK(o.rounds >= drift_min_rounds(o.drift_alpha));  // drift can be detected at all
    }
    CHECK(quick["rounds"] < full["rounds"]);
    CHECK(quick["warmup"] <= full["warmup"]);
  }
  CHECK(experiment_plan("benchmarking-aa", false)["max_repeats"].is_null());
  CHECK(experiment_plan("benchmarking-aa", true)["max_repeats"].get<int>() >= 2);
}

TEST_CASE("benchmarking-complexity: core's variants at sizes within the sampling limits, each spanning a factor of 10") {
  const json full = experiment_plan("benchmarking-complexity", false);
  const json quick = experiment_plan("benchmarking-complexity", true);
  REQUIRE(full["kernels"].size() == quick["kernels"].size());
  for (const json& p : {full, quick}) {
    const TimerOptions t = timer_options(p["options"]);
    for (const json& k : p["kernels"]) {
      const std::string op = k["op"].get<std::string>();
      const std::string variant = k["variant"].get<std::string>();
      CAPTURE(op);
      CAPTURE(variant);
      // A kernel the page's sampleKernel builds (its op and variant known to core).
      CHECK_NOTHROW(lab_kernel(op, variant, k["sizes"][0].get<std::size_t>()));
      REQUIRE(k["sizes"].size() >= 3);  // three points for a slope and its interval
      CHECK(rising(k["sizes"]));
      CHECK(k["sizes"].back().get<double>() >= 10 * k["sizes"][0].get<double>());
      for (const json& n : k["sizes"]) {
        CHECK_NOTHROW(check_sample_kernel_limits(op, n.get<std::size_t>(), t, KernelSampling{}));
      }
    }
  }
  for (std::size_t i = 0; i < full["kernels"].size(); ++i) {
    CHECK(quick["kernels"][i]["op"] == full["kernels"][i]["op"]);
    CHECK(quick["kernels"][i]["variant"] == full["kernels"][i]["variant"]);
    CHECK(quick["kernels"][i]["sizes"].size() <= full["kernels"][i]["sizes"].size());
  }
  CHECK(quick["options"]["samples"] < full["options"]["samples"]);
  CHECK(quick["options"]["max_total_ms"] < full["options"]["max_total_ms"]);
}

TEST_CASE("benchmarking-suite: the suite's own timer when full, a smaller one when quick") {
  CHECK(experiment_plan("benchmarking-suite", false)["options"].is_null());
  const TimerOptions quick = timer_options(experiment_plan("benchmarking-suite", true)["options"]);
  const TimerOptions own = default_suite_timer_options();
  CHECK(quick.samples < own.samples);
  CHECK(quick.max_total_ms < own.max_total_ms);
}

TEST_CASE("benchmarking plans: an unknown id is refused, naming the Benchmarking plans among the known ones") {
  std::string listed;
  for (const std::string& id : kIds) listed += (listed.empty() ? "" : ", ") + id;
  CHECK_THROWS_WITH_AS(experiment_plan("benchmarking-nope", true),
                       doctest::Contains("no experiment plan named \"benchmarking-nope\"; the plans are "),
                       ValueError);
  CHECK_THROWS_WITH_AS(experiment_plan("benchmarking-nope", false), doctest::Contains(listed.c_str()),
                       ValueError);
  CHECK_THROWS_AS(experiment_plan("Benchmarking-aa", false), ValueError);
}
