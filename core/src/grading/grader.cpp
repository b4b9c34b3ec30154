// The grading engine shared by every exercise: seeds a variant from (id, seed), renders
// its prompt, validates answer objects strictly and grades them. What each exercise asks
// lives in core/exercises/<chapter>.json, how its answer is computed in
// exercise_bank_<chapter>.cpp.
// Not for: running student code (the page's sandbox does; this grades the values it returned).
#include "perflab/grading/grader.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/hash.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {
namespace {

using nlohmann::json;
using detail::ExerciseEntry;
using detail::VariantData;

// A number core computed (a parameter, an expected result, a measured difference), as the
// student reads it: 10 significant digits, so 2.575 and not the 2.5749999999999997 that
// round-trips (the grading tolerance is far coarser than the last digits), and 50 rather
// than 50.0; any other value as describe() writes it.
std::string shown(const json& j) {
  if (!j.is_number_float()) return describe(j);
  return format_number(j.get<double>(), 10);
}

// "1234567" -> "1,234,567", the grouping a student reads fastest (and the number input
// accepts back).
std::string group_thousands(long long x) {
  const std::string digits = std::to_string(x < 0 ? -x : x);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (x < 0 ? "-" : "") + out;
}

std::string param_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  // 10,000 and up: 2,359,296 is read at a glance, 2359296 is counted digit by digit.
  if (value.is_number_integer() && std::llabs(value.get<long long>()) >= 10000) {
    return group_thousands(value.get<long long>());
  }
  return shown(value);
}

// Position of id in the bank (the same in exercise_entries() and exercise_bank()).
std::size_t exercise_index(std::string_view id) {
  const auto& entries = detail::exercise_entries();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].exercise.id == id) return i;
  }
  std::string known;
  for (const auto& entry : entries) {
    known += (known.empty() ? "" : ", ") + entry.exercise.id;
  }
  throw ValueError("unknown exercise \"" + std::string(id) + "\"; known ids: " + known);
}

const ExerciseEntry& find_entry(std::string_view id) {
  return detail::exercise_entries()[exercise_index(id)];
}

// The variant of (id, seed), and for a choice exercise of one try: try 1 keeps the seeding
// every other kind uses, each later try its own stream.
VariantData draw_variant(const ExerciseEntry& entry, std::uint32_t seed, int try_number = 1) {
  const std::uint64_t id_hash = fnv1a64(entry.exercise.id);
  if (entry.draw_try == nullptr) {
    Rng rng(id_hash ^ seed);
    return entry.draw(rng, entry.fragments);
  }
  Rng rng(try_number == 1 ? id_hash ^ seed
                          : fnv1a64("try " + std::to_string(try_number), id_hash) ^ seed);
  const detail::ChoiceTry t{try_number, fnv1a64("walk", id_hash) ^ seed};
  return entry.draw_try(rng, entry.fragments, t);
}

// answer.attempt of a choice answer: 1 when absent; ValueError outside 1..kMaxChoiceAttempt.
int choice_attempt(const json& answer) {
  if (!answer.is_object() || !answer.contains("attempt")) return 1;
  const json& a = answer.at("attempt");
  const double t = a.is_number() ? a.get<double>() : -1.0;
  if (!(std::trunc(t) == t && t >= 1 && t <= kMaxChoiceAttempt)) {
    throw ValueError("answer.attempt (the try whose variant was answered, 1 for the first) must "
                     "be an integer from 1 to " + std::to_string(kMaxChoiceAttempt) + ", got " +
                     describe(a));
  }
  return static_cast<int>(t);
}

// A grading key as exercise_variant takes it: empty (the student's own variant), or 1 to
// kMaxHiddenKeyLength letters, digits, '.', '_' or '-' (it is written into a gradebook's
// outputs, so it stays plain text).
void check_hidden_key(std::string_view key) {
  const bool plain = std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '.' || c == '_' || c == '-';
  });
  if (key.size() > kMaxHiddenKeyLength || !plain) {
    throw ValueError("hidden_key must be empty (the student's own tests) or 1 to " +
                     std::to_string(kMaxHiddenKeyLength) +
                     " letters, digits, '.', '_' or '-', got " + describe(json(std::string(key))));
  }
}

// Test i of a code variant is hidden unless it is one of the exercise's first public_tests
// tests or a timed test (grader.hpp, exercise_variant).
bool is_hidden(const Exercise& e, const detail::CodeTest& test, std::size_t i) {
  return test.benchmark.is_null() && i >= static_cast<std::size_t>(std::max(0, e.public_tests));
}

