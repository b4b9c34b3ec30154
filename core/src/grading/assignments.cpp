// Assignments, due dates and the late policy of a course (see assignments.hpp).
#include "perflab/grading/assignments.hpp"

#include <algorithm>
#include <cmath>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/grading/course.hpp"
#include "perflab/grading/grader.hpp"

namespace perflab {
namespace {

using nlohmann::json;

constexpr std::int64_t kDayMs = 86400000;

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool id_text(const std::string& s) {
  return !s.empty() && s.size() <= kMaxCourseIdLength &&
         std::all_of(s.begin(), s.end(), [](char ch) {
           return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
                  (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
         });
}

bool plain_text(const std::string& s) {
  return !s.empty() && s.size() <= kMaxCourseTextLength &&
         std::none_of(s.begin(), s.end(),
                      [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

std::string due_text(const json& v, const std::string& where) {
  if (!v.is_string()) {
    throw ValueError(where +
                     " must be an ISO 8601 date and time with an offset such as "
                     "\"2026-10-02T23:59:00-04:00\", got " +
                     describe(v));
  }
  const std::string s = v.get<std::string>();
  iso8601_ms(s, where);
  return s;
}

LatePolicy late_policy_from_json(const json& v) {
  const std::string where = "course.json \"late_policy\"";
  const std::string forms =
      "{\"kind\": \"none\"}, {\"kind\": \"per-day\", \"penalty_per_day\": 0.1, \"floor\": 0.5} "
      "or {\"kind\": \"cut-off\"}";
  if (!v.is_object() || !v.contains("kind") || !v.at("kind").is_string()) {
    throw ValueError(where + " must be one of " + forms + ", got " + describe(v));
  }
  const std::string kind = v.at("kind").get<std::string>();
  LatePolicy p;
  std::vector<std::string> allowed = {"kind"};
  if (kind == "none") {
    p.kind = LatePolicy::Kind::None;
  } else if (kind == "cut-off") {
    p.kind = LatePolicy::Kind::CutOff;
  } else if (kind == "per-day") {
    p.kind = LatePolicy::Kind::PerDay;
    allowed = {"kind", "penalty_per_day", "floor"};
    const json& per_day = v.contains("penalty_per_day") ? v.at("penalty_per_day") : json();
    if (!per_day.is_number() || !(per_day.get<double>() > 0.0) || per_day.get<double>() > 1.0) {
      throw ValueError(where +
                       " \"penalty_per_day\" must be the fraction of the points a "
                       "late submission loses per started day, above 0 and at most 1 (0.1 "
                       "is 10% a day), got " +
                       describe(per_day));
    }
    p.penalty_per_day = per_day.get<double>();
    if (v.contains("floor")) {
      const json& f = v.at("floor");
      if (!f.is_number() || !(f.get<double>() >= 0.0) || !(f.get<double>() < 1.0)) {
        throw ValueError(where +
                         " \"floor\" must be the least fraction of the points a late "
                         "submission keeps, from 0 to below 1 (0.5 keeps at least half), got " +
                         describe(f));
      }
      p.floor = f.get<double>();
    }
  } else {
    throw ValueError(where + " \"kind\" must be \"none\", \"per-day\" or \"cut-off\", got " +
                     describe(v.at("kind")));
  }
  for (const auto& item : v.items()) {
    if (!contains(allowed, item.key())) {
      throw ValueError(where + " of kind \"" + kind + "\" has an unknown field \"" + item.key() +
                       "\"; allowed: " + quoted_list(allowed));
    }
  }
  return p;
}

// The exercise ids an entry names (a chapter's in the bank's order, or the one exercise).
std::vector<std::string> entry_exercises(const std::string& entry) {
  std::vector<std::string> ids;
  for (const auto& e : exercise_bank()) {
    if (e.chapter == entry || e.id == entry) ids.push_back(e.id);
  }
  return ids;
}

Assignment assignment_from_json(const json& v, std::size_t index,
                                const std::vector<std::string>& chapters) {
  const std::string where = "course.json \"assignments\"[" + std::to_string(index) + "]";
  const std::string shape =
      "{\"id\": \"week-1\", \"name\": \"Week 1\", \"exercises\": [\"profiling\", "
      "\"benchmarking.<exercise>\"], \"weights\"?: {...}, \"points\"?: 20, \"due\"?: "
      "\"2026-10-02T23:59:00-04:00\"}";
  if (!v.is_object())
    throw ValueError(where + " must be an object like " + shape + ", got " + describe(v));
  static const std::vector<std::string> allowed = {"id",      "name",   "exercises",
                                                   "weights", "points", "due"};
  for (const auto& item : v.items()) {
    if (!contains(allowed, item.key())) {
      throw ValueError(where + " has an unknown field \"" + item.key() +
                       "\"; allowed: " + quoted_list(allowed));
    }
  }
  Assignment a;
  const json id = v.contains("id") ? v.at("id") : json();
  if (!id.is_string() || !id_text(id.get<std::string>())) {
    throw ValueError(where + " \"id\" must be 1 to " + std::to_string(kMaxCourseIdLength) +
                     " letters, digits, '.', '_' or '-', got " + describe(id));
  }
  a.id = id.get<std::string>();
  const json name = v.contains("name") ? v.at("name") : json();
  if (!name.is_string() || !plain_text(name.get<std::string>())) {
    throw ValueError(where + " \"name\" must be the gradebook column's title, 1 to " +
                     std::to_string(kMaxCourseTextLength) +
                     " characters without control "
                     "characters, got " +
                     describe(name));
  }
  a.name = name.get<std::string>();
  const json list = v.contains("exercises") ? v.at("exercises") : json();
  if (!list.is_array() || list.empty()) {
    throw ValueError(where + " \"exercises\" must be a non-empty list of graded chapters (" +
                     quoted_list(chapters) + ") or exercise ids of those chapters, got " +
                     describe(list));
  }
  std::vector<std::string> covered;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = where + " \"exercises\"[" + std::to_string(i) + "]";
    const json& entry = list[i];
    const std::vector<std::string> ids =
        entry.is_string() ? entry_exercises(entry.get<std::string>()) : std::vector<std::string>{};
    if (ids.empty()) {
      throw ValueError(at + " is " + describe(entry) + ", neither a chapter (" + quoted_list(chapters) +
                       ") nor an exercise id (the exercise bank lists them)");
    }
    const Exercise& first = find_exercise(ids.front());
    if (!contains(chapters, first.chapter)) {
      throw ValueError(at + " is " + describe(entry) + " of the chapter \"" + first.chapter +
                       "\", which this course does not grade (\"chapters\": " + quoted_list(chapters) +
                       ")");
    }
    for (const auto& x : ids) {
      if (contains(covered, x)) {
        throw ValueError(at + " names the exercise \"" + x + "\" a second time in this assignment");
      }
      covered.push_back(x);
    }
    a.entries.push_back(entry.get<std::string>());
  }
  if (v.contains("weights")) {
    const json& w = v.at("weights");
    if (!w.is_object()) {
      throw ValueError(where +
                       " \"weights\" must be an object from an entry of \"exercises\" to "
                       "its weight, like {\"profiling\": 2}, got " +
                       describe(w));
    }
    for (const auto& item : w.items()) {
      if (!contains(a.entries, item.key())) {
        throw ValueError(where + " \"weights\" names \"" + item.key() +
                         "\", which is not in its "
                         "\"exercises\" (" +
                         quoted_list(a.entries) + ")");
      }
      const json& x = item.value();
      if (!x.is_number() || !(x.get<double>() > 0.0) || x.get<double>() > kMaxAssignmentWeight) {
        throw ValueError(where + " \"weights\" \"" + item.key() +
                         "\" must be a number above 0 "
                         "and at most " +
                         format_number(kMaxAssignmentWeight) + ", got " + describe(x));
      }
      a.weights.emplace_back(item.key(), x.get<double>());
    }
  }
  if (v.contains("points")) {
    const json& p = v.at("points");
    if (!p.is_number() || !(p.get<double>() > 0.0) || p.get<double>() > kMaxAssignmentPoints) {
      throw ValueError(where +
                       " \"points\" must be the assignment's points possible, above 0 and "
                       "at most " +
                       format_number(kMaxAssignmentPoints) + ", got " + describe(p));
    }
    a.points = p.get<double>();
  }
  if (v.contains("due")) a.due = due_text(v.at("due"), where + " \"due\"");
  return a;
}

std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}

std::string points_text(double x) { return format_number(std::round(x * 100.0) / 100.0, 6); }

std::string percent_text(double fraction) {
  return format_number(std::round(fraction * 10000.0) / 100.0, 6) + "%";
}

}  // namespace

std::int64_t iso8601_ms(std::string_view text, const std::string& where) {
  const std::string form =
      " must be an ISO 8601 date and time with an offset, like \"2026-10-02T23:59:00-04:00\" or "
      "\"2026-10-03T03:59:00Z\"";
  const auto fail = [&](const std::string& why) -> std::int64_t {
    throw ValueError(where + form + "; \"" + std::string(text.substr(0, 60)) + "\" " + why);
  };
  std::size_t i = 0;
  const auto digits = [&](std::size_t n, int& out) {
    if (i + n > text.size()) return false;
    out = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const char c = text[i + k];
      if (c < '0' || c > '9') return false;
      out = out * 10 + (c - '0');
    }
    i += n;
    return true;
  };
  const auto sep = [&](char c) {
    if (i < text.size() && text[i] == c) {
      ++i;
      return true;
    }
    return false;
  };
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits(4, year) || !sep('-') || !digits(2, month) || !sep('-') || !digits(2, day)) {
    return fail("does not start with a date YYYY-MM-DD");
  }
  if (!(sep('T') || sep('t') || sep(' ')) || !digits(2, hour) || !sep(':') || !digits(2, minute)) {
    return fail("has no time THH:MM after its date");
  }
  double fraction = 0.0;
  if (sep(':')) {
    if (!digits(2, second)) return fail("has a malformed seconds field");
    if (sep('.') || sep(',')) {
      double scale = 0.1;
      std::size_t start = i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
        fraction += (text[i] - '0') * scale;
        scale /= 10.0;
        ++i;
      }
      if (i == start) return fail("has a decimal point without digits");
    }
  }
  int offset_minutes = 0;
  if (sep('Z') || sep('z')) {
    offset_minutes = 0;
  } else if (i < text.size() && (text[i] == '+' || text[i] == '-')) {
    const int sign = text[i] == '-' ? -1 : 1;
    ++i;
    int oh = 0, om = 0;
    if (!digits(2, oh) || !(sep(':'), digits(2, om)) || oh > 23 || om > 59) {
      return fail("has a malformed offset (+HH:MM or -HH:MM)");
    }
    offset_minutes = sign * (oh * 60 + om);
  } else {
    return fail("has no offset (Z, +HH:MM or -HH:MM), so it names no instant");
  }
  if (i != text.size()) return fail("has text after its offset");
  static const int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12) return fail("has the month " + std::to_string(month));
  const int days_in_month = month_days[month - 1] + (month == 2 && leap(year) ? 1 : 0);
  if (day < 1 || day > days_in_month)
    return fail("has the day " + std::to_string(day) + " in a month of " +
                std::to_string(days_in_month));
  if (hour > 23 || minute > 59 || second > 59) return fail("has a time of day out of range");
  const std::int64_t days =
      days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const std::int64_t seconds =
      days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
  return seconds * 1000 + static_cast<std::int64_t>(std::floor(fraction * 1000.0));
}

