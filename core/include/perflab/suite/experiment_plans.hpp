// The sweep plans of the page's experiments that have no plan of their own elsewhere in core
// (the roofline's is roofline_plan): for each experiment
// id, the sizes or points it measures and the Timer settings of each point, full and quick
// (?quick=1). Core owns them so the page measures and its text names one set of numbers.
// Not for: running the experiments (the page's runner) or checking a student's values.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

// The experiment ids experiment_plan knows, in chapter order.
const std::vector<std::string>& experiment_plan_ids();

// The plan of experiment `id`, a JSON object whose fields that experiment reads; every
// "options" field is Timer options {warmup, samples, min_sample_ms, max_total_ms}.
//   benchmarking-warmup         {calls, first, last, max_total_ms}: calls timed one by one, the
//                               first and the last stretch core summarizes
//   benchmarking-clock          {batches: [calls per sample k], options}
//   benchmarking-distribution   {options} (the page takes them in calls of at most 100 samples)
//   benchmarking-intervals      {options (the distribution's), coverage: {trials,
//                               bootstrap_resamples, seed}}
//   benchmarking-aa             {rounds, warmup, max_repeats (null: the student's R)}
//   benchmarking-ab             {rounds, warmup}
//   benchmarking-complexity     {kernels: [{op, variant, sizes}], options}
//   benchmarking-suite          {options: null (the suite's own timer); quick: Timer options}
//   acceleration-vectorization  {sizes: [N], maxN: {variant: largest N}, options}
//   acceleration-builds         {sizes: [N], maxN: {variant: largest N}, options}
//   acceleration-cache-sweep    {sizes: [bytes], options} (the page drops what its memory cap
//                               cannot hold)
//   acceleration-blocking       {options}
//   acceleration-linear-loops   {shapes: [[in, out]], options}
//   acceleration-conv           {sizes: [conv_plan's shapes as to_json writes them], options}
//   acceleration-gelu-fusion    {elements: [count], options}
//   acceleration-thread-scaling {matmul_n: N, gelu_elements: count, options}: each thread
//                               count the student lists, in the kernel engine
//   acceleration-fma            {sizes: [N], options}: the packed matmul in each engine
//                               flavour (1 thread) and in the main module
//   profiling-overhead          {models: [zoo name], options}
//   profiling-model-scaling     {options; quick also max_points: the smallest widths kept}
//   profiling-batch-size        {options; quick also max_points and max_batch: the batches kept}
//   profiling-operation-efficiency {elements: [count], matmul_n: [N], options}
//   profiling-architectures     {options}
//   profiling-attention         {} (counts only); quick {max_seq_len: the longest length kept}
//   profiling-forward-backward  {models: [zoo name], options}
//   optimization-sparsity       {shapes: [{in, out, batch}], densities: [fraction kept,
//                               rising, the last 1], options}: the sparse Linear sweep
//   optimization-kv-cache       {decoder: {vocab, d_model, heads, layers, d_ff, context, seed},
//                               prompt, lengths: [generated tokens, rising], options}
//   optimization-int8           {shapes: [{in, out, batch}] (fashion_mlp's Linears),
//                               variants: [int8 variant], options}
//   optimization-structured     {fractions: [fraction of units removed, the default first],
//                               finetune_epochs, train_images (null: the page's subset),
//                               batches: [forward A/B batch], ab: {rounds, warmup, min_sample_ms}}
//   optimization-distillation   {student: spec, train_images, recipe: {epochs, seed},
//                               temperature, alpha}
//   optimization-quantization   {calibration_images, error_images, calibrations: [method],
//                               batches: [forward A/B batch], ab: {rounds, warmup, min_sample_ms}}
//   optimization-pareto         {batch, chunks, options}: the made models' interleaved timing
// The widths, batches and lengths themselves are the student's (the controls); a plan only
// caps them in quick mode. Throws ValueError naming the known ids for any other id.
nlohmann::json experiment_plan(std::string_view id, bool quick);

}  // namespace perflab
