// Protects the A/B runner: both arms get the same warmup and the Timer's batching rule, the
// order inside each round comes from the seed, sequential mode runs all of A first, drift
// across rounds is detected and named in the verdict's warning, and progress can cancel.
// Everything runs on a FakeClock whose functions advance it by known amounts; no real time
// is measured or asserted.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/lab_kernels.hpp"
#include "perflab/timing/clock.hpp"

using namespace perflab;

namespace {
constexpr double kReadCostMs = 1.0 / (1 << 20);  // dyadic, as in test_timer.cpp
}  // namespace

TEST_CASE("interleaved A/B: per-call times, same warmup, Timer's batching, a faster verdict") {
  FakeClock clock(0.0, kReadCostMs);
  std::string calls;
  const AbResult r = run_ab([&] { calls += 'A'; clock.advance(1.0); },
                            [&] { calls += 'B'; clock.advance(0.8); }, {}, clock);
  CHECK(r.mode == AbMode::interleaved);
  REQUIRE(r.a_ms.size() == 30);
  REQUIRE(r.b_ms.size() == 30);
  // Target max(100 · 2^-20, 1 ms) = 1 ms: A's single call reaches it; B's 0.8 ms grows by
  // 1.4 / 0.8 = 1.75 → 2 calls (the Timer's rule, see test_timer.cpp).
  CHECK(r.inner_iterations_a == 1);
  CHECK(r.inner_iterations_b == 2);
  for (double v : r.a_ms) CHECK(v == doctest::Approx(1.0).epsilon(1e-5));
  for (double v : r.b_ms) CHECK(v == doctest::Approx(0.8).epsilon(1e-5));
  // Warmup: 3 of A, then 3 of B; calibration: 1 A, then 1 + 2 B.
  CHECK(calls.substr(0, 10) == "AAABBBABBB");
  CHECK(calls.size() == 10 + 30 * 1 + 30 * 2);
  const Comparison& c = r.comparison;
  CHECK(c.ratio == doctest::Approx(1.25).epsilon(1e-5));
  CHECK(c.verdict == Verdict::faster);
  CHECK(c.sentence == "B is 1.25x faster than A (95% CI 1.25-1.25x, p < 0.001)");
  // Per-call times differ across rounds by a few ulps only (0.8 is not dyadic): no drift.
  CAPTURE(c.warning);
  CHECK(c.warning.empty());
  CHECK_FALSE(r.drift_b.detected);
}

TEST_CASE("the order inside each round comes from the seed") {
  const auto schedule = [](std::uint64_t seed, std::vector<bool>& a_first) {
    FakeClock clock(0.0, kReadCostMs);
    std::string calls;
    AbOptions o;
    o.seed = seed;
    o.warmup = 0;
    o.min_sample_ms = 0.5;  // one call per sample for both arms
    const AbResult r = run_ab([&] { calls += 'A'; clock.advance(1.0); },
                              [&] { calls += 'B'; clock.advance(1.0); }, o, clock);
    a_first = r.a_first;
    return calls.substr(2);  // after one calibration call each
  };
  std::vector<bool> first1, first2, first3;
  const std::string calls1 = schedule(5, first1), calls2 = schedule(5, first2),
                    calls3 = schedule(6, first3);
  CHECK(calls1 == calls2);
  CHECK(first1 == first2);
  CHECK(first1 != first3);
  REQUIRE(first1.size() == 30);
  REQUIRE(calls1.size() == 60);
  int a_first_rounds = 0;
  for (std::size_t round = 0; round < 30; ++round) {
    CAPTURE(round);
    CHECK(calls1.substr(2 * round, 2) == (first1[round] ? "AB" : "BA"));
    a_first_rounds += first1[round] ? 1 : 0;
  }
  CHECK(a_first_rounds > 0);  // both orders occur
  CHECK(a_first_rounds < 30);
}

