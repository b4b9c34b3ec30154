// Forensic checks on a submission's measured evidence (see forensics.hpp): each row is read
// for the fields it has, and every check names the row, the numbers and the rule it broke.
#include "perflab/grading/forensics.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/detail/compare_cache.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab {
namespace {

using nlohmann::json;

const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string num(double v) { return format_number(v, 4); }

// obj[key] as a finite number, or NaN when absent or not one.
double number_at(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key)) return kNaN;
  const json& v = obj.at(key);
  if (!v.is_number()) return kNaN;
  const double x = v.get<double>();
  return std::isfinite(x) ? x : kNaN;
}

// obj[key] as finite numbers; empty when absent or when any entry is not one.
std::vector<double> numbers_at(const json& obj, const char* key) {
  std::vector<double> out;
  if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_array()) return out;
  for (const json& v : obj.at(key)) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) return {};
    out.push_back(v.get<double>());
  }
  return out;
}

std::string text_at(const json& obj, const char* key) {
  if (!obj.is_object() || !obj.contains(key) || !obj.at(key).is_string()) return {};
  return obj.at(key).get<std::string>();
}

bool differs(double stored, double computed) {
  return std::abs(stored - computed) > kStoredRelTolerance * std::max(std::abs(computed), 1e-300);
}

// The tick of a browser's coarsened clock, or 0 when `resolution_ms` is not one.
double coarse_tick_ms(double resolution_ms) {
  if (!(resolution_ms >= kMinCoarseTickMs)) return 0;
  const double us = resolution_ms * 1000;
  const double whole = std::round(us);
  if (whole < 1 || std::abs(us - whole) > kTickMatch * whole) return 0;
  return whole / 1000;
}

// What the checks found in one piece of evidence, by code.
class Findings {
 public:
  void add(const char* code, std::string reason) { by_code_[code].push_back(std::move(reason)); }
  const std::map<std::string, std::vector<std::string>>& all() const { return by_code_; }

 private:
  std::map<std::string, std::vector<std::string>> by_code_;
};

struct Probe {
  double peak_gflops_per_s = kNaN, bandwidth_gb_per_s = kNaN, measured_ms = kNaN;
  // The tick of the clock the page's header measured (machine.timer_resolution_ms), 0 when
  // that is not a browser's coarsened clock or not recorded.
  double header_tick_ms = 0;
};

// Samples of one list (per-call times) against the clock's grid: elapsed = sample × calls must
// be whole ticks. `names` names each sample (default: the list's field and the index).
void check_grid(Findings& f, const std::string& where, const std::vector<double>& samples,
                double calls, double resolution_ms, double tick_ms, const Probe& probe,
                const std::vector<std::string>& names = {}) {
  const double tick = tick_ms > 0 ? tick_ms : coarse_tick_ms(resolution_ms);
  if (tick <= 0 && probe.header_tick_ms > 0 && resolution_ms > 0 && !samples.empty()) {
    // A browser's clock is coarsened to whole microseconds; a row claiming a finer one, from a
    // page whose own clock was coarse, would escape the grid.
    f.add(kFlagOffGrid,
          where + " records a clock resolution of " + format_number(resolution_ms, 6) +
              " ms, not a browser's whole microseconds, from a page whose clock read " +
              num(probe.header_tick_ms) +
              " ms ticks (machine.timer_resolution_ms): its samples cannot be held to "
              "a grid");
    return;
  }
  if (tick <= 0 || !(calls >= 1) || samples.empty()) return;
  std::size_t off = 0, first = 0;
  double first_ticks = 0;
  for (std::size_t k = 0; k < samples.size(); ++k) {
    const double ticks = samples[k] * calls / tick;
    if (std::abs(ticks - std::round(ticks)) > kTickTolerance) {
      if (off++ == 0) {
        first = k;
        first_ticks = ticks;
      }
    }
  }
  if (off == 0) return;
  f.add(kFlagOffGrid,
        where + ": " + std::to_string(off) + " of " + std::to_string(samples.size()) +
            " samples are not whole ticks of the clock the row records (" + num(tick) +
            " ms a tick, " + num(calls) + " calls per sample): " +
            (names.empty() ? where.substr(where.rfind('.') + 1) + "[" + std::to_string(first) + "]"
                           : names[first]) +
            " = " + format_number(samples[first], 6) + " ms × " + num(calls) + " calls is " +
            format_number(first_ticks, 6) + " ticks; a browser's clock only reads whole ticks");
}

