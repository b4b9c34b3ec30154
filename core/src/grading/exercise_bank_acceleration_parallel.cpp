// The Acceleration chapter's exercises on parallelism: Amdahl's law on drawn numbers (the
// speedup of p threads, and the largest serial fraction that still reaches a target), the
// memory bandwidth the cores share (the best speedup a bandwidth-bound GELU reaches on p
// threads, and its time), which of four causes slows a parallel loop (false sharing, a race,
// the shared bus, a serial part), and what the Amdahl fit of the student's own thread-scaling
// run predicts beyond the cores it measured, the fit recomputed here from the run's medians.
// Every formula is core's: amdahl_speedup and analyze_scaling (stats/scaling.hpp), the fused
// GELU's bytes (kernels/elementwise.hpp). Numeric feedback says right or wrong only
// (Exercise::feedback_hides_answer), so no number can be bisected from "Too high" / "Too low";
// the choice redraws its scenario on every try.
// Joined into the chapter's list by exercise_bank_acceleration.cpp; prose in
// core/exercises/acceleration.json. Not for: seeding, rendering or grading (grader.cpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <iterator>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/detail/exercise_bank.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/stats/scaling.hpp"

namespace perflab::detail {
namespace {

using nlohmann::json;

// ---- acceleration.parallel-amdahl ---------------------------------------------------------

// Serial fractions of real programs: a few percent (a well-parallelized kernel with its
// setup) to a quarter (a loop with a serial reduction or I/O).
VariantData draw_parallel_amdahl(Rng& rng, const Fragments&) {
  static const double serial_percents[] = {1, 2, 2.5, 3, 4, 5, 7.5, 10, 12.5, 15, 20, 25};
  static const std::int64_t threads[] = {4, 6, 8, 12, 16, 24, 32, 64};
  static const std::int64_t target_threads[] = {8, 12, 16, 24, 32, 48, 64};
  const double percent = pick(rng, serial_percents);
  const std::int64_t p = pick(rng, threads);
  const std::int64_t q = pick(rng, target_threads);
  // A target between a third and 90% of the ideal q×, to one decimal: reachable with some
  // serial fraction above 0, never with all of the work serial.
  const double target = round_to(rng.uniform(0.33, 0.9) * static_cast<double>(q), 1);
  const double qd = static_cast<double>(q);
  VariantData v;
  v.params = {{"serial_percent", percent},
              {"threads", p},
              {"target_threads", q},
              {"target_speedup", target}};
  // Amdahl's law inverted for s: 1/T = s + (1 − s)/q  ⇔  s = (1/T − 1/q) / (1 − 1/q), the
  // Karp-Flatt form. As a percentage, as the prompt gives serial fractions.
  v.expected_values = {amdahl_speedup(percent / 100.0, static_cast<double>(p)),
                       100.0 * (1.0 / target - 1.0 / qd) / (1.0 - 1.0 / qd)};
  return v;
}

// ---- acceleration.parallel-bandwidth ------------------------------------------------------

// One core's triad reaches a part of the memory bus; all cores together saturate it at a few
// times that (laptops: 2-4×, workstations more).
VariantData draw_parallel_bandwidth(Rng& rng, const Fragments&) {
  static const std::int64_t threads[] = {2, 4, 6, 8, 12, 16};
  static const std::int64_t mebi[] = {4, 8, 16, 32, 64};
  const std::int64_t per_core = rng.integer(8, 24);
  const std::int64_t all_core = static_cast<std::int64_t>(
      std::round(static_cast<double>(per_core) * rng.uniform(1.5, 6.0)));
  const std::int64_t p = pick(rng, threads);
  const std::int64_t elements = pick(rng, mebi) * 1024 * 1024;
  const double pd = static_cast<double>(p);
  const double b1 = static_cast<double>(per_core);
  const double b_all = static_cast<double>(all_core);
  // p threads stream at p times one core's rate until they fill the bus.
  const double bandwidth = std::min(pd * b1, b_all);
  const double bytes = cost_gelu_fused(static_cast<std::size_t>(elements)).bytes;
  VariantData v;
  v.params = {{"per_core_gb_per_s", per_core},
              {"all_core_gb_per_s", all_core},
              {"threads", p},
              {"elements", elements}};
  // GB/s · 10^9 is bytes/s; × 10^3 for ms.
  v.expected_values = {bandwidth / b1, bytes / (bandwidth * 1e9) * 1e3};
  return v;
}

// ---- acceleration.parallel-slowdown -------------------------------------------------------

// Index of each cause in the exercise's `choices`.
constexpr int kFalseSharing = 0;
constexpr int kRace = 1;
constexpr int kBus = 2;
constexpr int kSerial = 3;

// The scenarios (the data file's fragments), two per cause, walked through one per try. Each
// wrong cause is a real misreading of its scenario: false sharing is slow with right results
// (not a race, which gives wrong ones), in data that fits the caches (not the bus).
constexpr PooledQuestion kSlowdownScenarios[] = {
    {"counters", kFalseSharing}, {"partial-sums", kFalseSharing},
    {"shared-total", kRace},     {"histogram", kRace},
    {"stream-add", kBus},        {"stream-gelu", kBus},
    {"parse-first", kSerial},    {"serial-merge", kSerial},
};

VariantData draw_parallel_slowdown(Rng& rng, const Fragments& fragments, const ChoiceTry& t) {
  static const std::int64_t threads[] = {4, 6, 8, 12, 16};
  static const std::int64_t megabytes[] = {256, 512, 1024};
  const std::int64_t p = pick(rng, threads);
  const json figures = {{"threads", p},
                        {"megabytes", pick(rng, megabytes)},
                        {"percent", rng.integer(85, 95)},
                        // a speedup well short of p, one decimal
                        {"speedup", round_to(rng.uniform(1.1, 0.45 * static_cast<double>(p)), 1)}};
  const PooledQuestion& s = kSlowdownScenarios[pool_item(t, std::size(kSlowdownScenarios))];
  VariantData v;
  v.params = {{"scenario", fragments.render(s.fragment, figures)}};
  shuffle_choices(v, 4, s.answer, rng);
  return v;
}

// ---- acceleration.parallel-my-scaling: the student's own thread-scaling run ---------------

// rows[i][field] as a string ("matmul", "fma").
std::string row_text(const Exercise& e, const json& rows, std::size_t i, const char* field) {
  const json& row = rows.at(i);
  if (!row.contains(field)) {
    throw ValueError(evidence_row_at(i) + " has no field \"" + field + "\"; rows of " +
                     e.evidence.experiment + " carry it (this exercise reads " + e.evidence.what +
                     "): send the rows of that experiment as they are");
  }
  if (!row.at(field).is_string()) {
    throw ValueError(evidence_row_at(i) + "." + field + " must be a string, got " +
                     describe_value(row.at(field)) + "; run " + e.evidence.title + " again");
  }
  return row.at(field).get<std::string>();
}

// rows[i].stats.median_ms: the median per-call time, in the stats object every measured row
// carries, checked against what the row's own rate says (gflops_per_s = flops / median). A
// median edited by hand to change a speedup, without the rate it came with, is refused.
double row_median_ms(const Exercise& e, const json& rows, std::size_t i) {
  const json& row = rows.at(i);
  if (!row.contains("stats") || !row.at("stats").is_object()) {
    throw ValueError(evidence_row_at(i) + " has no \"stats\" object; rows of " + e.evidence.experiment +
                     " carry their timing there (this exercise reads " + e.evidence.what +
                     "): send the rows of that experiment as they are");
  }
  const json& stats = row.at("stats");
  const std::string where = evidence_row_at(i) + ".stats.median_ms";
  if (!stats.contains("median_ms")) {
    throw ValueError(where + " is missing; rows of " + e.evidence.experiment +
                     " carry it: send the rows of that experiment as they are");
  }
  const json& m = stats.at("median_ms");
  if (!m.is_number() || !std::isfinite(m.get<double>()) || !(m.get<double>() > 0)) {
    throw ValueError(where + " must be a finite number above 0, got " + describe_value(m) +
                     "; run " + e.evidence.title + " again");
  }
  const double median = m.get<double>();
  const double flops = evidence_number(e, rows, i, "flops");
  const double rate = evidence_number(e, rows, i, "gflops_per_s");
  const double implied = flops / (median * 1e6);
  if (std::fabs(implied - rate) > 1e-6 * rate) {
    throw ValueError(evidence_row_at(i) + " does not hold together: its flops over its stats.median_ms (" +
                     describe_value(median) + " ms) make " + describe_value(implied) +
                     " GFLOP/s, but its gflops_per_s is " + describe_value(rate) +
                     "; core's measurement writes both from one median, so this row was "
                     "changed after it was measured: run " + e.evidence.title + " again");
  }
  return median;
}

// The thread counts of a run, "1, 2 and 4".
std::string counts_text(const std::vector<std::pair<unsigned, double>>& points) {
  std::vector<unsigned> counts;
  for (const auto& p : points) counts.push_back(p.first);
  std::sort(counts.begin(), counts.end());
  std::string out;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    out += (k == 0 ? "" : k + 1 == counts.size() ? " and " : ", ") + std::to_string(counts[k]);
  }
  return out;
}

// core's scaling analysis of the run, from its medians (never from a speedup, fraction or fit
// the page put beside them). A run measures one kernel in one flavour at one size on each
// thread count the student chose.
ScalingAnalysis run_scaling(const Exercise& e, const json& rows) {
  std::vector<std::pair<unsigned, double>> points;
  std::set<std::string> setups;  // "matmul, simd, n = 512"
  std::string kernel;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    kernel = row_text(e, rows, i, "kernel");
    const std::string flavour = row_text(e, rows, i, "flavour");
    const double n = evidence_number(e, rows, i, "n");
    const double threads = evidence_number(e, rows, i, "threads");
    if (threads != std::trunc(threads) || threads > kMaxEngineThreads) {
      throw ValueError(evidence_row_at(i) + ".threads is " + describe_value(threads) +
                       ": a run measures whole thread counts from 1 to " +
                       std::to_string(kMaxEngineThreads) + "; run " + e.evidence.title + " again");
    }
    if (kernel == "matmul") {
      // Every timed matmul was verified against the naive one first; a row outside that
      // tolerance was not measured by core.
      const double error = evidence_number(e, rows, i, "max_error", false);
      if (error < 0 || error > kMatmulTolerance) {
        throw ValueError(evidence_row_at(i) + ".max_error is " + describe_value(error) +
                         ", outside the verification's tolerance (" +
                         describe_value(kMatmulTolerance) +
                         "), so its time is not of a correct matmul; run " + e.evidence.title +
                         " again");
      }
    }
    setups.insert(kernel + ", " + flavour + ", n = " + describe_value(n));
    const auto t = static_cast<unsigned>(threads);
    const double median = row_median_ms(e, rows, i);
    for (const auto& [seen, _] : points) {
      if (seen == t) {
        throw ValueError("your run of " + e.evidence.title + " has " + std::to_string(t) +
                         " thread" + (t == 1 ? "" : "s") +
                         " twice; a run measures each thread count once: run it again");
      }
    }
    points.emplace_back(t, median);
  }
  if (setups.size() > 1) {
    std::string has;
    for (const auto& s : setups) has += (has.empty() ? "" : "; ") + s;
    throw ValueError("your rows of " + e.evidence.title + " come from more than one setup (" +
                     has +
                     "); a run measures one kernel, flavour and size at each thread count: "
                     "send the rows of one run");
  }
  const bool has_one = std::any_of(points.begin(), points.end(),
                                   [](const auto& p) { return p.first == 1; });
  if (!has_one || points.size() < 2) {
    throw ValueError("your run of " + e.evidence.title + " has " + counts_text(points) +
                     " thread" + (points.size() == 1 && points[0].first == 1 ? "" : "s") +
                     "; a fit needs 1 thread and at least one more count: run it with 1 and 2 "
                     "threads or more");
  }
  return analyze_scaling(points);
}

