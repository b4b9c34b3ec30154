// Protects the Optimization chapter's exercises: every expected answer is recomputed here by
// hand from the variant's own parameters (the MLP's weights and biases × floats of state × 4,
// a max-subtracted log-sum-exp, the confusion matrix's diagonal, rows and columns, ceil and
// the cosine schedule), right answers score full points and the usual mistakes do not
// (one Adam buffer, a velocity at momentum 0, recall and precision swapped, a dropped last
// batch, forgetting the validation images, a naive exp, a sum instead of a mean); variants
// differ between seeds; feedback gives no direction and no expected value; and the
// chapter's data file is refused when it does not fit its C++.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "exercise_helpers.hpp"
#include "perflab/base/error.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/train/train.hpp"

using namespace perflab;
using nlohmann::json;
using exercise_test::contains;

namespace {

constexpr std::uint32_t kSeeds = 40;
const char* const kState = "optimization.optimizer-state";
const char* const kLoss = "optimization.cross-entropy";
const char* const kConfusion = "optimization.confusion";
const char* const kSteps = "optimization.training-steps";

double param(const json& variant, const char* name) {
  return variant.at("params").at(name).get<double>();
}

json grade_values(const char* id, std::uint32_t seed, const std::vector<double>& values) {
  return grade_exercise(id, seed, {{"values", values}});
}

// No part's feedback says which way a wrong number is off.
void check_no_direction(const json& graded) {
  for (const auto& part : graded.at("parts")) {
    const std::string feedback = part.at("feedback").get<std::string>();
    CAPTURE(feedback);
    CHECK(!contains(feedback, "Too"));
    if (part.at("correct") == false) CHECK(feedback.rfind("Not correct: the answer must be", 0) == 0);
  }
}

// The mean cross-entropy of rows of logits, by hand: log-sum-exp with the row maximum out.
double stable_loss(const json& logits, const json& labels) {
  double total = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    double m = -std::numeric_limits<double>::infinity();
    for (const auto& x : logits[i]) m = std::max(m, x.get<double>());
    double sum = 0;
    for (const auto& x : logits[i]) sum += std::exp(x.get<double>() - m);
    total += m + std::log(sum) - logits[i][labels[i].get<std::size_t>()].get<double>();
  }
  return total / static_cast<double>(logits.size());
}

// The textbook formula without the maximum: overflows and underflows far from 0.
double naive_loss(const json& logits, const json& labels) {
  double total = 0;
  for (std::size_t i = 0; i < logits.size(); ++i) {
    double sum = 0;
    for (const auto& x : logits[i]) sum += std::exp(x.get<double>());
    total += -std::log(std::exp(logits[i][labels[i].get<std::size_t>()].get<double>()) / sum);
  }
  return total / static_cast<double>(logits.size());
}

// A returned number as the sandbox hands it over: NaN and infinities become null in JSON.
json returned(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

}  // namespace

TEST_CASE("optimizer-state: one float per parameter for momentum, none without, two for Adam") {
  std::set<std::string> variants;
  int plain = 0, adamw = 0, no_last_bias = 0;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant(kState, seed);
    const double h1 = param(v, "h1"), h2 = param(v, "h2"), momentum = param(v, "momentum");
    const std::string biases = v.at("params").at("biases").get<std::string>();
    const bool last_bias = !contains(biases, "none");
    variants.insert(v.at("params").dump());
    CAPTURE(v.dump());
    const double weights = 784 * h1 + h1 * h2 + h2 * 10;
    const double parameters = weights + h1 + h2 + (last_bias ? 10 : 0);
    const double sgd = momentum > 0 ? 4 * parameters : 0;
    plain += momentum == 0 ? 1 : 0;
    adamw += contains(v.at("params").at("adam").get<std::string>(), "AdamW") ? 1 : 0;
    no_last_bias += last_bias ? 0 : 1;

    const json right = grade_values(kState, seed, {sgd, 8 * parameters});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(10));
    // Adam with one buffer, as SGD's velocity: the second part is wrong.
    const json one_buffer = grade_values(kState, seed, {sgd, 4 * parameters});
    CHECK(one_buffer.at("parts")[1].at("correct") == false);
    CHECK(one_buffer.at("score") == doctest::Approx(5));
    check_no_direction(one_buffer);
    // The weights alone (biases forgotten), and a velocity kept at momentum 0.
    CHECK(grade_values(kState, seed, {momentum > 0 ? 4 * weights : 0, 8 * weights})
              .at("correct") == false);
    if (momentum == 0) {
      CHECK(grade_values(kState, seed, {4 * parameters, 8 * parameters}).at("parts")[0].at(
                "correct") == false);
    }
  }
  CHECK(variants.size() >= 30);
  CHECK(plain > 0);
  CHECK(plain < static_cast<int>(kSeeds));
  CHECK(adamw > 0);
  CHECK(no_last_bias > 0);
}

