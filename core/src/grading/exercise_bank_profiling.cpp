// The Profiling chapter's exercises as C++: kind, points, tolerances and the per-seed draw
// of parameters and answers; their texts are core/exercises/profiling.json. Each draw rounds
// its parameters first and computes the answer from the rounded values, so the numbers the
// student reads are exactly the numbers graded.
// FLOPs follow docs/MODEL_SPEC.md: 2 per multiply-accumulate, per sample, bias excluded.
// countParameters' expected counts come from core's own Model, and the experiment-backed
// exercises compute their answer from the rows of the student's run (grader.hpp).
// Not for: prose (the data file); seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>

#include "perflab/detail/exercise_bank.hpp"
#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/timing/timer.hpp"
#include "perflab/model/zoo.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// Layer widths students meet in practice: MNIST's 784, ImageNet's 1000 classes and the
// powers of two (and 1.5×) of MLPs and transformer hidden sizes.
constexpr std::int64_t kWidths[] = {64,  128,  256,  384,  512,  768, 784,
                                    1000, 1024, 1536, 2048, 3072, 4096};

// ---- profiling.linear-params ----------------------------------------------------------

VariantData draw_linear_params(Rng& rng, const Fragments&) {
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, kWidths);
  VariantData v;
  v.params = {{"in", in}, {"out", out}};
  v.expected_value = static_cast<double>(in * out + out);
  return v;
}

// ---- profiling.ffn-param-memory -------------------------------------------------------

VariantData draw_ffn_param_memory(Rng& rng, const Fragments&) {
  static const std::int64_t inputs[] = {256, 512, 768, 784, 1024, 3072};
  static const std::int64_t hidden[] = {128, 256, 384, 512, 1024, 2048};
  static const std::int64_t outputs[] = {2, 10, 100, 1000};
  const std::int64_t d_in = pick(rng, inputs);
  const std::int64_t h1 = pick(rng, hidden);
  const std::int64_t h2 = pick(rng, hidden);
  const std::int64_t d_out = pick(rng, outputs);
  const std::int64_t parameters = (d_in * h1 + h1) + (h1 * h2 + h2) + (h2 * d_out + d_out);
  VariantData v;
  v.params = {{"d_in", d_in}, {"h1", h1}, {"h2", h2}, {"d_out", d_out}};
  v.expected_value = static_cast<double>(parameters * 4);  // float32
  return v;
}

// ---- profiling.adam-memory ------------------------------------------------------------

VariantData draw_adam_memory(Rng& rng, const Fragments&) {
  // 2 M to 400 M parameters in steps of 100,000: a small CNN to a mid-sized transformer.
  const std::int64_t parameters = rng.integer(20, 4000) * 100'000;
  VariantData v;
  v.params = {{"parameters", parameters}};
  // parameters, gradients, Adam's m and v: four float32 values per parameter.
  constexpr double kBytesPerMiB = 1024.0 * 1024.0;
  v.expected_value = static_cast<double>(parameters) * 4 * 4 / kBytesPerMiB;
  return v;
}

// ---- profiling.linear-flops -----------------------------------------------------------

VariantData draw_linear_flops(Rng& rng, const Fragments&) {
  static const std::int64_t batches[] = {8, 16, 32, 64, 128, 256};
  static const std::int64_t rates[] = {10, 20, 25, 40, 50, 80, 100, 150, 200, 400};
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, kWidths);
  const std::int64_t batch = pick(rng, batches);
  const std::int64_t gflops_per_s = pick(rng, rates);
  const double per_sample = 2.0 * static_cast<double>(in * out);
  const double per_batch = per_sample * static_cast<double>(batch);
  VariantData v;
  v.params = {{"in", in}, {"out", out}, {"batch", batch}, {"gflops_per_s", gflops_per_s}};
  // FLOPs / (GFLOP/s · 1e9) is seconds; × 1e3 for ms.
  v.expected_values = {per_sample, per_batch,
                       per_batch / (static_cast<double>(gflops_per_s) * 1e9) * 1e3};
  return v;
}

// ---- profiling.flops-batch ------------------------------------------------------------

