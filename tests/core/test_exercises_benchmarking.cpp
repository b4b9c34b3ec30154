// Protects the Benchmarking chapter's exercises: every expected answer is recomputed here
// independently of stats/ from the variant's own parameters (mean, s with n − 1, the z and t
// intervals, the linear rule, Tukey's fences, U and Cliff's delta by counting pairs, the
// timer's batching rule); right answers score full points and plausible mistakes do not;
// the code exercises' hidden tests hold what a correct JavaScript solution returns (mulberry32
// pinned to values printed by Node); and the experiment-backed exercises are graded from the
// raw samples of the rows, with errors that say what to run.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/stats/compare.hpp"

using namespace perflab;
using exercise_test::choice_starting_with;
using exercise_test::contains;
using nlohmann::json;

namespace {

constexpr std::uint32_t kSeeds = 30;

std::vector<double> samples_of(const json& variant, const char* name = "samples_ms") {
  return variant.at("params").at(name).get<std::vector<double>>();
}

json grade_values(const char* id, std::uint32_t seed, const std::vector<double>& values) {
  return grade_exercise(id, seed, {{"values", values}});
}

double mean_of(const std::vector<double>& x) {
  return std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

// Sample standard deviation, dividing by n − 1 (or by n when `population`).
double std_of(const std::vector<double>& x, bool population = false) {
  const double m = mean_of(x);
  double ss = 0;
  for (double v : x) ss += (v - m) * (v - m);
  return std::sqrt(ss / static_cast<double>(x.size() - (population ? 0 : 1)));
}

// The linear rule, written out: sorted x, h = (n − 1)·p/100.
double linear_percentile(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const double h = static_cast<double>(x.size() - 1) * p / 100.0;
  const auto k = static_cast<std::size_t>(std::floor(h));
  if (k + 1 >= x.size()) return x.back();
  return x[k] + (h - static_cast<double>(k)) * (x[k + 1] - x[k]);
}

// The nearest-rank rule: a common mistake for the linear rule.
double nearest_rank(std::vector<double> x, double p) {
  std::sort(x.begin(), x.end());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * static_cast<double>(x.size())));
  return x[std::max<std::size_t>(rank, 1) - 1];
}

// mulberry32 as the starter code's JavaScript computes it (a second copy, so a slip in the
// bank's would show).
struct JsRng {
  std::uint32_t a;
  double operator()() {
    a += 0x6D2B79F5u;
    std::uint32_t t = (a ^ (a >> 15)) * (1u | a);
    t = (t + ((t ^ (t >> 7)) * (61u | t))) ^ t;
    return static_cast<double>(t ^ (t >> 14)) / 4294967296.0;
  }
};

double median_of(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const std::size_t n = x.size();
  return n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

// The recipe of bootstrapCI as a student writes it.
json student_bootstrap(const std::vector<double>& xs, std::uint32_t seed,
                       bool median_first = false) {
  JsRng rng{seed};
  std::vector<double> medians;
  for (int r = 0; r < 1000; ++r) {
    std::vector<double> resample;
    for (std::size_t i = 0; i < xs.size(); ++i) {
      resample.push_back(
          xs[static_cast<std::size_t>(std::floor(rng() * static_cast<double>(xs.size())))]);
    }
    medians.push_back(median_first ? resample.front() : median_of(resample));
  }
  return json::array({linear_percentile(medians, 2.5), linear_percentile(medians, 97.5)});
}

json student_schedule(int rounds, std::uint32_t seed) {
  std::vector<json> out;
  for (int r = 0; r < rounds / 2; ++r) out.push_back({"A", "B"});
  for (int r = 0; r < rounds / 2; ++r) out.push_back({"B", "A"});
  JsRng rng{seed};
  for (int i = rounds - 1; i > 0; --i) {
    const auto j = static_cast<std::size_t>(std::floor(rng() * (i + 1)));
    std::swap(out[static_cast<std::size_t>(i)], out[j]);
  }
  return json(out);
}

// The classifier as the prompt describes it, written independently of stats/complexity.
std::string student_classify(const std::vector<double>& sizes, const std::vector<double>& times) {
  const char* names[] = {"1", "log n", "n", "n log n", "n^2", "n^3"};
  const auto g = [](int c, double n) {
    switch (c) {
      case 0:
        return 1.0;
      case 1:
        return std::log2(n);
      case 2:
        return n;
      case 3:
        return n * std::log2(n);
      case 4:
        return n * n;
      default:
        return n * n * n;
    }
  };
  int best = 0;
  double best_rms = HUGE_VAL;
  for (int c = 0; c < 6; ++c) {
    double tg = 0, gg = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      tg += times[i] * g(c, sizes[i]);
      gg += g(c, sizes[i]) * g(c, sizes[i]);
    }
    const double coef = tg / gg;
    double ss = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      const double r = times[i] - coef * g(c, sizes[i]);
      ss += r * r;
    }
    const double rms = std::sqrt(ss / static_cast<double>(sizes.size()));
    if (rms < best_rms) {
      best_rms = rms;
      best = c;
    }
  }
  return names[best];
}

