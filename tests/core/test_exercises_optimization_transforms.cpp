// Protects the Optimization chapter's exercises on its transforms (int8 quantization, CSR,
// activation ranges, model bytes, distillation, the KV cache, pruning): every expected answer
// is recomputed here independently from the variant's own parameters or tests (by the
// formulas the chapter states, in double precision), right answers score full points and the
// usual mistakes do not (halves rounded up, the largest value instead of the largest
// magnitude, a missing T², the cache's last token, ...); variants differ between seeds; and
// feedback gives no direction and no expected value.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/base/error.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;
using exercise_test::contains;

namespace {

constexpr std::uint32_t kSeeds = 12;

// Runs `solve` on every test of a code exercise's variant as the page's sandbox would and
// grades the results.
json grade_code(const char* id, std::uint32_t seed, const std::function<json(const json&)>& solve) {
  const json variant = exercise_variant(id, seed);
  json results = json::array();
  for (const auto& test : variant.at("tests")) results.push_back({{"value", solve(test.at("args"))}});
  return grade_exercise(id, seed, {{"results", results}});
}

// No failed test's message shows an expected value.
void check_hidden(const json& graded) {
  for (const auto& t : graded.at("tests")) {
    CAPTURE(t);
    CHECK(!contains(t.at("message").get<std::string>(), "expected"));
  }
}

// A hidden test is named by its number ("hidden test 2"), so tests are found by position.
bool test_failed(const json& graded, std::size_t index) {
  REQUIRE(index < graded.at("tests").size());
  return graded.at("tests")[index].at("passed") == false;
}

// ---- optimization.quantize-int8 -------------------------------------------------------

const char* const kInt8 = "optimization.quantize-int8";

// Symmetric per-tensor int8 by the prompt's rules, in double; `round` rounds x / scale.
json quantize_by_hand(const json& args, const std::function<double(double)>& round,
                      bool magnitude = true, double zero_scale = 1) {
  std::vector<double> x = args.at(0).get<std::vector<double>>();
  double top = 0;
  for (double v : x) top = std::max(top, magnitude ? std::fabs(v) : v);
  const double scale = top == 0 ? zero_scale : top / 127;
  json codes = json::array();
  double max_error = 0;
  for (double v : x) {
    const double code = std::clamp(round(v / scale), -127.0, 127.0);
    codes.push_back(code);
    max_error = std::max(max_error, std::fabs(v - code * scale));
  }
  return {{"scale", scale}, {"codes", codes}, {"maxError", max_error}};
}

double half_even(double t) { return std::nearbyint(t); }  // the default rounding mode
double half_up(double t) { return std::floor(t + 0.5); }   // JavaScript's Math.round

}  // namespace

TEST_CASE("quantizeInt8: the prompt's rules pass every seed's tests, Math.round and max(x) do not") {
  std::set<std::string> drawn;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json right = grade_code(kInt8, seed, [](const json& a) { return quantize_by_hand(a, half_even); });
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 15);
    drawn.insert(exercise_variant(kInt8, seed).at("tests")[0].at("args").dump());

    const json rounded_up = grade_code(kInt8, seed, [](const json& a) { return quantize_by_hand(a, half_up); });
    CHECK(rounded_up.at("correct") == false);
    CHECK(test_failed(rounded_up, 4));  // values halfway between two codes
    check_hidden(rounded_up);

    const json largest = grade_code(kInt8, seed, [](const json& a) { return quantize_by_hand(a, half_even, false); });
    CHECK(test_failed(largest, 1));  // the largest magnitude is negative

    const json zero_scale = grade_code(kInt8, seed, [](const json& a) { return quantize_by_hand(a, half_even, true, 0); });
    CHECK(test_failed(zero_scale, 3));  // all zeros
  }
  CHECK(drawn.size() == kSeeds);
}

