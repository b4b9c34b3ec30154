// Protects the measurement points the experiments and the CLI reports are built from, never
// their speed: measure_operation's counts against the documented formulas for every op,
// its roofline placement against given roofs, its errors with their full messages; the one-
// size read-bandwidth point; the scoped layer matmul variant and the Linear point behind
// measureLinear; the GELU FLOP constant shared by the layer and the roofline; and the CLI
// report validation (cli_report_from_text) on hand-written reports.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/model/layers.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/roofline/operations.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/roofline/report.hpp"
#include "perflab/roofline/roofline.hpp"

using namespace perflab;

namespace {

TimerOptions tiny_timer() {
  TimerOptions t;
  t.warmup = 1;
  t.samples = 3;
  t.min_sample_ms = 0.1;
  t.max_total_ms = 30;
  return t;
}

OperationOptions tiny(std::string variant = "") {
  OperationOptions o;
  o.timer = tiny_timer();
  o.variant = std::move(variant);
  return o;
}

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

void check_rates(const OperationMeasurement& m) {
  INFO(m.op);
  CHECK(finite_positive(m.gflops_per_s));
  CHECK(finite_positive(m.gb_per_s));
  CHECK(finite_positive(m.ns_per_element));
  // Two samples fit the 30 ms budget on an idle machine; under a sanitizer on a busy one a
  // single call can outlast it, and then the Timer stops after one sample and says so.
  CHECK((m.stats.samples >= 2 || m.stats.warning.find("budget") != std::string::npos));
  CHECK(m.gflops_per_s == doctest::Approx(m.flops / (m.stats.median_ms * 1e6)));
  CHECK(m.intensity == doctest::Approx(m.flops / m.bytes));
}

}  // namespace

TEST_CASE("measure_operation counts every op by its documented formula") {
  SUBCASE("matmul: 2N³ FLOPs and 12N² bytes, elements are the output's N²") {
    const auto m = measure_operation("matmul", 24, tiny());
    CHECK(m.variant == "packed");
    CHECK(m.elements == 24 * 24);
    CHECK(m.flops == 2.0 * 24 * 24 * 24);
    CHECK(m.bytes == 12.0 * 24 * 24);
    check_rates(m);
    CHECK(measure_operation("matmul", 8, tiny("naive")).variant == "naive");
  }
  SUBCASE("add and mul: n FLOPs, 12n bytes") {
    for (const char* op : {"add", "mul"}) {
      const auto m = measure_operation(op, 1000, tiny());
      CHECK(m.variant == "simd");
      CHECK(m.elements == 1000);
      CHECK(m.flops == 1000);
      CHECK(m.bytes == 12000);
      check_rates(m);
    }
  }
  SUBCASE("gelu: 9 FLOPs per element; 8 bytes fused, 72 unfused") {
    const auto fused = measure_operation("gelu", 1000, tiny());
    CHECK(fused.variant == "fused-simd");
    CHECK(fused.flops == 9000);
    CHECK(fused.bytes == 8000);
    check_rates(fused);
    const auto unfused = measure_operation("gelu", 1000, tiny("unfused"));
    CHECK(unfused.flops == 9000);
    CHECK(unfused.bytes == 72000);
  }
  SUBCASE("sum: n FLOPs, 4n bytes") {
    const auto m = measure_operation("sum", 4096, tiny("naive"));
    CHECK(m.variant == "naive");
    CHECK(m.flops == 4096);
    CHECK(m.bytes == 4 * 4096);
    check_rates(m);
  }
  SUBCASE("softmax: rows of 1024, n rounded down to whole rows; 5 FLOPs, 12 or 20 bytes each") {
    const auto m = measure_operation("softmax", 3000, tiny());
    CHECK(m.n == 3000);
    CHECK(m.elements == 2048);
    CHECK(m.flops == 5.0 * 2048);
    CHECK(m.bytes == 12.0 * 2048);
    check_rates(m);
    CHECK(measure_operation("softmax", 100, tiny("naive")).bytes == 20.0 * 100);
  }
  SUBCASE("layernorm: 7 FLOPs per element, 12n + 8·cols bytes fused, 16n + 8·cols naive") {
    const auto m = measure_operation("layernorm", 2048, tiny());
    CHECK(m.elements == 2048);
    CHECK(m.flops == 7.0 * 2048);
    CHECK(m.bytes == 12.0 * 2048 + 8.0 * 1024);
    check_rates(m);
    CHECK(measure_operation("layernorm", 512, tiny("naive")).bytes == 16.0 * 512 + 8.0 * 512);
  }
  SUBCASE("no placement without roofs") { CHECK_FALSE(measure_operation("add", 8, tiny()).roofline); }
}

