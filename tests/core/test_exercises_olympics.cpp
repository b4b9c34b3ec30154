// Protects the Optimization chapter's exercises on the Olympics: every expected answer is
// recomputed here from the variant's own parameters, independently of the exercise's code (the
// qualified events from the constraints olympics_events_json() lists, the all-around score by
// its stated formula, ranks by counting the intervals that lie wholly on the better side);
// right answers score full points and the usual misreadings do not (the ratio instead of the
// interval's end, means instead of medians, the latency ratio where the speedup belongs, the
// best entry in the event's metric whatever its constraints, the order of the ratios instead
// of the rule for overlapping intervals); variants differ between seeds and tries; feedback
// gives no direction.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "exercise_helpers.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/olympics/events.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr std::uint32_t kSeeds = 40;

const char* const kQualify = "optimization.olympics-qualify";
const char* const kScore = "optimization.olympics-score";
const char* const kChoose = "optimization.olympics-choose";
const char* const kTies = "optimization.olympics-ties";

// One figure of the params as a double (integers of the bytes included).
double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

// Whether an entry meets every constraint of one event as the events' JSON lists it.
bool qualifies(const json& event, double accuracy, double bytes_ratio, double low, double high) {
  bool ok = true;
  for (const json& c : event.at("constraints")) {
    const double limit = c.at("limit");
    const std::string field = c.at("field");
    const double value = field == "accuracy"             ? accuracy
                         : field == "bytes_ratio"        ? bytes_ratio
                         : field == "latency_ratio_high" ? high
                                                         : low;
    ok = ok && (c.at("bound") == "at least" ? value >= limit : value <= limit);
  }
  return ok;
}