TEST_CASE("cross-entropy: a stable mean passes every hidden test, a naive exp or a sum does not") {
  std::set<std::string> inputs;
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    const json v = exercise_variant(kLoss, seed);
    CAPTURE(seed);
    inputs.insert(v.at("tests").dump());
    json stable = json::array(), naive = json::array(), summed = json::array();
    bool has_huge = false;
    for (const auto& test : v.at("tests")) {
      const json& logits = test.at("args")[0];
      const json& labels = test.at("args")[1];
      REQUIRE(logits.size() == labels.size());
      for (const auto& row : logits) {
        for (const auto& x : row) has_huge = has_huge || std::fabs(x.get<double>()) >= 1000;
      }
      stable.push_back({{"value", stable_loss(logits, labels)}});
      naive.push_back({{"value", returned(naive_loss(logits, labels))}});
      summed.push_back({{"value", stable_loss(logits, labels) * static_cast<double>(logits.size())}});
    }
    CHECK(has_huge);
    const json right = grade_exercise(kLoss, seed, {{"results", stable}});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(15));

    const json overflow = grade_exercise(kLoss, seed, {{"results", naive}});
    CHECK(overflow.at("correct") == false);
    int failed = 0;
    for (const auto& t : overflow.at("tests")) {
      if (t.at("passed") == true) continue;
      ++failed;
      const std::string message = t.at("message").get<std::string>();
      CAPTURE(message);
      // The huge and very negative tests fail (hidden tests: the property, not the answer).
      CHECK(contains(message, "hidden test "));
      CHECK(contains(message, ": failed: wrong type: the result is null, not a number"));
      CHECK(!contains(message, "expected"));
    }
    CHECK(failed >= 2);
    CHECK(grade_exercise(kLoss, seed, {{"results", summed}}).at("correct") == false);
  }
  CHECK(inputs.size() == 10);
  CHECK(contains(find_exercise(kLoss).starter_code, "function meanCrossEntropy(logits, labels)"));
}