json evidence(const char* experiment, json rows) {
  return {{"experiment", experiment}, {"rows", std::move(rows)}};
}

json ab_row(std::vector<double> a, std::vector<double> b, std::uint64_t seed,
            const char* mode = "interleaved", const char* va = "naive", const char* vb = "naive") {
  return {{"repeat", 0},
          {"op", "matmul"},
          {"variant_a", va},
          {"variant_b", vb},
          {"n", 64},
          {"mode", mode},
          {"a_ms", std::move(a)},
          {"b_ms", std::move(b)},
          // The page's verdict, deliberately wrong: core must not read it.
          {"comparison", {{"seed", seed}, {"verdict", {{"name", "slower"}}}, {"ratio", 99}}}};
}

json complexity_row(const char* op, const char* variant, double n, std::vector<double> samples) {
  return {{"op", op}, {"variant", variant}, {"n", n}, {"samples_ms", std::move(samples)}};
}

}  // namespace

TEST_CASE("batching: a sample lasts max(100 ticks, 1 ms) and holds the calls rounded up") {
  std::set<std::int64_t> resolutions;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.batching", seed);
    const auto resolution_ns = v.at("params").at("resolution_us").get<std::int64_t>() * 1000;
    const auto call_ns = std::llround(v.at("params").at("call_us").get<double>() * 1000);
    resolutions.insert(resolution_ns);
    const std::int64_t target_ns = std::max<std::int64_t>(100 * resolution_ns, 1'000'000);
    const std::int64_t calls = (target_ns + call_ns - 1) / call_ns;
    CAPTURE(v.at("prompt"));
    CHECK(contains(v.at("prompt"), "at least 100 ticks of the clock, and at least 1 ms"));
    const json right =
        grade_values("benchmarking.batching", seed,
                     {static_cast<double>(target_ns) / 1e6, static_cast<double>(calls)});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    // Ignoring the 1 ms floor, or the 100-tick rule, is wrong in one part or the other.
    const double ticks_only_ms = 100.0 * static_cast<double>(resolution_ns) / 1e6;
    const double floor_only_ms = 1.0;
    const double wrong_ms =
        ticks_only_ms == static_cast<double>(target_ns) / 1e6 ? floor_only_ms : ticks_only_ms;
    if (wrong_ms != static_cast<double>(target_ns) / 1e6) {
      CHECK(grade_values("benchmarking.batching", seed, {wrong_ms, static_cast<double>(calls)})
                .at("parts")[0]
                .at("correct") == false);
    }
  }
  CHECK(resolutions == std::set<std::int64_t>{5'000, 100'000, 1'000'000});
  // By hand: 100 µs ticks → 100 × 0.1 ms = 10 ms per sample; a 0.3 µs call → 33,334 calls
  // (33,333 would last 9.9999 ms).
  bool found = false;
  for (std::uint32_t seed = 0; seed < 5000 && !found; ++seed) {
    const json v = exercise_variant("benchmarking.batching", seed);
    if (v.at("params").at("resolution_us") != 100 || v.at("params").at("call_us") != 0.3) continue;
    found = true;
    CHECK(grade_values("benchmarking.batching", seed, {10, 33334}).at("correct") == true);
    CHECK(grade_values("benchmarking.batching", seed, {10, 33333}).at("correct") == false);
  }
  CHECK(found);
}

TEST_CASE("summary-interval: mean, s with n − 1 and mean ± 1.96·s/√n of the drawn sample") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.summary-interval", seed);
    const std::vector<double> x = samples_of(v);
    REQUIRE(x.size() == v.at("params").at("n").get<std::size_t>());
    const double m = mean_of(x);
    const double s = std_of(x);
    const double half = 1.96 * s / std::sqrt(static_cast<double>(x.size()));
    const json right =
        grade_values("benchmarking.summary-interval", seed, {m, s, m - half, m + half});
    CAPTURE(v.dump());
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(15));
    // Rounded to two decimals, as a student types them, still right.
    const auto r2 = [](double y) { return std::round(y * 100) / 100; };
    CHECK(grade_values("benchmarking.summary-interval", seed,
                       {r2(m), r2(s), r2(m - half), r2(m + half)})
              .at("correct") == true);
    // The population standard deviation (dividing by n) is wrong.
    const json population = grade_values("benchmarking.summary-interval", seed,
                                         {m, std_of(x, true), m - half, m + half});
    CHECK(population.at("parts")[1].at("correct") == false);
    CHECK(population.at("score") == doctest::Approx(15.0 * 3 / 4));
    // The interval of a single value (1.96·s, no √n) is wrong.
    CHECK(grade_values("benchmarking.summary-interval", seed, {m, s, m - 1.96 * s, m + 1.96 * s})
              .at("correct") == false);
  }
}

