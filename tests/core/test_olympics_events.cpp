// Protects the Olympics' events: the five events and their constraints as core states them,
// the baseline qualifying for exactly the events it should (and refused from the others
// with a sentence naming the constraint and the value), each constraint's boundary, the
// all-around formula against a hand computation, the figures' reader, and an entry's latency
// ratio from raw A/B samples (inverted from the comparison's baseline / entry).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/olympics/events.hpp"

using namespace perflab;

namespace {

// The pretrained fashion_mlp's figures as the grader recomputes them, timed against itself.
OlympicsFigures baseline_figures() {
  OlympicsFigures f;
  f.accuracy = f.baseline_accuracy = 0.8985;
  f.parameter_bytes = f.baseline_parameter_bytes = 940584;
  f.latency_ratio = 1.0;
  f.latency_ratio_low = 0.97;
  f.latency_ratio_high = 1.03;
  return f;
}

const EventJudgement& judgement(const std::vector<EventJudgement>& all, const std::string& id) {
  for (const EventJudgement& j : all) {
    if (j.event == id) return j;
  }
  FAIL("no judgement for " << id);
  return all.front();
}

bool qualifies(const OlympicsFigures& f, const std::string& id) {
  return judgement(judge_olympics_entry(f), id).qualified;
}

// One interleaved timing of `rounds` rounds: A around 1 ms, B `factor` times A.
nlohmann::json timing(std::size_t rounds, double factor) {
  nlohmann::json a = nlohmann::json::array(), b = nlohmann::json::array(),
                 first = nlohmann::json::array();
  for (std::size_t i = 0; i < rounds; ++i) {
    const double a_ms = 1.0 + 0.01 * static_cast<double>(i % 7);
    a.push_back(a_ms);
    b.push_back(a_ms * factor);
    first.push_back(i % 3 == 0);
  }
  return {{"batch", 1}, {"mode", "interleaved"}, {"rounds", rounds},
          {"a_ms", a},  {"b_ms", b},             {"a_first", first}};
}

}  // namespace

TEST_CASE("the five events, in order, each with its direction and constraints") {
  const auto& events = olympics_events();
  REQUIRE(events.size() == 5);
  CHECK(events[0].id == "latency-sprint");
  CHECK(events[1].id == "memory-challenge");
  CHECK(events[2].id == "accuracy-contest");
  CHECK(events[3].id == "all-around");
  CHECK(events[4].id == "extreme-push");
  CHECK(olympics_event("all-around").higher_is_better);
  CHECK_FALSE(olympics_event("extreme-push").higher_is_better);
  CHECK_THROWS_WITH_AS(olympics_event("marathon"),
                       "unknown Olympics event \"marathon\"; the events are latency-sprint, "
                       "memory-challenge, accuracy-contest, all-around, extreme-push",
                       ValueError);

  const nlohmann::json j = olympics_events_json();
  CHECK(j["batch"] == kOlympicsBatch);
  CHECK(j["min_rounds"] == kOlympicsMinRounds);
  REQUIRE(j["events"].size() == 5);
  const nlohmann::json& memory = j["events"][1];
  CHECK(memory["metric"] == "parameter_bytes");
  CHECK(memory["direction"] == "lower");
  REQUIRE(memory["constraints"].size() == 2);
  CHECK(memory["constraints"][0]["field"] == "accuracy");
  CHECK(memory["constraints"][0]["limit"] == 0.85);
  CHECK(memory["constraints"][1]["field"] == "bytes_ratio");
  CHECK(memory["constraints"][1]["limit"] == 0.5);
  CHECK(memory["constraints"][1]["sentence"] == "parameter bytes at most 0.50× the baseline's");
  const nlohmann::json& contest = j["events"][2];
  CHECK(contest["direction"] == "higher");
  REQUIRE(contest["constraints"].size() == 2);  // no accuracy floor: accuracy is its score
  CHECK(contest["constraints"][1]["field"] == "latency_ratio_low");
  const nlohmann::json& push = j["events"][4];
  CHECK(push["constraints"][1]["field"] == "latency_ratio_high");
  CHECK(push["constraints"][1]["limit"] == 0.5);
  CHECK(j["events"][3]["formula"] == j["all_around_formula"]);
}