TEST_CASE("quantizeInt8: a code off by one, a missing field or an error off by a step fail") {
  const json variant = exercise_variant(kInt8, 5);
  json results = json::array();
  for (const auto& test : variant.at("tests")) results.push_back({{"value", quantize_by_hand(test.at("args"), half_even)}});
  json off_by_one = results;
  off_by_one[0]["value"]["codes"][0] = off_by_one[0]["value"]["codes"][0].get<double>() + 1;
  CHECK(grade_exercise(kInt8, 5, {{"results", off_by_one}}).at("correct") == false);
  json missing = results;
  missing[0]["value"].erase("maxError");
  CHECK(grade_exercise(kInt8, 5, {{"results", missing}}).at("correct") == false);
  json wrong_error = results;
  const double scale = wrong_error[6]["value"]["scale"].get<double>();
  wrong_error[6]["value"]["maxError"] = scale / 2;  // the bound, not the largest error
  CHECK(grade_exercise(kInt8, 5, {{"results", wrong_error}}).at("correct") == false);
  CHECK(grade_exercise(kInt8, 5, {{"results", results}}).at("correct") == true);
}

// ---- optimization.csr-matvec ----------------------------------------------------------

namespace {

const char* const kCsr = "optimization.csr-matvec";

// y = A·x from A's CSR, in double; `past_end` runs each row one entry too far (a classic slip).
json csr_by_hand(const json& args, bool past_end = false) {
  const auto values = args.at(0).get<std::vector<double>>();
  const auto col = args.at(1).get<std::vector<std::size_t>>();
  const auto row_start = args.at(2).get<std::vector<std::size_t>>();
  const auto x = args.at(3).get<std::vector<double>>();
  json y = json::array();
  for (std::size_t i = 0; i + 1 < row_start.size(); ++i) {
    double sum = 0;
    const std::size_t end = past_end ? std::min(row_start[i + 1] + 1, values.size()) : row_start[i + 1];
    for (std::size_t k = row_start[i]; k < end; ++k) sum += values[k] * x[col[k]];
    y.push_back(sum);
  }
  return y;
}

// What the sandbox answers a timed test with: medians of `rounds` rounds and the difference.
json timing(double student_ms, double reference_ms, double difference) {
  return {{"student_ms", json::array({student_ms, student_ms, student_ms, student_ms, student_ms})},
          {"reference_ms", json::array({reference_ms, reference_ms, reference_ms, reference_ms, reference_ms})},
          {"max_abs_difference", difference}};
}

json grade_csr(std::uint32_t seed, bool past_end, const json& timed) {
  const json variant = exercise_variant(kCsr, seed);
  json results = json::array();
  for (const auto& test : variant.at("tests")) {
    results.push_back(test.contains("benchmark") ? json{{"value", timed}}
                                                 : json{{"value", csr_by_hand(test.at("args"), past_end)}});
  }
  return grade_exercise(kCsr, seed, {{"results", results}});
}

}  // namespace

TEST_CASE("csrMatVec: a CSR product passes every seed's tests, a row loop one entry too long does not") {
  std::set<std::string> drawn;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(kCsr, seed);
    drawn.insert(variant.at("tests")[2].at("args").dump());
    // The timed test: a dense loop on a sparse matrix the sandbox builds, well below 50%.
    const json& timed = variant.at("tests").back();
    REQUIRE(timed.contains("benchmark"));
    CHECK(timed.at("args") == json::array());
    CHECK(timed.at("benchmark").at("reference") == "dense-matvec");
    CHECK(timed.at("benchmark").at("density").get<double>() <= 0.1);
    CHECK(timed.at("benchmark").at("n").get<int>() >= 1024);
    // Each empty-row test really has an empty row, and the empty matrix no entry at all.
    const json& empty_row = variant.at("tests")[1].at("args").at(2);
    bool has_empty = false;
    for (std::size_t i = 0; i + 1 < empty_row.size(); ++i) has_empty |= empty_row[i] == empty_row[i + 1];
    CHECK(has_empty);
    CHECK(variant.at("tests")[4].at("args").at(0).empty());

    const json right = grade_csr(seed, false, timing(1, 10, 0));
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 15);
    const json slip = grade_csr(seed, true, timing(1, 10, 0));
    CHECK(slip.at("correct") == false);
    check_hidden(slip);
  }
  CHECK(drawn.size() == kSeeds);
}

