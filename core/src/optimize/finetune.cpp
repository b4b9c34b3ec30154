// Fine-tuning (optimize/finetune.hpp): a trained model's recipe continued at a tenth of its
// learning rate or at its own (optimize/finetune.hpp), zeros held after magnitude pruning.
#include "perflab/optimize/finetune.hpp"

#include <algorithm>

#include "perflab/base/error.hpp"
#include "perflab/optimize/prune.hpp"

namespace perflab {

TrainRecipe finetune_recipe(const ModelFile& file, std::size_t epochs, std::size_t rows,
                            FinetuneAfter after) {
  if (epochs == 0) throw ValueError("fine-tuning needs at least 1 epoch, got 0");
  TrainRecipe recipe = file.training ? recipe_from_json(file.training->recipe) : TrainRecipe{};
  recipe.epochs = epochs;
  recipe.init = "keep";
  if (after == FinetuneAfter::Zeroed) recipe.learning_rate /= 10;
  recipe.validation_samples = std::min(recipe.validation_samples, default_validation_samples(rows));
  recipe.preprocessing = file.preprocessing;
  recipe.validate();
  return recipe;
}

TrainResult finetune(ModelFile& file, const LabeledImages& all, std::size_t epochs,
                     FinetuneAfter after, const TrainCallbacks& callbacks) {
  const TrainRecipe recipe = finetune_recipe(file, epochs, all.count, after);
  if (after == FinetuneAfter::Shrunk) return train_with_validation_split(file.model, all, recipe, callbacks);
  const ZeroMask mask = zero_mask_of(file.model);
  TrainCallbacks held = callbacks;
  held.on_progress = [&](const TrainProgress& p) {
    reapply_zeros(file.model, mask);
    if (callbacks.on_progress) callbacks.on_progress(p);
  };
  return train_with_validation_split(file.model, all, recipe, held);
}

}  // namespace perflab
