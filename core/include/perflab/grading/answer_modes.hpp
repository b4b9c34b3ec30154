// How a course gives feedback on an answer, per exercise: practice (the verdict and which way
// a number is off, at once), assessed (right or wrong only, a capped number of graded tries)
// or sealed (no verdict at all until the teacher re-grades the export). course.json chooses
// them ("modes"), grade_exercise words its feedback by them, so the page and the CLI agree.
// Not for: counting tries (the page counts them and enforces the cap; a re-grade cannot
// verify that count, it only flags a count above the cap).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

enum class AnswerMode { Practice, Assessed, Sealed };
const char* to_string(AnswerMode mode);  // "practice", "assessed", "sealed"

// "practice", "assessed" or "sealed"; ValueError naming `where`, the value and the three.
AnswerMode answer_mode_from_string(std::string_view text, const std::string& where);

inline constexpr int kDefaultAssessedTries = 3;
inline constexpr int kMaxAssessedTries = 100;

// course.json "modes": {default?, chapters?: {chapter: mode}, exercises?: {id: mode},
// assessed_tries?}. An exercise's mode is its own entry, else its chapter's, else default
// (practice when absent).
struct CourseModes {
  AnswerMode default_mode = AnswerMode::Practice;
  std::vector<std::pair<std::string, AnswerMode>> chapters;   // as written
  std::vector<std::pair<std::string, AnswerMode>> exercises;  // as written
  int assessed_tries = kDefaultAssessedTries;  // graded tries of an assessed exercise
};

// Reads course["modes"] (absent: every exercise in practice). ValueError naming the field and
// what is allowed: an unknown mode lists the three, an unknown chapter the chapters, an
// unknown exercise id says what ids look like.
CourseModes modes_from_json(const nlohmann::json& course);

// The mode of one exercise of the bank (its id and chapter).
AnswerMode exercise_mode(const CourseModes& modes, std::string_view id, std::string_view chapter);

// {default, chapters, exercises, assessed_tries}: exercises holds the resolved mode of every
// exercise of the bank, so the page reads an exercise's mode without restating the rule (and
// modes_from_json reads it back to the same modes).
nlohmann::json to_json(const CourseModes& modes);

}  // namespace perflab