TEST_CASE("csrMatVec: the timed test needs the dense loop's result and a speedup, and says so") {
  const json slow = grade_csr(2, false, timing(10, 10, 0));
  CHECK(slow.at("correct") == false);
  CHECK(slow.at("score") == 10);  // the untimed tests' share
  const std::string slow_message = slow.at("tests").back().at("message").get<std::string>();
  CAPTURE(slow_message);
  CHECK(contains(slow_message, "the dense loop"));
  CHECK(contains(slow_message, "if you skip the zeros"));
  const json different = grade_csr(2, false, timing(1, 10, 0.5));
  CHECK(different.at("correct") == false);
  CHECK(contains(different.at("tests").back().at("message").get<std::string>(),
                 "your result differs from the dense loop's"));
}

// ---- numeric exercises ----------------------------------------------------------------

namespace {

double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

json grade_values(const char* id, std::uint32_t seed, const std::vector<double>& values) {
  return grade_exercise(id, seed, {{"values", values}});
}

// No part's feedback says which way a wrong number is off.
void check_no_direction(const json& graded) {
  for (const auto& part : graded.at("parts")) {
    const std::string feedback = part.at("feedback").get<std::string>();
    CAPTURE(feedback);
    CHECK(!contains(feedback, "Too"));
    if (part.at("correct") == false) CHECK(feedback.rfind("Not correct: the answer must be", 0) == 0);
  }
}

const char* const kRange = "optimization.activation-range";

// The uint8 parameters of a range by the prompt's rules, widened to 0 or not.
std::vector<double> activation_by_hand(double lo, double hi, double x, bool widen = true) {
  const double l = widen ? std::min(lo, 0.0) : lo, h = widen ? std::max(hi, 0.0) : hi;
  const double scale = (h - l) / 255;
  const double zero_point = std::round(-l / scale);
  const double code = std::clamp(std::round(x / scale) + zero_point, 0.0, 255.0);
  return {scale, zero_point, code};
}

}  // namespace

TEST_CASE("activation range: scale, zero point and code by hand; forgetting to widen to 0 fails") {
  std::set<std::string> prompts;
  int one_sided = 0, saturated = 0;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(kRange, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const json& range = variant.at("params").at("range");
    const double lo = range[0].get<double>(), hi = range[1].get<double>(), x = param(variant, "x");
    const std::vector<double> right = activation_by_hand(lo, hi, x);
    const json graded = grade_values(kRange, seed, right);
    CHECK(graded.at("correct") == true);
    CHECK(graded.at("score") == 10);
    if (right[2] == 0 || right[2] == 255) ++saturated;
    if (lo > 0 || hi < 0) {
      ++one_sided;
      const json narrow = grade_values(kRange, seed, activation_by_hand(lo, hi, x, false));
      CHECK(narrow.at("correct") == false);
      check_no_direction(narrow);
    }
    const json off = grade_values(kRange, seed, {right[0], right[1] + 1, right[2]});
    CHECK(off.at("parts")[1].at("correct") == false);
  }
  CHECK(prompts.size() >= 35);
  CHECK(one_sided > 0);
  CHECK(saturated > 0);
}

TEST_CASE("int8 bytes: codes, a scale per output and float32 biases and norms; forgetting the scales fails") {
  const char* const id = "optimization.int8-bytes";
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(id, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const double h1 = param(variant, "h1"), h2 = param(variant, "h2");
    const bool norm = contains(variant.at("params").at("norm").get<std::string>(), "LayerNorm");
    const bool last_bias = !contains(variant.at("params").at("biases").get<std::string>(), "none");
    struct L { double in, out; bool bias; };
    const std::vector<L> linears = {{784, h1, true}, {h1, h2, true}, {h2, 10, last_bias}};
    double codes = 0, scales = 0, biases = 0;
    for (const L& l : linears) {
      codes += l.in * l.out;
      scales += 4 * l.out;
      biases += l.bias ? 4 * l.out : 0;
    }
    const double norms = norm ? 4 * 2 * h1 : 0;
    const double int8 = codes + scales + biases + norms;
    const double float32 = 4 * codes + biases + norms;
    const json graded = grade_values(id, seed, {int8, float32 / int8});
    CHECK(graded.at("correct") == true);
    const json no_scales = grade_values(id, seed, {int8 - scales, float32 / (int8 - scales)});
    CHECK(no_scales.at("parts")[0].at("correct") == false);
    CHECK(no_scales.at("parts")[1].at("correct") == false);
    check_no_direction(no_scales);
    CHECK(grade_values(id, seed, {int8, 4.0}).at("parts")[1].at("correct") == false);
  }
  CHECK(prompts.size() >= 30);
}

