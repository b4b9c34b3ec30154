// Private to core: the bank's entries, each an Exercise (public data) plus the function
// that draws one variant's rounded parameters and computes its answer from them.
// grader.cpp owns everything generic (seeding, prompt rendering, validation, grading);
// exercise_bank.cpp owns only the exercises themselves. Not part of the public API.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/grader.hpp"
#include "perflab/random.hpp"

namespace perflab::detail {

// One test of a code exercise: the arguments passed to the student's function and the
// value it must return (compared with the exercise's tolerance when both are numbers).
struct CodeTest {
  std::string name;
  nlohmann::json args;      // array of arguments
  nlohmann::json expected;  // never sent to the page
};

// What one seed draws. params hold the values the student sees, already rounded, and the
// answer is computed from exactly those values.
struct VariantData {
  nlohmann::json params = nlohmann::json::object();
  double expected_value = 0;    // numeric
  int correct_choice = -1;      // choice: index into Exercise::choices
  std::vector<CodeTest> tests;  // code
};

struct ExerciseEntry {
  Exercise exercise;
  VariantData (*draw)(Rng& rng);
};

const std::vector<ExerciseEntry>& exercise_entries();

}  // namespace perflab::detail
