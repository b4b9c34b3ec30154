// The weight distribution (optimize/weights.hpp): sums in double, percentiles by the timer's
// percentile_sorted (numpy's linear rule), the histogram over [min, max] in equal bins.
#include "perflab/optimize/weights.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include "perflab/base/error.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {
namespace {

WeightStats stats_of(const std::vector<double>& values, std::size_t bins) {
  WeightStats s;
  s.count = values.size();
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(s.count);
  double squares = 0;
  for (double v : values) squares += (v - s.mean) * (v - s.mean);
  s.std = std::sqrt(squares / static_cast<double>(s.count));
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  s.min = *lo;
  s.max = *hi;

  std::vector<double> magnitudes(values.size());
  std::transform(values.begin(), values.end(), magnitudes.begin(),
                 [](double v) { return std::fabs(v); });
  std::sort(magnitudes.begin(), magnitudes.end());
  for (double p : kWeightPercentiles) {
    s.magnitude_percentiles.push_back(percentile_sorted(magnitudes, p));
  }
  for (double t : kWeightSmallThresholds) {
    const auto below = std::lower_bound(magnitudes.begin(), magnitudes.end(), t) - magnitudes.begin();
    s.fraction_below.push_back(static_cast<double>(below) / static_cast<double>(s.count));
  }

  s.histogram.low = s.min;
  s.histogram.counts.assign(bins, 0);
  if (s.max > s.min) {
    s.histogram.bin_width = (s.max - s.min) / static_cast<double>(bins);
    for (double v : values) {
      const auto bin = static_cast<std::size_t>((v - s.min) / s.histogram.bin_width);
      ++s.histogram.counts[std::min(bin, bins - 1)];  // the maximum falls in the last bin
    }
  } else {
    s.histogram.counts[0] = s.count;
  }
  return s;
}

}  // namespace

std::vector<WeightTensorRef> weight_tensors(Model& model) {
  constexpr std::string_view kSuffix = "weight";
  std::vector<WeightTensorRef> out;
  for (std::size_t i = 0; i < model.size(); ++i) {
    for (const ParameterRef& p : model.layer(i).parameters()) {
      const std::string_view name = p.name;
      const bool weight = name.size() >= kSuffix.size() &&
                          name.compare(name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0;
      if (weight && p.value->size() > 0) out.push_back({std::to_string(i) + "." + p.name, i, p.value});
    }
  }
  return out;
}

WeightDistribution weight_distribution(Model& model, std::size_t bins) {
  if (bins < 1 || bins > 1000) {
    throw ValueError("bins must be from 1 to 1000, got " + std::to_string(bins));
  }
  WeightDistribution d;
  d.model = model.name();
  const std::vector<WeightTensorRef> tensors = weight_tensors(model);
  if (tensors.empty()) {
    std::string types;
    for (std::size_t i = 0; i < model.size(); ++i) {
      types += (types.empty() ? "" : ", ") + std::string(model.layer(i).type());
    }
    throw ValueError("model " + model.name() + " has no weight tensors (its layers are " +
                     (types.empty() ? std::string("none") : types) +
                     "); pruning has nothing to look at");
  }
  std::vector<double> all;
  for (const WeightTensorRef& t : tensors) {
    std::vector<double> values(t.value->data(), t.value->data() + t.value->size());
    for (double v : values) {
      if (!std::isfinite(v)) {
        throw ValueError("weight tensor " + t.name + " of model " + model.name() +
                         " holds a value that is not finite; the model file is damaged or "
                         "its training diverged");
      }
    }
    WeightStats s = stats_of(values, bins);
    s.name = t.name;
    s.layer_type = std::string(model.layer(t.layer).type());
    s.layer = t.layer;
    s.shape.assign(t.value->shape().begin(), t.value->shape().end());
    d.tensors.push_back(std::move(s));
    all.insert(all.end(), values.begin(), values.end());
  }
  d.all = stats_of(all, bins);
  d.all.name = "all";
  d.all.shape = {all.size()};
  return d;
}

nlohmann::json to_json(const WeightStats& s) {
  nlohmann::json percentiles = nlohmann::json::array();
  for (std::size_t i = 0; i < s.magnitude_percentiles.size(); ++i) {
    percentiles.push_back({{"percentile", kWeightPercentiles[i]}, {"value", s.magnitude_percentiles[i]}});
  }
  nlohmann::json below = nlohmann::json::array();
  for (std::size_t i = 0; i < s.fraction_below.size(); ++i) {
    below.push_back({{"threshold", kWeightSmallThresholds[i]}, {"fraction", s.fraction_below[i]}});
  }
  return {{"name", s.name},
          {"layer_type", s.layer_type},
          {"layer", s.layer},
          {"shape", s.shape},
          {"count", s.count},
          {"mean", s.mean},
          {"std", s.std},
          {"min", s.min},
          {"max", s.max},
          {"magnitude_percentiles", percentiles},
          {"fraction_below", below},
          {"histogram",
           {{"low", s.histogram.low},
            {"bin_width", s.histogram.bin_width},
            {"counts", s.histogram.counts}}}};
}

nlohmann::json to_json(const WeightDistribution& d) {
  nlohmann::json tensors = nlohmann::json::array();
  for (const WeightStats& s : d.tensors) tensors.push_back(to_json(s));
  return {{"model", d.model},
          {"tensors", tensors},
          {"all", to_json(d.all)},
          {"percentiles", kWeightPercentiles},
          {"thresholds", kWeightSmallThresholds}};
}

}  // namespace perflab
