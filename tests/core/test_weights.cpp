// The weight distribution (optimize/weights.hpp) on weights set by hand, so every figure can
// be worked on paper: per weight tensor (biases left out) and over all weights, the mean, the
// population standard deviation, the magnitude percentiles by numpy's linear rule, the
// fractions of small magnitudes and the histogram's bins; a model without weights and a
// non-finite weight are sentences. tests/cli/train.test.mjs checks a trained model's figures
// against NumPy's.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/optimize/weights.hpp"
#include "weight_helpers.hpp"

using namespace perflab;
using weight_test::kTwoLinear;
using weight_test::set_values;

TEST_CASE("The weight distribution, worked by hand: per tensor and over all weights") {
  Model model = model_from_json(kTwoLinear);
  set_values(model, "0.weight", {0.5f, -1.0f, 0.005f, 2.0f});
  set_values(model, "0.bias", {100.0f, 100.0f});  // not a weight: never counted
  set_values(model, "2.weight", {0.0005f, -0.05f});
  set_values(model, "2.bias", {-100.0f});
  const WeightDistribution d = weight_distribution(model, 3);
  CHECK(d.model == "two");
  REQUIRE(d.tensors.size() == 2);

  const WeightStats& a = d.tensors[0];
  CHECK(a.name == "0.weight");
  CHECK(a.layer_type == "Linear");
  CHECK(a.layer == 0);
  CHECK(a.shape == std::vector<std::size_t>{2, 2});
  CHECK(a.count == 4);
  CHECK(a.mean == doctest::Approx(1.505 / 4));
  // Deviations 0.12375, -1.37625, -0.37125, 1.62375: squares sum to 4.68376875, over n = 4.
  CHECK(a.std == doctest::Approx(std::sqrt(4.68376875 / 4)));
  CHECK(a.min == -1.0);
  CHECK(a.max == 2.0);
  // |w| sorted 0.005, 0.5, 1, 2: percentile p sits at rank 3p/100 between neighbours.
  REQUIRE(a.magnitude_percentiles.size() == 9);
  CHECK(a.magnitude_percentiles[0] == doctest::Approx(0.005 + 0.3 * 0.495));  // 10th
  CHECK(a.magnitude_percentiles[4] == doctest::Approx(0.75));                 // 50th
  CHECK(a.magnitude_percentiles[8] == doctest::Approx(1.7));                  // 90th
  CHECK(a.fraction_below == std::vector<double>{0.0, 0.25, 0.25});
  // Three bins of width 1 from -1: [-1, 0) holds -1; [0, 1) 0.005 and 0.5; [1, 2] holds 2.
  CHECK(a.histogram.low == -1.0);
  CHECK(a.histogram.bin_width == doctest::Approx(1.0));
  CHECK(a.histogram.counts == std::vector<std::size_t>{1, 2, 1});

  const WeightStats& b = d.tensors[1];
  CHECK(b.name == "2.weight");
  CHECK(b.layer == 2);
  CHECK(b.count == 2);
  CHECK(b.mean == doctest::Approx(-0.02475));
  CHECK(b.std == doctest::Approx(0.02525));
  CHECK(b.magnitude_percentiles[4] == doctest::Approx(0.02525));
  CHECK(b.fraction_below == std::vector<double>{0.5, 0.5, 1.0});

  // All six weights together, as a global pruning threshold sees them.
  CHECK(d.all.name == "all");
  CHECK(d.all.count == 6);
  CHECK(d.all.mean == doctest::Approx(1.4555 / 6));
  CHECK(d.all.min == -1.0);
  CHECK(d.all.max == 2.0);
  // |w| sorted 0.0005, 0.005, 0.05, 0.5, 1, 2: the median sits halfway from 0.05 to 0.5.
  CHECK(d.all.magnitude_percentiles[4] == doctest::Approx(0.275));
  CHECK(d.all.fraction_below[0] == doctest::Approx(1.0 / 6));
  CHECK(d.all.fraction_below[1] == doctest::Approx(2.0 / 6));
  CHECK(d.all.fraction_below[2] == doctest::Approx(3.0 / 6));
  std::size_t binned = 0;
  for (std::size_t c : d.all.histogram.counts) binned += c;
  CHECK(binned == 6);

  const nlohmann::json j = to_json(d);
  CHECK(j["tensors"][0]["magnitude_percentiles"][4]["percentile"] == 50.0);
  CHECK(j["tensors"][1]["fraction_below"][2] == nlohmann::json({{"threshold", 0.1}, {"fraction", 1.0}}));
  CHECK(j["all"]["histogram"]["counts"].size() == 3);
  CHECK(j["percentiles"].size() == 9);
}

TEST_CASE("Equal weights fill one bin; a model without weights and a non-finite weight are sentences") {
  Model model = model_from_json(kTwoLinear);
  set_values(model, "0.weight", {0.25f, 0.25f, 0.25f, 0.25f});
  const WeightDistribution d = weight_distribution(model);
  CHECK(d.tensors[0].histogram.bin_width == 0.0);
  CHECK(d.tensors[0].histogram.counts.size() == kWeightHistogramBins);
  CHECK(d.tensors[0].histogram.counts[0] == 4);
  CHECK(d.tensors[0].std == 0.0);

  Model relu = model_from_json({{"input", {1, 4}}, {"layers", {{{"type", "ReLU"}}}}});
  CHECK_THROWS_WITH_AS(weight_distribution(relu),
                       "model model has no weight tensors (its layers are ReLU); pruning has "
                       "nothing to look at",
                       ValueError);
  CHECK_THROWS_WITH_AS(weight_distribution(model, 0), "bins must be from 1 to 1000, got 0",
                       ValueError);
  set_values(model, "2.weight", {std::numeric_limits<float>::quiet_NaN(), 1.0f});
  CHECK_THROWS_WITH_AS(weight_distribution(model),
                       "weight tensor 2.weight of model two holds a value that is not finite; the "
                       "model file is damaged or its training diverged",
                       ValueError);
}
