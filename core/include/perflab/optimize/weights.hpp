// A trained model's weights, looked at before pruning them: per weight tensor (and over all of
// them, as global pruning sees them) the count, mean, population standard deviation, min and
// max, the magnitude percentiles 10 to 90 (a magnitude pruning threshold is one of these), the
// fraction of magnitudes below 0.001, 0.01 and 0.1, and a histogram of the values. The original
// course's analyze_weight_distribution, per layer. `perflab weights MODEL` and the page's
// histogram print this.
// Not for: changing weights (pruning is its own module) or biases and norms' gains (not weights).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/model/model.hpp"

namespace perflab {

// The magnitude percentiles reported (numpy's linear rule) and the magnitude thresholds whose
// fraction below is counted.
inline constexpr double kWeightPercentiles[] = {10, 20, 30, 40, 50, 60, 70, 80, 90};
inline constexpr double kWeightSmallThresholds[] = {0.001, 0.01, 0.1};
inline constexpr std::size_t kWeightHistogramBins = 60;

// A model's weight tensor: its name in the model ("0.weight", "2.attn.q.weight"), its layer's
// index, and the tensor itself (the model's own, so a transform writes through it).
struct WeightTensorRef {
  std::string name;
  std::size_t layer = 0;
  Tensor* value = nullptr;
};
// Every parameter whose name ends in "weight" (Linear's and Conv2d's, attention projections'),
// in layer order: what pruning and this module look at. Biases and LayerNorm's gamma and beta
// are not weights a pruner removes. May be empty (a model of ReLUs).
std::vector<WeightTensorRef> weight_tensors(Model& model);

struct WeightHistogram {
  double low = 0;         // the first bin's lower edge: the smallest value
  double bin_width = 0;   // (max - min) / bins; 0 when every value is equal (one full bin)
  std::vector<std::size_t> counts;  // values in [low + i·w, low + (i+1)·w), the last bin closed
};

struct WeightStats {
  std::string name;        // the parameter's name in the model: "0.weight", "2.attn.q.weight"; "all"
  std::string layer_type;  // "Linear", "Conv2d", ...; "" for "all"
  std::size_t layer = 0;   // the layer's index (0 for "all")
  std::vector<std::size_t> shape;  // the tensor's ({count} for "all")
  std::size_t count = 0;
  double mean = 0, std = 0, min = 0, max = 0;  // std: population (numpy's default)
  std::vector<double> magnitude_percentiles;   // of |w|, one per kWeightPercentiles
  std::vector<double> fraction_below;          // of |w| < t, one per kWeightSmallThresholds
  WeightHistogram histogram;
};

struct WeightDistribution {
  std::string model;                 // the model's name
  std::vector<WeightStats> tensors;  // every weight tensor, in layer order
  WeightStats all;                   // every weight of those tensors together
};

// The distribution of weight_tensors' values. ValueError when the model has none: "model
// NAME has no weight tensors (its layers are ...); pruning has nothing to look at". A
// non-finite weight is a ValueError naming its tensor.
WeightDistribution weight_distribution(Model& model, std::size_t bins = kWeightHistogramBins);

// {model, tensors: [..], all, percentiles: kWeightPercentiles, thresholds:
// kWeightSmallThresholds}; each WeightStats as {name, layer_type, layer, shape, count, mean,
// std, min, max, magnitude_percentiles: [{percentile, value}], fraction_below: [{threshold,
// fraction}], histogram: {low, bin_width, counts}}.
nlohmann::json to_json(const WeightDistribution& d);
nlohmann::json to_json(const WeightStats& s);

}  // namespace perflab
