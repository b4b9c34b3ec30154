// The Profiling chapter's exercises: texts, points, hints and the per-seed draw of
// parameters and answers. Each draw rounds its parameters first and computes the answer from
// the rounded values, so the numbers the student reads are exactly the numbers graded.
// FLOPs follow docs/MODEL_SPEC.md: 2 per multiply-accumulate, per sample, bias excluded.
// countParameters' expected counts come from core's own Model, and the experiment-backed
// exercises compute their answer from the rows of the student's run (grader.hpp).
// Not for: seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

#include "exercise_bank.hpp"
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

VariantData draw_linear_params(Rng& rng) {
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, kWidths);
  VariantData v;
  v.params = {{"in", in}, {"out", out}};
  v.expected_value = static_cast<double>(in * out + out);
  return v;
}

// ---- profiling.ffn-param-memory -------------------------------------------------------

VariantData draw_ffn_param_memory(Rng& rng) {
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

VariantData draw_adam_memory(Rng& rng) {
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

VariantData draw_linear_flops(Rng& rng) {
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

constexpr int kFlopsStayTheSame = 0;  // index in the exercise's `choices`

VariantData draw_flops_batch(Rng& rng) {
  static const std::int64_t small_batches[] = {1, 2, 4, 8, 16};
  static const std::int64_t ratios[] = {2, 4, 8, 16, 32};
  const std::int64_t in = pick(rng, kWidths);
  const std::int64_t out = pick(rng, kWidths);
  const std::int64_t batch_small = pick(rng, small_batches);
  const std::int64_t ratio = pick(rng, ratios);
  VariantData v;
  v.params = {{"in", in},
              {"out", out},
              {"batch_small", batch_small},
              {"batch_large", batch_small * ratio},
              {"ratio", ratio}};
  shuffle_choices(v, 4, kFlopsStayTheSame, rng);
  return v;
}

// ---- profiling.conv-output ------------------------------------------------------------

VariantData draw_conv_output(Rng& rng) {
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

VariantData draw_efficiency(Rng& rng) {
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

// ---- profiling.latency-statistic ------------------------------------------------------

constexpr int kReportMedian = 0;  // index in the exercise's `choices`

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

VariantData draw_latency_statistic(Rng& rng) {
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
  shuffle_choices(v, 4, kReportMedian, rng);
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

VariantData draw_measure_latency(Rng& rng) {
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

VariantData draw_count_linear_flops(Rng& rng) {
  static const std::int64_t wide[] = {1024, 1536, 2048, 3072, 4096};
  static const std::int64_t narrow[] = {3, 10, 16, 64, 128};
  VariantData v;
  const std::int64_t n = pick(rng, kWidths);
  v.tests.push_back(linear_flops_test("square layer", n, n));
  v.tests.push_back(linear_flops_test("wide to narrow", pick(rng, wide), pick(rng, narrow)));
  v.tests.push_back(linear_flops_test("narrow to wide", pick(rng, narrow), pick(rng, wide)));
  v.tests.push_back(linear_flops_test("one input feature", 1, pick(rng, kWidths)));
  v.tests.push_back(linear_flops_test("a transformer FFN layer (768 → 3072)", 768, 3072));
  return v;
}

// ---- profiling.count-conv2d-flops -----------------------------------------------------

CodeTest conv_flops_test(std::string name, std::int64_t c_in, std::int64_t c_out,
                         std::int64_t kernel, std::int64_t h_out, std::int64_t w_out) {
  return {std::move(name), json::array({c_in, c_out, kernel, h_out, w_out}),
          json(2 * c_in * c_out * kernel * kernel * h_out * w_out)};
}

VariantData draw_count_conv2d_flops(Rng& rng) {
  static const std::int64_t mid_channels[] = {16, 32, 64, 128};
  static const std::int64_t deep_channels[] = {64, 128, 256, 512};
  static const std::int64_t maps[] = {7, 14, 28, 56};
  static const std::int64_t odd_kernels[] = {3, 5, 7};
  VariantData v;
  const std::int64_t hw = pick(rng, maps);
  v.tests.push_back(conv_flops_test("3×3 kernel", pick(rng, mid_channels),
                                    pick(rng, mid_channels), 3, hw, hw));
  const std::int64_t pw = pick(rng, maps);
  v.tests.push_back(conv_flops_test("1×1 kernel (pointwise)", pick(rng, deep_channels),
                                    pick(rng, deep_channels), 1, pw, pw));
  // hOut ≠ wOut, so swapping them or squaring one of them fails.
  const std::int64_t h_out = rng.integer(8, 40);
  std::int64_t w_out = 0;
  do {
    w_out = rng.integer(8, 40);
  } while (w_out == h_out);
  v.tests.push_back(conv_flops_test("non-square output", pick(rng, mid_channels),
                                    pick(rng, mid_channels), pick(rng, odd_kernels), h_out, w_out));
  v.tests.push_back(conv_flops_test("one channel in and out", 1, 1, pick(rng, odd_kernels),
                                    pick(rng, maps), pick(rng, maps)));
  v.tests.push_back(conv_flops_test("ResNet stem (3 → 64 channels, 7×7, 112×112 output)", 3,
                                    64, 7, 112, 112));
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

VariantData draw_count_parameters(Rng& rng) {
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
VariantData draw_integrated_profile(Rng& rng) {
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

VariantData draw_nothing(Rng&) { return {}; }

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

Exercise profiling_exercise(std::string id, std::string title, ExerciseKind kind, int points) {
  Exercise e;
  e.id = "profiling." + std::move(id);
  e.chapter = "profiling";
  e.title = std::move(title);
  e.kind = kind;
  e.points = points;
  return e;
}

// Tolerances used by more than one exercise.
constexpr Tolerance kNearestInteger{0.0, 0.5};  // counts: exact, typed as a float or not
constexpr Tolerance kExact{0.0, 0.0};           // integers a function returns

}  // namespace

std::vector<ExerciseEntry> profiling_entries() {
  std::vector<ExerciseEntry> entries;

  {
    Exercise e = profiling_exercise("linear-params", "Parameters of a Linear layer",
                                    ExerciseKind::Numeric, 10);
    e.prompt =
        "A Linear layer maps {in} input features to {out} output features and has a bias. "
        "How many trainable parameters does it have?";
    e.hints = {"The weight matrix has one entry per (input, output) pair.",
               "Don't forget the bias: one per output."};
    e.grader_reference = "parameters = in·out + out (weights + bias)";
    e.tolerance = kNearestInteger;
    e.unit = "parameters";
    entries.push_back({std::move(e), draw_linear_params});
  }

  {
    Exercise e = profiling_exercise("ffn-param-memory", "Parameter memory of a feed-forward network",
                                    ExerciseKind::Numeric, 10);
    e.prompt =
        "A feed-forward network stacks three Linear layers, each with a bias: {d_in} → {h1}, "
        "{h1} → {h2} and {h2} → {d_out} features (with activations in between, which have no "
        "parameters). Its parameters are float32. How many bytes do its parameters take?";
    e.hints = {"Count each layer's parameters first: in·out weights plus out biases.",
               "Add the three layers, then multiply by 4: a float32 takes 4 bytes."};
    e.grader_reference =
        "bytes = 4 · Σ over the layers of (in·out + out), float32 weights and biases";
    e.tolerance = kNearestInteger;
    e.unit = "bytes";
    entries.push_back({std::move(e), draw_ffn_param_memory});
  }

  {
    Exercise e = profiling_exercise("adam-memory", "Training memory with Adam",
                                    ExerciseKind::Numeric, 10);
    e.prompt =
        "A model with {parameters} float32 parameters is trained with Adam. Besides the "
        "parameters, training keeps a gradient for every parameter, and Adam keeps two moment "
        "estimates (m and v) for every parameter, all float32. How much memory do these take "
        "together, in MiB (1 MiB = 1,048,576 bytes)? Leave the activations out.";
    e.hints = {"Count how many float32 values each parameter needs in total: itself, its "
               "gradient, m and v.",
               "Bytes = parameters × values per parameter × 4. Then divide by 1,048,576, not by "
               "1,000,000: a MiB is 2^20 bytes, and the two differ by almost 5%."};
    e.grader_reference =
        "MiB = parameters × 4 values (parameter, gradient, m, v) × 4 bytes / 1,048,576";
    e.tolerance = {0.005, 0.0};
    e.unit = "MiB";
    entries.push_back({std::move(e), draw_adam_memory});
  }

  {
    Exercise e = profiling_exercise("linear-flops", "FLOPs and minimum latency of a Linear layer",
                                    ExerciseKind::Numeric, 15);
    e.prompt =
        "A Linear layer maps {in} input features to {out} output features (it has a bias) "
        "and runs on a batch of {batch} samples. Count FLOPs the way this lab does: 2 per "
        "multiply-accumulate, bias additions left out. Give its FLOPs per sample, its FLOPs "
        "for the whole batch, and the shortest time in milliseconds that one forward pass of "
        "the batch can take on a CPU that sustains at most {gflops_per_s} GFLOP/s.";
    e.hints = {"Each output is a dot product of length in: in multiply-accumulates, 2·in FLOPs. "
               "There are out outputs per sample.",
               "The batch does the same work once per sample: multiply by the batch size.",
               "Time = FLOPs / (FLOP/s). 1 GFLOP/s is 10^9 FLOP/s, and 1 s is 1000 ms."};
    e.grader_reference =
        "per sample = 2·in·out; per batch = per sample × batch; minimum latency (ms) = "
        "per batch / (GFLOP/s × 10^9) × 1000";
    e.parts = {{"FLOPs per sample", "FLOPs", kNearestInteger, 1.0},
               {"FLOPs per batch", "FLOPs", kNearestInteger, 1.0},
               {"Minimum latency of the batch", "ms", {0.01, 0.0}, 1.0}};
    entries.push_back({std::move(e), draw_linear_flops});
  }

  {
    Exercise e = profiling_exercise("flops-batch", "FLOPs per sample when the batch grows",
                                    ExerciseKind::Choice, 10);
    e.prompt =
        "You profile a Linear layer ({in} → {out} features) at batch size {batch_small}, then "
        "again at batch size {batch_large}. Counting FLOPs the way this lab does, what "
        "happens to its FLOPs per sample?";
    e.hints = {"Write down the FLOPs of one sample: does the batch size appear in it?",
               "The batch total is the per-sample count times the batch size. Which of the "
               "two numbers does the question ask about?"};
    e.grader_reference =
        "FLOPs per sample = 2·in·out, independent of the batch size; only the batch total "
        "(× batch) grows";
    e.choices = {
        "They stay the same: the work per sample does not depend on the batch size; only the "
        "batch total grows {ratio}×",
        "They grow {ratio}×: every extra sample in the batch adds work",
        "They shrink {ratio}×: the weights are shared by all {batch_large} samples",
        "It depends on the machine: a faster CPU performs fewer FLOPs"};
    entries.push_back({std::move(e), draw_flops_batch});
  }

  {
    Exercise e = profiling_exercise("conv-output", "Output size and FLOPs of a Conv2d layer",
                                    ExerciseKind::Numeric, 10);
    e.prompt =
        "A Conv2d layer with {in_channels} input channels, {out_channels} output channels, a "
        "{kernel}×{kernel} kernel, stride {stride} and padding {padding} runs on "
        "{size}×{size} images. Give the height H_out of its output, and its FLOPs per sample "
        "(2 per multiply-accumulate, bias left out).";
    e.hints = {"H_out = floor((H + 2·padding − kernel) / stride) + 1; the output is square "
               "here, so W_out = H_out.",
               "Every output value is a dot product over in_channels × kernel × kernel inputs.",
               "FLOPs per sample = 2 × out_channels × H_out × W_out × in_channels × kernel²."};
    e.grader_reference =
        "H_out = floor((H + 2·padding − kernel) / stride) + 1; FLOPs = 2·C_out·H_out·W_out·"
        "C_in·kernel²";
    // The FLOPs need H_out and the multiply-accumulate count on top: worth a little more.
    e.parts = {{"Output height H_out", "pixels", kNearestInteger, 2.0},
               {"FLOPs per sample", "FLOPs", kNearestInteger, 3.0}};
    entries.push_back({std::move(e), draw_conv_output});
  }

  {
    Exercise e = profiling_exercise("count-linear-flops", "countLinearFlops in JavaScript",
                                    ExerciseKind::Code, 10);
    e.prompt =
        "Write `countLinearFlops(inFeatures, outFeatures)`: the FLOPs per sample of a Linear "
        "layer, counted the way this lab does (2 per multiply-accumulate, bias additions left "
        "out).";
    e.hints = {"One sample computes outFeatures outputs, each a dot product of length "
               "inFeatures.",
               "A multiply-accumulate is 2 FLOPs: return 2 * inFeatures * outFeatures."};
    e.grader_reference = "FLOPs per sample = 2·in·out";
    e.tolerance = kExact;
    e.function_name = "countLinearFlops";
    e.starter_code =
        "function countLinearFlops(inFeatures, outFeatures) {\n"
        "  // FLOPs per sample: 2 per multiply-accumulate, bias left out\n"
        "}";
    entries.push_back({std::move(e), draw_count_linear_flops});
  }

  {
    Exercise e = profiling_exercise("count-conv2d-flops", "countConv2dFlops in JavaScript",
                                    ExerciseKind::Code, 10);
    e.prompt =
        "Write `countConv2dFlops(inChannels, outChannels, kernel, hOut, wOut)`: the FLOPs per "
        "sample of a Conv2d layer with a square kernel × kernel window whose output is "
        "hOut × wOut values per output channel (stride and padding are already folded into "
        "hOut and wOut). Count 2 FLOPs per multiply-accumulate and leave out the bias.";
    e.hints = {"Each output value is a dot product over inChannels × kernel × kernel inputs.",
               "There are outChannels × hOut × wOut output values per sample; each "
               "multiply-accumulate is 2 FLOPs."};
    e.grader_reference = "FLOPs per sample = 2·C_in·C_out·kernel²·H_out·W_out";
    e.tolerance = kExact;
    e.function_name = "countConv2dFlops";
    e.starter_code =
        "function countConv2dFlops(inChannels, outChannels, kernel, hOut, wOut) {\n"
        "  // FLOPs per sample: 2 per multiply-accumulate, bias left out\n"
        "}";
    entries.push_back({std::move(e), draw_count_conv2d_flops});
  }

  {
    Exercise e = profiling_exercise("efficiency", "Computational efficiency",
                                    ExerciseKind::Numeric, 10);
    e.prompt =
        "Your matmul kernel reaches {achieved_gflops_per_s} GFLOP/s on a CPU whose measured "
        "peak is {peak_gflops_per_s} GFLOP/s. What is the kernel's computational efficiency, "
        "in percent of the peak?";
    e.hints = {"Efficiency is the share of the peak that the kernel achieves.",
               "Divide achieved by peak, then multiply by 100 for percent."};
    e.grader_reference = "efficiency (%) = 100 × achieved GFLOP/s / peak GFLOP/s";
    e.tolerance = {0.0, 0.1};
    e.unit = "%";
    entries.push_back({std::move(e), draw_efficiency});
  }

  {
    Exercise e = profiling_exercise("bound-classify", "Compute-bound or memory-bound?",
                                    ExerciseKind::Choice, 10);
    e.prompt =
        "A CPU peaks at {peak_gflops_per_s} GFLOP/s and its memory delivers "
        "{bandwidth_gb_per_s} GB/s. A kernel performs {kernel_mflop} MFLOP and moves "
        "{kernel_mb} MB between memory and the CPU. On this machine, is the kernel "
        "compute-bound or memory-bound?";
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
    Exercise e = profiling_exercise("latency-statistic", "Which latency to report",
                                    ExerciseKind::Choice, 10);
    e.prompt =
        "You timed one forward pass of a model 9 times, in milliseconds, in the order the "
        "runs happened: {samples_text}. Which number should you report as its typical "
        "latency on this machine, and why?";
    e.hints = {"Look at the samples: is one of them far from the others? A garbage-collection "
               "pause or another busy tab can cause that.",
               "Imagine that one sample had been twice as slow again. Which of the statistics "
               "would change, and which would not?"};
    e.grader_reference =
        "the median: a typical run, robust to a few slow outliers; the mean is pulled up by "
        "them, the minimum is a best case, the maximum a worst case";
    e.choices = {
        "The median, {median_ms} ms: half the runs were faster and half slower, and the one "
        "slow run barely moves it",
        "The mean, {mean_ms} ms: it uses every sample, so it is the most accurate",
        "The minimum, {min_ms} ms: the fastest run is the real cost, everything above it is "
        "noise",
        "The maximum, {max_ms} ms: report the worst case so that nobody is surprised"};
    entries.push_back({std::move(e), draw_latency_statistic});
  }

  {
    Exercise e = profiling_exercise("median", "Median of timing samples", ExerciseKind::Code, 15);
    e.prompt =
        "Benchmarks report the median time because a few slow samples (a garbage-collection "
        "pause, another busy tab) barely move it. Write median(times): given an array of "
        "times in milliseconds, return their median. For an even number of values, return "
        "the mean of the two middle values. The array may be in any order.";
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

  {
    Exercise e = profiling_exercise("measure-latency", "measureLatency with warmup",
                                    ExerciseKind::Code, 15);
    e.prompt =
        "Write `measureLatency(fn, { warmup, iterations }, clock)`: call `fn()` warmup times "
        "without timing it (those calls warm caches and the JIT up), then call it iterations "
        "more times, timing each call with `clock.now()` (milliseconds), and return the "
        "median of those per-call times in ms. Use the clock you are given, not "
        "`performance.now()`: the tests pass a fake clock and an fn that advances it by a "
        "scripted time per call, so your code is graded exactly, whatever your machine.";
    e.hints = {"Read the clock right before and right after each timed call; the difference "
               "is that call's time. Keep the times in an array.",
               "Run the warmup calls first, outside the loop that reads the clock.",
               "Return the median of the per-call times (sort a copy; average the two middle "
               "values when there are an even number), not their mean."};
    e.grader_reference =
        "warmup untimed calls; then per call t = clock.now() after − before; return the "
        "median of the iterations times (mean of the two middle ones for an even count)";
    // The fake clock adds costs in floating point; a duration read back from it may differ
    // from the scripted cost in the last bits.
    e.tolerance = {1e-9, 1e-9};
    e.function_name = "measureLatency";
    e.starter_code =
        "function measureLatency(fn, { warmup, iterations }, clock) {\n"
        "  // call fn() `warmup` times untimed, then time `iterations` calls with clock.now()\n"
        "  // and return the median per-call time in ms\n"
        "}";
    e.time_limit_ms = 2000;
    entries.push_back({std::move(e), draw_measure_latency});
  }

  {
    Exercise e = profiling_exercise("count-parameters", "countParameters(model) in JavaScript",
                                    ExerciseKind::Code, 10);
    e.prompt =
        "Write `countParameters(model)`: the number of trainable parameters of a model given "
        "as this lab's model spec, e.g. `{name: \"mlp\", input: [64, 784], layers: [{type: "
        "\"Linear\", in: 784, out: 256}, {type: \"ReLU\"}, {type: \"Linear\", in: 256, out: "
        "10, bias: false}]}`. Layer types and their fields: `Linear` in, out, bias (default "
        "true); `Conv2d` in_channels, out_channels, kernel (square), stride, padding, bias "
        "(default true); `LayerNorm` features (a scale and a shift per feature); "
        "`MultiHeadAttention` d_model, heads (query, key, value and output projections, each "
        "d_model → d_model with a bias); `TransformerBlock` d_model, heads, d_ff (two "
        "LayerNorms, a MultiHeadAttention and a feed-forward Linear d_model → d_ff → d_model, "
        "both with bias); `ReLU`, `GELU`, `Sigmoid`, `Softmax`, `MaxPool2d` and `Flatten` have "
        "no parameters.";
    e.hints = {"Loop over model.layers and add each layer's count; a switch on layer.type "
               "keeps it readable.",
               "A missing bias field means true: test `layer.bias !== false`.",
               "Linear: in·out + out. Conv2d: out_channels·in_channels·kernel² + out_channels. "
               "LayerNorm: 2·features. MultiHeadAttention: 4·(d² + d).",
               "TransformerBlock: 2·(2·d) for its LayerNorms, 4·(d² + d) for attention, and "
               "(d·d_ff + d_ff) + (d_ff·d + d) for the feed-forward layers."};
    e.grader_reference =
        "Σ over layers: Linear in·out (+out); Conv2d C_out·C_in·k² (+C_out); LayerNorm 2·f; "
        "MultiHeadAttention 4(d² + d); TransformerBlock 4d + 4(d² + d) + 2·d·d_ff + d_ff + d; "
        "the expected counts are core's Model::parameter_count()";
    e.tolerance = kExact;
    e.function_name = "countParameters";
    e.starter_code =
        "function countParameters(model) {\n"
        "  let total = 0;\n"
        "  for (const layer of model.layers) {\n"
        "    // add this layer's trainable parameters\n"
        "  }\n"
        "  return total;\n"
        "}";
    entries.push_back({std::move(e), draw_count_parameters});
  }

  {
    // 15 points: the integrated profile, several core skills on one model (README.md,
    // "Adding an exercise", has the 10/15/20 scale).
    Exercise e = profiling_exercise("integrated-profile",
                                    "Integrated profile: parameters, FLOPs and Adam memory",
                                    ExerciseKind::Numeric, 15);
    e.prompt =
        "Profile this model by hand, as the profiler does: Linear({d_in} → {h}) with bias, "
        "ReLU, Linear({h} → {d_out}) with bias, float32, run on a batch of {batch} samples. "
        "Give (1) its total number of parameters; (2) its FLOPs for the whole batch, counted "
        "the way this lab does (2 per multiply-accumulate, bias additions and the ReLU left "
        "out); (3) the bytes that training it with Adam takes: the parameters, a gradient per "
        "parameter, Adam's two moment estimates (m and v) per parameter, and the activations "
        "(the output of every layer at this batch, the ReLU's included).";
    e.hints = {"Parameters: in·out + out per Linear layer; ReLU has none.",
               "FLOPs per batch = 2·(d_in·h + h·d_out) × batch.",
               "Adam memory = 4 bytes × (4 × parameters + batch × (h + h + d_out)): the three "
               "layer outputs are (batch, h), (batch, h) and (batch, d_out)."};
    e.grader_reference =
        "parameters = d_in·h + h + h·d_out + d_out; FLOPs per batch = 2·(d_in·h + h·d_out)·"
        "batch; Adam bytes = 4·(parameters + gradients + m + v) + 4·batch·(2·h + d_out)";
    e.parts = {{"Total parameters", "parameters", kNearestInteger, 1.0},
               {"FLOPs per batch", "FLOPs", kNearestInteger, 1.0},
               {"Adam training memory", "bytes", kNearestInteger, 1.0}};
    entries.push_back({std::move(e), draw_integrated_profile});
  }

  {
    // 20 points: the chapter's capstone, graded from the student's own measurements.
    Exercise e = profiling_exercise("batch-throughput",
                                    "Capstone: the throughput gain of batching on your machine",
                                    ExerciseKind::Numeric, 20);
    e.prompt =
        "This is the chapter's capstone: it puts the profiler, the experiments and the "
        "statistics together on your own machine. "
        "Run the batch-size experiment above. From your own table: how many times more "
        "samples per second does the model process at batch size 32 than at batch size 1 "
        "on your machine? (samples/s at batch 32 divided by samples/s at batch 1.)";
    e.hints = {"Find the rows with batch size 1 and 32 and read their samples/s column.",
               "Divide the batch-32 throughput by the batch-1 throughput. A number above 1 means "
               "batching paid off: the same weights served 32 samples per pass.",
               "Your answer is graded against the run on this page: if you run the experiment "
               "again, answer from the new table."};
    e.grader_reference =
        "gain = samples_per_s at batch_size 32 / samples_per_s at batch_size 1, from the rows "
        "of your latest run";
    // The table shows three significant digits.
    e.tolerance = {0.03, 0.0};
    e.unit = "×";
    e.evidence = {"profiling-batch-size", "the batch-size experiment",
                  "samples_per_s at batch_size 1 and 32"};
    entries.push_back({std::move(e), draw_nothing, batch_throughput_from_evidence});
  }

  {
    Exercise e = profiling_exercise("backward-ratio", "Backward vs forward on your machine",
                                    ExerciseKind::Numeric, 15);
    e.prompt =
        "Run the forward-vs-backward experiment above. For each row of your table, the "
        "measured backward time divided by the forward time is the ratio that the rule of "
        "thumb puts at 2. What is the median of that ratio over the rows of your run (with "
        "one row, that row's ratio)?";
    e.hints = {"Ratio per row = measured backward ms / forward ms.",
               "Sort the ratios; the median is the middle one (the mean of the two middle ones "
               "for an even count)."};
    e.grader_reference =
        "median over the rows of measured_ms / forward_ms, from your latest run";
    e.tolerance = {0.03, 0.0};
    e.unit = "×";
    e.evidence = {"profiling-forward-backward", "the forward-vs-backward experiment",
                  "measured_ms and forward_ms of every row"};
    entries.push_back({std::move(e), draw_nothing, backward_ratio_from_evidence});
  }

  return entries;
}

}  // namespace perflab::detail
