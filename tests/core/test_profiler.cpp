// Protects the Profiler on numbers computable by hand: parameters and FLOPs (per sample, per
// batch, by category, per layer) of every zoo model, optimizer-state bytes, activation bytes,
// peak bytes that the tracking allocator really saw (at least the largest activation), the
// backward's counted FLOPs against the 2× rule, the bottleneck verdict with injected roofs,
// ProfilerContext's table through a fake clock (every layer and nested part, calls, self
// time, percentages), the attention rows' quadratic term, options and the JSON fields the
// CLI and the page read. Timings are never asserted; only their relations and shapes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/model/model.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/model/zoo.hpp"

#include "timer_helpers.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

// Small budgets: the tests check counts and relations, never how fast anything ran.
using timer_test::tiny_timer;

ProfileOptions tiny_options() {
  ProfileOptions o;
  o.timer = tiny_timer();
  o.context_passes = 1;
  o.machine = MachineRoofs{{100.0, 10.0}, "given", ""};  // ridge at 10 FLOP/byte
  return o;
}

Model zoo_model(const char* name) { return model_from_json(zoo_spec(name)); }

struct Expected {
  const char* name;
  std::size_t parameters;
  double flops_per_sample;        // matmul, 2 per multiply-accumulate
  double bias_per_sample;         // 1 per bias add
  double elementwise_per_sample;  // layers.hpp's per-element costs
  std::size_t activation_bytes;   // every layer's output at the spec's batch, × 4
  std::size_t gradient_bytes;     // 4·P; momentum keeps the same, SGD nothing
  std::size_t adam_bytes;         // m and v: 8·P (AdamW the same)
};

// By hand, from layers.hpp's convention (P = parameters; gradients 4·P bytes, Adam's state
// 8·P; the last two columns):
//   Linear(i, o): i·o + o parameters, 2·i·o FLOPs, o bias adds, no element-wise work.
//   linear_128_64 (batch 32): 8,256; 16,384; bias 64; output 32·64·4 = 8,192 bytes.
//   linear_768_3072 (batch 32): 2,362,368; 4,718,592; bias 3,072; 32·3,072·4 = 393,216.
//   linear_1000_500 (batch 32): 500,500; 1,000,000; bias 500; 32·500·4 = 64,000.
//   conv7x7_224 (batch 1): 64·3·7·7 + 64 = 9,472; output 112×112,
//           2·112²·64·(3·49) = 236,027,904; bias 64·112² = 802,816; output 1·64·112²·4 =
//           3,211,264 bytes.
//   mlp_784 (batch 64): 200,960 + 32,896 + 1,290; 2·(784·256 + 256·128 + 128·10);
//           bias 256 + 128 + 10 = 394; ReLU 1 per element: 256 + 128 = 384;
//           outputs 64·4·(256 + 256 + 128 + 128 + 10) = 199,168 bytes.
//   cnn_28 (batch 32): conv1 8·9 + 8 = 80, 2·28²·8·9 = 112,896; conv2 16·72 + 16 = 1,168,
//           2·14²·16·72 = 451,584; Linear 784·10 + 10 = 7,850, 15,680.
//           bias: conv1 8·28² = 6,272, conv2 16·14² = 3,136, Linear 10: 9,418.
//           element-wise: ReLU 6,272; pool 3 per output · 8·14² = 4,704; ReLU 3,136;
//           pool 3 · 16·7² = 2,352: 16,464.
//           outputs per sample: 6,272 + 6,272 + 1,568 + 3,136 + 3,136 + 784 + 784 (Flatten)
//           + 10 = 21,962; × 32 × 4 = 2,811,136 bytes.
//   transformer_block (T 64, D 128, 4 heads, d_ff 512, batch 4): LayerNorms 2·256,
//           attention 4·(128² + 128), FFN 128·512 + 512 + 512·128 + 128; FLOPs
//           8·T·D² + 4·T²·D + 4·T·D·d_ff. bias: 4 projections 4·T·D = 32,768, FFN
//           T·d_ff + T·D = 32,768 + 8,192: 73,728. element-wise: 2 LayerNorms 2·7·T·D =
//           114,688; scores 6·heads·T² = 98,304; GELU 9·T·d_ff = 294,912; 2 residual adds
//           2·T·D = 16,384: 524,288. One layer in the model, output 4·64·128·4 = 131,072.
const Expected kZooCounts[] = {
    // 4·8,256 = 33,024; 8·8,256 = 66,048.
    {"linear_128_64", 8256, 16384, 64, 0, 8192, 33024, 66048},
    // 4·2,362,368 = 9,449,472; 8·2,362,368 = 18,898,944.
    {"linear_768_3072", 2362368, 4718592, 3072, 0, 393216, 9449472, 18898944},
    // 4·500,500 = 2,002,000; 8·500,500 = 4,004,000.
    {"linear_1000_500", 500500, 1000000, 500, 0, 64000, 2002000, 4004000},
    // 4·9,472 = 37,888; 8·9,472 = 75,776.
    {"conv7x7_224", 9472, 236027904, 802816, 0, 3211264, 37888, 75776},
    // 4·235,146 = 940,584; 8·235,146 = 1,881,168.
    {"mlp_784", 235146, 469504, 394, 384, 199168, 940584, 1881168},
    // P = 9,098: 4·P = 36,392; 8·P = 72,784.
    {"cnn_28", 80 + 1168 + 7850, 112896 + 451584 + 15680, 9418, 16464, 2811136, 36392, 72784},
    // P = 198,272: 4·P = 793,088; 8·P = 1,586,176.
    {"transformer_block", 512 + 66048 + 66048 + 65664, 8388608 + 2097152 + 16777216, 73728,
     524288, 131072, 793088, 1586176},
};