TEST_CASE("CSR bytes: 8 per kept weight plus the offsets; the break-even density is below 50%") {
  const char* const id = "optimization.csr-bytes";
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(id, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const double K = param(variant, "in"), N = param(variant, "out");
    const double kept = std::round(param(variant, "density_percent") / 100 * K * N);
    const double csr = 8 * kept + 4 * (N + 1);
    const double dense = 4 * K * N;
    const double break_even = 100 * (4 * K * N - 4 * (N + 1)) / (8 * K * N);
    CHECK(grade_values(id, seed, {csr, dense, break_even}).at("correct") == true);
    // Without the offsets, or the round 50%: wrong.
    const json slips = grade_values(id, seed, {8 * kept, dense, 50});
    CHECK(slips.at("parts")[0].at("correct") == false);
    CHECK(slips.at("parts")[2].at("correct") == false);
    check_no_direction(slips);
    CHECK(grade_values(id, seed, {4 * kept + 4 * (N + 1), dense, break_even}).at("parts")[0].at("correct") == false);
  }
  CHECK(prompts.size() >= 30);
}

namespace {

std::vector<double> softmax_of(const std::vector<double>& z, double temperature) {
  double m = z[0];
  for (double v : z) m = std::max(m, v);
  std::vector<double> p;
  double sum = 0;
  for (double v : z) sum += std::exp((v - m) / temperature);
  for (double v : z) p.push_back(std::exp((v - m) / temperature) / sum);
  return p;
}

// Hinton's loss by the prompt's formula; `t_squared` false drops the T², `reversed` swaps
// the KL's arguments.
double distillation_by_hand(const std::vector<double>& s, const std::vector<double>& t,
                            std::size_t label, double temperature, double alpha,
                            bool t_squared = true, bool reversed = false) {
  const std::vector<double> p = softmax_of(t, temperature), q = softmax_of(s, temperature);
  double kl = 0;
  for (std::size_t c = 0; c < s.size(); ++c) {
    kl += reversed ? q[c] * std::log(q[c] / p[c]) : p[c] * std::log(p[c] / q[c]);
  }
  const double ce = -std::log(softmax_of(s, 1)[label]);
  return alpha * (t_squared ? temperature * temperature : 1) * kl + (1 - alpha) * ce;
}

}  // namespace

TEST_CASE("distillation loss by hand: α·T²·KL + (1 − α)·CE; without T² or with the KL reversed it fails") {
  const char* const id = "optimization.distillation-loss";
  std::set<std::string> prompts;
  int reversed_fails = 0;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(id, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const auto s = json::parse(variant.at("params").at("student").get<std::string>()).get<std::vector<double>>();
    const auto t = json::parse(variant.at("params").at("teacher").get<std::string>()).get<std::vector<double>>();
    const auto label = variant.at("params").at("label").get<std::size_t>();
    const double temperature = param(variant, "temperature"), alpha = param(variant, "alpha");
    REQUIRE(s.size() == t.size());
    const double right = distillation_by_hand(s, t, label, temperature, alpha);
    const json graded = grade_exercise(id, seed, {{"value", right}});
    CHECK(graded.at("correct") == true);
    const json no_t = grade_exercise(id, seed, {{"value", distillation_by_hand(s, t, label, temperature, alpha, false)}});
    CHECK(no_t.at("correct") == false);
    CHECK(no_t.at("feedback").get<std::string>().rfind("Not correct: the answer must be", 0) == 0);
    const double reversed = distillation_by_hand(s, t, label, temperature, alpha, true, true);
    if (grade_exercise(id, seed, {{"value", reversed}}).at("correct") == false) ++reversed_fails;
  }
  CHECK(prompts.size() >= 38);
  CHECK(reversed_fails >= 35);  // KL is not symmetric, though two near-equal softmaxes come close
}