// The variant an answer is graded against: the student's own draw, and for a code exercise
// with a key, its hidden tests replaced by a draw from (id, seed, key) in which no hidden test
// has the arguments of a test the student's variant holds (redrawn until none has; rare).
VariantData draw_for_key_uncached(const ExerciseEntry& entry, std::uint32_t seed,
                                  std::string_view key, int try_number) {
  VariantData v = draw_variant(entry, seed, try_number);
  const Exercise& e = entry.exercise;
  if (key.empty() || e.kind != ExerciseKind::Code) return v;
  std::vector<std::string> shown_args;
  for (const auto& t : v.tests) shown_args.push_back(t.args.dump());
  constexpr int kMaxDraws = 1000;
  for (int draw = 0; draw < kMaxDraws; ++draw) {
    const std::string salt = "/hidden/" + std::string(key) + "/" + std::to_string(seed) + "/" +
                             std::to_string(draw);
    Rng rng(fnv1a64(salt, fnv1a64(e.id)));
    VariantData fresh = entry.draw(rng, entry.fragments);
    if (fresh.tests.size() != v.tests.size()) {
      throw Error("exercise " + e.id + " drew " + std::to_string(fresh.tests.size()) +
                  " tests for a grading key and " + std::to_string(v.tests.size()) + " without");
    }
    bool clash = false;
    for (std::size_t i = 0; i < v.tests.size() && !clash; ++i) {
      if (!is_hidden(e, v.tests[i], i)) continue;
      if (!fresh.tests[i].benchmark.is_null()) {
        throw Error("exercise " + e.id + ": test " + std::to_string(i) +
                    " is timed in one draw and not in another");
      }
      clash = std::find(shown_args.begin(), shown_args.end(), fresh.tests[i].args.dump()) !=
              shown_args.end();
    }
    if (clash) continue;
    for (std::size_t i = 0; i < v.tests.size(); ++i) {
      if (is_hidden(e, v.tests[i], i)) v.tests[i] = std::move(fresh.tests[i]);
    }
    return v;
  }
  throw Error("exercise " + e.id + ": " + std::to_string(kMaxDraws) +
              " draws for a grading key all repeat the arguments of a test the student saw");
}

// draw_for_key_uncached, remembering the last few draws: a re-grade asks for a code variant
// (to run the student's code on its tests) and then grades against the same variant, and a
// draw can cost milliseconds (bootstrap-ci's expected values resample 1,000 times per test;
// with a key the student's variant is drawn as well), so the second ask is served from here.
// Draws are deterministic in their key, so a remembered one is the one a fresh draw gives.
VariantData draw_for_key(const ExerciseEntry& entry, std::uint32_t seed, std::string_view key,
                         int try_number = 1) {
  check_hidden_key(key);
  struct Remembered {
    const ExerciseEntry* entry = nullptr;
    std::uint32_t seed = 0;
    std::string key;
    int try_number = 0;
    VariantData variant;
  };
  constexpr std::size_t kRemembered = 8;
  thread_local std::array<Remembered, kRemembered> remembered;
  thread_local std::size_t next = 0;
  for (const Remembered& r : remembered) {
    if (r.entry == &entry && r.seed == seed && r.key == key && r.try_number == try_number) {
      return r.variant;
    }
  }
  VariantData v = draw_for_key_uncached(entry, seed, key, try_number);
  remembered[next] = {&entry, seed, std::string(key), try_number, v};
  next = (next + 1) % kRemembered;
  return v;
}

bool within(double answer, double expected, const Tolerance& tol) {
  return std::isfinite(answer) &&
         std::fabs(answer - expected) <= std::max(tol.abs, tol.rel * std::fabs(expected));
}

// A returned value against the expected one: numbers with the tolerance, arrays element by
// element, objects field by field (the same field names, no more), anything else must be
// equal.
bool values_match(const json& expected, const json& got, const Tolerance& tol) {
  if (expected.is_number()) {
    return got.is_number() && within(got.get<double>(), expected.get<double>(), tol);
  }
  if (expected.is_array()) {
    if (!got.is_array() || got.size() != expected.size()) return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!values_match(expected[i], got[i], tol)) return false;
    }
    return true;
  }
  if (expected.is_object()) {
    if (!got.is_object() || got.size() != expected.size()) return false;
    for (const auto& [key, value] : expected.items()) {
      if (!got.contains(key) || !values_match(value, got.at(key), tol)) return false;
    }
    return true;
  }
  return expected == got;
}

// answer must be an object holding exactly `field` (nothing unknown).
void require_object_with(const json& answer, const std::vector<std::string>& fields,
                         const std::string& example) {
  if (!answer.is_object()) {
    throw ValueError("answer must be an object like " + example + ", got " + describe(answer));
  }
  for (const auto& item : answer.items()) {
    if (std::find(fields.begin(), fields.end(), item.key()) == fields.end()) {
      throw ValueError("answer has an unknown field \"" + item.key() + "\"; allowed: " +
                       quoted_list(fields));
    }
  }
}

void require_object_with(const json& answer, const std::string& field, const std::string& example) {
  require_object_with(answer, std::vector<std::string>{field}, example);
}

json result(bool correct, double score, const Exercise& e, std::string feedback,
            json tests = json::array()) {
  return {{"correct", correct},    {"score", score},
          {"max_score", e.points}, {"feedback", std::move(feedback)},
          {"tests", std::move(tests)}};
}

// What a wrong number was: "Too high: the answer must be within 1%.", or only "Not
// correct" for an exercise whose feedback hides the answer.
std::string numeric_feedback(const Exercise& e, double x, double expected, const Tolerance& tol) {
  if (within(x, expected, tol)) return "Correct.";
  const char* what = e.feedback_hides_answer ? "Not correct" : x > expected ? "Too high" : "Too low";
  return std::string(what) + ": the answer must be " + tol.text() + ".";
}