// The training backward's matmul FLOPs per sample, by hand: every dweight (together the
// forward's matmul FLOPs) plus dinput for every layer but the first.
//   a single Linear or Conv2d: dweight only, = forward.
//   mlp_784: 469,504 + dinput of Linear #2 (2·256·128 = 65,536) and #4 (2·128·10 = 2,560)
//            = 537,600.
//   cnn_28: 580,160 + dinput of conv2 (451,584) and the Linear (15,680) = 1,047,424.
//   transformer_block: its LayerNorm and attention compute dinput anyway, so 2 × forward
//            = 54,525,952.
const std::map<std::string, double> kTrainingBackwardMatmul = {
    {"linear_128_64", 16384},        {"linear_768_3072", 4718592}, {"linear_1000_500", 1000000},
    {"conv7x7_224", 236027904},      {"mlp_784", 537600},         {"cnn_28", 1047424},
    {"transformer_block", 54525952},
};

}  // namespace

TEST_CASE("parameter and FLOP counts of every zoo model match the hand-computed values") {
  for (const Expected& e : kZooCounts) {
    CAPTURE(e.name);
    const Model m = zoo_model(e.name);
    const ParameterCount p = count_parameters(m);
    CHECK(p.total == e.parameters);
    CHECK(p.bytes == 4 * e.parameters);
    CHECK(p.layers.size() == m.size());
    const FlopReport f = count_flops(m);
    CHECK(f.per_sample.matmul == e.flops_per_sample);
    CHECK(f.batch == m.batch_size());
    CHECK(f.per_batch.matmul == e.flops_per_sample * static_cast<double>(m.batch_size()));
    CAPTURE(f.backward_per_sample.matmul);
    CHECK(f.backward_per_sample.matmul == kTrainingBackwardMatmul.at(e.name));
  }
}

TEST_CASE("bias and element-wise FLOPs, activation, gradient and optimizer bytes of every zoo "
          "model match the hand-computed values") {
  for (const Expected& e : kZooCounts) {
    CAPTURE(e.name);
    Model m = zoo_model(e.name);
    const double batch = static_cast<double>(m.batch_size());
    const FlopReport f = count_flops(m);
    CHECK(f.per_sample.bias == e.bias_per_sample);
    CHECK(f.per_sample.elementwise == e.elementwise_per_sample);
    CHECK(f.per_batch.bias == e.bias_per_sample * batch);
    CHECK(f.per_batch.elementwise == e.elementwise_per_sample * batch);
    CHECK(m.activation_bytes() == e.activation_bytes);
    const MemoryReport r = measure_memory(m);
    CHECK(r.activation_bytes == e.activation_bytes);
    CHECK(r.parameter_bytes == 4 * e.parameters);
    CHECK(r.gradient_bytes == e.gradient_bytes);
    CHECK(r.optimizer_bytes.sgd == 0);
    CHECK(r.optimizer_bytes.momentum == e.gradient_bytes);
    CHECK(r.optimizer_bytes.adam == e.adam_bytes);
    CHECK(r.optimizer_bytes.adamw == e.adam_bytes);
  }
}

TEST_CASE("per-layer counts and the FLOP breakdown of the MLP and the CNN") {
  SUBCASE("mlp_784: parameters per layer, bias and ReLU work") {
    const Model m = zoo_model("mlp_784");
    const ParameterCount p = count_parameters(m);
    std::vector<std::size_t> per_layer;
    for (const auto& l : p.layers) per_layer.push_back(l.parameters);
    CHECK(per_layer == std::vector<std::size_t>{200960, 0, 32896, 0, 1290});
    CHECK(p.layers[1].type == "ReLU");
    const FlopReport f = count_flops(m);
    CHECK(f.per_sample.bias == 256 + 128 + 10);
    CHECK(f.per_sample.elementwise == 256 + 128);  // one per ReLU element
    CHECK(f.layers[0].per_sample.matmul == 2 * 784 * 256);
    CHECK(f.layers[1].per_sample.matmul == 0);
    CHECK(f.layers[2].output_shape == Shape{64, 128});
    CHECK(f.per_batch.bias == 64 * (256 + 128 + 10));
  }
  SUBCASE("cnn_28: conv bias per output element, pooling comparisons") {
    const FlopReport f = count_flops(zoo_model("cnn_28"));
    CHECK(f.layers[0].per_sample.bias == 8 * 28 * 28);
    CHECK(f.layers[2].per_sample.elementwise == 8 * 14 * 14 * 3);  // 2² − 1 per output
    CHECK(f.layers[3].per_sample.matmul == 451584);
    CHECK(f.layers[6].per_sample.total() == 0);  // Flatten
    CHECK(f.per_sample.bias == 6272 + 3136 + 10);
    CHECK(f.per_sample.elementwise == 6272 + 4704 + 3136 + 2352);
  }
  SUBCASE("another batch scales per-batch counts, never per-sample ones") {
    const Model m = zoo_model("linear_128_64");
    const FlopReport f = count_flops(m, 5);
    CHECK(f.batch == 5);
    CHECK(f.per_sample.matmul == 16384);
    CHECK(f.per_batch.matmul == 5 * 16384);
    CHECK(f.per_batch.bias == 5 * 64);
    CHECK(f.layers[0].input_shape == Shape{5, 128});
  }
}

TEST_CASE("optimizer state is 0, 1 and 2 copies of the parameters") {
  const OptimizerBytes b = optimizer_bytes(1000);
  CHECK(b.sgd == 0);
  CHECK(b.momentum == 4000);
  CHECK(b.adam == 8000);
  CHECK(b.adamw == 8000);
}

