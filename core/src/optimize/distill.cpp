// Distillation (optimize/distill.hpp): the teacher's logits computed once over the training
// part of the split, then the trainer's distillation loss.
#include "perflab/optimize/distill.hpp"

#include "perflab/base/error.hpp"
#include "perflab/train/evaluate.hpp"

namespace perflab {

TrainResult distill_with_validation_split(Model& student, ModelFile& teacher,
                                          const LabeledImages& all, const TrainRecipe& recipe,
                                          double temperature, double alpha,
                                          const TrainCallbacks& callbacks) {
  recipe.validate();
  if (recipe.validation_samples >= all.count) {
    throw ValueError("recipe validation_samples " + std::to_string(recipe.validation_samples) +
                     " leaves no training images out of " + std::to_string(all.count) +
                     "; keep it below " + std::to_string(all.count));
  }
  const auto [train_part, validation_part] =
      split_validation(all, recipe.validation_samples, recipe.seed);
  const Tensor teacher_logits = logits_of(teacher.model, train_part, teacher.preprocessing);
  Trainer trainer(student, train_part, validation_part, recipe);
  trainer.distill_from(teacher_logits, temperature, alpha);
  trainer.run(trainer.steps_total(), callbacks);
  return trainer.result();
}

nlohmann::json distill_lineage(const ModelFile& teacher, double temperature, double alpha,
                               std::size_t epochs) {
  const bool measured = teacher.training && teacher.training->test_accuracy;
  return {{"transform", "distill"},
          {"teacher", teacher.model.name()},
          {"teacher_test_accuracy",
           measured ? nlohmann::json(*teacher.training->test_accuracy) : nlohmann::json(nullptr)},
          {"temperature", temperature},
          {"alpha", alpha},
          {"epochs", epochs}};
}

}  // namespace perflab