TEST_CASE("drift: sequential mode turns it into a false difference, interleaving does not") {
  // The same work in both arms on a machine that slows by 1% per call (thermal throttling).
  const auto run = [](AbMode mode) {
    FakeClock clock(0.0, kReadCostMs);
    double cost_ms = 1.0;
    const auto work = [&] {
      clock.advance(cost_ms);
      cost_ms *= 1.01;
    };
    AbOptions o;
    o.mode = mode;
    o.warmup = 0;
    o.min_sample_ms = 0.5;
    return run_ab(work, work, o, clock);
  };
  const AbResult seq = run(AbMode::sequential);
  CHECK(seq.a_first == std::vector<bool>(30, true));
  CHECK(seq.comparison.verdict == Verdict::slower);  // B ran later, on a slower machine
  CHECK(seq.drift_a.rho == doctest::Approx(1.0));
  CHECK(seq.comparison.warning.find(
            "A's samples drift across rounds (Spearman rho 1.00 against the round, p < 0.001, +" +
            std::to_string(static_cast<int>(std::round(100 * seq.drift_a.change))) +
            "% from the first to the last third): the machine's speed changed during the run; "
            "in sequential mode drift reads as a difference between A and B: use "
            "interleaved") != std::string::npos);
  CHECK(seq.drift_a.detected);
  // Each arm carries the rule it was judged by, from the options.
  CHECK(seq.drift_a.alpha == 0.01);
  CHECK(seq.drift_b.threshold == 0.02);
  // Samples 0..9 against 20..29 of A, each one call 1% slower than the one before: ≈ 1.01^20.
  CHECK(seq.drift_a.change == doctest::Approx(std::pow(1.01, 20) - 1).epsilon(0.01));

  const AbResult inter = run(AbMode::interleaved);
  CHECK(inter.comparison.verdict == Verdict::no_difference);
  CHECK(inter.drift_a.detected);
  CHECK(inter.drift_a.rho > 0.9);
  CHECK(inter.drift_b.rho > 0.9);
  CHECK(inter.comparison.warning.find("interleaving spreads it over both arms") !=
        std::string::npos);
  CHECK(inter.comparison.warning.find("B's samples drift") != std::string::npos);
}

TEST_CASE("drift: the fewest rounds at which the rule can fire, and both sides of it") {
  // The rule is Spearman p < drift_alpha (and a change beyond the threshold). The strongest
  // evidence n rounds can give is a perfect order, exact p = 2/n!: 2/120 = 0.0167 at 5
  // rounds is not below 0.01, 2/720 = 0.0028 at 6 is.
  const auto perfect_p = [](std::size_t n) {
    std::vector<double> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = static_cast<double>(i);
    return spearman(order, order).p_value;
  };
  CHECK(perfect_p(5) >= 0.01);
  CHECK(perfect_p(6) < 0.01);
  CHECK(drift_min_rounds(0.01) == 6);
  // 2/7! = 0.0004 is not below 0.0001, 2/8! = 0.00005 is; a perfect order of 3 is below 0.5.
  CHECK(perfect_p(7) >= 0.0001);
  CHECK(perfect_p(8) < 0.0001);
  CHECK(drift_min_rounds(0.0001) == 8);
  CHECK(drift_min_rounds(0.5) == 3);
  CHECK_THROWS_WITH_AS(drift_min_rounds(0.9), "drift_alpha must be between 0.0001 and 0.5, got 0.9",
                       ValueError);

  // B slows by 20% every round, in perfect order; A is steady.
  const auto analyse = [](std::size_t rounds) {
    std::vector<double> a(rounds, 1.0), b;
    for (std::size_t r = 0; r < rounds; ++r) b.push_back(std::pow(1.2, static_cast<double>(r)));
    AbOptions o;
    o.compare.bootstrap_resamples = 200;
    return analyze_ab(a, b, std::vector<bool>(rounds, true), o);
  };
  const AbResult five = analyse(5);
  CHECK(five.drift_b.rho == doctest::Approx(1.0));
  CHECK_FALSE(five.drift_b.detected);
  CHECK(five.drift_b.min_rounds == 6);
  CHECK(five.drift_b.rounds == 5);
  CHECK(std::isinf(five.drift_b.critical_rho));
  CHECK(five.drift_b.sentence ==
        "too few rounds to detect drift: the rule (Spearman p below 0.01 and a change beyond "
        "±2%) can fire from 6 rounds on, and this run has 5 (even samples in perfect order have "
        "p = 0.017 at 5 rounds)");
  CHECK(five.drift_a.sentence.rfind("too few rounds to detect drift", 0) == 0);
  CHECK(five.comparison.warning.empty());
  const AbResult six = analyse(6);
  CHECK(six.drift_b.detected);
  CHECK(six.drift_b.critical_rho == doctest::Approx(1.0));
  // p = 2/720; thirds of 2 rounds: medians (1 + 1.2) / 2 = 1.1 and (1.2^4 + 1.2^5) / 2 =
  // 2.28096, a change of +107.4%.
  CHECK(six.drift_b.sentence ==
        "detected: Spearman ρ 1.000 against the round (p = 0.0028), +107.4% from the first to "
        "the last third (the rule: p below 0.01 and a change beyond ±2%)");
  CHECK(six.comparison.warning.find("B's samples drift across rounds") != std::string::npos);
  // Steady A at 6 rounds: not detected, with how strong an order would have to be.
  CHECK(six.drift_a.sentence ==
        "not detected: Spearman ρ 0.000 against the round (p = 1), +0.0% from the first to the "
        "last third; the rule needs both p below 0.01 (at 6 rounds, |ρ| of at least 1.000) and a "
        "change beyond ±2%");
  // The page's 8 rounds: the rule can fire when the order is strong enough (|ρ| ≥ 0.881).
  const AbResult eight = analyse(8);
  CHECK(eight.drift_b.detected);
  CHECK(eight.drift_a.critical_rho == doctest::Approx(1 - 60.0 / 504));
  CHECK(eight.drift_a.sentence.find("(at 8 rounds, |ρ| of at least 0.881)") != std::string::npos);
  // Below 3 rounds there is nothing to rank.
  const AbResult two = analyse(2);
  CHECK(two.drift_b.sentence ==
        "too few rounds to detect drift: the rule (Spearman p below 0.01 and a change beyond "
        "±2%) can fire from 6 rounds on, and this run has 2");
}

