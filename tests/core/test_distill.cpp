// What this file protects: the distillation loss (train/loss.hpp) and distillation training
// (optimize/distill.hpp). The loss equals its formula on hand-computed rows, its gradient
// matches finite differences, α = 0 is the labels' cross-entropy, bad T and α are refused in
// sentences; the trainer refuses a teacher of the wrong shape and trains a student whose
// softened outputs move toward the teacher's.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gradient_check.hpp"
#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/train/evaluate.hpp"
#include "perflab/train/loss.hpp"
#include "real_data.hpp"

using namespace perflab;

namespace {
using Labels = std::vector<std::uint8_t>;
}

TEST_CASE("the distillation loss is alpha T^2 KL to the softened teacher plus (1 - alpha) cross-entropy") {
  // One row, two classes. Student logits (0, 0): softened p_s = (1/2, 1/2) at any T.
  // Teacher logits (0, 2 ln 3) at T = 2: p_t = (1/4, 3/4). KL = 1/4 ln(1/2) + 3/4 ln(3/2).
  const Tensor s({1, 2}, {0.0f, 0.0f});
  const Tensor t({1, 2}, {0.0f, static_cast<float>(2 * std::log(3.0))});
  const double kl = 0.25 * std::log(0.25 / 0.5) + 0.75 * std::log(0.75 / 0.5);
  const double ce = std::log(2.0);  // label 0 under (1/2, 1/2)
  const LossResult r = distillation_loss(s, t, Labels{0}, 2.0, 0.25);
  CHECK(r.loss == doctest::Approx(0.25 * 4 * kl + 0.75 * ce).epsilon(1e-6));
  // dL/ds = α T (p_s − p_t) + (1 − α)(p − one_hot): (0.25·2·(1/4) + 0.75·(−1/2), ...).
  CHECK(r.dlogits[0] == doctest::Approx(0.25 * 2 * 0.25 + 0.75 * -0.5).epsilon(1e-6));
  CHECK(r.dlogits[1] == doctest::Approx(0.25 * 2 * -0.25 + 0.75 * 0.5).epsilon(1e-6));
  CHECK(r.correct == 1);  // argmax 0 (the tie's first) against label 0
  // α = 0: the labels alone, the same numbers as the cross-entropy.
  const Tensor logits = Tensor::random({3, 4}, 5, -2, 2);
  const Tensor teacher = Tensor::random({3, 4}, 6, -2, 2);
  const LossResult hard = softmax_cross_entropy(logits, Labels{0, 3, 1});
  const LossResult zero = distillation_loss(logits, teacher, Labels{0, 3, 1}, 4.0, 0.0);
  CHECK(zero.loss == hard.loss);
  for (std::size_t i = 0; i < logits.size(); ++i) CHECK(zero.dlogits[i] == hard.dlogits[i]);
  // A student equal to its teacher pays no soft term: α = 1 gives 0.
  CHECK(distillation_loss(teacher, teacher, Labels{0, 3, 1}, 3.0, 1.0).loss == doctest::Approx(0.0).epsilon(1e-7));
}

TEST_CASE("the distillation loss's gradient matches finite differences, at several T and alpha") {
  const Tensor logits = Tensor::random({4, 5}, 21, -3, 3);
  const Tensor teacher = Tensor::random({4, 5}, 22, -4, 4);
  const Labels labels = {1, 4, 0, 2};
  // Not a structured binding: clang 14 (Emscripten's) cannot capture one in INFO's lambda.
  for (const std::pair<double, double>& setting : std::vector<std::pair<double, double>>{{1, 0.5}, {4, 0.7}, {8, 1.0}}) {
    const double T = setting.first, alpha = setting.second;
    const LossResult r = distillation_loss(logits, teacher, labels, T, alpha);
    perflab::testing::Worst worst;
    const perflab::testing::GradientTolerance tol{1e-2, 1e-3, 1e-5};
    Tensor probe = logits;
    for (std::size_t i = 0; i < logits.size(); ++i) {
      const float original = probe[i];
      probe[i] = original + 0.01f;
      const double up = distillation_loss(probe, teacher, labels, T, alpha).loss;
      probe[i] = original - 0.01f;
      const double down = distillation_loss(probe, teacher, labels, T, alpha).loss;
      probe[i] = original;
      worst.update(i, (up - down) / ((original + 0.01f) - (original - 0.01f)), r.dlogits[i], tol);
    }
    INFO("T " << T << ", alpha " << alpha << ": worst element " << worst.index << ": numeric "
              << worst.numeric << ", analytic " << worst.analytic);
    CHECK(worst.ratio <= 1.0);
  }
}

