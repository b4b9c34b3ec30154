// Protects the timing numbers the page shows: statistics on data computed by hand
// (10, 20, 30, 40 ms), Tukey outlier removal, the order-statistics CI of the median, and a
// Timer driven by a FakeClock whose timed function advances it by a known amount per call,
// so per-call times, batching, warmup, budget and cancel are exact; the same for
// run_interleaved, which must time its functions in alternating rounds of one run. Nothing
// here asserts real speed.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "perflab/kernels/matmul.hpp"
#include "perflab/timing/clock.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/timing/interleaved.hpp"
#include "perflab/timing/timer.hpp"

using namespace perflab;

namespace {
// A clock read costs 2^-20 ms: dyadic, so sums stay exact in double and identical samples
// really are identical.
constexpr double kReadCostMs = 1.0 / (1 << 20);
}  // namespace

TEST_CASE("statistics of 10, 20, 30, 40 ms match the hand computation") {
  const Stats s = compute_stats({40, 10, 30, 20});
  CHECK(s.samples == 4);
  CHECK(s.outliers == 0);
  CHECK(s.mean_ms == doctest::Approx(25));
  CHECK(s.median_ms == doctest::Approx(25));
  CHECK(s.stddev_ms == doctest::Approx(std::sqrt(500.0 / 3.0)));  // 12.9099...
  CHECK(s.stddev_ms == doctest::Approx(12.9099).epsilon(1e-5));
  CHECK(s.min_ms == 10);
  CHECK(s.max_ms == 40);
  CHECK(s.p95_ms == doctest::Approx(38.5));  // rank 0.95·3 = 2.85: 30 + 0.85·10
  CHECK(s.p99_ms == doctest::Approx(39.7));  // rank 2.97
  // n = 4: ranks round(2 − 1.96) = 0 → 1 and round(1 + 2 + 1.96) = 5 → 4.
  CHECK(s.ci95_low_ms == 10);
  CHECK(s.ci95_high_ms == 40);
  CHECK(s.cv == doctest::Approx(std::sqrt(500.0 / 3.0) / 25));
}

TEST_CASE("percentiles interpolate linearly between closest ranks, as numpy does") {
  const std::vector<double> sorted{1, 2, 3, 4, 5};
  CHECK(percentile_sorted(sorted, 0) == 1);
  CHECK(percentile_sorted(sorted, 100) == 5);
  CHECK(percentile_sorted(sorted, 50) == 3);
  CHECK(percentile_sorted(sorted, 10) == doctest::Approx(1.4));  // numpy.percentile: 1.4
  CHECK(percentile_sorted(sorted, 62.5) == doctest::Approx(3.5));
  CHECK(percentile_sorted({7}, 99) == 7);
  CHECK_THROWS_WITH_AS(percentile_sorted({}, 50), "a percentile needs at least one value, got none",
                       ValueError);
  CHECK_THROWS_WITH_AS(percentile_sorted(sorted, 101),
                       "percentile must be between 0 and 100, got 101", ValueError);
  CHECK_THROWS_WITH_AS(percentile_sorted(sorted, -0.5),
                       "percentile must be between 0 and 100, got -0.5", ValueError);
}

TEST_CASE("median sorts its input and averages the middle pair for even counts") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == doctest::Approx(2.5));
  CHECK_THROWS_AS(median({}), ValueError);
}

TEST_CASE("Tukey fences drop one obvious outlier and keep the rest") {
  // Q1 = 12.25, Q3 = 16.75, IQR = 4.5: fences 5.5 and 23.5, so only 100 is outside.
  const std::vector<double> data{10, 11, 12, 13, 100, 14, 15, 16, 17, 18};
  const Stats s = compute_stats(data, true);
  CHECK(s.samples == 9);
  CHECK(s.outliers == 1);
  CHECK(s.max_ms == 18);
  CHECK(s.mean_ms == doctest::Approx(14));
  CHECK(s.median_ms == doctest::Approx(14));
  CHECK(s.stddev_ms == doctest::Approx(std::sqrt(60.0 / 8.0)));

  const Stats all = compute_stats(data, false);
  CHECK(all.samples == 10);
  CHECK(all.outliers == 0);
  CHECK(all.max_ms == 100);
  CHECK(all.mean_ms == doctest::Approx(22.6));
}