TEST_CASE("confusion: accuracy from the diagonal, recall from the row, precision from the column") {
  std::set<std::string> matrices, asked;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant(kConfusion, seed);
    const json& m = v.at("params").at("confusion");
    const json& names = v.at("params").at("class_names");
    const std::string name = v.at("params").at("asked").get<std::string>();
    matrices.insert(m.dump());
    asked.insert(name);
    CAPTURE(v.dump());
    std::size_t c = 0;
    while (names[c] != name) ++c;
    double total = 0, diagonal = 0, row = 0, column = 0;
    for (std::size_t t = 0; t < m.size(); ++t) {
      for (std::size_t p = 0; p < m.size(); ++p) {
        const double x = m[t][p].get<double>();
        total += x;
        diagonal += t == p ? x : 0;
        row += t == c ? x : 0;
        column += p == c ? x : 0;
      }
    }
    CHECK(param(v, "images") == total);
    const double hit = m[c][c].get<double>();
    const double accuracy = 100 * diagonal / total, recall = 100 * hit / row,
                 precision = 100 * hit / column;
    // The prompt prints the matrix the student reads, row by row.
    CHECK(contains(v.at("prompt").get<std::string>(),
                   name + " [" + m[c][0].dump() + ", " + m[c][1].dump() + ", " + m[c][2].dump() + "]"));
    CHECK(grade_values(kConfusion, seed, {accuracy, recall, precision}).at("correct") == true);
    // Rounded to one decimal, as a student types it.
    CHECK(grade_values(kConfusion, seed,
                       {std::round(accuracy * 10) / 10, std::round(recall * 10) / 10,
                        std::round(precision * 10) / 10})
              .at("correct") == true);
    const json swapped = grade_values(kConfusion, seed, {accuracy, precision, recall});
    CHECK(swapped.at("parts")[0].at("correct") == true);
    CHECK(swapped.at("parts")[1].at("correct") == false);
    CHECK(swapped.at("parts")[2].at("correct") == false);
    check_no_direction(swapped);
    // Fractions instead of percent.
    CHECK(grade_values(kConfusion, seed, {accuracy / 100, recall / 100, precision / 100})
              .at("score") == doctest::Approx(0));
  }
  CHECK(matrices.size() == kSeeds);
  CHECK(asked.size() >= 5);
}

TEST_CASE("training-steps: ceil over the training images, the leftover last batch, cosine lr") {
  std::set<std::string> variants;
  for (std::uint32_t seed = 0; seed < kSeeds; ++seed) {
    const json v = exercise_variant(kSteps, seed);
    variants.insert(v.at("params").dump());
    CAPTURE(v.dump());
    const auto images = static_cast<std::int64_t>(param(v, "images"));
    const auto validation = static_cast<std::int64_t>(param(v, "validation"));
    const auto batch = static_cast<std::int64_t>(param(v, "batch"));
    const auto epochs = static_cast<std::int64_t>(param(v, "epochs"));
    const auto epoch = static_cast<std::int64_t>(param(v, "epoch"));
    const double lr = param(v, "learning_rate"), f = param(v, "min_lr_fraction");
    const std::int64_t train = images - validation;
    const std::int64_t per_epoch = (train + batch - 1) / batch;
    REQUIRE(train % batch != 0);
    const std::int64_t total = per_epoch * epochs;
    const std::int64_t last = train - (per_epoch - 1) * batch;
    const double t = static_cast<double>((epoch - 1) * per_epoch);
    const double rate =
        lr * (f + (1 - f) * 0.5 * (1 + std::cos(std::numbers::pi * t / static_cast<double>(total))));
    const auto d = [](std::int64_t x) { return static_cast<double>(x); };

    const json right = grade_values(kSteps, seed, {d(per_epoch), d(total), d(last), rate});
    CHECK(right.at("correct") == true);
    CHECK(right.at("score") == doctest::Approx(15));
    // Dropping the last batch (floor): steps, total and the last batch are all wrong.
    const json dropped =
        grade_values(kSteps, seed, {d(train / batch), d(train / batch * epochs), d(batch), rate});
    CHECK(dropped.at("parts")[0].at("correct") == false);
    CHECK(dropped.at("parts")[1].at("correct") == false);
    CHECK(dropped.at("parts")[2].at("correct") == false);
    check_no_direction(dropped);
    // Training on every image, the validation ones too.
    const std::int64_t all_steps = (images + batch - 1) / batch;
    CHECK(grade_values(kSteps, seed, {d(all_steps), d(all_steps * epochs), d(last), rate})
              .at("parts")[0].at("correct") == false);
    // Epochs counted from 0 in the schedule: the lr of the next epoch's first step.
    const double next = lr * (f + (1 - f) * 0.5 *
                                      (1 + std::cos(std::numbers::pi * (t + static_cast<double>(per_epoch)) /
                                                    static_cast<double>(total))));
    CHECK(grade_values(kSteps, seed, {d(per_epoch), d(total), d(last), next})
              .at("parts")[3].at("correct") == false);
  }
  CHECK(variants.size() >= 35);
}

