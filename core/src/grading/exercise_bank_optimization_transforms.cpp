// The Optimization chapter's exercises on its transforms: symmetric int8 quantization of a
// tensor and a CSR matrix-vector product in JavaScript (the second timed against a dense
// loop), an activation's uint8 range, an int8 model's bytes, CSR's bytes against dense, a
// distillation loss, a KV cache's bytes and FLOP ratio, two choices on why sparse and
// per-tensor choices go wrong, the line through the student's own sparsity sweep, and what
// structured pruning saves. Every answer comes from core: quantize_weights,
// activation_quant_params and quantize_activations (kernels/int8.hpp),
// quantized_parameter_bytes (model/quantization.hpp), csr_from_weight, the naive sparse kernel
// and sparse_crossover's rule (kernels/sparse.hpp), distillation_loss (train/loss.hpp),
// kv_cache_bytes and kv_generation_flops (optimize/kv_cache.hpp), prune_structured
// (optimize/structured.hpp). Feedback says right or wrong only
// (Exercise::feedback_hides_answer).
// Joined into the chapter's list by exercise_bank_optimization.cpp;
// prose in core/exercises/optimization.json. Not for: seeding, rendering or grading
// (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/grading/grader.hpp"
#include "perflab/kernels/int8.hpp"
#include "perflab/kernels/sparse.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/model/model.hpp"
#include "perflab/model/quantization.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/optimize/kv_cache.hpp"
#include "perflab/optimize/structured.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/train/loss.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// Fashion-MNIST's image width × height: the MLPs here classify its images (into
// fashion_mnist_class_names().size() classes).
constexpr std::int64_t kPixels = 28 * 28;

// ---- optimization.quantize-int8 -------------------------------------------------------

// What core's quantizer makes of a vector: quantize_weights with it as the one column of a
// (K, 1) weight, so scale = max |x| / 127 over all of it (per tensor), the codes as core
// rounds them, and the largest |x − code·scale| of core's own dequantization.
json int8_quantized(const std::vector<double>& values) {
  const std::vector<float> w(values.begin(), values.end());
  const Int8Weights q = quantize_weights(w.data(), w.size(), 1);
  std::vector<float> back(w.size());
  dequantize_weights(back.data(), q);
  json codes = json::array();
  double max_error = 0;
  for (std::size_t k = 0; k < values.size(); ++k) {
    codes.push_back(static_cast<int>(q.code[k]));
    max_error = std::max(max_error, std::fabs(values[k] - static_cast<double>(back[k])));
  }
  return {{"scale", static_cast<double>(q.scale[0])}, {"codes", codes}, {"maxError", max_error}};
}

// No value within 1/1000 of a code of a tie between two codes, so the student's double
// arithmetic and core's float arithmetic round every value the same way (ties are a test
// of their own).
bool clear_of_ties(const std::vector<double>& values) {
  double max_abs = 0;
  for (double x : values) max_abs = std::max(max_abs, std::fabs(x));
  if (max_abs == 0) return false;
  for (double x : values) {
    const double t = std::fabs(127.0 * x / max_abs);
    if (std::fabs(t - std::floor(t) - 0.5) < 1e-3) return false;
  }
  return true;
}

// n multiples of 1/512 (exact in float32 and in JavaScript) in [-range, range], changed by
// `shape` (an outlier, ...), drawn again until clear_of_ties.
template <typename Shape>
std::vector<double> int8_values(Rng& rng, std::size_t n, std::int64_t range, Shape shape) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    std::vector<double> values;
    for (std::size_t i = 0; i < n; ++i) {
      values.push_back(static_cast<double>(rng.integer(-range * 512, range * 512)) / 512.0);
    }
    shape(values);
    if (clear_of_ties(values)) return values;
  }
  throw Error("optimization.quantize-int8: no values clear of a rounding tie after 1000 draws");
}
std::vector<double> int8_values(Rng& rng, std::size_t n, std::int64_t range) {
  return int8_values(rng, n, range, [](std::vector<double>&) {});
}