TEST_CASE("Tukey fences drop nothing from evenly spread data or from two values") {
  CHECK(compute_stats({1, 2, 3, 4, 5, 6, 7, 8}).outliers == 0);
  CHECK(compute_stats({1, 1000}).outliers == 0);
  CHECK(compute_stats({5, 5, 5, 5}).outliers == 0);
}

TEST_CASE("the median's confidence interval uses the order-statistic ranks") {
  SUBCASE("n = 100 gives ranks 40 and 61, as in the published tables") {
    std::vector<double> data;
    for (int i = 1; i <= 100; ++i) data.push_back(i);
    const Stats s = compute_stats(data, false);
    CHECK(s.ci95_low_ms == 40);
    CHECK(s.ci95_high_ms == 61);
  }
  SUBCASE("n = 9 gives ranks round(4.5 − 2.94) = 2 and round(1 + 4.5 + 2.94) = 8") {
    const Stats s = compute_stats({10, 11, 12, 13, 14, 15, 16, 17, 18}, false);
    CHECK(s.ci95_low_ms == 11);
    CHECK(s.ci95_high_ms == 17);
  }
  SUBCASE("n = 1 collapses to the value") {
    const Stats s = compute_stats({3.5});
    CHECK(s.ci95_low_ms == 3.5);
    CHECK(s.ci95_high_ms == 3.5);
  }
}

TEST_CASE("cv is 0 for a single sample and for a zero mean") {
  const Stats one = compute_stats({4.0});
  CHECK(one.samples == 1);
  CHECK(one.stddev_ms == 0);
  CHECK(one.cv == 0);
  const Stats zeros = compute_stats({0, 0, 0});
  CHECK(zeros.mean_ms == 0);
  CHECK(zeros.cv == 0);
  const Stats symmetric = compute_stats({-1, 1}, false);
  CHECK(symmetric.mean_ms == 0);
  CHECK(symmetric.stddev_ms > 0);
  CHECK(symmetric.cv == 0);
}

TEST_CASE("statistics refuse empty and non-finite data") {
  CHECK_THROWS_WITH_AS(compute_stats({}), "statistics need at least one sample, got none",
                       ValueError);
  CHECK_THROWS_WITH_AS(compute_stats({1, std::nan(""), 3}),
                       "sample 1 is NaN; timings must be finite numbers", ValueError);
  CHECK_THROWS_WITH_AS(compute_stats({std::numeric_limits<double>::infinity()}),
                       "sample 0 is Infinity; timings must be finite numbers", ValueError);
}

TEST_CASE("the fake clock rounds down to its resolution and charges each read") {
  FakeClock clock(0.5, 0.25);
  CHECK(clock.now_ms() == 0.0);   // then 0.25
  CHECK(clock.now_ms() == 0.0);   // then 0.5
  CHECK(clock.now_ms() == 0.5);   // then 0.75
  clock.advance(1.0);             // 1.75
  CHECK(clock.now_ms() == 1.5);
  CHECK(clock.raw_ms() == 2.0);
  CHECK(clock.reads() == 4);
}

TEST_CASE("the default clock is a steady clock unless another is installed") {
  CHECK(std::string(default_clock().name()) == "steady_clock");
  FakeClock fake;
  set_default_clock(&fake);
  CHECK(&default_clock() == &fake);
  set_default_clock(nullptr);  // restores the steady clock
  CHECK(std::string(default_clock().name()) == "steady_clock");
}

TEST_CASE("measured resolution is the clock's tick") {
  FakeClock coarse(0.1, 0.001);  // a browser-like 100 µs timer
  CHECK(measure_resolution_ms(coarse) == doctest::Approx(0.1));
  FakeClock fine(0.0, 0.25);  // every read differs by the read cost
  CHECK(measure_resolution_ms(fine) == 0.25);
}

TEST_CASE("a clock that never advances is an error, not a hang") {
  FakeClock stuck(0.0, 0.0);
  CHECK_THROWS_WITH_AS(measure_resolution_ms(stuck),
                       "the clock 'fake' did not advance in 100000000 reads, so it cannot time "
                       "anything",
                       Error);
}

