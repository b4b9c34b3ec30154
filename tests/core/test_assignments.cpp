// course.json's schedule (assignments, due dates, late policy) and the scores it gives: what
// a teacher reads in the gradebook. Times are checked against instants computed by hand,
// weights and penalties against sums done by hand; every refusal names the field.
#include <doctest/doctest.h>

#include "perflab/base/error.hpp"
#include "perflab/grading/assignments.hpp"
#include "perflab/grading/course.hpp"
#include "perflab/grading/grader.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

json base_course() {
  return {{"id", "perf-2026"},
          {"title", "ML Systems"},
          {"salt", "pepper"},
          {"chapters", {"profiling", "benchmarking"}}};
}

// The first two exercises of a chapter, in the bank's order.
std::vector<std::string> first_two(const std::string& chapter) {
  std::vector<std::string> ids;
  for (const auto& e : exercise_bank()) {
    if (e.chapter == chapter && ids.size() < 2) ids.push_back(e.id);
  }
  return ids;
}

}  // namespace

TEST_CASE("ISO 8601 times with an offset name one instant; others are refused with the form") {
  CHECK(iso8601_ms("1970-01-01T00:00:00Z", "t") == 0);
  CHECK(iso8601_ms("1970-01-02T00:00Z", "t") == 86400000);
  CHECK(iso8601_ms("2026-10-02T23:59:00-04:00", "t") == iso8601_ms("2026-10-03T03:59:00Z", "t"));
  CHECK(iso8601_ms("2026-10-03T05:29:00.250+05:30", "t") ==
        iso8601_ms("2026-10-02T23:59:00Z", "t") + 250);
  // 2000-03-01 is 11017 days after 1970-01-01 (30 years, 7 leap days, Jan and Feb 2000).
  CHECK(iso8601_ms("2000-03-01T00:00:00Z", "t") == 11017LL * 86400000);
  CHECK(iso8601_ms("2024-02-29T12:00:00Z", "t") - iso8601_ms("2024-02-28T12:00:00Z", "t") ==
        86400000);
  CHECK_THROWS_WITH_AS(iso8601_ms("2026-10-02T23:59:00", "due"),
                       doctest::Contains("due must be an ISO 8601 date and time with an offset"),
                       ValueError);
  CHECK_THROWS_WITH_AS(iso8601_ms("2026-10-02T23:59:00", "due"),
                       doctest::Contains("so it names no instant"), ValueError);
  CHECK_THROWS_WITH_AS(iso8601_ms("2026-02-29T00:00Z", "due"),
                       doctest::Contains("the day 29 in a month of 28"), ValueError);
  CHECK_THROWS_AS(iso8601_ms("2026-10-02", "due"), ValueError);
  CHECK_THROWS_AS(iso8601_ms("2026-13-01T00:00Z", "due"), ValueError);
  CHECK_THROWS_AS(iso8601_ms("2026-10-02T24:00Z", "due"), ValueError);
  CHECK_THROWS_AS(iso8601_ms("2026-10-02T23:59Z junk", "due"), ValueError);
}

TEST_CASE("without assignments each graded chapter is one, due when \"due\" says") {
  json j = base_course();
  j["due"] = {{"benchmarking", "2026-10-09T23:59:00-04:00"}};
  const Course c = course_from_json(j);
  const json list = course_assignments(c);
  REQUIRE(list.size() == 2);
  CHECK(list[0]["id"] == "profiling");
  CHECK(list[0]["name"] == "perflab: Profiling");
  CHECK(list[0]["due"].is_null());
  CHECK(list[1]["due"] == "2026-10-09T23:59:00-04:00");
  double profiling_points = 0;
  for (const auto& e : exercise_bank())
    if (e.chapter == "profiling") profiling_points += e.points;
  CHECK(list[0]["points_possible"].get<double>() == profiling_points);
  // to_json writes what course_from_json reads back.
  CHECK(to_json(course_from_json(to_json(c))) == to_json(c));
}