// The events an entry qualifies for: "Latency sprint, Accuracy contest and All-around" (the
// exercise's wording of a set).
std::string qualified_by_hand(double accuracy, double bytes_ratio, double low, double high) {
  std::vector<std::string> names;
  const json events = olympics_events_json();
  for (const json& e : events.at("events")) {
    if (qualifies(e, accuracy, bytes_ratio, low, high)) names.push_back(e.at("name"));
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
      const json& latency = v.at("params").at("latency");
      const double ratio = latency[0], low = latency[1], high = latency[2];
      // The prompt shows them to two decimals, as the page prints ratios.
      CHECK(
          exercise_test::contains(v.at("prompt").get<std::string>(),
                                  "from " + v.at("params").at("low").get<std::string>() + "× to"));
      CHECK(low <= ratio);
      CHECK(ratio <= high);
      const std::string right = qualified_by_hand(accuracy, bytes_ratio, low, high);
      CAPTURE(right);
      CAPTURE(v.at("choices").dump());
      const int index = shown_index_of(v, right);
      REQUIRE(index >= 0);
      // Four different sets, none standing out by its distance to the others: each is one
      // event away from two of them and two events from the third.
      CHECK(std::set<json>(v.at("choices").begin(), v.at("choices").end()).size() == 4);
      const auto members = [](const std::string& text) {
        std::set<std::string> in;
        for (const OlympicsEvent& e : olympics_events()) {
          if (exercise_test::contains(text, e.name)) in.insert(e.name);
        }
        return in;
      };
      for (const json& one : v.at("choices")) {
        std::multiset<std::size_t> distances;
        for (const json& other : v.at("choices")) {
          if (other == one) continue;
          std::size_t d = 0;
          for (const OlympicsEvent& e : olympics_events()) {
            d += members(one.get<std::string>()).count(e.name) !=
                 members(other.get<std::string>()).count(e.name);
          }
          distances.insert(d);
        }
        CHECK(distances == std::multiset<std::size_t>{1, 1, 2});
      }
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
  // (Not a structured binding: clang 14, the wasm build's, cannot capture one in CAPTURE.)
  for (const auto& right : right_sets) {
    CAPTURE(right.first);
    CHECK(right.second <= static_cast<int>(kSeeds) * 35 / 100);
  }
  // The drawn intervals straddle the bounds often enough that reading the ratio for both
  // ends is a choice offered and wrong.
  CHECK(point_misread_offered >= static_cast<int>(kSeeds) / 4);
}

TEST_CASE(
    "olympics-score: the stated formula at the medians' ratio scores, the usual slips do not") {
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

namespace {

// A score with its interval, lower or higher being better.
struct Scored {
  double score, low, high;
};

// rank = 1 + the entries that beat this one: for a score timed on a machine, an interval wholly
// on the better side; for a recomputed one, a better value.
int rank_by_hand(const std::vector<Scored>& all, std::size_t i, bool timed, bool higher) {
  int rank = 1;
  for (std::size_t j = 0; j < all.size(); ++j) {
    if (j == i) continue;
    const bool beats = timed ? (higher ? all[j].low > all[i].high : all[j].high < all[i].low)
                             : (higher ? all[j].score > all[i].score : all[j].score < all[i].score);
    rank += beats ? 1 : 0;
  }
  return rank;
}

}  // namespace

TEST_CASE(
    "olympics-choose: the one qualified entry that beats the others wins, rarely the best in the "
    "metric") {
  const json events = olympics_events_json();
  std::map<std::string, int> right_texts;
  std::set<std::string> asked_events;
  int naive_wrong = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    for (int attempt : {1, 2}) {
      CAPTURE(seed);
      CAPTURE(attempt);
      const json v = choice_variant(kChoose, seed, attempt);
      const json& p = v.at("params");
      CAPTURE(p.dump());
      const json* event = nullptr;
      for (const json& e : events.at("events")) {
        if (e.at("name") == p.at("event")) event = &e;
      }
      REQUIRE(event != nullptr);
      asked_events.insert(p.at("event").get<std::string>());
      const std::string metric = event->at("metric");
      const bool higher = event->at("direction") == "higher";
      const bool timed = metric == "latency_ratio" || metric == "all_around";
      const double base_accuracy = p.at("baseline_accuracy"), base_bytes = p.at("baseline_bytes");
      std::vector<Scored> scored;
      std::vector<bool> qualified;
      for (const json& c : p.at("candidates")) {
        const double accuracy = c.at("accuracy"), bytes = c.at("bytes");
        const double ratio = c.at("ratio"), low = c.at("low"), high = c.at("high");
        CHECK(c.at("lineage").get<std::string>().size() > 3);
        CHECK(std::fabs(c.at("bytes_ratio").get<double>() - bytes / base_bytes) <= 0.0005);
        qualified.push_back(qualifies(*event, accuracy, bytes / base_bytes, low, high));
        const auto all_around = [&](double r) {
          return accuracy / base_accuracy * std::sqrt(base_bytes / bytes / r);
        };
        if (metric == "latency_ratio") scored.push_back({ratio, low, high});
        if (metric == "parameter_bytes") scored.push_back({bytes, bytes, bytes});
        if (metric == "accuracy") scored.push_back({accuracy, accuracy, accuracy});
        if (metric == "all_around")
          scored.push_back({all_around(ratio), all_around(high), all_around(low)});
      }
      REQUIRE(scored.size() == 4);
      std::vector<Scored> ranked;
      std::vector<std::size_t> index;
      for (std::size_t i = 0; i < 4; ++i) {
        if (qualified[i]) {
          ranked.push_back(scored[i]);
          index.push_back(i);
        }
      }
      int winners = 0;
      std::size_t winner = 0;
      for (std::size_t k = 0; k < ranked.size(); ++k) {
        if (rank_by_hand(ranked, k, timed, higher) == 1) {
          ++winners;
          winner = index[k];
        }
      }
      REQUIRE(winners == 1);
      // The choices are the candidates' lineages in the table's order.
      CHECK(v.at("choices")[winner] == p.at("candidates")[winner].at("lineage"));
      for (int c = 0; c < 4; ++c) {
        const json graded = grade_exercise(kChoose, seed, {{"choice", c}, {"attempt", attempt}});
        CHECK(graded.at("correct") == (static_cast<std::size_t>(c) == winner));
      }
      std::size_t naive = 0;  // the best in the metric, constraints aside
      for (std::size_t i = 1; i < 4; ++i) {
        if (higher ? scored[i].score > scored[naive].score : scored[i].score < scored[naive].score)
          naive = i;
      }
      if (attempt == 1) {
        naive_wrong += naive != winner ? 1 : 0;
        ++right_texts[v.at("choices")[winner].get<std::string>()];
      }
    }
  }
  CHECK(asked_events.size() == olympics_events().size());
  CHECK(naive_wrong >= static_cast<int>(kSeeds) / 2);
  for (const auto& right : right_texts) {
    CAPTURE(right.first);
    CHECK(right.second <= static_cast<int>(kSeeds) * 35 / 100);
  }
}

TEST_CASE("olympics-ties: the rank counts the intervals wholly faster, not the ratios ahead") {
  std::set<std::string> prompts;
  int order_differs = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    CAPTURE(seed);
    const json v = exercise_variant(kTies, seed);
    const json& p = v.at("params");
    CAPTURE(p.dump());
    prompts.insert(v.at("prompt").get<std::string>());
    std::vector<Scored> entries;
    std::size_t asked = 0;
    for (const json& e : p.at("entries")) {
      if (e.at("name") == p.at("asked")) asked = entries.size();
      entries.push_back({e.at("ratio"), e.at("low"), e.at("high")});
    }
    REQUIRE(entries.size() == 6);
    const int rank = rank_by_hand(entries, asked, true, false);
    const int by_ratio = rank_by_hand(entries, asked, false, false);
    CHECK(grade_exercise(kTies, seed, {{"value", rank}}).at("correct") == true);
    CHECK(grade_exercise(kTies, seed, {{"value", rank}}).at("score") == 10);
    if (by_ratio != rank) {
      ++order_differs;
      const json naive = grade_exercise(kTies, seed, {{"value", by_ratio}});
      CHECK(naive.at("correct") == false);
      CHECK_FALSE(exercise_test::contains(naive.at("feedback").get<std::string>(), "Too"));
    }
  }
  CHECK(prompts.size() == kSeeds);
  CHECK(order_differs >= static_cast<int>(kSeeds) * 6 / 10);
}