TEST_CASE("the timer recovers the per-call time from batches") {
  FakeClock clock(0.0, kReadCostMs);
  int calls = 0;
  const Stats s = Timer(clock).run([&] {
    ++calls;
    clock.advance(0.5);
  });
  // Batches are (inner · 0.5 + one read cost) / inner: 0.5 up to the read cost.
  CHECK(s.median_ms == doctest::Approx(0.5).epsilon(1e-5));
  CHECK(s.min_ms == s.max_ms);
  CHECK(s.samples == 30);
  CHECK(s.outliers == 0);
  CHECK(s.stddev_ms < 1e-12);  // the mean of equal values may be off by an ulp
  CHECK(s.resolution_ms == kReadCostMs);
  // target = max(100 · 2^-20, 1 ms) = 1 ms; inner 1 lasts 0.5 ms (over a tenth of the
  // target), so it grows by 1 · 1.4 / 0.5 = 2.8 → 3, and 3 · 0.5 ms ≥ 1 ms.
  CHECK(s.inner_iterations == 3);
  CHECK(calls == 3 /*warmup*/ + 1 + 3 /*calibration*/ + 30 * 3);
  CHECK(s.warning.empty());
  // The raw samples are kept, one per sample, each (3 · 0.5 + one read) / 3.
  REQUIRE(s.per_call_ms.size() == 30);
  for (double v : s.per_call_ms) CHECK(v == (1.5 + kReadCostMs) / 3);
}

TEST_CASE("inner iterations make a sample last at least min_sample_ms") {
  FakeClock clock(0.0, kReadCostMs);
  const Stats s = Timer(clock).min_sample_ms(20).run([&] { clock.advance(0.5); });
  CHECK(s.inner_iterations * 0.5 >= 20);
  // google/benchmark's rule: 1 call (0.5 ms, under a tenth of 20) → ×10; 10 calls (5 ms)
  // → ×20·1.4/5 = 5.6 → 56 calls = 28 ms.
  CHECK(s.inner_iterations == 56);
  CHECK(s.median_ms == doctest::Approx(0.5).epsilon(1e-5));
}

TEST_CASE("inner iterations make a sample last at least 100 clock ticks") {
  FakeClock clock(0.1, 0.001);  // coarse: target 100 · 0.1 = 10 ms beats min_sample_ms 1
  const Stats s = Timer(clock).run([&] { clock.advance(0.25); });
  CHECK(s.resolution_ms == doctest::Approx(0.1));
  CAPTURE(s.inner_iterations);
  // The measured batch is ≥ 10 ms on a clock that reads up to one tick short.
  CHECK(s.inner_iterations * 0.25 >= 10 - 0.1);
  // Growth aims at 1.4 × target from the last short batch, so it does not overshoot much.
  CHECK(s.inner_iterations * 0.25 <= 1.5 * 10);
  // Quantisation error is at most one tick per batch.
  CHECK(s.median_ms == doctest::Approx(0.25).epsilon(0.1 / 10));
}

TEST_CASE("warmup calls are made before timing and never timed") {
  FakeClock clock(0.0, kReadCostMs);
  int calls = 0;
  std::vector<long> reads_at_call;
  TimerOptions o;
  o.warmup = 5;
  o.max_total_ms = 1e6;
  const Stats s = Timer(clock).options(o).run([&] {
    ++calls;
    reads_at_call.push_back(clock.reads());
    clock.advance(calls <= 5 ? 1000.0 : 0.5);  // slow warmup, like a JIT compiling
  });
  // Timed samples never include a 1000 ms call.
  CHECK(s.max_ms == doctest::Approx(0.5).epsilon(1e-5));
  CHECK(calls == 5 + 1 + 3 + 30 * 3);
  // Between warmup calls one clock read, the budget's; the first timed call follows only
  // its batch's start read.
  REQUIRE(reads_at_call.size() > 6);
  for (int i = 1; i < 5; ++i) CHECK(reads_at_call[i] == reads_at_call[0] + i);
  CHECK(reads_at_call[5] == reads_at_call[4] + 1);
}