// `cores`: how many of the probe's one-core peaks the row's kernel could use (engine_cores).
void check_peak(Findings& f, const std::string& where, double gflops_per_s, const Probe& probe,
                double cores = 1, const std::string& cores_text = "") {
  if (!(probe.peak_gflops_per_s > 0) ||
      !(gflops_per_s > kRoofMargin * cores * probe.peak_gflops_per_s)) {
    return;
  }
  f.add(kFlagAboveRoof, where + " runs at " + num(gflops_per_s) + " GFLOP/s, " +
                            num(gflops_per_s / (cores * probe.peak_gflops_per_s)) +
                            "× the peak of " + num(probe.peak_gflops_per_s) +
                            " GFLOP/s this student's probe measured" + cores_text +
                            " (flagged above " + num(kRoofMargin) + "×)");
}

// A row of the kernel engine (kernels/parallel.hpp) ran on `threads` cores, each up to the
// probe's one-core peak, and its fma flavour does in one instruction the multiply and the add
// the probe's chains issue as two: its roof is that many of the probe's peaks. 1 for any
// other row.
double engine_cores(const json& row) {
  const double threads = number_at(row, "threads");
  return (threads >= 1 ? threads : 1) * (text_at(row, "flavour") == "fma" ? 2 : 1);
}

void check_bandwidth(Findings& f, const std::string& where, double gb_per_s, double bytes,
                     const Probe& probe) {
  if (!(probe.bandwidth_gb_per_s > 0) || !(bytes >= kMinRoofBytes) ||
      !(gb_per_s > kRoofMargin * probe.bandwidth_gb_per_s)) {
    return;
  }
  f.add(kFlagAboveRoof, where + " moves " + num(gb_per_s) + " GB/s over " + num(bytes / 1048576) +
                            " MiB, " + num(gb_per_s / probe.bandwidth_gb_per_s) +
                            "× the bandwidth of " + num(probe.bandwidth_gb_per_s) +
                            " GB/s this student's probe measured (flagged above " +
                            num(kRoofMargin) + "×)");
}

// GFLOP/s of an N×N matmul whose call takes `ms`.
double matmul_gflops(double n, double ms) { return 2 * n * n * n / (ms * 1e6); }

