// The Acceleration chapter's exercises: arithmetic intensity, fusion traffic, the roofline
// (attainable bound, ridge point, where an operation sits), SIMD speedup, which technique for
// which workload, two JavaScript functions (attainable(), and a cache-friendly matmul timed
// against the naive loop in the student's own browser), and two questions graded from the
// student's own measured roofline. Every roofline number comes from roofline.hpp (FLOP and
// byte counts, intensity, attainable, ridge, classify); nothing here re-derives them.
// Not for: seeding, rendering or grading (grader.cpp).
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "exercise_bank.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/kernels.hpp"
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

VariantData draw_intensity(Rng& rng) {
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

VariantData draw_gelu_traffic(Rng& rng) {
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

VariantData draw_attainable(Rng& rng) {
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

VariantData draw_ridge(Rng& rng) {
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

VariantData draw_simd_speedup(Rng& rng) {
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

VariantData draw_technique(Rng& rng) {
  static const std::int64_t sizes[] = {512, 768, 1024, 2048};
  static const std::int64_t megabytes[] = {64, 128, 256, 512};
  const auto text = [](std::int64_t x) { return std::to_string(x); };
  const std::int64_t scenario = rng.integer(0, 3);
  std::string prompt;
  int answer = kFuse;
  if (scenario == 0) {
    prompt = "A GELU runs as 8 separate element-wise operations over " +
             text(pick(rng, megabytes)) +
             " MB of activations, each reading its inputs from memory and writing a new "
             "tensor. The profile puts it on the memory roof: it moves data at the machine's "
             "full bandwidth.";
  } else if (scenario == 1) {
    const std::int64_t n = pick(rng, sizes);
    prompt = "A matmul of two " + text(n) + "×" + text(n) +
             " matrices uses the textbook i, j, k loops: the inner loop walks down a column of "
             "B, jumping " + text(4 * n) +
             " bytes between consecutive reads. It reaches a few percent of the machine's "
             "peak, far below both roofs.";
    answer = kBlock;
  } else if (scenario == 2) {
    const std::int64_t degree = rng.integer(8, 16);
    prompt = "A scalar loop evaluates a degree-" + text(degree) +
             " polynomial for every element of an array that fits in the L1 cache: " +
             text(2 * degree) +
             " FLOPs per 4-byte element loaded. It runs at the scalar peak, one float per "
             "instruction.";
    answer = kVectorize;
  } else {
    prompt = "An element-wise add of two " + text(pick(rng, megabytes)) +
             " MB float32 arrays already runs at " + text(rng.integer(80, 95)) +
             "% of the measured memory bandwidth, with SIMD instructions. Its output is read "
             "once more by the next operation, a ReLU.";
  }
  VariantData v;
  v.params = {{"scenario", prompt}};
  shuffle_choices(v, 3, answer, rng);
  return v;
}

// ---- acceleration.roofline-position ---------------------------------------------------

constexpr int kMemoryBound = 0;  // index in the exercise's `choices`
constexpr int kComputeBound = 1;

VariantData draw_roofline_position(Rng& rng) {
  static const std::int64_t matmul_sizes[] = {8, 16, 32, 64, 128, 256, 512, 1024};
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const auto [peak, bandwidth] = draw_machine(rng);
    const std::int64_t kind = rng.integer(0, 3);
    const std::int64_t n = kind == 3 ? pick(rng, matmul_sizes) : 4 * 1024 * 1024;
    const auto count = static_cast<std::size_t>(n);
    std::string op;
    double intensity = 0;
    switch (kind) {
      case 0: op = "an element-wise add of two arrays of " + std::to_string(n) + " floats";
              intensity = intensity_of(cost_add(count)); break;
      case 1: op = "a fused GELU over " + std::to_string(n) + " floats";
              intensity = intensity_of(cost_gelu_fused(count)); break;
      case 2: op = "the sum of " + std::to_string(n) + " floats";
              intensity = intensity_of(cost_sum(count)); break;
      default: op = "a " + std::to_string(n) + "×" + std::to_string(n) + " matmul";
               intensity = square_matmul_intensity(n); break;
    }
    const double ridge = ridge_point(static_cast<double>(peak), static_cast<double>(bandwidth));
    const double ratio = intensity / ridge;
    if (ratio > 1.0 / 1.3 && ratio < 1.3) continue;  // too close to the ridge to be fair
    VariantData v;
    v.params = {{"peak_gflops_per_s", peak}, {"bandwidth_gb_per_s", bandwidth}, {"op", op}};
    v.correct_choice = classify(static_cast<double>(peak), static_cast<double>(bandwidth),
                                intensity) == Bound::Compute
                           ? kComputeBound
                           : kMemoryBound;
    return v;
  }
  throw Error("acceleration.roofline-position: no unambiguous variant after 1000 draws");
}

// ---- acceleration.attainable-code -----------------------------------------------------

CodeTest attainable_test(std::string name, double peak, double bandwidth, double intensity) {
  return {std::move(name), json::array({peak, bandwidth, intensity}),
          json(attainable_gflops_per_s(peak, bandwidth, intensity))};
}

VariantData draw_attainable_code(Rng& rng) {
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
  v.tests.push_back(attainable_test("another machine", 1000, 100, 2.5));
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

VariantData draw_matmul_loop_order(Rng& rng) {
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

VariantData draw_nothing(Rng&) { return {}; }

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

// Choices in the bank's order: N = 64 first, N = 1024 second.
constexpr int kBothMemory = 0;
constexpr int kSmallMemoryLargeCompute = 1;
constexpr int kSmallComputeLargeMemory = 2;
constexpr int kBothCompute = 3;

void my_classify_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  const auto [peak, bandwidth] = measured_roofs(e, rows);
  const bool small = classify(peak, bandwidth, square_matmul_intensity(64)) == Bound::Compute;
  const bool large = classify(peak, bandwidth, square_matmul_intensity(1024)) == Bound::Compute;
  v.correct_choice = small ? (large ? kBothCompute : kSmallComputeLargeMemory)
                           : (large ? kSmallMemoryLargeCompute : kBothMemory);
}

// ---- the chapter's list ---------------------------------------------------------------

Exercise acceleration_exercise(std::string id, std::string title, ExerciseKind kind,
                               int points) {
  Exercise e;
  e.id = "acceleration." + std::move(id);
  e.chapter = "acceleration";
  e.title = std::move(title);
  e.kind = kind;
  e.points = points;
  return e;
}

constexpr Tolerance kOnePercent{0.01, 0.0};
constexpr Tolerance kNearestInteger{0.0, 0.5};
constexpr const char* kTrafficConvention =
    "Count ideal traffic the way this lab's roofline does: float32 (4 bytes), every input "
    "read once and every output written once; a matmul does 2 FLOPs per multiply-accumulate, "
    "an add 1 FLOP per element.";

}  // namespace

std::vector<ExerciseEntry> acceleration_entries() {
  std::vector<ExerciseEntry> entries;

  {
    Exercise e = acceleration_exercise("intensity", "Arithmetic intensity of matmul and add",
                                       ExerciseKind::Numeric, 10);
    e.prompt = std::string(kTrafficConvention) +
               " Give the arithmetic intensity (FLOPs per byte) of a {n}×{n} by {n}×{n} "
               "matmul, and of an element-wise add of two arrays of {elements} floats into a "
               "third.";
    e.hints = {"Intensity = FLOPs / bytes moved.",
               "Matmul: 2·N³ FLOPs; it reads two N×N matrices and writes one: 3·N²·4 bytes.",
               "Add: one FLOP per element; it reads two floats and writes one: 12 bytes per "
               "element, whatever the length."};
    e.grader_reference =
        "matmul: 2N³ / (12N²) = N/6 FLOP/byte; add: n / (12n) = 1/12 FLOP/byte "
        "(roofline.hpp cost_matmul, cost_add)";
    e.parts = {{"Matmul intensity", "FLOP/byte", kOnePercent, 1.0},
               {"Add intensity", "FLOP/byte", kOnePercent, 1.0}};
    entries.push_back({std::move(e), draw_intensity});
  }

  {
    Exercise e = acceleration_exercise("gelu-traffic", "Memory traffic of unfused and fused GELU",
                                       ExerciseKind::Numeric, 10);
    e.prompt =
        "GELU(x) = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) runs over {elements} float32 "
        "values (4 bytes each). The unfused version computes it as eight passes, each writing a "
        "new tensor: six passes read one tensor and write one (x³, ·0.044715, ·√(2/π), tanh, "
        "1 + …, 0.5·…) and two read two tensors and write one (x + …, x · …). The fused version "
        "reads x once and writes the result once. How many MB (10^6 bytes) does each move, and "
        "how many milliseconds does fusion save on a memory bus of {bandwidth_gb_per_s} GB/s, "
        "if both run at that bandwidth?";
    e.hints = {"Per element: a one-input pass moves 4 + 4 bytes, a two-input pass 4 + 4 + 4.",
               "Unfused: 6·8 + 2·12 = 72 bytes per element; fused: 8. Multiply by the element "
               "count, divide by 10^6 for MB.",
               "Time = bytes / (GB/s · 10^9) seconds; the saving is the difference of the two "
               "times, × 1000 for ms."};
    e.grader_reference =
        "unfused 72 bytes/element, fused 8 (roofline.hpp cost_gelu_unfused, cost_gelu_fused); "
        "saved ms = (unfused − fused bytes) / (GB/s · 10^9) · 1000";
    e.parts = {{"Unfused traffic", "MB", kOnePercent, 1.0},
               {"Fused traffic", "MB", kOnePercent, 1.0},
               {"Time saved by fusing", "ms", kOnePercent, 1.0}};
    entries.push_back({std::move(e), draw_gelu_traffic});
  }

  {
    Exercise e = acceleration_exercise("attainable", "Attainable GFLOP/s on the roofline",
                                       ExerciseKind::Numeric, 10);
    e.prompt =
        "A CPU peaks at {peak_gflops_per_s} GFLOP/s and its memory delivers "
        "{bandwidth_gb_per_s} GB/s. By the roofline model, what is the most a kernel with an "
        "arithmetic intensity of {intensity} FLOP/byte can attain, in GFLOP/s?";
    e.hints = {"Memory can feed intensity × bandwidth GFLOP/s (FLOP/byte × GB/s).",
               "The kernel cannot beat the peak either: take the smaller of the two."};
    e.grader_reference = "attainable = min(peak, intensity × bandwidth)";
    e.tolerance = kOnePercent;
    e.unit = "GFLOP/s";
    entries.push_back({std::move(e), draw_attainable});
  }

  {
    Exercise e = acceleration_exercise("ridge", "The ridge point", ExerciseKind::Numeric, 10);
    e.prompt =
        "A CPU peaks at {peak_gflops_per_s} GFLOP/s and its memory delivers "
        "{bandwidth_gb_per_s} GB/s. Where is its ridge point, in FLOP/byte? And what is the "
        "smallest N for which an N×N matmul (ideal intensity N/6 FLOP/byte) is compute-bound "
        "on it, that is at or above the ridge?";
    e.hints = {"The ridge is where the two roofs meet: intensity × bandwidth = peak.",
               "ridge = peak / bandwidth. The matmul is compute-bound once N/6 ≥ ridge: round "
               "6 × ridge up to a whole number."};
    e.grader_reference =
        "ridge = peak / bandwidth; smallest N with N/6 ≥ ridge (roofline.hpp ridge_point, "
        "classify)";
    e.parts = {{"Ridge point", "FLOP/byte", kOnePercent, 1.0},
               {"Smallest compute-bound N", "rows", kNearestInteger, 1.0}};
    entries.push_back({std::move(e), draw_ridge});
  }

  {
    Exercise e = acceleration_exercise("simd-speedup", "Speedup from vectorization",
                                       ExerciseKind::Numeric, 10);
    e.prompt =
        "A CPU's SIMD registers hold {vector_bits} bits, and a loop works on {element} values "
        "({element_bits} bits each). {percent}% of the loop's run time is arithmetic that "
        "vectorizes perfectly; the rest does not speed up at all. How many values does one "
        "vector instruction process, and what is the best overall speedup vectorizing can "
        "give this loop?";
    e.hints = {"Lanes = register width / element width.",
               "Amdahl's law: the new time is (1 − p) + p / lanes of the old one, with p the "
               "vectorizable share.",
               "Speedup = 1 / ((1 − p) + p / lanes)."};
    e.grader_reference = "lanes = vector bits / element bits; speedup = 1 / ((1 − p) + p / lanes)";
    e.parts = {{"Values per vector instruction", "lanes", kNearestInteger, 1.0},
               {"Overall speedup", "×", kOnePercent, 2.0}};
    entries.push_back({std::move(e), draw_simd_speedup});
  }

  {
    Exercise e = acceleration_exercise("technique", "Which technique for which workload",
                                       ExerciseKind::Choice, 10);
    e.prompt = "{scenario} Which change will speed it up most?";
    e.hints = {"First place it: is it limited by memory traffic, by arithmetic, or by neither "
               "(a bad access pattern)?",
               "At the memory roof, faster arithmetic does not help: only moving fewer bytes "
               "does. Far below both roofs, the access pattern is the problem. At the compute "
               "roof of scalar code, more work per instruction helps."};
    e.grader_reference =
        "memory-bound at the roof → fuse (fewer bytes); strided access far below the roofs → "
        "reorder or block the loops for the cache; compute-bound scalar arithmetic → vectorize";
    e.choices = {"Vectorize the loop (SIMD): more FLOPs per instruction",
                 "Reorder or block the loops for the cache: reuse what was loaded",
                 "Fuse the operations into one pass: fewer bytes to and from memory"};
    entries.push_back({std::move(e), draw_technique});
  }

  {
    Exercise e = acceleration_exercise("roofline-position", "Where an operation sits on the roofline",
                                       ExerciseKind::Choice, 10);
    e.prompt =
        std::string(kTrafficConvention) +
        " A machine peaks at {peak_gflops_per_s} GFLOP/s with {bandwidth_gb_per_s} GB/s of "
        "memory bandwidth. Where does {op} sit on its roofline?";
    e.hints = {"Work out the operation's intensity: FLOPs / bytes (a fused GELU: " +
                   std::to_string(static_cast<int>(kGeluFlopsPerElement)) +
                   " FLOPs per 8 bytes; a sum: 1 FLOP per 4 bytes; an N×N matmul: N/6).",
               "Compare it with the ridge point, peak / bandwidth."};
    e.grader_reference =
        "intensity below the ridge (peak / bandwidth) → under the slanted memory roof; at or "
        "above → under the flat compute roof (roofline.hpp classify)";
    e.choices = {"Left of the ridge, under the slanted roof: memory-bound",
                 "Right of the ridge, under the flat roof: compute-bound"};
    entries.push_back({std::move(e), draw_roofline_position});
  }

  {
    Exercise e = acceleration_exercise("attainable-code", "attainable() in JavaScript",
                                       ExerciseKind::Code, 10);
    e.prompt =
        "Write `attainable(peak, bandwidth, intensity)`: the roofline's bound in GFLOP/s for a "
        "kernel of `intensity` FLOP/byte on a machine with `peak` GFLOP/s and `bandwidth` "
        "GB/s.";
    e.hints = {"intensity × bandwidth is what memory can feed, in GFLOP/s.",
               "Return Math.min(peak, intensity * bandwidth)."};
    e.grader_reference = "min(peak, intensity × bandwidth) (roofline.hpp attainable_gflops_per_s)";
    e.tolerance = {1e-9, 1e-12};
    e.function_name = "attainable";
    e.starter_code =
        "function attainable(peak, bandwidth, intensity) {\n"
        "  // GFLOP/s: the lower of the two roofs\n"
        "}";
    entries.push_back({std::move(e), draw_attainable_code});
  }

  {
    Exercise e = acceleration_exercise("matmul-loop-order", "A cache-friendly matmul in JavaScript",
                                       ExerciseKind::Code, 15);
    e.prompt =
        "Write `matmul(a, b, n)`: the product C = A·B of two n×n matrices stored flat in row-"
        "major order (element (i, j) of A is `a[i * n + j]`): plain arrays in the small tests, "
        "Float64Arrays in the timed one. Return C the same way, as an array or Float64Array of "
        "n·n numbers. The starter code is the textbook i, j, k order, whose inner loop reads B "
        "down a column, n·8 bytes apart. Change the loop order so the inner loop walks memory "
        "in order. The last test times your function against the naive loop on this machine "
        "(N = 512, medians of interleaved rounds): it must be at least 1.2× as fast.";
    e.hints = {"Swap the two inner loops: for i, for k, for j. Then the inner loop reads a row "
               "of B and updates a row of C, both consecutive in memory.",
               "With i-k-j, C must start at zero and be accumulated: c[i*n + j] += a[i*n + k] * "
               "b[k*n + j]. Hoist a[i*n + k] out of the inner loop.",
               "Allocate C with new Float64Array(n * n): it starts zeroed and is faster than a "
               "plain array."};
    e.grader_reference =
        "correct products (against core's naive matmul) and, at N = 512, median time at most "
        "1 / 1.2 of the naive i-j-k loop's in the same run";
    e.tolerance = {1e-9, 1e-9};
    e.function_name = "matmul";
    e.starter_code =
        "function matmul(a, b, n) {\n"
        "  const c = new Float64Array(n * n);\n"
        "  for (let i = 0; i < n; i++) {\n"
        "    for (let j = 0; j < n; j++) {\n"
        "      let sum = 0;\n"
        "      for (let k = 0; k < n; k++) sum += a[i * n + k] * b[k * n + j];\n"
        "      c[i * n + j] = sum;\n"
        "    }\n"
        "  }\n"
        "  return c;\n"
        "}";
    e.time_limit_ms = 60000;  // the naive loop takes ~1 s per product at N = 512 on a laptop; 2 × 4 products
    entries.push_back({std::move(e), draw_matmul_loop_order});
  }

  {
    Exercise e = acceleration_exercise("my-ridge", "The ridge point of your machine",
                                       ExerciseKind::Numeric, 15);
    e.prompt =
        "Run the roofline experiment above: it measures your CPU's peak GFLOP/s and memory "
        "bandwidth. What is the ridge point of your machine, in FLOP/byte? And by your "
        "roofline, what is the most an element-wise add of two float32 arrays into a third "
        "(1 FLOP per 12 bytes) can attain on it, in GFLOP/s?";
    e.hints = {"The experiment shows the two roofs it measured: peak GFLOP/s and bandwidth "
               "GB/s.",
               "ridge = peak / bandwidth.",
               "An add's intensity is 1/12 FLOP/byte, far left of any ridge: attainable = "
               "min(peak, bandwidth / 12)."};
    e.grader_reference =
        "ridge = peak_gflops_per_s / bandwidth_gb_per_s of your latest run; add: min(peak, "
        "bandwidth / 12)";
    e.parts = {{"Ridge point of your machine", "FLOP/byte", {0.02, 0.0}, 1.0},
               {"Attainable for an element-wise add", "GFLOP/s", {0.02, 0.0}, 1.0}};
    e.evidence = {"acceleration-roofline", "the roofline experiment",
                  "peak_gflops_per_s and bandwidth_gb_per_s"};
    entries.push_back({std::move(e), draw_nothing, my_ridge_from_evidence});
  }

  {
    Exercise e = acceleration_exercise("my-roofline-classify", "Matmul on your own roofline",
                                       ExerciseKind::Choice, 20);
    e.prompt =
        "On the roofline you measured in the roofline experiment, place a 64×64 and a "
        "1024×1024 float32 matmul at their ideal intensity N/6 FLOP/byte (every matrix read or "
        "written once). Which is compute-bound and which memory-bound on your machine?";
    e.hints = {"Compute your ridge point: measured peak / measured bandwidth.",
               "64/6 ≈ 10.7 and 1024/6 ≈ 171 FLOP/byte: compare each with your ridge."};
    e.grader_reference =
        "intensity N/6 against your ridge point peak / bandwidth: at or above it "
        "compute-bound, below it memory-bound (roofline.hpp classify)";
    e.choices = {"N = 64 memory-bound, N = 1024 memory-bound",
                 "N = 64 memory-bound, N = 1024 compute-bound",
                 "N = 64 compute-bound, N = 1024 memory-bound",
                 "N = 64 compute-bound, N = 1024 compute-bound"};
    e.evidence = {"acceleration-roofline", "the roofline experiment",
                  "peak_gflops_per_s and bandwidth_gb_per_s"};
    entries.push_back({std::move(e), draw_nothing, my_classify_from_evidence});
  }

  return entries;
}

}  // namespace perflab::detail