// Index of each choice in the exercise's `choices`.
constexpr int kStaysTheSame = 0;
constexpr int kGrows = 1;
constexpr int kShrinks = 2;
constexpr int kDependsOnMachine = 3;

// The quantities the question asks about (the data file's fragments), two per answer, so a
// wrong try's answer says nothing about the next try's quantity.
constexpr PooledQuestion kBatchQuantities[] = {
    {"flops-per-sample", kStaysTheSame},  {"weights", kStaysTheSame},
    {"flops-per-pass", kGrows},           {"output-bytes", kGrows},
    {"weight-bytes-per-sample", kShrinks}, {"passes-per-dataset", kShrinks},
    {"time-per-sample", kDependsOnMachine}, {"gflops", kDependsOnMachine},
};

VariantData draw_flops_batch(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  static const std::int64_t small_batches[] = {1, 2, 4, 8, 16};
  static const std::int64_t ratios[] = {2, 4, 8, 16, 32};
  static const std::int64_t datasets[] = {10'240, 51'200, 102'400};
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, kWidths);
  const std::int64_t batch_small = pick(rng, small_batches);
  const std::int64_t ratio = pick(rng, ratios);
  const PooledQuestion& q = kBatchQuantities[pool_item(t, std::size(kBatchQuantities))];
  VariantData v;
  v.params = {{"in", in},
              {"out", out},
              {"batch_small", batch_small},
              {"batch_large", batch_small * ratio},
              {"ratio", ratio}};
  json figures = v.params;  // what the quantity's text may name besides the prompt's figures
  figures["dataset"] = pick(rng, datasets);
  v.params["quantity"] = fragments.render(q.fragment, figures);
  shuffle_choices(v, 4, q.answer, rng);
  return v;
}

// ---- profiling.conv-output ------------------------------------------------------------

VariantData draw_conv_output(Rng& rng, const Fragments&) {
  static const std::int64_t sizes[] = {28, 32, 56, 64, 112, 224};
  static const std::int64_t kernels[] = {1, 3, 5, 7};
  static const std::int64_t in_channels[] = {1, 3, 16, 32, 64};
  static const std::int64_t out_channels[] = {8, 16, 32, 64, 128};
  const std::int64_t size = pick(rng, sizes);
  const std::int64_t kernel = pick(rng, kernels);
  const std::int64_t stride = rng.integer(1, 2);
  // No padding, or "same" padding (kernel / 2), the two choices met most often.
  const std::int64_t padding = rng.integer(0, 1) == 1 ? kernel / 2 : 0;
  const std::int64_t c_in = pick(rng, in_channels);
  const std::int64_t c_out = pick(rng, out_channels);
  // Integer division floors, as the layer does: a last window that does not fit is dropped.
  const std::int64_t h_out = (size + 2 * padding - kernel) / stride + 1;
  const double flops = 2.0 * static_cast<double>(c_out * h_out * h_out * c_in * kernel * kernel);
  VariantData v;
  v.params = {{"in_channels", c_in}, {"out_channels", c_out}, {"kernel", kernel},
              {"stride", stride},    {"padding", padding},    {"size", size}};
  v.expected_values = {static_cast<double>(h_out), flops};
  return v;
}

// ---- profiling.efficiency -------------------------------------------------------------

VariantData draw_efficiency(Rng& rng, const Fragments&) {
  const std::int64_t peak_gflops_per_s = rng.integer(16, 400);  // one core to a few, SIMD
  // Naive loops reach a few percent of peak, a tuned kernel most of it.
  const double achieved_gflops_per_s =
      std::max(0.1, round_to(rng.uniform(0.02, 0.9) * static_cast<double>(peak_gflops_per_s), 1));
  VariantData v;
  v.params = {{"achieved_gflops_per_s", achieved_gflops_per_s},
              {"peak_gflops_per_s", peak_gflops_per_s}};
  v.expected_value = 100.0 * achieved_gflops_per_s / static_cast<double>(peak_gflops_per_s);
  return v;
}

// ---- profiling.bound-classify ---------------------------------------------------------