TEST_CASE("measure_memory counts activations and sees a real peak") {
  SUBCASE("mlp_784 by hand") {
    Model m = zoo_model("mlp_784");
    const MemoryReport r = measure_memory(m);
    CHECK(r.batch == 64);
    CHECK(r.parameter_bytes == 4 * 235146);
    CHECK(r.gradient_bytes == r.parameter_bytes);
    CHECK(r.optimizer_bytes.adam == 2 * r.parameter_bytes);
    CHECK(r.activation_bytes == 64 * 4 * (256 + 256 + 128 + 128 + 10));
    CHECK(r.largest_activation_bytes == 64 * 4 * 256);
    CHECK(r.input_bytes == 64 * 784 * 4);
    // The original's estimate: input × 2, and parameters plus that.
    CHECK(r.activation_estimate_bytes == 2 * r.input_bytes);
    CHECK(r.peak_estimate_bytes == r.parameter_bytes + 2 * r.input_bytes);
    CHECK(r.peak_bytes >= r.largest_activation_bytes);
    CHECK(r.allocation_count >= m.size());
    CHECK_FALSE(MemoryTracker::global().tracing());
  }
  SUBCASE("every zoo model: peak at least the largest activation, and finite") {
    for (const ZooEntry& e : zoo()) {
      CAPTURE(e.name);
      Model m = model_from_json(e.spec);
      const MemoryReport r = measure_memory(m);
      CHECK(r.peak_bytes >= r.largest_activation_bytes);
      // Finite: below everything the pass could hold at once, scratch included (im2col is
      // k² × the input, the attention scores heads·T² per sample).
      CHECK(r.peak_bytes < 64 * (r.activation_bytes + r.input_bytes));
    }
  }
  SUBCASE("the layers' keep_for_backward is left as it was") {
    Model m = zoo_model("mlp_784");
    m.set_keep_for_backward(true);
    measure_memory(m);
    CHECK(m.layer(0).keep_for_backward());
    m.set_keep_for_backward(false);
    measure_memory(m);
    CHECK_FALSE(m.layer(0).keep_for_backward());
  }
}

TEST_CASE("training memory adds parameters, gradients and optimizer state to the step's peak") {
  Model m = zoo_model("mlp_784");
  const TrainingMemory t = measure_training_memory(m);
  const MemoryReport inference = measure_memory(m);
  // Keeping caches for backward holds more than inference, which frees as it goes.
  CHECK(t.step_peak_bytes >= inference.peak_bytes);
  CHECK(t.gradient_bytes == t.parameter_bytes);
  const std::size_t fixed = 2 * t.parameter_bytes + t.step_peak_bytes;
  CHECK(t.total_bytes.sgd == fixed);
  CHECK(t.total_bytes.momentum == fixed + t.parameter_bytes);
  CHECK(t.total_bytes.adam == fixed + 2 * t.parameter_bytes);
  CHECK(t.total_bytes.adamw == t.total_bytes.adam);
  bool zeroed = true;  // gradients were zeroed again
  for (const ParameterRef& p : m.parameters()) {
    for (std::size_t i = 0; i < p.grad->size(); ++i) zeroed = zeroed && (*p.grad)[i] == 0.0f;
  }
  CHECK(zeroed);
}

TEST_CASE("measure_latency and profile_layer report the Timer's statistics per call") {
  Model m = zoo_model("linear_128_64");
  const Stats s = measure_latency(m, tiny_timer());
  CHECK(s.samples >= 1);
  CHECK(std::isfinite(s.median_ms));
  CHECK(s.ci95_low_ms <= s.ci95_high_ms);

  Linear layer(128, 64);
  const LayerProfile p = profile_layer(layer, {8, 128}, tiny_timer());
  CHECK(p.type == "Linear");
  CHECK(p.label == "Linear");
  CHECK(p.parameters == 8256);
  CHECK(p.output_shape == Shape{8, 64});
  CHECK(p.flops_per_batch.matmul == 8 * 16384);
  CHECK(p.activation_bytes == 8 * 64 * 4);
  CHECK(p.peak_bytes >= p.activation_bytes);
  CHECK(p.forward.samples >= 1);
  CHECK(layer.keep_for_backward());  // restored
}

TEST_CASE("the bottleneck is judged against the given roofs, deterministically") {
  // linear_128_64 at batch 32, all FLOP categories: 32·(16,384 + 64) = 526,336.
  // Bytes moved: parameters 33,024 + input 32·128·4 = 16,384 + output 32·64·4 = 8,192.
  Model m = zoo_model("linear_128_64");
  ProfileOptions o = tiny_options();
  SUBCASE("below the ridge: memory-bound") {
    const ForwardProfile f = profile_forward_pass(m, o);
    CHECK(f.bytes_moved == 57600);
    CHECK(f.arithmetic_intensity == doctest::Approx(526336.0 / 57600));
    CHECK(std::string(to_string(f.bottleneck.placement.bound)) == "memory-bound");
    CHECK(f.bottleneck.placement.verdict ==
          "memory-bound: intensity 9.1 FLOP/byte is below the ridge point 10 FLOP/byte; "
          "attainable 91 GFLOP/s of 100 peak");
    CHECK(f.bottleneck.placement.ridge_flops_per_byte == doctest::Approx(10));
    CHECK(f.bottleneck.placement.attainable_gflops_per_s == doctest::Approx(91.378).epsilon(1e-4));
    CHECK(f.bottleneck.machine.source == "given");
    CHECK(f.bottleneck.original_verdict.size() > 0);
    CHECK(f.bottleneck.original_efficiency <= 1.0);
  }
  SUBCASE("twice the bandwidth halves the ridge: compute-bound") {
    o.machine->bandwidth_gb_per_s = 20;
    const ForwardProfile f = profile_forward_pass(m, o);
    CHECK(std::string(to_string(f.bottleneck.placement.bound)) == "compute-bound");
    CHECK(f.bottleneck.placement.verdict ==
          "compute-bound: intensity 9.1 FLOP/byte is above the ridge point 5 FLOP/byte; "
          "attainable 100 GFLOP/s of 100 peak");
  }
  SUBCASE("the headline GFLOP/s is the matmul count over the median") {
    const ForwardProfile f = profile_forward_pass(m, o);
    CHECK(f.gflops_per_s == doctest::Approx(32 * 16384 / (f.latency.median_ms * 1e6)));
    CHECK(f.gflops_per_s_all == doctest::Approx(526336 / (f.latency.median_ms * 1e6)));
    CHECK(f.samples_per_s == doctest::Approx(32 / (f.latency.median_ms * 1e-3)));
  }
}