TEST_CASE("percentile: the linear rule on the drawn sample, not the nearest rank") {
  std::set<double> ps;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.percentile", seed);
    const std::vector<double> x = samples_of(v);
    const double p = v.at("params").at("p").get<double>();
    ps.insert(p);
    CAPTURE(v.dump());
    CHECK(contains(v.at("prompt"), "h = (n − 1)·p/100"));
    const json right =
        grade_exercise("benchmarking.percentile", seed, {{"value", linear_percentile(x, p)}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 10);
    CHECK(grade_exercise("benchmarking.percentile", seed, {{"value", nearest_rank(x, p)}})
              .at("correct") == false);
  }
  CHECK(ps.size() >= 4);
  // By hand: 10 values 1..10, p = 90: h = 9·0.9 = 8.1, so 9 + 0.1·(10 − 9) = 9.1.
  std::vector<double> ten(10);
  std::iota(ten.begin(), ten.end(), 1.0);
  CHECK(linear_percentile(ten, 90) == doctest::Approx(9.1));
}

TEST_CASE("mean-or-median: the median for a typical call, the mean for a total over many calls") {
  // Which statistic answers each question of the pool, by hand.
  const std::vector<std::pair<std::string, bool>> questions = {
      {"time of a typical call", false}, {"how long does a click usually wait", false},
      {"whether a typical call got slower", false}, {"best predicts the job's total time", true},
      {"how many calls it completes", true}, {"How much CPU time will", true}};
  std::set<int> answers;
  std::set<std::string> asked;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    std::set<std::string> asked_of_seed;
    for (int attempt = 1; attempt <= 3; ++attempt) {
      const json v = choice_variant("benchmarking.mean-or-median", seed, attempt);
      const std::vector<double> x = samples_of(v);
      const std::string prompt = v.at("prompt");
      CAPTURE(prompt);
      // The numbers in the prompt are the sample's median and mean (two decimals).
      char text[96];
      std::snprintf(text, sizeof text, "The median is %.10g ms and the mean %.10g ms.",
                    median_of(x), std::round(mean_of(x) * 100) / 100);
      CHECK(contains(prompt, text));
      // Question (1) comes before "(2)" in the prompt.
      const std::size_t second_at = prompt.find("(2) ");
      REQUIRE(second_at != std::string::npos);
      int right = 0;
      int found = 0;
      for (const auto& [question, mean] : questions) {
        const std::size_t at = prompt.find(question);
        if (at == std::string::npos) continue;
        ++found;
        asked.insert(question);
        asked_of_seed.insert(question);
        if (mean) right += at < second_at ? 2 : 1;
      }
      REQUIRE(found == 2);
      answers.insert(right);
      for (int c = 0; c < 4; ++c) {
        CHECK(grade_exercise("benchmarking.mean-or-median", seed, {{"choice", c}, {"attempt", attempt}})
                  .at("correct") == (c == right));
      }
    }
    CHECK(asked_of_seed.size() == 6);  // three tries, six different questions
  }
  CHECK(answers.size() == 4);
  CHECK(asked.size() == questions.size());
}

TEST_CASE("tukey-fences: Q3 + 1.5·IQR by the linear rule, and the values above it") {
  std::set<int> counts;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.tukey-fences", seed);
    const std::vector<double> x = samples_of(v);
    const double q1 = linear_percentile(x, 25), q3 = linear_percentile(x, 75);
    const double fence = q3 + 1.5 * (q3 - q1);
    const auto above =
        static_cast<int>(std::count_if(x.begin(), x.end(), [&](double y) { return y > fence; }));
    counts.insert(above);
    CAPTURE(v.dump());
    const json right =
        grade_values("benchmarking.tukey-fences", seed, {fence, static_cast<double>(above)});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    // 3·IQR (the "far out" fence) is another fence.
    CHECK(grade_values("benchmarking.tukey-fences", seed,
                       {q3 + 3 * (q3 - q1), static_cast<double>(above)})
              .at("parts")[0]
              .at("correct") == false);
    CHECK(grade_values("benchmarking.tukey-fences", seed, {fence, static_cast<double>(above + 1)})
              .at("parts")[1]
              .at("correct") == false);
  }
  CHECK(counts.size() >= 2);
}

