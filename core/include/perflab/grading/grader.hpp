// Exercise bank and grader. Exercises are data; a variant is drawn from (id, seed) so a
// student sees the same numbers after a reload, and the page and the native CLI grade
// identically because both call these functions. Parameters are rounded before the
// expected answer is computed. JSON shapes are documented in docs/ARCHITECTURE.md.
// Not for: running student code (the page's sandbox worker does that; core grades the
// values the code returned).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/grading/answer_modes.hpp"

namespace perflab {

enum class ExerciseKind { Numeric, Choice, Code };
const char* to_string(ExerciseKind kind);  // "numeric", "choice", "code"

struct Tolerance {
  double rel = 0.0;  // |answer - expected| <= max(abs, rel·|expected|)
  double abs = 0.0;
  // In plain words: "exact" (0, 0), "exact (within 0.5)" (rel 0, abs 0.5: the nearest
  // integer), "within 0.01", "within 1%", "within 1% or 0.01", "within a relative 1e-09
  // or 1e-12" (below 0.01% a percentage reads badly).
  std::string text() const;
};

// The experiment an experiment-backed exercise is graded from: the student answers from
// their own run, the page sends that run's rows with the answer ({..., evidence:
// {experiment, rows}}), and the expected answer is computed from those rows in core.
// experiment is empty for every other exercise.
struct EvidenceSpec {
  std::string experiment;  // the page's experiment id, "profiling-batch-size"
  std::string title;       // how the prompt names it, "the batch-size experiment"
  std::string what;        // what the answer is read from, "samples/s at batch 1 and 32"
};

// One answer box of a multi-part numeric exercise ("FLOPs per batch", unit "FLOPs").
// Each part has its own tolerance; weight sets its share of the exercise's points
// (a part is worth points × weight / Σ weights).
struct NumericPart {
  std::string label;
  std::string unit;
  Tolerance tolerance;
  double weight = 1.0;
};

// How many public example tests a code exercise has unless the bank says otherwise
// (Exercise::public_tests; public and hidden tests: exercise_variant).
inline constexpr int kDefaultPublicTests = 2;

struct Exercise {
  std::string id;          // "profiling.linear-params"
  std::string chapter;     // "profiling", "acceleration", "benchmarking"
  std::string title;
  std::string prompt;      // template; {name} is replaced by the variant's parameter
  ExerciseKind kind = ExerciseKind::Numeric;
  int points = 10;
  std::vector<std::string> hints;  // unlocked one by one after failed attempts
  std::string grader_reference;    // how the answer is computed, shown after solving
  // numeric; code exercises compare numbers their function returned with it too
  Tolerance tolerance;
  std::string unit;
  // multi-part numeric: one entry per answer box; tolerance and unit above are then unused.
  // Empty for a single-part numeric exercise (answer {value}).
  std::vector<NumericPart> parts;
  // choice: the choice texts (template-rendered too)
  std::vector<std::string> choices;
  // code
  std::string function_name;
  std::string starter_code;
  double time_limit_ms = 2000;
  // code with a timed test: the points its timed tests earn together (0: every test counts
  // the same); the other tests share the rest equally.
  int timed_points = 0;
  // code: how many of a variant's first tests are public examples (kDefaultPublicTests
  // unless the bank says otherwise); every later test but a timed one is hidden (see
  // exercise_variant).
  int public_tests = kDefaultPublicTests;
  // experiment-backed (any kind): graded from the student's own measurements.
  EvidenceSpec evidence;
  // Feedback that gives nothing of the answer away: a wrong number reads "Not correct: the
  // answer must be within 1%." (no "Too high" to bisect on), a failed code test shows what
  // the code returned but not the expected value. The scoring sentence says so.
  bool feedback_hides_answer = false;
};

const std::vector<Exercise>& exercise_bank();
// Throws ValueError listing the known ids.
const Exercise& find_exercise(std::string_view id);

// {id, chapter, title, prompt (the template), kind, points, hints, grader_reference,
//  tolerance{rel,abs,text}, unit, parts[{label, unit, tolerance{rel,abs,text}, weight,
//  points}], choices, function_name, starter_code, time_limit_ms, scoring, evidence}: everything but
// the answers. Every field is present for every kind (empty when unused; evidence is null,
// or {experiment, title, what} for an experiment-backed exercise).
nlohmann::json exercise_to_json(const Exercise& e);
nlohmann::json exercise_bank_json();

// {id, seed, params{...}, prompt, choices[] (choice), tests[{name, args, hidden,
// benchmark?}] (code)}.
// Deterministic in (id, seed, hidden_key) on every platform; never holds expected values. Integer
// parameters of 10,000 and more are written with thousands separators in the prompt.
// A choice exercise may show its choices in a per-variant order; answers index the order
// shown in the variant.
// Throws ValueError for an unknown id.
//
// Code tests pass plain JSON arguments to the student's function, except two markers that
// the page's sandbox (web/src/lab/sandbox-runner.js) turns into live objects, so that
// timing code is graded exactly instead of against a real clock:
//   {"$fake_clock": true} or {"$fake_clock": {"start_ms": 1000}}
//       -> a clock {now()} returning the test's fake time in ms (starting at start_ms, or 0);
//          reading it never advances it.
//   {"$fake_fn": {"costs_ms": [c0, c1, ...]}}
//       -> a function whose k-th call advances the fake time by c_k ms and returns
//          undefined; a call beyond the list throws an Error saying how many calls the
//          test allows.
// All markers in one test's arguments share that test's fake time. Example (a
// measureLatency test, warmup calls 0-1 untimed):
//   [{"$fake_fn": {"costs_ms": [40, 25, 3, 5, 4]}}, {"warmup": 2, "iterations": 3},
//    {"$fake_clock": {"start_ms": 1000}}]    expected: median(3, 5, 4) = 4
//
// A timed test has a `benchmark` object instead of meaningful args (args is []):
//   {"reference": "matmul-ijk", "n": 256, "rounds": 5, "seed": 7}
// The sandbox builds the reference's arguments itself (matmul-ijk: two n×n Float64Arrays
// filled from seed, and n; dense-matvec, which also takes "density": an n×n matrix with that
// share of nonzeros, as CSR and x for the student, dense and x for its reference loop),
// compiles the student's code and the reference's source text
// afresh the same way, warms both up alike, then times them interleaved for `rounds`
// rounds, and answers that test with {value: {student_ms: [...], reference_ms: [...],
// max_abs_difference}} (each round's time of each side, `rounds` of each, and the largest
// difference between the two functions' results). core decides from those numbers whether
// the test passed (kMinBenchmarkSpeedup below), so the rule is the same for the CLI.
//
// Public and hidden tests. The first Exercise::public_tests tests of a code variant (2 for
// every exercise today) are public examples: a failure shows the expected value and the call
// ("odd length: expected 4, got 5 (called as median([...]))"). Every later test is hidden
// (hidden: true, named "hidden test k", k counting hidden tests from 1): its feedback says
// passed or which property failed ("hidden test 2: failed: wrong order: ...", "wrong length",
// "wrong type", "outside the tolerance (within 1e-06)", "threw <the code's error>", "did
// not finish within 2000 ms"), never the expected value, the arguments or the value
// returned. Timed tests (benchmark) are neither: hidden false, and their feedback shows
// their own timings, which are the student's measurements, not answers.
//
// hidden_key: empty (the page, the student's side) draws the variant the student sees. A
// re-grade passes a grading key (1 to kMaxHiddenKeyLength letters, digits, '.', '_' or
// '-'): the public and timed tests stay those of the empty key, the hidden tests are drawn
// afresh from (id, seed, hidden_key), from the same distribution, and none has the
// arguments of any test of the student's variant (the draw is repeated until none has), so
// answers looked up by the arguments the page showed do not carry over. The same key gives
// the same tests, so a re-grade with it reproduces its gradebook. ValueError for a key
// outside that alphabet or length.
inline constexpr std::size_t kMaxHiddenKeyLength = 64;
nlohmann::json exercise_variant(std::string_view id, std::uint32_t seed,
                                std::string_view hidden_key = {});

// answer: numeric {value: number}; multi-part numeric {values: [number, ...]}, one per part
// in order; choice {choice: index, attempt?: k} (k = the try whose variant was answered,
// 1 for the first and when absent; the choice indexes that variant's choices, a right one
// earns points × choice_score_fraction(k), and the result carries "attempt"); code {results: [{value} | {error: "text"} |
// {timeout: true}], one per test in order}.
// Returns {correct, score, max_score, feedback, tests[{name, passed, hidden, message}]};
// tests is empty for numeric and choice. Code: score = points × passed / tests (with timed_points,
// timed_points × timed passed / timed tests + the rest × others passed / other tests),
// correct only when all pass; messages read "odd length: expected 3, got 4", "odd length:
// threw TypeError: ...", "odd length: did not finish within 2000 ms" (a hidden test's:
// exercise_variant).
// Multi-part numeric adds parts[{label, correct, score, max_score, feedback}], one per
// part: score = points × (Σ weights of the right parts) / (Σ weights), correct only when
// every part is right; feedback reads "2 of 3 parts correct."
// Throws ValueError when the id is unknown or the answer object is malformed (a missing
// or unknown field, a wrong type, a choice out of range, a results or values array of the
// wrong length), never for a wrong answer.
//
// Experiment-backed exercises (evidence.experiment not empty) take their usual answer plus
// `evidence: {experiment, rows}`: the rows of the student's latest run of that experiment
// (the page's latestResult(id).rows), e.g. {value: 3.2, evidence: {experiment:
// "profiling-batch-size", rows: [{batch_size: 1, samples_per_s: 410, ...}, ...]}}. The
// expected answer is computed from those rows. ValueError (with what to do) when evidence is
// missing, names another experiment, has no rows, a row lacks a field the exercise reads or
// holds a non-finite number there, or the run lacks a point the exercise needs ("your run
// of the batch-size experiment has no row with batch_size 32 (it has 1, 8); run the
// batch-size experiment with batch 1 and 32 first"). Other exercises reject an evidence
// field like any unknown field.
//
// Benchmark tests of code exercises (see exercise_variant) pass when the student's result
// matches the reference's within 1e-6 and median(reference_ms) / median(student_ms) is at
// least kMinBenchmarkSpeedup; the message shows both medians, the ratio and every round's
// times.
inline constexpr double kMinBenchmarkSpeedup = 1.2;

// hidden_key: the key the code's tests were drawn with (exercise_variant); results are graded
// against that draw's hidden tests. Other kinds ignore it.
//
// mode (answer_modes.hpp): the course's mode for this exercise. practice: as above.
// assessed: the same grade, with feedback that gives no direction or expected value (as
// feedback_hides_answer: "Not correct: the answer must be within 1%."), and "mode":
// "assessed". sealed: the answer is checked as always (a malformed one is a ValueError) but
// no verdict is returned: {correct: null, score: null, max_score, feedback: kSealedFeedback,
// tests: [], mode: "sealed"}; the re-grade of the export grades it (as assessed).
nlohmann::json grade_exercise(std::string_view id, std::uint32_t seed,
                              const nlohmann::json& answer, std::string_view hidden_key = {},
                              AnswerMode mode = AnswerMode::Practice);
inline constexpr const char* kSealedFeedback =
    "Answer recorded. It is graded when your teacher re-grades your exported progress, so this "
    "page shows no verdict; you may change it until you export.";

// Choice exercises draw a new variant for every try (new parameters, a new question from a
// pool, a new order), and an answer {choice, attempt: k} is graded against the variant of
// try k: a right pick earns points × choice_score_fraction(k), 1 on the first try, 1/2 on
// the second, 0 later, so a guess (right one time in kMinChoices at best, every try a new
// draw) does not pay. The try number is the student's word: claiming try 1 needs the right
// answer to the try-1 variant, nothing more (a re-grade says so). ValueError for attempt < 1.
inline constexpr int kMaxChoiceAttempt = 1000;
inline constexpr std::size_t kMinChoices = 4;
double choice_score_fraction(int attempt);

// The variant a choice exercise shows on try `try_number` (1 to kMaxChoiceAttempt), the shape
// of exercise_variant's; try 1 is exercise_variant(id, seed). ValueError for an unknown id, an
// exercise of another kind (only choices redraw) or a try out of range.
nlohmann::json choice_variant(std::string_view id, std::uint32_t seed, int try_number);

// How an exercise is scored, one sentence for its card ("Full points on the first try;
// each wrong try before the right one takes away 1/3 of them, ..."); exercise_to_json
// carries it as "scoring".
std::string scoring_text(const Exercise& e);

// The bank's content version, "bank-" + 16 hex digits: a hash of exercise_bank_json() and
// of the variants for seeds 0-3 of every exercise. A submission records it, so a re-grade
// with another bank is noticed.
const std::string& exercise_bank_version();

}  // namespace perflab