TEST_CASE("without given roofs the profiler uses the machine roofs set explicitly") {
  set_machine_roofs({40, 8}, "test");  // instead of probing this machine
  Model m = zoo_model("linear_128_64");
  ProfileOptions o = tiny_options();
  o.machine.reset();
  const ForwardProfile f = profile_forward_pass(m, o);
  clear_machine_roofs();
  CHECK(f.bottleneck.machine.source == "probe");
  CHECK(f.bottleneck.machine.simd_backend == "test");
  CHECK(f.bottleneck.machine.peak_gflops_per_s == 40);
  CHECK(f.bottleneck.machine.bandwidth_gb_per_s == 8);
  CHECK(f.bottleneck.placement.ridge_flops_per_byte == doctest::Approx(5));
  CHECK(std::string(to_string(f.bottleneck.placement.bound)) == "compute-bound");  // 9.1 FLOP/byte
}

TEST_CASE("the machine roofs change through set_machine_roofs, never by probing") {
  const MachineRoofs& set = set_machine_roofs({40, 8}, "test");
  CHECK(set.peak_gflops_per_s == 40);
  CHECK(set.bandwidth_gb_per_s == 8);
  CHECK(set.source == "probe");
  CHECK(set.simd_backend == "test");

  SUBCASE("a probe measures and leaves the roofs as they were") {
    ProbeOptions tiny;
    tiny.budget_ms = 5;
    tiny.samples = 2;
    tiny.bandwidth_bytes = 64u << 10;
    const MachineProfile probed = probe_machine(tiny);
    REQUIRE(probed.peak_gflops_per_s() != 40);  // a real probe of this machine
    CHECK(machine_roofs().peak_gflops_per_s == 40);
    CHECK(machine_roofs().bandwidth_gb_per_s == 8);
    CHECK(machine_roofs().simd_backend == "test");
  }
  SUBCASE("setting them again replaces them") {
    set_machine_roofs({100, 25});
    CHECK(machine_roofs().peak_gflops_per_s == 100);
    CHECK(machine_roofs().bandwidth_gb_per_s == 25);
    CHECK(machine_roofs().simd_backend == "");
  }
  SUBCASE("roofs that are not finite and above 0 are refused, naming the field") {
    CHECK_THROWS_WITH_AS(set_machine_roofs({-1, 8}),
                         "peak_gflops_per_s must be a finite number greater than 0, got -1",
                         ValueError);
    CHECK_THROWS_WITH_AS(set_machine_roofs({40, 0}),
                         "bandwidth_gb_per_s must be a finite number greater than 0, got 0",
                         ValueError);
    CHECK_THROWS_WITH_AS(set_machine_roofs({std::numeric_limits<double>::infinity(), 8}),
                         "peak_gflops_per_s must be a finite number greater than 0, got Infinity",
                         ValueError);
    CHECK_THROWS_WITH_AS(set_machine_roofs({40, std::nan("")}),
                         "bandwidth_gb_per_s must be a finite number greater than 0, got NaN",
                         ValueError);
    CHECK(machine_roofs().peak_gflops_per_s == 40);  // unchanged by a refused call
    CHECK(machine_roofs().bandwidth_gb_per_s == 8);
  }
  clear_machine_roofs();
}

TEST_CASE("profile_backward_pass puts counted backward FLOPs beside the 2x rule") {
  Model m = zoo_model("mlp_784");
  const BackwardProfile b = profile_backward_pass(m, tiny_options());
  CHECK(b.batch == 64);
  CHECK(b.estimated_flops == 2 * 64 * 469504.0);  // the original's rule, kept beside the count
  // Counted: every dweight (469,504) and the dinput of Linear #2 and #4 (65,536 + 2,560),
  // none for Linear #0: below the rule.
  CHECK(b.flops_per_batch.matmul == 64 * 537600.0);
  CHECK(b.forward_flops_per_batch.matmul == 64 * 469504.0);
  CHECK(b.flops_ratio_to_forward == doctest::Approx(537600.0 / 469504.0));
  CHECK(b.skipped_input_grad_flops.matmul == 64 * 2.0 * 784 * 256);
  CHECK(b.flops_per_batch.bias == 64 * (256 + 128 + 10.0));  // the dbias sums
  CHECK(b.flops_per_batch.elementwise == 64 * (256 + 128.0));  // ReLU backward, 1 each
  CHECK(b.estimated_ms == 2 * b.forward.median_ms);
  CHECK(b.measured_ms == b.backward.median_ms);
  CHECK(b.backward.samples >= 1);
  CHECK(b.memory.step_peak_bytes > 0);
  // Forward and backward come from one interleaved run: as many rounds of each, and the
  // ratio divides the two medians of that run. On the real clock the rounds are as many as
  // fit the 50 ms budget: one when a round outlasts it (the scalar build under the
  // sanitizers); the next case pins the count on a fake clock.
  CHECK(b.rounds >= 1);
  CHECK(b.forward.per_call_ms.size() == b.rounds);
  CHECK(b.backward.per_call_ms.size() == b.rounds);
  CHECK(b.ratio_to_forward == doctest::Approx(b.backward.median_ms / b.forward.median_ms));
  const json j = to_json(b);
  CHECK(j["timing"] == "interleaved");
  CHECK(j["rounds"] == b.rounds);
  CHECK(j["forward_ms"] == b.forward.median_ms);
  CHECK(j["forward_latency"]["samples"].get<std::size_t>() + j["forward_latency"]["outliers"].get<std::size_t>() == b.rounds);
  CHECK(j["latency"]["samples"].get<std::size_t>() + j["latency"]["outliers"].get<std::size_t>() == b.rounds);
}