// An A/B or A/A run: {a_ms, b_ms, inner_iterations_a/b, resolution_ms, rounds, a_first,
// mode, comparison, op, n}.
void check_ab_row(Findings& f, const std::string& at, const json& row, const Probe& probe) {
  const std::vector<double> a = numbers_at(row, "a_ms");
  const std::vector<double> b = numbers_at(row, "b_ms");
  if (a.empty() || b.empty()) return;
  const double inner_a = number_at(row, "inner_iterations_a");
  const double inner_b = number_at(row, "inner_iterations_b");
  const double resolution = number_at(row, "resolution_ms");
  if (!(inner_a >= 1) || !(inner_b >= 1) || !(resolution > 0)) {
    f.add(kFlagUntimed, at + " has a_ms and b_ms but not the timer facts every run records "
                             "beside them (inner_iterations_a, inner_iterations_b, "
                             "resolution_ms): samples with no clock behind them");
  } else {
    check_grid(f, at + ".a_ms", a, inner_a, resolution, 0, probe);
    check_grid(f, at + ".b_ms", b, inner_b, resolution, 0, probe);
  }
  const double rounds = number_at(row, "rounds");
  if (a.size() != b.size() || (!std::isnan(rounds) && rounds != static_cast<double>(a.size()))) {
    f.add(kFlagInconsistent, at + " has " + std::to_string(a.size()) + " samples of A and " +
                                 std::to_string(b.size()) + " of B" +
                                 (std::isnan(rounds) ? "" : " for " + num(rounds) + " rounds") +
                                 ": a run takes one sample of each arm per round");
  }
  const json comparison = row.value("comparison", json(nullptr));
  const double seed = number_at(comparison, "seed");
  if (comparison.is_object() && seed >= 0 && seed <= 9007199254740991.0 &&
      std::trunc(seed) == seed) {
    CompareOptions options;
    options.seed = static_cast<std::uint64_t>(seed);
    Comparison c;
    try {
      c = detail::compare_samples_cached(a, b, options, at + ".a_ms", at + ".b_ms");
    } catch (const ValueError&) {
      return;  // samples core cannot compare: the grader says why
    }
    const json interval = comparison.value("ratio_interval", json(nullptr));
    const std::pair<const char*, std::pair<double, double>> stored[] = {
        {"median_a", {number_at(comparison, "median_a"), c.median_a}},
        {"median_b", {number_at(comparison, "median_b"), c.median_b}},
        {"ratio", {number_at(comparison, "ratio"), c.ratio}},
        {"ratio_interval.low", {number_at(interval, "low"), c.ratio_interval.low}},
        {"ratio_interval.high", {number_at(interval, "high"), c.ratio_interval.high}}};
    for (const auto& [name, values] : stored) {
      if (!std::isnan(values.first) && differs(values.first, values.second)) {
        f.add(kFlagInconsistent,
              at + ".comparison." + name + " is " + format_number(values.first, 6) +
                  " but its own a_ms and b_ms give " + format_number(values.second, 6) +
                  " (core's compare_samples, seed " + num(seed) +
                  "): the stored comparison does not follow from its samples");
        break;
      }
    }
    const std::string verdict = text_at(comparison.value("verdict", json(nullptr)), "name");
    if (!verdict.empty() && verdict != verdict_name(c.verdict)) {
      f.add(kFlagInconsistent, at + ".comparison.verdict is \"" + verdict +
                                   "\" but its own a_ms and b_ms give \"" +
                                   verdict_name(c.verdict) + "\" (seed " + num(seed) + ")");
    }
    // The order of the rounds is drawn from the seed (ab_round_order), a prefix of it when a
    // run stopped early.
    const std::string mode = text_at(row, "mode");
    if ((mode == "interleaved" || mode == "sequential") && row.contains("a_first") &&
        row.at("a_first").is_array() && row.at("a_first").size() == a.size()) {
      const std::vector<bool> order =
          ab_round_order(mode == "interleaved" ? AbMode::interleaved : AbMode::sequential,
                         static_cast<int>(std::min<std::size_t>(a.size(), 100000)), options.seed);
      const json& given = row.at("a_first");
      for (std::size_t r = 0; r < order.size(); ++r) {
        if (!given[r].is_boolean() || given[r].get<bool>() != order[r]) {
          f.add(kFlagInconsistent,
                at + ".a_first[" + std::to_string(r) + "] is not the order core draws for seed " +
                    num(seed) + " in " + mode + " mode: the rounds were not run as recorded");
          break;
        }
      }
    }
  }
  const double n = number_at(row, "n");
  if (text_at(row, "op") == "matmul" && n >= 1) {
    const double fastest = std::min(perflab::median(a), perflab::median(b));
    if (fastest > 0)
      check_peak(f, at + " (matmul N=" + num(n) + ", median of the faster arm)",
                 matmul_gflops(n, fastest), probe);
  }
}

// A kernel's samples: {samples_ms, inner_iterations, resolution_ms, clock_tick_ms, op, n}.
void check_sample_row(Findings& f, const std::string& at, const json& row, const Probe& probe) {
  const std::vector<double> samples = numbers_at(row, "samples_ms");
  if (samples.empty()) return;
  const double inner = number_at(row, "inner_iterations");
  const double resolution = number_at(row, "resolution_ms");
  const double tick = number_at(row, "clock_tick_ms");
  if (!(inner >= 1) || !(resolution > 0)) {
    f.add(kFlagUntimed, at + " has samples_ms but not the timer facts every run records beside "
                             "them (inner_iterations, resolution_ms): samples with no clock "
                             "behind them");
  } else {
    check_grid(f, at + ".samples_ms", samples, inner, resolution, tick > 0 ? tick : 0, probe);
  }
  const double n = number_at(row, "n");
  const double m = perflab::median(samples);
  if (text_at(row, "op") == "matmul" && n >= 1 && m > 0) {
    check_peak(f, at + " (matmul N=" + num(n) + ", its median sample)", matmul_gflops(n, m), probe);
  }
}

