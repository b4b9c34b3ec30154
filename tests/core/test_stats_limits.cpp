// Protects the bounds on the statistics' work: a sample over kMaxSampleValues, a bench run
// over kMaxBenchRows or kMaxSampleValues samples, A/B rounds that cannot fit kMaxAbTotalMs and
// A/B sizes over kMaxAbMatmulN, kMaxAbGeluN and kMaxAbModelBatch, and coverage runs over
// kMaxCoverageWork (each resample counted with its own cost) are refused before any work,
// each with a sentence naming the limit and what is allowed; a bootstrap that would draw more
// than kMaxBootstrapDraws values uses fewer resamples (never fewer than 1,000 at the largest
// samples allowed) and says so beside the count it used; an A/B whose rounds turn out slower
// than the limit allows stops there with the rounds done and a warning. A/B time is a
// FakeClock's; no real time is measured or asserted.
#include <doctest/doctest.h>

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/coverage.hpp"
#include "perflab/stats/lab_kernels.hpp"
#include "perflab/stats/regression.hpp"
#include "perflab/stats/summary.hpp"
#include "perflab/timing/clock.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr double kReadCostMs = 1.0 / (1 << 20);  // dyadic, as in test_timer.cpp

// n distinct positive values 1.000, 1.001, ... (no ties; a valid sample of any size).
std::vector<double> ramp(std::size_t n, double scale = 1.0) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * (1.0 + 0.001 * static_cast<double>(i % 997));
  return v;
}

json bench_row(int i, const std::vector<double>& samples) {
  return {{"op", "matmul"}, {"variant", "packed"}, {"n", i}, {"samples_ms", samples}};
}

}  // namespace

TEST_CASE("a sample over kMaxSampleValues is refused by every statistic, naming the limit") {
  const std::string too_many =
      " has 100001 values; at most 100000 are allowed in one sample: summarize a part of it, or "
      "split the run";
  CHECK(kMaxSampleValues == 100000);
  CHECK_THROWS_WITH_AS(check_sample_size(100001, "values"), ("values" + too_many).c_str(),
                       ValueError);
  CHECK_NOTHROW(check_sample_size(100000, "values"));
  const std::vector<double> over = ramp(kMaxSampleValues + 1);
  CHECK_THROWS_WITH_AS(summarize(over, "values"), ("values" + too_many).c_str(), ValueError);
  CHECK_THROWS_WITH_AS(compare_samples({1.0, 2.0}, over, {}, "a", "b"), ("b" + too_many).c_str(),
                       ValueError);
  const std::vector<double> a = ramp(kMaxSampleValues + 1);
  CHECK_THROWS_WITH_AS(analyze_ab(a, a, std::vector<bool>(a.size(), true)),
                       ("a_ms" + too_many).c_str(), ValueError);
}

TEST_CASE("the bootstrap's gentle cost: the request, cut to kMaxBootstrapDraws per resample") {
  CHECK(kMaxBootstrapDraws == 2e8);
  // Up to 20,000 values a resample the default 10,000 resamples fit; past that the count
  // falls as 1/n, so the work stays at the budget instead of growing with n.
  CHECK(bootstrap_resamples_within_budget(10000, 100) == 10000);
  CHECK(bootstrap_resamples_within_budget(10000, 20000) == 10000);
  CHECK(bootstrap_resamples_within_budget(10000, 20001) == 9999);
  CHECK(bootstrap_resamples_within_budget(10000, 100000) == 2000);
  // The most a comparison draws a resample (two samples at the limit): still 1,000 resamples.
  CHECK(bootstrap_resamples_within_budget(10000, 2.0 * kMaxSampleValues) == 1000);
  // A cut never raises a request, and a small sample keeps even the largest one.
  CHECK(bootstrap_resamples_within_budget(200, 2.0 * kMaxSampleValues) == 200);
  CHECK(bootstrap_resamples_within_budget(1000000, 200) == 1000000);
  CHECK(bootstrap_cut_note(10000, 10000, 100) == "");
  CHECK(bootstrap_cut_note(10000, 2000, 100000) ==
        "the bootstrap used 2000 resamples, not the 10000 asked for: one bootstrap draws at most "
        "200000000 values, and each resample here draws 100000");
  // Called on its own, the bootstrap refuses what summarize would have cut, naming the count
  // that fits.
  CHECK_THROWS_WITH_AS(bootstrap_median_interval(ramp(20001), 10000, 1),
                       "a bootstrap of 10000 resamples of 20001 values draws 200010000 values; "
                       "at most 200000000 are allowed: use at most 9999 resamples",
                       ValueError);

  SUBCASE("summarize reports the resamples it used and says why") {
    const Summary s = summarize(ramp(kMaxSampleValues), "values");
    CHECK(s.bootstrap_resamples_requested == 10000);
    CHECK(s.bootstrap_resamples == 2000);
    CHECK(s.warning == bootstrap_cut_note(10000, 2000, 100000));
    CHECK(s.bootstrap_median_interval.contains(s.median));
    const Summary small = summarize(ramp(100), "values");
    CHECK(small.bootstrap_resamples == 10000);
    CHECK(small.warning.empty());
  }
  SUBCASE("compare_samples counts both samples' values a resample") {
    const Comparison c =
        compare_samples(ramp(kMaxSampleValues), ramp(kMaxSampleValues, 1.5), {}, "a", "b");
    CHECK(c.bootstrap_resamples_requested == 10000);
    CHECK(c.bootstrap_resamples == 1000);
    CHECK(c.warning == bootstrap_cut_note(10000, 1000, 200000));
    CHECK(c.verdict == Verdict::slower);
  }
}