TEST_CASE("KV cache: bytes of p + n − 1 positions and the FLOP ratio, summed step by step") {
  const char* const id = "optimization.kv-cache";
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(id, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const double D = param(variant, "d_model"), L = param(variant, "layers");
    const double F = param(variant, "d_ff"), V = param(variant, "vocab");
    const auto p = variant.at("params").at("prompt").get<std::int64_t>();
    const auto n = variant.at("params").at("tokens").get<std::int64_t>();
    const double per_position = 2 * D * 3 * D + 2 * D * D + 2 * D * F + 2 * F * D;
    // A position at index t: its products and its attention over t + 1 keys, in every layer.
    const auto position = [&](std::int64_t t) {
      return L * (per_position + 4 * D * static_cast<double>(t + 1));
    };
    double recompute = 0, cached = 0;
    for (std::int64_t s = 1; s <= n; ++s) {
      for (std::int64_t t = 0; t < p + s - 1; ++t) recompute += position(t);
      recompute += 2 * D * V;
      cached += 2 * D * V;
    }
    for (std::int64_t t = 0; t < p + n - 1; ++t) cached += position(t);
    const double bytes = 2 * L * static_cast<double>(p + n - 1) * D * 4;
    CHECK(grade_values(id, seed, {bytes, recompute / cached}).at("correct") == true);
    // Caching the last token too, or leaving out the logits: wrong.
    const json slips = grade_values(id, seed, {bytes + 2 * L * D * 4, (recompute - 2 * D * V * n) / (cached - 2 * D * V * n)});
    CHECK(slips.at("parts")[0].at("correct") == false);
    check_no_direction(slips);
  }
  CHECK(prompts.size() >= 25);
}

TEST_CASE("the two statement exercises: each try shows two new statements, judged true or false by hand") {
  // The true statements of each pool, by their openings; every other statement is false.
  const std::vector<std::pair<const char*, std::vector<std::string>>> cases = {
      {"optimization.sparse-slower",
       {"Each kept weight costs more to multiply", "At 50% density the CSR matrix takes about as many",
        "The CSR kernel performs about half"}},
      {"optimization.per-channel-scales",
       {"Per tensor the other channels share the large channel's scale",
        "The large channel's own rounding error is the same", "Per tensor, every weight of the other"}}};
  for (const auto& c : cases) {
    // Not a structured binding: Emscripten's clang 14 cannot capture one in CAPTURE's lambda.
    const char* const id = c.first;
    const std::vector<std::string>& truths = c.second;
    CAPTURE(id);
    std::set<int> answers;
    std::set<std::string> statements;
    for (std::uint32_t seed = 0; seed < 20; ++seed) {
      std::set<std::string> of_seed;
      for (int attempt = 1; attempt <= 3; ++attempt) {
        CAPTURE(seed);
        CAPTURE(attempt);
        const json variant = choice_variant(id, seed, attempt);
        REQUIRE(variant.at("choices").size() == 4);
        const auto is_true = [&](const char* name) {
          const std::string text = variant.at("params").at(name);
          statements.insert(text);
          of_seed.insert(text);
          CHECK(contains(variant.at("prompt").get<std::string>(), text));
          CHECK(!contains(text, "{"));  // every number it names is filled in
          return std::any_of(truths.begin(), truths.end(),
                             [&](const std::string& t) { return text.rfind(t, 0) == 0; });
        };
        const bool first = is_true("statement_1");
        const bool second = is_true("statement_2");
        // "Both are true", "Only (1) is true", "Only (2) is true", "Neither is true".
        const int right = first ? (second ? 0 : 1) : (second ? 2 : 3);
        answers.insert(right);
        for (int k = 0; k < 4; ++k) {
          const json graded = grade_exercise(id, seed, {{"choice", k}, {"attempt", attempt}});
          CHECK(graded.at("correct") == (k == right));
        }
      }
      CHECK(of_seed.size() == 6);  // three tries, six different statements
    }
    CHECK(answers.size() == 4);
    CHECK(statements.size() >= 7);  // every statement of the pool
  }
}

// ---- optimization.my-sparse-line ------------------------------------------------------

namespace {

const char* const kLine = "optimization.my-sparse-line";

json sweep_rows(const std::vector<double>& densities, const std::vector<double>& speedups) {
  json rows = json::array();
  for (std::size_t i = 0; i < densities.size(); ++i) {
    rows.push_back({{"variant", "batched"}, {"batch", 64}, {"in", 784}, {"out", 256},
                    {"density", densities[i]}, {"speedup", speedups[i]}});
  }
  return rows;
}

json grade_line(double value, const json& rows) {
  return grade_exercise(kLine, 1, {{"value", value},
                                   {"evidence", {{"experiment", "optimization-sparsity"}, {"rows", rows}}}});
}

}  // namespace

