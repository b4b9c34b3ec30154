// Protects the Acceleration chapter's parallelism exercises: every expected answer is
// recomputed here by hand from the variant's own numbers (Amdahl's law and its inverse, the
// shared bus's min(p × per-core, all-core)), right answers score full points and the usual
// misreadings do not, feedback never says which way a number is off; the cause of a parallel
// slowdown follows its scenario (a race, false sharing, the bus, a serial part); and the one graded
// from the student's own thread-scaling run refits Amdahl's law to the run's medians, ignores
// the figures the page put beside them, and refuses a run core could not have measured.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/parallel.hpp"
#include "timer_helpers.hpp"

using namespace perflab;
using exercise_test::contains;
using nlohmann::json;

namespace {

constexpr std::uint32_t kSeeds = 60;
const char* const kAmdahl = "acceleration.parallel-amdahl";
const char* const kBandwidth = "acceleration.parallel-bandwidth";
const char* const kSlowdown = "acceleration.parallel-slowdown";
const char* const kMyScaling = "acceleration.parallel-my-scaling";

double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

json grade_values(const char* id, std::uint32_t seed, const std::vector<double>& values) {
  return grade_exercise(id, seed, {{"values", values}});
}

// A row of the thread-scaling experiment as core's measurement writes it: the rate from the
// same median as the stats. matmul: 2n³ FLOPs; GELU: 9 per element.
json scaling_row(const std::string& kernel, double threads, double n, double median_ms) {
  const double flops = kernel == "matmul" ? 2 * n * n * n : 9 * n;
  return {{"kernel", kernel},
          {"flavour", "simd"},
          {"threads", threads},
          {"n", n},
          {"flops", flops},
          {"bytes", kernel == "matmul" ? 12 * n * n : 8 * n},
          {"gflops_per_s", flops / (median_ms * 1e6)},
          {"max_error", kernel == "matmul" ? 2e-7 : 0.5},
          {"stats", {{"median_ms", median_ms}, {"samples", 10}}}};
}

// matmul at N = 256: 40, 21 and 12 ms at 1, 2 and 4 threads. By hand: x = 1/2 and 3/4,
// y = 21/40 − 1/2 = 1/40 and 12/40 − 1/4 = 1/20, s = (1/80 + 3/80) / (1/4 + 9/16) = 4/65.
json matmul_rows() {
  return json::array({scaling_row("matmul", 1, 256, 40), scaling_row("matmul", 2, 256, 21),
                      scaling_row("matmul", 4, 256, 12)});
}
constexpr double kMatmulSerial = 4.0 / 65;

double amdahl(double s, double p) { return 1 / (s + (1 - s) / p); }

json answer(const std::vector<double>& values, const json& rows) {
  return {{"values", values},
          {"evidence", {{"experiment", "acceleration-thread-scaling"}, {"rows", rows}}}};
}

}  // namespace

TEST_CASE("parallel-amdahl: 1 / (s + (1 - s)/p), and the largest s that reaches T on q threads") {
  std::set<double> answers;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant(kAmdahl, seed);
    CAPTURE(v.dump());
    const double s = param(v, "serial_percent") / 100;
    const double p = param(v, "threads");
    const double q = param(v, "target_threads");
    const double target = param(v, "target_speedup");
    REQUIRE(target > 1);
    REQUIRE(target < q);
    const double speedup = 1 / (s + (1 - s) / p);
    const double largest = (1 / target - 1 / q) / (1 - 1 / q);
    // The largest fraction gives exactly the target back.
    CHECK(1 / (largest + (1 - largest) / q) == doctest::Approx(target));
    answers.insert(std::round(speedup * 100));
    const json right = grade_values(kAmdahl, seed, {speedup, 100 * largest});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    // The fraction instead of the percentage, and the serial part ignored (p×).
    const json fraction = grade_values(kAmdahl, seed, {speedup, largest});
    CHECK(fraction.at("parts")[1].at("correct") == false);
    const json ideal = grade_values(kAmdahl, seed, {p, 100 * largest});
    CHECK(ideal.at("parts")[0].at("correct") == false);
    // Wrong answers are not told which way they are off.
    const std::string feedback = ideal.at("parts")[0].at("feedback").get<std::string>();
    CHECK(feedback == "Not correct: the answer must be within 1%.");
  }
  CHECK(answers.size() > 20);  // the draw is not a handful of variants
}

