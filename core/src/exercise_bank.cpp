// The exercises themselves: texts, points, hints and the per-seed draw of parameters and
// answers. Each draw rounds its parameters first and computes the answer from the rounded
// values, so the numbers the student reads are exactly the numbers graded.
// Not for: seeding, rendering or grading (grader.cpp does those for every exercise).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <utility>

#include "exercise_bank.hpp"
#include "perflab/error.hpp"
#include "perflab/timer.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

double round_to(double x, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(x * scale) / scale;
}

template <typename T>
void shuffle(std::vector<T>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) {
    const auto j = static_cast<std::size_t>(rng.integer(0, static_cast<std::int64_t>(i) - 1));
    std::swap(v[i - 1], v[j]);
  }
}

// ---- profiling.linear-params ----------------------------------------------------------

VariantData draw_linear_params(Rng& rng) {
  // Layer widths students meet in practice: MNIST's 784, ImageNet's 1000 classes and the
  // powers of two (and 1.5×) of MLPs and transformer hidden sizes.
  static const std::int64_t widths[] = {64,  128,  256,  384,  512,  768, 784,
                                        1000, 1024, 1536, 2048, 3072, 4096};
  const auto pick = [&] {
    return widths[rng.integer(0, static_cast<std::int64_t>(std::size(widths)) - 1)];
  };
  const std::int64_t in = pick();
  const std::int64_t out = pick();
  VariantData v;
  v.params = {{"in", in}, {"out", out}};
  v.expected_value = static_cast<double>(in * out + out);
  return v;
}

// ---- profiling.bound-classify ---------------------------------------------------------

// Index of each choice in the exercise's `choices`.
constexpr int kComputeBound = 0;
constexpr int kMemoryBound = 1;

VariantData draw_bound_classify(Rng& rng) {
  // The coin flip only steers the draw so both answers are common; the answer itself is
  // decided below from the rounded figures, the way the student must decide it.
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::int64_t peak_gflops_per_s = rng.integer(16, 400);  // one core to a few, SIMD
    const std::int64_t bandwidth_gb_per_s = rng.integer(8, 60);   // laptop to workstation DRAM
    const bool steer_compute = rng.integer(0, 1) == 1;
    const double ridge = static_cast<double>(peak_gflops_per_s) / bandwidth_gb_per_s;
    const double factor = rng.uniform(1.5, 8.0);
    const double intensity_target = steer_compute ? ridge * factor : ridge / factor;
    const std::int64_t kernel_mb = rng.integer(8, 1024);
    const auto kernel_mflop =
        static_cast<std::int64_t>(std::llround(static_cast<double>(kernel_mb) * intensity_target));
    if (kernel_mflop < 1) continue;
    // MFLOP / MB = FLOP/byte and GFLOP/s / GB/s = FLOP/byte: the same unit.
    const double intensity = static_cast<double>(kernel_mflop) / static_cast<double>(kernel_mb);
    const double ratio = intensity / ridge;
    if (ratio > 1.0 / 1.2 && ratio < 1.2) continue;  // too close to the ridge to be fair
    VariantData v;
    v.params = {{"peak_gflops_per_s", peak_gflops_per_s},
                {"bandwidth_gb_per_s", bandwidth_gb_per_s},
                {"kernel_mflop", kernel_mflop},
                {"kernel_mb", kernel_mb}};
    v.correct_choice = intensity > ridge ? kComputeBound : kMemoryBound;
    return v;
  }
  throw Error("profiling.bound-classify: no unambiguous variant after 1000 draws");
}

// ---- profiling.median -----------------------------------------------------------------

std::vector<double> sorted_integers(Rng& rng, int n, std::int64_t lo, std::int64_t hi) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<double>(rng.integer(lo, hi)));
  std::sort(v.begin(), v.end());
  return v;
}

CodeTest median_test(std::string name, const std::vector<double>& times) {
  return {std::move(name), json::array({json(times)}), json(median(times))};
}