TEST_CASE("t-or-z: at n = 5 the factor is t(0.975, 4) = 2.776, and the interval uses it") {
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.t-or-z", seed);
    const std::vector<double> x = samples_of(v);
    REQUIRE(x.size() == 5);
    const double m = mean_of(x), s = std_of(x);
    // t(0.975, 4) from a printed table (DESIGN.md checks Boost's 2.776445 against it).
    const double t = 2.776445;
    const double half = t * s / std::sqrt(5.0);
    CAPTURE(v.dump());
    const json right = grade_values("benchmarking.t-or-z", seed, {t, m - half, m + half});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    CHECK(grade_values("benchmarking.t-or-z", seed, {2.776, m - half, m + half}).at("correct") ==
          true);
    // z's 1.96 and its narrower interval are wrong.
    const double z_half = 1.96 * s / std::sqrt(5.0);
    const json z = grade_values("benchmarking.t-or-z", seed, {1.96, m - z_half, m + z_half});
    CHECK(z.at("parts")[0].at("correct") == false);
    CHECK(z.at("parts")[1].at("correct") == false);
    CHECK(z.at("parts")[2].at("correct") == false);
  }
}

TEST_CASE("mulberry32 in core's tests matches JavaScript's, value for value") {
  // Printed by Node from the starter code's mulberry32.
  JsRng one{1};
  CHECK(one() == 0.62707394058816135);
  CHECK(one() == 0.0027357211802154779);
  CHECK(one() == 0.52744703995995224);
  JsRng big{2147483647};
  CHECK(big() == 0.42909808852709830);
  CHECK(big() == 0.12713524978607893);
  JsRng answer{42};
  CHECK(answer() * 4294967296.0 == 2581720956.0);
  CHECK(answer() * 4294967296.0 == 1925393290.0);
}

TEST_CASE("bootstrapCI's hidden tests hold what the recipe returns in JavaScript") {
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const json v = exercise_variant("benchmarking.bootstrap-ci", seed);
    REQUIRE(v.at("tests").size() == 6);
    json right = json::array(), wrong = json::array();
    for (const auto& test : v.at("tests")) {
      const auto xs = test.at("args")[0].get<std::vector<double>>();
      const auto s = test.at("args")[1].get<std::uint32_t>();
      right.push_back({{"value", student_bootstrap(xs, s)}});
      wrong.push_back({{"value", student_bootstrap(xs, s, true)}});
    }
    const json g = grade_exercise("benchmarking.bootstrap-ci", seed, {{"results", right}});
    CAPTURE(g.dump());
    CHECK(g.at("correct") == true);
    CHECK(g.at("score") == doctest::Approx(15));
    // The first value of each resample instead of its median: the one-value test still passes.
    const json bad = grade_exercise("benchmarking.bootstrap-ci", seed, {{"results", wrong}});
    CHECK(bad.at("correct") == false);
    CHECK(bad.at("feedback") == "1 of 6 tests passed.");
    // One time: every resample is that time, so the interval is [x, x].
    const json& one = v.at("tests")[4];  // "one time", a hidden test
    CHECK(one.at("name") == "hidden test 3");
    CHECK(student_bootstrap({one.at("args")[0][0].get<double>()}, 7) ==
          json::array({one.at("args")[0][0], one.at("args")[0][0]}));
  }
  CHECK(find_exercise("benchmarking.bootstrap-ci").starter_code.find("function mulberry32(a)") !=
        std::string::npos);
  CHECK(contains(find_exercise("benchmarking.bootstrap-ci").prompt, "draw 1000 resamples"));
}

TEST_CASE("ratio-interval: contains 1, beyond the threshold either way, or negligible") {
  std::set<std::string> answers;
  for (std::uint32_t seed = 0; seed < 60; ++seed) {
    const json v = exercise_variant("benchmarking.ratio-interval", seed);
    const double ratio = v.at("params").at("ratio"), low = v.at("params").at("low"),
                 high = v.at("params").at("high");
    CAPTURE(v.dump());
    CHECK(low < ratio);
    CHECK(ratio < high);
    CHECK(contains(v.at("prompt"), "The noise threshold is 2%"));
    std::string prefix;
    if (low <= 1 && 1 <= high) {
      prefix = "No significant difference";
    } else if (ratio > 1.02) {
      prefix = "B is faster";
    } else if (1 / ratio > 1.02) {
      prefix = "B is slower";
    } else {
      prefix = "A real but negligible";
    }
    answers.insert(prefix);
    const int right = choice_starting_with(v, prefix);
    for (int c = 0; c < 4; ++c) {
      CHECK(grade_exercise("benchmarking.ratio-interval", seed, {{"choice", c}}).at("correct") ==
            (c == right));
    }
  }
  CHECK(answers.size() == 4);
}

