// The Profiler: what a model costs, counted by the lab's convention and measured on this
// machine. Parameters, FLOPs (per sample, per batch, by category, per layer), memory (peak
// bytes observed by the tracking allocator, not estimated), latency (the Timer's full
// statistics), per-layer times, backward against the 2× rule, the bottleneck judged against
// this machine's probed roofs, a scoped ProfilerContext with a "top operations" table, and
// the FLOPs and memory of self-attention against sequence length. Where the original course
// estimated, the estimate is reported beside the measurement. Results are plain structs;
// to_json() writes them with the field names of the CLI and the page (units in the names).
// Not for: multi-threaded models, optimizers that run (optimizer state is sized here, by the
// optimizers' own count; train/ runs them), or asserting timings in tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/timing/clock.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/model/model.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/roofline.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// Options.

// Timer settings for every measurement of a profile: the model's forward, its backward and
// each layer's forward. Small by default so `perflab profile` and the page's profile button
// answer in about a second; raise samples / min_sample_ms for steadier numbers.
TimerOptions default_profile_timer_options();  // warmup 1, samples 10, min_sample_ms 2,
                                               // max_total_ms 500

// The roofs a bottleneck is judged against, and where they came from.
struct MachineRoofs : Roofs {
  std::string source;        // "probe" (measured on this machine) or "given" (in the options)
  std::string simd_backend;  // as MachineProfile; "" when given or not known
};
// A probe's roofs (MachineProfile::roofs()), source "probe".
MachineRoofs roofs_from(const MachineProfile& machine);

// The machine's roofs, the ones profiles use when ProfileOptions::machine is not given.
// Nothing changes them as a side effect (probe_machine only measures): they are set by
// set_machine_roofs, or, when nothing was set, by the quick probe (ProbeOptions::quick())
// run on first use and kept for the rest of the process, so the page's module and the CLI
// pay for it once.
const MachineRoofs& machine_roofs();
// Sets the roofs measured on this machine by a probe (a page that ran probe_machine, or
// any figures the caller stands behind), with the SIMD backend that probe used ("" when
// not known); source "probe". Returns the roofs now in force. ValueError unless both roofs
// are finite and above 0, naming the field: "peak_gflops_per_s must be a finite number
// greater than 0, got -1"; the roofs in force stay as they were.
const MachineRoofs& set_machine_roofs(const Roofs& roofs, std::string simd_backend = "");
// Forgets set or probed roofs: the next profile without given roofs probes again.
void clear_machine_roofs();

struct ProfileOptions {
  TimerOptions timer = default_profile_timer_options();
  // Run the model at this batch instead of the spec's (0: the spec's input[0]).
  std::size_t batch = 0;
  bool layers = true;    // time each layer alone (layers[].forward_ms)
  bool backward = true;  // time backward and measure training-step memory
  // Forward (and, with backward, backward) passes recorded by a ProfilerContext for the
  // top-operations table; 0 leaves the table empty.
  int context_passes = 3;
  // Injected roofs (deterministic verdicts); nullopt: machine_roofs().
  std::optional<MachineRoofs> machine;
  std::uint64_t input_seed = 1;  // the random input is uniform in [-1, 1) from this seed

  // Throws ValueError naming the field, its value and the allowed range.
  void validate() const;
};

// From a JSON object whose keys are among warmup, samples, min_sample_ms, max_total_ms,
// batch, layers, backward, context_passes, machine ({peak_gflops_per_s,
// bandwidth_gb_per_s}), input_seed and controls (timer_controls_from_json: the controls the
// timer's advice may name where the profile is read); null (the whole object or one value)
// means the defaults. ValueError for an unknown key or a wrong
// type, naming it: `options.samples must be an integer, got "ten"`.
ProfileOptions profile_options_from_json(const nlohmann::json& options);

// ---------------------------------------------------------------------------------------
// Counting. Everything here is computed from the spec, nothing runs.

struct LayerParameters {
  std::size_t index = 0;
  std::string type;
  std::size_t parameters = 0;
  std::size_t parameter_bytes = 0;
};
struct ParameterCount {
  std::size_t total = 0;
  std::size_t bytes = 0;  // total × 4
  std::vector<LayerParameters> layers;
};
ParameterCount count_parameters(const Model& model);