TEST_CASE("measure_operation places the row on the given roofs") {
  OperationOptions o = tiny();
  o.roofs = Roofs{100, 10};  // ridge 10 FLOP/byte
  const auto m = measure_operation("add", 1000, o);
  REQUIRE(m.roofline);
  const RooflinePlacement& r = *m.roofline;
  CHECK(r.roofs.peak_gflops_per_s == 100);
  CHECK(r.roofs.bandwidth_gb_per_s == 10);
  CHECK(r.ridge_flops_per_byte == 10);
  CHECK(r.bound == Bound::Memory);  // intensity 1/12
  CHECK(r.attainable_gflops_per_s == doctest::Approx(10.0 / 12));
  CHECK(r.fraction_of_attainable == doctest::Approx(m.gflops_per_s / (10.0 / 12)));
  CHECK(r.verdict == roofline_verdict(100, 10, 1.0 / 12));

  const nlohmann::json j = to_json(m);
  CHECK(j["bound"] == "memory-bound");
  CHECK(j["ridge_flops_per_byte"] == 10);
  CHECK(j["peak_gflops_per_s"] == 100);
  CHECK(j.contains("verdict"));
  CHECK_FALSE(to_json(measure_operation("add", 8, tiny())).contains("bound"));
}

TEST_CASE("measure_operation rejects bad arguments with messages naming them") {
  CHECK_THROWS_WITH_AS(measure_operation("conv", 8, tiny()),
                       "unknown operation 'conv'; known operations: matmul, add, mul, gelu, sum, "
                       "softmax, layernorm",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("add", 0, tiny()),
                       "n must be between 1 and 16777216 elements for add, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("softmax", 16777217, tiny()),
                       "n must be between 1 and 16777216 elements for softmax, got 16777217",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("matmul", 5000, tiny()),
                       "n must be between 1 and 4096, got 5000", ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("mul", 8, tiny("naive")),
                       "unknown mul variant 'naive'; known variants: simd", ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("sum", 8, tiny("fast")),
                       "unknown sum variant 'fast'; known variants: naive, simd", ValueError);
  CHECK_THROWS_WITH_AS(measure_operation("layernorm", 8, tiny("fast")),
                       "unknown layernorm variant 'fast'; known variants: naive, fused",
                       ValueError);
  OperationOptions o = tiny();
  o.roofs = Roofs{100, 0};
  CHECK_THROWS_WITH_AS(measure_operation("add", 8, o),
                       "bandwidth_gb_per_s must be a finite number greater than 0, got 0",
                       ValueError);
  o = tiny();
  o.timer.samples = 0;
  CHECK_THROWS_AS(measure_operation("add", 8, o), ValueError);
}

TEST_CASE("the measurement rows carry the documented counts in JSON") {
  const MatmulMeasurement mm = measure_matmul("simd", 12, tiny_timer());
  CHECK(mm.bytes == 12.0 * 144);
  CHECK(mm.intensity == doctest::Approx(2.0));  // N/6
  CHECK(finite_positive(mm.gb_per_s));
  const nlohmann::json j = to_json(mm);
  CHECK(j["bytes"] == 12.0 * 144);
  CHECK(j["flops"] == 2.0 * 12 * 12 * 12);
  const MatmulTiles tiles{4, 8, 2};
  const nlohmann::json blocked = to_json(measure_matmul_blocked(12, tiles, tiny_timer()), tiles);
  CHECK(blocked["variant"] == "blocked");
  CHECK(blocked["tiles"] == nlohmann::json({{"tile_m", 4}, {"tile_n", 8}, {"tile_k", 2}}));

  const nlohmann::json g = to_json(measure_gelu("unfused", 100, tiny_timer()));
  CHECK(g["elements"] == 100);
  CHECK(g["flops"] == 900);
  CHECK(g["bytes"] == 7200);
  CHECK(finite_positive(g["gflops_per_s"].get<double>()));
}

