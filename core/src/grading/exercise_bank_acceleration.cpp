// The Acceleration chapter's exercises: arithmetic intensity, fusion traffic, the roofline
// (attainable bound, ridge point, where an operation sits), SIMD speedup, which technique for
// which workload, two JavaScript functions (attainable(), and a cache-friendly matmul timed
// against the naive loop in the student's own browser), and two questions graded from the
// student's own measured roofline; the parallelism section's are
// exercise_bank_acceleration_parallel.cpp's. Every roofline number comes from core: FLOP and byte
// counts from the kernels (matmul.hpp, elementwise.hpp, reduce.hpp), intensity, attainable,
// ridge and classify from roofline.hpp; nothing here re-derives them.
// Their texts are core/exercises/acceleration.json.
// Not for: prose (the data file); seeding, rendering or grading (grader.cpp).
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "perflab/detail/exercise_bank.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/kernels/reduce.hpp"
#include "perflab/roofline/roofline.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

constexpr double kMB = 1e6;  // bandwidths are GB/s = 10^9 bytes/s, so traffic is in MB here

double intensity_of(const OpCost& cost) { return arithmetic_intensity(cost.flops, cost.bytes); }

double square_matmul_intensity(std::int64_t n) {
  const auto s = static_cast<std::size_t>(n);
  return intensity_of(cost_matmul(s, s, s));
}

// A machine students meet: one core to a few with SIMD, laptop to workstation DRAM.
std::pair<std::int64_t, std::int64_t> draw_machine(Rng& rng) {
  return {rng.integer(16, 400), rng.integer(8, 60)};
}

// ---- acceleration.intensity -----------------------------------------------------------

VariantData draw_intensity(Rng& rng, const Fragments&) {
  static const std::int64_t sizes[] = {64, 96, 128, 192, 256, 384, 512, 768, 1024, 2048};
  static const std::int64_t elements[] = {1'000'000, 4'194'304, 16'777'216, 10'000'000};
  const std::int64_t n = pick(rng, sizes);
  const std::int64_t count = pick(rng, elements);
  VariantData v;
  v.params = {{"n", n}, {"elements", count}};
  v.expected_values = {square_matmul_intensity(n),
                       intensity_of(cost_add(static_cast<std::size_t>(count)))};
  return v;
}

// ---- acceleration.gelu-traffic --------------------------------------------------------

VariantData draw_gelu_traffic(Rng& rng, const Fragments&) {
  static const std::int64_t mebi[] = {1, 2, 4, 8, 16, 32};
  const std::int64_t n = pick(rng, mebi) * 1024 * 1024;
  const std::int64_t bandwidth_gb_per_s = rng.integer(8, 60);
  const auto count = static_cast<std::size_t>(n);
  const double unfused_bytes = cost_gelu_unfused(count).bytes;
  const double fused_bytes = cost_gelu_fused(count).bytes;
  VariantData v;
  v.params = {{"elements", n}, {"bandwidth_gb_per_s", bandwidth_gb_per_s}};
  // bytes / (GB/s · 10^9) is seconds; × 10^3 for ms.
  v.expected_values = {unfused_bytes / kMB, fused_bytes / kMB,
                       (unfused_bytes - fused_bytes) /
                           (static_cast<double>(bandwidth_gb_per_s) * 1e9) * 1e3};
  return v;
}

// ---- acceleration.attainable ----------------------------------------------------------

VariantData draw_attainable(Rng& rng, const Fragments&) {
  const auto [peak, bandwidth] = draw_machine(rng);
  // Intensities of real kernels: add (1/12), sum (1/4), fused GELU (9/8), matmuls (N/6).
  static const double intensities[] = {0.083, 0.25, 1.125, 2, 4, 8, 10.7, 21.3, 42.7, 85.3};
  const double intensity = pick(rng, intensities);
  VariantData v;
  v.params = {{"peak_gflops_per_s", peak},
              {"bandwidth_gb_per_s", bandwidth},
              {"intensity", intensity}};
  v.expected_value = attainable_gflops_per_s(static_cast<double>(peak),
                                             static_cast<double>(bandwidth), intensity);
  return v;
}