// Choices in the bank's order: kernel A's verdict, then B's (memory-bound adds 2 for A, 1
// for B): "A compute, B compute", "A compute, B memory", "A memory, B compute", "A memory,
// B memory".
struct Kernel {
  std::int64_t mflop = 0;
  std::int64_t mb = 0;
  bool compute_bound = false;
};

// One kernel clearly on one side of the ridge. The coin flip only steers the draw so both
// answers are common; the verdict is decided from the rounded figures, the way the student
// must decide it.
Kernel draw_kernel(Rng& rng, double ridge) {
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const bool steer_compute = rng.integer(0, 1) == 1;
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
    return {kernel_mflop, kernel_mb, intensity > ridge};
  }
  throw Error("profiling.bound-classify: no unambiguous kernel after 1000 draws");
}

VariantData draw_bound_classify(Rng& rng, const Fragments&, const ChoiceTry&) {
  const std::int64_t peak_gflops_per_s = rng.integer(16, 400);  // one core to a few, SIMD
  const std::int64_t bandwidth_gb_per_s = rng.integer(8, 60);   // laptop to workstation DRAM
  const double ridge = static_cast<double>(peak_gflops_per_s) / bandwidth_gb_per_s;
  const Kernel a = draw_kernel(rng, ridge);
  const Kernel b = draw_kernel(rng, ridge);
  VariantData v;
  v.params = {{"peak_gflops_per_s", peak_gflops_per_s},
              {"bandwidth_gb_per_s", bandwidth_gb_per_s},
              {"a_mflop", a.mflop},
              {"a_mb", a.mb},
              {"b_mflop", b.mflop},
              {"b_mb", b.mb}};
  v.correct_choice = (a.compute_bound ? 0 : 2) + (b.compute_bound ? 0 : 1);
  return v;
}

// ---- profiling.latency-statistic ------------------------------------------------------

// Index of each statistic in the exercise's `choices`.
constexpr int kReportMedian = 0;
constexpr int kReportMean = 1;
constexpr int kReportMin = 2;
constexpr int kReportMax = 3;

// The questions (the data file's fragments), one per statistic.
constexpr PooledQuestion kLatencyQuestions[] = {
    {"typical", kReportMedian}, {"total", kReportMean},
    {"best-case", kReportMin},  {"budget", kReportMax}};
constexpr std::int64_t kLatencyRuns[] = {1000, 10'000, 100'000};

// "4.21, 4.2, 4.35": the numbers as the prompt prints any other parameter.
std::string join_numbers(const std::vector<double>& values) {
  std::string text;
  for (double x : values) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", x);
    text += (text.empty() ? "" : ", ") + std::string(buf);
  }
  return text;
}

VariantData draw_latency_statistic(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  // Eight runs within a few percent of a base time, and one that a garbage-collection pause
  // or another busy tab made 5-12× slower: the mean moves a lot, the median hardly.
  const double base_ms = rng.uniform(1.5, 20.0);
  std::vector<double> samples_ms;
  double min_ms = 0;
  do {
    samples_ms.clear();
    for (int i = 0; i < 9; ++i) {
      samples_ms.push_back(round_to(base_ms * rng.uniform(0.95, 1.08), 2));
    }
    samples_ms[static_cast<std::size_t>(rng.integer(0, 8))] =
        round_to(base_ms * rng.uniform(5.0, 12.0), 2);
    min_ms = *std::min_element(samples_ms.begin(), samples_ms.end());
  } while (min_ms == median(samples_ms));  // four distinct numbers in the four choices
  const double mean_ms = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) /
                         static_cast<double>(samples_ms.size());
  VariantData v;
  v.params = {{"samples_ms", samples_ms},
              {"samples_text", join_numbers(samples_ms)},
              {"median_ms", median(samples_ms)},
              {"mean_ms", round_to(mean_ms, 2)},
              {"min_ms", min_ms},
              {"max_ms", *std::max_element(samples_ms.begin(), samples_ms.end())}};
  const PooledQuestion& q = kLatencyQuestions[pool_item(t, std::size(kLatencyQuestions))];
  v.params["question"] = fragments.render(q.fragment, {{"runs", pick(rng, kLatencyRuns)}});
  shuffle_choices(v, 4, q.answer, rng);
  return v;
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