CodeTest int8_test(std::string name, const std::vector<double>& values) {
  return {std::move(name), json::array({values}), int8_quantized(values)};
}

VariantData draw_quantize_int8(Rng& rng, const Fragments&) {
  VariantData v;
  v.tests.push_back(int8_test("five values", int8_values(rng, 5, 2)));
  // max(x) instead of max |x| gives the wrong scale when the largest magnitude is negative.
  v.tests.push_back(int8_test("the largest magnitude is negative",
                              int8_values(rng, 8, 1, [&](std::vector<double>& values) {
                                const auto i = static_cast<std::size_t>(rng.integer(0, 7));
                                values[i] = -1 - static_cast<double>(rng.integer(1, 512)) / 512.0;
                              })));
  // One large value sets the scale: every other value gets a handful of codes.
  v.tests.push_back(int8_test("one outlier", int8_values(rng, 12, 1, [&](std::vector<double>& values) {
                                const auto i = static_cast<std::size_t>(rng.integer(0, 11));
                                const std::int64_t sign = rng.integer(0, 1) ? 1 : -1;
                                values[i] = static_cast<double>(sign * rng.integer(20, 60));
                              })));
  v.tests.push_back(
      int8_test("all zeros", std::vector<double>(static_cast<std::size_t>(rng.integer(3, 8)), 0.0)));
  {
    // scale = 2^-p exactly, every other value (m + ½)·scale: halfway between two codes, with
    // m even and odd, positive and negative (rounding half up or half away from 0 fails).
    const double scale = std::ldexp(1.0, -static_cast<int>(rng.integer(2, 4)));
    std::vector<double> values = {127 * scale};
    const std::int64_t even = 2 * rng.integer(1, 30), odd = 2 * rng.integer(1, 30) + 1;
    const std::int64_t negative_even = -2 * rng.integer(1, 30);
    const std::int64_t negative_odd = -2 * rng.integer(1, 30) - 1;
    for (std::int64_t m : {even, odd, negative_even, negative_odd}) {
      values.push_back((static_cast<double>(m) + 0.5) * scale);
    }
    shuffle(values, rng);
    v.tests.push_back(int8_test("values halfway between two codes", values));
  }
  v.tests.push_back(int8_test("one value", int8_values(rng, 1, 4)));
  v.tests.push_back(int8_test("64 values", int8_values(rng, 64, 4)));
  return v;
}

// ---- optimization.csr-matvec ----------------------------------------------------------

// A (rows, cols) matrix of small integers of which about `density` are nonzero, with row
// `empty_row` (if below rows) all zero, built as the transpose of a Linear weight W (cols,
// rows) so that core's CSR of W^T is A's CSR; x small integers too, so every sum is exact in
// float32 and in JavaScript whatever order it runs in. Expected: core's naive CSR kernel.
CodeTest csr_test(std::string name, Rng& rng, std::size_t rows, std::size_t cols, double density,
                  std::size_t empty_row = static_cast<std::size_t>(-1)) {
  std::vector<float> w(cols * rows, 0.0f);  // W (K = cols, N = rows): A[r][c] = W[c, r]
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = 0; r < rows; ++r) {
      const bool kept = rng.uniform(0, 1) < density;
      const std::int64_t value = rng.integer(1, 9) * (rng.integer(0, 1) ? 1 : -1);
      if (kept && r != empty_row) w[c * rows + r] = static_cast<float>(value);
    }
  }
  std::vector<float> x;
  for (std::size_t c = 0; c < cols; ++c) x.push_back(static_cast<float>(rng.integer(-9, 9)));
  const CsrMatrix a = csr_from_weight(w.data(), cols, rows);
  std::vector<float> y(rows);
  find_sparse_linear_variant("naive").kernel(y.data(), x.data(), a, 1);
  return {std::move(name),
          json::array({json(a.value), json(a.col), json(a.row_start), json(x)}), json(y)};
}

