// Bindings for the exercise bank and the grader: JSON from core, converted through
// JSON.parse/JSON.stringify, so the page sees exactly the shapes the native CLI prints.
// Not for: running student code (the page's sandbox worker does; core grades its results).
#include "convert.hpp"
#include "perflab/grading/grader.hpp"

namespace perflab::wasm {
namespace {

val exercise_bank_js() { return to_val(exercise_bank_json()); }

val exercise_variant_js(val id, val seed) {
  const std::string exercise_id = to_string(id, "id");
  return to_val(exercise_variant(exercise_id, to_seed(seed)));
}

val grade_exercise_js(val id, val seed, val answer) {
  const std::string exercise_id = to_string(id, "id");
  const std::uint32_t variant_seed = to_seed(seed);
  return to_val(grade_exercise(exercise_id, variant_seed, to_json(answer, "answer")));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_grader) {
  expose<&exercise_bank_js>("exerciseBank");
  expose<&exercise_variant_js>("exerciseVariant");
  expose<&grade_exercise_js>("gradeExercise");
}

}  // namespace perflab::wasm