TEST_CASE("the distillation loss refuses T, alpha and a teacher that do not fit, in sentences") {
  const Tensor s({2, 3});
  CHECK_THROWS_WITH_AS(distillation_loss(s, s, Labels{0, 1}, 0.0, 0.5),
                       doctest::Contains("temperature must be above 0 and at most 100"), ValueError);
  CHECK_THROWS_WITH_AS(distillation_loss(s, s, Labels{0, 1}, 101.0, 0.5),
                       doctest::Contains("got 101"), ValueError);
  CHECK_THROWS_WITH_AS(distillation_loss(s, s, Labels{0, 1}, 2.0, 1.5),
                       doctest::Contains("alpha must be between 0 and 1"), ValueError);
  CHECK_THROWS_WITH_AS(distillation_loss(s, s, Labels{0, 1}, std::nan(""), 0.5),
                       doctest::Contains("temperature"), ValueError);
  CHECK_THROWS_WITH_AS(distillation_loss(s, Tensor({2, 4}), Labels{0, 1}, 2.0, 0.5),
                       doctest::Contains("the teacher's logits have shape (2, 4), the student's (2, 3)"),
                       ShapeError);
}

#ifndef __EMSCRIPTEN__
TEST_CASE("a distilled student is trained on the teacher's logits: its softened outputs move toward them") {
  const LabeledImages all = take_first(real_data::fashion_mnist("train"), 800);
  const nlohmann::json teacher_spec = {{"name", "teacher"}, {"input", {32, 784}}, {"seed", 2},
      {"layers", {{{"type", "Linear"}, {"in", 784}, {"out", 64}}, {{"type", "ReLU"}},
                  {{"type", "Linear"}, {"in", 64}, {"out", 10}}}}};
  const nlohmann::json student_spec = {{"name", "student"}, {"input", {32, 784}}, {"seed", 3},
      {"layers", {{{"type", "Linear"}, {"in", 784}, {"out", 16}}, {{"type", "ReLU"}},
                  {{"type", "Linear"}, {"in", 16}, {"out", 10}}}}};
  TrainRecipe recipe;
  recipe.epochs = 2;
  recipe.batch = 32;
  recipe.validation_samples = 80;
  ModelFile teacher{model_from_json(teacher_spec), recipe.preprocessing, std::nullopt};
  train_with_validation_split(teacher.model, all, recipe);

  // The mean KL from the teacher's softened outputs to the student's, on the same images.
  const auto kl_to_teacher = [&](Model& student) {
    const Tensor t = logits_of(teacher.model, all, teacher.preprocessing);
    const Tensor s = logits_of(student, all, recipe.preprocessing);
    return distillation_loss(s, t, all.labels, 4.0, 1.0).loss;
  };
  Model distilled = model_from_json(student_spec);
  Model labels_only = model_from_json(student_spec);
  const TrainResult d = distill_with_validation_split(distilled, teacher, all, recipe, 4.0, 1.0);
  train_with_validation_split(labels_only, all, recipe);
  REQUIRE(d.epochs.size() == 2);
  CHECK(kl_to_teacher(distilled) < kl_to_teacher(labels_only));

  // Refusals: before anything trains.
  Model other = model_from_json(student_spec);
  CHECK_THROWS_WITH_AS(distill_with_validation_split(other, teacher, all, recipe, 4.0, -0.5),
                       doctest::Contains("alpha must be between 0 and 1"), ValueError);
  const LabeledImages small = take_first(all, 100);
  Trainer trainer(other, small, take_first(all, 10), recipe);
  CHECK_THROWS_WITH_AS(trainer.distill_from(Tensor({99, 10}), 4.0, 0.5),
                       doctest::Contains("the training rows need (100, 10)"), ShapeError);
  const nlohmann::json lineage = distill_lineage(teacher, 4.0, 0.7, 2);
  CHECK(lineage == nlohmann::json{{"transform", "distill"}, {"teacher", "teacher"},
                                  {"teacher_test_accuracy", nullptr}, {"temperature", 4.0},
                                  {"alpha", 0.7}, {"epochs", 2}});
}
#endif
