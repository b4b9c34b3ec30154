// Protects the machine probe's contract, never its speed: option validation messages, figures
// that are finite and positive with budgets of a few milliseconds, FLOP and byte counts per
// call that follow from the documented kernels, buffers the tracker sees and a cap that
// shrinks them, sweep rows that cover the requested range, progress and cancellation.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/tensor/memory.hpp"
#include "perflab/roofline/probe.hpp"

using namespace perflab;

namespace {

// Small and fast: a few milliseconds per figure, 1 MiB for the bandwidth buffers.
ProbeOptions tiny_options() {
  ProbeOptions o;
  o.budget_ms = 3;
  o.samples = 3;
  o.bandwidth_bytes = 1u << 20;
  o.sweep_min_bytes = 4u << 10;
  o.sweep_max_bytes = 64u << 10;
  return o;
}

bool finite_positive(double v) { return std::isfinite(v) && v > 0; }

// Sets the global tracker's cap for one test and restores the previous one.
struct CapGuard {
  explicit CapGuard(std::size_t cap) : previous(MemoryTracker::global().cap_bytes()) {
    MemoryTracker::global().set_cap_bytes(cap);
  }
  ~CapGuard() { MemoryTracker::global().set_cap_bytes(previous); }
  CapGuard(const CapGuard&) = delete;
  CapGuard& operator=(const CapGuard&) = delete;
  std::size_t previous;
};

// Records every fraction; cancels once `cancel_at` or more is reported (never when < 0).
struct ProgressLog {
  double cancel_at = -1;
  std::vector<double> fractions;
  ProgressFn fn() {
    return [this](double f) {
      fractions.push_back(f);
      return !(cancel_at >= 0 && f >= cancel_at);
    };
  }
  bool non_decreasing_within_0_1() const {
    double previous = 0;
    for (double f : fractions) {
      if (f < previous || f > 1) return false;
      previous = f;
    }
    return true;
  }
};

}  // namespace

TEST_CASE("probe options out of range are errors that name the field and the range") {
  ProbeOptions o;
  CHECK_NOTHROW(o.validate());
  CHECK_NOTHROW(ProbeOptions::quick().validate());
  SUBCASE("budget") {
    o.budget_ms = 0;
    CHECK_THROWS_WITH_AS(o.validate(), "budget_ms must be greater than 0 and at most 600000, got 0",
                         ValueError);
  }
  SUBCASE("samples") {
    o.samples = 1;
    CHECK_THROWS_WITH_AS(o.validate(), "samples must be between 2 and 10000, got 1", ValueError);
  }
  SUBCASE("bandwidth working set") {
    o.bandwidth_bytes = 1000;
    CHECK_THROWS_WITH_AS(o.validate(),
                         "bandwidth_bytes must be between 65536 (64.0 KiB) and 1073741824 "
                         "(1.0 GiB), got 1000",
                         ValueError);
  }
  SUBCASE("sweep bounds") {
    o.sweep_min_bytes = 512;
    CHECK_THROWS_WITH_AS(o.validate(),
                         "sweep_min_bytes must be between 1024 (1.0 KiB) and 1073741824 "
                         "(1.0 GiB), got 512",
                         ValueError);
    o.sweep_min_bytes = 8192;
    o.sweep_max_bytes = 4096;
    CHECK_THROWS_WITH_AS(
        o.validate(), "sweep_min_bytes (8192) must not exceed sweep_max_bytes (4096)", ValueError);
  }
  SUBCASE("sweep points per doubling") {
    o.sweep_points_per_doubling = 0;
    CHECK_THROWS_WITH_AS(o.validate(), "sweep_points_per_doubling must be between 1 and 8, got 0",
                         ValueError);
  }
  SUBCASE("every probe validates before it measures") {
    o.samples = 0;
    CHECK_THROWS_AS(probe_peak_simd(o), ValueError);
    CHECK_THROWS_AS(probe_copy(o), ValueError);
    CHECK_THROWS_AS(probe_sweep(o), ValueError);
    CHECK_THROWS_AS(probe_machine(o), ValueError);
  }
}

TEST_CASE("peak throughput is finite and positive, with FLOPs per call from the chains") {
  const ProbeOptions o = tiny_options();
  const PeakMeasurement simd = probe_peak_simd(o);
  CHECK(finite_positive(simd.gflops_per_s));
  CHECK(simd.chains == 14);
  // 14 chains × 4 lanes × 2 FLOPs (multiply, add) × 2048 steps.
  CHECK(simd.flops_per_call == 229376.0);
  // The rate comes from the fastest sample.
  CHECK(simd.gflops_per_s == doctest::Approx(simd.flops_per_call / (simd.stats.min_ms * 1e6)));

  const PeakMeasurement scalar = probe_peak_scalar(o);
  CHECK(finite_positive(scalar.gflops_per_s));
  CHECK(scalar.flops_per_call == 57344.0);  // 14 × 1 × 2 × 2048
  CHECK(scalar.stats.samples >= 1);

  // The int8 kernel's multiply-add: 10 chains × 16 integer ops (8 products, 8 adds) × 2048.
  const PeakMeasurement int8 = probe_peak_int8(o);
  CHECK(finite_positive(int8.gflops_per_s));
  CHECK(int8.chains == 10);
  CHECK(int8.flops_per_call == 327680.0);
  CHECK(int8.gflops_per_s == doctest::Approx(int8.flops_per_call / (int8.stats.min_ms * 1e6)));
}