TEST_CASE("mann-whitney: U of A and Cliff's delta by counting pairs") {
  // By hand: A = 3, 5, 7 and B = 4, 5. Pairs with b < a: (5, 4), (7, 4), (7, 5) = 3, and the
  // tie (5, 5) counts ½: U = 3.5. Pairs with b > a: (3, 4), (3, 5) = 2, so δ = (2 − 3)/6.
  CHECK(mann_whitney_u({3, 5, 7}, {4, 5}).u == 3.5);
  CHECK(cliffs_delta({3, 5, 7}, {4, 5}) == doctest::Approx(-1.0 / 6));
  bool saw_tie = false;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant("benchmarking.mann-whitney", seed);
    const std::vector<double> a = samples_of(v, "a_ms"), b = samples_of(v, "b_ms");
    double below = 0, above = 0, ties = 0;
    for (double x : a) {
      for (double y : b) {
        below += y < x;
        above += y > x;
        ties += y == x;
      }
    }
    saw_tie = saw_tie || ties > 0;
    const double pairs = static_cast<double>(a.size() * b.size());
    const double u = below + ties / 2;
    CAPTURE(v.dump());
    const json right =
        grade_values("benchmarking.mann-whitney", seed, {u, (above - below) / pairs});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(15));
    // U of B instead of U of A, and δ with the sign flipped, are wrong (unless they coincide).
    if (pairs - u != u) {
      CHECK(grade_values("benchmarking.mann-whitney", seed, {pairs - u, (above - below) / pairs})
                .at("parts")[0]
                .at("correct") == false);
    }
    if (above != below) {
      CHECK(grade_values("benchmarking.mann-whitney", seed, {u, (below - above) / pairs})
                .at("parts")[1]
                .at("correct") == false);
    }
  }
  CHECK(saw_tie);
}

TEST_CASE("interleavedSchedule's hidden tests are balanced, shuffled and what the recipe returns") {
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const json v = exercise_variant("benchmarking.interleaved-schedule", seed);
    REQUIRE(v.at("tests").size() == 5);
    json right = json::array(), alternating = json::array();
    for (const auto& test : v.at("tests")) {
      const int rounds = test.at("args")[0];
      const auto s = test.at("args")[1].get<std::uint32_t>();
      const json schedule = student_schedule(rounds, s);
      // Balanced: A first in exactly half the rounds; each round runs both once.
      int a_first = 0;
      for (const auto& round : schedule) {
        CHECK((round == json{"A", "B"} || round == json{"B", "A"}));
        a_first += round[0] == "A";
      }
      CHECK(a_first * 2 == rounds);
      right.push_back({{"value", schedule}});
      json alt = json::array();
      for (int r = 0; r < rounds; ++r) alt.push_back(r % 2 == 0 ? json{"A", "B"} : json{"B", "A"});
      alternating.push_back({{"value", alt}});
    }
    CHECK(v.at("tests")[3].at("args")[0] == 30);
    CHECK(v.at("tests")[4].at("args")[0] == 0);
    const json g = grade_exercise("benchmarking.interleaved-schedule", seed, {{"results", right}});
    CHECK(g.at("correct") == true);
    CHECK(g.at("score") == doctest::Approx(10));
    // Balanced but not shuffled (A B, B A, A B, ...): only the empty schedule matches.
    const json bad =
        grade_exercise("benchmarking.interleaved-schedule", seed, {{"results", alternating}});
    CHECK(bad.at("correct") == false);
  }
  // Shuffled: two seeds give two different 30-round schedules.
  CHECK(student_schedule(30, 1) != student_schedule(30, 2));
}

TEST_CASE(
    "classify's hidden tests cover every class once, each clearly the best least-squares fit") {
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const json v = exercise_variant("benchmarking.classify-complexity", seed);
    REQUIRE(v.at("tests").size() == 6);
    json right = json::array(), always_n = json::array();
    std::set<std::string> classes;
    for (const auto& test : v.at("tests")) {
      const auto sizes = test.at("args")[0].get<std::vector<double>>();
      const auto times = test.at("args")[1].get<std::vector<double>>();
      const std::string label = student_classify(sizes, times);
      classes.insert(label);
      right.push_back({{"value", label}});
      always_n.push_back({{"value", "n"}});
      // The name does not give the class away (the first two are public examples).
      const std::size_t k = always_n.size();
      CHECK(test.at("name") ==
            (k <= 2 ? "data set " + std::to_string(k) : "hidden test " + std::to_string(k - 2)));
    }
    CHECK(classes == std::set<std::string>{"1", "log n", "n", "n log n", "n^2", "n^3"});
    const json g = grade_exercise("benchmarking.classify-complexity", seed, {{"results", right}});
    CAPTURE(g.dump());
    CHECK(g.at("correct") == true);
    CHECK(g.at("score") == doctest::Approx(15));
    const json bad =
        grade_exercise("benchmarking.classify-complexity", seed, {{"results", always_n}});
    CHECK(bad.at("feedback") == "1 of 6 tests passed.");
  }
}

