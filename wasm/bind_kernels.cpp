// Bindings for the kernels: the variant lists, one-shot operations on JS data (im2col and
// col2im among them), and one measured point per call of the kernel experiments (matmul
// variants and tiles, GELU variants, any operation by name with its roofline placement, a
// convolution by the direct loops or im2col + matmul), as core's JSON rows.
// Tensors arrive as (data, shape) pairs and leave as {shape, data: Float32Array} copies.
// Not for: sweeps over n or cancellation between points (the lab worker loops and checks).
#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/js_args.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/roofline/operations.hpp"
#include "perflab/model/conv_methods.hpp"

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

// {tile_m, tile_n, tile_k}: the blocked variant's tiles when none are given.
val matmul_defaults_js() {
  const MatmulTiles t;
  val o = val::object();
  o.set("tile_m", static_cast<double>(t.m));
  o.set("tile_n", static_cast<double>(t.n));
  o.set("tile_k", static_cast<double>(t.k));
  return o;
}
val gelu_variants_js() { return variants_to_val(gelu_variants()); }

val measure_matmul_js(val variant, val n, val options) {
  // Converted one by one, in order, so the first bad argument is the one reported.
  const std::string name = to_string(variant, "variant");
  const std::size_t size = to_size(n, "n");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_matmul(name, size, timer_options)));
}

// tiles: undefined/null for the defaults, else {tile_m?, tile_n?, tile_k?}.
MatmulTiles to_tiles(const val& tiles) {
  MatmulTiles t;
  if (tiles.isUndefined() || tiles.isNull()) return t;
  const std::vector<std::string> allowed = {"tile_m", "tile_n", "tile_k"};
  const std::string must_be =
      "tiles must be an object with optional fields " + js_args::and_list(allowed);
  // Each key is checked as it is read, so a bad value before an unknown key is the one named.
  for (const std::string& key : object_keys(tiles, must_be, "a field name")) {
    js_args::check_keys({key}, allowed, {"tile field", "", "fields"});
    std::size_t* field = key == "tile_m" ? &t.m : key == "tile_n" ? &t.n : &t.k;
    if (!tiles[key].isUndefined()) *field = to_size(tiles[key], "tiles." + key);
  }
  return t;
}

val measure_matmul_blocked_js(val n, val tiles, val options) {
  const std::size_t size = to_size(n, "n");
  const MatmulTiles t = to_tiles(tiles);
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_matmul_blocked(size, t, timer_options), t));
}

val measure_gelu_js(val variant, val elements, val options) {
  const std::string name = to_string(variant, "variant");
  const std::size_t n = to_size(elements, "elements");
  if (n < 1 || n > kMaxMeasureGeluN) {
    throw ValueError("elements must be between 1 and " + std::to_string(kMaxMeasureGeluN) +
                     ", got " + describe(elements));
  }
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_gelu(name, n, timer_options)));
}

// options: the timer's fields plus variant, and the roofs peak_gflops_per_s and
// bandwidth_gb_per_s (both or neither).
val measure_operation_js(val op, val n, val options) {
  const std::string name = to_string(op, "op");
  const std::size_t size = to_size(n, "n");
  OperationOptions o;
  o.timer = to_timer_options(options, {"variant", "peak_gflops_per_s", "bandwidth_gb_per_s"});
  const val variant = option(options, "variant");
  if (!variant.isUndefined()) o.variant = to_string(variant, "options.variant");
  const val peak = option(options, "peak_gflops_per_s");
  const val bandwidth = option(options, "bandwidth_gb_per_s");
  if (peak.isUndefined() != bandwidth.isUndefined()) {
    throw ValueError(std::string("options.peak_gflops_per_s and options.bandwidth_gb_per_s go "
                                 "together (the roofline needs both roofs); got only ") +
                     (peak.isUndefined() ? "bandwidth_gb_per_s" : "peak_gflops_per_s"));
  }
  if (!peak.isUndefined()) {
    o.roofs = Roofs{to_finite_number(peak, "options.peak_gflops_per_s"),
                    to_finite_number(bandwidth, "options.bandwidth_gb_per_s")};
  }
  return to_val(to_json(measure_operation(name, size, o)));
}

val operation_names_js() {
  val out = val::array();
  const auto& names = operation_names();
  for (std::size_t i = 0; i < names.size(); ++i) out.set(i, names[i]);
  return out;
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

// ---- the convolution experiment (conv_methods.hpp)

using nlohmann::json;

val conv_methods_js() {
  json out = json::array();
  for (const ConvMethod& m : conv_methods()) {
    out.push_back({{"name", m.name}, {"description", m.description}});
  }
  return to_val(out);
}

val measure_conv_js(val method, val shape, val options) {
  const std::string name = to_string(method, "method");
  const ConvShape s = conv_shape_from_json(to_json(shape, "shape"), "shape");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_conv(name, s, timer_options)));
}

// Each argument converted in order, so the first bad one is the one reported.
Tensor to_image(const val& data, const char* data_name, const val& shape, const char* shape_name) {
  const std::vector<float> values = to_float_vector(data, data_name);
  return Tensor(to_shape(shape, shape_name), values);
}

val im2col_js(val x, val shape, val kernel, val stride, val padding) {
  const Tensor tx = to_image(x, "x", shape, "shape");
  return to_val(im2col(tx, to_size(kernel, "kernel"), to_size(stride, "stride"),
                       to_size(padding, "padding")));
}

val col2im_js(val col, val col_shape, val image_shape, val kernel, val stride, val padding) {
  const Tensor tcol = to_image(col, "col", col_shape, "col_shape");
  const Shape image = to_shape(image_shape, "image_shape");
  return to_val(col2im(tcol, image, to_size(kernel, "kernel"), to_size(stride, "stride"),
                       to_size(padding, "padding")));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_kernels) {
  expose<&conv_methods_js>("convMethods");
  expose<&measure_conv_js>("measureConv");
  expose<&im2col_js>("im2col");
  expose<&col2im_js>("col2im");
  expose<&matmul_variants_js>("matmulVariants");
  expose<&matmul_defaults_js>("matmulDefaults");
  expose<&gelu_variants_js>("geluVariants");
  expose<&measure_matmul_js>("measureMatmul");
  expose<&measure_matmul_blocked_js>("measureMatmulBlocked");
  expose<&measure_gelu_js>("measureGelu");
  expose<&measure_operation_js>("measureOperation");
  expose<&operation_names_js>("operationNames");
  expose<&matmul_js>("matmul");
  expose<&gelu_js>("gelu");
  expose<&add_js>("add");
  expose<&mul_js>("mul");
}

}  // namespace perflab::wasm
