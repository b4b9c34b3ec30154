#include "perflab/suite/experiment_plans.hpp"

#include <cstddef>

#include "perflab/base/error.hpp"
#include "perflab/model/conv_methods.hpp"
#include "perflab/model/zoo.hpp"
#include "perflab/optimize/distill.hpp"
#include "perflab/optimize/kv_cache.hpp"
#include "perflab/optimize/made_models.hpp"
#include "perflab/optimize/quantize.hpp"

#include "experiment_plans_benchmarking.hpp"

namespace perflab {
namespace {

using nlohmann::json;

// The convolution experiment's sizes: conv_plan's shapes, as the page reads them.
json conv_sizes(bool quick) {
  json out = json::array();
  for (const ConvShape& s : conv_plan(quick)) out.push_back(to_json(s));
  return out;
}

json timer(int warmup, int samples, double min_sample_ms, double max_total_ms) {
  return {{"warmup", warmup}, {"samples", samples}, {"min_sample_ms", min_sample_ms},
          {"max_total_ms", max_total_ms}};
}

json doublings(std::size_t lo, std::size_t hi) {
  json out = json::array();
  for (std::size_t b = lo; b <= hi; b *= 2) out.push_back(b);
  return out;
}

constexpr std::size_t kKiB = 1024;
constexpr std::size_t kMiB = 1024 * kKiB;

// The sparsity sweep's layer shapes: fashion_mlp's, {in, out, batch}.
json sparse_shapes(bool quick) {
  json shapes = {{{"in", 784}, {"out", 256}, {"batch", 1}}, {{"in", 784}, {"out", 256}, {"batch", 64}}};
  if (!quick) shapes.push_back({{"in", 256}, {"out", 128}, {"batch", 64}});
  return shapes;
}

// The KV cache experiment: core's default decoder (random weights) and prompt; the lengths
// are each point's generated tokens. A recomputed generation of 256 tokens takes about 2 s
// in wasm (docs/PERFORMANCE.md), so a full point holds a warmup and 11 rounds in 30 s: with
// 7 the median's interval spanned more than 10% on a busy machine and every row warned.
json kv_cache_plan(bool quick) {
  json decoder = to_json(KvDecoderConfig{});
  decoder.erase("name");
  if (quick) {
    return {{"decoder", decoder}, {"prompt", 8}, {"lengths", {8, 16, 32, 64}},
            {"options", timer(1, 3, 1, 1500)}};
  }
  return {{"decoder", decoder}, {"prompt", 8}, {"lengths", {16, 32, 64, 128, 256}},
          {"options", timer(1, 11, 2, 30000)}};
}

// The int8 experiment: fashion_mlp's Linear layers (from the zoo's spec) at a batch of 256,
// the int8 variants against the float packed matmul.
json int8_plan(bool quick) {
  json shapes = json::array();
  for (const json& layer : zoo_spec("fashion_mlp")["layers"]) {
    if (layer["type"] == "Linear") {
      shapes.push_back({{"in", layer["in"]}, {"out", layer["out"]}, {"batch", 256}});
    }
  }
  if (quick) shapes.erase(shapes.begin() + 1, shapes.end());
  return {{"shapes", shapes},
          {"variants", {"naive", "simd"}},
          {"options", quick ? timer(1, 3, 1, 400) : timer(1, 15, 5, 1500)}};
}

// Structured pruning of the baseline: the fractions of hidden units offered (the first is
// the default), the fine-tuning epochs on the first train_images training images (null: the
// page's whole training subset), and the forward A/B of pruned against baseline per batch.
json structured_plan(bool quick) {
  const json ab = quick ? json{{"rounds", 8}, {"warmup", 1}, {"min_sample_ms", 0.5}}
                        : json{{"rounds", 20}, {"warmup", 3}, {"min_sample_ms", 2}};
  return {{"fractions", {0.5, 0.25, 0.75}},
          {"finetune_epochs", quick ? 1 : 3},
          {"train_images", quick ? json(1000) : json(nullptr)},
          {"batches", {1, 64}},
          {"ab", ab}};
}

// Distillation: core's default student (optimize/distill.hpp) trained from the baseline and
// on the labels alone on the first train_images training images, recipe core's default
// TrainRecipe with these epochs and seed, at core's default temperature and alpha; the
// bench's 3,000 images and 20 epochs (bench/bench_optimize_floors.cpp) in full.
json distillation_plan(bool quick) {
  return {{"student", default_distill_student_spec()},
          {"train_images", quick ? 600 : 3000},
          {"recipe", {{"epochs", quick ? 3 : 20}, {"seed", 1}}},
          {"temperature", kDefaultDistillTemperature},
          {"alpha", kDefaultDistillAlpha}};
}

// Quantization of the baseline: calibration on core's default number of training images (the
// quick plan fewer), each layer's error on the CLI's first test images, and the forward A/B of
// int8 against float per batch (forward_ab, run_ab's rounds).
json quantization_plan(bool quick) {
  const json ab = quick ? json{{"rounds", 8}, {"warmup", 1}, {"min_sample_ms", 0.5}}
                        : json{{"rounds", 20}, {"warmup", 3}, {"min_sample_ms", 2}};
  return {{"calibration_images", quick ? std::size_t{200} : kDefaultCalibrationImages},
          {"error_images", quick ? std::size_t{64} : kLayerErrorImages},
          {"calibrations", {"minmax", "percentile"}},
          {"batches", {1, 64}},
          {"ab", ab}};
}

// The Pareto frontier's latencies: every made model timed in one interleaved run at `batch`
// (time_held_models), in `chunks` calls of `options` each so that progress and cancel come
// between chunks; a model's latency is the median of all its chunks' samples.
json pareto_plan(bool quick) {
  return {{"batch", 64},
          {"chunks", quick ? 2 : 6},
          {"options", quick ? timer(1, 4, 0.5, 300) : timer(2, 8, 2, 1500)}};
}

// The Profiling chapter's timed experiments share one budget per point.
json profiling_timer(bool quick) { return quick ? timer(1, 3, 1, 100) : timer(1, 10, 5, 800); }

// The Profiling chapter's plans, full and quick (nullptr: not a Profiling id). Plans over
// sizes the student lists cap them in quick mode only (max_points, max_batch, max_seq_len).
json profiling_plan(std::string_view id, bool quick) {
  const json options = profiling_timer(quick);
  if (id == "profiling-operation-efficiency") {
    if (quick) {
      return {{"elements", json::array({1 << 16})}, {"matmul_n", {64, 128}}, {"options", options}};
    }
    return {{"elements", {1 << 16, 1 << 20}}, {"matmul_n", {64, 128, 256}}, {"options", options}};
  }
  if (id == "profiling-batch-size") {
    if (quick) return {{"max_points", 4}, {"max_batch", 32}, {"options", options}};
    return {{"options", options}};
  }
  if (id == "profiling-model-scaling") {
    if (quick) return {{"max_points", 3}, {"options", options}};
    return {{"options", options}};
  }
  if (id == "profiling-architectures") return {{"options", options}};
  if (id == "profiling-attention") {
    // Counts only, nothing timed: quick mode stops at the lengths that count fast.
    if (quick) return {{"max_seq_len", 1024}};
    return json::object();
  }
  if (id == "profiling-forward-backward") {
    if (quick) return {{"models", {"linear_128_64", "mlp_784", "cnn_28"}}, {"options", options}};
    return {{"models", {"linear_128_64", "linear_1000_500", "mlp_784", "cnn_28", "transformer_block"}},
            {"options", options}};
  }
  if (id == "profiling-overhead") {
    if (quick) return {{"models", {"linear_128_64", "mlp_784", "cnn_28"}}, {"options", options}};
    return {{"models", {"linear_128_64", "mlp_784", "cnn_28", "transformer_block"}},
            {"options", options}};
  }
  return nullptr;
}

// The full plans of the Acceleration chapter. A matmul point lasts at least three calls (a warmup and two samples), so
// the scalar loops stop where one call takes seconds on a laptop: naive at N = 512
// (0.27 GFLOP), reordered at 1024 (2.1 GFLOP); the others go to 2048 (17 GFLOP).
json full_plan(std::string_view id) {
  if (id == "acceleration-linear-loops") {
    return {{"shapes", {{64, 64}, {784, 256}, {512, 512}, {1024, 1024}}},
            {"options", timer(1, 8, 10, 1000)}};
  }
  if (id == "acceleration-cache-sweep") {
    return {{"sizes", doublings(4 * kKiB, 256 * kMiB)}, {"options", timer(1, 10, 5, 500)}};
  }
  if (id == "acceleration-builds") {
    return {{"sizes", {128, 256, 512}}, {"maxN", {{"naive", 256}}},
            {"options", timer(1, 10, 10, 1000)}};
  }
  if (id == "acceleration-vectorization") {
    return {{"sizes", {64, 128, 256, 512, 1024, 2048}},
            {"maxN", {{"naive", 512}, {"reordered", 1024}}},
            {"options", timer(1, 10, 10, 1500)}};
  }
  if (id == "acceleration-gelu-fusion") {
    return {{"elements", {1 << 12, 1 << 15, 1 << 18, 1 << 20, 1 << 22}},
            {"options", timer(1, 10, 10, 1000)}};
  }
  // Each call is a whole convolution, so few samples suffice.
  if (id == "acceleration-conv") return {{"sizes", conv_sizes(false)}, {"options", timer(1, 7, 10, 3000)}};
  // The parallel section's thread scaling: matmul at N = 512 (0.27 GFLOP, tens of ms on one
  // core, so the threads' start and join are a small part of a call) and GELU over 8 Mi
  // elements, whose input and output (64 MiB) outgrow a laptop's last-level cache, so the
  // cores share the DRAM bandwidth as a bandwidth-bound kernel does in a real model.
  if (id == "acceleration-thread-scaling") {
    return {{"matmul_n", 512}, {"gelu_elements", 1 << 23}, {"options", timer(1, 10, 10, 1500)}};
  }
  // FMA against multiply-add: the packed matmul at sizes where it runs near the arithmetic
  // peak (its packing is a small part of the work), in the engine and in the main module.
  if (id == "acceleration-fma") {
    return {{"sizes", {128, 256, 512}}, {"options", timer(1, 10, 10, 1000)}};
  }
  if (id == "acceleration-blocking") return {{"options", timer(1, 8, 10, 1000)}};
  // fashion_mlp's layers (784→256, 256→128) at one image and a batch of 64; each point times
  // the sparse variant and the dense kernel, so 27 points stay near half a minute. 15
  // samples: with 7 the median's interval spanned more than 10% on a busy machine, so most
  // rows warned and the crossover moved from run to run.
  if (id == "optimization-sparsity") {
    return {{"shapes", sparse_shapes(false)},
            {"densities", {0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0}},
            {"options", timer(1, 15, 2, 1000)}};
  }
  return nullptr;
}

// ?quick=1: a few small sizes and short budgets, seconds in all; noisier numbers.
json quick_plan(std::string_view id) {
  if (id == "acceleration-linear-loops") {
    return {{"shapes", {{64, 64}, {256, 128}}}, {"options", timer(1, 3, 2, 100)}};
  }
  if (id == "acceleration-cache-sweep") {
    return {{"sizes", {4 * kKiB, 32 * kKiB, 256 * kKiB, 2 * kMiB, 16 * kMiB}},
            {"options", timer(1, 3, 2, 80)}};
  }
  if (id == "acceleration-builds") {
    return {{"sizes", {64, 128}}, {"maxN", json::object()}, {"options", timer(1, 3, 2, 100)}};
  }
  if (id == "acceleration-vectorization") {
    return {{"sizes", {64, 128}}, {"maxN", json::object()}, {"options", timer(1, 3, 2, 150)}};
  }
  if (id == "acceleration-gelu-fusion") {
    return {{"elements", {1 << 14, 1 << 20}}, {"options", timer(1, 3, 2, 100)}};
  }
  if (id == "acceleration-conv") return {{"sizes", conv_sizes(true)}, {"options", timer(1, 3, 2, 300)}};
  if (id == "acceleration-thread-scaling") {
    return {{"matmul_n", 256}, {"gelu_elements", 1 << 20}, {"options", timer(1, 3, 2, 150)}};
  }
  if (id == "acceleration-fma") return {{"sizes", {64, 128}}, {"options", timer(1, 3, 2, 150)}};
  if (id == "acceleration-blocking") return {{"options", timer(0, 2, 1, 60)}};
  if (id == "optimization-sparsity") {
    return {{"shapes", sparse_shapes(true)},
            {"densities", {0.05, 0.2, 0.5, 1.0}},
            {"options", timer(1, 3, 1, 100)}};
  }
  return nullptr;
}

}  // namespace

const std::vector<std::string>& experiment_plan_ids() {
  static const std::vector<std::string> ids = {
      "acceleration-vectorization", "acceleration-builds", "acceleration-cache-sweep",
      "acceleration-blocking", "acceleration-linear-loops", "acceleration-conv",
      "acceleration-gelu-fusion", "acceleration-thread-scaling", "acceleration-fma",
      "profiling-overhead", "profiling-model-scaling",
      "profiling-batch-size", "profiling-operation-efficiency", "profiling-architectures",
      "profiling-attention", "profiling-forward-backward", "optimization-sparsity",
      "optimization-kv-cache", "optimization-int8", "optimization-structured",
      "optimization-distillation", "optimization-quantization", "optimization-pareto"};
  // The chapters in the page's order: Benchmarking's plans first.
  static const std::vector<std::string> all = [] {
    std::vector<std::string> out = detail::benchmarking_plan_ids();
    out.insert(out.end(), ids.begin(), ids.end());
    return out;
  }();
  return all;
}

json experiment_plan(std::string_view id, bool quick) {
  json plan = quick ? quick_plan(id) : full_plan(id);
  if (plan.is_null() && id == "optimization-kv-cache") plan = kv_cache_plan(quick);
  if (plan.is_null() && id == "optimization-int8") plan = int8_plan(quick);
  if (plan.is_null() && id == "optimization-structured") plan = structured_plan(quick);
  if (plan.is_null() && id == "optimization-distillation") plan = distillation_plan(quick);
  if (plan.is_null() && id == "optimization-quantization") plan = quantization_plan(quick);
  if (plan.is_null() && id == "optimization-pareto") plan = pareto_plan(quick);
  if (plan.is_null()) plan = profiling_plan(id, quick);
  if (plan.is_null()) plan = detail::benchmarking_plan(id, quick);
  if (plan.is_null()) {
    std::string known;
    for (const std::string& k : experiment_plan_ids()) known += (known.empty() ? "" : ", ") + k;
    throw ValueError("no experiment plan named \"" + std::string(id) + "\"; the plans are " +
                     known);
  }
  return plan;
}

}  // namespace perflab