// FLOPs by layers.hpp's convention. The headline ("flops") is the matmul category: 2 per
// multiply-accumulate, bias and element-wise work excluded, per sample (batch-size
// independent). Per batch = per sample × batch. The breakdown shows the other categories.
struct LayerFlops {
  std::size_t index = 0;
  std::string type;
  Shape input_shape, output_shape;  // at the counted batch
  FlopCounts per_sample;
  FlopCounts per_batch;
  FlopCounts backward_per_sample;
};
struct FlopReport {
  std::size_t batch = 0;
  FlopCounts per_sample;
  FlopCounts per_batch;
  FlopCounts backward_per_sample;
  FlopCounts backward_per_batch;
  std::vector<LayerFlops> layers;
};
// batch 0: the model's spec batch.
FlopReport count_flops(const Model& model, std::size_t batch = 0);

// ---------------------------------------------------------------------------------------
// Memory.

// Optimizer state kept between steps, per parameter: SGD none, SGD with momentum one
// velocity, Adam and AdamW two moments: optimizer_state_bytes of train/optimizer.hpp, the
// bytes the optimizers the trainer runs allocate (a test holds each against the buffers).
struct OptimizerBytes {
  std::size_t sgd = 0, momentum = 0, adam = 0, adamw = 0;
};
OptimizerBytes optimizer_bytes(std::size_t parameter_count);

struct MemoryReport {
  std::size_t batch = 0;
  std::size_t parameter_bytes = 0;
  // Sum of every layer's output at this batch (activation memory, docs/MODEL_SPEC.md).
  std::size_t activation_bytes = 0;
  std::size_t largest_activation_bytes = 0;
  std::size_t input_bytes = 0;
  // Measured: the highest tensor bytes the tracking allocator held above its baseline
  // during one inference forward pass (keep_for_backward off, so each layer's output is
  // freed once the next layer has read it). The baseline holds the parameters, gradients
  // and the input, so they are not in it; im2col scratch and attention scores are.
  std::size_t peak_bytes = 0;
  std::size_t allocation_count = 0;  // tensor allocations during that pass
  std::size_t gradient_bytes = 0;    // one gradient per parameter, as allocated by the layers
  OptimizerBytes optimizer_bytes;
  // The original course's estimates, shown beside the measurements: activations = input
  // bytes × 2 ("the input plus an output of about the same size"), peak = parameters +
  // that estimate.
  std::size_t activation_estimate_bytes = 0;
  std::size_t peak_estimate_bytes = 0;
};
// Runs one forward pass (inference) at the batch (0: the spec's). Leaves the model's
// keep_for_backward as it was.
MemoryReport measure_memory(Model& model, std::size_t batch = 0, std::uint64_t input_seed = 1);

// Measured: peak tensor bytes above the baseline during one forward (caches kept) plus one
// backward, i.e. what a training step needs besides parameters, gradients and optimizer
// state. Zeroes the gradients afterwards.
struct TrainingMemory {
  std::size_t step_peak_bytes = 0;
  std::size_t parameter_bytes = 0;
  std::size_t gradient_bytes = 0;
  OptimizerBytes optimizer_bytes;
  // parameter + gradient + optimizer + step peak, per optimizer.
  OptimizerBytes total_bytes;
};
TrainingMemory measure_training_memory(Model& model, std::size_t batch = 0,
                                       std::uint64_t input_seed = 1);

// ---------------------------------------------------------------------------------------
// Timing.

// The Timer's statistics of model.forward(x) at the batch (0: the spec's), caches off
// (inference). Leaves keep_for_backward as it was.
Stats measure_latency(Model& model, const TimerOptions& options = default_profile_timer_options(),
                      std::size_t batch = 0, std::uint64_t input_seed = 1,
                      Clock& clock = default_clock());