VariantData draw_median(Rng& rng, const Fragments&) {
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

// ---- profiling.measure-latency --------------------------------------------------------

// A test in the sandbox's fake-clock description (grader.hpp): fn's k-th call costs
// costs_ms[k]; the first `warmup` calls must not be timed, so the answer is the median of
// the rest.
CodeTest latency_test(std::string name, int warmup, const std::vector<double>& costs_ms,
                      double start_ms) {
  const std::vector<double> timed(costs_ms.begin() + warmup, costs_ms.end());
  const json args = json::array(
      {{{"$fake_fn", {{"costs_ms", costs_ms}}}},
       {{"warmup", warmup}, {"iterations", static_cast<int>(timed.size())}},
       {{"$fake_clock", {{"start_ms", start_ms}}}}});
  return {std::move(name), args, json(median(timed))};
}

VariantData draw_measure_latency(Rng& rng, const Fragments&) {
  const double base_ms = rng.uniform(0.5, 8.0);
  // The clock does not start at 0, so using clock.now() itself as a duration fails.
  const double start_ms = round_to(rng.uniform(100.0, 5000.0), 3);
  const auto steady = [&] { return round_to(base_ms * rng.uniform(0.9, 1.2), 3); };
  // First calls are slow (cold caches, an unoptimised JIT tier): timing them shifts the median.
  const auto cold = [&] { return round_to(base_ms * rng.uniform(5.0, 20.0), 3); };
  // Costs for one test: `warmup` cold calls, then steady ones with `outliers` of them made
  // 10-30× slower (a GC pause). Redrawn until timing the warmup calls too gives another
  // median, and the mean of the timed calls differs from their median whenever there are
  // outliers, so that either mistake fails the test.
  const auto costs = [&](int warmup, int iterations, int outliers) {
    for (;;) {
      std::vector<double> c;
      for (int i = 0; i < warmup; ++i) c.push_back(cold());
      for (int i = 0; i < iterations; ++i) c.push_back(steady());
      for (int i = 0; i < outliers; ++i) {
        c[static_cast<std::size_t>(warmup + rng.integer(0, iterations - 1))] =
            round_to(base_ms * rng.uniform(10.0, 30.0), 3);
      }
      const std::vector<double> timed(c.begin() + warmup, c.end());
      const double m = median(timed);
      const double mean = std::accumulate(timed.begin(), timed.end(), 0.0) / iterations;
      const bool warmup_shows = warmup == 0 || std::fabs(median(c) - m) > 1e-3;
      const bool mean_shows = outliers == 0 || std::fabs(mean - m) > 1e-3;
      // An even count: two distinct middle values, so their mean is not a sample.
      const bool even_shows =
          iterations % 2 == 1 || std::count(timed.begin(), timed.end(), m) == 0;
      if (warmup_shows && mean_shows && even_shows) return c;
    }
  };
  VariantData v;
  v.tests.push_back(latency_test("no warmup, 5 iterations", 0, costs(0, 5, 0), start_ms));
  v.tests.push_back(latency_test("3 warmup calls are not timed", 3, costs(3, 5, 0), start_ms));
  v.tests.push_back(latency_test("an even number of iterations", 1, costs(1, 6, 0), start_ms));
  v.tests.push_back(latency_test("one slow outlier", 2, costs(2, 9, 1), start_ms));
  v.tests.push_back(latency_test("a single iteration", 2, costs(2, 1, 0), start_ms));
  v.tests.push_back(latency_test("51 iterations with a few outliers", 5, costs(5, 51, 4), start_ms));
  return v;
}

// ---- profiling.count-linear-flops -----------------------------------------------------

CodeTest linear_flops_test(std::string name, std::int64_t in, std::int64_t out) {
  return {std::move(name), json::array({in, out}), json(2 * in * out)};
}

VariantData draw_count_linear_flops(Rng& rng, const Fragments&) {
  static const std::int64_t wide[] = {1024, 1536, 2048, 3072, 4096};
  static const std::int64_t narrow[] = {3, 10, 16, 64, 128};
  // One draw per statement: the order of a call's arguments is the compiler's choice, and
  // the page's build and the native CLI must draw the same numbers.
  VariantData v;
  const std::int64_t n = pick(rng, kWidths);
  v.tests.push_back(linear_flops_test("square layer", n, n));
  const std::int64_t wide_in = pick(rng, wide);
  const std::int64_t narrow_out = pick(rng, narrow);
  v.tests.push_back(linear_flops_test("wide to narrow", wide_in, narrow_out));
  const std::int64_t narrow_in = pick(rng, narrow);
  const std::int64_t wide_out = pick(rng, wide);
  v.tests.push_back(linear_flops_test("narrow to wide", narrow_in, wide_out));
  v.tests.push_back(linear_flops_test("one input feature", 1, pick(rng, kWidths)));
  // Drawn like the others, so a re-grade's hidden tests (grader.hpp) are fresh inputs too.
  static const std::int64_t d_models[] = {384, 512, 768, 1024, 1280, 1536, 2048};
  const std::int64_t d_model = pick(rng, d_models);
  v.tests.push_back(linear_flops_test("a transformer FFN layer (d_model → 4·d_model)", d_model,
                                      4 * d_model));
  return v;
}

// ---- profiling.count-conv2d-flops -----------------------------------------------------

CodeTest conv_flops_test(std::string name, std::int64_t c_in, std::int64_t c_out,
                         std::int64_t kernel, std::int64_t h_out, std::int64_t w_out) {
  return {std::move(name), json::array({c_in, c_out, kernel, h_out, w_out}),
          json(2 * c_in * c_out * kernel * kernel * h_out * w_out)};
}

VariantData draw_count_conv2d_flops(Rng& rng, const Fragments&) {
  static const std::int64_t mid_channels[] = {16, 32, 64, 128};
  static const std::int64_t deep_channels[] = {64, 128, 256, 512};
  static const std::int64_t maps[] = {7, 14, 28, 56};
  static const std::int64_t odd_kernels[] = {3, 5, 7};
  // One draw per statement, as in draw_count_linear_flops.
  VariantData v;
  const std::int64_t hw = pick(rng, maps);
  const std::int64_t c_in_3x3 = pick(rng, mid_channels);
  const std::int64_t c_out_3x3 = pick(rng, mid_channels);
  v.tests.push_back(conv_flops_test("3×3 kernel", c_in_3x3, c_out_3x3, 3, hw, hw));
  const std::int64_t pw = pick(rng, maps);
  const std::int64_t c_in_1x1 = pick(rng, deep_channels);
  const std::int64_t c_out_1x1 = pick(rng, deep_channels);
  v.tests.push_back(conv_flops_test("1×1 kernel (pointwise)", c_in_1x1, c_out_1x1, 1, pw, pw));
  // hOut ≠ wOut, so swapping them or squaring one of them fails.
  const std::int64_t h_out = rng.integer(8, 40);
  std::int64_t w_out = 0;
  do {
    w_out = rng.integer(8, 40);
  } while (w_out == h_out);
  const std::int64_t c_in = pick(rng, mid_channels);
  const std::int64_t c_out = pick(rng, mid_channels);
  const std::int64_t kernel = pick(rng, odd_kernels);
  v.tests.push_back(conv_flops_test("non-square output", c_in, c_out, kernel, h_out, w_out));
  const std::int64_t one_kernel = pick(rng, odd_kernels);
  const std::int64_t one_h = pick(rng, maps);
  const std::int64_t one_w = pick(rng, maps);
  v.tests.push_back(conv_flops_test("one channel in and out", 1, 1, one_kernel, one_h, one_w));
  // A ResNet-like stem: 3 channels in, a 7×7 kernel; drawn, as every test is.
  static const std::int64_t stem_channels[] = {32, 48, 64, 96};
  static const std::int64_t stem_maps[] = {56, 64, 112, 128};
  const std::int64_t stem_out = pick(rng, stem_channels);
  const std::int64_t stem_hw = pick(rng, stem_maps);
  v.tests.push_back(conv_flops_test("ResNet-like stem (3 channels in, 7×7 kernel)", 3, stem_out,
                                    7, stem_hw, stem_hw));
  return v;
}

// ---- profiling.count-parameters -------------------------------------------------------

// The expected count is core's own: the spec is built into a Model (which checks that the
// shapes chain) and asked for its parameter count.
CodeTest parameters_test(std::string name, json spec) {
  const double count = static_cast<double>(model_from_json(spec).parameter_count());
  return {std::move(name), json::array({std::move(spec)}), json(count)};
}

json linear(std::int64_t in, std::int64_t out) {
  return {{"type", "Linear"}, {"in", in}, {"out", out}};
}

VariantData draw_count_parameters(Rng& rng, const Fragments&) {
  static const std::int64_t small_widths[] = {16, 32, 64, 100, 128, 256};
  static const std::int64_t classes[] = {2, 10, 100};
  VariantData v;

  // One layer, the bias left at its default (true).
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, small_widths);
  v.tests.push_back(parameters_test(
      "one Linear layer (bias by default)",
      {{"name", "linear"}, {"input", {1, in}}, {"layers", json::array({linear(in, out)})}}));

  // An MLP whose last layer has no bias, so ignoring "bias": false fails.
  const std::int64_t d_in = pick(rng, kWidths);
  const std::int64_t h = pick(rng, small_widths);
  const std::int64_t d_out = pick(rng, classes);
  json last = linear(h, d_out);
  last["bias"] = false;
  v.tests.push_back(parameters_test(
      "MLP with ReLU, last layer without bias",
      {{"name", "mlp"},
       {"input", {8, d_in}},
       {"layers", json::array({linear(d_in, h), {{"type", "ReLU"}}, linear(h, h),
                               {{"type", "ReLU"}}, std::move(last)})}}));

  // A small CNN: Conv2d (bias by default), a second without bias, pooling, then a Linear
  // whose input width is what Flatten yields (asked of core, not computed here).
  static const std::int64_t sizes[] = {16, 28, 32};
  static const std::int64_t channels[] = {4, 8, 16};
  const std::int64_t size = pick(rng, sizes);
  const std::int64_t c_in = rng.integer(1, 3);
  const std::int64_t c1 = pick(rng, channels);
  const std::int64_t c2 = pick(rng, channels);
  const std::int64_t k1 = rng.integer(0, 1) == 1 ? 3 : 5;
  json cnn_layers = json::array(
      {{{"type", "Conv2d"}, {"in_channels", c_in}, {"out_channels", c1}, {"kernel", k1},
        {"padding", k1 / 2}},
       {{"type", "ReLU"}},
       {{"type", "MaxPool2d"}, {"kernel", 2}},
       {{"type", "Conv2d"}, {"in_channels", c1}, {"out_channels", c2}, {"kernel", 3},
        {"bias", false}},
       {{"type", "ReLU"}},
       {{"type", "Flatten"}}});
  json cnn = {{"name", "cnn"}, {"input", {1, c_in, size, size}}, {"layers", cnn_layers}};
  const Shape flat = model_from_json(cnn).output_shape();
  cnn["layers"].push_back(linear(static_cast<std::int64_t>(flat.back()), pick(rng, classes)));
  v.tests.push_back(parameters_test("small CNN (Conv2d, MaxPool2d, Flatten, Linear)", cnn));

  // LayerNorm has a scale and a shift per feature; GELU, Softmax nothing.
  const std::int64_t features = pick(rng, small_widths);
  v.tests.push_back(parameters_test(
      "LayerNorm, GELU and Softmax",
      {{"name", "norm"},
       {"input", {4, features}},
       {"layers", json::array({{{"type", "LayerNorm"}, {"features", features}},
                               {{"type", "GELU"}},
                               linear(features, features),
                               {{"type", "Softmax"}}})}}));

  // Attention: four D×D projections with biases.
  static const std::int64_t d_models[] = {32, 48, 64, 96, 128};
  static const std::int64_t heads[] = {1, 2, 4, 8};
  const std::int64_t d_model = pick(rng, d_models);
  const std::int64_t attention_heads = pick(rng, heads);
  v.tests.push_back(parameters_test(
      "MultiHeadAttention",
      {{"name", "attention"},
       {"input", {1, 16, d_model}},
       {"layers", json::array({{{"type", "MultiHeadAttention"},
                                {"d_model", d_model},
                                {"heads", attention_heads}}})}}));

  // A transformer block: two LayerNorms, attention and a two-layer FFN.
  const std::int64_t d_block = pick(rng, d_models);
  const std::int64_t d_ff = d_block * rng.integer(2, 4);
  v.tests.push_back(parameters_test(
      "TransformerBlock",
      {{"name", "block"},
       {"input", {1, 8, d_block}},
       {"layers", json::array({{{"type", "TransformerBlock"},
                                {"d_model", d_block},
                                {"heads", pick(rng, heads)},
                                {"d_ff", d_ff}}})}}));

  v.tests.push_back(parameters_test(
      "no trainable layers",
      {{"name", "activations"},
       {"input", {2, pick(rng, small_widths)}},
       {"layers", json::array({{{"type", "ReLU"}}, {{"type", "Sigmoid"}}})}}));
  return v;
}