TEST_CASE("copy and triad report bandwidth over tracked buffers of the requested size") {
  const ProbeOptions o = tiny_options();
  MemoryTracker& tracker = MemoryTracker::global();
  const std::size_t before_bytes = tracker.current_bytes();

  SUBCASE("copy: two arrays, 8 bytes per element") {
    MemorySession session;
    const BandwidthMeasurement m = probe_copy(o);
    CHECK(m.kernel == "copy");
    CHECK(finite_positive(m.gb_per_s));
    CHECK(m.working_set_bytes == 1u << 20);  // 2 × 131072 floats
    CHECK(m.bytes_per_call == doctest::Approx(static_cast<double>(m.working_set_bytes)));
    CHECK(m.gb_per_s == doctest::Approx(m.bytes_per_call / (m.stats.min_ms * 1e6)));
    CHECK(m.stats.outliers == 0);  // every sample is kept
    CHECK(session.snapshot().peak_bytes >= m.working_set_bytes);
  }
  SUBCASE("triad: three arrays, 12 bytes per element") {
    MemorySession session;
    const BandwidthMeasurement m = probe_triad(o);
    CHECK(m.kernel == "triad");
    CHECK(finite_positive(m.gb_per_s));
    // 1 MiB / 12 bytes = 87381 floats, rounded down to 87376 (a multiple of 16).
    CHECK(m.working_set_bytes == 3u * 87376u * 4u);
    CHECK(m.bytes_per_call == doctest::Approx(static_cast<double>(m.working_set_bytes)));
    CHECK(session.snapshot().peak_bytes >= m.working_set_bytes);
  }
  CHECK(tracker.current_bytes() == before_bytes);  // the buffers are freed
}

TEST_CASE("the tracker's cap shrinks the bandwidth working set, or refuses clearly") {
  ProbeOptions o = tiny_options();
  o.bandwidth_bytes = 4u << 20;
  const std::size_t in_use = MemoryTracker::global().current_bytes();
  SUBCASE("the cap leaves 256 KiB") {
    const CapGuard cap(in_use + (256u << 10));
    const BandwidthMeasurement m = probe_copy(o);
    CHECK(m.working_set_bytes == 256u << 10);
    CHECK(finite_positive(m.gb_per_s));
  }
  SUBCASE("the cap leaves 16 KiB, too little to measure") {
    const std::size_t cap_bytes = in_use + (16u << 10);
    const CapGuard cap(cap_bytes);
    CHECK_THROWS_WITH_AS(probe_triad(o),
                         ("the triad probe needs at least 64.0 KiB but the lab's memory cap of " +
                          format_bytes(cap_bytes) + " leaves 16.0 KiB; free some tensors first")
                             .c_str(),
                         AllocationError);
  }
}

TEST_CASE("the working-set sweep covers the requested range, smallest first") {
  ProbeOptions o = tiny_options();
  o.budget_ms = 2;
  SUBCASE("powers of two from 4 KiB to 64 KiB") {
    const std::vector<SweepRow> rows = probe_sweep(o);
    REQUIRE(rows.size() == 5);
    const std::size_t expected[] = {4096, 8192, 16384, 32768, 65536};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(i);
      CHECK(rows[i].bytes == expected[i]);
      CHECK(finite_positive(rows[i].gb_per_s));
      CHECK(rows[i].stats.samples >= 1);
    }
  }
  SUBCASE("√2 steps, each rounded down to a multiple of 128 bytes") {
    o.sweep_points_per_doubling = 2;
    const std::vector<SweepRow> rows = probe_sweep(o);
    REQUIRE(rows.size() == 9);
    const std::size_t expected[] = {4096, 5760, 8192, 11520, 16384, 23168, 32768, 46336, 65536};
    for (std::size_t i = 0; i < rows.size(); ++i) {
      CAPTURE(i);
      CHECK(rows[i].bytes == expected[i]);
    }
  }
  SUBCASE("a maximum that is not a power of two ends the sweep") {
    o.sweep_max_bytes = 10000;
    const std::vector<SweepRow> rows = probe_sweep(o);
    REQUIRE(rows.size() == 3);
    CHECK(rows[0].bytes == 4096);
    CHECK(rows[1].bytes == 8192);
    CHECK(rows[2].bytes == 9984);  // 10000 rounded down to 128 bytes
  }
  SUBCASE("equal bounds give one row") {
    o.sweep_max_bytes = o.sweep_min_bytes;
    const std::vector<SweepRow> rows = probe_sweep(o);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].bytes == 4096);
  }
  SUBCASE("the tracker's cap lowers the top of the sweep") {
    const CapGuard cap(MemoryTracker::global().current_bytes() + (32u << 10));
    const std::vector<SweepRow> rows = probe_sweep(o);
    REQUIRE(rows.size() == 4);
    CHECK(rows.back().bytes == 32768);
  }
}