TEST_CASE("progress is reported after each sample and can cancel the run") {
  FakeClock clock(0.0, kReadCostMs);
  SUBCASE("fractions rise to 1") {
    std::vector<double> fractions;
    Timer(clock).samples(10).on_progress([&](double f) {
      fractions.push_back(f);
      return true;
    }).run([&] { clock.advance(0.5); });
    REQUIRE(fractions.size() == 10);
    CHECK(fractions.front() == doctest::Approx(0.1));
    CHECK(fractions.back() == 1.0);
    for (std::size_t i = 1; i < fractions.size(); ++i) CHECK(fractions[i] > fractions[i - 1]);
  }
  SUBCASE("returning false throws CancelledError naming how far it got") {
    int reports = 0;
    Timer timer(clock);
    timer.on_progress([&](double) { return ++reports < 12; });
    CHECK_THROWS_WITH_AS(timer.run([&] { clock.advance(0.5); }),
                         "cancelled after 12 of 30 samples", CancelledError);
    CHECK(reports == 12);
  }
}

TEST_CASE("the time budget stops sampling early and the warning says what to raise") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.min_sample_ms = 10;
  o.max_total_ms = 100;
  o.controls.budget = "--max-total-ms";
  // Calibration takes 1 + 10 calls of 1 ms; samples of 10 calls then end at 21, 31, ...,
  // 101 ms: the ninth sample spends the budget.
  const Stats s = Timer(clock).options(o).run([&] { clock.advance(1.0); });
  CHECK(s.inner_iterations == 10);
  CHECK(s.samples + s.outliers == 9);
  CHECK(s.per_call_ms.size() == 9);  // outliers included
  // Nine equal samples pin the median down: only the budget is worth a warning.
  CHECK(s.warning ==
        "the 100 ms budget stopped sampling after 9 of 30 samples: give it a longer budget "
        "with --max-total-ms");
  SUBCASE("where the reader has no budget control, the warning names none") {
    o.controls = {};
    FakeClock fresh(0.0, kReadCostMs);
    const Stats none = Timer(fresh).options(o).run([&] { fresh.advance(1.0); });
    CHECK(none.warning == "the 100 ms budget stopped sampling after 9 of 30 samples");
  }
}

TEST_CASE("a call longer than the whole budget is timed once, and the warning says so") {
  // 1 s per call, a 5 ms budget: the first warmup call spends it, then one timed call. The
  // old rule (all warmup, a calibration batch, two samples) took 6 calls, 1,200 times the
  // budget.
  FakeClock clock(0.0, kReadCostMs);
  int calls = 0;
  TimerOptions o;
  o.max_total_ms = 5;
  o.controls.budget = "options.max_total_ms in the suite file";
  const Stats s = Timer(clock).options(o).run([&] {
    ++calls;
    clock.advance(1000.0);
  });
  CHECK(calls == 2);
  CHECK(s.samples == 1);
  CHECK(s.per_call_ms.size() == 1);
  CHECK(s.median_ms == doctest::Approx(1000.0));
  CHECK(s.warning ==
        "one call takes 1000 ms, so the 5 ms budget was spent after 1 of 3 warmup calls and 1 "
        "of 30 samples; all of them need about 34001 ms: give it that budget with "
        "options.max_total_ms in the suite file, or measure a smaller size");
}

TEST_CASE("the one sample of an overlong call is reported as progress and can cancel") {
  FakeClock clock(0.0, kReadCostMs);
  std::vector<double> fractions;
  Timer timer(clock);
  timer.max_total_ms(5).on_progress([&](double f) {
    fractions.push_back(f);
    return false;
  });
  CHECK_THROWS_WITH_AS(timer.run([&] { clock.advance(1000.0); }), "cancelled after 1 of 30 samples",
                       CancelledError);
  CHECK(fractions == std::vector<double>{1.0});
}

TEST_CASE("without warmup, a calibration batch that spends the budget is the one sample") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.min_sample_ms = 50;
  o.max_total_ms = 30;
  int calls = 0;
  // 4 ms per call: calibration batches of 1 and 10 calls (4 ms, 40 ms); the second spends the
  // 30 ms budget, so it is the sample (4 ms per call) and no larger batch follows.
  const Stats s = Timer(clock).options(o).run([&] {
    ++calls;
    clock.advance(4.0);
  });
  CHECK(calls == 11);
  CHECK(s.samples == 1);
  CHECK(s.inner_iterations == 10);
  CHECK(s.median_ms == doctest::Approx(4.0).epsilon(1e-6));
  CHECK(s.warning.rfind("one call takes 4 ms, so the 30 ms budget was spent after 0 of 0 warmup "
                        "calls and 1 of 30 samples",
                        0) == 0);
}