// ---- acceleration.ridge ---------------------------------------------------------------

VariantData draw_ridge(Rng& rng, const Fragments&) {
  const auto [peak, bandwidth] = draw_machine(rng);
  const double p = static_cast<double>(peak);
  const double b = static_cast<double>(bandwidth);
  // The smallest square matmul that classify() calls compute-bound, found by asking it.
  std::int64_t n = 1;
  while (classify(p, b, square_matmul_intensity(n)) != Bound::Compute) ++n;
  VariantData v;
  v.params = {{"peak_gflops_per_s", peak}, {"bandwidth_gb_per_s", bandwidth}};
  v.expected_values = {ridge_point(p, b), static_cast<double>(n)};
  return v;
}

// ---- acceleration.simd-speedup --------------------------------------------------------

VariantData draw_simd_speedup(Rng& rng, const Fragments&) {
  static const std::int64_t vector_bits[] = {128, 256, 512};
  static const std::int64_t percents[] = {50, 60, 75, 80, 90, 95, 99};
  const std::int64_t bits = pick(rng, vector_bits);
  const bool float64 = rng.integer(0, 3) == 0;  // mostly float32, as this lab's kernels
  const std::int64_t percent = pick(rng, percents);
  const std::int64_t lanes = bits / (float64 ? 64 : 32);
  const double p = static_cast<double>(percent) / 100.0;
  VariantData v;
  v.params = {{"vector_bits", bits},
              {"element", float64 ? "float64" : "float32"},
              {"element_bits", float64 ? 64 : 32},
              {"percent", percent}};
  // Amdahl's law: the vectorized share runs `lanes` times faster, the rest as before.
  v.expected_values = {static_cast<double>(lanes),
                       1.0 / ((1.0 - p) + p / static_cast<double>(lanes))};
  return v;
}

// ---- acceleration.technique -----------------------------------------------------------

// Index of each technique in the exercise's `choices`.
constexpr int kVectorize = 0;
constexpr int kBlock = 1;
constexpr int kFuse = 2;
constexpr int kThreads = 3;

// The scenarios (the data file's fragments), two per technique, walked through one per try.
constexpr PooledQuestion kTechniqueScenarios[] = {
    {"unfused-gelu", kFuse},        {"bandwidth-bound-add", kFuse},
    {"strided-matmul", kBlock},     {"strided-transpose", kBlock},
    {"scalar-polynomial", kVectorize}, {"scalar-dot", kVectorize},
    {"one-core-matmul", kThreads},  {"one-core-exp", kThreads},
};

VariantData draw_technique(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  static const std::int64_t sizes[] = {512, 768, 1024, 2048};
  static const std::int64_t megabytes[] = {64, 128, 256, 512};
  static const std::int64_t cores[] = {4, 6, 8, 12};
  const std::int64_t n = pick(rng, sizes);
  const std::int64_t degree = rng.integer(8, 16);
  const json figures = {{"megabytes", pick(rng, megabytes)}, {"percent", rng.integer(80, 95)},
                        {"n", n},         {"stride_bytes", 4 * n},
                        {"degree", degree}, {"flops", 2 * degree},
                        {"cores", pick(rng, cores)}};
  const PooledQuestion& s = kTechniqueScenarios[pool_item(t, std::size(kTechniqueScenarios))];
  VariantData v;
  v.params = {{"scenario", fragments.render(s.fragment, figures)}};
  shuffle_choices(v, 4, s.answer, rng);
  return v;
}

// ---- acceleration.roofline-position ---------------------------------------------------

// Choices in the bank's order: A's place, then B's (compute-bound adds 2 for A, 1 for B):
// "both left", "A left, B right", "A right, B left", "both right".
struct PlacedOp {
  std::string text;
  bool compute_bound = false;
};

