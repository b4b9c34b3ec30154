// Protects the Olympics leaderboard: latency scores whose intervals overlap tie and disjoint
// ones rank, equal deterministic values tie, each student is ranked by their best entry in an
// event, entries refused for an event or invalid are listed with their sentences, the Pareto
// frontier is made_models' rule, and the CSV and Markdown quote what they must. The check
// results are built from core's own judging of hand-made figures.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/olympics/events.hpp"
#include "perflab/olympics/leaderboard.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

constexpr double kBaseBytes = 940584;

struct Made {
  std::string id;
  double accuracy = 0.88, bytes = kBaseBytes, ratio = 1, low = 0.97, high = 1.03;
  std::vector<std::string> entered = {"latency-sprint", "memory-challenge", "accuracy-contest",
                                      "all-around", "extreme-push"};
  std::string name = "an entry";
};

// A valid check as the checker writes it, its events judged by core.
json check_of(const Made& m) {
  OlympicsFigures f;
  f.accuracy = m.accuracy;
  f.parameter_bytes = m.bytes;
  f.baseline_accuracy = 0.8985;
  f.baseline_parameter_bytes = kBaseBytes;
  f.latency_ratio = m.ratio;
  f.latency_ratio_low = m.low;
  f.latency_ratio_high = m.high;
  json events = json::array();
  for (const EventJudgement& j : judge_olympics_entry(f)) {
    json e = to_json(j);
    e["entered"] = std::find(m.entered.begin(), m.entered.end(), j.event) != m.entered.end();
    events.push_back(e);
  }
  return {{"entry", m.id},
          {"name", m.name},
          {"valid", true},
          {"error", nullptr},
          {"lineage_text", "prune 50%"},
          {"accuracy", m.accuracy},
          {"parameter_bytes", m.bytes},
          {"bytes_ratio", m.bytes / kBaseBytes},
          {"latency", {{"ratio", m.ratio}, {"interval", {m.low, m.high}}, {"self_reported", true}}},
          {"events", events},
          {"flags", json::array()}};
}

json row(const std::string& student, const json& check) {
  return {{"student", student}, {"check", check}};
}

const json& event_of(const json& board, const std::string& id) {
  for (const json& e : board["events"]) {
    if (e["event"] == id) return e;
  }
  FAIL("no event " << id);
  return board;
}

std::vector<std::string> students_of(const json& event) {
  std::vector<std::string> out;
  for (const json& r : event["rows"]) out.push_back(r["student"]);
  return out;
}

}  // namespace

TEST_CASE("latency: overlapping intervals tie, disjoint ones rank") {
  Made alice{"a1"}, bob{"b1"}, carol{"c1"};
  alice.ratio = 0.50, alice.low = 0.45, alice.high = 0.55;
  bob.ratio = 0.52, bob.low = 0.50, bob.high = 0.56;      // overlaps alice's
  carol.ratio = 0.70, carol.low = 0.65, carol.high = 0.75;  // beaten by both
  const json board = olympics_leaderboard(
      json::array({row("carol", check_of(carol)), row("bob", check_of(bob)),
                   row("alice", check_of(alice))}));
  const json& sprint = event_of(board, "latency-sprint");
  REQUIRE(sprint["rows"].size() == 3);
  CHECK(students_of(sprint) == std::vector<std::string>{"alice", "bob", "carol"});
  CHECK(sprint["rows"][0]["rank"] == 1);
  CHECK(sprint["rows"][0]["tied"] == true);
  CHECK(sprint["rows"][1]["rank"] == 1);
  CHECK(sprint["rows"][1]["tied"] == true);
  CHECK(sprint["rows"][2]["rank"] == 3);
  CHECK(sprint["rows"][2]["tied"] == false);
  CHECK(sprint["rows"][0]["latency_interval"] == json::array({0.45, 0.55}));
  CHECK(sprint["rows"][0]["score"] == 0.50);
  CHECK(sprint["direction"] == "lower");

  // A chain: carol overlaps both, alice beats bob outright.
  bob.ratio = 0.80, bob.low = 0.76, bob.high = 0.84;
  carol.ratio = 0.70, carol.low = 0.52, carol.high = 0.80;
  const json chain = olympics_leaderboard(json::array(
      {row("alice", check_of(alice)), row("bob", check_of(bob)), row("carol", check_of(carol))}));
  const json& rows = event_of(chain, "latency-sprint")["rows"];
  CHECK(students_of(event_of(chain, "latency-sprint")) ==
        std::vector<std::string>{"alice", "carol", "bob"});
  CHECK(rows[0]["rank"] == 1);  // alice: no interval lies wholly below hers
  CHECK(rows[1]["rank"] == 1);  // carol: overlaps both
  CHECK(rows[2]["rank"] == 2);  // bob: beaten by alice alone
  CHECK(rows[0]["tied"] == true);
  CHECK(rows[1]["tied"] == true);
  CHECK(rows[2]["tied"] == true);  // overlaps carol
}