double total_weight(const Exercise& e) {
  double total = 0;
  for (const auto& part : e.parts) total += part.weight;
  return total;
}

// A multi-part numeric answer {values: [...]}: each part graded with its own tolerance, the
// score weighted by the parts that are right.
json grade_numeric_parts(const Exercise& e, const VariantData& v, const json& answer) {
  const std::size_t n = e.parts.size();
  if (v.expected_values.size() != n) {
    throw Error("exercise " + e.id + " drew " + std::to_string(v.expected_values.size()) +
                " expected values for its " + std::to_string(n) + " parts");
  }
  std::string example = "{\"values\": [";
  std::string labels;
  for (std::size_t i = 0; i < n; ++i) {
    example += (i ? ", " : "") + std::to_string(i + 1);
    labels += (i ? ", " : "") + e.parts[i].label;
  }
  example += "]}";
  const std::string count = std::to_string(n);
  const std::string shape =
      "an array of " + count + " finite numbers, one per part (" + labels + ")";

  require_object_with(answer, "values", example);
  if (!answer.contains("values")) throw ValueError("answer.values is missing; it must be " + shape);
  const json& values = answer.at("values");
  if (!values.is_array()) {
    throw ValueError("answer.values must be " + shape + ", got " + describe(values));
  }
  if (values.size() != n) {
    throw ValueError("answer.values must have " + count + " entries, one per part (" + labels +
                     "), got " + std::to_string(values.size()));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const json& x = values[i];
    if (!x.is_number() || !std::isfinite(x.get<double>())) {
      throw ValueError("answer.values[" + std::to_string(i) + "] (" + e.parts[i].label +
                       ") must be a finite number, got " + describe(x));
    }
  }

  const double total = total_weight(e);
  json parts = json::array();
  double right_weight = 0;
  std::size_t right = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const NumericPart& part = e.parts[i];
    const double x = values[i].get<double>();
    const bool ok = within(x, v.expected_values[i], part.tolerance);
    const double part_points = e.points * part.weight / total;
    right_weight += ok ? part.weight : 0;
    right += ok ? 1 : 0;
    parts.push_back({{"label", part.label},
                     {"correct", ok},
                     {"score", ok ? part_points : 0.0},
                     {"max_score", part_points},
                     {"feedback", numeric_feedback(e, x, v.expected_values[i], part.tolerance)}});
  }
  const bool all = right == n;
  json out = result(all, e.points * right_weight / total, e,
                    all ? "All " + count + " parts correct."
                        : std::to_string(right) + " of " + count + " parts correct.");
  out["parts"] = std::move(parts);
  return out;
}

json grade_numeric(const Exercise& e, const VariantData& v, const json& answer) {
  if (!e.parts.empty()) return grade_numeric_parts(e, v, answer);
  require_object_with(answer, "value", "{\"value\": 42}");
  if (!answer.contains("value")) {
    throw ValueError("answer.value is missing; it must be a finite number");
  }
  const json& value = answer.at("value");
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    throw ValueError("answer.value must be a finite number, got " + describe(value));
  }
  const double x = value.get<double>();
  const bool ok = within(x, v.expected_value, e.tolerance);
  return result(ok, ok ? e.points : 0, e, numeric_feedback(e, x, v.expected_value, e.tolerance));
}

// The choices as this variant shows them: rendered, in the variant's order.
std::vector<std::string> shown_choices(const Exercise& e, const VariantData& v) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < e.choices.size(); ++i) {
    const std::size_t from =
        v.choice_order.empty() ? i : static_cast<std::size_t>(v.choice_order.at(i));
    shown.push_back(detail::render_text(e.choices.at(from), v.params, "exercise " + e.id));
  }
  return shown;
}

json grade_choice(const Exercise& e, const VariantData& v, const json& answer) {
  require_object_with(answer, std::vector<std::string>{"choice", "attempt"}, "{\"choice\": 0, \"attempt\": 1}");
  const int n = static_cast<int>(e.choices.size());
  const std::string range = "an integer from 0 to " + std::to_string(n - 1);
  if (!answer.contains("choice")) {
    throw ValueError("answer.choice is missing; it must be " + range);
  }
  const json& choice = answer.at("choice");
  // A JS number crosses as a double, so 1.0 counts as the integer 1.
  const double c = choice.is_number() ? choice.get<double>() : -1.0;
  const bool in_range = std::trunc(c) == c && c >= 0 && c < static_cast<double>(n);
  if (!in_range) throw ValueError("answer.choice must be " + range + ", got " + describe(choice));
  const int attempt = choice_attempt(answer);  // v is this try's variant (grade_exercise)
  const int index = static_cast<int>(c);
  if (index != v.correct_choice) {
    json out = result(false, 0, e,
                      "Not correct. Your next try shows a new variant; the hints show how to "
                      "work it out.");
    out["attempt"] = attempt;
    return out;
  }
  const double fraction = choice_score_fraction(attempt);
  std::string feedback = "Correct: " + shown_choices(e, v)[static_cast<std::size_t>(index)] + ".";
  if (attempt > 1) {
    feedback += " Found on try " + std::to_string(attempt) + ", so it earns " +
                (fraction == 0 ? std::string("no points") : "half the points") + ".";
  }
  json out = result(true, e.points * fraction, e, std::move(feedback));
  out["attempt"] = attempt;
  return out;
}