TEST_CASE("core's steps_per_epoch drops no sample, as the trainer runs it") {
  CHECK(steps_per_epoch(10, 3) == 4);
  CHECK(steps_per_epoch(9, 3) == 3);
  CHECK(steps_per_epoch(1, 64) == 1);
  CHECK(steps_per_epoch(0, 64) == 0);
  CHECK_THROWS_WITH_AS(steps_per_epoch(10, 0), "steps per epoch: batch must be at least 1, got 0",
                       ValueError);
}

TEST_CASE("the chapter's exercises say their feedback hides the answer; other chapters keep it") {
  for (const char* id : {kState, kConfusion, kSteps}) {
    CAPTURE(id);
    CHECK(contains(scoring_text(find_exercise(id)), "not which way a number is off"));
  }
  CHECK(contains(scoring_text(find_exercise(kLoss)), "not the value expected"));
  // Profiling keeps "Too high" / "Too low".
  const json v = exercise_variant("profiling.linear-params", 3);
  const double right = param(v, "in") * param(v, "out") + param(v, "out");
  CHECK(grade_exercise("profiling.linear-params", 3, {{"value", right * 2}}).at("feedback") ==
        "Too high: the answer must be exact (within 0.5).");
  CHECK(!contains(scoring_text(find_exercise("profiling.linear-params")), "right or wrong"));
}

TEST_CASE("the optimization data file is refused when an entry does not fit its C++") {
  using namespace perflab::detail;
  const ExerciseFile* file = nullptr;
  for (const auto& f : exercise_files()) {
    if (f.path == "core/exercises/optimization.json") file = &f;
  }
  REQUIRE(file != nullptr);
  const auto load = [](const json& data) {
    const std::string text = data.dump();
    try {
      load_chapter({"core/exercises/optimization.json", text}, "optimization",
                   optimization_exercises());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(loaded)");
  };
  const json data = json::parse(file->text);
  CHECK(load(data) == "(loaded)");

  json parts = data;
  parts["exercises"][3]["parts"].erase(3);
  CHECK(load(parts) ==
        "core/exercises/optimization.json, optimization.training-steps: \"parts\" must be a list "
        "of 4 {label, unit}, one per part the C++ grades");

  json extra = data;
  extra["exercises"].push_back(data["exercises"][0]);
  extra["exercises"].back()["id"] = "optimization.learning-rate";
  CHECK(load(extra) ==
        "core/exercises/optimization.json, optimization.learning-rate: no C++ draws this "
        "exercise; add an ExerciseCode with this id to optimization_exercises() in "
        "exercise_bank_optimization.cpp, or remove the entry");

  json missing = data;
  missing["exercises"].erase(1);
  CHECK(load(missing) ==
        "core/exercises/optimization.json: no entry for optimization.cross-entropy, which "
        "optimization_exercises() in exercise_bank_optimization.cpp defines; add its prose to "
        "this file");

  json fragment = data;
  fragment["exercises"][0]["fragments"].erase("adamw");
  const std::string text = fragment.dump();
  const auto entries = load_chapter({"core/exercises/optimization.json", text}, "optimization",
                                    optimization_exercises());
  // A draw that needs the missing fragment names it (some seed draws AdamW).
  bool refused = false;
  for (std::uint32_t seed = 0; seed < 20 && !refused; ++seed) {
    Rng rng(seed);
    try {
      entries[0].draw(rng, entries[0].fragments);
    } catch (const Error& e) {
      CHECK(std::string(e.what()) ==
            "core/exercises/optimization.json, optimization.optimizer-state has no fragment "
            "\"adamw\"; its fragments: adam, all-biases, last-without-bias");
      refused = true;
    }
  }
  CHECK(refused);
}
