// Element-wise kernels: GELU four ways (unfused chain of passes vs one fused pass, each
// scalar and on 128-bit vectors), add and mul on vectors, the double-precision GELU
// reference, their counts, and measure_gelu with its JSON row.
// Not for: broadcasting (element-wise ops need equal shapes) or in-place updates.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "perflab/detail/kernel_bands.hpp"
#include "perflab/detail/simd.hpp"
#include "perflab/detail/vmath.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "measure_inputs.hpp"

namespace perflab {
namespace {

using std::size_t;
using namespace detail;

// out[i] = op(x[i]) over vectors: detail::map_unary (kernel_bands.hpp), the loop the fused
// GELU's bands run in the kernel engine too.

template <class Op>
void map_binary(float* out, const float* a, const float* b, size_t n, Op op) {
  size_t i = 0;
  for (; i + kLanes <= n; i += kLanes) store(out + i, op(load(a + i), load(b + i)));
  if (i < n) {
    alignas(16) float buf_a[kLanes] = {}, buf_b[kLanes] = {};
    std::copy(a + i, a + n, buf_a);
    std::copy(b + i, b + n, buf_b);
    store(buf_a, op(load(buf_a), load(buf_b)));
    std::copy(buf_a, buf_a + (n - i), out + i);
  }
}

// One pass, one NEW tensor: how a NumPy expression evaluates each operator.
template <class Op>
Tensor unary(const Tensor& x, Op op) {
  Tensor out(x.shape());
  map_unary(out.data(), x.data(), x.size(), op);
  return out;
}

template <class Op>
Tensor binary(const Tensor& a, const Tensor& b, Op op) {
  Tensor out(a.shape());
  map_binary(out.data(), a.data(), b.data(), a.size(), op);
  return out;
}

// One pass, one NEW tensor, scalar: out[i] = op(x[i]) (or op(a[i], b[i])).
template <class Op>
PERFLAB_SCALAR_FUNCTION Tensor unary_scalar(const Tensor& x, Op op) {
  Tensor out(x.shape());
  const float* in = x.data();
  float* o = out.data();
  PERFLAB_SCALAR_LOOP
  for (size_t i = 0; i < x.size(); ++i) o[i] = op(in[i]);
  return out;
}

template <class Op>
PERFLAB_SCALAR_FUNCTION Tensor binary_scalar(const Tensor& a, const Tensor& b, Op op) {
  Tensor out(a.shape());
  const float* pa = a.data();
  const float* pb = b.data();
  float* o = out.data();
  PERFLAB_SCALAR_LOOP
  for (size_t i = 0; i < a.size(); ++i) o[i] = op(pa[i], pb[i]);
  return out;
}

constexpr float kCubic = static_cast<float>(kGeluCubic);
constexpr float kScale = static_cast<float>(kSqrt2OverPi);

// 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))) evaluated as NumPy would: eight
// passes over memory, seven temporaries and the result (each temporary freed once the next
// exists, so at most two are alive). Scalar, with the C library's tanh. Like NumPy, it gives
// NaN at x = −inf (−inf · (1 + tanh(−inf)) = −inf · 0).
Tensor gelu_unfused(const Tensor& x) {
  Tensor t = unary_scalar(x, [](float v) { return v * v * v; });                 // x³
  t = unary_scalar(t, [](float v) { return kCubic * v; });                       // 0.044715·x³
  t = binary_scalar(x, t, [](float a, float b) { return a + b; });              // x + …
  t = unary_scalar(t, [](float v) { return kScale * v; });                       // sqrt(2/π)·…
  t = unary_scalar(t, [](float v) { return std::tanh(v); });                     // tanh(…)
  t = unary_scalar(t, [](float v) { return 1.0f + v; });                         // 1 + …
  t = binary_scalar(x, t, [](float a, float b) { return a * b; });              // x·…
  return unary_scalar(t, [](float v) { return 0.5f * v; });                     // 0.5·…
}

// The same eight passes and temporaries on vectors; the tanh pass uses the vector tanh.
Tensor gelu_unfused_simd(const Tensor& x) {
  const f32x4 cubic = splat(kCubic);
  const f32x4 scale = splat(kScale);
  Tensor t = unary(x, [](f32x4 v) { return mul(mul(v, v), v); });     // x³
  t = unary(t, [cubic](f32x4 v) { return mul(cubic, v); });           // 0.044715·x³
  t = binary(x, t, [](f32x4 a, f32x4 b) { return add(a, b); });      // x + …
  t = unary(t, [scale](f32x4 v) { return mul(scale, v); });           // sqrt(2/π)·…
  t = unary(t, [](f32x4 v) { return tanh_approx(v); });               // tanh(…)
  t = unary(t, [](f32x4 v) { return add(splat(1.0f), v); });          // 1 + …
  t = binary(x, t, [](f32x4 a, f32x4 b) { return mul(a, b); });      // x·…
  return unary(t, [](f32x4 v) { return mul(splat(0.5f), v); });       // 0.5·…
}

// One element of the fused scalar GELU: the vector kernel's formulation (x / (1 + e^(−2u)),
// x clamped at −20 so −inf gives −0; see detail::GeluVec) with the C library's exp.
inline float gelu_scalar(float x) {
  const float xc = x < -20.0f ? -20.0f : x;  // a NaN compares false and stays NaN
  const float u = kScale * (xc + kCubic * (xc * xc * xc));
  return xc / (1.0f + std::exp(-2.0f * u));
}

// One pass, no temporaries: each element is read once and written once. The *_into forms
// write into a given output (measure_gelu times those).
PERFLAB_SCALAR_FUNCTION
void gelu_fused_into(float* out, const float* x, size_t n) {
  PERFLAB_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = gelu_scalar(x[i]);
}
void gelu_fused_simd_into(float* out, const float* x, size_t n) {
  gelu_fused_simd_range(out, x, 0, n);
}

Tensor gelu_fused(const Tensor& x) {
  Tensor out(x.shape());
  gelu_fused_into(out.data(), x.data(), x.size());
  return out;
}
Tensor gelu_fused_simd(const Tensor& x) {
  Tensor out(x.shape());
  gelu_fused_simd_into(out.data(), x.data(), x.size());
  return out;
}

void require_same_shape(const char* op, const Tensor& a, const Tensor& b) {
  if (a.shape() != b.shape()) {
    throw ShapeError(std::string(op) + " shape mismatch: a " + shape_to_string(a.shape()) +
                     " and b " + shape_to_string(b.shape()) + " must have the same shape");
  }
}

}  // namespace

const std::vector<GeluVariant>& gelu_variants() {
  static const std::vector<GeluVariant> variants = {
      {"unfused",
       "one pass and one new tensor per operation, as a NumPy expression evaluates it; scalar",
       gelu_unfused},
      {"unfused-simd",
       "the same eight passes and seven temporaries, each pass on 128-bit vectors",
       gelu_unfused_simd},
      {"fused", "one pass over the input, no temporaries, one element at a time (scalar)",
       gelu_fused},
      {"fused-simd",
       "one pass, no temporaries, all of GELU in vector registers with a vector e^x",
       gelu_fused_simd},
  };
  return variants;
}

const GeluVariant& find_gelu_variant(std::string_view name) {
  std::string names;
  for (const auto& v : gelu_variants()) {
    if (v.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw ValueError("unknown gelu variant '" + std::string(name) + "'; known variants: " + names);
}

Tensor gelu(const Tensor& x, std::string_view variant) {
  return find_gelu_variant(variant).kernel(x);
}

namespace detail {

void check_measure_gelu_n(std::size_t n) {
  if (n < 1 || n > kMaxMeasureGeluN) {
    throw ValueError("n must be between 1 and " + std::to_string(kMaxMeasureGeluN) + ", got " +
                     std::to_string(n));
  }
}

Tensor gelu_measure_input(std::size_t n) { return Tensor::random({n}, 0x5EED0003, -4.0f, 4.0f); }

double verify_gelu(const std::string& what, const Tensor& x, const float* got) {
  double worst = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double ref = gelu_reference(x[i]);
    const double error = std::fabs(got[i] - ref) / (1e-6 + 1e-5 * std::fabs(ref));
    if (!(error <= 1.0)) {
      char text[256];
      std::snprintf(text, sizeof text,
                    "%s disagrees with the reference at x = %.9g: got %.9g, reference %.9g",
                    what.c_str(), static_cast<double>(x[i]), static_cast<double>(got[i]), ref);
      throw Error(text);
    }
    worst = std::max(worst, error);
  }
  return worst;
}

}  // namespace detail

GeluMeasurement measure_gelu(std::string_view variant, std::size_t n,
                             const TimerOptions& options, Clock& clock,
                             const ProgressFn& progress) {
  const GeluVariant& v = find_gelu_variant(variant);
  detail::check_measure_gelu_n(n);
  options.validate();
  const Tensor x = detail::gelu_measure_input(n);

  // Verify before timing.
  {
    const Tensor y = v.kernel(x);
    detail::verify_gelu("gelu variant '" + v.name + "'", x, y.data());
  }

  const bool fused = v.kernel == gelu_fused || v.kernel == gelu_fused_simd;
  Tensor out(fused ? Shape{n} : Shape{0});
  Timer timer(clock);
  timer.options(options);
  if (progress) timer.on_progress(progress);
  GeluMeasurement m;
  if (v.kernel == gelu_fused) {
    m.stats = timer.run([&] { gelu_fused_into(out.data(), x.data(), n); });
  } else if (v.kernel == gelu_fused_simd) {
    m.stats = timer.run([&] { gelu_fused_simd_into(out.data(), x.data(), n); });
  } else {
    m.stats = timer.run([&] { out = v.kernel(x); });
  }
  m.variant = v.name;
  m.n = n;
  m.bytes = fused ? cost_gelu_fused(n).bytes : cost_gelu_unfused(n).bytes;
  m.gb_per_s = gb_per_s(m.bytes, m.stats.median_ms);
  m.ns_per_element = ns_per(m.stats.median_ms, static_cast<double>(n));
  return m;
}

double gelu_reference(double x) {
  // The limit at −inf; the formula would give −inf · 0 = NaN.
  if (x == -std::numeric_limits<double>::infinity()) return 0.0;
  const double u = kSqrt2OverPi * (x + kGeluCubic * x * x * x);
  // 0.5·x·(1 + tanh(u)) rewritten as x / (1 + e^(−2u)): equal in exact arithmetic, but
  // 1 + tanh(u) cancels to 0 in double for u < −19, which would wipe out the tail.
  return x / (1.0 + std::exp(-2.0 * u));
}

Tensor add(const Tensor& a, const Tensor& b) {
  require_same_shape("add", a, b);
  return binary(a, b, [](f32x4 x, f32x4 y) { return detail::add(x, y); });
}

Tensor mul(const Tensor& a, const Tensor& b) {
  require_same_shape("mul", a, b);
  return binary(a, b, [](f32x4 x, f32x4 y) { return detail::mul(x, y); });
}

OpCost cost_add(std::size_t n) {
  const double elements = static_cast<double>(n);
  return {elements, 12.0 * elements};
}
OpCost cost_mul(std::size_t n) { return cost_add(n); }

OpCost cost_gelu_fused(std::size_t n) {
  const double elements = static_cast<double>(n);
  return {kGeluFlopsPerElement * elements, 8.0 * elements};
}
OpCost cost_gelu_unfused(std::size_t n) {
  const double elements = static_cast<double>(n);
  return {kGeluFlopsPerElement * elements, (6.0 * 8.0 + 2.0 * 12.0) * elements};
}

nlohmann::json to_json(const GeluMeasurement& m) {
  const double flops = kGeluFlopsPerElement * static_cast<double>(m.n);
  return {{"variant", m.variant},
          {"elements", m.n},
          {"flops", flops},
          {"bytes", m.bytes},
          {"gb_per_s", m.gb_per_s},
          {"gflops_per_s", gflops_per_s(flops, m.stats.median_ms)},
          {"ns_per_element", m.ns_per_element},
          {"stats", to_json(m.stats)}};
}

}  // namespace perflab
