// The native CLI's machine reports as JSON (`perflab roofline --json`: the probe's roofs and
// the lab's kernels placed on them; `perflab bench --json`: matmul and GELU variants side by
// side) and the check of such a report pasted into the page, so a student can compare the
// browser with the same CPU running native code. Both ends are here, so they cannot drift.
// The plans list kernels' variants (kernels/): roofline/ includes kernels/, never the reverse.
// Not for: printing tables (tools/cli) or deciding what is fast (bench/ compares ratios).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// The kernels `perflab roofline` places and the page's roofline experiment measures, one
// plan for both so their rows match one to one: matmul "packed" at N = 64, 256, 512, 1024 and
// each other variant at 64 and (naive) 128 or 256; add and mul; sum, softmax and layernorm in
// their default and naive forms; every GELU variant; the element-wise ones over 4 Mi
// elements. quick: packed at 64 and 128, the others at 64, 256 Ki elements, short budgets.
// Each point is measure_operation(op, n, {timer, variant}); "" is the op's default variant.
struct RooflinePlanPoint {
  std::string op;
  std::size_t n = 0;
  std::string variant;
};
struct RooflinePlan {
  TimerOptions timer;
  std::vector<RooflinePlanPoint> points;
};
RooflinePlan roofline_plan(bool quick);
// {"timer": {warmup, samples, min_sample_ms, max_total_ms}, "points": [{op, n, variant}]}.
nlohmann::json to_json(const RooflinePlan& plan);

// The kernels `perflab bench` times and the page's regression experiment samples: every
// matmul variant at N = 64, 128, 256, 512 and every GELU variant over 4 Mi elements; quick:
// N = 32 and 64, 64 Ki elements. The same shape and timer as roofline_plan.
RooflinePlan bench_plan(bool quick);

// Every report: {"tool": "perflab", "kind": "roofline" | "bench", "version", "quick",
// "simd_backend", "rows": [measure_operation rows (operations.hpp to_json)]}.
//
// roofline: + "machine" (the probe's JSON, probe.hpp); rows carry the placement
// (peak_gflops_per_s, bandwidth_gb_per_s, bound, verdict, ...), one per roofline_plan(quick)
// point in its order. quick: also the quick probe.
nlohmann::json roofline_report(std::string_view version, bool quick,
                               Clock& clock = default_clock());
// bench: one row per bench_plan(quick) point, in order; no roofs. samples: each row also
// carries "samples_ms", every per-call sample in the order taken (what `perflab compare`
// tests).
nlohmann::json bench_report(std::string_view version, bool quick, Clock& clock = default_clock(),
                            bool samples = false);

// Validates pasted report text and returns it normalized: {tool, kind, version, quick,
// simd_backend, machine (roofline only), rows}, each row with the measure_operation fields,
// intensity recomputed, and for a roofline report the placement recomputed from the
// machine's roofs. ValueError naming what is wrong: "pasted text is not perflab JSON: ..."
// (not JSON, not an object, no "tool": "perflab"), "pasted perflab JSON: ..." (unknown kind,
// a missing or mistyped field, with its path: rows[2].gflops_per_s).
nlohmann::json cli_report_from_text(std::string_view text);

}  // namespace perflab