TEST_CASE("A/B progress reports every round and can cancel between rounds") {
  FakeClock clock(0.0, kReadCostMs);
  const auto a = [&] { clock.advance(1.0); };
  AbOptions o;
  o.rounds = 10;
  SUBCASE("interleaved: one report per round, rising to 1") {
    std::vector<double> fractions;
    run_ab(a, a, o, clock, [&](double f) {
      fractions.push_back(f);
      return true;
    });
    REQUIRE(fractions.size() == 10);
    CHECK(fractions.front() == doctest::Approx(0.1));
    CHECK(fractions.back() == 1.0);
  }
  SUBCASE("sequential: one report per sample") {
    o.mode = AbMode::sequential;
    int reports = 0;
    run_ab(a, a, o, clock, [&](double) { return ++reports > 0; });
    CHECK(reports == 20);
  }
  SUBCASE("returning false throws CancelledError naming how far it got") {
    int reports = 0;
    CHECK_THROWS_WITH_AS(run_ab(a, a, o, clock, [&](double) { return ++reports < 4; }),
                         "cancelled after 4 of 10 rounds", CancelledError);
  }
}

TEST_CASE("A/B options are validated before anything runs") {
  FakeClock clock(0.0, kReadCostMs);
  int calls = 0;
  const auto f = [&] { ++calls; clock.advance(1.0); };
  AbOptions o;
  o.rounds = 1;
  CHECK_THROWS_WITH_AS(run_ab(f, f, o, clock), "rounds must be between 2 and 100000, got 1",
                       ValueError);
  o = {};
  o.drift_alpha = 0;
  CHECK_THROWS_WITH_AS(run_ab(f, f, o, clock),
                       "drift_alpha must be between 0.0001 and 0.5, got 0", ValueError);
  o = {};
  o.compare.threshold = 2;
  CHECK_THROWS_WITH_AS(run_ab(f, f, o, clock), "threshold must be between 0 and 1, got 2",
                       ValueError);
  CHECK(calls == 0);
  CHECK(std::string(ab_mode_name(AbMode::sequential)) == "sequential");
}

TEST_CASE("an arm too fast to batch up to the target is named in the warning") {
  FakeClock clock(0.0, kReadCostMs);
  AbOptions o;
  o.max_inner_iterations = 4;
  o.rounds = 5;
  const AbResult r = run_ab([&] { clock.advance(1.0); }, [&] { clock.advance(0.01); }, o, clock);
  CHECK(r.inner_iterations_b == 4);
  CHECK(r.comparison.warning.find("B's samples last 0.04 ms, under the 1 ms target at "
                                  "max_inner_iterations 4") != std::string::npos);
}

