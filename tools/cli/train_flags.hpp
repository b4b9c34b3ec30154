// The training options `perflab train` and `perflab distill` share: the recipe's fields a
// flag replaces (epochs, batch, optimizer, learning rate, seed, the validation split), the
// training subset and the data folder, and the progress both print on stderr.
// Not for: what a recipe means or checks (core's train.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "perflab/data/dataset.hpp"
#include "perflab/train/train.hpp"

namespace perflab::cli {

struct TrainFlags {
  std::optional<int> epochs, batch, train_samples, validation_samples;
  std::optional<double> lr;
  std::optional<std::string> optimizer;
  std::optional<std::uint64_t> seed;
  std::string data_dir = kFashionMnistDir;
};

// The names of the flags, for an unknown-option sentence: "--data, --epochs, --batch,
// --optimizer, --lr, --seed, --train-samples and --validation-samples".
extern const char* const kTrainFlagNames;

// Reads args[i] (and its value, advancing i) into flags when it is one of them; false when
// it is not a training flag.
bool read_train_flag(const std::vector<std::string>& args, std::size_t& i, TrainFlags& flags);

// Core's baseline recipe of this zoo model (core's defaults for "" or a zoo model without
// one), with the flags' fields in place, validated.
TrainRecipe recipe_with_flags(const std::string& zoo_name, const TrainFlags& flags);

// The training split, or its first --train-samples images. ValueError for 0 or more images
// than the split has.
LabeledImages training_images(const TrainFlags& flags);

// Progress every tenth of the steps and a line per epoch, each starting "perflab COMMAND: ".
TrainCallbacks progress_on_stderr(const std::string& command);

// "1 epoch", "15 epochs".
std::string count_of(std::size_t n, const char* singular, const char* plural);

}  // namespace perflab::cli