TEST_CASE("profile_backward_pass times forward and backward interleaved on the given clock") {
  // A clock read costs 2^-20 ms and nothing else advances it, so every batch of calls
  // lasts two reads' worth: the run must still take the same rounds of each, in one run.
  FakeClock clock(0.0, 1.0 / (1 << 20));
  Model m = zoo_model("linear_128_64");
  ProfileOptions o = tiny_options();
  o.timer.samples = 3;
  o.timer.max_total_ms = 1e6;
  o.timer.max_inner_iterations = 4;
  const BackwardProfile b = profile_backward_pass(m, o, clock);
  CHECK(b.rounds == 3);
  CHECK(b.forward.per_call_ms.size() == 3);
  CHECK(b.backward.per_call_ms.size() == 3);
  CHECK(b.forward.inner_iterations == 4);
  CHECK(b.backward.inner_iterations == 4);
}

TEST_CASE("a ProfilerContext counts no input gradient for the first layer of a training backward") {
  FakeClock clock(0.0, 0.5);
  Model m = zoo_model("mlp_784");
  std::vector<OperationRow> rows;
  {
    ProfilerContext context(clock);
    context.watch(m);
    m.forward(Tensor::random({64, 784}, 1));
    m.backward_parameters(Tensor::full({64, 10}, 1.0f));
    rows = context.top_operations();
  }
  std::map<std::string, OperationRow> by;
  for (const auto& r : rows) by[r.layer + " " + r.pass] = r;
  CHECK(by["Linear #0 backward"].flops == 64 * 2.0 * 784 * 256);      // dweight only
  CHECK(by["Linear #2 backward"].flops == 2 * 64 * 2.0 * 256 * 128);  // dweight and dinput
}

TEST_CASE("a ProfilerContext records every layer's forward and backward calls") {
  FakeClock clock(0.0, 0.5);  // every clock read advances time by 0.5 ms
  Model m = zoo_model("mlp_784");
  const Tensor x = Tensor::random({64, 784}, 1);
  const Tensor dout = Tensor::full({64, 10}, 1.0f);
  std::vector<OperationRow> rows;
  {
    ProfilerContext context(clock);
    context.watch(m);
    CHECK(layer_observer() == &context);
    for (int i = 0; i < 2; ++i) m.forward(x);
    m.backward(dout);
    rows = context.top_operations();
    CHECK(context.top_level_ms() == doctest::Approx(15 * 0.5));
  }
  CHECK(layer_observer() == nullptr);
  REQUIRE(rows.size() == 10);  // five layers × two passes
  std::map<std::string, OperationRow> by;
  for (const auto& r : rows) by[r.layer + " " + r.pass] = r;
  for (const char* name : {"Linear #0", "ReLU #1", "Linear #2", "ReLU #3", "Linear #4"}) {
    CAPTURE(name);
    REQUIRE(by.count(std::string(name) + " forward") == 1);
    REQUIRE(by.count(std::string(name) + " backward") == 1);
    const OperationRow& f = by[std::string(name) + " forward"];
    CHECK(f.calls == 2);
    CHECK(f.total_ms == doctest::Approx(1.0));  // two calls, each one read apart
    CHECK(f.self_ms == doctest::Approx(1.0));
    CHECK(f.depth == 0);
    CHECK(f.percent_of_total == doctest::Approx(100.0 / 7.5));
    CHECK(by[std::string(name) + " backward"].calls == 1);
  }
  const OperationRow& l0 = by["Linear #0 forward"];
  CHECK(l0.type == "Linear");
  CHECK(l0.flops == 2 * 64 * 2.0 * 784 * 256);
  CHECK(l0.gflops_per_s == doctest::Approx(l0.flops / 1e6));  // over 1 ms
  CHECK(by["Linear #0 backward"].flops == 2 * 64 * 2.0 * 784 * 256);  // (Model::backward computes dinput everywhere; the training backward is tested below.)
  CHECK(by["ReLU #1 forward"].gflops_per_s == 0);  // no matmul FLOPs
  // Longest first; ties in first-call order.
  CHECK(rows[0].layer == "Linear #0");
  CHECK(rows[0].pass == "forward");
}