TEST_CASE("aa-false-positives counts what the rank test and the interval each call alone") {
  const char* id = "benchmarking.aa-false-positives";
  const std::vector<double> same = {10, 11, 12, 13, 14, 15};
  // Every b below every a: Mann-Whitney's exact p = 2/924, ratio 22.5/12.5 = 1.8, its interval
  // above 1: both call it.
  const std::vector<double> slow = {20, 21, 22, 23, 24, 25};
  // B 1% faster in every pair, the ranks interleaved: the rank test does not call it.
  const std::vector<double> shifted = {9.9, 10.89, 11.88, 12.87, 13.86, 14.85};
  CompareOptions options;
  options.seed = 1;
  const Comparison slight = compare_samples(same, shifted, options);
  REQUIRE(slight.mann_whitney.p_value > 0.05);
  const json rows =
      json::array({ab_row(same, same, 1), ab_row(slow, same, 1), ab_row(same, same, 7)});
  const json ev = evidence("benchmarking-aa", rows);
  const json g = grade_exercise(id, 3, {{"values", {1, 1}}, {"evidence", ev}});
  CHECK(g.at("correct") == true);
  CHECK(g.at("score") == 15);
  // The page's verdicts (all "slower" in these rows) are not what is counted.
  CHECK(grade_exercise(id, 3, {{"values", {3, 3}}, {"evidence", ev}}).at("correct") == false);
  // Right or wrong only: nothing to bisect on.
  const json wrong = grade_exercise(id, 3, {{"values", {0, 1}}, {"evidence", ev}});
  CHECK(wrong.at("score") == doctest::Approx(7.5));
  CHECK(wrong.at("parts")[0].at("feedback").get<std::string>().find("Too") == std::string::npos);
  // Both directions count.
  const json both =
      evidence("benchmarking-aa", json::array({ab_row(slow, same, 1), ab_row(same, slow, 1)}));
  CHECK(grade_exercise(id, 3, {{"values", {2, 2}}, {"evidence", both}}).at("correct") == true);
  // The interval alone: counted in the second part when it excludes 1, whatever p says.
  const json interval_only = evidence("benchmarking-aa", json::array({ab_row(same, shifted, 1)}));
  const double excludes = slight.ratio_interval.low > 1 || slight.ratio_interval.high < 1 ? 1 : 0;
  CHECK(grade_exercise(id, 3, {{"values", {0, excludes}}, {"evidence", interval_only}})
            .at("correct") == true);

  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 3, {{"values", {1, 1}}}),
      "answer.evidence is missing: run the A/A experiment (benchmarking-aa) on this page first; "
      "this exercise is graded from a_ms and b_ms of every row in your own run",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 3, {{"values", {1, 1}}, {"evidence", evidence("benchmarking-ab", rows)}}),
      "answer.evidence.experiment must be \"benchmarking-aa\", got \"benchmarking-ab\"",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 3,
                     {{"values", {1, 1}},
                      {"evidence",
                       evidence("benchmarking-aa", json::array({ab_row(same, {1, 2, 3, 4}, 1)}))}}),
      "answer.evidence.rows[0].b_ms has 4 samples; this exercise needs at least 5: run the A/A "
      "experiment with 5 rounds or more",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 3,
                     {{"values", {1, 1}},
                      {"evidence",
                       evidence("benchmarking-aa", json::array({ab_row(same, same, 1, "interleaved",
                                                                       "naive", "blocked")}))}}),
      "answer.evidence.rows[0] compares variant naive with blocked; an A/A run compares a "
      "variant with itself: run the A/A experiment again",
      ValueError);
  json no_seed = ab_row(same, same, 1);
  no_seed["comparison"].erase("seed");
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 3, {{"values", {1, 1}}, {"evidence", evidence("benchmarking-aa", json::array({no_seed}))}}),
      "answer.evidence.rows[0].comparison.seed must be an integer from 0 to 2^53 − 1 (the seed "
      "core's comparison reports), got null; run the A/A experiment again",
      ValueError);
  json no_samples = ab_row(same, same, 1);
  no_samples.erase("a_ms");
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 3,
          {{"values", {1, 1}}, {"evidence", evidence("benchmarking-aa", json::array({no_samples}))}}),
      "answer.evidence.rows[0] has no field \"a_ms\"; rows of benchmarking-aa carry it (this "
      "exercise reads a_ms and b_ms of every row): send the rows of that experiment as they are",
      ValueError);
  json bad_value = ab_row(same, same, 1);
  bad_value["a_ms"][2] = nullptr;
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 3,
          {{"values", {1, 1}}, {"evidence", evidence("benchmarking-aa", json::array({bad_value}))}}),
      "answer.evidence.rows[0].a_ms[2] must be a finite number >= 0, got null; run the A/A "
      "experiment again",
      ValueError);
}