// One layer alone on a random input of input_shape: counts, its output's bytes, the peak
// bytes of one forward, and the Timer's statistics of its forward (caches off).
struct LayerProfile {
  std::size_t index = 0;  // in its model; 0 for a layer profiled alone
  std::string type;
  std::string label;  // "Linear #2"
  Shape input_shape, output_shape;
  std::size_t parameters = 0;
  std::size_t parameter_bytes = 0;
  FlopCounts flops_per_sample;
  FlopCounts flops_per_batch;
  std::size_t activation_bytes = 0;
  std::size_t peak_bytes = 0;
  Stats forward;                // per call
  double gflops_per_s = 0;      // flops_per_batch.matmul / forward.median_ms
  double gflops_per_s_all = 0;  // flops_per_batch.total() / forward.median_ms
};
LayerProfile profile_layer(Layer& layer, const Shape& input_shape,
                           const TimerOptions& options = default_profile_timer_options(),
                           std::uint64_t input_seed = 1, Clock& clock = default_clock());

// The bottleneck on the roofline of this machine. FLOPs here are all categories (the work
// the CPU executes), bytes the ideal traffic of the forward pass:
//   bytes_moved = parameter bytes (read once) + input bytes (read once)
//               + activation bytes (every layer output written once)
// Reading a layer's output again as the next layer's input is not counted a second time,
// nor scratch (im2col) or cache misses, so this is a lower bound and the intensity an upper
// bound. Below the ridge point (peak / bandwidth) the pass is memory-bound, at or above it
// compute-bound (roofline.hpp's classify and verdict sentence).
struct Bottleneck {
  double intensity_flops_per_byte = 0;
  double measured_gflops_per_s = 0;  // all categories / median
  // Against machine's roofs: the ridge, the attainable bound, the fraction of it attained,
  // the bound ("compute-bound" or "memory-bound") and the sentence with the numbers.
  RooflinePlacement placement;
  double fraction_of_peak = 0;  // measured / peak
  MachineRoofs machine;
  // The original's rule, beside it: efficiency against an assumed 100 GFLOP/s, and its
  // verdict "memory" when peak MB / s exceeds 100 × GFLOP/s, else "compute".
  double original_efficiency = 0;  // headline GFLOP/s / 100, at most 1
  std::string original_verdict;    // "memory" or "compute"
  // What that rule reads as bandwidth: the peak's MB (2^20 bytes) ÷ the median in seconds.
  // Peak memory per second of one pass, not traffic: beside the lab's bandwidth below.
  double original_memory_bandwidth_mb_per_s = 0;
};
// flops and bytes per call, measured_gflops_per_s all categories; peak_bytes for the
// original's rule.
Bottleneck judge_bottleneck(double flops, double bytes, double measured_gflops_per_s,
                            double headline_gflops_per_s, std::size_t peak_bytes, double median_ms,
                            const MachineRoofs& machine);

// Counts, memory (measure_memory), latency (measure_latency) and what follows from them.
struct ForwardProfile {
  std::size_t batch = 0;
  FlopCounts flops_per_sample;
  FlopCounts flops_per_batch;
  MemoryReport memory;
  Stats latency;
  double gflops_per_s = 0;          // flops_per_batch.matmul / latency.median_ms (headline)
  double gflops_per_s_all = 0;      // flops_per_batch.total() / latency.median_ms
  double samples_per_s = 0;         // batch / median
  double bytes_moved = 0;           // the formula above
  double arithmetic_intensity = 0;  // flops_per_batch.total() / bytes_moved
  // Memory bandwidth, the original's MB/s: bytes_moved ÷ the median in seconds, MB = 2^20
  // bytes as the original. The ideal traffic's rate, so a lower bound of what the memory
  // system served; the machine's roof (GB/s, 10^9) is the ceiling it is judged against.
  double memory_bandwidth_mb_per_s = 0;
  // Memory efficiency, the original's "useful ÷ peak", measured: useful = parameters + input
  // + output (what any inference pass must hold), held = parameters + input + the peak the
  // tracking allocator saw above them (the output included), so 0 < efficiency ≤ 1; the
  // gradient buffers the layers keep for training are in neither. 1: the pass held nothing
  // but those; intermediate activations and scratch (im2col) lower it. The original gives no
  // threshold: a low value says where to look, not that something is wrong.
  double useful_bytes = 0;
  double held_bytes = 0;
  double memory_efficiency = 0;
  Bottleneck bottleneck;
};
ForwardProfile profile_forward_pass(Model& model, const ProfileOptions& options = {},
                                    Clock& clock = default_clock());