TEST_CASE("a ProfilerContext names a TransformerBlock's parts and nests their time") {
  FakeClock clock(0.0, 0.5);
  Model m = zoo_model("transformer_block");
  const Tensor x = Tensor::random({4, 64, 128}, 1);
  ProfilerContext context(clock);
  context.watch(m);
  m.forward(x);
  const auto rows = context.top_operations();
  REQUIRE(rows.size() == 7);  // the block and its six parts
  CHECK(rows[0].layer == "TransformerBlock #0");
  CHECK(rows[0].depth == 0);
  // Begin, six parts of two reads each, end: 13 reads apart.
  CHECK(rows[0].total_ms == doctest::Approx(6.5));
  CHECK(rows[0].self_ms == doctest::Approx(3.5));
  CHECK(rows[0].percent_of_total == doctest::Approx(100));
  std::vector<std::string> parts;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    parts.push_back(rows[i].layer);
    CHECK(rows[i].depth == 1);
    CHECK(rows[i].percent_of_total == doctest::Approx(100 * 0.5 / 6.5));
  }
  CHECK(parts == std::vector<std::string>{"TransformerBlock #0 / ln1", "TransformerBlock #0 / attn",
                                          "TransformerBlock #0 / ln2", "TransformerBlock #0 / ffn1",
                                          "TransformerBlock #0 / gelu",
                                          "TransformerBlock #0 / ffn2"});
  CHECK(rows[4].flops == 4 * 2.0 * 64 * 128 * 512);  // ffn1 at batch 4
}

TEST_CASE("ProfilerContexts do not nest") {
  ProfilerContext first;
  CHECK_THROWS_WITH_AS(ProfilerContext(),
                       "a ProfilerContext (or another LayerObserver) is already active; "
                       "contexts do not nest, end the first one before starting another",
                       Error);
  CHECK(layer_observer() == &first);
}

TEST_CASE("attention rows separate the quadratic term from the projections") {
  const auto rows = attention_scaling(128, 4, {64, 128, 256}, 2);
  REQUIRE(rows.size() == 3);
  for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
    CHECK(rows[i + 1].quadratic_flops == 4 * rows[i].quadratic_flops);  // seq doubled
    CHECK(rows[i + 1].projection_flops == 2 * rows[i].projection_flops);
    CHECK(rows[i + 1].score_matrix_bytes == 4 * rows[i].score_matrix_bytes);
    CHECK(rows[i + 1].quadratic_fraction > rows[i].quadratic_fraction);
  }
  const AttentionRow& r = rows[0];
  CHECK(r.projection_flops == 8.0 * 64 * 128 * 128);
  CHECK(r.scores_flops == 2.0 * 64 * 64 * 128);
  CHECK(r.context_flops == r.scores_flops);
  CHECK(r.score_matrix_bytes == 4.0 * 2 * 4 * 64 * 64);  // float · batch · heads · T²
  CHECK(r.weight_bytes == 4.0 * (4 * 128 * 128 + 4 * 128));
  CHECK(r.qkv_bytes == 4.0 * 4 * 2 * 64 * 128);
  // The same convention as the layer.
  MultiHeadAttention mha(128, 4);
  const FlopCounts f = mha.flops_per_sample({1, 64, 128});
  CHECK(r.matmul_flops == f.matmul);
  CHECK(r.softmax_flops == f.elementwise);
  CHECK(r.bias_flops == f.bias);

  CHECK_THROWS_WITH_AS(attention_scaling(128, 3, {64}), "heads must divide d_model (128), got 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(attention_scaling(128, 4, {}),
                       "seq_lengths must hold at least one length, got none", ValueError);
  CHECK_THROWS_WITH_AS(attention_scaling(128, 4, {64, 0}),
                       "seq_lengths[1] must be between 1 and 16777216, got 0", ValueError);
}

TEST_CASE("profile options come from JSON with errors that name the option") {
  const ProfileOptions o = profile_options_from_json(json::parse(
      R"({"samples": 4, "min_sample_ms": 0.5, "batch": 3, "layers": false,
          "machine": {"peak_gflops_per_s": 50, "bandwidth_gb_per_s": 5}})"));
  CHECK(o.timer.samples == 4);
  CHECK(o.timer.min_sample_ms == 0.5);
  CHECK(o.batch == 3);
  CHECK_FALSE(o.layers);
  CHECK(o.backward);
  REQUIRE(o.machine);
  CHECK(o.machine->peak_gflops_per_s == 50);
  CHECK(o.machine->source == "given");
  CHECK(profile_options_from_json(nullptr).timer.samples ==
        default_profile_timer_options().samples);

  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"iterations": 5})")),
                       "unknown option \"iterations\"; the allowed options are warmup, samples, "
                       "min_sample_ms, max_total_ms, batch, layers, backward, context_passes, "
                       "machine, input_seed and controls",
                       ValueError);
  // The page names its own controls for the timer's advice; anything else is refused.
  const ProfileOptions named = profile_options_from_json(
      json::parse(R"({"controls": {"samples": "Measure longer", "budget": "Measure longer"}})"));
  CHECK(named.timer.controls.samples == "Measure longer");
  CHECK(named.timer.controls.budget == "Measure longer");
  CHECK(profile_options_from_json(json::object()).timer.controls.budget.empty());
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"controls": {"time": "x"}})")),
                       "options.controls.time is not a control; options.controls names samples "
                       "and budget",
                       ValueError);
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"controls": {"samples": 3}})")),
                       "options.controls.samples must be a control's name of at most 80 "
                       "characters, got 3",
                       ValueError);
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"controls": "Measure longer"})")),
                       "options.controls must be an object {samples?, budget?} naming the "
                       "reader's controls, got \"Measure longer\"",
                       ValueError);
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"samples": "ten"})")),
                       "options.samples must be an integer, got \"ten\"", ValueError);
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"layers": 1})")),
                       "options.layers must be true or false, got 1", ValueError);
  CHECK_THROWS_WITH_AS(
      profile_options_from_json(json::parse(R"({"machine": {"peak_gflops_per_s": 50}})")),
      "options.machine must be an object {peak_gflops_per_s, bandwidth_gb_per_s}, got "
      "{\"peak_gflops_per_s\":50}",
      ValueError);
  CHECK_THROWS_WITH_AS(
      profile_options_from_json(
          json::parse(R"({"machine": {"peak_gflops_per_s": 0, "bandwidth_gb_per_s": 5}})")),
      "machine.peak_gflops_per_s must be a finite number greater than 0, got 0", ValueError);
  CHECK_THROWS_WITH_AS(profile_options_from_json(json::parse(R"({"samples": 0})")),
                       "samples must be between 1 and 100000, got 0", ValueError);
}