CourseSchedule schedule_from_json(const json& j, const std::vector<std::string>& chapters) {
  CourseSchedule s;
  if (j.contains("assignments")) {
    const json& list = j.at("assignments");
    if (!list.is_array() || list.empty() || list.size() > kMaxAssignments) {
      throw ValueError("course.json \"assignments\" must be a list of 1 to " +
                       std::to_string(kMaxAssignments) +
                       " assignments, each {\"id\", \"name\", "
                       "\"exercises\", \"weights\"?, \"points\"?, \"due\"?}, got " +
                       describe(list));
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
      Assignment a = assignment_from_json(list[i], i, chapters);
      for (const auto& other : s.assignments) {
        if (other.id == a.id)
          throw ValueError("course.json \"assignments\" has the id \"" + a.id + "\" twice");
        if (other.name == a.name) {
          throw ValueError("course.json \"assignments\" has the name \"" + a.name +
                           "\" twice; each is a gradebook column and needs its own title");
        }
      }
      s.assignments.push_back(std::move(a));
    }
  }
  if (j.contains("due")) {
    const json& due = j.at("due");
    if (!s.assignments.empty()) {
      throw ValueError(
          "course.json has both \"due\" (per chapter) and \"assignments\"; with "
          "assignments, give each its own \"due\"");
    }
    if (!due.is_object() || due.empty()) {
      throw ValueError(
          "course.json \"due\" must be an object from a graded chapter to its due "
          "date, like {\"profiling\": \"2026-10-02T23:59:00-04:00\"}, got " +
          describe(due));
    }
    for (const auto& chapter : chapters) {  // in the bank's order
      if (due.contains(chapter)) {
        s.chapter_due.emplace_back(
            chapter, due_text(due.at(chapter), "course.json \"due\" \"" + chapter + "\""));
      }
    }
    for (const auto& item : due.items()) {
      if (!contains(chapters, item.key())) {
        throw ValueError("course.json \"due\" names \"" + item.key() +
                         "\", which is not a graded "
                         "chapter; the graded chapters are " +
                         quoted_list(chapters));
      }
    }
  }
  if (j.contains("late_policy")) s.late_policy = late_policy_from_json(j.at("late_policy"));
  return s;
}