// Beyond every count a run can measure (kMaxEngineThreads), so the page's table, which shows
// the fit's speedup at the measured counts only, never holds the answer. Not much beyond: the
// page prints the serial fraction to 0.1 percentage points, which moves a prediction by up to
// p × 0.0005 (1.6% at 32 threads).
VariantData draw_my_scaling(Rng& rng, const Fragments&) {
  static const std::int64_t cores[] = {20, 24, 28, 32};
  VariantData v;
  v.params = {{"cores", pick(rng, cores)}};
  return v;
}

// The fit's speedup at the drawn count, and the time of one call it implies.
void my_scaling_from_evidence(const Exercise& e, const json& rows, VariantData& v) {
  const ScalingAnalysis a = run_scaling(e, rows);
  const double cores = v.params.at("cores").get<double>();
  const double speedup = amdahl_speedup(a.fit.serial_fraction, cores);
  v.expected_values = {speedup, a.rows.front().median_ms / speedup};
}

}  // namespace

std::vector<ExerciseCode> acceleration_parallel_exercises() {
  using enum ExerciseKind;
  return {
      {.id = "acceleration.parallel-amdahl", .kind = Numeric, .points = 10,
       .draw = draw_parallel_amdahl, .parts = {{kOnePercent}, {kOnePercent}},
       .feedback_hides_answer = true},
      // The prose names the fused GELU's bytes per element from elementwise.hpp's count.
      {.id = "acceleration.parallel-bandwidth", .kind = Numeric, .points = 10,
       .draw = draw_parallel_bandwidth, .parts = {{kOnePercent}, {kOnePercent}},
       .constants = {{"gelu_bytes_per_element", cost_gelu_fused(1).bytes}},
       .feedback_hides_answer = true},
      {.id = "acceleration.parallel-slowdown", .kind = Choice, .points = 10,
       .draw_try = draw_parallel_slowdown},
      // 2.5%: the serial fraction as the page prints it (draw_my_scaling) is good to 1.6%.
      {.id = "acceleration.parallel-my-scaling", .kind = Numeric, .points = 15,
       .draw = draw_my_scaling, .parts = {{{0.025, 0.0}}, {{0.025, 0.0}}},
       .experiment = "acceleration-thread-scaling", .from_evidence = my_scaling_from_evidence,
       .feedback_hides_answer = true},
  };
}

}  // namespace perflab::detail