// A timing's statistics ({median_ms, min_ms, max_ms, inner_iterations, resolution_ms}): its
// extremes are samples, so whole ticks. Returns its median (NaN when absent).
double check_stats(Findings& f, const std::string& s, const json& stats, const Probe& probe) {
  const double median_ms = number_at(stats, "median_ms");
  const double inner = number_at(stats, "inner_iterations");
  const double resolution = number_at(stats, "resolution_ms");
  if (!(inner >= 1) || !(resolution > 0)) {
    f.add(kFlagUntimed, s + " lacks the timer facts every timing records (inner_iterations, "
                            "resolution_ms)");
  } else {
    std::vector<double> extremes;
    std::vector<std::string> names;
    for (const char* k : {"min_ms", "max_ms"}) {
      const double v = number_at(stats, k);
      if (!std::isnan(v)) {
        extremes.push_back(v);
        names.emplace_back(k);
      }
    }
    check_grid(f, s, extremes, inner, resolution, 0, probe, names);
  }
  const double min_ms = number_at(stats, "min_ms");
  const double max_ms = number_at(stats, "max_ms");
  if (!std::isnan(median_ms) && !std::isnan(min_ms) && !std::isnan(max_ms) &&
      !(min_ms <= median_ms && median_ms <= max_ms)) {
    f.add(kFlagInconsistent, s + ": the median " + num(median_ms) + " ms is not between min " +
                                 num(min_ms) + " and max " + num(max_ms) + " ms");
  }
  return median_ms;
}

// A figure copied beside its timing (measured_ms beside latency, forward_ms beside
// forward_latency) must be that timing's median.
void check_copied_median(Findings& f, const std::string& at, const json& row, const char* field,
                         const char* timing, double median_ms) {
  const double v = number_at(row, field);
  if (std::isnan(v)) return;
  if (std::isnan(median_ms)) {
    f.add(kFlagUntimed, at + "." + field + " is " + num(v) + " ms but the row has no " + timing +
                            " it is read from");
  } else if (differs(v, median_ms)) {
    f.add(kFlagInconsistent, at + "." + field + " is " + num(v) + " ms but its " + timing +
                                 ".median_ms is " + num(median_ms) + " ms");
  }
}