// ---- profiling.integrated-profile -------------------------------------------------------

// The chapter's integrated profile: one small MLP, three of the profiler's figures. The
// answers are the profiler's own (count_parameters, count_flops, optimizer_bytes and the
// Model's activation bytes), so the exercise and the page's profile can never disagree.
VariantData draw_integrated_profile(Rng& rng, const Fragments&) {
  static const std::int64_t inputs[] = {64, 128, 256, 784};
  static const std::int64_t hidden[] = {32, 64, 128, 256, 512};
  static const std::int64_t outputs[] = {2, 10, 100};
  static const std::int64_t batches[] = {8, 16, 32, 64};
  const std::int64_t d_in = pick(rng, inputs);
  const std::int64_t h = pick(rng, hidden);
  const std::int64_t d_out = pick(rng, outputs);
  const std::int64_t batch = pick(rng, batches);
  const Model m =
      model_from_json(mlp_spec({static_cast<std::size_t>(d_in), static_cast<std::size_t>(h),
                                static_cast<std::size_t>(d_out)},
                               static_cast<std::size_t>(batch)));
  const ParameterCount parameters = count_parameters(m);
  const FlopReport flops = count_flops(m);
  // Training with Adam: parameters, one gradient per parameter, m and v, and the
  // activations (every layer's output, the ReLU's included) at this batch.
  const double adam_bytes =
      static_cast<double>(parameters.bytes + parameters.bytes +
                          optimizer_bytes(parameters.total).adam + m.activation_bytes());
  VariantData v;
  v.params = {{"d_in", d_in}, {"h", h}, {"d_out", d_out}, {"batch", batch}};
  v.expected_values = {static_cast<double>(parameters.total), flops.per_batch.matmul, adam_bytes};
  return v;
}

