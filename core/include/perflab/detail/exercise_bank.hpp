// Internal to core and its tests: how the exercise bank is put together. An exercise is its
// prose, read from core/exercises/<chapter>.json (compiled in at build time), joined with what
// C++ owns of it (exercise_bank_<chapter>.cpp): kind, points, tolerances, the draw of a
// variant with its answer, and the evidence check. exercise_entries() joins the two once, at
// first use, and throws naming the file and the entry when they disagree. grader.cpp owns
// everything generic (seeding, validation, grading). Not part of the public API.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/random.hpp"
#include "perflab/grading/grader.hpp"

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

// An exercise's named texts that its draw picks from and fills in to make one parameter (the
// data file's "fragments", e.g. acceleration.technique's scenarios).
class Fragments {
 public:
  Fragments() = default;
  Fragments(std::string where, std::map<std::string, std::string> texts)
      : where_(std::move(where)), texts_(std::move(texts)) {}
  // Fragment `name` with its {placeholders} filled from params, written as in a prompt.
  // Error naming the file and the exercise when the data has no such fragment.
  std::string render(const std::string& name, const nlohmann::json& params) const;
  const std::map<std::string, std::string>& texts() const { return texts_; }

 private:
  std::string where_;  // "core/exercises/acceleration.json, acceleration.technique"
  std::map<std::string, std::string> texts_;
};

// Draws one variant's rounded parameters and computes its answer from them.
using DrawFn = VariantData (*)(Rng& rng, const Fragments& fragments);

// Which try of a choice exercise a variant is drawn for. A choice exercise draws a new
// variant for every try (its rng is seeded from id, seed and try), so a wrong try teaches
// nothing about the next one; walk_seed depends on (id, seed) alone, the same for every try,
// so that a pool of scenarios is walked through in a per-student order (pool_item).
struct ChoiceTry {
  int number = 1;  // 1 for the first try
  std::uint64_t walk_seed = 0;
};
// A choice exercise's draw: the variant of one try.
using ChoiceDrawFn = VariantData (*)(Rng& rng, const Fragments& fragments, const ChoiceTry& t);
// Experiment-backed exercises: validates the student's rows (already checked to be a
// non-empty array of objects) and sets the expected answer in v from them. Throws
// ValueError saying what is missing and what to run.
using EvidenceFn = void (*)(const Exercise& e, const nlohmann::json& rows, VariantData& v);

// How one part of a multi-part numeric exercise is graded; its label and unit are prose.
struct PartGrading {
  Tolerance tolerance;
  double weight = 1.0;
};

// What C++ owns of one exercise; `id` names the entry of the chapter's data file that holds
// its prose (title, prompt, hints, reference, unit, part labels, choices, starter code).
struct ExerciseCode {
  std::string id;  // "profiling.linear-params"
  ExerciseKind kind = ExerciseKind::Numeric;
  int points = 10;
  DrawFn draw = nullptr;
  ChoiceDrawFn draw_try = nullptr;   // choice: instead of draw, a variant per try
  Tolerance tolerance{};             // numeric with one answer, and code
  std::vector<PartGrading> parts{};  // numeric with parts: one per part of the data, in order
  double time_limit_ms = 2000;       // code
  int timed_points = 0;              // code with a timed test: Exercise::timed_points
  int public_tests = kDefaultPublicTests;  // code: Exercise::public_tests
  // Experiment-backed: the page's experiment id and the function that grades from its rows.
  std::string experiment{};
  EvidenceFn from_evidence = nullptr;
  // Values of C++ constants the prose names ({gelu_flops_per_element}), filled in when the
  // bank loads, so the text cannot drift from the code.
  nlohmann::json constants = nlohmann::json::object();
  // Exercise::feedback_hides_answer: right or wrong only, no direction, no expected value.
  bool feedback_hides_answer = false;
};

// One exercise of the bank: its public description and what draws and grades it.
struct ExerciseEntry {
  Exercise exercise;
  DrawFn draw = nullptr;
  ChoiceDrawFn draw_try = nullptr;  // choice exercises (draw is null then)
  Fragments fragments;
  EvidenceFn from_evidence = nullptr;
};

// A data file as compiled into core: "core/exercises/profiling.json" and its text.
struct ExerciseFile {
  std::string_view path;
  std::string_view text;
};
// Every core/exercises/*.json, sorted by path (written at build time by
// core/cmake/embed_exercises.cmake).
const std::vector<ExerciseFile>& exercise_files();

