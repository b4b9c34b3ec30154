// The int8 experiment's roofline (optimize/int8_roofline.hpp): each kernel's ideal bytes
// written out by hand, the int8 weights' bytes equal to what measure_int8_linear reports, the
// two kernels' intensity and rate from their medians, and the refusals naming the argument.
#include <doctest/doctest.h>

#include <cmath>

#include "perflab/base/error.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/optimize/int8_roofline.hpp"
#include "timer_helpers.hpp"

using namespace perflab;

TEST_CASE("int8 traffic: x and y in float32, the weights in their own type") {
  // fashion_mlp's first layer at batch 256: K = 784 is a multiple of 16, no padding.
  const Int8LinearTraffic t = int8_linear_traffic(256, 784, 256);
  CHECK(t.ops == 2.0 * 256 * 784 * 256);
  CHECK(t.x_bytes == 4 * 256 * 784);
  CHECK(t.y_bytes == 4 * 256 * 256);
  CHECK(t.float32_weight_bytes == 4 * 784 * 256);
  CHECK(t.int8_weight_bytes == 784 * 256 + 8 * 256);
  CHECK(t.int8_bytes == t.x_bytes + t.y_bytes + t.int8_weight_bytes);
  CHECK(t.float32_bytes == t.x_bytes + t.y_bytes + t.float32_weight_bytes);
  // K = 10 pads to 16 codes per output.
  CHECK(int8_linear_traffic(1, 10, 3).int8_weight_bytes == 3 * 16 + 8 * 3);
}

TEST_CASE("int8 traffic: the weights' bytes are the ones the measurement reports") {
  const Int8LinearMeasurement m = measure_int8_linear("simd", 4, 37, 5, timer_test::tiny_timer());
  const Int8LinearTraffic t = int8_linear_traffic(4, 37, 5);
  CHECK(t.int8_weight_bytes == m.int8_bytes);
  CHECK(t.float32_weight_bytes == m.float32_bytes);
  CHECK(t.ops == m.flops);
}

TEST_CASE("int8 roofline: each kernel placed from its median under its own peak, one bandwidth") {
  const Roofs roofs{50.0, 10.0};
  const Int8Roofline r = int8_roofline(256, 784, 256, 2.0, 4.0, roofs, 120.0);
  const double ops = 2.0 * 256 * 784 * 256;
  CHECK(r.int8.measured_gflops_per_s == doctest::Approx(ops / 2.0e6));
  CHECK(r.float32.measured_gflops_per_s == doctest::Approx(ops / 4.0e6));
  CHECK(r.int8.intensity == doctest::Approx(ops / static_cast<double>(r.traffic.int8_bytes)));
  CHECK(r.float32.intensity == doctest::Approx(ops / static_cast<double>(r.traffic.float32_bytes)));
  CHECK(r.int8.intensity > r.float32.intensity);  // fewer bytes for the same work
  const nlohmann::json j = to_json(r);
  // The int8 point under the integer peak, the float one under the float peak.
  CHECK(j["int8"]["peak_gflops_per_s"] == 120.0);
  CHECK(j["float32"]["peak_gflops_per_s"] == 50.0);
  CHECK(j["int8"]["bandwidth_gb_per_s"] == 10.0);
  CHECK(j["int8"]["ridge_flops_per_byte"] == doctest::Approx(12.0));
  CHECK(j["float32"]["ridge_flops_per_byte"] == doctest::Approx(5.0));
  CHECK(j["traffic"]["int8_bytes"] == r.traffic.int8_bytes);
}

TEST_CASE("int8 roofline: a bad dimension, median or roof is refused by name") {
  const Roofs roofs{50.0, 10.0};
  CHECK_THROWS_WITH_AS(int8_linear_traffic(0, 784, 256),
                       "int8 roofline: batch must be from 1 to 4096, got 0", ValueError);
  CHECK_THROWS_WITH_AS(int8_roofline(1, 8, 8, 0.0, 1.0, roofs, 100.0),
                       "int8 roofline: int8_median_ms must be a finite number of milliseconds "
                       "above 0, got 0",
                       ValueError);
  CHECK_THROWS_AS(int8_roofline(1, 8, 8, 1.0, 1.0, Roofs{0.0, 10.0}, 100.0), ValueError);
  for (const double peak : {0.0, -1.0, std::nan("")}) {
    CHECK_THROWS_WITH_AS(int8_roofline(1, 8, 8, 1.0, 1.0, roofs, peak),
                         doctest::Contains("int8 roofline: int8_peak_gops_per_s must be the "
                                           "probe's integer peak"),
                         ValueError);
  }
}