TEST_CASE("the baseline qualifies for the sprint, the contest and the all-around only") {
  const std::vector<EventJudgement> all = judge_olympics_entry(baseline_figures());
  REQUIRE(all.size() == 5);
  CHECK(judgement(all, "latency-sprint").qualified);
  CHECK(judgement(all, "accuracy-contest").qualified);
  CHECK(judgement(all, "all-around").qualified);
  CHECK(judgement(all, "latency-sprint").refusals.empty());

  const EventJudgement& memory = judgement(all, "memory-challenge");
  CHECK_FALSE(memory.qualified);
  REQUIRE(memory.refusals.size() == 1);
  CHECK(memory.refusals[0] ==
        "memory-challenge needs parameter bytes at most 0.50× the baseline's (470,292 bytes of "
        "940,584); this entry has 940,584 (1.00×)");
  const EventJudgement& push = judgement(all, "extreme-push");
  CHECK_FALSE(push.qualified);
  REQUIRE(push.refusals.size() == 1);
  CHECK(push.refusals[0] ==
        "extreme-push needs a latency at most 0.50× the baseline's (the upper end of the 95% "
        "interval); this entry's is 1.00× (0.97-1.03×)");

  // Scores in each event's metric; the baseline's all-around score is 1.
  CHECK(judgement(all, "latency-sprint").score == 1.0);
  CHECK(judgement(all, "latency-sprint").score_low == 0.97);
  CHECK(judgement(all, "memory-challenge").score == 940584);
  CHECK(judgement(all, "accuracy-contest").score == 0.8985);
  CHECK(judgement(all, "all-around").score == doctest::Approx(1.0));

  const nlohmann::json j = to_json(memory);
  CHECK(j["event"] == "memory-challenge");
  CHECK(j["qualified"] == false);
  CHECK(j["refusals"].size() == 1);
  CHECK(j["score_interval"] == nlohmann::json::array({940584.0, 940584.0}));
}

TEST_CASE("each constraint holds at its limit and refuses just past it") {
  OlympicsFigures f = baseline_figures();
  SUBCASE("the accuracy floor") {
    f.accuracy = 0.85;
    CHECK(qualifies(f, "latency-sprint"));
    f.accuracy = 0.8499;
    CHECK_FALSE(qualifies(f, "latency-sprint"));
    CHECK(judgement(judge_olympics_entry(f), "latency-sprint").refusals ==
          std::vector<std::string>{"latency-sprint needs a test accuracy of at least 0.85; this "
                                   "entry's is 0.8499"});
    CHECK(qualifies(f, "all-around"));  // its floor is 0.80
    f.accuracy = 0.7999;
    CHECK_FALSE(qualifies(f, "all-around"));
  }
  SUBCASE("half the baseline's bytes") {
    f.accuracy = 0.86;
    f.parameter_bytes = 470292;
    CHECK(qualifies(f, "memory-challenge"));
    f.parameter_bytes = 470293;
    CHECK_FALSE(qualifies(f, "memory-challenge"));
  }
  SUBCASE("the contest's size and latency: not above the baseline's") {
    f.parameter_bytes = 940585;
    CHECK_FALSE(qualifies(f, "accuracy-contest"));
    f.parameter_bytes = 940584;
    f.latency_ratio_low = 1.0;
    CHECK(qualifies(f, "accuracy-contest"));
    f.latency_ratio = 1.05;
    f.latency_ratio_low = 1.01;
    f.latency_ratio_high = 1.10;
    const std::vector<EventJudgement> all = judge_olympics_entry(f);
    const EventJudgement& contest = judgement(all, "accuracy-contest");
    CHECK_FALSE(contest.qualified);
    CHECK(contest.refusals ==
          std::vector<std::string>{"accuracy-contest needs a latency not above the baseline's: "
                                   "at most 1.00× the baseline's at the lower end of the 95% "
                                   "interval; this entry's is 1.05× (1.01-1.10×)"});
  }
  SUBCASE("the push's upper end at most 0.50") {
    f.accuracy = 0.81;
    f.latency_ratio = 0.45;
    f.latency_ratio_low = 0.40;
    f.latency_ratio_high = 0.50;
    CHECK(qualifies(f, "extreme-push"));
    CHECK_FALSE(qualifies(f, "latency-sprint"));  // 0.81 is under the sprint's 0.85
    f.latency_ratio_high = 0.51;
    CHECK_FALSE(qualifies(f, "extreme-push"));
  }
}

TEST_CASE("the all-around score by hand: accuracy kept × √(speedup × compression)") {
  OlympicsFigures f = baseline_figures();
  f.accuracy = 0.88;
  f.parameter_bytes = 235146;  // a quarter: compression 4
  f.latency_ratio = 0.5;       // speedup 2
  f.latency_ratio_low = 0.4;
  f.latency_ratio_high = 0.625;
  const std::vector<EventJudgement> all = judge_olympics_entry(f);
  const EventJudgement& j = judgement(all, "all-around");
  // 0.88 / 0.8985 × √8 = 2.77019; the slow end (1.6× speedup) × √6.4, the fast end × √10.
  CHECK(j.score == doctest::Approx(2.7701901722611546));
  CHECK(j.score_low == doctest::Approx(2.4777334143111176));
  CHECK(j.score_high == doctest::Approx(3.097166767888897));
  CHECK(j.qualified);
}