TEST_CASE("a pause that spends the budget before sampling still leaves a sample spanning the clock's ticks") {
  // The page's quick cache-sweep plan on a browser's 5 us clock: a 4 us call whose first
  // (warmup) call stalls 100 ms, more than the 80 ms budget. One call is under one tick, so
  // a one-call sample reads 0 or 5 us; the sample must span 100 ticks (0.5 ms), as any does.
  FakeClock clock(0.005, kReadCostMs);
  TimerOptions o;
  o.warmup = 1;
  o.samples = 3;
  o.min_sample_ms = 2;
  o.max_total_ms = 80;
  bool paused = false;
  const Stats s = Timer(clock).options(o).run([&] {
    clock.advance(paused ? 0.004 : 100.0);
    paused = true;
  });
  REQUIRE(s.per_call_ms.size() == 1);
  CHECK(s.inner_iterations > 1);
  CHECK(s.inner_iterations * s.min_ms >= 100 * s.resolution_ms);
  CHECK(std::abs(s.min_ms / 0.004 - 1) < 0.02);
  // The calls fit the budget, so the warning blames the pause, not the call.
  CHECK(s.warning ==
        "the 80 ms budget ran out before sampling began, though one call takes " +
            format_number(s.min_ms) +
            " ms and all 3 samples need about 7 ms: the machine paused or was busy, so this is "
            "1 sample of 3; close other tabs and run again");
}

// The page's plans ask for 10 samples; Tukey's fences then often drop one or two. On a steady
// machine that is no reason to warn, with the page's plan or with core's defaults.
TEST_CASE("a steady measurement with a few outliers gives no warning, on the page's plan or the defaults") {
  // 1 ms per call, except one call in samples 3 and 7, 30 ms: two outlying samples. `before`
  // is the calls ahead of the first sample (warmup, then calibration up to the target),
  // `inner` the calls per sample.
  struct Plan {
    const char* name;
    TimerOptions options;
    int before, inner;
  };
  TimerOptions page;  // the Profiling chapter's experiments (chapters/profiling/common.js)
  page.warmup = 1;
  page.samples = 10;
  page.min_sample_ms = 5;
  page.max_total_ms = 800;
  const Plan plans[] = {
      // target 1 ms: calibration 1 call; 3 warmup calls
      {"core's defaults", TimerOptions{}, 3 + 1, 1},
      // target 5 ms: 1 call (1 ms), then ×5·1.4 = 7 calls
      {"the page's plan", page, 1 + 1 + 7, 7},
      // target 2 ms: 1 call, then ×2·1.4 = 2.8 → 3 calls
      {"the profile's defaults (the model builder, perflab profile)",
       default_profile_timer_options(), 1 + 1 + 3, 3},
  };
  for (const Plan& plan : plans) {
    CAPTURE(plan.name);
    FakeClock clock(0.0, kReadCostMs);
    int call = 0;
    const Stats s = Timer(clock).options(plan.options).run([&] {
      ++call;
      const bool slow =
          call == plan.before + 3 * plan.inner + 1 || call == plan.before + 7 * plan.inner + 1;
      clock.advance(slow ? 30.0 : 1.0);
    });
    REQUIRE(s.inner_iterations == plan.inner);
    CHECK(s.outliers == 2);
    CHECK(s.samples == static_cast<std::size_t>(plan.options.samples - 2));
    CHECK(s.median_ms == doctest::Approx(1.0).epsilon(1e-4));
    CHECK(s.warning == "");
  }
}

