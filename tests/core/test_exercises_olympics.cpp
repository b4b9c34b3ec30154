// Protects the Optimization chapter's exercises on the Olympics: every expected answer is
// recomputed here from the variant's own parameters, independently of the exercise's code (the
// qualified events from the constraints olympics_events_json() lists, the all-around score by
// its stated formula); right answers score full points and the usual misreadings do not (the
// ratio instead of the interval's end, means instead of medians, the latency ratio where the
// speedup belongs); variants differ between seeds and tries; feedback gives no direction.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/olympics/events.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr std::uint32_t kSeeds = 40;

const char* const kQualify = "optimization.olympics-qualify";
const char* const kScore = "optimization.olympics-score";

// One figure of the params as a double (integers of the bytes included).
double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

// The events an entry qualifies for, from the constraints as the events' JSON lists them:
// "Latency sprint, Accuracy contest and All-around" (the exercise's wording of a set).
std::string qualified_by_hand(double accuracy, double bytes_ratio, double low, double high) {
  std::vector<std::string> names;
  const json events = olympics_events_json();
  for (const json& e : events.at("events")) {
    bool ok = true;
    for (const json& c : e.at("constraints")) {
      const double limit = c.at("limit");
      const std::string field = c.at("field");
      const double value = field == "accuracy"             ? accuracy
                           : field == "bytes_ratio"        ? bytes_ratio
                           : field == "latency_ratio_high" ? high
                                                           : low;
      ok = ok && (c.at("bound") == "at least" ? value >= limit : value <= limit);
    }
    if (ok) names.push_back(e.at("name"));
  }
  if (names.empty()) return "None of the five events";
  std::string text = names.front();
  for (std::size_t i = 1; i < names.size(); ++i) {
    text += (i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return text;
}

int shown_index_of(const json& variant, const std::string& text) {
  const json& choices = variant.at("choices");
  int found = -1;
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i] == text) {
      REQUIRE(found == -1);
      found = static_cast<int>(i);
    }
  }
  return found;
}

}  // namespace

TEST_CASE("olympics-qualify: the right set is the one every constraint allows, on every try") {
  std::map<std::string, int> right_sets;
  int point_misread_offered = 0;  // the ratio read for both ends gives another set, offered
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    for (int attempt : {1, 2}) {
      CAPTURE(seed);
      CAPTURE(attempt);
      const json v = choice_variant(kQualify, seed, attempt);
      prompts.insert(v.at("prompt").get<std::string>());
      const double accuracy = param(v, "accuracy");
      const double bytes_ratio = param(v, "bytes") / param(v, "baseline_bytes");
      const double ratio = param(v, "ratio"), low = param(v, "low"), high = param(v, "high");
      CHECK(low <= ratio);
      CHECK(ratio <= high);
      const std::string right = qualified_by_hand(accuracy, bytes_ratio, low, high);
      CAPTURE(right);
      CAPTURE(v.at("choices").dump());
      const int index = shown_index_of(v, right);
      REQUIRE(index >= 0);
      // Four different sets.
      CHECK(std::set<json>(v.at("choices").begin(), v.at("choices").end()).size() == 4);
      const std::string misread = qualified_by_hand(accuracy, bytes_ratio, ratio, ratio);
      if (misread != right && shown_index_of(v, misread) >= 0) ++point_misread_offered;
      for (int c = 0; c < 4; ++c) {
        const json graded = grade_exercise(kQualify, seed, {{"choice", c}, {"attempt", attempt}});
        CHECK(graded.at("correct") == (c == index));
        CHECK(graded.at("score") == (c == index ? (attempt == 1 ? 10 : 5) : 0));
      }
      if (attempt == 1) ++right_sets[right];
    }
  }
  CHECK(prompts.size() == 2 * kSeeds);
  // Sets vary with the figures: no set is the answer for most students.
  CHECK(right_sets.size() >= 6);
  for (const auto& [set, count] : right_sets) {
    CAPTURE(set);
    CHECK(count <= static_cast<int>(kSeeds) * 35 / 100);
  }
  // The drawn intervals straddle the bounds often enough that reading the ratio for both
  // ends is a choice offered and wrong.
  CHECK(point_misread_offered >= static_cast<int>(kSeeds) / 4);
}

TEST_CASE("olympics-score: the stated formula at the medians' ratio scores, the usual slips do not") {
  std::set<std::string> prompts;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kScore, seed);
    prompts.insert(v.at("prompt").get<std::string>());
    const double relative = param(v, "accuracy") / param(v, "baseline_accuracy");
    const double compression = param(v, "baseline_bytes") / param(v, "bytes");
    const double ratio = param(v, "b_median_ms") / param(v, "a_median_ms");
    const double mean_ratio = param(v, "b_mean_ms") / param(v, "a_mean_ms");
    const double score = relative * std::sqrt(compression / ratio);
    const auto grade = [&](double x) { return grade_exercise(kScore, seed, {{"value", x}}); };
    const json right = grade(score);
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == 10);
    // Within the stated 1%, a figure rounded on the way still counts.
    CHECK(grade(score * 1.008).at("correct") == true);
    const json means = grade(relative * std::sqrt(compression / mean_ratio));
    CHECK(means.at("correct") == false);
    const std::string feedback = means.at("feedback");
    CHECK(exercise_test::contains(feedback, "Not correct"));
    CHECK_FALSE(exercise_test::contains(feedback, "Too"));
    CHECK(grade(relative * std::sqrt(compression * ratio)).at("correct") == false);
    CHECK(grade(relative * compression / ratio).at("correct") == false);
    CHECK(grade(param(v, "accuracy") * std::sqrt(compression / ratio)).at("correct") == false);
    CHECK(grade(relative / std::sqrt(compression * ratio)).at("correct") == false);
  }
  CHECK(prompts.size() == kSeeds);
}