// The timed test's matrix: n×n with this share kept. At 5% the CSR loop does a twentieth of
// the dense loop's multiply-adds and reads a tenth of its bytes, so any loop that skips the
// zeros wins by far more than kMinBenchmarkSpeedup, while a CSR expanded back to dense does not.
constexpr double kCsrBenchmarkDensity = 0.05;
constexpr std::int64_t kCsrBenchmarkN = 2048;

VariantData draw_csr_matvec(Rng& rng, const Fragments&) {
  VariantData v;
  v.tests.push_back(csr_test("3×4", rng, 3, 4, 0.5));
  v.tests.push_back(csr_test("a row with no entries", rng, 6, 6, 0.5,
                             static_cast<std::size_t>(rng.integer(0, 5))));
  v.tests.push_back(csr_test("wide (10% kept)", rng, 5, 40, 0.1));
  v.tests.push_back(csr_test("tall (30% kept)", rng, 40, 5, 0.3));
  v.tests.push_back(csr_test("no entries at all", rng, 4, 7, 0.0));
  v.tests.push_back(csr_test("1×1", rng, 1, 1, 1.0));
  CodeTest timed;
  timed.name = "faster than the dense loop at N = " + std::to_string(kCsrBenchmarkN) + " with " +
               std::to_string(static_cast<int>(kCsrBenchmarkDensity * 100)) + "% kept";
  timed.args = json::array();
  timed.benchmark = {{"reference", "dense-matvec"},
                     {"n", kCsrBenchmarkN},
                     {"density", kCsrBenchmarkDensity},
                     {"rounds", 5},
                     {"seed", rng.integer(1, 1'000'000)}};
  v.tests.push_back(std::move(timed));
  return v;
}

// ---- optimization.activation-range ----------------------------------------------------

// How far t is from a rounding tie (x.5): a drawn value this close could round either way
// between the student's arithmetic and core's float arithmetic.
double distance_to_tie(double t) { return std::fabs(t - std::floor(t) - 0.5); }

VariantData draw_activation_range(Rng& rng, const Fragments& fragments) {
  static const char* const kinds[] = {"mixed", "mixed", "positive", "negative"};
  static const char* const places[] = {"inside", "inside", "above", "below"};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::string kind = pick(rng, kinds);
    // Two decimals, as a calibration report would print them.
    double lo = 0, hi = 0;
    if (kind == "mixed") {
      lo = -static_cast<double>(rng.integer(10, 800)) / 100;
      hi = static_cast<double>(rng.integer(50, 1500)) / 100;
    } else if (kind == "positive") {  // after a ReLU-like layer with an offset: all above 0
      lo = static_cast<double>(rng.integer(5, 200)) / 100;
      hi = lo + static_cast<double>(rng.integer(100, 1200)) / 100;
    } else {
      hi = -static_cast<double>(rng.integer(5, 200)) / 100;
      lo = hi - static_cast<double>(rng.integer(100, 1200)) / 100;
    }
    const std::string place = pick(rng, places);
    double x = 0;
    if (place == "inside") {
      x = static_cast<double>(rng.integer(static_cast<std::int64_t>(std::ceil(lo * 100)),
                                          static_cast<std::int64_t>(std::floor(hi * 100)))) / 100;
    } else if (place == "above") {
      x = hi + static_cast<double>(rng.integer(50, 500)) / 100;
    } else {
      x = lo - static_cast<double>(rng.integer(50, 500)) / 100;
    }
    const ActivationQuant q = activation_quant_params(static_cast<float>(lo), static_cast<float>(hi));
    const double l = std::min(lo, 0.0), h = std::max(hi, 0.0);
    const double scale = (h - l) / 255;
    // Clear of ties, so that the student's scale (in double, or rounded to a few digits)
    // rounds the zero point and the code as core's float arithmetic does.
    if (distance_to_tie(-l / scale) < 0.02 || distance_to_tie(x / scale) < 0.02) continue;
    const float xf = static_cast<float>(x);
    std::uint8_t code = 0;
    quantize_activations(&xf, 1, q, &code);
    VariantData v;
    // range: the calibrated [lo, hi] as data (the prompt shows it through the fragment).
    v.params = {{"range", json::array({lo, hi})}, {"x", x},
                {"data", fragments.render(kind, {{"lo", lo}, {"hi", hi}})}};
    v.expected_values = {static_cast<double>(q.scale), static_cast<double>(q.zero_point),
                         static_cast<double>(code)};
    return v;
  }
  throw Error("optimization.activation-range: no variant clear of rounding ties after 1000 draws");
}

