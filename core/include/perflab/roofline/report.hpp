// The native CLI's machine reports as JSON (`perflab roofline --json`: the probe's roofs and
// the lab's kernels placed on them; `perflab bench --json`: matmul and GELU variants side by
// side) and the check of such a report pasted into the page, so a student can compare the
// browser with the same CPU running native code. Both ends are here, so they cannot drift.
// Not for: printing tables (tools/cli) or deciding what is fast (bench/ compares ratios).
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "perflab/timing/clock.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {

// Every report: {"tool": "perflab", "kind": "roofline" | "bench", "version", "quick",
// "simd_backend", "rows": [measure_operation rows (operations.hpp to_json)]}.
//
// roofline: + "machine" (the probe's JSON, operations.hpp); rows carry the placement
// (peak_gflops_per_s, bandwidth_gb_per_s, bound, verdict, ...). Kernels: matmul "packed" at
// N = 64, 256, 512 and "naive" at 64; add, mul, sum, softmax, layernorm and GELU
// ("fused-simd" and "unfused") over 4 Mi elements. quick: the quick probe, N = 64 and 128,
// 256 Ki elements, short timer budgets (a few seconds in all).
nlohmann::json roofline_report(std::string_view version, bool quick,
                               Clock& clock = default_clock());
// bench: every matmul variant at N = 64, 128, 256, 512 and every GELU variant over 4 Mi
// elements; no roofs. quick: N = 32 and 64, 64 Ki elements. samples: each row also carries
// "samples_ms", every per-call sample in the order taken (what `perflab compare` tests).
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