TEST_CASE("the whole profile as JSON has the CLI's fields and the hand-computed counts") {
  const ModelProfile p = profile_spec(zoo_spec("mlp_784"), tiny_options());
  const json j = to_json(p);
  for (const char* key : {"name",
                          "input",
                          "output_shape",
                          "parameters",
                          "parameter_bytes",
                          "flops_per_sample",
                          "flops_per_batch",
                          "flops_breakdown",
                          "activation_bytes",
                          "peak_bytes",
                          "gradient_bytes",
                          "optimizer_bytes",
                          "layers",
                          "latency",
                          "gflops_per_s",
                          "bottleneck",
                          "backward",
                          "top_operations",
                          "bytes_moved",
                          "arithmetic_intensity"}) {
    CAPTURE(key);
    CHECK(j.contains(key));
  }
  CHECK(j["name"] == "mlp_784");
  CHECK(j["input"] == json::array({64, 784}));
  CHECK(j["output_shape"] == json::array({64, 10}));
  CHECK(j["parameters"] == 235146);
  CHECK(j["flops_per_sample"] == 469504.0);
  CHECK(j["flops_per_batch"] == 64 * 469504.0);
  CHECK(j["flops_breakdown"]["bias"] == 64 * 394.0);
  CHECK(j["flops_breakdown"]["elementwise"] == 64 * 384.0);
  CHECK(j["optimizer_bytes"]["adamw"] == 8 * 235146);
  CHECK(j["gradient_bytes"] == 4 * 235146);
  REQUIRE(j["layers"].size() == 5);
  for (const char* key : {"index", "type", "output_shape", "parameters", "flops_per_sample",
                          "activation_bytes", "forward_ms"}) {
    CAPTURE(key);
    CHECK(j["layers"][2].contains(key));
  }
  CHECK(j["layers"][2]["index"] == 2);
  CHECK(j["layers"][2]["type"] == "Linear");
  CHECK(j["layers"][2]["output_shape"] == json::array({64, 128}));
  CHECK(j["layers"][2]["forward_ms"].is_number());
  for (const char* key : {"median_ms", "mean_ms", "stddev_ms", "p95_ms", "p99_ms", "ci95_low_ms",
                          "ci95_high_ms", "cv", "samples"}) {
    CAPTURE(key);
    CHECK(j["latency"].contains(key));
  }
  CHECK(j["bottleneck"]["verdict"].is_string());
  CHECK(j["bottleneck"]["reason"].is_string());
  CHECK(j["backward"]["flops"] == 64 * 537600.0);  // no dinput for Linear #0
  CHECK(j["backward"]["estimated_flops"] == 2 * 64 * 469504.0);
  CHECK(j["backward"]["forward_flops"] == 64 * 469504.0);
  CHECK(j["backward"]["flops_ratio_to_forward"] == doctest::Approx(537600.0 / 469504.0));
  CHECK(j["backward"]["skipped_input_grad_flops"] == 64 * 2.0 * 784 * 256);
  CHECK(j["backward"]["measured_ms"].is_number());
  CHECK(j["backward"]["estimated_ms"].is_number());
  CHECK(j["top_operations"].size() == 10);  // one pass forward and backward, five layers
  CHECK(j["top_operations_passes"] == 1);
  CHECK(j["backward"]["timing"] == "interleaved");

  SUBCASE("without timing layers or backward, those fields are null or absent") {
    ProfileOptions o = tiny_options();
    o.layers = false;
    o.backward = false;
    o.context_passes = 0;
    o.batch = 2;
    const json k = to_json(profile_spec(zoo_spec("mlp_784"), o));
    CHECK(k["input"] == json::array({2, 784}));
    CHECK(k["flops_per_batch"] == 2 * 469504.0);
    CHECK(k["layers"][0]["forward_ms"].is_null());
    CHECK(k["layers"][0]["parameters"] == 200960);
    CHECK(k["backward"].is_null());
    CHECK(k["top_operations"].empty());
  }
}

TEST_CASE("a profile stops with CancelledError when progress says so") {
  std::vector<double> fractions;
  const auto progress = [&](double f) {
    fractions.push_back(f);
    return fractions.size() < 2;
  };
  Model m = zoo_model("mlp_784");
  CHECK_THROWS_WITH_AS(profile_model(m, tiny_options(), progress), "profile of mlp_784 cancelled",
                       CancelledError);
  CHECK(fractions.size() == 2);
  CHECK(fractions[0] > 0);
  CHECK(fractions[1] > fractions[0]);
}