TEST_CASE("a pause that spends the A/B deadline still leaves samples spanning the clock's ticks") {
  // A browser's 5 us clock, 4 us calls, and a first call of A that stalls past the 6 s
  // deadline: calibration stops at the deadline, but not below 100 ticks (0.5 ms), so no
  // sample is a call or two timed as 0 or 5 us.
  FakeClock clock(0.005, kReadCostMs);
  bool paused = false;
  const AbResult r = run_ab(
      [&] {
        clock.advance(paused ? 0.004 : kMaxAbTotalMs + 1000);
        paused = true;
      },
      [&] { clock.advance(0.004); }, {}, clock);
  REQUIRE_FALSE(r.a_ms.empty());
  REQUIRE_FALSE(r.b_ms.empty());
  CHECK(r.inner_iterations_a * 0.004 >= 100 * r.resolution_ms);
  CHECK(r.inner_iterations_b * 0.004 >= 100 * r.resolution_ms);
  for (double v : r.a_ms) CHECK(std::abs(v / 0.004 - 1) < 0.02);
  for (double v : r.b_ms) CHECK(std::abs(v / 0.004 - 1) < 0.02);
}

TEST_CASE("run_kernel_ab times two of the lab's kernel variants and names a bad argument") {
  FakeClock clock(0.0, kReadCostMs);
  AbOptions o;
  o.rounds = 3;
  o.warmup = 0;
  o.min_sample_ms = 0;
  o.max_inner_iterations = 1;  // the fake clock does not move with the kernel: one call a sample
  SUBCASE("matmul and gelu variants each give one sample per round and arm") {
    const AbResult m = run_kernel_ab("matmul", "naive", "packed", 4, o, clock);
    CHECK(m.a_ms.size() == 3);
    CHECK(m.b_ms.size() == 3);
    const AbResult g = run_kernel_ab("gelu", "fused", "unfused", 16, o, clock);
    CHECK(g.a_first.size() == 3);
  }
  SUBCASE("a zoo model is a kernel too: one inference forward at batch n") {
    const LabKernel k = lab_kernel("model", "linear_128_64", 4);
    CHECK(k.op == "model");
    CHECK(k.variant == "linear_128_64");
    k.call();
    CHECK_THROWS_WITH_AS(lab_kernel("model", "resnet", 4), doctest::Contains("unknown zoo model \"resnet\""),
                         ValueError);
    CHECK_THROWS_WITH_AS(lab_kernel("model", "linear_128_64", 0),
                         "n must be between 1 and 1024 for a zoo model's batch, got 0", ValueError);
    // Two models interleaved by the A/B runner, on a fake clock: both arms sampled.
    FakeClock clock(0.0, kReadCostMs);
    AbOptions o;
    o.rounds = 5;
    o.warmup = 0;
    o.min_sample_ms = 0;
    o.compare.bootstrap_resamples = 100;
    o.max_inner_iterations = 1;  // the fake clock does not move with the model: one call a sample
    const AbResult r = run_kernel_ab("model", "linear_128_64", "mlp_784", 2, o, clock);
    CHECK(r.a_ms.size() == 5);
    CHECK(r.b_ms.size() == 5);
  }
  SUBCASE("errors name the op, the variant and n") {
    CHECK_THROWS_WITH_AS(run_kernel_ab("conv", "naive", "packed", 4, o, clock),
                         "op must be \"matmul\", \"gelu\" or \"model\", got \"conv\"", ValueError);
    CHECK_THROWS_AS(run_kernel_ab("matmul", "naive", "nope", 4, o, clock), ValueError);
    CHECK_THROWS_WITH_AS(run_kernel_ab("matmul", "naive", "packed", 0, o, clock),
                         "n must be between 1 and 512 for an A/B of matmul, got 0: one round calls both "
                         "arms, and an A/B runs many rounds in at most 6000 ms",
                         ValueError);
    CHECK_THROWS_WITH_AS(run_kernel_ab("gelu", "fused", "unfused", 0, o, clock),
                         "n must be between 1 and 4194304 for an A/B of gelu, got 0: one round calls "
                         "both arms, and an A/B runs many rounds in at most 6000 ms",
                         ValueError);
  }
}