// "12.3 ms", "0.0412 ms": three significant digits, as a student compares two times.
std::string format_ms(double ms) { return format_number(ms) + " ms"; }

// A timed test's answer is the sandbox's measurement, not a value the student returned:
// {student_ms: [...], reference_ms: [...], max_abs_difference}, each round's time of each
// side. The rule lives here so that the page and the CLI decide alike: the same result as the
// reference (within 1e-6) and at least kMinBenchmarkSpeedup times faster, medians of the
// interleaved rounds; the message shows every round, so the student sees the noise too.
std::pair<bool, std::string> grade_benchmark(const detail::CodeTest& test, const json& value,
                                             const std::string& where) {
  const std::string shape =
      " must be the sandbox's timing object {student_ms, reference_ms, max_abs_difference}";
  if (!value.is_object()) throw ValueError(where + shape + ", got " + describe(value));
  for (const auto& item : value.items()) {
    if (item.key() != "student_ms" && item.key() != "reference_ms" &&
        item.key() != "max_abs_difference") {
      throw ValueError(where + " has an unknown field \"" + item.key() +
                       "\"; allowed: student_ms, reference_ms, max_abs_difference");
    }
  }
  const auto finite_non_negative = [](const json& x) {
    return x.is_number() && std::isfinite(x.get<double>()) && x.get<double>() >= 0;
  };
  const json rounds_json = test.benchmark.value("rounds", json(nullptr));
  const std::size_t rounds = rounds_json.is_number_integer() && rounds_json.get<long long>() > 0
                                 ? static_cast<std::size_t>(rounds_json.get<long long>())
                                 : 0;
  const std::string round_count = std::to_string(rounds);
  const auto times_of = [&](const char* field) {
    const std::string at = where + "." + field;
    if (!value.contains(field) || !value.at(field).is_array() || value.at(field).size() != rounds) {
      throw ValueError(at + " must be an array of " + round_count +
                       " times in ms, one per round, got " +
                       (value.contains(field) ? describe(value.at(field)) : "nothing"));
    }
    std::vector<double> times;
    for (std::size_t i = 0; i < rounds; ++i) {
      const json& x = value.at(field)[i];
      if (!finite_non_negative(x)) {
        throw ValueError(at + "[" + std::to_string(i) + "] must be a finite number >= 0, got " +
                         describe(x));
      }
      times.push_back(x.get<double>());
    }
    return times;
  };
  const std::vector<double> student_times = times_of("student_ms");
  const std::vector<double> reference_times = times_of("reference_ms");
  const json difference_json = value.value("max_abs_difference", json(nullptr));
  if (!finite_non_negative(difference_json)) {
    throw ValueError(where + ".max_abs_difference must be a finite number >= 0, got " +
                     (value.contains("max_abs_difference") ? describe(difference_json)
                                                           : "nothing"));
  }
  const double student_ms = median(student_times);
  const double reference_ms = median(reference_times);
  const double difference = value.at("max_abs_difference").get<double>();
  const std::string n = test.benchmark.contains("n") ? test.benchmark.at("n").dump() : "?";
  const std::string reference = test.benchmark.value("reference", std::string("reference"));
  const std::string naive = reference == "matmul-ijk"     ? "the naive ijk loop"
                            : reference == "dense-matvec" ? "the dense loop"
                                                          : reference;
  const std::string retry = reference == "dense-matvec"
                                ? "if you skip the zeros, close other tabs and run again"
                                : "if your loop order is right, close other tabs and run again";
  if (difference > 1e-6) {
    return {false, "at N = " + n + " your result differs from " + naive + "'s by up to " +
                       shown(json(difference)) + " (allowed 1e-06), so its speed does not count"};
  }
  if (reference_ms <= 0) {
    return {false, naive + " took " + format_ms(reference_ms) +
                       ", too short to compare against; run the tests again"};
  }
  const auto each_round = [](const std::vector<double>& times) {
    std::string out;
    for (std::size_t i = 0; i < times.size(); ++i) out += (i ? ", " : "") + format_number(times[i]);
    return out + " ms";
  };
  const double ratio = student_ms > 0 ? reference_ms / student_ms : HUGE_VAL;
  char ratio_text[32];
  std::snprintf(ratio_text, sizeof ratio_text, "%.2f×", ratio);
  const std::string times = "yours " + format_ms(student_ms) + ", " + naive + " " +
                            format_ms(reference_ms) + " (medians of " + round_count +
                            " interleaved rounds at N = " + n + "; each round: yours " +
                            each_round(student_times) + ", " + naive + " " +
                            each_round(reference_times) + "): ";
  const std::string needed = format_number(kMinBenchmarkSpeedup, 2) + "×";
  if (ratio >= kMinBenchmarkSpeedup) {
    return {true, times + ratio_text + " as fast, at least " + needed + " needed"};
  }
  return {false, times + "only " + ratio_text + " as fast; at least " + needed +
                     " needed (" + retry + ")"};
}

