// Knowledge distillation: a student model trained on a teacher's softened outputs mixed with
// the labels (train/loss.hpp's distillation_loss, Hinton et al. 2015), on the same split,
// shuffles and recipe that training on the labels alone would use, so the two students differ
// only in the loss: the measured accuracy difference is the teacher's doing.
// Not for: the loss itself (train/loss.hpp) or choosing the student (the zoo, a spec).
#pragma once

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/train/train.hpp"

namespace perflab {

// Defaults of `perflab distill` and the page: T = 1 and α = 0.9, measured, not taken from
// the literature's usual T = 2-8. The pretrained fashion_mlp (89.85%) into a 784-32-10 MLP,
// 3,000 training images, 20 epochs, seeds 1-3, distilled minus labels alone in points:
// T 1, α 1: +0.55, +0.37, +0.70; T 1, α 0.9: +0.32, +0.34, +0.69; T 1, α 0.5: +0.09, +0.28,
// +0.14; T 2, α 1: −0.19, −0.32, −0.02; T 3, α 1: −0.60, −0.96, −0.44. This teacher's small
// logits carry little that softening brings out, and softer targets blur the top class.
// α stays below 1 so the labels still count.
inline constexpr double kDefaultDistillTemperature = 1;
inline constexpr double kDefaultDistillAlpha = 0.9;

// The student the page distils into and the floors' bench measures: a 784-32-10 MLP named
// "mlp_32" (25,450 parameters, a tenth of fashion_mlp's), small enough that the teacher has
// something to teach it and that both students train in seconds.
nlohmann::json default_distill_student_spec();

// train_with_validation_split's split of `all` (recipe_split), the teacher's logits of the
// training part as its file runs (its own preprocessing, int8 for a quantized teacher:
// logits_of), then the student trained from recipe.init on distillation_loss at (temperature,
// alpha). The student's preprocessing is the recipe's. Refusals: train_with_validation_split's, the Trainer's
// distill_from's (ValueError naming temperature or alpha), and a teacher whose outputs are not
// one logit per class.
TrainResult distill_with_validation_split(Model& student, ModelFile& teacher,
                                          const LabeledImages& all, const TrainRecipe& recipe,
                                          double temperature, double alpha,
                                          const TrainCallbacks& callbacks = {});

// The student file's lineage entry: {transform: "distill", teacher: NAME, teacher_test_accuracy
// (null when the teacher file has none), temperature, alpha, epochs}.
nlohmann::json distill_lineage(const ModelFile& teacher, double temperature, double alpha,
                               std::size_t epochs);

}  // namespace perflab
