// Structured pruning: whole hidden units (a Linear's outputs) or channels (a Conv2d's output
// channels) removed, so the layers really shrink and every kernel does less work with no
// sparse format: a Linear 784→256 that keeps 128 units becomes a Linear 784→128, and the layer
// that reads it loses the matching inputs. Which units go: those whose incoming weights have
// the smallest L2 norm (a unit whose weights are all small contributes little whatever its
// input), per layer, the same fraction of every prunable layer, ties to the lower index.
// A layer is prunable when its output reaches the next Linear or Conv2d only through layers
// that act on each unit or channel alone (ReLU, GELU, Sigmoid, MaxPool2d, and Flatten between
// a Conv2d and a Linear, where a channel is H·W consecutive inputs); the model's last Linear
// or Conv2d (its outputs are the classes) and any layer followed by Softmax, LayerNorm or
// attention keep every unit. Fine-tuning afterwards: optimize/finetune.hpp.
// Not for: zeroing single weights (optimize/prune.hpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/model/model.hpp"

namespace perflab {

struct ShrunkLayer {
  std::size_t layer = 0;       // index in the model ("layers[0]")
  std::string type;            // "Linear" / "Conv2d"
  std::size_t before = 0, after = 0;  // units (Linear) or channels (Conv2d)
  std::vector<std::size_t> kept;      // the kept units' indices in the original, ascending
};

struct StructuredPruneReport {
  double fraction = 0;                 // asked: the fraction of each prunable layer's units
  std::vector<ShrunkLayer> layers;     // the prunable layers, in model order
  std::size_t parameters_before = 0, parameters_after = 0;
  double flops_before = 0, flops_after = 0;  // forward, per sample (layers.hpp's convention)
};

struct StructuredPrune {
  Model model;  // the shrunk model: same name, input, seed and layer types, smaller sizes
  StructuredPruneReport report;
};

// Removes round(fraction × units) units of each prunable layer (at least one stays).
// ValueError: fraction outside [0, 1) ("fraction must be at least 0 and below 1 (0.5 removes
// half the hidden units), got 1"), or a model with no prunable layer (the sentence says what
// a prunable layer is). The input model is only read.
StructuredPrune prune_structured(Model& model, double fraction);

// {fraction, parameters_before, parameters_after, flops_before, flops_after,
//  layers: [{layer, type, before, after}]} (kept indices are not listed: the file has them).
nlohmann::json to_json(const StructuredPruneReport& report);
// The model file's lineage entry: {transform: "prune", method: "structured", criterion:
// "l2 norm of incoming weights", fraction, layers: [{layer, before, after}], finetune_epochs}.
nlohmann::json structured_prune_lineage(const StructuredPruneReport& report,
                                        std::size_t finetune_epochs);

}  // namespace perflab