// Backward measured beside the original's rule (backward ≈ 2 × forward in time and FLOPs).
// Forward and backward are timed in one interleaved run (run_interleaved: each round one
// sample of the forward, then one of the backward, which is repeatable on the kept forward),
// so the ratio compares two medians of the same run, not of two runs minutes apart.
struct BackwardProfile {
  std::size_t batch = 0;
  Stats forward;                // forward with caches kept (what training runs), per call
  Stats backward;               // per call, interleaved with `forward`
  std::size_t rounds = 0;       // rounds of the interleaved run: samples of each before outliers
  double measured_ms = 0;       // backward.median_ms
  double estimated_ms = 0;      // 2 × forward.median_ms, the original's rule
  double ratio_to_forward = 0;  // measured_ms / forward.median_ms, both from the same run
  // Counted FLOPs of the training backward (layers.hpp), all categories: every parameter
  // gradient and every input gradient except layer 0's, which nothing reads.
  FlopCounts flops_per_batch;
  FlopCounts forward_flops_per_batch;   // the forward's, for the ratio
  double flops_ratio_to_forward = 0;    // flops_per_batch.matmul / forward's matmul
  FlopCounts skipped_input_grad_flops;  // layer 0's dinput, per batch: not computed
  double estimated_flops = 0;  // 2 × forward matmul FLOPs per batch, the original's rule
  double gflops_per_s = 0;      // flops_per_batch.matmul / measured_ms
  TrainingMemory memory;
  // One training step, forward + backward (the original's totals), from the same run:
  // matmul FLOPs per batch (forward + counted backward), time (the two medians), and memory
  // (parameters + gradients + the measured step peak; plain SGD, no optimizer state). Beside
  // them the original's rule of thumb, training ≈ 3 × inference (forward + 2 × forward),
  // applied to the forward's FLOPs and median.
  double total_flops = 0;
  double total_ms = 0;
  double total_gflops_per_s = 0;  // total_flops / total_ms
  std::size_t total_memory_bytes = 0;
  double estimated_total_flops = 0;  // 3 × forward matmul FLOPs per batch
  double estimated_total_ms = 0;     // 3 × forward.median_ms
};
BackwardProfile profile_backward_pass(Model& model, const ProfileOptions& options = {},
                                      Clock& clock = default_clock());

// ---------------------------------------------------------------------------------------
// ProfilerContext: while one is alive, every Layer::forward and Layer::backward (nested
// parts of a TransformerBlock included) is timed through the LayerObserver hook. One at a
// time (Error when another observer is installed); removes itself on destruction.
// Layers that were watch()ed get a name and FLOPs (hence GFLOP/s); others are named by
// their label and have 0 FLOPs. FLOPs assume every call runs at the watched batch.
// Each call costs two clock reads; the profiling-overhead experiment measures that. With a
// coarse clock (browsers: 5 µs to 1 ms) short calls read as 0 or one tick: record many
// passes and read totals, not single calls.
struct OperationRow {
  std::string layer;  // "Linear #0", "TransformerBlock #0 / attn"
  std::string type;
  std::string pass;  // "forward" or "backward"
  int depth = 0;     // 0 for a model's layers, 1 for a TransformerBlock's parts
  std::size_t calls = 0;
  double total_ms = 0;  // inclusive: nested parts' time is inside their parent's
  double self_ms = 0;   // total minus the time of nested parts
  // total_ms / the summed total_ms of the depth-0 rows: the top-level rows add up to 100,
  // a nested row is the share of the same whole its part took.
  double percent_of_total = 0;
  double flops = 0;         // headline (matmul) FLOPs over all calls
  double gflops_per_s = 0;  // flops / total_ms; 0 when total_ms is 0
};

class ProfilerContext final : public LayerObserver {
 public:
  explicit ProfilerContext(Clock& clock = default_clock());
  ~ProfilerContext() override;
  ProfilerContext(const ProfilerContext&) = delete;
  ProfilerContext& operator=(const ProfilerContext&) = delete;