TEST_CASE("GELU costs 9 FLOPs per element in the layer count and on the roofline alike") {
  CHECK(kGeluFlopsPerElement == 9);
  CHECK(flop_cost::kGeluForward == kGeluFlopsPerElement);
  CHECK(cost_gelu_fused(10).flops == 90);
  CHECK(cost_gelu_unfused(10).flops == 90);
  GELU gelu;
  CHECK(gelu.flops_per_sample({2, 5}).elementwise == 45);
  // Backward: the six operations up to tanh again, then 13 for the derivative.
  CHECK(gelu.backward_flops_per_sample({2, 5}).elementwise == 19 * 5);
}

TEST_CASE("probe_read_bandwidth measures one sweep size, rounded to 128-byte blocks") {
  const SweepRow row = probe_read_bandwidth(64u << 10, tiny_timer());
  CHECK(row.bytes == 64u << 10);
  CHECK(finite_positive(row.gb_per_s));
  CHECK(row.stats.samples >= 2);
  // The row carries what its rate is made of: whole passes over the working set per call,
  // divided by the fastest call.
  CHECK(row.bytes_per_call >= static_cast<double>(row.bytes));
  CHECK(std::fmod(row.bytes_per_call, static_cast<double>(row.bytes)) == 0);
  CHECK(row.gb_per_s == doctest::Approx(row.bytes_per_call / (row.stats.min_ms * 1e6)));
  CHECK(probe_read_bandwidth(4096 + 100, tiny_timer()).bytes == 4096);
  CHECK_THROWS_WITH_AS(probe_read_bandwidth(1024, tiny_timer()),
                       "bytes must be between 4096 (4.0 KiB) and 268435456 (256.0 MiB), got 1024",
                       ValueError);
  SUBCASE("a memory cap too small for the size is a clear error") {
    const std::size_t previous = MemoryTracker::global().cap_bytes();
    MemoryTracker::global().set_cap_bytes(MemoryTracker::global().current_bytes() + (16u << 10));
    CHECK_THROWS_AS(probe_read_bandwidth(1u << 20, tiny_timer()), AllocationError);
    MemoryTracker::global().set_cap_bytes(previous);
  }
}

TEST_CASE("a LayerMatmulVariantScope swaps the layers' matmul and restores it") {
  CHECK(layer_matmul_variant() == "packed");
  Linear layer(3, 2, false, 7);
  const Tensor x = Tensor::random({4, 3}, 11);
  const Tensor fast = layer.forward(x);
  {
    const LayerMatmulVariantScope outer("naive");
    CHECK(layer_matmul_variant() == "naive");
    {
      const LayerMatmulVariantScope inner("reordered");
      CHECK(layer_matmul_variant() == "reordered");
    }
    CHECK(layer_matmul_variant() == "naive");
    const Tensor slow = layer.forward(x);
    for (std::size_t i = 0; i < fast.size(); ++i) CHECK(slow[i] == doctest::Approx(fast[i]));
  }
  CHECK(layer_matmul_variant() == "packed");
  CHECK_THROWS_AS(LayerMatmulVariantScope("fast"), ValueError);
  CHECK(layer_matmul_variant() == "packed");
}

TEST_CASE("measure_linear_point profiles one Linear layer with the named variant") {
  const LinearPoint p = measure_linear_point(16, 8, 4, "naive", tiny_timer());
  CHECK(p.variant == "naive");
  CHECK(p.in_features == 16);
  CHECK(p.out_features == 8);
  CHECK(p.batch == 4);
  CHECK(p.flops == 2.0 * 4 * 16 * 8);
  CHECK(finite_positive(p.gflops_per_s));
  CHECK(layer_matmul_variant() == "packed");
  const nlohmann::json j = to_json(p);
  CHECK(j["flops"] == 1024);
  CHECK(j["variant"] == "naive");
  CHECK_THROWS_WITH_AS(measure_linear_point(0, 8, 4, "naive", tiny_timer()),
                       "in_features must be between 1 and 16777216, got 0", ValueError);
  CHECK_THROWS_WITH_AS(measure_linear_point(4096, 4096, 4096, "naive", tiny_timer()),
                       "batch × in_features × out_features must be at most 1073741824, got "
                       "4096 × 4096 × 4096 = 68719476736",
                       ValueError);
  // The product of the largest sizes passes 2^64: written exactly, not through an integer
  // conversion that overflows.
  CHECK_THROWS_WITH_AS(measure_linear_point(16777216, 16777216, 16777216, "packed", tiny_timer()),
                       "batch × in_features × out_features must be at most 1073741824, got "
                       "16777216 × 16777216 × 16777216 = 4722366482869645213696",
                       ValueError);
  CHECK_THROWS_WITH_AS(measure_linear_point(1000000, 3, 1000, "packed", tiny_timer()),
                       "batch × in_features × out_features must be at most 1073741824, got "
                       "1000 × 1000000 × 3 = 3000000000",
                       ValueError);
  CHECK_THROWS_AS(measure_linear_point(8, 8, 8, "fast", tiny_timer()), ValueError);
  CHECK(layer_matmul_variant() == "packed");
}