TEST_CASE("few samples warn when they leave the median's interval wide, and name the remedy") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.samples = 6;
  o.min_sample_ms = 0;
  o.resolution_multiple = 1;  // one call per sample
  o.controls.samples = "Measure longer";  // the page's control
  int calls = 0;
  // 1.0, 1.2, 1.4, 1.0, 1.2, 1.4 ms: six samples, no outliers; the interval of the median is
  // the whole range [1.0, 1.4] around a median of 1.2, 33% of it.
  const Stats s = Timer(clock).options(o).run([&] { clock.advance(1.0 + 0.2 * (calls++ % 3)); });
  REQUIRE(s.samples == 6);
  CHECK(s.warning.find("only 6 samples kept: the median's 95% interval spans 33% of it; take "
                       "more samples with Measure longer") != std::string::npos);
  // Their CV (sample std 0.179 over a mean of 1.2: 15%) follows without counting them again.
  CHECK(s.warning ==
        "only 6 samples kept: the median's 95% interval spans 33% of it; take more samples with "
        "Measure longer; CV 15% over those 6: the machine was busy; close other tabs and run "
        "again");
  SUBCASE("under three samples there is no interval") {
    o.samples = 2;
    o.controls.samples = "--samples";  // the CLI's flag
    const Stats two = Timer(clock).options(o).run([&] { clock.advance(1.0); });
    CHECK(two.warning ==
          "only 2 samples kept: too few for an interval of the median; take more samples with "
          "--samples");
  }
  SUBCASE("where the reader has no control for more samples, the warning names none") {
    o.samples = 2;
    o.controls = {};
    const Stats two = Timer(clock).options(o).run([&] { clock.advance(1.0); });
    CHECK(two.warning == "only 2 samples kept: too few for an interval of the median");
  }
}

TEST_CASE("a noisy measurement warns with its CV and a remedy on the page") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.min_sample_ms = 0;
  o.resolution_multiple = 1;  // one call per sample, so the noise is not averaged away
  int calls = 0;
  const Stats s = Timer(clock).options(o).run([&] { clock.advance(++calls % 2 ? 1.0 : 1.5); });
  REQUIRE(s.inner_iterations == 1);
  CHECK(s.outliers == 0);
  CHECK(s.cv == doctest::Approx(0.25 * std::sqrt(30.0 / 29.0) / 1.25).epsilon(1e-4));  // 20%
  CHECK(s.warning ==
        "CV 20% over 30 samples: the machine was busy; close other tabs and run again");
}

TEST_CASE("a noisy measurement with outliers counts the samples its CV was computed from") {
  // The page's tables show every sample taken; the warning's count must say which of them the
  // CV was computed from, or "CV 6% over 145 samples" reads wrong beside "samples 200".
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.min_sample_ms = 0;
  o.resolution_multiple = 1;
  int calls = 0;
  // 1.0 and 1.5 ms alternating, and the 15th call 10 ms: beyond Tukey's upper fence
  // (Q3 + 1.5 IQR = 1.5 + 0.75), so one of the 30 is dropped and 29 are kept.
  const Stats s = Timer(clock).options(o).run([&] {
    ++calls;
    clock.advance(calls == 15 ? 10.0 : (calls % 2 ? 1.0 : 1.5));
  });
  REQUIRE(s.inner_iterations == 1);
  REQUIRE(s.outliers == 1);
  REQUIRE(s.samples == 29);
  CHECK(s.warning ==
        "CV 20% over 29 samples kept (1 outlier dropped): the machine was busy; close other "
        "tabs and run again");
}

TEST_CASE("a function too fast to batch up to the target says to give it more work") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.max_inner_iterations = 1000;
  const Stats s = Timer(clock).options(o).run([] {});  // takes no (fake) time at all
  CHECK(s.inner_iterations == 1000);
  CHECK(s.warning.find("under the 1 ms target, at max_inner_iterations 1000: check the work is "
                       "not optimised away, or give it a larger size") != std::string::npos);
}

TEST_CASE("timer options are validated with the field, the value and the allowed range") {
  TimerOptions o;
  CHECK_NOTHROW(o.validate());
  SUBCASE("warmup") {
    o.warmup = -1;
    CHECK_THROWS_WITH_AS(o.validate(), "warmup must be between 0 and 10000, got -1", ValueError);
  }
  SUBCASE("samples") {
    o.samples = 0;
    CHECK_THROWS_WITH_AS(o.validate(), "samples must be between 1 and 100000, got 0", ValueError);
  }
  SUBCASE("min_sample_ms") {
    o.min_sample_ms = 60001;
    CHECK_THROWS_WITH_AS(o.validate(), "min_sample_ms must be between 0 and 60000, got 60001",
                         ValueError);
    o.min_sample_ms = std::nan("");
    CHECK_THROWS_WITH_AS(o.validate(), "min_sample_ms must be between 0 and 60000, got NaN",
                         ValueError);
  }
  SUBCASE("resolution_multiple") {
    o.resolution_multiple = 0.5;
    CHECK_THROWS_WITH_AS(o.validate(),
                         "resolution_multiple must be between 1 and 1000000, got 0.5", ValueError);
  }
  SUBCASE("max_total_ms") {
    o.max_total_ms = 0;
    CHECK_THROWS_WITH_AS(o.validate(),
                         "max_total_ms must be a finite number greater than 0, got 0", ValueError);
  }
  SUBCASE("max_inner_iterations") {
    o.max_inner_iterations = 0;
    CHECK_THROWS_WITH_AS(o.validate(), "max_inner_iterations must be at least 1, got 0",
                         ValueError);
  }
}