VariantData draw_median(Rng& rng) {
  VariantData v;

  v.tests.push_back(median_test("odd length", sorted_integers(rng, 5, 1, 99)));

  // Middle pair with an odd sum, so the median is x.5 and returning one middle value fails.
  std::vector<double> even;
  do {
    even = sorted_integers(rng, 6, 1, 99);
  } while (static_cast<std::int64_t>(even[2] + even[3]) % 2 == 0);
  v.tests.push_back(median_test("even length", even));

  // Unsorted so that the element in the middle position is not the median.
  std::vector<double> unsorted;
  do {
    unsorted = sorted_integers(rng, 7, 1, 99);
    shuffle(unsorted, rng);
  } while (unsorted[3] == median(unsorted));
  v.tests.push_back(median_test("unsorted", unsorted));

  v.tests.push_back(median_test("single element", {round_to(rng.uniform(0.1, 50.0), 2)}));

  // Three distinct values repeated over eight entries.
  std::vector<double> distinct = sorted_integers(rng, 3, 1, 30);
  std::vector<double> duplicates;
  for (int i = 0; i < 8; ++i) {
    duplicates.push_back(distinct[static_cast<std::size_t>(rng.integer(0, 2))]);
  }
  v.tests.push_back(median_test("duplicates", duplicates));

  std::vector<double> mixed;
  for (int i = 0; i < 8; ++i) mixed.push_back(round_to(rng.uniform(-50.0, 50.0), 2));
  v.tests.push_back(median_test("negative and decimal values", mixed));

  // Timing-like samples: mostly near a base time, a few slow outliers (a GC pause).
  const double base_ms = rng.uniform(1.0, 5.0);
  std::vector<double> samples;
  for (int i = 0; i < 101; ++i) {
    const bool outlier = rng.uniform() < 0.05;
    const double t = outlier ? base_ms * rng.uniform(3.0, 10.0) : base_ms * rng.uniform(1.0, 1.2);
    samples.push_back(round_to(t, 3));
  }
  v.tests.push_back(median_test("long array (101 values)", samples));
  return v;
}

std::vector<ExerciseEntry> make_entries() {
  std::vector<ExerciseEntry> entries;

  {
    Exercise e;
    e.id = "profiling.linear-params";
    e.chapter = "profiling";
    e.title = "Parameters of a Linear layer";
    e.prompt =
        "A Linear layer maps {in} input features to {out} output features and has a bias. "
        "How many trainable parameters does it have?";
    e.kind = ExerciseKind::Numeric;
    e.points = 10;
    e.hints = {"The weight matrix has one entry per (input, output) pair.",
               "Don't forget the bias: one per output."};
    e.grader_reference = "parameters = in·out + out (weights + bias)";
    e.tolerance = {0.0, 0.5};
    e.unit = "parameters";
    entries.push_back({std::move(e), draw_linear_params});
  }

  {
    Exercise e;
    e.id = "profiling.bound-classify";
    e.chapter = "profiling";
    e.title = "Compute-bound or memory-bound?";
    e.prompt =
        "A CPU peaks at {peak_gflops_per_s} GFLOP/s and its memory delivers "
        "{bandwidth_gb_per_s} GB/s. A kernel performs {kernel_mflop} MFLOP and moves "
        "{kernel_mb} MB between memory and the CPU. On this machine, is the kernel "
        "compute-bound or memory-bound?";
    e.kind = ExerciseKind::Choice;
    e.points = 10;
    e.hints = {
        "Arithmetic intensity is work per byte moved: FLOPs divided by bytes. "
        "MFLOP / MB gives FLOP/byte.",
        "The ridge point is the intensity at which the machine is balanced: peak compute "
        "divided by bandwidth. GFLOP/s / GB/s also gives FLOP/byte.",
        "Below the ridge point memory cannot feed the CPU fast enough; above it, the "
        "arithmetic units are the limit."};
    e.grader_reference =
        "intensity = MFLOP / MB and ridge = GFLOP/s / GB/s (both FLOP/byte); "
        "compute-bound when intensity > ridge, memory-bound when below";
    e.choices = {"compute-bound", "memory-bound"};
    entries.push_back({std::move(e), draw_bound_classify});
  }

  {
    Exercise e;
    e.id = "profiling.median";
    e.chapter = "profiling";
    e.title = "Median of timing samples";
    e.prompt =
        "Benchmarks report the median time because a few slow samples (a garbage-collection "
        "pause, another busy tab) barely move it. Write median(times): given an array of "
        "times in milliseconds, return their median. For an even number of values, return "
        "the mean of the two middle values. The array may be in any order.";
    e.kind = ExerciseKind::Code;
    e.points = 15;
    e.hints = {
        "Sort a copy first. Without a compare function, sort() orders numbers as strings "
        "(10 before 9): use (a, b) => a - b.",
        "With n sorted values, the middle one is at index (n - 1) / 2 when n is odd; when n "
        "is even, average the values at n / 2 - 1 and n / 2."};
    e.grader_reference =
        "sort ascending; odd length: the middle value; even length: the mean of the two "
        "middle values";
    // Even-length medians are a mean of two doubles, which students may compute in another
    // order (a + (b - a) / 2): allow rounding differences, nothing more.
    e.tolerance = {1e-9, 1e-12};
    e.function_name = "median";
    e.starter_code = "function median(times) {\n  // return the median of an array of numbers\n}";
    e.time_limit_ms = 2000;
    entries.push_back({std::move(e), draw_median});
  }

  return entries;
}

}  // namespace

const std::vector<ExerciseEntry>& exercise_entries() {
  static const std::vector<ExerciseEntry> entries = make_entries();
  return entries;
}

}  // namespace perflab::detail