TEST_CASE("lab_kernel names its kernel and checks its arguments; sample_kernel keeps every sample") {
  SUBCASE("a kernel names what it runs and its call runs") {
    const LabKernel k = lab_kernel("matmul", "naive", 3);
    CHECK(k.op == "matmul");
    CHECK(k.variant == "naive");
    CHECK(k.n == 3);
    CHECK(k.inputs != nullptr);
    k.call();  // runs once without throwing
  }
  SUBCASE("sample_kernel returns every sample in order, outliers included") {
    // One call per sample on a fake clock that moves only when read: every sample is exactly
    // one read apart, and an outlier-dropping summary would not change the count.
    FakeClock clock(0.0, kReadCostMs);
    TimerOptions o;
    o.warmup = 0;
    o.samples = 7;
    o.min_sample_ms = 0;
    o.max_inner_iterations = 1;
    const KernelSample s = sample_kernel(lab_kernel("gelu", "fused", 8), o, clock);
    CHECK(s.samples_ms.size() == 7);
    CHECK(s.inner_iterations == 1);
    CHECK(s.resolution_ms == doctest::Approx(kReadCostMs).scale(0));
    for (double ms : s.samples_ms) CHECK(ms == doctest::Approx(kReadCostMs).scale(0));
  }
  SUBCASE("a fixed batch: exactly inner_iterations calls per sample, no calibration") {
    // The fake clock advances only when read: a batch is two reads, whatever its length, so
    // the per-call time is the read cost divided by the batch size.
    FakeClock clock(0.0, kReadCostMs);
    TimerOptions o;
    o.warmup = 2;
    o.samples = 5;
    KernelSampling fixed;
    fixed.inner_iterations = 4;
    const KernelSample s = sample_kernel(lab_kernel("gelu", "fused", 8), o, clock, {}, fixed);
    CHECK(s.inner_iterations == 4);
    CHECK(s.clock_tick_ms == 0);
    REQUIRE(s.samples_ms.size() == 5);
    for (double ms : s.samples_ms) CHECK(ms == doctest::Approx(kReadCostMs / 4).scale(0));
    CHECK(s.warning.empty());
  }
  SUBCASE("a coarsened clock reads in whole ticks, so one short call reads as 0 or a tick") {
    FakeClock clock(0.0, 0.3);  // every read moves time 0.3 ms on
    TimerOptions o;
    o.warmup = 0;
    o.samples = 10;
    KernelSampling coarse;
    coarse.inner_iterations = 1;
    coarse.clock_tick_ms = 1.0;
    const KernelSample s = sample_kernel(lab_kernel("gelu", "fused", 8), o, clock, {}, coarse);
    CHECK(s.clock_tick_ms == 1.0);
    CHECK(s.resolution_ms == doctest::Approx(1.0));
    REQUIRE(s.samples_ms.size() == 10);
    int zeros = 0;
    for (double ms : s.samples_ms) {
      CHECK((ms == doctest::Approx(0.0) || ms == doctest::Approx(1.0)));
      zeros += ms == 0.0;
    }
    // Two reads 0.3 ms apart cross a tick boundary about 3 times in 10.
    CHECK(zeros >= 5);
    CHECK(zeros <= 9);
  }
  SUBCASE("a fixed batch stops when the budget runs out and says so") {
    FakeClock clock(0.0, 1.0);
    TimerOptions o;
    o.warmup = 0;
    o.samples = 100;
    o.max_total_ms = 10;
    KernelSampling fixed;
    fixed.inner_iterations = 1;
    const KernelSample s = sample_kernel(lab_kernel("gelu", "fused", 8), o, clock, {}, fixed);
    CHECK(s.samples_ms.size() < 100);
    CHECK(s.warning.find("ran out after " + std::to_string(s.samples_ms.size()) + " of 100 samples") !=
          std::string::npos);
  }
  SUBCASE("sampling settings out of range are refused by name") {
    FakeClock clock(0.0, kReadCostMs);
    KernelSampling bad;
    bad.inner_iterations = -1;
    CHECK_THROWS_WITH_AS(sample_kernel(lab_kernel("gelu", "fused", 8), {}, clock, {}, bad),
                         doctest::Contains("inner_iterations must be 0"), ValueError);
    bad = {};
    bad.clock_tick_ms = 1000;
    CHECK_THROWS_WITH_AS(sample_kernel(lab_kernel("gelu", "fused", 8), {}, clock, {}, bad),
                         doctest::Contains("clock_tick_ms must be 0"), ValueError);
  }
  SUBCASE("a zoo model is a kernel too: one inference forward at batch n") {
    const LabKernel k = lab_kernel("model", "linear_128_64", 4);
    CHECK(k.op == "model");
    CHECK(k.variant == "linear_128_64");
    k.call();
    CHECK_THROWS_WITH_AS(lab_kernel("model", "resnet", 4), doctest::Contains("unknown zoo model \"resnet\""),
                         ValueError);
    CHECK_THROWS_WITH_AS(lab_kernel("model", "linear_128_64", 0),
                         "n must be between 1 and 1024 for a zoo model's batch, got 0", ValueError);
    // Two models interleaved by the A/B runner, on a fake clock: both arms sampled.
    FakeClock clock(0.0, kReadCostMs);
    AbOptions o;
    o.rounds = 5;
    o.warmup = 0;
    o.min_sample_ms = 0;
    o.compare.bootstrap_resamples = 100;
    o.max_inner_iterations = 1;  // the fake clock does not move with the model: one call a sample
    const AbResult r = run_kernel_ab("model", "linear_128_64", "mlp_784", 2, o, clock);
    CHECK(r.a_ms.size() == 5);
    CHECK(r.b_ms.size() == 5);
  }
  SUBCASE("errors name the op, the variant and n") {
    CHECK_THROWS_WITH_AS(lab_kernel("conv", "naive", 4), "op must be \"matmul\", \"gelu\" or \"model\", got \"conv\"",
                         ValueError);
    CHECK_THROWS_AS(lab_kernel("gelu", "nope", 4), ValueError);
    CHECK_THROWS_WITH_AS(lab_kernel("matmul", "naive", 5000),
                         "n must be between 1 and 4096 for matmul, got 5000", ValueError);
  }
}

