// Magnitude pruning (optimize/prune.hpp): the positions sorted by (|w|, position), the first
// k set to zero, so ties and reruns prune the same weights.
#include "perflab/optimize/prune.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/optimize/weights.hpp"

namespace perflab {
namespace {

// weights.hpp's weight tensors, at least one.
std::vector<WeightTensorRef> pruned_tensors(Model& model) {
  std::vector<WeightTensorRef> out = weight_tensors(model);
  if (out.empty()) {
    throw ValueError("model " + model.name() + " has no weight tensors; pruning has nothing to "
                     "remove");
  }
  return out;
}

// A weight's place: (tensor, index) packed so one sort orders every weight.
struct Place {
  float magnitude;
  std::uint32_t tensor;
  std::uint32_t index;
};

void zero_smallest(std::vector<Place>& places, std::size_t k, std::vector<WeightTensorRef>& tensors,
                   std::vector<PrunedTensor>& report) {
  if (k == 0) return;
  const auto before = [](const Place& a, const Place& b) {
    if (a.magnitude != b.magnitude) return a.magnitude < b.magnitude;
    if (a.tensor != b.tensor) return a.tensor < b.tensor;
    return a.index < b.index;
  };
  std::nth_element(places.begin(), places.begin() + static_cast<std::ptrdiff_t>(k - 1),
                   places.end(), before);
  for (std::size_t i = 0; i < k; ++i) {
    const Place& p = places[i];
    tensors[p.tensor].value->data()[p.index] = 0.0f;
    report[p.tensor].threshold = std::max(report[p.tensor].threshold,
                                          static_cast<double>(p.magnitude));
  }
}

}  // namespace

const char* prune_scope_name(PruneScope scope) {
  return scope == PruneScope::Global ? "global" : "layer";
}

PruneScope prune_scope_from_name(const std::string& name) {
  if (name == "layer") return PruneScope::Layer;
  if (name == "global") return PruneScope::Global;
  throw ValueError("scope must be \"layer\" (each weight tensor loses the same fraction) or "
                   "\"global\" (one threshold over all weights), got " + describe(name));
}

PruneReport prune_magnitude(Model& model, double sparsity, PruneScope scope) {
  if (!(sparsity >= 0.0 && sparsity < 1.0)) {
    throw ValueError("sparsity must be at least 0 and below 1 (0.5 zeroes half the weights), got " +
                     format_number(sparsity));
  }
  std::vector<WeightTensorRef> tensors = pruned_tensors(model);
  PruneReport r;
  r.scope = scope;
  r.sparsity = sparsity;
  for (const WeightTensorRef& t : tensors) r.tensors.push_back({t.name, t.value->size(), 0, 0.0});
  const auto places_of = [&](std::uint32_t t, std::vector<Place>& out) {
    const float* w = tensors[t].value->data();
    for (std::uint32_t i = 0; i < tensors[t].value->size(); ++i) out.push_back({std::fabs(w[i]), t, i});
  };
  const auto share = [sparsity](std::size_t n) {
    return static_cast<std::size_t>(std::llround(sparsity * static_cast<double>(n)));
  };
  if (scope == PruneScope::Layer) {
    for (std::uint32_t t = 0; t < tensors.size(); ++t) {
      std::vector<Place> places;
      places_of(t, places);
      zero_smallest(places, share(places.size()), tensors, r.tensors);
    }
  } else {
    std::vector<Place> places;
    for (std::uint32_t t = 0; t < tensors.size(); ++t) places_of(t, places);
    zero_smallest(places, share(places.size()), tensors, r.tensors);
  }
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    const float* w = tensors[t].value->data();
    r.tensors[t].zeroed = static_cast<std::size_t>(
        std::count(w, w + tensors[t].value->size(), 0.0f));
    r.count += r.tensors[t].count;
    r.zeroed += r.tensors[t].zeroed;
  }
  return r;
}

ZeroMask zero_mask_of(Model& model) {
  ZeroMask m;
  for (const WeightTensorRef& t : pruned_tensors(model)) {
    std::vector<std::uint32_t> zeros;
    const float* w = t.value->data();
    for (std::uint32_t i = 0; i < t.value->size(); ++i) {
      if (w[i] == 0.0f) zeros.push_back(i);
    }
    m.zeros.push_back(std::move(zeros));
  }
  return m;
}

void reapply_zeros(Model& model, const ZeroMask& mask) {
  std::vector<WeightTensorRef> tensors = pruned_tensors(model);
  if (tensors.size() != mask.zeros.size()) {
    throw ValueError("the zero mask has " + std::to_string(mask.zeros.size()) +
                     " weight tensors; model " + model.name() + " has " +
                     std::to_string(tensors.size()));
  }
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    float* w = tensors[t].value->data();
    for (std::uint32_t i : mask.zeros[t]) {
      if (i >= tensors[t].value->size()) {
        throw ValueError("the zero mask's position " + std::to_string(i) + " is outside " +
                         tensors[t].name + " (" + std::to_string(tensors[t].value->size()) +
                         " weights)");
      }
      w[i] = 0.0f;
    }
  }
}

nlohmann::json to_json(const PruneReport& r) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const PrunedTensor& t : r.tensors) {
    tensors.push_back({{"name", t.name},
                       {"count", t.count},
                       {"zeroed", t.zeroed},
                       {"threshold", t.threshold}});
  }
  return {{"scope", prune_scope_name(r.scope)},
          {"sparsity", r.sparsity},
          {"achieved", r.achieved()},
          {"count", r.count},
          {"zeroed", r.zeroed},
          {"tensors", tensors}};
}

nlohmann::json prune_lineage(const PruneReport& r, std::size_t finetune_epochs) {
  return {{"transform", "prune"},
          {"method", "magnitude"},
          {"scope", prune_scope_name(r.scope)},
          {"sparsity", r.sparsity},
          {"achieved", r.achieved()},
          {"finetune_epochs", finetune_epochs}};
}

}  // namespace perflab