  // Names and FLOPs for the model's layers ("Linear #2") and a TransformerBlock's parts
  // ("TransformerBlock #0 / ffn1"), at the batch (0: the spec's).
  void watch(Model& model, std::size_t batch = 0);
  // One layer, run on inputs of input_shape (batch included), under this name.
  void watch(const Layer& layer, const Shape& input_shape, std::string name);

  void on_begin(const Layer& layer, Pass pass) override;
  void on_end(const Layer& layer, Pass pass) override;

  // Every (layer, pass) that ran, longest total first; ties keep first-call order.
  std::vector<OperationRow> top_operations() const;
  double top_level_ms() const;  // the sum the percentages are of
  void reset();                 // forget what was recorded, keep the watched names

 private:
  struct Watched {
    std::string name;
    double flops_forward = 0, flops_backward = 0;  // headline, per call
    double flops_backward_no_input_grad = 0;       // per call with Layer::input_grad() off
  };
  struct Record {
    std::string layer, type, pass;
    int depth = 0;
    std::size_t calls = 0;
    double total_ms = 0, self_ms = 0, flops = 0;
    std::size_t order = 0;
  };
  struct Frame {
    const Layer* layer;
    Pass pass;
    double start_ms;
    double child_ms;
  };
  Clock* clock_;
  std::map<const Layer*, Watched> watched_;
  std::map<std::pair<const Layer*, int>, Record> records_;
  std::vector<Frame> stack_;
};

// ---------------------------------------------------------------------------------------
// The whole profile, as `perflab profile SPEC.json --json` prints it and profileModel()
// returns it to the page.
struct ModelProfile {
  std::string name;
  Shape input;         // at the profiled batch
  Shape output_shape;  // at the profiled batch
  ParameterCount parameters;
  FlopReport flops;
  std::vector<LayerProfile> layers;  // forward stats only when options.layers
  bool layers_timed = false;
  ForwardProfile forward;  // memory, latency, bottleneck
  std::optional<BackwardProfile> backward;
  std::vector<OperationRow> top_operations;
  int operation_passes = 0;  // passes the ProfilerContext recorded: top_operations' totals sum them
};
// Progress (0..1) between stages; return false to stop (CancelledError).
ModelProfile profile_model(Model& model, const ProfileOptions& options = {},
                           const ProgressFn& progress = nullptr, Clock& clock = default_clock());
// Parses the spec (model_from_json's errors), then profile_model.
ModelProfile profile_spec(const nlohmann::json& spec, const ProfileOptions& options = {},
                          const ProgressFn& progress = nullptr, Clock& clock = default_clock());

// ---------------------------------------------------------------------------------------
// Experiment points: one measured point each, so the lab worker can loop, report progress
// and cancel between points.

// Counts and forward latency of a spec at a batch (0: the spec's): the model-scaling,
// batch-size and architecture-comparison experiments.
struct ForwardPoint {
  std::string name;
  std::size_t batch = 0;
  std::size_t parameters = 0;
  double flops_per_sample = 0, flops_per_batch = 0;  // headline
  std::size_t activation_bytes = 0, peak_bytes = 0;
  Stats latency;
  double gflops_per_s = 0;
  double samples_per_s = 0;
  double ms_per_sample = 0;
};
ForwardPoint measure_forward_point(const nlohmann::json& spec, std::size_t batch,
                                   const TimerOptions& options = default_profile_timer_options(),
                                   Clock& clock = default_clock());
// The same for a model already built, with its own weights (a model file's trained ones: the
// suite times what it evaluates), at batch (0: the model's own).
ForwardPoint measure_forward_point(Model& model, std::size_t batch,
                                   const TimerOptions& options = default_profile_timer_options(),
                                   Clock& clock = default_clock());

// Forward vs backward of a spec: the measured ratio beside the 2× rule.
BackwardProfile measure_backward_point(
    const nlohmann::json& spec, std::size_t batch,
    const TimerOptions& options = default_profile_timer_options(), Clock& clock = default_clock());

// Memory of one training step of a spec, by component (the stacked bar): parameters,
// activations (counted and measured), gradients, optimizer state per optimizer.
struct MemoryBreakdown {
  MemoryReport inference;
  TrainingMemory training;
};
MemoryBreakdown measure_memory_breakdown(const nlohmann::json& spec, std::size_t batch = 0);