TEST_CASE("ab_round_order is run_ab's order for the seed; sequential runs A first every round") {
  const auto run_order = [](std::uint64_t seed) {
    FakeClock clock(0.0, kReadCostMs);
    AbOptions o;
    o.seed = seed;
    o.warmup = 0;
    o.rounds = 12;
    o.min_sample_ms = 0;
    o.max_inner_iterations = 1;  // one call a sample: the calls below move the fake clock only
    o.compare.bootstrap_resamples = 100;
    return run_ab([&] { clock.advance(1.0); }, [&] { clock.advance(2.0); }, o, clock).a_first;
  };
  for (std::uint64_t seed : {1, 5, 42}) {
    CAPTURE(seed);
    const std::vector<bool> order = ab_round_order(AbMode::interleaved, 12, seed);
    CHECK(order == run_order(seed));
    CHECK(order == ab_round_order(AbMode::interleaved, 12, seed));  // reproducible
    // A longer schedule starts with the shorter one: round r's draw does not depend on R.
    const std::vector<bool> longer = ab_round_order(AbMode::interleaved, 20, seed);
    CHECK(std::vector<bool>(longer.begin(), longer.begin() + 12) == order);
  }
  CHECK(ab_round_order(AbMode::interleaved, 30, 5) != ab_round_order(AbMode::interleaved, 30, 6));
  CHECK(ab_round_order(AbMode::sequential, 4, 5) == std::vector<bool>(4, true));
  CHECK(ab_round_order(AbMode::interleaved, 1, 5).size() == 1);
  CHECK_THROWS_WITH_AS(ab_round_order(AbMode::interleaved, 0, 5),
                       "rounds must be between 1 and 100000, got 0", ValueError);
}