TEST_CASE("the timer validates its options before calling the function") {
  FakeClock clock(0.0, kReadCostMs);
  int calls = 0;
  CHECK_THROWS_WITH_AS(Timer(clock).samples(0).run([&] { ++calls; }),
                       "samples must be between 1 and 100000, got 0", ValueError);
  CHECK(calls == 0);
}

TEST_CASE("read_timer_option sets the timer's fields from JSON and names a wrong type") {
  TimerOptions o;
  CHECK(read_timer_option(o, "samples", nlohmann::json(7), "options.samples"));
  CHECK(read_timer_option(o, "warmup", nlohmann::json(2.0), "options.warmup"));
  CHECK(read_timer_option(o, "min_sample_ms", nlohmann::json(0.25), "options.min_sample_ms"));
  CHECK(read_timer_option(o, "max_total_ms", nlohmann::json(40), "options.max_total_ms"));
  CHECK(o.samples == 7);
  CHECK(o.warmup == 2);
  CHECK(o.min_sample_ms == 0.25);
  CHECK(o.max_total_ms == 40);
  CHECK_FALSE(read_timer_option(o, "batch", nlohmann::json(3), "options.batch"));
  CHECK_THROWS_WITH_AS(read_timer_option(o, "samples", nlohmann::json("ten"), "suite.options.samples"),
                       "suite.options.samples must be an integer, got \"ten\"", ValueError);
  CHECK_THROWS_WITH_AS(read_timer_option(o, "warmup", nlohmann::json(1.5), "options.warmup"),
                       "options.warmup must be an integer, got 1.5", ValueError);
  CHECK_THROWS_WITH_AS(read_timer_option(o, "max_total_ms", nlohmann::json(true), "options.max_total_ms"),
                       "options.max_total_ms must be a number, got true", ValueError);
}

TEST_CASE("run_interleaved times each function in alternating rounds of one run") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 1;
  o.samples = 5;
  o.min_sample_ms = 2;
  std::string log;  // one letter per call: f (1 ms) and b (2 ms)
  const InterleavedStats run = run_interleaved(
      {[&] { log += 'f'; clock.advance(1.0); }, [&] { log += 'b'; clock.advance(2.0); }}, o,
      clock);
  REQUIRE(run.stats.size() == 2);
  CHECK(run.rounds == 5);
  const Stats& f = run.stats[0];
  const Stats& b = run.stats[1];
  CHECK(f.median_ms == doctest::Approx(1.0).epsilon(1e-5));
  CHECK(b.median_ms == doctest::Approx(2.0).epsilon(1e-5));
  // target 2 ms: f grows 1 → 3 calls (1 · 1.4 · 2 / 1 = 2.8), b lasts 2 ms at one call.
  CHECK(f.inner_iterations == 3);
  CHECK(b.inner_iterations == 1);
  CHECK(f.per_call_ms.size() == 5);
  CHECK(b.per_call_ms.size() == 5);
  // Warmup f then b; calibration f (1, then 3 calls) then b (1 call); then five rounds of
  // three f and one b: interleaved, never all of f before all of b.
  std::string rounds;
  for (int r = 0; r < 5; ++r) rounds += "fffb";
  CHECK(log == "fb" + std::string("f") + "fff" + "b" + rounds);
  CHECK(f.warning.empty());
  CHECK(b.warning.empty());
}

TEST_CASE("run_interleaved's budget is max_total_ms per function, and Timer::run is one function") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.min_sample_ms = 10;
  o.max_total_ms = 50;
  // Calibration: f 1 + 10 calls (11 ms), b the same (22 ms); rounds of 10 + 10 ms end at 42,
  // 62, 82, 102 ms: the fourth spends the 2 × 50 ms budget.
  const InterleavedStats run =
      run_interleaved({[&] { clock.advance(1.0); }, [&] { clock.advance(1.0); }}, o, clock);
  CHECK(run.rounds == 4);
  for (const Stats& s : run.stats) {
    CHECK(s.per_call_ms.size() == 4);
    CHECK(s.warning.find("the 50 ms budget stopped sampling after 4 of 30 samples") !=
          std::string::npos);
  }
  CHECK_THROWS_WITH_AS(run_interleaved({}, o, clock),
                       "run_interleaved needs at least one function, got none", ValueError);
}

