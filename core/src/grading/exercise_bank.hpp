// Private to core: the bank's entries, each an Exercise (public data) plus the function
// that draws one variant's rounded parameters and computes its answer from them, and the
// small helpers the chapters' bank files share. grader.cpp owns everything generic
// (seeding, prompt rendering, validation, grading); exercise_bank_<chapter>.cpp own only
// the exercises themselves. Not part of the public API.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/grading/grader.hpp"
#include "perflab/base/random.hpp"

namespace perflab::detail {

// One test of a code exercise: the arguments passed to the student's function and the
// value it must return (compared with the exercise's tolerance when both are numbers).
struct CodeTest {
  std::string name;
  nlohmann::json args;      // array of arguments
  nlohmann::json expected;  // never sent to the page
  // A timed test: {reference, n, rounds, seed} as grader.hpp describes; null otherwise.
  // Its answer is the sandbox's timing object, graded by the speed rule, not `expected`.
  nlohmann::json benchmark = nullptr;
};

// What one seed draws. params hold the values the student sees, already rounded, and the
// answer is computed from exactly those values.
struct VariantData {
  nlohmann::json params = nlohmann::json::object();
  double expected_value = 0;            // numeric, single part
  std::vector<double> expected_values;  // numeric with parts: one per Exercise::parts entry
  int correct_choice = -1;              // choice: index into the choices as shown
  // choice: the order the choices are shown in, as indices into Exercise::choices; empty
  // means the bank's order. Shuffled per variant where the position would give it away.
  std::vector<int> choice_order;
  std::vector<CodeTest> tests;  // code
};

struct ExerciseEntry {
  Exercise exercise;
  VariantData (*draw)(Rng& rng);
  // Experiment-backed exercises: validates the student's rows (already checked to be a
  // non-empty array of objects) and sets the expected answer in v from them. Throws
  // ValueError saying what is missing and what to run.
  void (*from_evidence)(const Exercise& e, const nlohmann::json& rows, VariantData& v) = nullptr;
};

// Every chapter's entries, in the order the page shows them.
const std::vector<ExerciseEntry>& exercise_entries();
std::vector<ExerciseEntry> profiling_entries();     // exercise_bank_profiling.cpp
std::vector<ExerciseEntry> acceleration_entries();  // exercise_bank_acceleration.cpp

// ---- helpers for the bank files -------------------------------------------------------

// x rounded to `decimals` places (parameters are rounded before any answer is computed).
double round_to(double x, int decimals);

// One element of a fixed list, uniformly.
template <typename T, std::size_t N>
T pick(Rng& rng, const T (&values)[N]) {
  return values[rng.integer(0, static_cast<std::int64_t>(N) - 1)];
}

// Fisher-Yates with our Rng (std::shuffle's output differs between standard libraries).
template <typename T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(i) - 1));
    std::swap(v[i - 1], v[j]);
  }
}

// A JSON value as the grader's messages show it (shortened, 10 significant digits).
std::string describe_value(const nlohmann::json& value);

// rows[i][field] of an experiment-backed answer as a finite number (above 0 when positive
// is set); ValueError "answer.evidence.rows[2].samples_per_s must be a finite number above
// 0, got null" or "answer.evidence.rows[2] has no field "samples_per_s" (rows of
// profiling-batch-size carry it: ...)".
double evidence_number(const Exercise& e, const nlohmann::json& rows, std::size_t i,
                       const std::string& field, bool positive = true);

// Shows `count` choices in a shuffled order with the bank's choice `correct` among them:
// sets v.choice_order and v.correct_choice (its position as shown).
void shuffle_choices(VariantData& v, int count, int correct, Rng& rng);

}  // namespace perflab::detail