// The cost of profiling itself: the forward median plainly and inside a ProfilerContext,
// and the clock read the context adds twice per layer call.
struct OverheadPoint {
  std::size_t layer_calls_per_forward = 0;  // nested parts included
  double plain_ms = 0;
  double with_context_ms = 0;
  double overhead_ms = 0;       // with_context_ms − plain_ms (noise can make it < 0)
  double overhead_percent = 0;  // of plain_ms
  double clock_read_ms = 0;     // one now_ms(), measured with the Timer
  Stats plain, with_context;
};
OverheadPoint measure_profiling_overhead(
    const nlohmann::json& spec, std::size_t batch = 0,
    const TimerOptions& options = default_profile_timer_options(), Clock& clock = default_clock());

// One Linear layer (bias on, as in the models) with its matmul run by `variant` ("naive" =
// the i-j-k loops, "packed" = the vectorized kernel the layers use, or any matmul variant):
// the loop-vs-vectorized Linear experiment. profile_layer inside a LayerMatmulVariantScope,
// so the model's own layers are back on "packed" afterwards, even after an error.
// flops: the matmul headline per batch, 2·batch·in·out; gflops_per_s = flops / median.
struct LinearPoint {
  std::string variant;
  std::size_t in_features = 0, out_features = 0, batch = 0;
  double flops = 0;
  double gflops_per_s = 0;
  Stats stats;  // of one forward
};
// Each size in [1, kMaxSpecDimension]; batch·in·out at most kMaxLinearPointTerms, so that
// even the naive loops finish a call in seconds. ValueError naming the argument otherwise,
// or for an unknown variant.
inline constexpr double kMaxLinearPointTerms = 1073741824.0;  // 2^30 multiply-adds
LinearPoint measure_linear_point(std::size_t in_features, std::size_t out_features,
                                 std::size_t batch, std::string_view variant,
                                 const TimerOptions& options = default_profile_timer_options(),
                                 Clock& clock = default_clock());

// ---------------------------------------------------------------------------------------
// Self-attention against sequence length, counted (MultiHeadAttention's convention), per
// sample at the batch given for memory. FLOPs: the four projections 8·T·D² (linear in T)
// and the O(T²) term: scores Q·Kᵀ 2·T²·D and P·V 2·T²·D; the softmax over heads·T² scores
// (6 FLOPs each, element-wise) and biases are reported apart. Memory (bytes, float32, at
// the batch): projection weights and biases 4·(4D² + 4D); Q, K, V and the concatenated
// heads 4·T·D each; the heads·T·T score/probability matrix, the quadratic term.
struct AttentionRow {
  std::size_t seq_len = 0;
  double projection_flops = 0;    // 8·T·D²
  double scores_flops = 0;        // Q·Kᵀ: 2·T²·D
  double context_flops = 0;       // P·V: 2·T²·D
  double quadratic_flops = 0;     // scores + context
  double matmul_flops = 0;        // projections + quadratic: MultiHeadAttention's headline
  double softmax_flops = 0;       // 6 per score
  double bias_flops = 0;          // 4·T·D
  double quadratic_fraction = 0;  // quadratic / matmul
  // Bytes as doubles, like the FLOP counts: exact below 2^53 and no overflow of a 32-bit
  // size_t (wasm) for long sequences.
  double weight_bytes = 0;
  double qkv_bytes = 0;           // Q, K, V and the concatenated heads: 4 × B·T·D floats
  double score_matrix_bytes = 0;  // B·heads·T·T floats: the O(T²) memory
  double output_bytes = 0;
  double activation_bytes = 0;  // qkv + scores + output
};
// ValueError when heads does not divide d_model, a size is 0, or seq_lengths is empty.
std::vector<AttentionRow> attention_scaling(std::size_t d_model, std::size_t heads,
                                            const std::vector<std::size_t>& seq_lengths,
                                            std::size_t batch = 1);