TEST_CASE("parallel-bandwidth: p threads get min(p × per-core, all-core) and GELU's 8 bytes") {
  int bus_bound = 0, core_bound = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant(kBandwidth, seed);
    CAPTURE(v.dump());
    const double per_core = param(v, "per_core_gb_per_s");
    const double all_core = param(v, "all_core_gb_per_s");
    const double p = param(v, "threads");
    const double n = param(v, "elements");
    const double bandwidth = std::min(p * per_core, all_core);
    (p * per_core > all_core ? bus_bound : core_bound) += 1;
    const double ms = n * 8 / (bandwidth * 1e9) * 1e3;
    const json right = grade_values(kBandwidth, seed, {bandwidth / per_core, ms});
    CHECK(right.at("correct") == true);
    // Where the bus is the limit, p× (every thread at one core's rate) is wrong, and so is its
    // time.
    if (p * per_core > all_core * 1.02) {
      const json ideal = grade_values(kBandwidth, seed, {p, n * 8 / (p * per_core * 1e9) * 1e3});
      CHECK(ideal.at("parts")[0].at("correct") == false);
      CHECK(ideal.at("parts")[1].at("correct") == false);
    }
    // Counting the unfused GELU's 72 bytes, or reading and writing as one 4-byte access, is wrong.
    CHECK(grade_values(kBandwidth, seed, {bandwidth / per_core, ms * 9}).at("parts")[1].at(
              "correct") == false);
    CHECK(grade_values(kBandwidth, seed, {bandwidth / per_core, ms / 2}).at("parts")[1].at(
              "correct") == false);
  }
  CHECK(bus_bound > 10);
  CHECK(core_bound > 3);
  // The prose names core's count of the fused GELU's bytes.
  CHECK(contains(exercise_variant(kBandwidth, 1).at("prompt").get<std::string>(),
                 "8 bytes per element"));
}

TEST_CASE("parallel-slowdown: wrong results are a race, right but slow results in one cache line "
          "false sharing, streaming at the all-core bandwidth the bus, one thread's work a "
          "serial part") {
  std::set<std::string> answers;
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    std::set<std::string> scenarios;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      const json v = choice_variant(kSlowdown, seed, attempt);
      const std::string prompt = v.at("prompt").get<std::string>();
      CAPTURE(prompt);
      scenarios.insert(prompt);
      std::string right;
      if (contains(prompt, "no lock")) {
        right = "A data race";
      } else if (contains(prompt, "bands of whole cache lines")) {
        right = "The shared memory bus";
      } else if (contains(prompt, "barely")) {
        right = "A serial part";
      } else {
        REQUIRE((contains(prompt, "counts[t]") || contains(prompt, "side by side")));
        right = "False sharing";
      }
      answers.insert(right);
      const int index = exercise_test::choice_starting_with(v, right);
      CHECK(grade_exercise(kSlowdown, seed, {{"choice", index}, {"attempt", attempt}})
                .at("correct") == true);
      for (int c = 0; c < 4; ++c) {
        if (c == index) continue;
        CHECK(grade_exercise(kSlowdown, seed, {{"choice", c}, {"attempt", attempt}})
                  .at("correct") == false);
      }
    }
    CHECK(scenarios.size() == 3);  // each try a new scenario
  }
  CHECK(answers.size() == 4);
}

TEST_CASE("parallel-my-scaling: the run's Amdahl fit at the drawn core count, and its time") {
  const json rows = matmul_rows();
  std::set<double> cores;
  for (std::uint32_t seed = 0; seed < 20; ++seed) {
    const json v = exercise_variant(kMyScaling, seed);
    const double p = param(v, "cores");
    cores.insert(p);
    CAPTURE(p);
    // Beyond every count a run measures, so the page's table cannot hold the answer.
    CHECK(p > kMaxEngineThreads);
    const double speedup = amdahl(kMatmulSerial, p);
    const json right = grade_exercise(kMyScaling, seed, answer({speedup, 40 / speedup}, rows));
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(15));
    // From the serial fraction as the page prints it (6.2%), still right.
    const double printed = amdahl(0.062, p);
    CHECK(grade_exercise(kMyScaling, seed, answer({printed, 40 / printed}, rows)).at("correct") ==
          true);
    // Misreadings: Karp-Flatt at the largest count (1/15, the table's) instead of the fit, the
    // ideal p×, and the time of the 4-thread run scaled instead of the 1-thread one.
    const double karp_flatt = amdahl(1.0 / 15, p);
    const json kf = grade_exercise(kMyScaling, seed, answer({karp_flatt, 40 / karp_flatt}, rows));
    CHECK(kf.at("parts")[0].at("correct") == false);
    CHECK(kf.at("parts")[0].at("feedback") == "Not correct: the answer must be within 2.5%.");
    CHECK(grade_exercise(kMyScaling, seed, answer({p, 40 / p}, rows)).at("correct") == false);
    CHECK(grade_exercise(kMyScaling, seed, answer({speedup, 12 / speedup}, rows))
              .at("parts")[1]
              .at("correct") == false);
  }
  CHECK(cores.size() >= 3);
  // Any kernel: a GELU run whose bus fills up (2, 1.25, 1 ms: s = 0.25 / 0.8125 = 4/13), rows
  // in any order.
  const json gelu = json::array({scaling_row("gelu", 4, 1 << 20, 1),
                                 scaling_row("gelu", 1, 1 << 20, 2),
                                 scaling_row("gelu", 2, 1 << 20, 1.25)});
  const double p = param(exercise_variant(kMyScaling, 3), "cores");
  const double s = amdahl(4.0 / 13, p);
  CHECK(grade_exercise(kMyScaling, 3, answer({s, 2 / s}, gelu)).at("correct") == true);
  // A superlinear run clamps the serial fraction to 0: the ideal p×.
  json superlinear = rows;
  superlinear[2] = scaling_row("matmul", 4, 256, 9);
  superlinear[1] = scaling_row("matmul", 2, 256, 19);
  CHECK(grade_exercise(kMyScaling, 3, answer({p, 40 / p}, superlinear)).at("correct") == true);
}