TEST_CASE("experiment points measure one spec at one batch") {
  const json spec = mlp_spec({64, 32, 8}, 4);
  SUBCASE("forward point") {
    const ForwardPoint p = measure_forward_point(spec, 6, tiny_timer());
    CHECK(p.batch == 6);
    CHECK(p.parameters == 64 * 32 + 32 + 32 * 8 + 8);
    CHECK(p.flops_per_sample == 2.0 * (64 * 32 + 32 * 8));
    CHECK(p.flops_per_batch == 6 * p.flops_per_sample);
    CHECK(p.activation_bytes == 6 * 4 * (32 + 32 + 8));
    CHECK(p.peak_bytes >= 6 * 4 * 32);
    CHECK(p.ms_per_sample == doctest::Approx(p.latency.median_ms / 6).scale(0));
  }
  SUBCASE("backward point") {
    const BackwardProfile b = measure_backward_point(spec, 0, tiny_timer());
    CHECK(b.batch == 4);
    // dweight of both Linears, dinput of the second only.
    CHECK(b.flops_per_batch.matmul == 4 * 2.0 * (64 * 32 + 32 * 8 + 32 * 8));
    CHECK(b.estimated_flops == 2 * 4 * 2.0 * (64 * 32 + 32 * 8));
  }
  SUBCASE("memory breakdown") {
    const MemoryBreakdown m = measure_memory_breakdown(spec, 2);
    CHECK(m.inference.batch == 2);
    CHECK(m.inference.parameter_bytes == 4 * (64 * 32 + 32 + 32 * 8 + 8));
    CHECK(m.training.optimizer_bytes.momentum == m.inference.parameter_bytes);
    CHECK(to_json(m)["training"].contains("total_bytes"));
  }
  SUBCASE("profiling overhead counts the layer calls of one forward") {
    const OverheadPoint o =
        measure_profiling_overhead(zoo_spec("transformer_block"), 1, tiny_timer());
    CHECK(o.layer_calls_per_forward == 7);  // the block and its six parts
    CHECK(o.overhead_ms == doctest::Approx(o.with_context_ms - o.plain_ms));
    CHECK(layer_observer() == nullptr);
  }
  SUBCASE("a bad spec is model_from_json's error") {
    CHECK_THROWS_WITH_AS(measure_forward_point(json::parse(R"({"input": [2, 3], "layers": [
                                                   {"type": "Linear", "in": 4, "out": 2}]})"),
                                               0, tiny_timer()),
                         "layers[0].in is 4 but the model input gives 3 features; set "
                         "layers[0].in to 3",
                         ShapeError);
  }
}

TEST_CASE("the original's profile fields: memory efficiency, memory bandwidth and a training step's totals") {
  // linear_128_64 at batch 32: parameters 33,024 bytes, input 32·128·4 = 16,384, output
  // 32·64·4 = 8,192; bytes moved 57,600 (the bottleneck case above).
  Model m = zoo_model("linear_128_64");
  const ForwardProfile f = profile_forward_pass(m, tiny_options());
  CHECK(f.useful_bytes == 33024 + 16384 + 8192);
  CHECK(f.held_bytes == 33024 + 16384 + static_cast<double>(f.memory.peak_bytes));
  CHECK(f.memory_efficiency == doctest::Approx(f.useful_bytes / f.held_bytes));
  // One layer holds nothing between its input and its output: the pass is all useful.
  CHECK(f.memory_efficiency == doctest::Approx(1.0));
  CHECK(f.memory_bandwidth_mb_per_s ==
        doctest::Approx(57600.0 / 1048576.0 / (f.latency.median_ms / 1000.0)));
  CHECK(f.bottleneck.original_memory_bandwidth_mb_per_s ==
        doctest::Approx(static_cast<double>(std::max(f.memory.peak_bytes, f.memory.peak_estimate_bytes)) /
                        1048576.0 / (f.latency.median_ms / 1000.0)));

  SUBCASE("a hidden layer's output held at the peak lowers the efficiency below 1") {
    Model mlp = zoo_model("mlp_784");
    const ForwardProfile g = profile_forward_pass(mlp, tiny_options());
    CHECK(g.memory_efficiency < 1.0);
    CHECK(g.memory_efficiency > 0.0);
    // parameters 235,146·4 + input 64·784·4 + output 64·10·4
    CHECK(g.useful_bytes == 940584 + 200704 + 2560);
    const json j = to_json(g);
    CHECK(j["memory_efficiency"] == g.memory_efficiency);
    CHECK(j["memory_bandwidth_mb_per_s"] == g.memory_bandwidth_mb_per_s);
    CHECK(j["bottleneck"]["original_memory_bandwidth_mb_per_s"] ==
          g.bottleneck.original_memory_bandwidth_mb_per_s);
  }
  SUBCASE("forward + backward totals beside the original's 3 × forward") {
    const BackwardProfile b = profile_backward_pass(m, tiny_options());
    // Forward 32·16,384; backward counts dweight only (the first layer has no dinput).
    CHECK(b.total_flops == 32 * 16384.0 + b.flops_per_batch.matmul);
    CHECK(b.total_flops == 2 * 32 * 16384.0);
    CHECK(b.estimated_total_flops == 3 * 32 * 16384.0);
    CHECK(b.total_ms == doctest::Approx(b.forward.median_ms + b.backward.median_ms));
    CHECK(b.estimated_total_ms == doctest::Approx(3 * b.forward.median_ms));
    CHECK(b.total_memory_bytes == 33024 + 33024 + b.memory.step_peak_bytes);
    CHECK(b.total_gflops_per_s == doctest::Approx(b.total_flops / (b.total_ms * 1e6)));
    const json j = to_json(b);
    for (const char* key : {"total_flops", "total_ms", "total_gflops_per_s", "total_memory_bytes",
                            "estimated_total_flops", "estimated_total_ms"}) {
      CAPTURE(key);
      CHECK(j.contains(key));
    }
  }
}