TEST_CASE("complexity-slope gives the local slopes between the two smallest and two largest sizes") {
  const char* id = "benchmarking.complexity-slope";
  // Medians 2·(N/64)³ ms exactly: slope 3. Other kernels' rows are left out.
  const auto samples = [](double n, double slope) {
    const double m = 2 * std::pow(n / 64, slope);
    return std::vector<double>{m * 0.9, m, m * 1.5};  // median m, the mean is not
  };
  const json rows = json::array({complexity_row("matmul", "naive", 64, samples(64, 3)),
                                 complexity_row("gelu", "fused", 1 << 20, samples(64, 1)),
                                 complexity_row("matmul", "naive", 128, samples(128, 3)),
                                 complexity_row("matmul", "blocked", 256, samples(256, 2)),
                                 complexity_row("matmul", "naive", 256, samples(256, 3))});
  const json ev = evidence("benchmarking-complexity", rows);
  CHECK(grade_exercise(id, 1, {{"values", {3, 3}}, {"evidence", ev}}).at("correct") == true);
  CHECK(grade_exercise(id, 1, {{"values", {3.05, 2.96}}, {"evidence", ev}}).at("correct") == true);
  CHECK(grade_exercise(id, 1, {{"values", {2.9, 3}}, {"evidence", ev}}).at("correct") == false);
  CHECK(grade_exercise(id, 1, {{"values", {3, 3}}, {"evidence", ev}}).at("score") == 15);
  // Medians 1, 4 and 32 ms at N 32, 64, 128: local slopes ln 4 / ln 2 = 2 and ln 8 / ln 2 = 3,
  // whatever the fit over all three says; the sizes may come in any order.
  const json bending =
      evidence("benchmarking-complexity",
               json::array({complexity_row("matmul", "naive", 128, {31, 32, 40}),
                            complexity_row("matmul", "naive", 32, {0.9, 1, 1.2}),
                            complexity_row("matmul", "naive", 64, {3.9, 4, 4.4})}));
  const json g = grade_exercise(id, 1, {{"values", {2, 3}}, {"evidence", bending}});
  CHECK(g.at("correct") == true);
  // Right or wrong only: no "Too high" to bisect on.
  const json off = grade_exercise(id, 1, {{"values", {2.5, 3}}, {"evidence", bending}});
  CHECK(off.at("parts")[0].at("correct") == false);
  CHECK(off.at("parts")[0].at("feedback").get<std::string>().find("Too") == std::string::npos);

  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 1,
          {{"values", {3, 3}},
           {"evidence",
            evidence("benchmarking-complexity",
                     json::array({complexity_row("gelu", "fused", 1024, samples(64, 1)),
                                  complexity_row("matmul", "blocked", 64, samples(64, 3))}))}}),
      "your run of the complexity experiment has no rows of matmul naive (it has gelu fused, "
      "matmul blocked); run the complexity experiment with the naive matmul at three sizes or "
      "more first",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 1,
          {{"values", {3, 3}},
           {"evidence",
            evidence("benchmarking-complexity",
                     json::array({complexity_row("matmul", "naive", 64, samples(64, 3)),
                                  complexity_row("matmul", "naive", 128, samples(128, 3))}))}}),
      "your run of the complexity experiment has the naive matmul at 2 sizes (64, 128); run it "
      "at three sizes or more",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 1,
          {{"values", {3, 3}},
           {"evidence", evidence("benchmarking-complexity",
                                 json::array({complexity_row("matmul", "naive", 64, {1, 2})}))}}),
      "answer.evidence.rows[0].samples_ms has 2 samples; this exercise needs at least 3: run the "
      "complexity experiment with 3 samples per size or more",
      ValueError);
}