TEST_CASE("a bench run over kMaxBenchRows or kMaxSampleValues samples is refused before reading") {
  CHECK(kMaxBenchRows == 64);
  json rows = json::array();
  for (int i = 0; i < 65; ++i) rows.push_back(bench_row(i, {1.0}));
  CHECK_THROWS_WITH_AS(bench_run_from_json(rows, "base.json"),
                       "base.json: rows has 65 benchmarks; at most 64 are allowed in one run: "
                       "compare the runs in parts",
                       ValueError);
  const json heavy = json::array({bench_row(1, ramp(50000)), bench_row(2, ramp(50001))});
  CHECK_THROWS_WITH_AS(bench_run_from_json(heavy, "new.json"),
                       "new.json: the rows hold 100001 samples in all; at most 100000 are allowed "
                       "in one run: keep fewer samples per benchmark, or compare the runs in parts",
                       ValueError);
  // A run built in code is held to the same limits by compare_runs.
  BenchRun big;
  big.name = "this run";
  for (int i = 0; i < 65; ++i) big.rows.push_back({"k" + std::to_string(i), {1.0}});
  CHECK_THROWS_WITH_AS(compare_runs(big, big),
                       "this run: holds 65 benchmarks and 65 samples; at most 64 benchmarks "
                       "and 100000 samples in all are allowed in one run",
                       ValueError);

  SUBCASE("one bootstrap budget for the whole run, its count and its note in the report") {
    const BenchRun base = bench_run_from_json(
        json::array({bench_row(1, ramp(20000)), bench_row(2, ramp(20000))}), "base.json");
    const BenchRun next = bench_run_from_json(
        json::array({bench_row(1, ramp(20000, 2.0)), bench_row(2, ramp(20000))}), "new.json");
    const json report = compare_runs(base, next);
    CHECK(report["bootstrap_resamples_requested"] == 10000);
    CHECK(report["bootstrap_resamples"] == 2500);  // 2e8 / 80,000 values a resample
    CHECK(report["note"] == bootstrap_cut_note(10000, 2500, 80000));
    CHECK(report["rows"][0]["verdict"] == "slower");
    const json small = compare_runs(bench_run_from_json(json::array({bench_row(1, ramp(30))}), "a"),
                                    bench_run_from_json(json::array({bench_row(1, ramp(30))}), "b"));
    CHECK(small["bootstrap_resamples"] == 10000);
    CHECK(small["note"] == "");
  }
}