// A value as the student would type it in JavaScript: numbers as shown() writes them (3, not
// 3.0), arrays and objects element by element.
std::string typed_text(const json& v) {
  if (v.is_number()) return shown(v);
  if (v.is_array()) {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : ", ") + typed_text(v[i]);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [key, value] : v.items()) {
      out += (first ? "" : ", ") + json(key).dump() + ": " + typed_text(value);
      first = false;
    }
    return out + "}";
  }
  return v.dump();
}

// What kind of value the code returned, as a sentence names it.
const char* kind_text(const json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_array()) return "an array";
  if (v.is_object()) return "an object";
  return "null";
}

// Why a hidden test's value is wrong: the first property that fails (type, length, shape,
// order, tolerance), at `at` inside the result ("[2]", ".lower"). Never the expected value,
// nor the returned one (which could echo the arguments).
std::string mismatch_text(const json& expected, const json& got, const Tolerance& tol,
                          const std::string& at = "") {
  const std::string where = "the result" + at;
  const auto wrong_type = [&](const char* wanted) {
    return "wrong type: " + where + " is " + kind_text(got) + ", not " + wanted;
  };
  if (expected.is_number()) {
    if (!got.is_number()) return wrong_type("a number");
    if (tol.rel == 0 && tol.abs == 0) return "wrong value: " + where + " is not the value expected (exact)";
    return "outside the tolerance: " + where + " is off by more than the tolerance (" +
           tol.text() + ")";
  }
  if (expected.is_array()) {
    if (!got.is_array()) return wrong_type("an array");
    if (got.size() != expected.size()) {
      return "wrong length: " + where + " has " + std::to_string(got.size()) +
             " values, not the number expected";
    }
    const auto numbers = [](const json& a) {
      return std::all_of(a.begin(), a.end(), [](const json& x) { return x.is_number(); });
    };
    if (numbers(expected) && numbers(got)) {
      std::vector<double> want = expected.get<std::vector<double>>();
      std::vector<double> have = got.get<std::vector<double>>();
      std::sort(want.begin(), want.end());
      std::sort(have.begin(), have.end());
      bool same = true;
      for (std::size_t i = 0; i < want.size() && same; ++i) same = within(have[i], want[i], tol);
      if (same) return "wrong order: " + where + " holds the values expected in another order";
    }
    for (std::size_t i = 0; i < expected.size(); ++i) {
      if (!values_match(expected[i], got[i], tol)) {
        return mismatch_text(expected[i], got[i], tol, at + "[" + std::to_string(i) + "]");
      }
    }
  } else if (expected.is_object()) {
    if (!got.is_object()) return wrong_type("an object");
    for (const auto& item : expected.items()) {
      if (!got.contains(item.key())) {
        return "wrong shape: " + where + " has no field \"" + item.key() + "\"";
      }
    }
    for (const auto& item : got.items()) {
      if (!expected.contains(item.key())) {
        return "wrong shape: " + where + " has a field \"" + item.key() + "\" not asked for";
      }
    }
    for (const auto& item : expected.items()) {
      if (!values_match(item.value(), got.at(item.key()), tol)) {
        return mismatch_text(item.value(), got.at(item.key()), tol, at + "." + item.key());
      }
    }
  } else if (std::string(kind_text(expected)) != kind_text(got)) {
    return wrong_type(kind_text(expected));
  }
  return "wrong value: " + where + " is not the value expected";
}

// How a failed test was called, so the student can reproduce it: "f(768, 3072)", each
// argument as JSON, an argument longer than kMaxArgumentText cut to its start and "… (N
// values)" for an array, the whole list cut at kMaxCallText.
constexpr std::size_t kMaxArgumentText = 60;
constexpr std::size_t kMaxCallText = 160;
std::string call_text(const std::string& function, const json& args) {
  std::string list;
  const auto cut = [](const std::string& text, std::size_t max) {
    if (text.size() <= max) return text;
    std::size_t end = max;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // UTF-8
    return text.substr(0, end) + "…";
  };
  const json items = args.is_array() ? args : json::array({args});
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string text = typed_text(items[i]);
    if (text.size() > kMaxArgumentText) {
      text = cut(text, kMaxArgumentText);
      if (items[i].is_array()) text += " (" + std::to_string(items[i].size()) + " values)";
    }
    list += (i == 0 ? "" : ", ") + text;
  }
  return function + "(" + cut(list, kMaxCallText) + ")";
}

