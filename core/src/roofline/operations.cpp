// measure_operation: one timed call of a lab kernel picked by name, with its documented
// counts and optional roofline placement, and its JSON row.
// Not for: the kernels or their cost formulas (kernels/: matmul, elementwise, reduce, norm,
// each beside its kernel), or the other measurements' JSON (beside their types); this file
// only picks and combines them.
#include "perflab/roofline/operations.hpp"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/kernel.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/norm.hpp"
#include "perflab/kernels/reduce.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

using json = nlohmann::json;
using std::size_t;

// Inputs are fixed, so every run of a point times the same data.
constexpr std::uint64_t kInputSeedA = 0x5EED0101;
constexpr std::uint64_t kInputSeedB = 0x5EED0102;

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The variant named in options (or the default), checked against the op's list.
std::string pick_variant(const std::string& op, const std::vector<KernelInfo>& variants,
                         const std::string& requested, const char* fallback) {
  const std::string name = requested.empty() ? fallback : requested;
  std::vector<std::string> names;
  for (const auto& v : variants) {
    if (v.name == name) return name;
    names.push_back(v.name);
  }
  throw ValueError("unknown " + op + " variant '" + name + "'; known variants: " + join(names));
}

void require_elements(const std::string& op, size_t n) {
  if (n < 1 || n > kMaxOperationElements) {
    throw ValueError("n must be between 1 and " + std::to_string(kMaxOperationElements) +
                     " elements for " + op + ", got " + std::to_string(n));
  }
}

Stats time_call(const OperationOptions& options, Clock& clock, const ProgressFn& progress,
                const std::function<void()>& fn) {
  Timer timer(clock);
  timer.options(options.timer);
  if (progress) timer.on_progress(progress);
  return timer.run(fn);
}

const std::vector<KernelInfo>& elementwise_variants() {
  static const std::vector<KernelInfo> list = {
      {"simd", "one pass on 128-bit vectors into a new tensor"}};
  return list;
}

}  // namespace

const std::vector<std::string>& operation_names() {
  static const std::vector<std::string> names = {"matmul", "add",     "mul",      "gelu",
                                                 "sum",    "softmax", "layernorm"};
  return names;
}

OperationMeasurement measure_operation(std::string_view op_name, size_t n,
                                       const OperationOptions& options, Clock& clock,
                                       const ProgressFn& progress) {
  const std::string op(op_name);
  const auto& names = operation_names();
  if (std::find(names.begin(), names.end(), op) == names.end()) {
    throw ValueError("unknown operation '" + op + "'; known operations: " + join(names));
  }
  // Roofs first: a bad roof should fail before seconds of timing, not after.
  if (options.roofs) validate_roofs(*options.roofs);

  OperationMeasurement m;
  m.op = op;
  m.n = n;
  OpCost cost;
  if (op == "matmul") {
    const MatmulMeasurement mm = measure_matmul(
        options.variant.empty() ? kDefaultMatmulVariant : options.variant, n, options.timer,
        clock, progress);
    m.variant = mm.variant;
    m.elements = n * n;
    cost = {mm.flops, mm.bytes};
    m.stats = mm.stats;
  } else if (op == "gelu") {
    require_elements(op, n);
    const GeluMeasurement g = measure_gelu(
        options.variant.empty() ? kDefaultGeluVariant : options.variant, n, options.timer, clock,
        progress);
    m.variant = g.variant;
    m.elements = n;
    // measure_gelu counts the bytes of the variant's passes; the FLOPs are the formula's.
    cost = {cost_gelu_fused(n).flops, g.bytes};
    m.stats = g.stats;
  } else if (op == "add" || op == "mul") {
    m.variant = pick_variant(op, elementwise_variants(), options.variant, "simd");
    require_elements(op, n);
    options.timer.validate();
    const Tensor a = Tensor::random({n}, kInputSeedA);
    const Tensor b = Tensor::random({n}, kInputSeedB);
    const bool is_add = op == "add";
    m.stats = time_call(options, clock, progress, [&] {
      const Tensor y = is_add ? add(a, b) : mul(a, b);
    });
    m.elements = n;
    cost = is_add ? cost_add(n) : cost_mul(n);
  } else if (op == "sum") {
    m.variant = pick_variant(op, sum_variants(), options.variant, "simd");
    require_elements(op, n);
    options.timer.validate();
    const Tensor x = Tensor::random({n}, kInputSeedA);
    volatile float sink = 0;
    m.stats = time_call(options, clock, progress, [&] { sink = sum(x, m.variant); });
    (void)sink;
    m.elements = n;
    cost = cost_sum(n);
  } else {  // softmax, layernorm: rows of up to kOperationRowFeatures
    const bool is_softmax = op == "softmax";
    m.variant = pick_variant(op, is_softmax ? softmax_variants() : layernorm_variants(),
                             options.variant, "fused");
    require_elements(op, n);
    options.timer.validate();
    const size_t cols = std::min(n, kOperationRowFeatures);
    const size_t rows = n / cols;
    const Tensor x = Tensor::random({rows, cols}, kInputSeedA);
    const bool naive = m.variant == "naive";
    if (is_softmax) {
      m.stats = time_call(options, clock, progress, [&] { const Tensor y = softmax(x, m.variant); });
      cost = naive ? cost_softmax_naive(rows, cols) : cost_softmax_fused(rows, cols);
    } else {
      const Tensor gamma = Tensor::full({cols}, 1.0f);
      const Tensor beta({cols});
      m.stats = time_call(options, clock, progress,
                          [&] { const Tensor y = layernorm(x, gamma, beta, 1e-5, m.variant); });
      cost = naive ? cost_layernorm_naive(rows, cols) : cost_layernorm_fused(rows, cols);
    }
    m.elements = rows * cols;
  }

  m.flops = cost.flops;
  m.bytes = cost.bytes;
  m.intensity = arithmetic_intensity(cost.flops, cost.bytes);
  m.gflops_per_s = gflops_per_s(m.flops, m.stats.median_ms);
  m.gb_per_s = gb_per_s(m.bytes, m.stats.median_ms);
  m.ns_per_element = ns_per(m.stats.median_ms, static_cast<double>(m.elements));
  if (options.roofs) m.roofline = place_on_roofline(m.flops, m.bytes, m.gflops_per_s, *options.roofs);
  return m;
}

// ---- JSON

json to_json(const OperationMeasurement& m) {
  json j = {{"op", m.op},
            {"variant", m.variant},
            {"n", m.n},
            {"elements", m.elements},
            {"flops", m.flops},
            {"bytes", m.bytes},
            {"intensity", m.intensity},
            {"gflops_per_s", m.gflops_per_s},
            {"gb_per_s", m.gb_per_s},
            {"ns_per_element", m.ns_per_element},
            {"stats", to_json(m.stats)}};
  if (m.roofline) add_placement(j, *m.roofline);
  return j;
}

}  // namespace perflab