TEST_CASE("parallel-my-scaling recomputes from the medians, not from figures beside them") {
  // The page puts core's speedup, Karp-Flatt and fit beside each row; forged ones change nothing.
  json rows = matmul_rows();
  for (auto& row : rows) {
    row["speedup"] = row["threads"];
    row["karp_flatt"] = 0;
    row["fitted_speedup"] = row["threads"];
  }
  const double p = param(exercise_variant(kMyScaling, 7), "cores");
  const double speedup = amdahl(kMatmulSerial, p);
  CHECK(grade_exercise(kMyScaling, 7, answer({speedup, 40 / speedup}, rows)).at("correct") == true);
  CHECK(grade_exercise(kMyScaling, 7, answer({p, 40 / p}, rows)).at("correct") == false);
}

// Natively only: in the wasm build the kernel engine is the page's JS engine, which this
// binary has not (tests/wasm/parallel.test.mjs measures through it).
#if !defined(__EMSCRIPTEN__)
TEST_CASE("parallel-my-scaling accepts rows as core's kernel engine measures them") {
  // The native engine's run at 1 thread and, where this machine has a second core, 2: what the
  // page sends. Its times are not asserted; the answer is worked out by hand from its medians.
  const unsigned most = std::min(2u, kernel_engine().facts().max_threads);
  json rows = json::array();
  for (unsigned t = 1; t <= most; ++t) {
    rows.push_back(to_json(measure_parallel_matmul("simd", t, 64, timer_test::tiny_timer())));
  }
  const double p = param(exercise_variant(kMyScaling, 5), "cores");
  if (most < 2) {
    CHECK_THROWS_AS(grade_exercise(kMyScaling, 5, answer({p, 1}, rows)), ValueError);
    return;
  }
  // Two points: the fit passes through the 2-thread one, s = 2·(T2/T1) − 1 clamped to [0, 1].
  const double t1 = rows[0].at("stats").at("median_ms").get<double>();
  const double t2 = rows[1].at("stats").at("median_ms").get<double>();
  const double s = std::clamp(2 * t2 / t1 - 1, 0.0, 1.0);
  const double speedup = amdahl(s, p);
  CHECK(grade_exercise(kMyScaling, 5, answer({speedup, t1 / speedup}, rows)).at("correct") == true);
}
#endif

