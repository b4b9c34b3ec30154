#include "perflab/optimize/int8_roofline.hpp"

#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/kernels/int8.hpp"

namespace perflab {
namespace {

void check_dimension(const char* name, std::size_t v) {
  if (v < 1 || v > kMaxInt8Dimension) {
    throw ValueError(std::string("int8 roofline: ") + name + " must be from 1 to " +
                     std::to_string(kMaxInt8Dimension) + ", got " + std::to_string(v));
  }
}

void check_median(const char* name, double ms) {
  if (!std::isfinite(ms) || !(ms > 0)) {
    throw ValueError(std::string("int8 roofline: ") + name +
                     " must be a finite number of milliseconds above 0, got " + format_number(ms));
  }
}

}  // namespace

Int8LinearTraffic int8_linear_traffic(std::size_t batch, std::size_t in, std::size_t out) {
  check_dimension("batch", batch);
  check_dimension("in", in);
  check_dimension("out", out);
  Int8LinearTraffic t;
  t.batch = batch;
  t.in = in;
  t.out = out;
  t.ops = 2.0 * static_cast<double>(batch) * static_cast<double>(in) * static_cast<double>(out);
  t.x_bytes = 4 * batch * in;
  t.y_bytes = 4 * batch * out;
  t.int8_weight_bytes = Int8Weights::bytes_for(in, out);  // padded codes, scales, code sums
  t.float32_weight_bytes = 4 * in * out;
  t.int8_bytes = t.x_bytes + t.int8_weight_bytes + t.y_bytes;
  t.float32_bytes = t.x_bytes + t.float32_weight_bytes + t.y_bytes;
  return t;
}

Int8Roofline int8_roofline(std::size_t batch, std::size_t in, std::size_t out,
                           double int8_median_ms, double float32_median_ms, const Roofs& roofs,
                           double int8_peak_gops_per_s) {
  Int8Roofline r;
  r.traffic = int8_linear_traffic(batch, in, out);
  check_median("int8_median_ms", int8_median_ms);
  check_median("float32_median_ms", float32_median_ms);
  validate_roofs(roofs, "roofs.");
  if (!std::isfinite(int8_peak_gops_per_s) || !(int8_peak_gops_per_s > 0)) {
    throw ValueError("int8 roofline: int8_peak_gops_per_s must be the probe's integer peak, a "
                     "finite number of Gop/s above 0, got " + format_number(int8_peak_gops_per_s) +
                     " (a probe from before the lab measured it has none: probe again)");
  }
  r.roofs = roofs;
  r.int8_roofs = Roofs{int8_peak_gops_per_s, roofs.bandwidth_gb_per_s};
  const Int8LinearTraffic& t = r.traffic;
  r.int8 = roofline_point("int8", t.ops, static_cast<double>(t.int8_bytes),
                          gflops_per_s(t.ops, int8_median_ms), int8_peak_gops_per_s,
                          roofs.bandwidth_gb_per_s);
  r.float32 = roofline_point("float32", t.ops, static_cast<double>(t.float32_bytes),
                             gflops_per_s(t.ops, float32_median_ms), roofs.peak_gflops_per_s,
                             roofs.bandwidth_gb_per_s);
  return r;
}

nlohmann::json to_json(const Int8LinearTraffic& t) {
  return {{"batch", t.batch},
          {"in", t.in},
          {"out", t.out},
          {"ops", t.ops},
          {"x_bytes", t.x_bytes},
          {"y_bytes", t.y_bytes},
          {"int8_weight_bytes", t.int8_weight_bytes},
          {"float32_weight_bytes", t.float32_weight_bytes},
          {"int8_bytes", t.int8_bytes},
          {"float32_bytes", t.float32_bytes}};
}

nlohmann::json to_json(const Int8Roofline& r) {
  return {{"traffic", to_json(r.traffic)},
          {"int8", to_json(r.int8, r.int8_roofs)},
          {"float32", to_json(r.float32, r.roofs)}};
}

}  // namespace perflab