TEST_CASE("bytes and accuracy: equal values tie, a better value ranks") {
  Made a{"x"}, b{"y"}, c{"z"};
  a.bytes = b.bytes = 100000;
  c.bytes = 120000;
  const json board = olympics_leaderboard(json::array(
      {row("ann", check_of(a)), row("ben", check_of(b)), row("cat", check_of(c))}));
  const json& memory = event_of(board, "memory-challenge");
  REQUIRE(memory["rows"].size() == 3);
  CHECK(students_of(memory) == std::vector<std::string>{"ann", "ben", "cat"});
  CHECK(memory["rows"][0]["rank"] == 1);
  CHECK(memory["rows"][1]["rank"] == 1);
  CHECK(memory["rows"][0]["tied"] == true);
  CHECK(memory["rows"][2]["rank"] == 3);
  CHECK(memory["rows"][2]["tied"] == false);
  // Accuracy: higher first; every interval is a point, so overlapping latencies do not tie.
  const json& contest = event_of(board, "accuracy-contest");
  CHECK(contest["direction"] == "higher");
  CHECK(contest["rows"][0]["rank"] == 1);
  CHECK(contest["rows"][0]["tied"] == true);  // all three at 0.88
}

TEST_CASE("one row per student per event: their best qualified entry that entered it") {
  Made slow{"e2"}, fast{"e1"}, faster_not_entered{"e3"}, same{"e0"};
  slow.ratio = 0.9, slow.low = 0.85, slow.high = 0.95;
  fast.ratio = 0.6, fast.low = 0.55, fast.high = 0.65;
  faster_not_entered.ratio = 0.3, faster_not_entered.low = 0.28, faster_not_entered.high = 0.32;
  faster_not_entered.entered = {"memory-challenge"};
  const json board = olympics_leaderboard(json::array({row("dana", check_of(slow)),
                                                       row("dana", check_of(fast)),
                                                       row("dana", check_of(faster_not_entered))}));
  const json& sprint = event_of(board, "latency-sprint");
  REQUIRE(sprint["rows"].size() == 1);
  CHECK(sprint["rows"][0]["entry"] == "e1");
  CHECK(sprint["rows"][0]["tied"] == false);
  // Equal scores: the smaller entry id.
  same.ratio = 0.6, same.low = 0.55, same.high = 0.65;
  const json tie = olympics_leaderboard(
      json::array({row("dana", check_of(fast)), row("dana", check_of(same))}));
  CHECK(event_of(tie, "latency-sprint")["rows"][0]["entry"] == "e0");
}

TEST_CASE("refused: each entered event not qualified, and every invalid entry, with sentences") {
  Made weak{"w1"};
  weak.accuracy = 0.82;  // under the sprint's 0.85; enough for the all-around
  weak.entered = {"latency-sprint", "all-around"};
  const json invalid = {{"entry", "bad-1"},
                        {"name", "tampered"},
                        {"valid", false},
                        {"error", "entry.pipeline[0].fraction is 1.5; allowed: 0 to 0.9"}};
  const json board = olympics_leaderboard(
      json::array({row("eve", check_of(weak)), row("finn", invalid)}));
  REQUIRE(board["refused"].size() == 2);
  const json& sprint = board["refused"][0];
  CHECK(sprint["student"] == "eve");
  CHECK(sprint["entry"] == "w1");
  CHECK(sprint["event"] == "latency-sprint");
  CHECK(sprint["reasons"] ==
        json::array({"latency-sprint needs a test accuracy of at least 0.85; this entry's is 0.82"}));
  const json& bad = board["refused"][1];
  CHECK(bad["student"] == "finn");
  CHECK(bad["entry"] == "bad-1");
  CHECK(bad["event"].is_null());
  CHECK(bad["reasons"] == json::array({"entry.pipeline[0].fraction is 1.5; allowed: 0 to 0.9"}));
  // Not ranked where refused, ranked where qualified; memory-challenge was not entered.
  CHECK(event_of(board, "latency-sprint")["rows"].empty());
  CHECK(event_of(board, "all-around")["rows"].size() == 1);
  CHECK(event_of(board, "memory-challenge")["rows"].empty());
  // The invalid entry is not on the frontier's list.
  REQUIRE(board["pareto"].size() == 1);
  CHECK(board["pareto"][0]["entry"] == "w1");
}