TEST_CASE("progress runs from 0 to 1 and returning false cancels the probe") {
  const ProbeOptions o = tiny_options();
  SUBCASE("sweep progress covers the whole sweep") {
    ProgressLog log;
    probe_sweep(o, default_clock(), log.fn());
    REQUIRE(!log.fractions.empty());
    CHECK(log.fractions.front() == 0);
    CHECK(log.fractions.back() == doctest::Approx(1));
    CHECK(log.non_decreasing_within_0_1());
  }
  SUBCASE("machine progress covers all five figures") {
    ProgressLog log;
    probe_machine(o, default_clock(), log.fn());
    REQUIRE(!log.fractions.empty());
    CHECK(log.fractions.back() == doctest::Approx(1));
    CHECK(log.non_decreasing_within_0_1());
  }
  SUBCASE("cancelling at once") {
    ProgressLog log;
    log.cancel_at = 0;
    CHECK_THROWS_AS(probe_peak_simd(o, default_clock(), log.fn()), CancelledError);
    CHECK_THROWS_AS(probe_peak_scalar(o, default_clock(), log.fn()), CancelledError);
    CHECK_THROWS_AS(probe_peak_int8(o, default_clock(), log.fn()), CancelledError);
    CHECK_THROWS_AS(probe_copy(o, default_clock(), log.fn()), CancelledError);
    CHECK_THROWS_AS(probe_triad(o, default_clock(), log.fn()), CancelledError);
    CHECK_THROWS_WITH_AS(probe_sweep(o, default_clock(), log.fn()),
                         "probe cancelled before sweep size 4.0 KiB", CancelledError);
  }
  SUBCASE("cancelling half-way through the machine probe leaves nothing allocated") {
    const std::size_t before_bytes = MemoryTracker::global().current_bytes();
    ProgressLog log;
    log.cancel_at = 0.7;  // during copy (0.6 to 0.8)
    CHECK_THROWS_AS(probe_machine(o, default_clock(), log.fn()), CancelledError);
    // Cancelled inside copy's share (0.6 to 0.8), at its first report from 0.7 on. Where that
    // report lands depends on time (a sample's share, or the budget's; a run paused before
    // sampling reports copy's end at once, as the sanitized build beside a busy machine did),
    // so the bound is copy's end, not a point within it.
    CHECK(log.fractions.back() >= 0.7);
    CHECK(log.fractions.back() <= 0.8);
    CHECK(MemoryTracker::global().current_bytes() == before_bytes);
  }
}

TEST_CASE("the machine profile gathers the five figures and this build's SIMD backend") {
  SUBCASE("with tiny budgets") {
    const MachineProfile p = probe_machine(tiny_options());
    CHECK(finite_positive(p.peak_gflops_per_s_simd));
    CHECK(finite_positive(p.peak_gflops_per_s_scalar));
    CHECK(finite_positive(p.peak_gops_per_s_int8));
    CHECK(to_json(p)["int8_peak_gops_per_s"] == p.peak_gops_per_s_int8);
    CHECK(finite_positive(p.copy_gb_per_s));
    CHECK(finite_positive(p.triad_gb_per_s));
    CHECK(p.simd_backend == std::string(simd_backend()));
    CHECK(p.simd_enabled == simd_enabled());
    CHECK(p.peak_gflops_per_s() ==
          (simd_enabled() ? p.peak_gflops_per_s_simd : p.peak_gflops_per_s_scalar));
    CHECK(p.bandwidth_working_set_bytes == 3u * 87376u * 4u);
    CHECK(p.elapsed_ms > 0);
  }
  SUBCASE("the quick profile the Profiling chapter uses runs with its own options") {
    const ProbeOptions quick = ProbeOptions::quick();
    CHECK(quick.budget_ms < ProbeOptions().budget_ms);
    const MachineProfile p = probe_machine(quick);
    CHECK(finite_positive(p.peak_gflops_per_s_simd));
    CHECK(finite_positive(p.peak_gflops_per_s_scalar));
    CHECK(finite_positive(p.copy_gb_per_s));
    CHECK(finite_positive(p.triad_gb_per_s));
    CHECK(p.bandwidth_working_set_bytes > (32u << 20));
    CHECK(finite_positive(p.peak_gops_per_s_int8));
    MESSAGE("quick profile: SIMD " << p.peak_gflops_per_s_simd << " GFLOP/s, scalar "
                                   << p.peak_gflops_per_s_scalar << " GFLOP/s, int8 "
                                   << p.peak_gops_per_s_int8 << " Gop/s, copy "
                                   << p.copy_gb_per_s << " GB/s, triad " << p.triad_gb_per_s
                                   << " GB/s, in " << p.elapsed_ms << " ms");
  }
}