// ---- optimization.int8-bytes ----------------------------------------------------------

VariantData draw_int8_bytes(Rng& rng, const Fragments& fragments) {
  static const std::int64_t hidden[] = {64, 100, 128, 200, 256, 300, 512};
  const std::int64_t h1 = pick(rng, hidden);
  const std::int64_t h2 = pick(rng, hidden);
  const bool norm = rng.integer(0, 1) == 1;
  const bool last_bias = rng.integer(0, 1) == 1;
  json spec = mlp_spec({static_cast<std::size_t>(kPixels), static_cast<std::size_t>(h1),
                        static_cast<std::size_t>(h2), fashion_mnist_class_names().size()},
                       1);
  json& layers = spec["layers"];
  if (!last_bias) layers.back()["bias"] = false;
  // LayerNorm over the first hidden layer, between its Linear and its ReLU: float32 γ and β.
  if (norm) layers.insert(layers.begin() + 1, json{{"type", "LayerNorm"}, {"features", h1}});
  Model model = model_from_json(spec);
  Quantization q;
  for (std::size_t i = 0; i < model.size(); ++i) {
    auto* linear = dynamic_cast<Linear*>(&model.layer(i));
    if (linear == nullptr) continue;
    QuantizedLinear ql;
    ql.layer = i;
    ql.weights = quantize_weights(linear->weight().data(), linear->in_features(),
                                  linear->out_features());
    const Tensor& bias = linear->bias();
    ql.bias.assign(bias.data(), bias.data() + bias.size());
    q.layers.push_back(std::move(ql));
  }
  const double int8_bytes = static_cast<double>(quantized_parameter_bytes(model, q));
  const double float_bytes = static_cast<double>(model.parameter_count() * sizeof(float));
  VariantData v;
  v.params = {{"h1", h1},
              {"h2", h2},
              {"norm", fragments.render(norm ? "norm" : "no-norm", {{"h1", h1}})},
              {"biases", fragments.render(last_bias ? "all-biases" : "last-without-bias", json::object())}};
  v.expected_values = {int8_bytes, float_bytes / int8_bytes};
  return v;
}

// ---- optimization.csr-bytes -----------------------------------------------------------

// What core's CSR of a (K, N) weight with `kept` nonzeros reads, in bytes: csr_from_weight's
// own layout on a weight with that many nonzeros.
double csr_bytes_of(std::size_t K, std::size_t N, std::size_t kept) {
  std::vector<float> w(K * N, 0.0f);
  std::fill(w.begin(), w.begin() + static_cast<std::ptrdiff_t>(kept), 1.0f);
  return static_cast<double>(csr_from_weight(w.data(), K, N).bytes());
}