TEST_CASE("the capstone is graded from the interleaved row's rounds: paired ratios, wins, order") {
  const char* id = "benchmarking.ab-capstone";
  const std::vector<double> a = {12.1, 12.3, 12.5, 12.6, 12.9, 12.4, 12.7, 12.2};
  const std::vector<double> b = {9.8, 10.1, 10.0, 9.9, 13.0, 10.05, 9.95, 10.3};
  const std::vector<bool> a_first = {true, false, true, true, false, false, true, false};
  json interleaved = ab_row(a, b, 12345, "interleaved", "naive", "blocked");
  interleaved["a_first"] = a_first;
  // A sequential row first, with B slower: the exercise reads the interleaved one.
  const json rows = json::array({ab_row(b, a, 1, "sequential", "naive", "blocked"), interleaved});
  const json ev = evidence("benchmarking-ab", rows);
  // By hand: the ratios a/b, their median (the mean of the 4th and 5th of 8 sorted); B faster
  // in 7 rounds (not round 5); A first in rounds 1, 3, 4, 7: medians of {12.1, 12.5, 12.6,
  // 12.7} and {9.8, 10.0, 9.9, 9.95}.
  std::vector<double> ratios;
  for (std::size_t r = 0; r < a.size(); ++r) ratios.push_back(a[r] / b[r]);
  std::sort(ratios.begin(), ratios.end());
  const double paired = (ratios[3] + ratios[4]) / 2;
  const double led = ((12.5 + 12.6) / 2) / ((9.9 + 9.95) / 2);
  const auto answer = [&](double p, double wins, double order) {
    return grade_exercise(id, 8, {{"values", {p, wins, order}}, {"evidence", ev}});
  };
  const json right = answer(paired, 7, led);
  CHECK(right.at("correct") == true);
  CHECK(right.at("score") == 20);
  // The ratio of medians the page prints is not the paired one here, nor the order's.
  const double printed = median_of(a) / median_of(b);
  const json copied = answer(printed, 8, printed);
  CHECK(copied.at("parts")[1].at("correct") == false);
  CHECK(copied.at("parts")[2].at("correct") == false);
  CHECK(copied.at("parts")[2].at("feedback").get<std::string>().find("Too") == std::string::npos);

  json no_order = interleaved;
  no_order.erase("a_first");
  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 8,
                     {{"values", {1, 1, 1}},
                      {"evidence", evidence("benchmarking-ab", json::array({no_order}))}}),
      "answer.evidence.rows[0] has no field \"a_first\"; rows of benchmarking-ab carry it (this "
      "exercise reads a_ms, b_ms and a_first of the row with mode interleaved): send the rows of "
      "that experiment as they are",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(id, 8,
                     {{"values", {1, 1, 1}},
                      {"evidence",
                       evidence("benchmarking-ab", json::array({ab_row(a, b, 1, "sequential")}))}}),
      "your run of the A/B experiment has no row with mode interleaved (it has sequential); run "
      "the A/B experiment with the interleaved mode first",
      ValueError);
  CHECK_THROWS_WITH_AS(
      grade_exercise(
          id, 8,
          {{"values", {1, 1, 1}},
           {"evidence", evidence("benchmarking-ab", json::array({ab_row({1, 2}, b, 1)}))}}),
      "answer.evidence.rows[0].a_ms has 2 samples; this exercise needs at least 5: run the A/B "
      "experiment with 5 rounds or more",
      ValueError);
  CHECK_THROWS_WITH_AS(grade_exercise(id, 8, {{"values", {1, 1, 1}}}),
                       "answer.evidence is missing: run the A/B experiment (benchmarking-ab) on "
                       "this page first; this exercise is graded from a_ms, b_ms and a_first of "
                       "the row with mode interleaved in your own run",
                       ValueError);
}

TEST_CASE("benchmarking variants are the same on every platform for a fixed seed") {
  // Pinned once from a native run; the wasm doctest build checks the same values, so a
  // student's page and the native re-grader draw identical samples and hidden tests.
  CHECK(exercise_variant("benchmarking.summary-interval", 42).at("params").at("samples_ms") ==
        json{15.15, 16.7, 16.09, 18.58, 15.01, 17.71, 14.52, 17.56, 16.14, 17.13});
  const json classify = exercise_variant("benchmarking.classify-complexity", 42).at("tests")[0];
  CHECK(classify.at("args")[0] == json{16, 32, 64, 128, 256, 512, 1024, 2048});
  CHECK(classify.at("args")[1] == json{407.9, 397.7, 425.9, 419.6, 401.8, 400, 406.6, 403.1});
  const json bootstrap = exercise_variant("benchmarking.bootstrap-ci", 42).at("tests")[0];
  CHECK(bootstrap.at("args") == json{{5.44, 4.45, 4.58, 4.53, 4.85, 4.45}, 1425407303});
  // The batching exercise draws two numbers for one product: pinned, as its draw once
  // depended on the compiler's order of operands.
  CHECK(exercise_variant("benchmarking.batching", 42).at("params") ==
        json{{"browser", "a cross-origin-isolated Chromium page"}, {"call_us", 66.0}, {"resolution_us", 5}});
  CHECK(exercise_variant("benchmarking.ratio-interval", 42).at("params") ==
        json{{"ratio", 1.007}, {"low", 1.006}, {"high", 1.011}});
}