TEST_CASE("the Pareto frontier of latency ratio against accuracy over every valid entry") {
  Made a{"a"}, b{"b"}, c{"c"};
  a.ratio = 0.5, a.low = 0.45, a.high = 0.55, a.accuracy = 0.85;
  b.ratio = 0.8, b.low = 0.75, b.high = 0.85, b.accuracy = 0.89;
  c.ratio = 0.9, c.low = 0.85, c.high = 0.95, c.accuracy = 0.86;  // b is faster and better
  const json board = olympics_leaderboard(
      json::array({row("s1", check_of(a)), row("s2", check_of(b)), row("s3", check_of(c))}));
  REQUIRE(board["pareto"].size() == 3);
  CHECK(board["pareto"][0]["on_front"] == true);
  CHECK(board["pareto"][1]["on_front"] == true);
  CHECK(board["pareto"][2]["on_front"] == false);
  CHECK(board["pareto"][2]["latency_ratio"] == 0.9);
}

TEST_CASE("CSV quotes commas, quotes and line breaks; Markdown marks ties and lists refusals") {
  Made a{"e,1"}, b{"e2"};
  a.name = "prune \"half\", then int8";
  a.ratio = 0.5, a.low = 0.45, a.high = 0.55;
  b.ratio = 0.52, b.low = 0.46, b.high = 0.56;
  b.accuracy = 0.84;
  const json board = olympics_leaderboard(
      json::array({row("Smith, Jo", check_of(a)), row("lee|kim", check_of(b))}));
  const std::string csv = olympics_leaderboard_csv(board);
  CHECK(csv.rfind("event,rank,tied,student,entry,name,lineage,accuracy,parameter_bytes,"
                  "bytes_ratio,latency_ratio,latency_low,latency_high,score,score_low,"
                  "score_high,flags\n",
                  0) == 0);
  CHECK(csv.find("latency-sprint,1,false,\"Smith, Jo\",\"e,1\",\"prune \"\"half\"\", then "
                 "int8\",prune 50%,0.88,940584,1,0.5,0.45,0.55,0.5,0.45,0.55,\n") !=
        std::string::npos);

  const std::string md = olympics_leaderboard_markdown(board);
  CHECK(md.find("## Latency sprint (latency-sprint)") != std::string::npos);
  CHECK(md.find("| 1 | Smith, Jo | e,1 (prune \"half\", then int8) |") != std::string::npos);
  // lee|kim (0.84) is refused from the sprint, its pipe escaped in the list.
  CHECK(md.find("- lee\\|kim, e2, latency-sprint: latency-sprint needs a test accuracy of at "
                "least 0.85; this entry's is 0.84") != std::string::npos);
  CHECK(md.find("## Pareto frontier") != std::string::npos);
  // In the all-around both rank first, tied ("1=").
  CHECK(md.find("| 1= | Smith, Jo |") != std::string::npos);
  CHECK(md.find("| 1= | lee\\|kim |") != std::string::npos);
}

TEST_CASE("rows and boards not of the written shape are refused by their path") {
  CHECK_THROWS_WITH_AS(olympics_leaderboard(json::object()),
                       "rows must be an array of {student, check}, got {}", ValueError);
  json no_check = json::array();
  no_check.push_back(json{{"student", "a"}});
  CHECK_THROWS_WITH_AS(olympics_leaderboard(no_check), "rows[0].check is missing", ValueError);
  json check = check_of(Made{"m"});
  check.erase("accuracy");
  CHECK_THROWS_WITH_AS(olympics_leaderboard(json::array({row("a", check)})),
                       "rows[0].check.accuracy is missing", ValueError);
  check = check_of(Made{"m"});
  check["events"][1]["event"] = "marathon";
  CHECK_THROWS_AS(olympics_leaderboard(json::array({row("a", check)})), ValueError);
  CHECK_THROWS_WITH_AS(olympics_leaderboard_csv(json{{"events", 3}}),
                       "board.events must be an array, got 3", ValueError);
  json board = olympics_leaderboard(json::array({row("a", check_of(Made{"m"}))}));
  board["events"][0]["rows"][0]["score_interval"] = json::array({2, 1});
  CHECK_THROWS_WITH_AS(olympics_leaderboard_markdown(board),
                       "board.events[0].rows[0].score_interval must be [low, high] with low ≤ "
                       "high, got [2,1]",
                       ValueError);
}