VariantData draw_csr_bytes(Rng& rng, const Fragments&) {
  static const std::int64_t inputs[] = {64, 100, 128, 256, 300, 512, 784};
  static const std::int64_t outputs[] = {10, 32, 64, 100, 128, 256, 512};
  static const double densities[] = {0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.6, 0.75};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const auto K = static_cast<std::size_t>(pick(rng, inputs));
    const auto N = static_cast<std::size_t>(pick(rng, outputs));
    const double density = pick(rng, densities);
    const double weights = static_cast<double>(K * N);
    // Kept as the sparsity sweep keeps them: all but round((1 − d)·K·N); clear of a tie, so
    // that rounding d·K·N gives the same count.
    if (std::fabs(density * weights - std::floor(density * weights) - 0.5) < 0.01) continue;
    const auto kept = static_cast<std::size_t>(weights - std::round((1 - density) * weights));
    const double csr = csr_bytes_of(K, N, kept);
    const double dense = static_cast<double>(sizeof(float)) * weights;
    // CSR's bytes grow by the same amount per kept weight: where they reach the dense bytes.
    const double empty = csr_bytes_of(K, N, 0);
    const double per_weight = csr_bytes_of(K, N, 1) - empty;
    const double break_even = (dense - empty) / per_weight / weights;
    VariantData v;
    v.params = {{"in", static_cast<std::int64_t>(K)},
                {"out", static_cast<std::int64_t>(N)},
                {"density_percent", round_to(100 * density, 0)}};
    v.expected_values = {csr, dense, 100 * break_even};
    return v;
  }
  throw Error("optimization.csr-bytes: no variant clear of a rounding tie after 1000 draws");
}

// ---- optimization.distillation-loss ---------------------------------------------------

// core's loss on one row of logits. They pass through float32 (tenths are not exact there):
// the loss moves by about 1e-7, far inside the tolerance of the student's doubles.
double distillation_of(const std::vector<double>& student, const std::vector<double>& teacher,
                       std::uint8_t label, double temperature, double alpha) {
  const std::size_t c = student.size();
  const std::vector<float> s(student.begin(), student.end()), t(teacher.begin(), teacher.end());
  const std::vector<std::uint8_t> labels = {label};
  return distillation_loss(Tensor({1, c}, s), Tensor({1, c}, t), labels, temperature, alpha).loss;
}

std::string list_text(const std::vector<double>& xs) {
  std::string out = "[";
  for (std::size_t i = 0; i < xs.size(); ++i) out += (i ? ", " : "") + format_param(json(xs[i]));
  return out + "]";
}

VariantData draw_distillation_loss(Rng& rng, const Fragments&) {
  static const double temperatures[] = {2, 3, 4, 5};
  static const double alphas[] = {0.25, 0.5, 0.7, 0.9};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const auto c = static_cast<std::size_t>(rng.integer(3, 5));
    std::vector<double> student, teacher;
    for (std::size_t k = 0; k < c; ++k) student.push_back(round_to(rng.uniform(-3, 3), 1));
    for (std::size_t k = 0; k < c; ++k) teacher.push_back(round_to(rng.uniform(-4, 6), 1));
    const auto label = static_cast<std::uint8_t>(rng.integer(0, static_cast<std::int64_t>(c) - 1));
    const double temperature = pick(rng, temperatures);
    const double alpha = pick(rng, alphas);
    const double loss = distillation_of(student, teacher, label, temperature, alpha);
    // The usual slips must land outside the tolerance: no T² (the same loss at T = 1 is one
    // check of the soft term's size), and the soft term or the hard term alone.
    const double soft_only = distillation_of(student, teacher, label, temperature, 1.0);
    const double hard_only = distillation_of(student, teacher, label, temperature, 0.0);
    const double no_t_squared = alpha * soft_only / (temperature * temperature) + (1 - alpha) * hard_only;
    if (std::fabs(no_t_squared - loss) < 0.02 * loss || std::fabs(soft_only - loss) < 0.02 * loss ||
        std::fabs(hard_only - loss) < 0.02 * loss) {
      continue;
    }
    VariantData v;
    v.params = {{"student", list_text(student)}, {"teacher", list_text(teacher)},
                {"label", label}, {"temperature", temperature}, {"alpha", alpha},
                {"classes", static_cast<std::int64_t>(c)}};
    v.expected_value = loss;
    return v;
  }
  throw Error("optimization.distillation-loss: no variant that tells the slips apart after 1000 draws");
}

// ---- optimization.kv-cache ------------------------------------------------------------