// ---- profiling.batch-throughput (experiment-backed) -----------------------------------

// samples_per_s of the first row at batch_size `batch`, or 0 when the run has none.
double samples_per_s_at(const Exercise& e, const json& rows, double batch) {
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (evidence_number(e, rows, i, "batch_size") == batch) {
      return evidence_number(e, rows, i, "samples_per_s");
    }
  }
  return 0;
}

void batch_throughput_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  const double at_1 = samples_per_s_at(e, rows, 1);
  const double at_32 = samples_per_s_at(e, rows, 32);
  if (at_1 == 0 || at_32 == 0) {
    std::string sizes;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      sizes += (i ? ", " : "") + describe_value(json(evidence_number(e, rows, i, "batch_size")));
    }
    throw ValueError("your run of " + e.evidence.title + " has no row with batch_size " +
                     (at_1 == 0 ? "1" : "32") + " (it has " + sizes + "); run " +
                     e.evidence.title + " with batch 1 and 32 first");
  }
  v.expected_value = at_32 / at_1;
}

// ---- profiling.backward-ratio (experiment-backed) -------------------------------------

void backward_ratio_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  std::vector<double> ratios;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    ratios.push_back(evidence_number(e, rows, i, "measured_ms") /
                     evidence_number(e, rows, i, "forward_ms"));
  }
  v.expected_value = median(ratios);
}

