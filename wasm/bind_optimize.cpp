// Bindings for the Optimization chapter's kernels (core/include/perflab/kernels/sparse.hpp and
// int8.hpp), in the training module with the rest of the chapter: the sparse Linear variants,
// one point of the sparsity sweep (a variant and the dense kernel timed on the same inputs),
// the crossover density of a sweep's points; the int8 Linear variants and one int8 point (a
// variant and the float packed matmul timed on the same inputs).
// Not for: logic (core/); pruning a held model (bind_train.cpp reaches the session table).
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/kernels/sparse.hpp"

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

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_optimize) {
  expose<&sparse_variants_js>("sparseVariants");
  expose<&measure_sparse_linear_js>("measureSparseLinear");
  expose<&sparse_crossover_js>("sparseCrossover");
  expose<&int8_variants_js>("int8Variants");
  expose<&measure_int8_linear_js>("measureInt8Linear");
}

}  // namespace perflab::wasm