VariantData draw_kv_cache(Rng& rng, const Fragments&) {
  static const std::int64_t widths[] = {64, 128, 256};
  static const std::int64_t head_counts[] = {2, 4, 8};
  static const std::int64_t layer_counts[] = {2, 4, 6};
  static const std::int64_t vocabularies[] = {256, 1000, 4096};
  static const std::int64_t prompts[] = {4, 8, 16, 32};
  static const std::int64_t lengths[] = {32, 64, 100, 128, 256};
  KvDecoderConfig config;
  config.d_model = static_cast<std::size_t>(pick(rng, widths));
  config.heads = static_cast<std::size_t>(pick(rng, head_counts));
  config.layers = static_cast<std::size_t>(pick(rng, layer_counts));
  config.d_ff = 4 * config.d_model;
  config.vocab = static_cast<std::size_t>(pick(rng, vocabularies));
  config.context = 512;
  config.validate();
  const auto prompt = static_cast<std::size_t>(pick(rng, prompts));
  const auto n = static_cast<std::size_t>(pick(rng, lengths));
  // The last new token is never run (nothing reads its logits): p + n − 1 positions cached.
  const double bytes = static_cast<double>(kv_cache_bytes(config, prompt + n - 1));
  const double ratio = kv_generation_flops(config, prompt, n, false).total() /
                       kv_generation_flops(config, prompt, n, true).total();
  VariantData v;
  v.params = {{"d_model", static_cast<std::int64_t>(config.d_model)},
              {"heads", static_cast<std::int64_t>(config.heads)},
              {"layers", static_cast<std::int64_t>(config.layers)},
              {"d_ff", static_cast<std::int64_t>(config.d_ff)},
              {"vocab", static_cast<std::int64_t>(config.vocab)},
              {"prompt", static_cast<std::int64_t>(prompt)},
              {"tokens", static_cast<std::int64_t>(n)}};
  v.expected_values = {bytes, ratio};
  return v;
}

// ---- optimization.sparse-slower -------------------------------------------------------

// Both conceptual questions ask which of two statements about the scenario are true, drawn
// two per try from a pool of true and false ones (the data file's fragments; the right
// explanation is one of the true ones, the usual wrong models are the false ones), so a
// later try's statements say nothing about an earlier try's. Choices in the bank's order:
// "both", "only (1)", "only (2)", "neither".
struct Statement {
  const char* fragment;
  bool is_true;
};

template <std::size_t N>
void draw_statements(VariantData& v, const Fragments& fragments, const ChoiceTry& t,
                     const Statement (&pool)[N]) {
  const Statement& first = pool[pool_item(t, N, 0, 2)];
  const Statement& second = pool[pool_item(t, N, 1, 2)];
  v.params["statement_1"] = fragments.render(first.fragment, v.params);
  v.params["statement_2"] = fragments.render(second.fragment, v.params);
  v.correct_choice = first.is_true ? (second.is_true ? 0 : 1) : (second.is_true ? 2 : 3);
}

constexpr Statement kSparseStatements[] = {
    {"cost-per-multiply", true},  {"bytes-about-equal", true}, {"half-the-multiplies", true},
    {"twice-the-bytes", false},   {"multiplies-zeros", false}, {"denormals", false},
    {"no-batch", false},
};

VariantData draw_sparse_slower(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  static const std::int64_t shapes[][2] = {{784, 256}, {256, 128}, {512, 512}, {1024, 256}};
  static const std::int64_t batches[] = {32, 64, 128, 256};
  const auto& shape = shapes[rng.integer(0, 3)];
  VariantData v;
  v.params = {{"in", shape[0]}, {"out", shape[1]}, {"batch", pick(rng, batches)}};
  draw_statements(v, fragments, t, kSparseStatements);
  return v;
}

// ---- optimization.per-channel-scales --------------------------------------------------

constexpr Statement kScaleStatements[] = {
    {"shared-scale-coarsens", true}, {"large-channel-unchanged", true}, {"small-to-zero", true},
    {"nothing-changes", false},      {"per-tensor-better", false},      {"only-large-clamped", false},
    {"scales-add-error", false},
};

