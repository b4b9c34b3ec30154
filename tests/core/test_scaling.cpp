// Protects the thread-scaling statistics: speedup, efficiency and Karp-Flatt per row, the
// Amdahl fit (least squares through the origin of 1/S − 1/p on 1 − 1/p, clamped to [0, 1])
// on data computed by hand (exact Amdahl data gives its s back; noisy data the least-squares s
// written out as a fraction), and the sentences that refuse data with no speedup to compute.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/stats/scaling.hpp"

using namespace perflab;
using doctest::Approx;

TEST_CASE("amdahl_speedup is 1 / (s + (1 - s)/p)") {
  CHECK(amdahl_speedup(0.0, 8) == Approx(8));
  CHECK(amdahl_speedup(1.0, 8) == Approx(1));
  CHECK(amdahl_speedup(0.1, 2) == Approx(1.0 / 0.55));
  CHECK(amdahl_speedup(0.25, 1) == Approx(1));
  CHECK_THROWS_WITH_AS(amdahl_speedup(1.5, 2), "serial_fraction must be between 0 and 1, got 1.5",
                       ValueError);
  CHECK_THROWS_WITH_AS(amdahl_speedup(0.1, 0.5),
                       "threads must be a finite number of at least 1, got 0.5", ValueError);
}

TEST_CASE("exact Amdahl data gives its serial fraction back, at every row and in the fit") {
  // s = 0.1, T1 = 100 ms: Tp = 100 (0.1 + 0.9/p), given out of order.
  const auto a = analyze_scaling({{4, 32.5}, {1, 100}, {8, 21.25}, {2, 55}});
  REQUIRE(a.rows.size() == 4);
  CHECK(a.rows[0].threads == 1);
  CHECK(a.rows[0].speedup == Approx(1));
  CHECK(a.rows[0].efficiency == Approx(1));
  CHECK_FALSE(a.rows[0].karp_flatt.has_value());
  CHECK(a.rows[1].threads == 2);
  CHECK(a.rows[1].median_ms == 55);
  CHECK(a.rows[1].speedup == Approx(100.0 / 55));
  CHECK(a.rows[1].efficiency == Approx(100.0 / 110));
  CHECK(a.rows[3].threads == 8);
  CHECK(a.rows[3].speedup == Approx(100.0 / 21.25));
  for (std::size_t i = 1; i < 4; ++i) CHECK(*a.rows[i].karp_flatt == Approx(0.1));
  CHECK(a.fit.serial_fraction == Approx(0.1));
  CHECK(a.fit.max_speedup == Approx(10));
  CHECK(a.fit.rms_error == Approx(0).epsilon(1e-9));
}

TEST_CASE("noisy data: the least-squares serial fraction through the origin") {
  // (1, 100), (2, 60), (4, 35): x = 1/2 and 3/4, y = 0.6 − 0.5 = 1/10 and 0.35 − 0.25 = 1/10.
  // s = Σxy / Σx² = (1/20 + 3/40) / (1/4 + 9/16) = (5/40) / (13/16) = 2/13.
  const auto a = analyze_scaling({{1, 100}, {2, 60}, {4, 35}});
  CHECK(*a.rows[1].karp_flatt == Approx(0.2));       // (1/10) / (1/2)
  CHECK(*a.rows[2].karp_flatt == Approx(2.0 / 15));  // (1/10) / (3/4)
  CHECK(a.fit.serial_fraction == Approx(2.0 / 13));
  CHECK(a.fit.max_speedup == Approx(13.0 / 2));
  // The fit's speedups: 1 / (2/13 + 11/26) = 26/15 at 2, 1 / (2/13 + 11/52) = 52/19 at 4.
  const double r2 = 100.0 / 60 - 26.0 / 15;
  const double r4 = 100.0 / 35 - 52.0 / 19;
  CHECK(a.fit.rms_error == Approx(std::sqrt((r2 * r2 + r4 * r4) / 2)));
}