json grade_code(const Exercise& e, const VariantData& v, const json& answer) {
  require_object_with(answer, "results", "{\"results\": [{\"value\": 3}]}");
  const std::string n = std::to_string(v.tests.size());
  if (!answer.contains("results")) {
    throw ValueError("answer.results is missing; it must be an array with " + n +
                     " entries, one per test");
  }
  const json& results = answer.at("results");
  if (!results.is_array()) {
    throw ValueError("answer.results must be an array with " + n + " entries, one per test, got " +
                     describe(results));
  }
  if (results.size() != v.tests.size()) {
    throw ValueError("answer.results must have " + n + " entries, one per test, got " +
                     std::to_string(results.size()));
  }

  json tests = json::array();
  std::size_t passed = 0;
  std::size_t timed = 0, timed_passed = 0;
  std::size_t hidden_count = 0;
  for (std::size_t i = 0; i < v.tests.size(); ++i) {
    const json& r = results[i];
    const std::string where = "answer.results[" + std::to_string(i) + "]";
    const bool one_field =
        r.is_object() && r.size() == 1 &&
        (r.contains("value") || r.contains("error") || r.contains("timeout"));
    if (!one_field) {
      throw ValueError(where +
                       " must be {\"value\": ...}, {\"error\": \"message\"} or "
                       "{\"timeout\": true}, got " +
                       describe(r));
    }
    const auto& test = v.tests[i];
    // A hidden test is named by its number and says only which property failed.
    const bool hidden = is_hidden(e, test, i);
    const std::string name = hidden ? "hidden test " + std::to_string(++hidden_count) : test.name;
    bool ok = false;
    std::string message;
    if (r.contains("value") && !test.benchmark.is_null()) {
      std::tie(ok, message) = grade_benchmark(test, r.at("value"), where + ".value");
    } else if (r.contains("value")) {
      ok = values_match(test.expected, r.at("value"), e.tolerance);
      message = ok                        ? "passed"
                : hidden                  ? mismatch_text(test.expected, r.at("value"), e.tolerance)
                : e.feedback_hides_answer ? "wrong value, got " + describe(r.at("value"))
                                          : "expected " + shown(test.expected) + ", got " +
                                                describe(r.at("value"));
    } else if (r.contains("error")) {
      if (!r.at("error").is_string()) {
        throw ValueError(where + ".error must be a string, got " + describe(r.at("error")));
      }
      const std::string text = r.at("error").get<std::string>();
      message = text.empty() ? "threw an error" : "threw " + text;
    } else {
      if (r.at("timeout") != true) {
        throw ValueError(where + ".timeout must be true, got " + describe(r.at("timeout")));
      }
      message = "did not finish within " + format_number(e.time_limit_ms, kRoundTripDigits) + " ms";
    }
    passed += ok ? 1 : 0;
    if (!test.benchmark.is_null()) {
      ++timed;
      timed_passed += ok ? 1 : 0;
    }
    // A failed public test says how it was called (a timed test's inputs are fresh each run;
    // a hidden test's are not shown).
    if (!ok && test.benchmark.is_null() && !hidden) {
      message += " (called as " + call_text(e.function_name, test.args) + ")";
    }
    if (hidden && !ok) message = "failed: " + message;  // "hidden test 2: failed: wrong order: ..."
    tests.push_back({{"name", name}, {"passed", ok}, {"hidden", hidden}, {"message", name + ": " + message}});
  }

  const bool all = passed == v.tests.size();
  double score = v.tests.empty() ? 0.0
                                 : e.points * static_cast<double>(passed) /
                                       static_cast<double>(v.tests.size());
  std::string feedback = all ? "All " + n + " tests passed."
                             : std::to_string(passed) + " of " + n + " tests passed.";
  // Weighted: the timed tests carry timed_points together, the others the rest.
  if (e.timed_points > 0) {
    const std::size_t others = v.tests.size() - timed;
    if (timed == 0 || others == 0) {
      throw Error("exercise " + e.id + " gives its timed tests " +
                  std::to_string(e.timed_points) + " points but its variant has " +
                  std::to_string(timed) + " timed and " + std::to_string(others) + " other tests");
    }
    score = e.timed_points * static_cast<double>(timed_passed) / static_cast<double>(timed) +
            (e.points - e.timed_points) * static_cast<double>(passed - timed_passed) /
                static_cast<double>(others);
    if (timed_passed < timed) {
      feedback += " The timed test, worth " + std::to_string(e.timed_points) + " of the " +
                  std::to_string(e.points) + " points, did not pass.";
    }
  }
  return result(all, score, e, std::move(feedback), std::move(tests));
}

}  // namespace

const char* to_string(ExerciseKind kind) {
  switch (kind) {
    case ExerciseKind::Numeric: return "numeric";
    case ExerciseKind::Choice: return "choice";
    case ExerciseKind::Code: return "code";
  }
  return "unknown";
}

std::string Tolerance::text() const {
  // Tolerances are short decimals; six digits keep 0.07·100 from printing as
  // 7.000000000000001.
  const auto short_number = [](double x) { return format_number(x, 6); };
  if (rel == 0 && abs == 0) return "exact";
  if (rel == 0 && abs == 0.5) return "exact (within 0.5)";  // the nearest integer
  if (rel == 0) return "within " + short_number(abs);
  // Below 0.01% a percentage reads badly ("1e-07%"): say "a relative 1e-09" instead.
  const std::string rel_text =
      rel * 100 >= 0.01 ? short_number(rel * 100) + "%" : "a relative " + short_number(rel);
  if (abs == 0) return "within " + rel_text;
  return "within " + rel_text + " or " + short_number(abs);
}

const std::vector<Exercise>& exercise_bank() {
  static const std::vector<Exercise> bank = [] {
    std::vector<Exercise> out;
    for (const auto& entry : detail::exercise_entries()) out.push_back(entry.exercise);
    return out;
  }();
  return bank;
}

const Exercise& find_exercise(std::string_view id) { return exercise_bank()[exercise_index(id)]; }