// ---------------------------------------------------------------------------------------
// JSON, with the CLI's and the page's field names.
nlohmann::json to_json(const FlopCounts& flops);  // {matmul, bias, elementwise, total}
nlohmann::json to_json(const OptimizerBytes& bytes);
nlohmann::json to_json(const MachineRoofs& roofs);
nlohmann::json to_json(const ParameterCount& count);
nlohmann::json to_json(const FlopReport& report);
nlohmann::json to_json(const MemoryReport& report);
nlohmann::json to_json(const TrainingMemory& memory);
nlohmann::json to_json(const LayerProfile& layer);
nlohmann::json to_json(const Bottleneck& bottleneck);
nlohmann::json to_json(const ForwardProfile& forward);
nlohmann::json to_json(const BackwardProfile& backward);
nlohmann::json to_json(const OperationRow& row);
nlohmann::json to_json(const ForwardPoint& point);
nlohmann::json to_json(const MemoryBreakdown& breakdown);
nlohmann::json to_json(const OverheadPoint& point);
nlohmann::json to_json(const AttentionRow& row);
nlohmann::json to_json(const LinearPoint& point);  // the struct's field names
// The CLI's object (`perflab profile --json`, and profileModel() in the page):
//   name, input, output_shape (at the profiled batch), batch_size,
//   parameters, parameter_bytes,
//   flops_per_sample, flops_per_batch (the matmul headline),
//   flops_breakdown {matmul, bias, elementwise, total} per batch, flops_breakdown_per_sample,
//   activation_bytes, activation_estimate_bytes (the original's input × 2),
//   largest_activation_bytes, input_bytes, peak_bytes (measured), peak_estimate_bytes,
//   gradient_bytes, optimizer_bytes {sgd, momentum, adam, adamw},
//   layers [{index, type, label, input_shape, output_shape, parameters, parameter_bytes,
//            flops_per_sample, flops_per_batch, flops_breakdown, activation_bytes,
//            peak_bytes, forward_ms, gflops_per_s, gflops_per_s_all, stats}]
//     (forward_ms: the median of the layer timed alone by profile_layer; it, peak_bytes,
//     the GFLOP/s and stats are null when layers were not timed),
//   latency {Stats: samples, outliers, mean_ms, stddev_ms, min_ms, max_ms, median_ms,
//            p95_ms, p99_ms, ci95_low_ms, ci95_high_ms, cv, inner_iterations,
//            resolution_ms, warning},
//   gflops_per_s, gflops_per_s_all, samples_per_s, bytes_moved, arithmetic_intensity,
//   memory_bandwidth_mb_per_s, useful_bytes, held_bytes, memory_efficiency (ForwardProfile),
//   bottleneck: an object, not a string, so the page can show the verdict and its numbers:
//     {verdict ("compute-bound" | "memory-bound"), reason (the sentence),
//      intensity_flops_per_byte, ridge_flops_per_byte, attainable_gflops_per_s,
//      measured_gflops_per_s, fraction_of_attainable, fraction_of_peak,
//      machine {peak_gflops_per_s, bandwidth_gb_per_s, source, simd_backend},
//      original_efficiency, original_verdict, original_memory_bandwidth_mb_per_s},
//   backward {batch_size, timing ("interleaved"), rounds, measured_ms (backward median),
//             forward_ms (the training forward's median, caches kept, from the same
//             interleaved run), ratio_to_forward (measured_ms / forward_ms), estimated_ms, flops
//             (counted matmul FLOPs of the training backward: no dinput for layer 0),
//             estimated_flops (2 × forward, the original's rule), flops_breakdown,
//             forward_flops, flops_ratio_to_forward, skipped_input_grad_flops (layer 0's
//             dinput, not computed), gflops_per_s, forward_latency, latency,
//             training_memory {step_peak_bytes, parameter_bytes, gradient_bytes,
//             optimizer_bytes, total_bytes}, total_flops, total_ms, total_gflops_per_s,
//             total_memory_bytes, estimated_total_flops, estimated_total_ms} or null,
//   top_operations [{layer, type, pass, depth, calls, total_ms, self_ms, percent_of_total,
//                    flops, gflops_per_s}] (total_ms summed over top_operations_passes
//                    forward (and backward) passes), top_operations_passes.
nlohmann::json to_json(const ModelProfile& profile);

}  // namespace perflab