TEST_CASE("an assignment weighs its entries and scales to its points") {
  const auto p = first_two("profiling");
  const auto b = first_two("benchmarking");
  json j = base_course();
  j["assignments"] = {{{"id", "week-1"},
                       {"name", "Week 1"},
                       {"exercises", {p[0], p[1], b[0]}},
                       {"weights", {{b[0], 2}}},
                       {"points", 20},
                       {"due", "2026-10-02T23:59:00Z"}}};
  const Course c = course_from_json(j);
  const double pp0 = find_exercise(p[0]).points, pp1 = find_exercise(p[1]).points,
               pb0 = find_exercise(b[0]).points;
  // p[0] full, p[1] nothing, b[0] half: (pp0 + 2 * pb0 / 2) / (pp0 + pp1 + 2 * pb0) of 20.
  const json r = assignment_scores(
      c, {{"scores", {{p[0], pp0}, {p[1], 0}, {b[0], pb0 / 2}}}, {"submitted_at", nullptr}});
  REQUIRE(r["assignments"].size() == 1);
  const json& a = r["assignments"][0];
  CHECK(a["points_possible"] == 20.0);
  CHECK(a["raw_score"].get<double>() ==
        doctest::Approx(20.0 * (pp0 + pb0) / (pp0 + pp1 + 2 * pb0)));
  CHECK(a["score"] == a["raw_score"]);
  CHECK(a["late"].is_null());
  CHECK(a["note"] == "no submission time from the LMS: no late policy applied");
  CHECK(r["total"]["points_possible"] == 20.0);
  CHECK(to_json(course_from_json(to_json(c))) == to_json(c));
}

TEST_CASE(
    "the late policy takes off per started day down to its floor, or everything at the cut-off") {
  const auto p = first_two("profiling");
  json j = base_course();
  j["assignments"] = {{{"id", "w1"},
                       {"name", "Week 1"},
                       {"exercises", {p[0]}},
                       {"points", 10},
                       {"due", "2026-10-02T23:59:00-04:00"}}};
  j["late_policy"] = {{"kind", "per-day"}, {"penalty_per_day", 0.1}, {"floor", 0.5}};
  const Course c = course_from_json(j);
  const double full = find_exercise(p[0]).points;
  const auto at = [&](const json& submitted, const json& late = nullptr) {
    json in = {{"scores", {{p[0], full}}}, {"submitted_at", submitted}};
    if (!late.is_null()) in["late"] = late;
    return assignment_scores(c, in)["assignments"][0];
  };
  SUBCASE("on time keeps everything") {
    const json a = at("2026-10-03T03:59:00Z");
    CHECK(a["late"] == false);
    CHECK(a["days_late"] == 0);
    CHECK(a["score"] == 10.0);
  }
  SUBCASE("one minute late is one started day") {
    const json a = at("2026-10-03T04:00:00Z");
    CHECK(a["late"] == true);
    CHECK(a["days_late"] == 1);
    CHECK(a["score"].get<double>() == doctest::Approx(9.0));
    CHECK(
        a["note"].get<std::string>().find(
            "1 started day late; 10% off per started day, keeping at least 50%: 90% of 10 kept") !=
        std::string::npos);
  }
  SUBCASE("three days and a second is four days; ten days stops at the floor") {
    CHECK(at("2026-10-06T03:59:01Z")["score"].get<double>() == doctest::Approx(6.0));
    CHECK(at("2026-10-12T12:00:00Z")["score"].get<double>() == doctest::Approx(5.0));
  }
  SUBCASE(
      "a late marker without a time counts one day; a per-assignment time applies to its "
      "assignment") {
    CHECK(at(nullptr, true)["score"].get<double>() == doctest::Approx(9.0));
    CHECK(at(nullptr, false)["score"] == 10.0);
    CHECK(at(json{{"w1", "2026-10-04T04:00:00Z"}})["days_late"] == 2);
  }
  SUBCASE("cut-off gives nothing, none only says so") {
    json k = j;
    k["late_policy"] = {{"kind", "cut-off"}};
    const json late = {{"scores", {{p[0], full}}}, {"submitted_at", "2026-10-03T04:00:00Z"}};
    CHECK(assignment_scores(course_from_json(k), late)["assignments"][0]["score"] == 0.0);
    k["late_policy"] = {{"kind", "none"}};
    const json a = assignment_scores(course_from_json(k), late)["assignments"][0];
    CHECK(a["score"] == 10.0);
    CHECK(a["late"] == true);
    CHECK(to_json(course_from_json(k)).contains("late_policy") == false);
  }
}