void add_schedule_json(const CourseSchedule& s, json& out) {
  if (!s.chapter_due.empty()) {
    json due = json::object();
    for (const auto& [chapter, when] : s.chapter_due) due[chapter] = when;
    out["due"] = due;
  }
  if (!s.assignments.empty()) {
    json list = json::array();
    for (const auto& a : s.assignments) {
      json item = {{"id", a.id}, {"name", a.name}, {"exercises", a.entries}};
      if (!a.weights.empty()) {
        json w = json::object();
        for (const auto& [entry, weight] : a.weights) w[entry] = weight;
        item["weights"] = w;
      }
      if (a.points) item["points"] = *a.points;
      if (!a.due.empty()) item["due"] = a.due;
      list.push_back(item);
    }
    out["assignments"] = list;
  }
  const LatePolicy& p = s.late_policy;  // none, the default, is left out
  if (p.kind == LatePolicy::Kind::PerDay) {
    out["late_policy"] = {
        {"kind", "per-day"}, {"penalty_per_day", p.penalty_per_day}, {"floor", p.floor}};
  } else if (p.kind == LatePolicy::Kind::CutOff) {
    out["late_policy"] = {{"kind", "cut-off"}};
  }
}

json course_assignments(const Course& course) {
  json out = json::array();
  const auto add = [&](const std::string& id, const std::string& name, const std::string& due,
                       const std::vector<std::string>& entries,
                       const std::vector<std::pair<std::string, double>>& weights,
                       const std::optional<double>& points) {
    json exercises = json::array();
    double weighted = 0.0;
    for (const auto& entry : entries) {
      double w = 1.0;
      for (const auto& [e, x] : weights)
        if (e == entry) w = x;
      for (const auto& x : entry_exercises(entry)) {
        const int p = find_exercise(x).points;
        exercises.push_back({{"id", x}, {"weight", w}, {"points", p}});
        weighted += w * p;
      }
    }
    out.push_back({{"id", id},
                   {"name", name},
                   {"due", due.empty() ? json() : json(due)},
                   {"points_possible", points ? *points : weighted},
                   {"exercises", exercises}});
  };
  const CourseSchedule& s = course.schedule;
  if (!s.assignments.empty()) {
    for (const auto& a : s.assignments) add(a.id, a.name, a.due, a.entries, a.weights, a.points);
    return out;
  }
  for (const auto& chapter : course.chapters) {
    std::string due;
    for (const auto& [c, when] : s.chapter_due)
      if (c == chapter) due = when;
    add(chapter, "perflab: " + capitalized(chapter), due, {chapter}, {}, std::nullopt);
  }
  return out;
}