VariantData draw_per_channel_scales(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  static const double large[] = {2.0, 4.0, 6.35, 8.0, 12.7};
  static const double small[] = {0.05, 0.1, 0.127, 0.2};
  static const std::int64_t outputs[] = {64, 128, 256, 512};
  VariantData v;
  v.params = {{"out", pick(rng, outputs)}, {"large", pick(rng, large)}, {"small", pick(rng, small)}};
  draw_statements(v, fragments, t, kScaleStatements);
  return v;
}

// ---- experiment-backed: the student's sparsity sweep ----------------------------------

// Where the line through two measured points (density, speedup) reaches `speedup`: the
// straight line sparse_crossover interpolates on (kernels/sparse.cpp), here extended past its
// two points.
double line_density_at(double d0, double s0, double d1, double s1, double speedup) {
  return d0 + (d1 - d0) * (s0 - speedup) / (s0 - s1);
}

// The speedup the line is read at: the sparse kernel twice as slow as the dense one.
constexpr double kAskedSpeedup = 0.5;

void sparse_line_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  std::vector<SparseLinearMeasurement> points;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SparseLinearMeasurement p;
    p.density = evidence_number(e, rows, i, "density");
    p.speedup = evidence_number(e, rows, i, "speedup");
    p.batch = static_cast<std::size_t>(evidence_number(e, rows, i, "batch"));
    p.in = static_cast<std::size_t>(evidence_number(e, rows, i, "in"));
    p.out = static_cast<std::size_t>(evidence_number(e, rows, i, "out"));
    if (!points.empty() && (p.batch != points.front().batch || p.in != points.front().in ||
                            p.out != points.front().out)) {
      throw ValueError("answer.evidence.rows mix layer shapes or batches (rows[0] is " +
                       std::to_string(points.front().in) + "→" +
                       std::to_string(points.front().out) + " at batch " +
                       std::to_string(points.front().batch) + ", rows[" + std::to_string(i) +
                       "] is " + std::to_string(p.in) + "→" + std::to_string(p.out) +
                       " at batch " + std::to_string(p.batch) +
                       "): run the sparsity sweep once with one shape");
    }
    points.push_back(p);
  }
  const SparseCrossover crossover = sparse_crossover(points);
  if (!crossover.found) {
    throw ValueError("your run of the sparsity sweep has no crossover (" + crossover.sentence +
                     "): run it again at batch 64 with the batched variant, where the speedup "
                     "crosses 1× between two of its densities");
  }
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.density < b.density; });
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    // The pair sparse_crossover interpolates between.
    if (points[i].speedup >= 1.0 && points[i + 1].speedup < 1.0) {
      v.expected_value = 100 * line_density_at(points[i].density, points[i].speedup,
                                               points[i + 1].density, points[i + 1].speedup,
                                               kAskedSpeedup);
      return;
    }
  }
  throw Error("optimization.my-sparse-line: sparse_crossover found a crossing this search did not");
}

// ---- optimization.structured-prune ----------------------------------------------------

VariantData draw_structured_prune(Rng& rng, const Fragments&) {
  static const std::int64_t hidden[] = {64, 100, 128, 200, 256, 300, 512};
  static const double fractions[] = {0.25, 0.5, 0.75, 0.9};
  const std::int64_t h1 = pick(rng, hidden);
  const std::int64_t h2 = pick(rng, hidden);
  const double fraction = pick(rng, fractions);
  Model model = model_from_json(mlp_spec({static_cast<std::size_t>(kPixels), static_cast<std::size_t>(h1),
                                          static_cast<std::size_t>(h2), fashion_mnist_class_names().size()},
                                         1));
  const StructuredPruneReport r = prune_structured(model, fraction).report;
  if (r.layers.size() != 2) throw Error("optimization.structured-prune: expected two prunable layers");
  VariantData v;
  v.params = {{"h1", h1},
              {"h2", h2},
              {"k1", static_cast<std::int64_t>(r.layers[0].after)},
              {"k2", static_cast<std::int64_t>(r.layers[1].after)}};
  v.expected_values = {static_cast<double>(r.parameters_after), r.flops_after,
                       r.flops_before / r.flops_after};
  return v;
}