TEST_CASE("figures are read by path and refused out of range") {
  const OlympicsFigures f = baseline_figures();
  const nlohmann::json j = to_json(f);
  const OlympicsFigures back = olympics_figures_from_json(j, "figures");
  CHECK(back.parameter_bytes == f.parameter_bytes);
  CHECK(back.latency_ratio_high == f.latency_ratio_high);

  nlohmann::json missing = j;
  missing.erase("latency_ratio");
  CHECK_THROWS_WITH_AS(olympics_figures_from_json(missing, "figures"),
                       "figures.latency_ratio is missing", ValueError);
  nlohmann::json text = j;
  text["accuracy"] = "high";
  CHECK_THROWS_AS(olympics_figures_from_json(text, "figures"), ValueError);
  nlohmann::json over = j;
  over["accuracy"] = 1.5;
  CHECK_THROWS_WITH_AS(olympics_figures_from_json(over, "figures"),
                       "figures.accuracy must be 0 to 1, got 1.5", ValueError);
  nlohmann::json zero = j;
  zero["parameter_bytes"] = 0;
  CHECK_THROWS_WITH_AS(olympics_figures_from_json(zero, "figures"),
                       "figures.parameter_bytes must be a finite number above 0, got 0",
                       ValueError);
  nlohmann::json outside = j;
  outside["latency_ratio_low"] = 1.2;
  CHECK_THROWS_WITH_AS(olympics_figures_from_json(outside, "figures"),
                       "figures: the latency ratio 1 must lie in its interval, "
                       "latency_ratio_low 1.2 to latency_ratio_high 1.03",
                       ValueError);
}

TEST_CASE("the latency ratio from raw samples: B twice as fast reads 0.5, entry over baseline") {
  const nlohmann::json l = olympics_latency(timing(30, 0.5));
  CHECK(l["ratio"].get<double>() == doctest::Approx(0.5));
  const double low = l["interval"][0], high = l["interval"][1];
  CHECK(low <= 0.5);
  CHECK(high >= 0.5);
  CHECK(low > 0.4);
  CHECK(high < 0.6);
  CHECK(l["rounds"] == 30);
  CHECK(l["batch"] == 1);
  CHECK(l["self_reported"] == true);
  CHECK(l["sentence"].get<std::string>().find("0.50×") != std::string::npos);
  // A slower entry reads above 1.
  CHECK(olympics_latency(timing(12, 1.5))["ratio"].get<double>() == doctest::Approx(1.5));
}

TEST_CASE("the latency ratio lies in its own interval, whatever the division rounds to") {
  // 93 / 90 rounds to 1.0333333333333334 and 1 / (90 / 93) to 1.0333333333333332: with every
  // sample equal, the interval is that one value, and a ratio computed the other way fell
  // outside it, so judging refused an honest entry.
  nlohmann::json t = timing(12, 1.0);
  t["a_ms"] = std::vector<double>(12, 90.0);
  t["b_ms"] = std::vector<double>(12, 93.0);
  const nlohmann::json l = olympics_latency(t);
  const double ratio = l["ratio"], low = l["interval"][0], high = l["interval"][1];
  CHECK(low <= ratio);
  CHECK(ratio <= high);
  OlympicsFigures f = baseline_figures();
  f.latency_ratio = ratio;
  f.latency_ratio_low = low;
  f.latency_ratio_high = high;
  CHECK_NOTHROW(judge_olympics_entry(f));
}

TEST_CASE("a timing that is not one interleaved batch-1 run of enough rounds is refused") {
  nlohmann::json t = timing(12, 0.5);
  SUBCASE("batch") {
    t["batch"] = 8;
    CHECK_THROWS_WITH_AS(olympics_latency(t),
                         "timing.batch is 8; an Olympics latency is timed at batch 1", ValueError);
  }
  SUBCASE("mode") {
    t["mode"] = "sequential";
    CHECK_THROWS_WITH_AS(olympics_latency(t, "entry.timing"),
                         "entry.timing.mode is \"sequential\"; an Olympics latency needs "
                         "\"interleaved\" rounds (the baseline and the entry timed in turn, so a "
                         "machine's drift reaches both)",
                         ValueError);
  }
  SUBCASE("too few rounds") {
    t = timing(9, 0.5);
    CHECK_THROWS_WITH_AS(olympics_latency(t),
                         "timing holds 9 rounds; an Olympics latency needs at least 10",
                         ValueError);
  }
  SUBCASE("a_first of another length") {
    t["a_first"].erase(0);
    CHECK_THROWS_WITH_AS(olympics_latency(t),
                         "timing holds 12 a_ms, 12 b_ms and 11 a_first: one of each per round "
                         "is needed",
                         ValueError);
  }
  SUBCASE("a_first not booleans") {
    t["a_first"][3] = 1;
    CHECK_THROWS_WITH_AS(olympics_latency(t), "timing.a_first[3] must be true or false, got 1",
                         ValueError);
  }
  SUBCASE("rounds not the samples'") {
    t["rounds"] = 30;
    CHECK_THROWS_WITH_AS(olympics_latency(t),
                         "timing.rounds is 30 but the timing holds 12 rounds of samples",
                         ValueError);
  }
  SUBCASE("a sample that is not a positive time") {
    t["b_ms"][4] = -0.5;
    CHECK_THROWS_WITH_AS(olympics_latency(t),
                         "timing.b_ms[4] must be a finite number above 0, got -0.5", ValueError);
  }
  SUBCASE("not an object") {
    CHECK_THROWS_AS(olympics_latency(nlohmann::json::array()), ValueError);
  }
}