json assignment_scores(const Course& course, const json& input) {
  const std::string shape =
      "{\"scores\": {\"<exercise id>\": points}, \"submitted_at\": null | \"<ISO 8601>\" | "
      "{\"<assignment id>\": \"<ISO 8601>\"}, \"late\"?: true|false}";
  if (!input.is_object())
    throw ValueError("the student's scores must be an object like " + shape + ", got " +
                     describe(input));
  for (const auto& item : input.items()) {
    if (item.key() != "scores" && item.key() != "submitted_at" && item.key() != "late") {
      throw ValueError("the student's scores have an unknown field \"" + item.key() +
                       "\"; allowed: \"scores\", \"submitted_at\", \"late\"");
    }
  }
  const json scores = input.contains("scores") ? input.at("scores") : json();
  if (!scores.is_object())
    throw ValueError("\"scores\" must be an object from exercise id to re-graded points, got " +
                     describe(scores));
  for (const auto& item : scores.items()) {
    const Exercise* e = nullptr;
    for (const auto& x : exercise_bank())
      if (x.id == item.key()) e = &x;
    if (e == nullptr)
      throw ValueError("\"scores\" names \"" + item.key() +
                       "\", which is not in the exercise bank");
    const json& v = item.value();
    if (!v.is_number() || !(v.get<double>() >= 0.0) || v.get<double>() > e->points + 1e-9) {
      throw ValueError("\"scores\" \"" + item.key() + "\" must be points from 0 to " +
                       std::to_string(e->points) + ", got " + describe(v));
    }
  }
  const json assignments = course_assignments(course);
  const json submitted = input.contains("submitted_at") ? input.at("submitted_at") : json();
  if (submitted.is_object()) {
    for (const auto& item : submitted.items()) {
      const bool known = std::any_of(assignments.begin(), assignments.end(),
                                     [&](const json& a) { return a.at("id") == item.key(); });
      if (!known)
        throw ValueError("\"submitted_at\" names \"" + item.key() +
                         "\", which is not an assignment of " + course.id);
    }
  } else if (!submitted.is_null() && !submitted.is_string()) {
    throw ValueError(
        "\"submitted_at\" must be null, the ISO 8601 time the LMS recorded, or an object of those "
        "by assignment id, got " +
        describe(submitted));
  }
  const json late_marker = input.contains("late") ? input.at("late") : json();
  if (!late_marker.is_null() && !late_marker.is_boolean()) {
    throw ValueError("\"late\" must be true or false (the LMS's late marker), got " +
                     describe(late_marker));
  }
  const LatePolicy& policy = course.schedule.late_policy;

  json out = json::array();
  double total = 0.0, total_possible = 0.0;
  for (const auto& a : assignments) {
    const std::string id = a.at("id").get<std::string>();
    double weighted = 0.0, weighted_max = 0.0;
    for (const auto& x : a.at("exercises")) {
      const std::string ex = x.at("id").get<std::string>();
      const double w = x.at("weight").get<double>();
      weighted_max += w * x.at("points").get<double>();
      if (scores.contains(ex)) weighted += w * scores.at(ex).get<double>();
    }
    const double possible = a.at("points_possible").get<double>();
    const double raw = weighted_max > 0.0 ? weighted / weighted_max * possible : 0.0;
    json when =
        submitted.is_object() ? (submitted.contains(id) ? submitted.at(id) : json()) : submitted;
    if (!when.is_null() && !when.is_string()) {
      throw ValueError("\"submitted_at\" \"" + id + "\" must be an ISO 8601 time or null, got " +
                       describe(when));
    }
    json late = nullptr, days_late = nullptr;
    std::string note;
    const bool has_due = a.at("due").is_string();
    if (!when.is_null()) {
      const std::int64_t t = iso8601_ms(when.get<std::string>(), "\"submitted_at\"");
      if (!has_due) {
        late = false;
        days_late = 0;
        note = "no due date";
      } else {
        const std::int64_t due = iso8601_ms(a.at("due").get<std::string>(), "the due date");
        const std::int64_t after = t - due;
        late = after > 0;
        days_late = after > 0 ? (after + kDayMs - 1) / kDayMs : 0;
        note = "submitted " + when.get<std::string>() + " as the LMS recorded, due " +
               a.at("due").get<std::string>();
        note += after > 0 ? ": " + std::to_string(days_late.get<std::int64_t>()) + " started day" +
                                (days_late.get<std::int64_t>() == 1 ? "" : "s") + " late"
                          : ": on time";
      }
    } else if (late_marker.is_boolean()) {
      late = late_marker.get<bool>() && has_due;
      days_late = late.get<bool>() ? json(1) : json(0);
      note = !has_due ? "no due date"
             : late.get<bool>()
                 ? "marked late by the LMS, which recorded no time: counted as 1 day late"
                 : "not marked late by the LMS";
    } else {
      note = has_due ? "no submission time from the LMS: no late policy applied" : "no due date";
    }
    double kept = 1.0;
    if (late.is_boolean() && late.get<bool>()) {
      const auto days = days_late.get<std::int64_t>();
      if (policy.kind == LatePolicy::Kind::CutOff) {
        kept = 0.0;
        note += "; the course's cut-off policy gives a late submission no points";
      } else if (policy.kind == LatePolicy::Kind::PerDay) {
        kept = std::max(policy.floor, 1.0 - policy.penalty_per_day * static_cast<double>(days));
        note += "; " + percent_text(policy.penalty_per_day) +
                " off per started day, keeping at least " + percent_text(policy.floor) + ": " +
                percent_text(kept) + " of " + points_text(raw) + " kept";
      } else {
        note += "; the course's late policy is none: nothing taken off";
      }
    }
    const double score = raw * kept;
    total += score;
    total_possible += possible;
    out.push_back({{"id", id},
                   {"name", a.at("name")},
                   {"points_possible", possible},
                   {"raw_score", raw},
                   {"score", score},
                   {"due", a.at("due")},
                   {"submitted_at", when},
                   {"late", late},
                   {"days_late", days_late},
                   {"kept_fraction", kept},
                   {"note", note}});
  }
  return {{"assignments", out}, {"total", {{"score", total}, {"points_possible", total_possible}}}};
}

}  // namespace perflab