TEST_CASE("run_interleaved reports progress per round and can be cancelled") {
  FakeClock clock(0.0, kReadCostMs);
  TimerOptions o;
  o.warmup = 0;
  o.samples = 4;
  int reports = 0;
  CHECK_THROWS_WITH_AS(run_interleaved({[&] { clock.advance(1.0); }, [&] { clock.advance(1.0); }},
                                       o, clock, [&](double) { return ++reports < 2; }),
                       "cancelled after 2 of 4 samples", CancelledError);
  CHECK(reports == 2);
}

TEST_CASE("a measurement whose one call cannot fit its budget is refused before any work") {
  // 2·4096³ FLOPs take at least 1,375 ms at 100 GFLOP/s: a 5 ms budget ran 90 s in wasm.
  // The remedy names the control the reader has (the CLI's flag here), and none without one.
  TimerOptions o;
  o.max_total_ms = 5;
  o.controls.budget = "--max-total-ms";
  CHECK_THROWS_WITH_AS(measure_matmul("naive", 4096, o),
                       "one call of naive matmul at n=4096 is 1.37e+11 FLOPs, at least 1375 ms "
                       "at 100 GFLOP/s (faster than any one core), more than the 5 ms time "
                       "budget: give it at least 1375 ms with --max-total-ms, or use a smaller "
                       "size",
                       ValueError);
  o.controls = {};
  CHECK_THROWS_WITH_AS(
      measure_linear_point(1024, 1024, 1024, "naive", o),
      "one call of a Linear layer's forward is 2.15e+09 FLOPs, at least 22 ms at 100 GFLOP/s "
      "(faster than any one core), more than the 5 ms time budget: use a smaller size",
      ValueError);
  CHECK_NOTHROW(check_call_fits_budget(5e8, "x", o));  // 5 ms at the bound: it may fit
}

TEST_CASE("a model point whose one forward pass cannot fit its budget is refused before timing") {
  TimerOptions o;
  o.max_total_ms = 5;
  const nlohmann::json spec = {{"name", "x"},
                               {"input", {64, 2048}},
                               {"layers", {{{"type", "Linear"}, {"in", 2048}, {"out", 2048}}}}};
  const std::string message =
      "one call of a forward pass of x at batch 64 is 5.37e+08 FLOPs, at least 6 ms at 100 "
      "GFLOP/s (faster than any one core), more than the 5 ms time budget: use a smaller size";
  CHECK_THROWS_WITH_AS(measure_forward_point(spec, 0, o), message.c_str(), ValueError);
  CHECK_THROWS_WITH_AS(measure_profiling_overhead(spec, 0, o), message.c_str(), ValueError);
  // The first layer computes no input gradient: backward is twice forward here.
  CHECK_THROWS_WITH_AS(measure_backward_point(spec, 0, o),
                       "one call of a forward and backward pass of x at batch 64 is 1.07e+09 "
                       "FLOPs, at least 11 ms at 100 GFLOP/s (faster than any one core), more "
                       "than the 5 ms time budget: use a smaller size",
                       ValueError);
  // The whole profile checks the same before its first pass: forward alone, then with the
  // backward pass it also times.
  Model model = model_from_json(spec);
  ProfileOptions po;
  po.timer = o;
  po.backward = false;
  CHECK_THROWS_WITH_AS(profile_model(model, po), message.c_str(), ValueError);
  po.backward = true;
  po.timer.max_total_ms = 8;
  po.timer.controls.budget = "options.max_total_ms in the suite file";
  CHECK_THROWS_WITH_AS(profile_model(model, po),
                       "one call of a forward and backward pass of x at batch 64 is 1.07e+09 "
                       "FLOPs, at least 11 ms at 100 GFLOP/s (faster than any one core), more "
                       "than the 8 ms time budget: give it at least 11 ms with "
                       "options.max_total_ms in the suite file, or use a smaller size",
                       ValueError);
}
