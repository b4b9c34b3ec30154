// Bindings for the kernels: the variant lists, one-shot operations on JS data, and one
// measured point of the matmul experiment. Tensors arrive as (data, shape) pairs and leave
// as {shape, data: Float32Array} copies.
// Not for: sweeps over n or cancellation between points (the lab worker loops and checks).
#include "convert.hpp"
#include "perflab/kernels.hpp"

namespace perflab::wasm {
namespace {

template <class Variant>
val variants_to_val(const std::vector<Variant>& variants) {
  val out = val::array();
  for (std::size_t i = 0; i < variants.size(); ++i) {
    val v = val::object();
    v.set("name", variants[i].name);
    v.set("description", variants[i].description);
    out.set(i, v);
  }
  return out;
}

val matmul_variants_js() { return variants_to_val(matmul_variants()); }
val gelu_variants_js() { return variants_to_val(gelu_variants()); }

val measure_matmul_js(val variant, val n, val options) {
  // Converted one by one, in order, so the first bad argument is the one reported.
  const std::string name = to_string(variant, "variant");
  const std::size_t size = to_size(n, "n");
  const TimerOptions timer_options = to_timer_options(options);
  const MatmulMeasurement m = measure_matmul(name, size, timer_options);
  val o = val::object();
  o.set("variant", m.variant);
  o.set("n", static_cast<double>(m.n));
  o.set("flops", m.flops);
  o.set("gflops_per_s", m.gflops_per_s);
  o.set("stats", to_val(m.stats));
  return o;
}

// variant undefined: core's default.
val matmul_js(val a, val a_shape, val b, val b_shape, val variant) {
  const Tensor ta = to_tensor(a, "a", a_shape, "aShape");
  const Tensor tb = to_tensor(b, "b", b_shape, "bShape");
  if (variant.isUndefined()) return to_val(matmul(ta, tb));
  return to_val(matmul(ta, tb, to_string(variant, "variant")));
}

val gelu_js(val x, val shape, val variant) {
  const Tensor tx = to_tensor(x, "x", shape, "shape");
  if (variant.isUndefined()) return to_val(gelu(tx));
  return to_val(gelu(tx, to_string(variant, "variant")));
}

val add_js(val a, val a_shape, val b, val b_shape) {
  const Tensor ta = to_tensor(a, "a", a_shape, "aShape");
  const Tensor tb = to_tensor(b, "b", b_shape, "bShape");
  return to_val(add(ta, tb));
}

val mul_js(val a, val a_shape, val b, val b_shape) {
  const Tensor ta = to_tensor(a, "a", a_shape, "aShape");
  const Tensor tb = to_tensor(b, "b", b_shape, "bShape");
  return to_val(mul(ta, tb));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_kernels) {
  expose<&matmul_variants_js>("matmulVariants");
  expose<&gelu_variants_js>("geluVariants");
  expose<&measure_matmul_js>("measureMatmul");
  expose<&matmul_js>("matmul");
  expose<&gelu_js>("gelu");
  expose<&add_js>("add");
  expose<&mul_js>("mul");
}

}  // namespace perflab::wasm