// A timed row's statistics (measureForwardPoint's latency, measureOperation's stats,
// measureBackwardPoint's latency and forward_latency) and the rates computed from them.
void check_timed_row(Findings& f, const std::string& at, const json& row, const Probe& probe) {
  // Any other timing the row nests (the KV cache's recompute and cached, ...): its extremes
  // are samples too.
  for (const auto& item : row.items()) {
    const std::string& k = item.key();
    const json& v = item.value();
    if (k == "latency" || k == "stats" || k == "forward_latency" || !v.is_object()) continue;
    if (v.contains("median_ms") && v.contains("inner_iterations") && v.contains("resolution_ms")) {
      check_stats(f, at + "." + k, v, probe);
    }
  }
  const json forward = row.value("forward_latency", json(nullptr));
  check_copied_median(
      f, at, row, "forward_ms", "forward_latency",
      forward.is_object() ? check_stats(f, at + ".forward_latency", forward, probe) : kNaN);
  const json latency = row.value("latency", json(nullptr));
  check_copied_median(f, at, row, "measured_ms", "latency",
                      latency.is_object() ? number_at(latency, "median_ms") : kNaN);
  const char* key = row.contains("latency") ? "latency" : row.contains("stats") ? "stats" : nullptr;
  const double per_s = number_at(row, "samples_per_s");
  if (key == nullptr) {
    if (!std::isnan(per_s) || !std::isnan(number_at(row, "gflops_per_s"))) {
      f.add(kFlagUntimed, at + " has a rate (" +
                              std::string(std::isnan(per_s) ? "gflops_per_s" : "samples_per_s") +
                              ") but not the timing it is computed from (latency or stats): a "
                              "rate with no measurement behind it");
    }
    return;
  }
  const double median_ms = check_stats(f, at + "." + key, row.at(key), probe);
  if (!(median_ms > 0)) return;
  const double batch = number_at(row, "batch_size");
  if (!std::isnan(per_s) && batch > 0 && differs(per_s, batch * 1000 / median_ms)) {
    f.add(kFlagInconsistent, at + ".samples_per_s is " + num(per_s) + " but batch " + num(batch) +
                                 " in a median of " + num(median_ms) + " ms is " +
                                 num(batch * 1000 / median_ms) +
                                 " samples/s: the throughput contradicts the latency");
  }
  const double per_sample = number_at(row, "flops_per_sample");
  const double per_batch = number_at(row, "flops_per_batch");
  if (!std::isnan(per_sample) && !std::isnan(per_batch) && batch > 0 &&
      differs(per_batch, per_sample * batch)) {
    f.add(kFlagInconsistent, at + ".flops_per_batch is " + num(per_batch) + ", not batch " +
                                 num(batch) + " × flops_per_sample " + num(per_sample));
  }
  double flops = number_at(row, "flops");
  const double n = number_at(row, "n");
  if (!std::isnan(flops) && text_at(row, "op") == "matmul" && n >= 1 &&
      differs(flops, 2 * n * n * n)) {
    f.add(kFlagInconsistent, at + ".flops is " + num(flops) + ", not the 2·N³ = " +
                                 num(2 * n * n * n) + " of a matmul at N=" + num(n));
  }
  if (std::isnan(flops)) flops = per_batch;
  const double gflops = number_at(row, "gflops_per_s");
  if (!std::isnan(gflops) && !std::isnan(flops) && differs(gflops, flops / (median_ms * 1e6))) {
    f.add(kFlagInconsistent, at + ".gflops_per_s is " + num(gflops) + " but " + num(flops) +
                                 " FLOPs in a median of " + num(median_ms) + " ms is " +
                                 num(flops / (median_ms * 1e6)) + " GFLOP/s");
  }
  if (!std::isnan(flops)) {
    const double cores = engine_cores(row);
    const double threads = std::max(1.0, number_at(row, "threads"));
    const std::string why = cores == 1 ? ""
                                       : ", × " + num(cores) + " for its " + num(threads) +
                                             (threads == 1 ? " thread" : " threads") + " of the " +
                                             text_at(row, "flavour") + " flavour";
    check_peak(f, at, flops / (median_ms * 1e6), probe, cores, why);
  }
  const double bytes = number_at(row, "bytes");
  if (!std::isnan(bytes)) check_bandwidth(f, at, bytes / (median_ms * 1e6), bytes, probe);
}

// A roofline placement carries the roofs it was placed against: the probe the file reports,
// unless that probe was measured after the run.
void check_roofs(Findings& f, const std::string& at, const json& row, const Probe& probe,
                 double finished_ms) {
  const double peak = number_at(row, "peak_gflops_per_s");
  const double bandwidth = number_at(row, "bandwidth_gb_per_s");
  if (std::isnan(peak) || std::isnan(bandwidth)) return;
  if (!row.contains("stats") && std::isnan(number_at(row, "gflops_per_s"))) {
    f.add(kFlagUntimed, at + " has the roofs (peak_gflops_per_s " + num(peak) +
                            ", bandwidth_gb_per_s " + num(bandwidth) +
                            ") but no kernel measured against them (stats, gflops_per_s)");
  }
  if (std::isnan(probe.peak_gflops_per_s) || std::isnan(probe.bandwidth_gb_per_s)) return;
  const bool same =
      !differs(peak, probe.peak_gflops_per_s) && !differs(bandwidth, probe.bandwidth_gb_per_s);
  if (same) {
    if (!std::isnan(finished_ms) && !std::isnan(probe.measured_ms) &&
        finished_ms < probe.measured_ms - kClockSlackMs) {
      f.add(kFlagChronology, at +
                                 " was placed against the probe of machine.probe.measured_at, "
                                 "yet its run finished " +
                                 num((probe.measured_ms - finished_ms) / 60000) +
                                 " minutes before that probe was measured");
    }
    return;
  }
  const bool older_probe = !std::isnan(finished_ms) && !std::isnan(probe.measured_ms) &&
                           finished_ms < probe.measured_ms + kClockSlackMs;
  if (older_probe) return;  // placed against an earlier probe, before this one replaced it
  f.add(kFlagInconsistent, at + " was placed against roofs of " + num(peak) + " GFLOP/s and " +
                               num(bandwidth) + " GB/s, not the file's probe (" +
                               num(probe.peak_gflops_per_s) + " GFLOP/s, " +
                               num(probe.bandwidth_gb_per_s) + " GB/s)" +
                               (std::isnan(finished_ms) ? " (the run's time is not recorded)"
                                                        : ", which was measured before the run"));
}

