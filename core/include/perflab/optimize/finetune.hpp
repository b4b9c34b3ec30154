// Fine-tuning after a transform (pruning, structured pruning): the model file's own recipe
// for a few more epochs from the weights it has now, so a
// pruned model recovers what it lost; after magnitude pruning at a tenth of the learning rate
// with the zeros held (its sparsity is kept), after structured pruning at the recipe's own.
// Not for: training from scratch (train/train.hpp's recipes and `perflab train`).
#pragma once

#include <cstddef>

#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/train/train.hpp"

namespace perflab {

// What is fine-tuned, and so at which learning rate.
enum class FinetuneAfter {
  // Magnitude pruning: the model is the trained one less its smallest weights; a tenth of the
  // recipe's learning rate nudges the rest, and the zeros are held after every step.
  Zeroed,
  // Structured pruning: the layers lost half their units and the accuracy several points
  // (fashion_mlp, half the hidden units: 89.9% to 78.3%); the recipe's own learning rate
  // recovers more in the same epochs (2 epochs: 89.05% at 1e-3, 88.85% at 3.3e-4, 88.48% at
  // 1e-4, `perflab prune build/pretrained/fashion_mlp.perflab --sparsity 0.5 --structured
  // --finetune 2`).
  Shrunk,
};

// The recipe fine-tuning runs: the file's training recipe (core's default for a file that was
// never trained) with `epochs` epochs, init "keep" (start from the current weights), the
// learning rate `after` asks for, the file's preprocessing and a validation split no larger
// than default_validation_samples(rows) of `rows` images. ValueError for 0 epochs or what
// TrainRecipe::validate refuses.
TrainRecipe finetune_recipe(const ModelFile& file, std::size_t epochs, std::size_t rows,
                            FinetuneAfter after);

// train_with_validation_split of the file's model with finetune_recipe. After Zeroed, the
// weights that are zero before the first step are set back to zero after every step (before
// callbacks.on_progress runs).
TrainResult finetune(ModelFile& file, const LabeledImages& all, std::size_t epochs,
                     FinetuneAfter after, const TrainCallbacks& callbacks = {});

}  // namespace perflab