TEST_CASE("the serial fraction is clamped to [0, 1]; Karp-Flatt per row is not") {
  SUBCASE("superlinear: 2 threads more than twice as fast") {
    const auto a = analyze_scaling({{1, 100}, {2, 45}});
    CHECK(*a.rows[1].karp_flatt == Approx(-0.1));  // (0.45 − 0.5) / 0.5
    CHECK(a.fit.serial_fraction == 0);
    CHECK(std::isinf(a.fit.max_speedup));
    CHECK(a.fit.rms_error == Approx(100.0 / 45 - 2));
    CHECK(to_json(a).at("fit").at("max_speedup").is_null());
  }
  SUBCASE("a slowdown steeper than all-serial work") {
    const auto a = analyze_scaling({{1, 100}, {2, 250}});
    CHECK(*a.rows[1].karp_flatt == Approx(4));  // (2.5 − 0.5) / 0.5
    CHECK(a.fit.serial_fraction == 1);
    CHECK(a.fit.max_speedup == Approx(1));
    CHECK(a.rows[1].efficiency == Approx(0.2));
  }
}

TEST_CASE("scaling JSON: rows with a null Karp-Flatt at 1 thread, read back field by field") {
  const auto a = analyze_scaling({{1, 100}, {2, 60}, {4, 35}});
  const nlohmann::json j = to_json(a);
  CHECK(j.at("rows")[0].at("karp_flatt").is_null());
  CHECK(j.at("rows")[1].at("karp_flatt").get<double>() == Approx(0.2));
  CHECK(j.at("rows")[2].at("threads") == 4);
  CHECK(j.at("fit").at("serial_fraction").get<double>() == Approx(2.0 / 13));
  const ScalingAnalysis back = scaling_analysis_from_json(j);
  CHECK(to_json(back) == j);
  nlohmann::json broken = j;
  broken["fit"].erase("rms_error");
  CHECK_THROWS_WITH_AS(scaling_analysis_from_json(broken), "analysis.fit.rms_error is missing",
                       ValueError);
}

TEST_CASE("analyze_scaling refuses points that have no speedup to compute") {
  CHECK_THROWS_WITH_AS(
      analyze_scaling({{1, 10}}),
      "a scaling analysis needs at least two thread counts, one of them 1, got 1 point",
      ValueError);
  CHECK_THROWS_WITH_AS(analyze_scaling({{2, 10}, {4, 6}}),
                       "the points have no 1-thread time (they have threads 2, 4): every speedup "
                       "is against 1 thread, so measure it too",
                       ValueError);
  CHECK_THROWS_WITH_AS(analyze_scaling({{1, 10}, {2, 6}, {2, 5}}),
                       "points[2].threads is 2, which an earlier point already has: give each "
                       "thread count once (its median)",
                       ValueError);
  CHECK_THROWS_WITH_AS(analyze_scaling({{1, 10}, {2, 0}}),
                       "points[1].median_ms is 0: a median time must be a finite number of ms "
                       "above 0",
                       ValueError);
  CHECK_THROWS_WITH_AS(
      analyze_scaling({{1, std::numeric_limits<double>::quiet_NaN()}, {2, 5}}),
      "points[0].median_ms is nan: a median time must be a finite number of ms above 0",
      ValueError);
  CHECK_THROWS_WITH_AS(analyze_scaling({{0, 10}, {1, 6}}),
                       ("points[0].threads is 0: thread counts must be from 1 to " +
                        std::to_string(kMaxEngineThreads))
                           .c_str(),
                       ValueError);
  const unsigned over = kMaxEngineThreads + 1;
  CHECK_THROWS_WITH_AS(analyze_scaling({{1, 10}, {over, 1}}),
                       ("points[1].threads is " + std::to_string(over) +
                        ": thread counts must be from 1 to " + std::to_string(kMaxEngineThreads))
                           .c_str(),
                       ValueError);
  // The cap is kMaxEngineThreads: the largest count is allowed.
  CHECK(analyze_scaling({{1, 10}, {kMaxEngineThreads, 1}}).rows.size() == 2);
}