Probe probe_of(const json& submission) {
  Probe p;
  const json machine = submission.value("machine", json(nullptr));
  const double header = number_at(machine, "timer_resolution_ms");
  if (header > 0) p.header_tick_ms = coarse_tick_ms(header);
  const json probe = machine.is_object() ? machine.value("probe", json(nullptr)) : json(nullptr);
  if (!probe.is_object()) return p;
  p.peak_gflops_per_s = number_at(probe, "peak_gflops_per_s");
  p.bandwidth_gb_per_s = number_at(probe, "bandwidth_gb_per_s");
  p.measured_ms = iso_time_ms(text_at(probe, "measured_at"));
  return p;
}

std::string minutes(double ms) { return num(ms / 60000) + " minutes"; }

// A chain of Linear layers ({linear, in, out} rows, the structured-pruning experiment): each
// layer's output is the next one's input.
void check_layer_chain(Findings& f, const json& rows) {
  std::map<double, std::pair<double, double>> layers;  // index -> (in, out)
  for (const json& row : rows) {
    const double index = number_at(row, "linear");
    const double in = number_at(row, "in");
    const double out = number_at(row, "out");
    if (std::isnan(index) || std::isnan(in) || std::isnan(out)) return;
    layers[index] = {in, out};
  }
  for (auto it = layers.begin(); it != layers.end() && std::next(it) != layers.end(); ++it) {
    const auto next = std::next(it);
    if (it->second.second != next->second.first) {
      f.add(kFlagInconsistent, "Linear " + num(it->first) + " has " + num(it->second.second) +
                                   " outputs but Linear " + num(next->first) + " takes " +
                                   num(next->second.first) +
                                   " inputs: the layers' sizes do not chain");
      return;
    }
  }
}

void check_evidence(Findings& f, const json& evidence, const Probe& probe, double exported_ms) {
  const double finished_ms = iso_time_ms(text_at(evidence, "finished_at"));
  if (!std::isnan(finished_ms) && !std::isnan(exported_ms) &&
      finished_ms > exported_ms + kClockSlackMs) {
    f.add(kFlagChronology, "the run (evidence.finished_at " + text_at(evidence, "finished_at") +
                               ") finished " + minutes(finished_ms - exported_ms) +
                               " after the file was exported (exported_at)");
  }
  const json rows = evidence.value("rows", json(nullptr));
  if (!rows.is_array()) return;
  check_layer_chain(f, rows);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& row = rows[i];
    if (!row.is_object()) continue;
    const std::string at = "rows[" + std::to_string(i) + "]";
    if (row.contains("a_ms") || row.contains("b_ms")) check_ab_row(f, at, row, probe);
    if (row.contains("samples_ms")) check_sample_row(f, at, row, probe);
    check_timed_row(f, at, row, probe);
    check_roofs(f, at, row, probe, finished_ms);
  }
}

// One reason per code: the first finding, and how many more of its kind the run holds.
std::string joined_reason(const std::vector<std::string>& reasons) {
  std::string reason = reasons.front();
  if (reasons.size() > 1) {
    reason += " (and " + std::to_string(reasons.size() - 1) + " more finding" +
              (reasons.size() == 2 ? "" : "s") + " of this kind in the same run)";
  }
  return reason;
}

}  // namespace