// ---- the list -------------------------------------------------------------------------

}  // namespace

std::vector<ExerciseCode> optimization_transform_exercises() {
  using enum ExerciseKind;
  return {
      // Scales agree to float32's rounding of max/127 (a relative 6e-8); codes are integers
      // and must be exact (1e-4 of 127 is far below 1).
      {.id = "optimization.quantize-int8", .kind = Code, .points = 15,
       .draw = draw_quantize_int8, .tolerance = {1e-4, 1e-6}, .time_limit_ms = 2000,
       .feedback_hides_answer = true},
      // Integer sums: exact. The timed test (an n×n matrix at 5% density) takes about a second.
      {.id = "optimization.csr-matvec", .kind = Code, .points = 15, .draw = draw_csr_matvec,
       .tolerance = {1e-9, 1e-9}, .time_limit_ms = 30000, .timed_points = 5,
       .constants = {{"benchmark_n", kCsrBenchmarkN},
                     {"benchmark_density_percent", static_cast<int>(kCsrBenchmarkDensity * 100)},
                     {"min_speedup", kMinBenchmarkSpeedup}},
       .feedback_hides_answer = true},
      {.id = "optimization.activation-range", .kind = Numeric, .points = 10,
       .draw = draw_activation_range,
       .parts = {{{0.001, 0.0}}, {kNearestInteger}, {kNearestInteger}},
       .feedback_hides_answer = true},
      // Forgetting the scales moves the ratio by about 0.5%; 0.1% tells them apart.
      {.id = "optimization.int8-bytes", .kind = Numeric, .points = 10, .draw = draw_int8_bytes,
       .parts = {{kNearestInteger}, {{0.001, 0.0}}}, .feedback_hides_answer = true},
      // The break-even density sits within a few tenths of a percent of 50%: 0.01 points
      // tells an answer of 50 apart from it.
      {.id = "optimization.csr-bytes", .kind = Numeric, .points = 10, .draw = draw_csr_bytes,
       .parts = {{kNearestInteger}, {kNearestInteger}, {{0.0, 0.01}}},
       .feedback_hides_answer = true},
      {.id = "optimization.distillation-loss", .kind = Numeric, .points = 10,
       .draw = draw_distillation_loss, .tolerance = {0.002, 1e-4},
       .feedback_hides_answer = true},
      {.id = "optimization.kv-cache", .kind = Numeric, .points = 15, .draw = draw_kv_cache,
       .parts = {{kNearestInteger}, {{0.01, 0.0}}}, .feedback_hides_answer = true},
      {.id = "optimization.sparse-slower", .kind = Choice, .points = 10,
       .draw_try = draw_sparse_slower, .feedback_hides_answer = true},
      {.id = "optimization.per-channel-scales", .kind = Choice, .points = 10,
       .draw_try = draw_per_channel_scales, .feedback_hides_answer = true},
      // The CSV's speedups are unrounded; 2% leaves room for a student who copies them to a
      // few digits (the extrapolation magnifies their rounding).
      {.id = "optimization.my-sparse-line", .kind = Numeric, .points = 15,
       .draw = draw_nothing, .tolerance = {0.02, 0.0}, .experiment = "optimization-sparsity",
       .from_evidence = sparse_line_from_evidence,
       .constants = {{"asked_speedup", kAskedSpeedup}}, .feedback_hides_answer = true},
      {.id = "optimization.structured-prune", .kind = Numeric, .points = 10,
       .draw = draw_structured_prune,
       .parts = {{kNearestInteger}, {kNearestInteger}, {{0.01, 0.0}}},
       .constants = {{"relu_flops", static_cast<int>(flop_cost::kReluForward)}},
       .feedback_hides_answer = true},
  };
}

}  // namespace perflab::detail