namespace {

json tolerance_json(const Tolerance& t) {
  return {{"rel", t.rel}, {"abs", t.abs}, {"text", t.text()}};
}

json parts_json(const Exercise& e) {
  json parts = json::array();
  const double total = total_weight(e);
  for (const auto& part : e.parts) {
    parts.push_back({{"label", part.label},
                     {"unit", part.unit},
                     {"tolerance", tolerance_json(part.tolerance)},
                     {"weight", part.weight},
                     {"points", e.points * part.weight / total}});
  }
  return parts;
}

}  // namespace

json exercise_to_json(const Exercise& e) {
  return {{"id", e.id},
          {"chapter", e.chapter},
          {"title", e.title},
          {"prompt", e.prompt},
          {"kind", to_string(e.kind)},
          {"points", e.points},
          {"hints", e.hints},
          {"grader_reference", e.grader_reference},
          {"tolerance", tolerance_json(e.tolerance)},
          {"unit", e.unit},
          {"parts", parts_json(e)},
          {"choices", e.choices},
          {"function_name", e.function_name},
          {"starter_code", e.starter_code},
          {"time_limit_ms", e.time_limit_ms},
          {"scoring", scoring_text(e)},
          {"evidence", e.evidence.experiment.empty()
                           ? json(nullptr)
                           : json{{"experiment", e.evidence.experiment},
                                  {"title", e.evidence.title},
                                  {"what", e.evidence.what}}}};
}

json exercise_bank_json() {
  json out = json::array();
  for (const auto& e : exercise_bank()) out.push_back(exercise_to_json(e));
  return out;
}

json exercise_variant(std::string_view id, std::uint32_t seed, std::string_view hidden_key) {
  const ExerciseEntry& entry = find_entry(id);
  const Exercise& e = entry.exercise;
  const VariantData v = draw_for_key(entry, seed, hidden_key);
  json out = {{"id", e.id}, {"seed", seed}, {"params", v.params},
              {"prompt", detail::render_text(e.prompt, v.params, "exercise " + e.id)}};
  if (e.kind == ExerciseKind::Choice) out["choices"] = shown_choices(e, v);
  if (e.kind == ExerciseKind::Code) {
    json tests = json::array();
    std::size_t hidden_count = 0;
    for (std::size_t i = 0; i < v.tests.size(); ++i) {
      const auto& t = v.tests[i];
      const bool hidden = is_hidden(e, t, i);
      // A hidden test's own name can hold its inputs ("16×16"): it is named by its number.
      json test = {{"name", hidden ? "hidden test " + std::to_string(++hidden_count) : t.name},
                   {"args", t.args},
                   {"hidden", hidden}};
      if (!t.benchmark.is_null()) test["benchmark"] = t.benchmark;
      tests.push_back(std::move(test));
    }
    out["tests"] = std::move(tests);
  }
  return out;
}

json choice_variant(std::string_view id, std::uint32_t seed, int try_number) {
  const ExerciseEntry& entry = find_entry(id);
  const Exercise& e = entry.exercise;
  if (e.kind != ExerciseKind::Choice) {
    throw ValueError("exercise " + e.id + " is a " + to_string(e.kind) +
                     " exercise; only choice exercises draw a variant per try");
  }
  if (try_number < 1 || try_number > kMaxChoiceAttempt) {
    throw ValueError("try must be an integer from 1 to " + std::to_string(kMaxChoiceAttempt) +
                     ", got " + std::to_string(try_number));
  }
  const VariantData v = draw_variant(entry, seed, try_number);
  return {{"id", e.id},
          {"seed", seed},
          {"try", try_number},
          {"params", v.params},
          {"prompt", detail::render_text(e.prompt, v.params, "exercise " + e.id)},
          {"choices", shown_choices(e, v)}};
}

namespace {

// Checks answer.evidence of an experiment-backed exercise, lets the bank compute the expected
// answer from its rows, and returns the answer without it for the kind's usual grading.
json apply_evidence(const ExerciseEntry& entry, VariantData& v, const json& answer) {
  const Exercise& e = entry.exercise;
  const EvidenceSpec& spec = e.evidence;
  const std::string run_first = "run " + spec.title + " (" + spec.experiment +
                                ") on this page first; this exercise is graded from " +
                                spec.what + " in your own run";
  if (!answer.is_object() || !answer.contains("evidence")) {
    throw ValueError("answer.evidence is missing: " + run_first);
  }
  const json& evidence = answer.at("evidence");
  if (!evidence.is_object()) {
    throw ValueError("answer.evidence must be an object {experiment, rows}, got " +
                     describe(evidence));
  }
  for (const auto& item : evidence.items()) {
    // finished_at: when the run finished, read by the forensic checks (forensics.hpp).
    if (item.key() != "experiment" && item.key() != "rows" && item.key() != "finished_at") {
      throw ValueError("answer.evidence has an unknown field \"" + item.key() +
                       "\"; allowed: \"experiment\", \"rows\", \"finished_at\"");
    }
  }
  const json experiment = evidence.value("experiment", json(nullptr));
  if (experiment != spec.experiment) {
    throw ValueError("answer.evidence.experiment must be \"" + spec.experiment + "\", got " +
                     describe(experiment));
  }
  if (!evidence.contains("rows") || !evidence.at("rows").is_array() ||
      evidence.at("rows").empty()) {
    throw ValueError("answer.evidence.rows must be a non-empty array of the rows of your run, got " +
                     (evidence.contains("rows") ? describe(evidence.at("rows")) : "nothing") +
                     "; " + run_first);
  }
  const json& rows = evidence.at("rows");
  constexpr std::size_t kMaxRows = 10'000;  // an experiment run has tens of rows
  if (rows.size() > kMaxRows) {
    throw ValueError("answer.evidence.rows has " + std::to_string(rows.size()) +
                     " rows; an experiment run has at most " + std::to_string(kMaxRows));
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!rows[i].is_object()) {
      throw ValueError("answer.evidence.rows[" + std::to_string(i) +
                       "] must be an object (one row of " + spec.experiment + "), got " +
                       describe(rows[i]));
    }
  }
  entry.from_evidence(e, rows, v);
  json rest = answer;
  rest.erase("evidence");
  return rest;
}

}  // namespace

