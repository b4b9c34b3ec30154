// A course's schedule, read from course.json beside its identity (course.hpp): the
// assignments (a subset of the graded exercises or chapters, with weights and points), the
// due dates (per assignment, or per chapter when the course names no assignments) and the
// late policy; and the rules that turn a student's re-graded exercise scores and the time the
// LMS recorded into one score per assignment. The page and tools/grade.mjs only present
// these numbers. Not for: deciding when a student submitted (the LMS does: a submission time
// or its late marker; never the student's clock or the file's exported_at).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace perflab {

struct Course;

// What a late submission keeps. none: everything (lateness is only shown); per-day: loses
// penalty_per_day of the points per started day after the due date, never below floor;
// cut-off: nothing.
struct LatePolicy {
  enum class Kind { None, PerDay, CutOff };
  Kind kind = Kind::None;
  double penalty_per_day = 0.0;  // per-day: a fraction of the points, (0, 1]
  double floor = 0.0;            // per-day: the least fraction kept, [0, 1)
};

// One gradebook column: its exercises (chapter names or exercise ids, as written), each
// entry's weight (default 1), its points (default: the weighted points of its exercises)
// and its due date (ISO 8601 with an offset, as written; empty when none).
struct Assignment {
  std::string id;    // "week-1": letters, digits, '.', '_', '-'
  std::string name;  // "Week 1: Profiling", the column's title in the gradebook
  std::vector<std::string> entries;
  std::vector<std::pair<std::string, double>> weights;  // entry -> weight, as written
  std::optional<double> points;
  std::string due;
};

struct CourseSchedule {
  std::vector<std::pair<std::string, std::string>> chapter_due;  // chapter -> ISO 8601
  std::vector<Assignment> assignments;  // empty: one assignment per graded chapter
  LatePolicy late_policy;
};

inline constexpr std::size_t kMaxAssignments = 100;
inline constexpr double kMaxAssignmentPoints = 100000.0;
inline constexpr double kMaxAssignmentWeight = 1000.0;

// The schedule fields of course.json ("due", "assignments", "late_policy"), checked against
// the graded chapters; ValueError naming the field, the value and what is allowed.
CourseSchedule schedule_from_json(const nlohmann::json& course,
                                  const std::vector<std::string>& chapters);
// Adds the fields schedule_from_json reads back: "due", "assignments" and "late_policy"
// when given (a late policy of kind none is the default and left out).
void add_schedule_json(const CourseSchedule& schedule, nlohmann::json& out);

// ISO 8601 date and time with an offset ("2026-10-02T23:59:00-04:00", "...Z", seconds and
// a fraction optional) as milliseconds since 1970-01-01T00:00:00Z. ValueError naming `where`
// and the form expected (a time without an offset is refused: it names no instant).
std::int64_t iso8601_ms(std::string_view text, const std::string& where);

// The assignments a course grades, in order: {id, name, due (null when none),
// points_possible, exercises: [{id, weight, points}]}. A course without "assignments" has
// one per graded chapter (id the chapter, name "perflab: <Chapter>", due from "due").
nlohmann::json course_assignments(const Course& course);

// One student's assignment scores. `input`: {scores: {exercise id: re-graded points},
// submitted_at: null | ISO 8601 | {assignment id: ISO 8601 | null}, late?: bool}, the
// submission time the LMS recorded (for every assignment, or per assignment), and its late
// marker when it records no time. Returns {assignments: [{id, name, points_possible,
// raw_score, score, due, submitted_at, late (null: unknown), days_late (null: unknown),
// kept_fraction, note}], total: {score, points_possible}}. Lateness counts started days
// (1 minute late is 1 day); a late marker without a time counts as 1 day late.
nlohmann::json assignment_scores(const Course& course, const nlohmann::json& input);

}  // namespace perflab
