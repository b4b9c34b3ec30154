// Unstructured magnitude pruning: the smallest weights by |w| set to zero, per weight tensor
// (each tensor loses the same fraction) or globally (one threshold over every weight tensor,
// so layers with many small weights lose more). The weight tensors are weights.hpp's (names
// ending in "weight"; biases and norms stay). Zeros are counted exactly: round(sparsity × n)
// per tensor, or of all weights, ties broken by position so the same model always prunes the
// same way. Fine-tuning keeps pruned weights at zero through `reapply_zeros`.
// Not for: structured pruning (units removed, layers shrunk: optimize/structured.hpp) or
// sparse kernels (kernels/sparse.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/model/model.hpp"

namespace perflab {

enum class PruneScope { Layer, Global };
// "layer" / "global"; from_name: ValueError naming the two.
const char* prune_scope_name(PruneScope scope);
PruneScope prune_scope_from_name(const std::string& name);

struct PrunedTensor {
  std::string name;        // "0.weight"
  std::size_t count = 0;   // weights in the tensor
  std::size_t zeroed = 0;  // of them now zero (pruned, or zero before)
  double threshold = 0;    // the largest |w| pruned in this tensor (0 when none)
};

struct PruneReport {
  PruneScope scope = PruneScope::Layer;
  double sparsity = 0;  // asked: the fraction of weights to zero
  std::vector<PrunedTensor> tensors;
  std::size_t count = 0, zeroed = 0;  // over every weight tensor
  double achieved() const { return count ? static_cast<double>(zeroed) / count : 0.0; }
};

// Zeroes round(sparsity × n) weights of smallest magnitude (per tensor, or of all n weights
// for Global). ValueError: sparsity outside [0, 1) ("sparsity must be at least 0 and below 1
// (0.5 zeroes half the weights), got 1"), or a model without weight tensors.
PruneReport prune_magnitude(Model& model, double sparsity, PruneScope scope);

// Where a model's weight tensors hold zeros now (a pruned model's mask), and setting those
// weights back to zero after an optimizer step moved them (fine-tuning keeps the sparsity).
struct ZeroMask {
  std::vector<std::vector<std::uint32_t>> zeros;  // per weight tensor, positions in order
};
ZeroMask zero_mask_of(Model& model);
void reapply_zeros(Model& model, const ZeroMask& mask);

// {scope, sparsity, achieved, count, zeroed, tensors: [{name, count, zeroed, threshold}]}.
nlohmann::json to_json(const PruneReport& report);
// The model file's lineage entry: {transform: "prune", method: "magnitude", scope, sparsity,
// achieved, finetune_epochs}.
nlohmann::json prune_lineage(const PruneReport& report, std::size_t finetune_epochs);

}  // namespace perflab