TEST_CASE("cli_report_from_text normalizes a report and names what is wrong") {
  nlohmann::json report = {
      {"tool", "perflab"},
      {"kind", "roofline"},
      {"version", "0.1.0"},
      {"machine", {{"peak_gflops_per_s", 100}, {"bandwidth_gb_per_s", 10}}},
      {"rows",
       {{{"op", "matmul"}, {"variant", "packed"}, {"n", 64}, {"elements", 4096},
         {"flops", 524288}, {"bytes", 49152}, {"gflops_per_s", 20}, {"gb_per_s", 2},
         {"ns_per_element", 6}, {"stats", {{"median_ms", 0.026}}}}}}};
  SUBCASE("rows are placed on the report's roofs") {
    const nlohmann::json out = cli_report_from_text(report.dump());
    CHECK(out["kind"] == "roofline");
    const nlohmann::json& row = out["rows"][0];
    CHECK(row["intensity"].get<double>() == doctest::Approx(64.0 / 6));
    CHECK(row["bound"] == "compute-bound");
    CHECK(row["attainable_gflops_per_s"] == 100);
    CHECK(row["fraction_of_attainable"].get<double>() == doctest::Approx(0.2));
  }
  SUBCASE("errors") {
    CHECK_THROWS_WITH_AS(cli_report_from_text("[1]"),
                         "pasted text is not perflab JSON: expected an object, got an array; "
                         "paste the whole output of `perflab roofline --json` or `perflab bench "
                         "--json`",
                         ValueError);
    report["rows"][0]["bytes"] = 0;
    CHECK_THROWS_WITH_AS(cli_report_from_text(report.dump()),
                         "pasted perflab JSON: rows[0].bytes must be a finite number above 0, "
                         "got 0",
                         ValueError);
    report["rows"][0]["op"] = "conv";
    CHECK_THROWS_WITH_AS(cli_report_from_text(report.dump()),
                         "pasted perflab JSON: rows[0].op is \"conv\"; known operations: matmul, "
                         "add, mul, gelu, sum, softmax, layernorm",
                         ValueError);
    // Found by fuzz/report_fuzz.cpp: a "quick" that is not a boolean ended the reader with
    // the JSON library's type_error (the binding cliReport answered with library text).
    for (const auto& [quick, shown] : {std::pair{nlohmann::json("yes"), "\"yes\""},
                                       std::pair{nlohmann::json(nullptr), "null"},
                                       std::pair{nlohmann::json::array({1}), "[1]"}}) {
      nlohmann::json odd = report;
      odd["quick"] = quick;
      CHECK_THROWS_WITH_AS(cli_report_from_text(odd.dump()),
                           ("pasted perflab JSON: quick must be true or false, got " +
                            std::string(shown)).c_str(),
                           ValueError);
    }
    report["rows"] = nlohmann::json::array();
    CHECK_THROWS_WITH_AS(cli_report_from_text(report.dump()),
                         "pasted perflab JSON: rows must be a non-empty array, got an empty array",
                         ValueError);
    report["machine"]["bandwidth_gb_per_s"] = "fast";
    CHECK_THROWS_WITH_AS(cli_report_from_text(report.dump()),
                         "pasted perflab JSON: machine.bandwidth_gb_per_s must be a finite number "
                         "above 0, got a string",
                         ValueError);
  }
}

TEST_CASE("the quick reports measure every planned row and read back through the validator") {
  const nlohmann::json bench = bench_report("test", true);
  CHECK(bench["tool"] == "perflab");
  CHECK(bench["kind"] == "bench");
  CHECK(bench["rows"].size() == 2 * matmul_variants().size() + gelu_variants().size());
  const nlohmann::json back = cli_report_from_text(bench.dump());
  CHECK(back["rows"].size() == bench["rows"].size());
  for (const auto& row : back["rows"]) CHECK(finite_positive(row["gflops_per_s"].get<double>()));
}