TEST_CASE("parallel-my-scaling refuses a run core could not have measured, saying what to run") {
  const auto refused = [](const json& rows) {
    return grade_exercise(kMyScaling, 7, answer({10, 4}, rows));
  };
  SUBCASE("a median edited after the measurement, its rate left as measured") {
    json rows = matmul_rows();
    rows[2]["stats"]["median_ms"] = 10.0;  // 4 threads made to look faster
    CHECK_THROWS_WITH_AS(
        refused(rows),
        "answer.evidence.rows[2] does not hold together: its flops over its stats.median_ms "
        "(10 ms) make 3.3554432 GFLOP/s, but its gflops_per_s is 2.796202667; core's measurement "
        "writes both from one median, so this row was changed after it was measured: run the "
        "thread-scaling experiment again",
        ValueError);
  }
  SUBCASE("a matmul whose result failed the verification") {
    json rows = matmul_rows();
    rows[1]["max_error"] = 0.01;
    CHECK_THROWS_WITH_AS(refused(rows),
                         "answer.evidence.rows[1].max_error is 0.01, outside the verification's "
                         "tolerance (0.0001), so its time is not of a correct matmul; run the "
                         "thread-scaling experiment again",
                         ValueError);
  }
  SUBCASE("more threads than any engine runs, or a fraction of a thread") {
    json rows = matmul_rows();
    rows[2] = scaling_row("matmul", kMaxEngineThreads + 1, 256, 5);
    CHECK_THROWS_WITH_AS(refused(rows),
                         ("answer.evidence.rows[2].threads is " +
                          std::to_string(kMaxEngineThreads + 1) +
                          ": a run measures whole thread counts from 1 to " +
                          std::to_string(kMaxEngineThreads) +
                          "; run the thread-scaling experiment again")
                             .c_str(),
                         ValueError);
    rows[2] = scaling_row("matmul", 2.5, 256, 15);
    CHECK_THROWS_WITH_AS(refused(rows),
                         ("answer.evidence.rows[2].threads is 2.5: a run measures whole thread "
                          "counts from 1 to " +
                          std::to_string(kMaxEngineThreads) +
                          "; run the thread-scaling experiment again")
                             .c_str(),
                         ValueError);
  }
  SUBCASE("a thread count twice") {
    json rows = matmul_rows();
    rows[2] = scaling_row("matmul", 2, 256, 20);
    CHECK_THROWS_WITH_AS(refused(rows),
                         "your run of the thread-scaling experiment has 2 threads twice; a run "
                         "measures each thread count once: run it again",
                         ValueError);
  }
  SUBCASE("no 1-thread time, or nothing but it") {
    json rows = matmul_rows();
    rows.erase(rows.begin());
    CHECK_THROWS_WITH_AS(refused(rows),
                         "your run of the thread-scaling experiment has 2 and 4 threads; a fit "
                         "needs 1 thread and at least one more count: run it with 1 and 2 "
                         "threads or more",
                         ValueError);
    // A page that is not cross-origin isolated runs 1 thread only.
    const json one = json::array({scaling_row("matmul", 1, 256, 40)});
    CHECK_THROWS_WITH_AS(refused(one),
                         "your run of the thread-scaling experiment has 1 thread; a fit needs 1 "
                         "thread and at least one more count: run it with 1 and 2 threads or more",
                         ValueError);
  }
  SUBCASE("rows of two runs") {
    json mixed = matmul_rows();
    mixed[2]["flavour"] = "fma";
    CHECK_THROWS_WITH_AS(refused(mixed),
                         "your rows of the thread-scaling experiment come from more than one "
                         "setup (matmul, fma, n = 256; matmul, simd, n = 256); a run measures one "
                         "kernel, flavour and size at each thread count: send the rows of one run",
                         ValueError);
    json kernels = matmul_rows();
    kernels.push_back(scaling_row("gelu", 8, 1 << 20, 1));
    CHECK_THROWS_AS(refused(kernels), ValueError);
  }
  SUBCASE("a row without its timing") {
    json rows = matmul_rows();
    rows[0].erase("stats");
    CHECK_THROWS_WITH_AS(refused(rows),
                         "answer.evidence.rows[0] has no \"stats\" object; rows of "
                         "acceleration-thread-scaling carry their timing there (this exercise "
                         "reads kernel, flavour, n, threads, max_error, flops, gflops_per_s and "
                         "stats.median_ms of each row): "
                         "send the rows of that experiment as they are",
                         ValueError);
    rows = matmul_rows();
    rows[1]["stats"]["median_ms"] = 0;
    CHECK_THROWS_WITH_AS(refused(rows),
                         "answer.evidence.rows[1].stats.median_ms must be a finite number above "
                         "0, got 0; run the thread-scaling experiment again",
                         ValueError);
  }
  SUBCASE("no evidence, or another experiment's") {
    CHECK_THROWS_AS(grade_exercise(kMyScaling, 7, {{"values", {10, 4}}}), ValueError);
    json other = answer({10, 4}, matmul_rows());
    other["evidence"]["experiment"] = "acceleration-roofline";
    CHECK_THROWS_AS(grade_exercise(kMyScaling, 7, other), ValueError);
  }
}

TEST_CASE("the parallelism exercises are the chapter's and their feedback hides the answer") {
  for (const char* id : {kAmdahl, kBandwidth, kMyScaling}) {
    const Exercise& e = find_exercise(id);
    CHECK(e.chapter == "acceleration");
    CHECK(e.feedback_hides_answer);
    CHECK(e.hints.size() >= 2);
    CHECK(contains(scoring_text(e), "not which way a number is off"));
  }
  // The choice redraws on every try, so trying the four choices does not pay.
  CHECK(find_exercise(kSlowdown).chapter == "acceleration");
  CHECK(find_exercise(kSlowdown).choices.size() == kMinChoices);
  CHECK(find_exercise(kMyScaling).evidence.experiment == "acceleration-thread-scaling");
}