// ---- the chapter's list ---------------------------------------------------------------

// Tolerances used by more than one exercise.
constexpr Tolerance kExact{0.0, 0.0};           // integers a function returns

}  // namespace

// Each exercise's prose is the entry with the same id in core/exercises/profiling.json,
// which also sets the order the page shows them in.
std::vector<ExerciseCode> profiling_exercises() {
  using enum ExerciseKind;
  return {
      {.id = "profiling.linear-params", .kind = Numeric, .points = 10,
       .draw = draw_linear_params, .tolerance = kNearestInteger},
      {.id = "profiling.ffn-param-memory", .kind = Numeric, .points = 10,
       .draw = draw_ffn_param_memory, .tolerance = kNearestInteger},
      {.id = "profiling.adam-memory", .kind = Numeric, .points = 10,
       .draw = draw_adam_memory, .tolerance = {0.005, 0.0}},
      {.id = "profiling.linear-flops", .kind = Numeric, .points = 15,
       .draw = draw_linear_flops,
       .parts = {{kNearestInteger}, {kNearestInteger}, {{0.01, 0.0}}}},
      {.id = "profiling.flops-batch", .kind = Choice, .points = 10,
       .draw_try = draw_flops_batch},
      // The FLOPs need H_out and the multiply-accumulate count on top: worth a little more.
      {.id = "profiling.conv-output", .kind = Numeric, .points = 10,
       .draw = draw_conv_output, .parts = {{kNearestInteger, 2.0}, {kNearestInteger, 3.0}}},
      {.id = "profiling.count-linear-flops", .kind = Code, .points = 10,
       .draw = draw_count_linear_flops, .tolerance = kExact},
      {.id = "profiling.count-conv2d-flops", .kind = Code, .points = 10,
       .draw = draw_count_conv2d_flops, .tolerance = kExact},
      {.id = "profiling.efficiency", .kind = Numeric, .points = 10,
       .draw = draw_efficiency, .tolerance = {0.0, 0.1}},
      {.id = "profiling.bound-classify", .kind = Choice, .points = 10,
       .draw_try = draw_bound_classify},
      {.id = "profiling.latency-statistic", .kind = Choice, .points = 10,
       .draw_try = draw_latency_statistic},
      // Even-length medians are a mean of two doubles, which students may compute in another
      // order (a + (b - a) / 2): allow rounding differences, nothing more.
      {.id = "profiling.median", .kind = Code, .points = 15, .draw = draw_median,
       .tolerance = {1e-9, 1e-12}, .time_limit_ms = 2000},
      // The fake clock adds costs in floating point; a duration read back from it may differ
      // from the scripted cost in the last bits.
      {.id = "profiling.measure-latency", .kind = Code, .points = 15,
       .draw = draw_measure_latency, .tolerance = {1e-9, 1e-9}, .time_limit_ms = 2000},
      {.id = "profiling.count-parameters", .kind = Code, .points = 10,
       .draw = draw_count_parameters, .tolerance = kExact},
      // 15 points: the integrated profile, several core skills on one model (README.md,
      // "Adding an exercise", has the 10/15/20 scale).
      {.id = "profiling.integrated-profile", .kind = Numeric, .points = 15,
       .draw = draw_integrated_profile,
       .parts = {{kNearestInteger}, {kNearestInteger}, {kNearestInteger}}},
      // 20 points: the chapter's capstone, graded from the student's own measurements. The
      // table shows three significant digits.
      {.id = "profiling.batch-throughput", .kind = Numeric, .points = 20,
       .draw = draw_nothing, .tolerance = {0.03, 0.0}, .experiment = "profiling-batch-size",
       .from_evidence = batch_throughput_from_evidence},
      {.id = "profiling.backward-ratio", .kind = Numeric, .points = 15, .draw = draw_nothing,
       .tolerance = {0.03, 0.0}, .experiment = "profiling-forward-backward",
       .from_evidence = backward_ratio_from_evidence},
  };
}

}  // namespace perflab::detail