// One operation clearly on the side of the machine's ridge that `compute_bound` asks for (a
// large enough matmul is right of every ridge drawn, an add left of every one).
PlacedOp draw_placed_op(Rng& rng, const Fragments& fragments, std::int64_t peak,
                        std::int64_t bandwidth, bool compute_bound) {
  static const std::int64_t matmul_sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::int64_t kind = rng.integer(0, 3);
    const std::int64_t n = kind == 3 ? pick(rng, matmul_sizes) : 4 * 1024 * 1024;
    const auto count = static_cast<std::size_t>(n);
    // The count as digits, not grouped like a prompt's numbers: "4194304 floats".
    const json counts = {{"floats", std::to_string(n)}, {"n", n}};
    std::string op;
    double intensity = 0;
    switch (kind) {
      case 0: op = fragments.render("add", counts);
              intensity = intensity_of(cost_add(count)); break;
      case 1: op = fragments.render("gelu", counts);
              intensity = intensity_of(cost_gelu_fused(count)); break;
      case 2: op = fragments.render("sum", counts);
              intensity = intensity_of(cost_sum(count)); break;
      default: op = fragments.render("matmul", counts);
               intensity = square_matmul_intensity(n); break;
    }
    const double ridge = ridge_point(static_cast<double>(peak), static_cast<double>(bandwidth));
    const double ratio = intensity / ridge;
    if (ratio > 1.0 / 1.3 && ratio < 1.3) continue;  // too close to the ridge to be fair
    const bool compute =
        classify(static_cast<double>(peak), static_cast<double>(bandwidth), intensity) ==
        Bound::Compute;
    if (compute != compute_bound) continue;
    return {op, compute};
  }
  throw Error("acceleration.roofline-position: no unambiguous operation after 1000 draws");
}

VariantData draw_roofline_position(Rng& rng, const Fragments& fragments, const ChoiceTry&) {
  for (;;) {
    const auto [peak, bandwidth] = draw_machine(rng);
    // The verdicts are steered to be equally likely, so no combination is a better guess; each
    // is decided from the rounded figures, as the student must decide it.
    const bool a_compute = rng.integer(0, 1) == 1;
    const bool b_compute = rng.integer(0, 1) == 1;
    const PlacedOp a = draw_placed_op(rng, fragments, peak, bandwidth, a_compute);
    const PlacedOp b = draw_placed_op(rng, fragments, peak, bandwidth, b_compute);
    if (a.text == b.text) continue;  // two different operations
    VariantData v;
    v.params = {{"peak_gflops_per_s", peak},
                {"bandwidth_gb_per_s", bandwidth},
                {"op_a", a.text},
                {"op_b", b.text}};
    v.correct_choice = (a.compute_bound ? 2 : 0) + (b.compute_bound ? 1 : 0);
    return v;
  }
}

// ---- acceleration.attainable-code -----------------------------------------------------

CodeTest attainable_test(std::string name, double peak, double bandwidth, double intensity) {
  return {std::move(name), json::array({peak, bandwidth, intensity}),
          json(attainable_gflops_per_s(peak, bandwidth, intensity))};
}

VariantData draw_attainable_code(Rng& rng, const Fragments&) {
  const auto [peak_i, bandwidth_i] = draw_machine(rng);
  const double peak = static_cast<double>(peak_i);
  const double bandwidth = static_cast<double>(bandwidth_i);
  const double ridge = ridge_point(peak, bandwidth);
  VariantData v;
  v.tests.push_back(attainable_test("element-wise add (memory-bound)", peak, bandwidth,
                                    intensity_of(cost_add(1024))));
  v.tests.push_back(attainable_test("large matmul (compute-bound)", peak, bandwidth,
                                    square_matmul_intensity(1024)));
  v.tests.push_back(attainable_test("at the ridge point", peak, bandwidth, ridge));
  v.tests.push_back(attainable_test("just below the ridge", peak, bandwidth,
                                    round_to(ridge * rng.uniform(0.5, 0.9), 3)));
  v.tests.push_back(attainable_test("zero intensity", peak, bandwidth, 0));
  // A machine of another class (ten times the roofs), drawn, as every test is.
  const double other_peak = static_cast<double>(rng.integer(500, 4000));
  const double other_bandwidth = static_cast<double>(rng.integer(60, 600));
  const double other_intensity = round_to(rng.uniform(0.5, 20.0), 2);
  v.tests.push_back(attainable_test("another machine", other_peak, other_bandwidth,
                                    other_intensity));
  return v;
}

