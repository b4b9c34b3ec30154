// A course: what an instructor deploys next to the page as course.json, and the seed each
// student's variants are drawn from. The seed is derived from the course and the student
// id, so a student sees the same variants on every machine and after clearing storage, and
// a teacher re-grading a submission draws exactly what the student saw.
// Not for: secrecy (the salt is published with the page; integrity comes from re-grading).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/grading/answer_modes.hpp"
#include "perflab/grading/assignments.hpp"

namespace perflab {

struct Course {
  std::string id;                     // "perf-2026-fall": letters, digits, '.', '_', '-'
  std::string title;                  // "ML Systems, fall 2026"
  std::vector<std::string> chapters;  // chapters graded in this course, in the bank's order
  std::string salt;                   // any text; changing it gives every student new variants
  CourseSchedule schedule;            // assignments, due dates, late policy (assignments.hpp)
  CourseModes modes;                  // practice, assessed or sealed per exercise (answer_modes.hpp)
};

inline constexpr std::size_t kMaxCourseIdLength = 64;
inline constexpr std::size_t kMaxCourseTextLength = 200;  // title, salt
inline constexpr std::size_t kMaxStudentIdLength = 100;

// The chapters that have exercises, in the bank's order ("profiling", "acceleration", ...).
std::vector<std::string> exercise_chapter_names();

// course.json: {id, title, salt, chapters?, due?, assignments?, late_policy?} (the last three:
// assignments.hpp); chapters defaults to every chapter with
// exercises. ValueError naming the field and what is allowed (an unknown chapter lists the
// known ones; an unknown field lists the allowed ones).
// "modes" (practice, assessed or sealed per exercise): answer_modes.hpp.
Course course_from_json(const nlohmann::json& j);
nlohmann::json to_json(const Course& c);  // {id, title, salt, chapters, due?, assignments?, late_policy?}

// A student id as the seed sees it: surrounding spaces removed, ASCII letters lower-cased
// (" S123 " and "s123" are one student). ValueError when empty, longer than
// kMaxStudentIdLength, or holding a control character.
std::string normalize_student_id(std::string_view id);

// The variant seed of one student in one course: FNV-1a over course id, salt and the
// normalized student id, mixed by fmix64 (so neighbouring ids get unrelated seeds), folded
// to 32 bits. Same on every platform.
std::uint32_t course_seed(const Course& course, std::string_view student_id);

}  // namespace perflab