TEST_CASE("an A/B is bounded by kMaxAbTotalMs and its sizes, before any call where it can be") {
  CHECK(kMaxAbTotalMs == 6000);
  int calls = 0;
  const auto count = [&] { ++calls; };

  SUBCASE("rounds whose samples cannot fit are refused, naming the most that fit") {
    AbOptions o;
    o.rounds = 3001;  // × 2 samples × 1 ms = 6002 ms
    CHECK_THROWS_WITH_AS(o.validate(),
                         "3001 rounds of an A and a B sample of at least 1 ms each (min_sample_ms) "
                         "take at least 6002 ms; one A/B may take at most 6000 ms: use at most "
                         "3000 rounds, or a shorter min_sample_ms",
                         ValueError);
    o.rounds = 3000;
    CHECK_NOTHROW(o.validate());
    o.rounds = 2;
    o.min_sample_ms = 2000;
    CHECK_THROWS_WITH_AS(o.validate(),
                         "2 rounds of an A and a B sample of at least 2000 ms each "
                         "(min_sample_ms) take at least 8000 ms; one A/B may take at most 6000 "
                         "ms: use a shorter min_sample_ms",
                         ValueError);
  }
  SUBCASE("a coarse clock's 100 ticks a sample count too, checked before A or B is called") {
    FakeClock coarse(1.0, kReadCostMs);  // 1 ms ticks: samples of at least 100 ms
    AbOptions o;
    o.rounds = 31;
    CHECK_THROWS_WITH_AS(run_ab(count, count, o, coarse),
                         "31 rounds of an A and a B sample of at least 100 ms each (100 ticks of "
                         "a 1 ms clock) take at least 6200 ms; one A/B may take at most 6000 ms: "
                         "use at most 30 rounds, or a finer clock",
                         ValueError);
    CHECK(calls == 0);
  }
  SUBCASE("sizes over the A/B's limits are refused before any input is built") {
    AbOptions o;
    CHECK(kMaxAbMatmulN == 512);
    CHECK_THROWS_WITH_AS(run_kernel_ab("matmul", "naive", "packed", 513, o),
                         "n must be between 1 and 512 for an A/B of matmul, got 513: one round "
                         "calls both arms, and an A/B runs many rounds in at most 6000 ms",
                         ValueError);
    CHECK_THROWS_WITH_AS(run_kernel_ab("gelu", "fused", "unfused", kMaxAbGeluN + 1, o),
                         "n must be between 1 and 4194304 for an A/B of gelu, got 4194305: one "
                         "round calls both arms, and an A/B runs many rounds in at most 6000 ms",
                         ValueError);
    CHECK_THROWS_WITH_AS(run_kernel_ab("model", "linear_128_64", "mlp_784", 17, o),
                         "n must be between 1 and 16 for an A/B of a zoo model's batch, got 17: "
                         "one round calls both arms, and an A/B runs many rounds in at most 6000 "
                         "ms",
                         ValueError);
  }
  SUBCASE("rounds that would pass the limit: only those that fit, and a warning") {
    FakeClock clock(0.0, kReadCostMs);
    AbOptions o;
    o.rounds = 40;
    o.warmup = 0;
    o.min_sample_ms = 0;
    o.max_inner_iterations = 1;
    o.compare.bootstrap_resamples = 100;
    const AbResult r = run_ab([&] { clock.advance(100); }, [&] { clock.advance(70); }, o, clock);
    // 170 ms of calibration, then rounds of 170 ms until a 35th would end past 6,000 ms.
    CHECK(r.a_ms.size() == 34);
    CHECK(r.b_ms.size() == 34);
    CHECK(r.a_first.size() == 34);
    CHECK(clock.raw_ms() <= kMaxAbTotalMs);
    CHECK(r.comparison.warning.find(
              "the A/B ran 34 of its 40 rounds, the most that fit its limit of 6000 ms (a round "
              "of A and B took about 170 ms): a smaller size runs them all") != std::string::npos);
  }
  SUBCASE("short calls batched into long samples: the advice is fewer rounds, not a smaller size") {
    FakeClock clock(0.0, kReadCostMs);
    AbOptions o;
    o.rounds = 3000;  // 3,000 × 2 × 1 ms: accepted up front, but the batches overshoot 1 ms
    o.warmup = 0;
    o.compare.bootstrap_resamples = 100;
    const AbResult r = run_ab([&] { clock.advance(0.3); }, [&] { clock.advance(0.3); }, o, clock);
    CHECK(r.a_ms.size() < 3000);
    CHECK(r.comparison.warning.find("fewer rounds, or a shorter min_sample_ms, run them all") !=
          std::string::npos);
  }
  SUBCASE("rounds that slow down after calibration stop at the limit, in both modes") {
    for (const AbMode mode : {AbMode::interleaved, AbMode::sequential}) {
      CAPTURE(ab_mode_name(mode));
      FakeClock clock(0.0, kReadCostMs);
      int a_calls = 0;
      AbOptions o;
      o.mode = mode;
      o.rounds = 30;
      o.warmup = 0;
      o.min_sample_ms = 0;
      o.max_inner_iterations = 1;
      o.compare.bootstrap_resamples = 100;
      // 10 ms at calibration, then 500 ms a call: 30 rounds would take 15 s.
      const AbResult r = run_ab([&] { clock.advance(++a_calls == 1 ? 10 : 500); },
                                [&] { clock.advance(10); }, o, clock);
      CHECK(r.a_ms.size() == r.b_ms.size());
      CHECK(r.a_ms.size() < 30);
      CHECK(clock.raw_ms() < kMaxAbTotalMs + 1000);  // at most one round's growth past it
      CHECK(r.comparison.warning.find("the A/B ran " + std::to_string(r.a_ms.size()) +
                                      " of its 30 rounds, the most that fit its limit of 6000 "
                                      "ms") != std::string::npos);
    }
  }
}