double choice_score_fraction(int attempt) {
  if (attempt < 1) throw ValueError("attempt counts from 1, got " + std::to_string(attempt));
  return attempt == 1 ? 1.0 : attempt == 2 ? 0.5 : 0.0;
}

std::string scoring_text(const Exercise& e) {
  std::string text;
  switch (e.kind) {
    case ExerciseKind::Numeric:
      text = e.parts.empty() ? "Full points for an answer within the tolerance; wrong tries cost nothing."
                             : "Each right part earns its share of the points; wrong tries cost nothing.";
      break;
    case ExerciseKind::Choice:
      return "Full points on the first try, half on the second, none later: each wrong try draws "
             "a new variant (new figures or a new question, a new order), so a guess among the " +
             std::to_string(e.choices.size()) + " choices is right one time in " +
             std::to_string(e.choices.size()) + " at best and trying them all does not pay.";
    case ExerciseKind::Code:
      text = e.timed_points > 0
                 ? "The timed test earns " + std::to_string(e.timed_points) + " of the " +
                       std::to_string(e.points) +
                       " points, the other tests share the rest equally; reruns cost nothing."
                 : "Points in proportion to the tests your code passes; reruns cost nothing.";
      break;
  }
  if (e.feedback_hides_answer) {
    text += e.kind == ExerciseKind::Code
                ? " A failed test shows what your code returned, not the value expected."
                : " The feedback says right or wrong, not which way a number is off.";
  }
  return text;
}

const std::string& exercise_bank_version() {
  // Hash of everything a student sees and is graded on that data can show: the bank's
  // JSON and the variants of a few seeds, so a changed prompt, tolerance, drawing rule or
  // expected-free test list changes the version.
  static const std::string version = [] {
    std::uint64_t h = fnv1a64(exercise_bank_json().dump());
    for (const auto& e : exercise_bank()) {
      for (std::uint32_t seed : {0u, 1u, 2u, 3u}) h = fnv1a64(exercise_variant(e.id, seed).dump(), h);
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
    return "bank-" + std::string(hex);
  }();
  return version;
}

std::string detail::describe_value(const json& value) { return shown(value); }
std::string detail::format_param(const json& value) { return param_text(value); }

json grade_exercise(std::string_view id, std::uint32_t seed, const json& answer,
                    std::string_view hidden_key, AnswerMode mode) {
  const ExerciseEntry& entry = find_entry(id);
  // A choice answer is graded against the variant of the try it names.
  const int try_number = entry.exercise.kind == ExerciseKind::Choice ? choice_attempt(answer) : 1;
  VariantData v = draw_for_key(entry, seed, hidden_key, try_number);
  const bool backed = !entry.exercise.evidence.experiment.empty();
  if (backed && entry.from_evidence == nullptr) {
    throw Error("exercise " + std::string(id) + " declares evidence but no way to grade from it");
  }
  const json plain = backed ? apply_evidence(entry, v, answer) : answer;
  // Outside practice the feedback says right or wrong only: no "Too high" to bisect on and
  // no expected value (the exercise's own feedback_hides_answer wording).
  const Exercise* e = &entry.exercise;
  Exercise quiet;
  if (mode != AnswerMode::Practice && !e->feedback_hides_answer) {
    quiet = entry.exercise;
    quiet.feedback_hides_answer = true;
    e = &quiet;
  }
  json out;
  switch (e->kind) {
    case ExerciseKind::Numeric: out = grade_numeric(*e, v, plain); break;
    case ExerciseKind::Choice: out = grade_choice(*e, v, plain); break;
    case ExerciseKind::Code: out = grade_code(*e, v, plain); break;
    default: throw Error("exercise " + std::string(id) + " has an unknown kind");
  }
  if (mode == AnswerMode::Sealed) {
    return {{"correct", nullptr}, {"score", nullptr},   {"max_score", e->points},
            {"feedback", kSealedFeedback}, {"tests", json::array()}, {"mode", to_string(mode)}};
  }
  if (mode == AnswerMode::Assessed) out["mode"] = to_string(mode);
  return out;
}

}  // namespace perflab
