// The CLI's roofline and bench reports (plans of measure_operation points) and the
// validation of a report pasted back into the page.
// Not for: measuring (operations.cpp, probe.cpp) or printing (tools/cli).
#include "perflab/roofline/report.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/kernels/backend.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/roofline/operations.hpp"
#include "perflab/roofline/probe.hpp"

namespace perflab {
namespace {

using json = nlohmann::json;

constexpr const char* kNotPerflab = "pasted text is not perflab JSON: ";
constexpr const char* kBadReport = "pasted perflab JSON: ";
constexpr const char* kWhatToPaste =
    "; paste the whole output of `perflab roofline --json` or `perflab bench --json`";

TimerOptions report_timer(bool quick) {
  TimerOptions t;
  t.warmup = quick ? 1 : 2;
  t.samples = quick ? 5 : 11;
  t.min_sample_ms = quick ? 1.0 : 5.0;
  t.max_total_ms = quick ? 150.0 : 1000.0;
  return t;
}

json header(std::string_view kind, std::string_view version, bool quick) {
  return {{"tool", "perflab"},
          {"kind", kind},
          {"version", version},
          {"quick", quick},
          {"simd_backend", simd_backend()}};
}

json row(std::string_view op, std::size_t n, const std::string& variant,
         const std::optional<Roofs>& roofs, const TimerOptions& timer, Clock& clock,
         bool samples = false) {
  OperationOptions o;
  o.timer = timer;
  o.variant = variant;
  o.roofs = roofs;
  const auto measured = measure_operation(op, n, o, clock);
  json out = to_json(measured);
  if (samples) out["samples_ms"] = measured.stats.per_call_ms;
  return out;
}

// ---- validation helpers: each names the path of the offending field.

std::string type_name(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

const json& field(const json& object, const std::string& path, const std::string& key) {
  const auto it = object.find(key);
  if (it == object.end()) {
    throw ValueError(std::string(kBadReport) + path + key + " is missing");
  }
  return *it;
}

double number_field(const json& object, const std::string& path, const std::string& key,
                    bool positive) {
  const json& v = field(object, path, key);
  if (!v.is_number() || !std::isfinite(v.get<double>()) ||
      (positive ? v.get<double>() <= 0 : v.get<double>() < 0)) {
    throw ValueError(std::string(kBadReport) + path + key + " must be a finite number " +
                     (positive ? "above 0" : "of at least 0") + ", got " +
                     (v.is_number() ? v.dump() : type_name(v)));
  }
  return v.get<double>();
}

std::string string_field(const json& object, const std::string& path, const std::string& key) {
  const json& v = field(object, path, key);
  if (!v.is_string()) {
    throw ValueError(std::string(kBadReport) + path + key + " must be a string, got " +
                     type_name(v));
  }
  return v.get<std::string>();
}

json normalized_row(const json& r, const std::string& path, const std::optional<Roofs>& roofs) {
  if (!r.is_object()) {
    throw ValueError(std::string(kBadReport) + path.substr(0, path.size() - 1) +
                     " must be an object, got " + type_name(r));
  }
  const std::string op = string_field(r, path, "op");
  const auto& ops = operation_names();
  if (std::find(ops.begin(), ops.end(), op) == ops.end()) {
    std::string known;
    for (const auto& o : ops) known += (known.empty() ? "" : ", ") + o;
    throw ValueError(std::string(kBadReport) + path + "op is \"" + op +
                     "\"; known operations: " + known);
  }
  const json& stats = field(r, path, "stats");
  if (!stats.is_object()) {
    throw ValueError(std::string(kBadReport) + path + "stats must be an object, got " +
                     type_name(stats));
  }
  number_field(stats, path + "stats.", "median_ms", false);
  const double flops = number_field(r, path, "flops", false);
  const double bytes = number_field(r, path, "bytes", true);
  const double gflops_per_s = number_field(r, path, "gflops_per_s", false);
  json out = {{"op", op},
              {"variant", string_field(r, path, "variant")},
              {"n", (number_field(r, path, "n", true), r["n"])},
              {"elements", (number_field(r, path, "elements", true), r["elements"])},
              {"flops", flops},
              {"bytes", bytes},
              {"intensity", arithmetic_intensity(flops, bytes)},
              {"gflops_per_s", gflops_per_s},
              {"gb_per_s", number_field(r, path, "gb_per_s", false)},
              {"ns_per_element", number_field(r, path, "ns_per_element", false)},
              {"stats", stats}};
  if (roofs) add_placement(out, place_on_roofline(flops, bytes, gflops_per_s, *roofs));
  return out;
}

}  // namespace

RooflinePlan roofline_plan(bool quick) {
  RooflinePlan plan;
  plan.timer = report_timer(quick);
  auto add = [&](std::string op, std::size_t n, std::string variant) {
    plan.points.push_back({std::move(op), n, std::move(variant)});
  };
  // packed is the layers' kernel, measured where the exercises read it (N = 1024 too); the
  // slower variants where one call stays well under a second (naive at 128 is 4 MFLOP).
  const std::vector<std::size_t> packed =
      quick ? std::vector<std::size_t>{64, 128} : std::vector<std::size_t>{64, 256, 512, 1024};
  for (std::size_t n : packed) add("matmul", n, "packed");
  for (const MatmulVariant& v : matmul_variants()) {
    if (v.name == "packed") continue;
    add("matmul", 64, v.name);
    if (!quick) add("matmul", v.name == "naive" ? 128 : 256, v.name);
  }
  // 16 MiB per array, beyond a laptop's last-level cache; softmax and layernorm take it as
  // rows of 1024 features.
  const std::size_t elements = quick ? std::size_t{1} << 18 : std::size_t{1} << 22;
  add("add", elements, "");
  add("mul", elements, "");
  for (const char* op : {"sum", "softmax", "layernorm"}) {
    add(op, elements, "");
    add(op, elements, "naive");
  }
  for (const GeluVariant& v : gelu_variants()) add("gelu", elements, v.name);
  return plan;
}

json to_json(const RooflinePlan& plan) {
  json points = json::array();
  for (const RooflinePlanPoint& p : plan.points) {
    points.push_back({{"op", p.op}, {"n", p.n}, {"variant", p.variant}});
  }
  return {{"timer",
           {{"warmup", plan.timer.warmup},
            {"samples", plan.timer.samples},
            {"min_sample_ms", plan.timer.min_sample_ms},
            {"max_total_ms", plan.timer.max_total_ms}}},
          {"points", std::move(points)}};
}

json roofline_report(std::string_view version, bool quick, Clock& clock) {
  const MachineProfile machine =
      probe_machine(quick ? ProbeOptions::quick() : ProbeOptions{}, clock);
  const Roofs roofs = machine.roofs();
  const RooflinePlan plan = roofline_plan(quick);
  json rows = json::array();
  for (const RooflinePlanPoint& p : plan.points) {
    rows.push_back(row(p.op, p.n, p.variant, roofs, plan.timer, clock));
  }
  json report = header("roofline", version, quick);
  report["machine"] = to_json(machine);
  report["rows"] = std::move(rows);
  return report;
}

RooflinePlan bench_plan(bool quick) {
  RooflinePlan plan;
  plan.timer = report_timer(quick);
  const std::vector<std::size_t> sizes =
      quick ? std::vector<std::size_t>{32, 64} : std::vector<std::size_t>{64, 128, 256, 512};
  for (std::size_t n : sizes) {
    for (const MatmulVariant& v : matmul_variants()) plan.points.push_back({"matmul", n, v.name});
  }
  const std::size_t elements = quick ? std::size_t{1} << 16 : std::size_t{1} << 22;
  for (const GeluVariant& v : gelu_variants()) plan.points.push_back({"gelu", elements, v.name});
  return plan;
}

json bench_report(std::string_view version, bool quick, Clock& clock, bool samples) {
  const RooflinePlan plan = bench_plan(quick);
  json rows = json::array();
  for (const RooflinePlanPoint& p : plan.points) {
    rows.push_back(row(p.op, p.n, p.variant, std::nullopt, plan.timer, clock, samples));
  }
  json report = header("bench", version, quick);
  report["rows"] = std::move(rows);
  return report;
}

json cli_report_from_text(std::string_view text) {
  json in;
  try {
    in = parse_json_text(text, "pasted text");
  } catch (const JsonTextError& e) {
    throw ValueError(kNotPerflab + e.reason() + kWhatToPaste);
  }
  if (!in.is_object()) {
    throw ValueError(kNotPerflab + ("expected an object, got " + type_name(in)) + kWhatToPaste);
  }
  if (!in.contains("tool") || in["tool"] != "perflab") {
    throw ValueError(kNotPerflab +
                     std::string("it has no \"tool\": \"perflab\" field") + kWhatToPaste);
  }
  const std::string kind = string_field(in, "", "kind");
  if (kind != "roofline" && kind != "bench") {
    throw ValueError(std::string(kBadReport) + "kind is \"" + kind +
                     "\"; expected \"roofline\" or \"bench\"");
  }
  json out = {{"tool", "perflab"}, {"kind", kind}, {"version", string_field(in, "", "version")}};
  const json quick = in.value("quick", json(false));
  if (!quick.is_boolean()) {
    throw ValueError(std::string(kBadReport) + "quick must be true or false, got " +
                     (quick.is_null() ? std::string("null") : quick.dump()));
  }
  out["quick"] = quick;
  out["simd_backend"] = in.contains("simd_backend") ? json(string_field(in, "", "simd_backend"))
                                                    : json(nullptr);
  std::optional<Roofs> roofs;
  if (kind == "roofline") {
    const json& machine = field(in, "", "machine");
    if (!machine.is_object()) {
      throw ValueError(std::string(kBadReport) + "machine must be an object, got " +
                       type_name(machine));
    }
    roofs = Roofs{number_field(machine, "machine.", "peak_gflops_per_s", true),
                  number_field(machine, "machine.", "bandwidth_gb_per_s", true)};
    out["machine"] = machine;
  }
  const json& rows = field(in, "", "rows");
  if (!rows.is_array() || rows.empty()) {
    throw ValueError(std::string(kBadReport) + "rows must be a non-empty array, got " +
                     (rows.is_array() ? std::string("an empty array") : type_name(rows)));
  }
  json normalized = json::array();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    normalized.push_back(normalized_row(rows[i], "rows[" + std::to_string(i) + "].", roofs));
  }
  out["rows"] = std::move(normalized);
  return out;
}

}  // namespace perflab