TEST_CASE("analyze_ab on samples collected elsewhere equals run_ab's own analysis of them") {
  // run_ab on a fake clock whose B arm drifts (1% slower per call), then analyze_ab on the
  // samples it returned: the same comparison, drift and warning, field by field.
  for (AbMode mode : {AbMode::interleaved, AbMode::sequential}) {
    CAPTURE(ab_mode_name(mode));
    FakeClock clock(0.0, kReadCostMs);
    double b_cost = 0.5;
    AbOptions o;
    o.mode = mode;
    o.seed = 9;
    o.warmup = 0;
    o.rounds = 10;
    o.min_sample_ms = 0;
    o.max_inner_iterations = 1;
    o.compare.bootstrap_resamples = 500;
    o.compare.seed = 9;
    const AbResult run = run_ab([&] { clock.advance(1.0); },
                                [&] {
                                  clock.advance(b_cost);
                                  b_cost *= 1.01;
                                },
                                o, clock);
    const AbResult again = analyze_ab(run.a_ms, run.b_ms, run.a_first, o);
    CHECK(again.mode == mode);
    CHECK(again.a_ms == run.a_ms);
    CHECK(again.b_ms == run.b_ms);
    CHECK(again.a_first == run.a_first);
    const Comparison &x = again.comparison, &y = run.comparison;
    CHECK(x.ratio == y.ratio);
    CHECK(x.ratio_interval.low == y.ratio_interval.low);
    CHECK(x.ratio_interval.high == y.ratio_interval.high);
    CHECK(x.mann_whitney.p_value == y.mann_whitney.p_value);
    CHECK(x.welch.p_value == y.welch.p_value);
    CHECK(x.cliffs_delta == y.cliffs_delta);
    CHECK(x.verdict == y.verdict);
    CHECK(x.sentence == y.sentence);
    CHECK(x.warning == y.warning);
    CHECK(again.drift_b.rho == run.drift_b.rho);
    CHECK(again.drift_b.detected == run.drift_b.detected);
    CHECK(again.drift_b.detected);  // B slowed by about 1.01^6 between the thirds
    CHECK(x.warning.find("B's samples drift across rounds") != std::string::npos);
  }
}

TEST_CASE("analyze_ab on hand-made samples: the verdict, warnings first, and its refusals") {
  AbOptions o;
  o.compare.bootstrap_resamples = 200;
  // Five rounds, A 2 ms and B 1 ms every time: B twice as fast, no spread, no drift.
  const std::vector<double> a{2, 2, 2, 2, 2}, b{1, 1, 1, 1, 1};
  const std::vector<bool> first{true, false, true, false, false};
  const AbResult r = analyze_ab(a, b, first, o, {"A's batch was short"});
  CHECK(r.comparison.ratio == doctest::Approx(2.0));
  CHECK(r.comparison.verdict == Verdict::faster);
  CAPTURE(r.comparison.sentence);
  CHECK(r.comparison.sentence.rfind("B is 2.00x faster than A", 0) == 0);
  CHECK(r.comparison.warning == "A's batch was short");
  CHECK_FALSE(r.drift_a.detected);
  CHECK(r.inner_iterations_a == 1);
  // Two rounds: too few to decide, and no drift check below three.
  const AbResult two = analyze_ab({2, 2}, {1, 1}, {true, false}, o);
  CHECK(two.comparison.verdict == Verdict::too_few_samples);
  CHECK(two.drift_a.p_value == 1.0);
  // Both drifts carry the rule they were judged by, below three rounds too.
  AbOptions rule = o;
  rule.drift_alpha = 0.05;
  rule.compare.threshold = 0.1;
  for (const AbResult& x : {analyze_ab(a, b, first, rule), analyze_ab({2, 2}, {1, 1}, {true, false}, rule)}) {
    for (const Drift& d : {x.drift_a, x.drift_b}) {
      CHECK(d.alpha == 0.05);
      CHECK(d.threshold == 0.1);
    }
  }

  CHECK_THROWS_WITH_AS(analyze_ab({1, 2}, {1}, {true, true}, o),
                       "a_ms, b_ms and a_first must hold one value per round, got 2, 1 and 2 values",
                       ValueError);
  CHECK_THROWS_WITH_AS(analyze_ab({1, -2}, {1, 1}, {true, true}, o),
                       doctest::Contains("a_ms"), ValueError);
  AbOptions seq = o;
  seq.mode = AbMode::sequential;
  CHECK_THROWS_WITH_AS(analyze_ab({1, 2}, {1, 1}, {true, false}, seq),
                       "a_first[1] is false, but in sequential mode all of A runs before B",
                       ValueError);
}
