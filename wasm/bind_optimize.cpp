// Bindings for the Optimization chapter's kernels (core/include/perflab/kernels/sparse.hpp and
// int8.hpp), in the training module with the rest of the chapter: the sparse Linear variants,
// one point of the sparsity sweep (a variant and the dense kernel timed on the same inputs),
// the crossover density of a sweep's points; the int8 Linear variants and one int8 point (a
// variant and the float packed matmul timed on the same inputs); one length of the KV cache
// experiment (optimize/kv_cache_point.hpp); an int8 point's two kernels on the roofline
// (optimize/int8_roofline.hpp).
// Not for: logic (core/); pruning a held model (bind_train.cpp reaches the session table).
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/kernels/sparse.hpp"
#include "perflab/optimize/int8_roofline.hpp"
#include "perflab/optimize/kv_cache_point.hpp"

namespace perflab::wasm {
namespace {

val sparse_variants_js() {
  nlohmann::json out = nlohmann::json::array();
  for (const SparseLinearVariant& v : sparse_linear_variants()) {
    out.push_back({{"name", v.name}, {"description", v.description}});
  }
  return to_val(out);
}

val measure_sparse_linear_js(val variant, val batch, val in, val out, val density, val options) {
  const std::string name = to_string(variant, "variant");
  const std::size_t b = to_size(batch, "batch");
  const std::size_t k = to_size(in, "in");
  const std::size_t n = to_size(out, "out");
  const double d = to_finite_number(density, "density");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_sparse_linear(name, b, k, n, d, timer_options)));
}

// points: measureSparseLinear's rows (density and speedup are read); {found, density, sentence}.
val sparse_crossover_js(val points) {
  const nlohmann::json list = to_json(points, "points");
  if (!list.is_array()) {
    throw ValueError("points must be an array of measured sparse points, got " +
                     perflab::describe(list));
  }
  std::vector<SparseLinearMeasurement> measured;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "points[" + std::to_string(i) + "]";
    const nlohmann::json& p = list[i];
    if (!p.is_object() || !p.contains("density") || !p["density"].is_number() ||
        !p.contains("speedup") || !p["speedup"].is_number()) {
      throw ValueError(where + " must be a measured sparse point with numbers density and "
                       "speedup, got " + perflab::describe(p));
    }
    SparseLinearMeasurement m;
    m.density = p["density"].get<double>();
    m.speedup = p["speedup"].get<double>();
    measured.push_back(m);
  }
  const SparseCrossover c = sparse_crossover(measured);
  return to_val({{"found", c.found}, {"density", c.density}, {"sentence", c.sentence}});
}

val int8_variants_js() {
  nlohmann::json out = nlohmann::json::array();
  for (const Int8LinearVariant& v : int8_linear_variants()) {
    out.push_back({{"name", v.name}, {"description", v.description}});
  }
  return to_val(out);
}

val measure_int8_linear_js(val variant, val batch, val in, val out, val options) {
  const std::string name = to_string(variant, "variant");
  const std::size_t b = to_size(batch, "batch");
  const std::size_t k = to_size(in, "in");
  const std::size_t n = to_size(out, "out");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_int8_linear(name, b, k, n, timer_options)));
}

// One int8 point's two kernels placed on roofs {peak_gflops_per_s, int8_peak_gops_per_s,
// bandwidth_gb_per_s}: the probe's figures.
val int8_roofline_js(val batch, val in, val out, val int8_ms, val float32_ms, val roofs) {
  const std::size_t b = to_size(batch, "batch");
  const std::size_t k = to_size(in, "in");
  const std::size_t n = to_size(out, "out");
  const double int8_median_ms = to_finite_number(int8_ms, "int_median_ms");
  const double float32_median_ms = to_finite_number(float32_ms, "float_median_ms");
  if (roofs.isNull() || roofs.typeOf().as<std::string>() != "object") {
    throw ValueError("roofs must be an object {peak_gflops_per_s, int8_peak_gops_per_s, "
                     "bandwidth_gb_per_s}, got " + describe(roofs));
  }
  const Roofs r{to_finite_number(roofs["peak_gflops_per_s"], "roofs.peak_gflops_per_s"),
                to_finite_number(roofs["bandwidth_gb_per_s"], "roofs.bandwidth_gb_per_s")};
  if (roofs["int8_peak_gops_per_s"].isUndefined()) {
    throw ValueError("roofs.int8_peak_gops_per_s is missing: the probe's integer peak, which a "
                     "probe from before the lab measured it does not have; probe again");
  }
  const double int8_peak =
      to_finite_number(roofs["int8_peak_gops_per_s"], "roofs.int8_peak_gops_per_s");
  return to_val(
      to_json(int8_roofline(b, k, n, int8_median_ms, float32_median_ms, r, int8_peak)));
}

// One length of the KV cache experiment: decoder {vocab, d_model, ...}, verified then timed.
val measure_kv_cache_js(val decoder, val prompt, val tokens, val options) {
  const KvDecoderConfig config = kv_decoder_config_from_json(to_json(decoder, "decoder"));
  const std::size_t p = to_size(prompt, "prompt");
  const std::size_t n = to_size(tokens, "tokens");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(measure_kv_cache_point(config, p, n, timer_options));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_optimize) {
  expose<&sparse_variants_js>("sparseVariants");
  expose<&measure_sparse_linear_js>("measureSparseLinear");
  expose<&sparse_crossover_js>("sparseCrossover");
  expose<&int8_variants_js>("int8Variants");
  expose<&measure_int8_linear_js>("measureInt8Linear");
  expose<&measure_kv_cache_js>("measureKvCache");
  expose<&int8_roofline_js>("int8Roofline");
}

}  // namespace perflab::wasm
