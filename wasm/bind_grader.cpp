// Bindings for the exercise bank and the grader: JSON from core, converted through
// JSON.parse/JSON.stringify, so the page sees exactly the shapes the native CLI prints.
// Not for: running student code (the page's sandbox worker does; core grades its results).
#include "convert.hpp"
#include "perflab/grading/assignments.hpp"
#include "perflab/grading/course.hpp"
#include "perflab/grading/grader.hpp"

namespace perflab::wasm {
namespace {

val exercise_bank_js() { return to_val(exercise_bank_json()); }

// hidden_key: a re-grade's grading key (grader.hpp); undefined or null for the student's own
// variant.
std::string hidden_key_of(const val& key) {
  return key.isUndefined() || key.isNull() ? std::string() : to_string(key, "hidden_key");
}

val exercise_variant_js(val id, val seed, val hidden_key) {
  const std::string exercise_id = to_string(id, "id");
  const std::uint32_t variant_seed = to_seed(seed);
  return to_val(exercise_variant(exercise_id, variant_seed, hidden_key_of(hidden_key)));
}

val choice_variant_js(val id, val seed, val try_number) {
  const std::string exercise_id = to_string(id, "id");
  const std::uint32_t variant_seed = to_seed(seed);
  return to_val(choice_variant(exercise_id, variant_seed, to_int(try_number, "try")));
}

// mode: the course's answer mode for the exercise ("practice" when undefined or null).
val grade_exercise_js(val id, val seed, val answer, val hidden_key, val mode) {
  const std::string exercise_id = to_string(id, "id");
  const std::uint32_t variant_seed = to_seed(seed);
  const nlohmann::json answer_json = to_json(answer, "answer");
  const std::string key = hidden_key_of(hidden_key);
  const AnswerMode answer_mode = mode.isUndefined() || mode.isNull()
                                     ? AnswerMode::Practice
                                     : answer_mode_from_string(to_string(mode, "mode"), "mode");
  return to_val(grade_exercise(exercise_id, variant_seed, answer_json, key, answer_mode));
}

val exercise_bank_version_js() { return val(exercise_bank_version()); }

val course_from_json_js(val course) { return to_val(to_json(course_from_json(to_json(course, "course")))); }

// {seed, student_id}: the seed a student of this course draws, and the id as it was hashed.
val course_seed_js(val course, val student_id) {
  const Course c = course_from_json(to_json(course, "course"));
  const std::string id = to_string(student_id, "student_id");
  return to_val(nlohmann::json{{"seed", course_seed(c, id)}, {"student_id", normalize_student_id(id)}});
}

// The course's assignments: [{id, name, due, points_possible, exercises}] (assignments.hpp).
val course_assignments_js(val course) {
  return to_val(course_assignments(course_from_json(to_json(course, "course"))));
}

// One student's assignment scores, the late policy applied to the time the LMS recorded.
val assignment_scores_js(val course, val student) {
  const nlohmann::json course_json = to_json(course, "course");
  const nlohmann::json student_json = to_json(student, "student");
  return to_val(assignment_scores(course_from_json(course_json), student_json));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_grader) {
  expose<&exercise_bank_js>("exerciseBank");
  expose<&exercise_variant_js>("exerciseVariant");
  expose<&choice_variant_js>("choiceVariant");
  expose<&grade_exercise_js>("gradeExercise");
  expose<&exercise_bank_version_js>("exerciseBankVersion");
  expose<&course_from_json_js>("courseFromJson");
  expose<&course_seed_js>("courseSeed");
  expose<&course_assignments_js>("courseAssignments");
  expose<&assignment_scores_js>("assignmentScores");
}

}  // namespace perflab::wasm