// ---- acceleration.matmul-loop-order ---------------------------------------------------

// Small integers, so core's float32 reference is exact and the student's float64 sums match
// it to the last bit whatever order they add in.
std::vector<float> small_integers(Rng& rng, std::int64_t count) {
  std::vector<float> values;
  for (std::int64_t i = 0; i < count; ++i) values.push_back(static_cast<float>(rng.integer(-9, 9)));
  return values;
}

CodeTest matmul_test(std::string name, std::int64_t n, Rng& rng) {
  const auto s = static_cast<std::size_t>(n);
  const std::vector<float> a = small_integers(rng, n * n);
  const std::vector<float> b = small_integers(rng, n * n);
  const Tensor product = matmul(Tensor({s, s}, a), Tensor({s, s}, b), "naive");
  const std::vector<float> c(product.data(), product.data() + s * s);
  return {std::move(name), json::array({a, b, n}), json(c)};
}

// 512: B's columns are 4 KiB apart, so the naive loop's column walk misses in every cache
// level on common CPUs (at 256 a large L2 can hold B and i-j-k keeps up with i-k-j in V8).
constexpr std::int64_t kBenchmarkN = 512;

VariantData draw_matmul_loop_order(Rng& rng, const Fragments&) {
  VariantData v;
  v.tests.push_back(matmul_test("1×1", 1, rng));
  v.tests.push_back(matmul_test("2×2", 2, rng));
  v.tests.push_back(matmul_test("7×7 (odd size)", 7, rng));
  v.tests.push_back(matmul_test("16×16", 16, rng));
  v.tests.push_back(matmul_test("33×33", 33, rng));
  CodeTest timed;
  timed.name = "faster than the naive loop at N = " + std::to_string(kBenchmarkN);
  timed.args = json::array();
  timed.benchmark = {{"reference", "matmul-ijk"},
                     {"n", kBenchmarkN},
                     {"rounds", 3},
                     {"seed", rng.integer(1, 1'000'000)}};
  v.tests.push_back(std::move(timed));
  return v;
}

// ---- experiment-backed: the student's own roofline ------------------------------------

// The roofs of the student's run: every row of acceleration-roofline carries them; the first
// row's are used (one probe per run).
std::pair<double, double> measured_roofs(const Exercise& e, const json& rows) {
  return {evidence_number(e, rows, 0, "peak_gflops_per_s"),
          evidence_number(e, rows, 0, "bandwidth_gb_per_s")};
}

void my_ridge_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  const auto [peak, bandwidth] = measured_roofs(e, rows);
  v.expected_values = {ridge_point(peak, bandwidth),
                       attainable_gflops_per_s(peak, bandwidth, intensity_of(cost_add(1)))};
}

// Choices in the bank's order: the smaller N first, the larger second.
constexpr int kBothMemory = 0;
constexpr int kSmallMemoryLargeCompute = 1;
constexpr int kSmallComputeLargeMemory = 2;
constexpr int kBothCompute = 3;

// The two sizes of one try: a smaller and a larger N, drawn so the pair straddles the ridges
// machines have (N/6 from 1.3 to 341 FLOP/byte) and differs from try to try; the verdict
// comes from the student's own run (my_classify_from_evidence).
VariantData draw_my_classify(Rng& rng, const Fragments&, const ChoiceTry&) {
  static const std::int64_t sizes[] = {8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 512, 1024, 2048};
  const auto last = static_cast<std::int64_t>(std::size(sizes)) - 1;
  const std::int64_t i = rng.integer(0, last - 1);
  const std::int64_t j = rng.integer(i + 1, last);
  VariantData v;
  v.params = {{"n_small", sizes[i]}, {"n_large", sizes[j]}};
  return v;
}