TEST_CASE("my sparse line: the line through the two rows around 1× read at 0.5, from the rows sent") {
  // Unsorted rows, crossing between 20% and 30%: (0.2, 1.25) and (0.3, 0.85).
  const json rows = sweep_rows({0.5, 0.05, 0.3, 0.2, 1.0, 0.1}, {0.6, 3.1, 0.85, 1.25, 0.4, 2.0});
  const double d0 = 0.2, s0 = 1.25, d1 = 0.3, s1 = 0.85;
  const double expected = 100 * (d0 + (d1 - d0) * (s0 - 0.5) / (s0 - s1));  // 38.75%
  CHECK(grade_line(expected, rows).at("correct") == true);
  CHECK(grade_line(expected * 1.015, rows).at("correct") == true);  // copied to a few digits
  // The crossover itself, or the measured point at 50%: wrong.
  CHECK(grade_line(100 * (d0 + (d1 - d0) * (s0 - 1) / (s0 - s1)), rows).at("correct") == false);
  CHECK(grade_line(50, rows).at("correct") == false);
  const json wrong = grade_line(expected * 1.2, rows);
  CHECK(wrong.at("feedback").get<std::string>().rfind("Not correct: the answer must be", 0) == 0);
  // A second crossing further up (noise) does not move the pair: the first from below counts,
  // as sparse_crossover's.
  const json noisy = sweep_rows({0.05, 0.2, 0.3, 0.5, 0.7}, {3.0, 1.25, 0.85, 1.02, 0.9});
  CHECK(grade_line(expected, noisy).at("correct") == true);
}

TEST_CASE("my sparse line: rows without a crossover, of two shapes, or without speedups are refused") {
  CHECK_THROWS_WITH_AS(grade_line(10, sweep_rows({0.1, 0.5}, {3, 1.5})),
                       "your run of the sparsity sweep has no crossover (sparse was faster at every "
                       "density measured, up to 50%): run it again at batch 64 with the batched "
                       "variant, where the speedup crosses 1× between two of its densities",
                       ValueError);
  json mixed = sweep_rows({0.1, 0.5}, {2, 0.5});
  mixed[1]["batch"] = 1;
  CHECK_THROWS_AS(grade_line(10, mixed), ValueError);
  json missing = sweep_rows({0.1, 0.5}, {2, 0.5});
  missing[0].erase("speedup");
  CHECK_THROWS_AS(grade_line(10, missing), ValueError);
}

TEST_CASE("structured pruning: the shrunk MLP's parameters and FLOPs by hand, and the FLOP ratio") {
  const char* const id = "optimization.structured-prune";
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < 30; ++seed) {
    CAPTURE(seed);
    const json variant = exercise_variant(id, seed);
    prompts.insert(variant.at("prompt").get<std::string>());
    const double h1 = param(variant, "h1"), h2 = param(variant, "h2");
    const double k1 = param(variant, "k1"), k2 = param(variant, "k2");
    CHECK(k1 < h1);
    CHECK(k2 < h2);
    // Linear in → out: in·out + out parameters, 2·in·out + out FLOPs; ReLU: 1 per output.
    const auto parameters = [](double a, double b) { return 784 * a + a + a * b + b + b * 10 + 10; };
    const auto flops = [](double a, double b) {
      return (2 * 784 * a + a) + a + (2 * a * b + b) + b + (2 * b * 10 + 10);
    };
    const double after = flops(k1, k2);
    CHECK(grade_values(id, seed, {parameters(k1, k2), after, flops(h1, h2) / after}).at("correct") == true);
    // Forgetting that the next layer loses its inputs too, or the bias and ReLU FLOPs: wrong.
    const json slips = grade_values(id, seed, {784 * k1 + k1 + h1 * k2 + k2 + k2 * 10 + 10,
                                               2 * (784 * k1 + k1 * k2 + k2 * 10), 1});
    CHECK(slips.at("parts")[0].at("correct") == false);
    CHECK(slips.at("parts")[1].at("correct") == false);
    CHECK(slips.at("parts")[2].at("correct") == false);
    check_no_direction(slips);
  }
  CHECK(prompts.size() >= 20);
}