// A chapter with exercises: its name (its data file is core/exercises/<name>.json) and its C++.
struct ChapterCode {
  std::string name;
  std::vector<ExerciseCode> (*code)();
};
// In the order the page shows the chapters (exercise_bank.cpp).
const std::vector<ChapterCode>& exercise_chapters();
std::vector<ExerciseCode> profiling_exercises();     // exercise_bank_profiling.cpp
std::vector<ExerciseCode> acceleration_exercises();  // exercise_bank_acceleration.cpp
std::vector<ExerciseCode> acceleration_parallel_exercises();  // _acceleration_parallel.cpp
std::vector<ExerciseCode> benchmarking_exercises();  // exercise_bank_benchmarking.cpp
std::vector<ExerciseCode> optimization_exercises();  // exercise_bank_optimization.cpp
// Its parts in files of their own, joined by optimization_exercises().
std::vector<ExerciseCode> optimization_transform_exercises();  // _optimization_transforms.cpp
std::vector<ExerciseCode> optimization_kv_exercises();         // _optimization_kv.cpp
std::vector<ExerciseCode> optimization_quantize_exercises();   // _optimization_quantize.cpp
std::vector<ExerciseCode> optimization_olympics_exercises();   // _optimization_olympics.cpp

// One chapter's data file joined with its C++, in the file's order. Throws Error naming the
// file and the entry when the file is not valid JSON, lacks a field or has an unknown one,
// has an entry without C++ code or misses one that C++ defines, or disagrees with the code
// (parts, choices, code fields, evidence for the exercise's kind).
std::vector<ExerciseEntry> load_chapter(const ExerciseFile& file, const std::string& chapter,
                                        const std::vector<ExerciseCode>& code);

// Every chapter's entries, in the order the page shows them; loaded at first use.
const std::vector<ExerciseEntry>& exercise_entries();

// ---- the placeholder syntax ------------------------------------------------------------

// {name}, name made of letters, digits and _, is a placeholder; braces around anything else
// (code in a prompt: "{ warmup, iterations }") stay as written. fill_placeholders replaces
// each by fill(name); placeholder_names lists them in order.
std::string fill_placeholders(const std::string& text,
                              const std::function<std::string(const std::string&)>& fill);
std::vector<std::string> placeholder_names(const std::string& text);

// text with every placeholder replaced by the parameter of that name, written as a prompt
// shows it (format_param); Error "<where>: the text names {x}, which is not one of its
// parameters" when params has no such name.
std::string render_text(const std::string& text, const nlohmann::json& params,
                        std::string_view where);

// A parameter as a prompt shows it: strings as they are, integers of 10,000 and up with
// thousands separators (2,359,296), other numbers as describe_value (grader.cpp).
std::string format_param(const nlohmann::json& value);

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

// The tolerance of an answer that is a count or a byte size: exact, typed as an integer or
// as a float (rel 0, abs 0.5: the nearest integer).
inline constexpr Tolerance kNearestInteger{0.0, 0.5};
// Within 1% of the expected value.
inline constexpr Tolerance kOnePercent{0.01, 0.0};

// "answer.evidence.rows[2]": where row i of an experiment-backed answer sits, as its errors
// name it.
std::string evidence_row_at(std::size_t i);

// rows[i][field] of an experiment-backed answer as a finite number (above 0 when positive
// is set); ValueError "answer.evidence.rows[2].samples_per_s must be a finite number above
// 0, got null" or "answer.evidence.rows[2] has no field "samples_per_s" (rows of
// profiling-batch-size carry it: ...)".
double evidence_number(const Exercise& e, const nlohmann::json& rows, std::size_t i,
                       const std::string& field, bool positive = true);

// Shows `count` choices in a shuffled order with the bank's choice `correct` among them:
// sets v.choice_order and v.correct_choice (its position as shown).
void shuffle_choices(VariantData& v, int count, int correct, Rng& rng);

// Item k of the `per_try` items that try t shows from a pool of `size` (0 <= k < per_try):
// the pool is walked in an order drawn from t.walk_seed, per_try items per try, so consecutive
// tries show different items until the pool is used up (then the walk starts over).
std::size_t pool_item(const ChoiceTry& t, std::size_t size, std::size_t k = 0,
                      std::size_t per_try = 1);

// One question of a choice exercise's pool: the data file's fragment that asks it and the
// index of its right answer in the exercise's `choices` (profiling.flops-batch's quantities,
// profiling.latency-statistic's questions, acceleration.technique's scenarios).
struct PooledQuestion {
  const char* fragment;
  int answer;
};

// A draw for experiment-backed exercises: the student's own run is their variant.
VariantData draw_nothing(Rng& rng, const Fragments& fragments);

}  // namespace perflab::detail
