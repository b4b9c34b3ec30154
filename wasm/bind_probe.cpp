// Bindings for the machine probe and the roofline: the probe's headline figures (the roofs),
// the roofs profiles judge bottlenecks against (set explicitly, never by probing), one point
// of the read-bandwidth sweep per call (the lab worker loops over sizes, so
// progress and cancel happen between points), a kernel placed on the roofline, and the
// check of pasted `perflab roofline --json` / `perflab bench --json` output.
// Not for: roofline arithmetic or report validation (core/roofline, core/operations,
// core/report); these functions only convert.
#include <string>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/js_args.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/profiler/profiler.hpp"
#include "perflab/roofline/report.hpp"
#include "perflab/roofline/roofline.hpp"

namespace perflab::wasm {
namespace {

// Rejects anything but a plain object whose keys are among `allowed`.
void require_keys(const val& object, const std::string& name,
                  const std::vector<std::string>& allowed) {
  const std::string must_be =
      name + " must be an object with the fields " + js_args::and_list(allowed);
  js_args::check_keys(object_keys(object, must_be, "a field name"), allowed,
                      {"field", " in " + name, "fields"});
}

// The two roofs of a checked roofs object; core checks their ranges.
Roofs to_roofs(const val& roofs) {
  return {to_finite_number(roofs["peak_gflops_per_s"], "roofs.peak_gflops_per_s"),
          to_finite_number(roofs["bandwidth_gb_per_s"], "roofs.bandwidth_gb_per_s")};
}

// probeMachine({quick}?): quick (ProbeOptions::quick(), well under a second) or the full
// probe (about a second and a half). Measures only: setMachineRoofs makes its roofs the
// ones profiles judge bottlenecks against.
val probe_machine_js(val options) {
  bool quick = false;
  if (!options.isUndefined() && !options.isNull()) {
    require_keys(options, "options", {"quick"});
    const val q = options["quick"];
    if (!q.isUndefined()) {
      if (!q.isTrue() && !q.isFalse()) {
        throw ValueError("options.quick must be true or false, got " + describe(q));
      }
      quick = q.isTrue();
    }
  }
  return to_val(to_json(probe_machine(quick ? ProbeOptions::quick() : ProbeOptions{})));
}

// setMachineRoofs({peak_gflops_per_s, bandwidth_gb_per_s, simd_backend?}): the roofs a
// probe measured on this machine become the ones profiles judge bottlenecks against.
// Returns the roofs in force: {peak_gflops_per_s, bandwidth_gb_per_s, source, simd_backend}.
// Core checks the ranges.
val set_machine_roofs_js(val roofs) {
  require_keys(roofs, "roofs", {"peak_gflops_per_s", "bandwidth_gb_per_s", "simd_backend"});
  const Roofs r = to_roofs(roofs);
  const val backend = roofs["simd_backend"];
  return to_val(to_json(set_machine_roofs(
      r, backend.isUndefined() ? std::string() : to_string(backend, "roofs.simd_backend"))));
}

val measure_read_bandwidth_js(val bytes, val options) {
  const std::size_t b = to_size(bytes, "bytes");
  const TimerOptions o = to_timer_options(options);
  return to_val(to_json(probe_read_bandwidth(b, o)));
}

// rooflinePoint({name, flops, bytes, measured_gflops_per_s}, {peak_gflops_per_s,
// bandwidth_gb_per_s}); core checks the ranges.
val roofline_point_js(val point, val roofs) {
  require_keys(point, "point", {"name", "flops", "bytes", "measured_gflops_per_s"});
  require_keys(roofs, "roofs", {"peak_gflops_per_s", "bandwidth_gb_per_s"});
  const std::string name =
      point["name"].isUndefined() ? std::string() : to_string(point["name"], "point.name");
  const double flops = to_finite_number(point["flops"], "point.flops");
  const double bytes = to_finite_number(point["bytes"], "point.bytes");
  const double measured =
      to_finite_number(point["measured_gflops_per_s"], "point.measured_gflops_per_s");
  const Roofs r = to_roofs(roofs);
  return to_val(to_json(
      roofline_point(name, flops, bytes, measured, r.peak_gflops_per_s, r.bandwidth_gb_per_s),
      r));
}

val cli_report_js(val text) { return to_val(cli_report_from_text(to_string(text, "text"))); }

// rooflinePlan(quick): the kernels `perflab roofline` places, {timer, points: [{op, n,
// variant}]}, so the page measures the same plan as the CLI.
val roofline_plan_js(val quick) {
  if (!quick.isTrue() && !quick.isFalse()) {
    throw ValueError("quick must be true or false, got " + describe(quick));
  }
  return to_val(to_json(roofline_plan(quick.isTrue())));
}

// benchPlan(quick): the kernels `perflab bench` times, in rooflinePlan's shape, so the page's
// regression run and a CLI bench file name the same benchmarks.
val bench_plan_js(val quick) {
  if (!quick.isTrue() && !quick.isFalse()) {
    throw ValueError("quick must be true or false, got " + describe(quick));
  }
  return to_val(to_json(bench_plan(quick.isTrue())));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_probe) {
  expose<&bench_plan_js>("benchPlan");
  expose<&probe_machine_js>("probeMachine");
  expose<&set_machine_roofs_js>("setMachineRoofs");
  expose<&measure_read_bandwidth_js>("measureReadBandwidth");
  expose<&roofline_point_js>("rooflinePoint");
  expose<&cli_report_js>("cliReport");
  expose<&roofline_plan_js>("rooflinePlan");
}

}  // namespace perflab::wasm
