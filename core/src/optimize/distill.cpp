// Distillation (optimize/distill.hpp): the teacher's logits computed once over the training
// part of the split, then the trainer's distillation loss.
#include "perflab/optimize/distill.hpp"

#include "perflab/train/evaluate.hpp"

namespace perflab {

TrainResult distill_with_validation_split(Model& student, ModelFile& teacher,
                                          const LabeledImages& all, const TrainRecipe& recipe,
                                          double temperature, double alpha,
                                          const TrainCallbacks& callbacks) {
  const auto [train_part, validation_part] = recipe_split(all, recipe);
  const Tensor teacher_logits = logits_of(teacher, train_part);
  Trainer trainer(student, train_part, validation_part, recipe);
  trainer.distill_from(teacher_logits, temperature, alpha);
  trainer.run(trainer.steps_total(), callbacks);
  return trainer.result();
}

nlohmann::json default_distill_student_spec() {
  return {{"name", "mlp_32"},
          {"input", {64, 784}},
          {"layers", {{{"type", "Linear"}, {"in", 784}, {"out", 32}}, {{"type", "ReLU"}},
                      {{"type", "Linear"}, {"in", 32}, {"out", 10}}}}};
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