TEST_CASE("every schedule field is checked, each refusal naming the field") {
  const auto p = first_two("profiling");
  const auto refused = [](json j, const std::string& message) {
    CHECK_THROWS_WITH_AS(course_from_json(j), doctest::Contains(message.c_str()), ValueError);
  };
  json j = base_course();
  j["due"] = {{"acceleration", "2026-10-02T23:59:00Z"}};
  refused(j, "course.json \"due\" names \"acceleration\", which is not a graded chapter");
  j["due"] = {{"profiling", "2026-10-02"}};
  refused(j, "course.json \"due\" \"profiling\" must be an ISO 8601 date and time with an offset");
  j = base_course();
  j["late_policy"] = {{"kind", "per-day"}, {"penalty_per_day", 0}};
  refused(j, "\"penalty_per_day\" must be the fraction of the points");
  j["late_policy"] = {{"kind", "per-day"}, {"penalty_per_day", 0.1}, {"floor", 1}};
  refused(j, "\"floor\" must be the least fraction");
  j["late_policy"] = {{"kind", "cut-off"}, {"penalty_per_day", 0.1}};
  refused(j, "of kind \"cut-off\" has an unknown field \"penalty_per_day\"");
  j["late_policy"] = {{"kind", "sometimes"}};
  refused(j, "\"kind\" must be \"none\", \"per-day\" or \"cut-off\"");
  j = base_course();
  const json week = {{"id", "w1"}, {"name", "Week 1"}, {"exercises", {"profiling"}}};
  j["assignments"] = json::array({week});
  j["due"] = {{"profiling", "2026-10-02T23:59:00Z"}};
  refused(j, "has both \"due\" (per chapter) and \"assignments\"");
  j.erase("due");
  j["assignments"] = {week, week};
  refused(j, "has the id \"w1\" twice");
  json w = week;
  w["exercises"] = {"profiling", p[0]};
  j["assignments"] = json::array({w});
  refused(j, "names the exercise \"" + p[0] + "\" a second time");
  w["exercises"] = {"acceleration"};
  j["assignments"] = json::array({w});
  refused(j, "of the chapter \"acceleration\", which this course does not grade");
  w["exercises"] = {"nope"};
  j["assignments"] = json::array({w});
  refused(j, "course.json \"assignments\"[0] \"exercises\"[0] is \"nope\", neither a chapter");
  w = week;
  w["weights"] = {{"benchmarking", 2}};
  j["assignments"] = json::array({w});
  refused(j, "\"weights\" names \"benchmarking\", which is not in its \"exercises\"");
  w["weights"] = {{"profiling", -1}};
  j["assignments"] = json::array({w});
  refused(j, "\"weights\" \"profiling\" must be a number above 0");
  w = week;
  w["points"] = 0;
  j["assignments"] = json::array({w});
  refused(j, "\"points\" must be the assignment's points possible");
  w = week;
  w["late"] = true;
  j["assignments"] = json::array({w});
  refused(j, "course.json \"assignments\"[0] has an unknown field \"late\"");
}

TEST_CASE("a student's scores and times are checked before they are used") {
  const Course c = course_from_json(base_course());
  const auto p = first_two("profiling");
  CHECK_THROWS_WITH_AS(
      assignment_scores(c, {{"scores", {{"nope", 1}}}}),
      doctest::Contains("\"scores\" names \"nope\", which is not in the exercise bank"),
      ValueError);
  CHECK_THROWS_WITH_AS(assignment_scores(c, {{"scores", {{p[0], 1000}}}}),
                       doctest::Contains("must be points from 0 to"), ValueError);
  CHECK_THROWS_WITH_AS(
      assignment_scores(c, {{"scores", json::object()}, {"submitted_at", "yesterday"}}),
      doctest::Contains("\"submitted_at\" must be an ISO 8601"), ValueError);
  CHECK_THROWS_WITH_AS(
      assignment_scores(
          c, {{"scores", json::object()}, {"submitted_at", {{"w9", "2026-10-02T23:59:00Z"}}}}),
      doctest::Contains("\"submitted_at\" names \"w9\", which is not an assignment"), ValueError);
  CHECK_THROWS_WITH_AS(assignment_scores(c, {{"scores", json::object()}, {"late", "yes"}}),
                       doctest::Contains("\"late\" must be true or false"), ValueError);
  CHECK_THROWS_WITH_AS(assignment_scores(c, {{"scores", json::object()}, {"when", 1}}),
                       doctest::Contains("unknown field \"when\""), ValueError);
}