double iso_time_ms(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0, ms = 0;
  int used = 0;
  // 2026-11-26T03:10 with optional :SS and .sss, then Z.
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d%n", &y, &mo, &d, &h, &mi, &used) != 5 ||
      used != 16) {
    return kNaN;
  }
  std::size_t pos = 16;
  if (pos < text.size() && text[pos] == ':') {
    if (pos + 3 > text.size() || !std::isdigit(static_cast<unsigned char>(text[pos + 1])) ||
        !std::isdigit(static_cast<unsigned char>(text[pos + 2]))) {
      return kNaN;
    }
    s = (text[pos + 1] - '0') * 10 + (text[pos + 2] - '0');
    pos += 3;
    if (pos < text.size() && text[pos] == '.') {
      int digits = 0, scale = 100;
      for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
        if (digits++ < 3) {
          ms += (text[pos] - '0') * scale;
          scale /= 10;
        }
      }
      if (digits == 0) return kNaN;
    }
  }
  if (pos + 1 != text.size() || text[pos] != 'Z') return kNaN;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return kNaN;
  // Days from 1970-01-01 (Howard Hinnant's days_from_civil).
  const int yy = y - (mo <= 2 ? 1 : 0);
  const int era = (yy >= 0 ? yy : yy - 399) / 400;
  const int yoe = yy - era * 400;
  const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  const double days = static_cast<double>(era) * 146097 + doe - 719468;
  return ((days * 24 + h) * 60 + mi) * 60000.0 + s * 1000.0 + ms;
}

std::vector<EvidenceFlag> evidence_forensics(const json& submission) {
  if (!submission.is_object()) {
    throw ValueError(
        "submission must be a submission file's object {machine, exported_at, "
        "exercises, ...}, got " +
        describe(submission));
  }
  const json exercises = submission.value("exercises", json::object());
  if (!exercises.is_object()) {
    throw ValueError("submission.exercises must be an object keyed by exercise id, got " +
                     describe(exercises));
  }
  const Probe probe = probe_of(submission);
  const std::string exported = text_at(submission, "exported_at");
  const double exported_ms = iso_time_ms(exported);

  // Chronology of the file itself.
  std::vector<EvidenceFlag> flags;
  if (!std::isnan(probe.measured_ms) && !std::isnan(exported_ms) &&
      probe.measured_ms > exported_ms + kClockSlackMs) {
    flags.push_back({kFlagChronology, "",
                     "machine.probe.measured_at is " + minutes(probe.measured_ms - exported_ms) +
                         " after the file's exported_at " + exported +
                         ": a probe cannot be measured after the export that carries it"});
  }

  // Evidence, once per distinct evidence object; its flags name every exercise that holds it.
  std::vector<std::pair<std::string, std::vector<std::string>>> seen;  // dump -> exercise ids
  std::vector<const json*> evidences;
  for (const auto& item : exercises.items()) {
    const json& entry = item.value();
    if (!entry.is_object()) continue;
    const json answer = entry.value("best_answer", json(nullptr));
    if (!answer.is_object() || !answer.contains("evidence") || !answer.at("evidence").is_object()) {
      continue;
    }
    const std::string dump = answer.at("evidence").dump();
    bool found = false;
    for (auto& [text, ids] : seen) {
      if (text == dump) {
        ids.push_back(item.key());
        found = true;
      }
    }
    if (!found) {
      seen.push_back({dump, {item.key()}});
      evidences.push_back(&entry.at("best_answer").at("evidence"));
    }
  }
  for (std::size_t e = 0; e < seen.size(); ++e) {
    Findings f;
    check_evidence(f, *evidences[e], probe, exported_ms);
    std::string names;
    for (const auto& id : seen[e].second) names += (names.empty() ? "" : ", ") + id;
    for (const auto& [code, reasons] : f.all()) {
      flags.push_back({code, seen[e].second.front(), names + ": " + joined_reason(reasons)});
    }
  }
  return flags;
}

std::vector<EvidenceFlag> evidence_flags(const json& evidence, const json& machine,
                                         const std::string& exported_at) {
  Findings f;
  check_evidence(f, evidence, probe_of(json::object({{"machine", machine}})),
                 iso_time_ms(exported_at));
  std::vector<EvidenceFlag> flags;
  for (const auto& [code, reasons] : f.all()) flags.push_back({code, "", joined_reason(reasons)});
  return flags;
}

json evidence_forensics_json(const json& submission) {
  json out = json::array();
  for (const auto& flag : evidence_forensics(submission)) {
    out.push_back({{"code", flag.code},
                   {"exercise", flag.exercise.empty() ? json(nullptr) : json(flag.exercise)},
                   {"reason", flag.reason}});
  }
  return out;
}

}  // namespace perflab