void my_classify_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  const auto [peak, bandwidth] = measured_roofs(e, rows);
  const auto n_of = [&](const char* name) { return v.params.at(name).get<std::int64_t>(); };
  const bool small =
      classify(peak, bandwidth, square_matmul_intensity(n_of("n_small"))) == Bound::Compute;
  const bool large =
      classify(peak, bandwidth, square_matmul_intensity(n_of("n_large"))) == Bound::Compute;
  v.correct_choice = small ? (large ? kBothCompute : kSmallComputeLargeMemory)
                           : (large ? kSmallMemoryLargeCompute : kBothMemory);
}

// ---- the chapter's list ---------------------------------------------------------------

}  // namespace

// Each exercise's prose is the entry with the same id in core/exercises/acceleration.json,
// which also sets the order the page shows them in.
std::vector<ExerciseCode> acceleration_exercises() {
  using enum ExerciseKind;
  std::vector<ExerciseCode> all = {
      {.id = "acceleration.intensity", .kind = Numeric, .points = 10, .draw = draw_intensity,
       .parts = {{kOnePercent}, {kOnePercent}}},
      {.id = "acceleration.gelu-traffic", .kind = Numeric, .points = 10,
       .draw = draw_gelu_traffic, .parts = {{kOnePercent}, {kOnePercent}, {kOnePercent}}},
      {.id = "acceleration.attainable", .kind = Numeric, .points = 10, .draw = draw_attainable,
       .tolerance = kOnePercent},
      {.id = "acceleration.ridge", .kind = Numeric, .points = 10, .draw = draw_ridge,
       .parts = {{kOnePercent}, {kNearestInteger}}},
      {.id = "acceleration.simd-speedup", .kind = Numeric, .points = 10,
       .draw = draw_simd_speedup, .parts = {{kNearestInteger, 1.0}, {kOnePercent, 2.0}}},
      {.id = "acceleration.technique", .kind = Choice, .points = 10,
       .draw_try = draw_technique},
      // A hint gives the fused GELU's FLOPs per element: elementwise.hpp's count, not a copy.
      {.id = "acceleration.roofline-position", .kind = Choice, .points = 10,
       .draw_try = draw_roofline_position,
       .constants = {{"gelu_flops_per_element", static_cast<int>(kGeluFlopsPerElement)}}},
      {.id = "acceleration.attainable-code", .kind = Code, .points = 10,
       .draw = draw_attainable_code, .tolerance = {1e-9, 1e-12}},
      // The naive loop takes ~1 s per product at N = 512 on a laptop; 2 × 4 products. The
      // starter code already passes the small tests: the loop order, which only the timed
      // test rewards, earns most of the points.
      {.id = "acceleration.matmul-loop-order", .kind = Code, .points = 15,
       .draw = draw_matmul_loop_order, .tolerance = {1e-9, 1e-9}, .time_limit_ms = 60000,
       .timed_points = 10},
      {.id = "acceleration.my-ridge", .kind = Numeric, .points = 15, .draw = draw_nothing,
       .parts = {{{0.02, 0.0}}, {{0.02, 0.0}}}, .experiment = "acceleration-roofline",
       .from_evidence = my_ridge_from_evidence},
      {.id = "acceleration.my-roofline-classify", .kind = Choice, .points = 20,
       .draw_try = draw_my_classify, .experiment = "acceleration-roofline",
       .from_evidence = my_classify_from_evidence},
  };
  // The parallelism section's, in a file of their own.
  for (ExerciseCode& c : acceleration_parallel_exercises()) all.push_back(std::move(c));
  return all;
}

}  // namespace perflab::detail