TEST_CASE("a coverage run counts each resample's own cost, so many tiny samples cannot pass the limit") {
  // 100,000 trials of n = 2 with 1,000 resamples drew only 2e8 values, yet took 12 s in wasm:
  // each resample costs about 16 draws more than its n.
  CHECK(kCoverageResampleOverhead == 16);
  CoverageOptions o;
  o.trials = 100000;
  o.bootstrap_resamples = 1000;
  CHECK_THROWS_WITH_AS(interval_coverage(ramp(20), {2}, o),
                       "this coverage run would draw 1800000000 values (trials × "
                       "bootstrap_resamples × the sum of the sizes, each size counted as 16 more "
                       "for its resample's own cost); the limit is 200000000: use fewer trials, "
                       "fewer resamples or smaller sizes",
                       ValueError);
  o.trials = 11111;  // 11,111 × 1,000 × (2 + 16) = 199,998,000: the most that fits
  o.bootstrap_resamples = 1000;
  CHECK(11111.0 * 1000 * 18 <= kMaxCoverageWork);
  o.trials = 10;  // the check, not the run, is under test here
  CHECK(interval_coverage(ramp(20), {2}, o).rows.size() == 1);
}

TEST_CASE("one sampling call is bounded before any input is built: its budget, its size, its batch") {
  TimerOptions o;
  KernelSampling timer_rule;
  SUBCASE("a budget over kMaxSampleKernelTotalMs is refused, naming the ceiling and the way round") {
    o.max_total_ms = 30000;
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("gelu", 1024, o, timer_rule),
                         "max_total_ms must be at most 5000 ms for one sampling call, got 30000; "
                         "take more samples over several calls",
                         ValueError);
    o.max_total_ms = kMaxSampleKernelTotalMs;
    CHECK_NOTHROW(check_sample_kernel_limits("gelu", 1024, o, timer_rule));
  }
  SUBCASE("sizes over each op's limit are refused; the limit itself is accepted") {
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("matmul", 1024, o, timer_rule),
                         "n must be at most 512 for matmul in one sampling call (one call of the "
                         "slowest variant stays well under a second), got 1024",
                         ValueError);
    CHECK_NOTHROW(check_sample_kernel_limits("matmul", kMaxSampleMatmulN, o, timer_rule));
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("gelu", kMaxSampleGeluN + 1, o, timer_rule),
                         doctest::Contains("n must be at most 4194304 for gelu"), ValueError);
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("model", 17, o, timer_rule),
                         doctest::Contains("n must be at most 16 for a zoo model's batch"),
                         ValueError);
  }
  SUBCASE("a fixed batch does at most one largest call's work") {
    KernelSampling fixed;
    fixed.inner_iterations = 9;  // 9 × 256³ > 512³ = 8 × 256³
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("matmul", 256, o, fixed),
                         "inner_iterations 9 at n=256 is more work per sample than one call at "
                         "the largest n (512 for matmul); at n=256 at most 8 calls per sample",
                         ValueError);
    fixed.inner_iterations = 8;
    CHECK_NOTHROW(check_sample_kernel_limits("matmul", 256, o, fixed));
    fixed.inner_iterations = 1024;
    CHECK_NOTHROW(check_sample_kernel_limits("gelu", 4096, o, fixed));
    CHECK_THROWS_WITH_AS(check_sample_kernel_limits("gelu", 8192, o, fixed),
                         doctest::Contains("at n=8192 at most 512 calls per sample"), ValueError);
  }
  SUBCASE("sample_kernel itself refuses what the check refuses") {
    FakeClock clock(0.0, 0.001);
    o.max_total_ms = 5001;
    CHECK_THROWS_WITH_AS(sample_kernel(lab_kernel("gelu", "fused", 8), o, clock),
                         doctest::Contains("max_total_ms must be at most 5000 ms"), ValueError);
  }
}
