// The forensic checks on a submission's measured evidence (grading/forensics.hpp): an honest
// row built by the timer's rules (whole ticks of a coarsened clock, batching, core's own
// comparison) raises nothing, and each tamper raises its flag with a reason naming the
// numbers. Rows are small and hand-computable: a 5 µs clock, 10 calls per sample.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/detail/compare_cache.hpp"
#include "perflab/grading/forensics.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/compare.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

// Per-call samples of `ticks` whole ticks of 0.005 ms over 10 calls each.
std::vector<double> on_grid(const std::vector<int>& ticks) {
  std::vector<double> out;
  for (int t : ticks) out.push_back(t * 5 / 1000.0 / 10);
  return out;
}

// An A/B row as runAB writes it, with core's own comparison of the samples.
json ab_row(const std::vector<double>& a, const std::vector<double>& b, std::uint64_t seed) {
  AbOptions options;
  options.seed = seed;
  options.compare.seed = seed;  // runAB compares with the seed its rounds were ordered by
  const AbResult r = analyze_ab(
      a, b, ab_round_order(AbMode::interleaved, static_cast<int>(a.size()), seed), options);
  json row = to_json(r);
  row["op"] = "matmul";
  row["n"] = 64;
  row["inner_iterations_a"] = 10;
  row["inner_iterations_b"] = 10;
  row["resolution_ms"] = 0.005;
  return row;
}

json submission_with(const json& rows,
                     const std::string& finished_at = "2026-11-20T10:05:00.000Z") {
  return {{"exported_at", "2026-11-20T10:30:00.000Z"},
          {"machine",
           {{"probe",
             {{"peak_gflops_per_s", 50.0},
              {"bandwidth_gb_per_s", 20.0},
              {"measured_at", "2026-11-20T10:00:00.000Z"}}}}},
          {"exercises",
           {{"benchmarking.ab-capstone",
             {{"best_answer",
               {{"values", {1, 2, 3}},
                {"evidence",
                 {{"experiment", "benchmarking-ab"},
                  {"rows", rows},
                  {"finished_at", finished_at}}}}}}}}}};
}

std::vector<std::string> codes(const std::vector<EvidenceFlag>& flags) {
  std::vector<std::string> out;
  for (const auto& f : flags) out.push_back(f.code);
  return out;
}

const std::vector<int> kTicksA = {200, 203, 199, 210, 201, 205, 198, 202};
const std::vector<int> kTicksB = {180, 181, 179, 185, 182, 190, 178, 183};

}  // namespace

TEST_CASE("iso_time_ms reads the page's ISO times and nothing else") {
  CHECK(iso_time_ms("1970-01-01T00:00:00.000Z") == 0);
  CHECK(iso_time_ms("2026-11-26T03:10:00.005Z") == 1795662600005.0);
  CHECK(iso_time_ms("2000-02-29T23:59:59.999Z") == 951868799999.0);
  CHECK(iso_time_ms("2026-11-26T03:10Z") == 1795662600000.0);
  CHECK(std::isnan(iso_time_ms("2026-11-26 03:10:00")));
  CHECK(std::isnan(iso_time_ms("2026-11-26T03:10:00.000+01:00")));
  CHECK(std::isnan(iso_time_ms("")));
}

TEST_CASE("an honest A/B row on a 5 µs clock raises no flag") {
  const json row = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  CHECK(evidence_forensics(submission_with(json::array({row}))).empty());
}

TEST_CASE("samples that are not whole ticks of the recorded clock are flagged with the numbers") {
  json row = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  std::vector<double> a = on_grid(kTicksA);
  a[2] = 0.1003;  // 0.1003 ms × 10 calls = 1.003 ms = 200.6 ticks
  row = ab_row(a, on_grid(kTicksB), 7);
  const auto flags = evidence_forensics(submission_with(json::array({row})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagOffGrid});
  CHECK(flags[0].exercise == "benchmarking.ab-capstone");
  CHECK(flags[0].reason ==
        "benchmarking.ab-capstone: rows[0].a_ms: 1 of 8 samples are not whole ticks of the "
        "clock the row records (0.005 ms a tick, 10 calls per sample): a_ms[2] = 0.1003 ms × 10 "
        "calls is 200.6 ticks; a browser's clock only reads whole ticks");
}

TEST_CASE("a clock that is not coarsened (Node, native) has no grid to check") {
  std::vector<double> a = {0.0123, 0.0131, 0.0127, 0.0122, 0.0129, 0.0125};
  std::vector<double> b = {0.0111, 0.0119, 0.0113, 0.0115, 0.0117, 0.0112};
  json row = ab_row(a, b, 3);
  row["resolution_ms"] = 0.00028;
  CHECK(evidence_forensics(submission_with(json::array({row}))).empty());
}

TEST_CASE("a row claiming a finer clock than the page's own browser clock is flagged") {
  std::vector<double> a = {0.0123, 0.0131, 0.0127, 0.0122, 0.0129, 0.0125};
  std::vector<double> b = {0.0111, 0.0119, 0.0113, 0.0115, 0.0117, 0.0112};
  json row = ab_row(a, b, 3);
  row["resolution_ms"] = 0.00028;
  json s = submission_with(json::array({row}));
  s["machine"]["timer_resolution_ms"] = 0.1;
  const auto flags = evidence_forensics(s);
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagOffGrid});
  CHECK(flags[0].reason.find("rows[0].a_ms records a clock resolution of 0.00028 ms, not a "
                             "browser's whole microseconds, from a page whose clock read 0.1 ms "
                             "ticks") != std::string::npos);
  s["machine"]["timer_resolution_ms"] = 0.00031;  // Node, native: nothing to hold it to
  CHECK(evidence_forensics(s).empty());
}

TEST_CASE("invented rows without the timer's facts are flagged") {
  const json row = {{"mode", "interleaved"},
                    {"a_ms", {10, 11, 12, 13, 14}},
                    {"b_ms", {20, 21, 22, 23, 24}},
                    {"comparison", {{"seed", 1}}}};
  const auto flags = evidence_forensics(submission_with(json::array({row})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagUntimed});
  CHECK(flags[0].reason.find("not the timer facts") != std::string::npos);
}

TEST_CASE("a stored comparison that does not follow from its samples is flagged") {
  json row = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  const double ratio = row["comparison"]["ratio"].get<double>();
  row["comparison"]["ratio"] = 1.5;
  auto flags = evidence_forensics(submission_with(json::array({row})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  CHECK(flags[0].reason.find("rows[0].comparison.ratio is 1.5 but its own a_ms and b_ms give") !=
        std::string::npos);
  CAPTURE(ratio);

  json verdict = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  verdict["comparison"]["verdict"]["name"] = "no_difference";
  flags = evidence_forensics(submission_with(json::array({verdict})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  CHECK(flags[0].reason.find(
            "verdict is \"no_difference\" but its own a_ms and b_ms give \"faster\"") !=
        std::string::npos);

  json order = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  order["a_first"][0] = !order["a_first"][0].get<bool>();
  flags = evidence_forensics(submission_with(json::array({order})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  CHECK(flags[0].reason.find("a_first[0] is not the order core draws for seed 7") !=
        std::string::npos);
}

TEST_CASE("a matmul faster than twice the student's probed peak is flagged") {
  // N = 64: 2·64³ = 524288 FLOPs; 0.005 ms a call is 104.9 GFLOP/s, 2.1× the 50 probed.
  const std::vector<double> fast(8, 0.005);
  json row = ab_row(fast, fast, 2);
  const auto flags = evidence_forensics(submission_with(json::array({row})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagAboveRoof});
  CHECK(flags[0].reason ==
        "benchmarking.ab-capstone: rows[0] (matmul N=64, median of the faster arm) runs at 104.9 "
        "GFLOP/s, 2.097× the peak of 50 GFLOP/s this student's probe measured (flagged above 2×)");
}

TEST_CASE("a thread-scaling row's roof is the probe's peak times its cores, twice for FMA") {
  // N = 512: 2·512³ = 268435456 FLOPs in 1 ms is 268.4 GFLOP/s, 5.4× the 50 probed on one core.
  const auto row = [](double threads, const char* flavour) {
    return json{{"kernel", "matmul"},
                {"flavour", flavour},
                {"threads", threads},
                {"n", 512},
                {"flops", 268435456.0},
                {"gflops_per_s", 268.435456},
                {"stats",
                 {{"median_ms", 1.0},
                  {"min_ms", 0.995},
                  {"max_ms", 1.1},
                  {"inner_iterations", 1},
                  {"resolution_ms", 0.005}}}};
  };
  // 4 threads of 50 each, or 2 threads whose FMA does a multiply-add in one instruction: within 2×.
  CHECK(evidence_forensics(submission_with(json::array({row(4, "simd")}))).empty());
  CHECK(evidence_forensics(submission_with(json::array({row(2, "fma")}))).empty());
  const auto flags = evidence_forensics(submission_with(json::array({row(2, "simd")})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagAboveRoof});
  CHECK(flags[0].reason ==
        "benchmarking.ab-capstone: rows[0] runs at 268.4 GFLOP/s, 2.684× the peak of 50 GFLOP/s "
        "this student's probe measured, × 2 for its 2 threads of the simd flavour (flagged above "
        "2×)");
}

TEST_CASE("a throughput that contradicts its latency is flagged") {
  const json honest = {{"batch_size", 32},
                       {"samples_per_s", 3200},
                       {"flops_per_sample", 1000},
                       {"flops_per_batch", 32000},
                       {"gflops_per_s", 0.0032},
                       {"latency",
                        {{"median_ms", 10.0},
                         {"min_ms", 9.5},
                         {"max_ms", 11.0},
                         {"inner_iterations", 1},
                         {"resolution_ms", 0.1}}}};
  CHECK(evidence_forensics(submission_with(json::array({honest}))).empty());
  json forged = honest;
  forged["samples_per_s"] = 6400;
  const auto flags = evidence_forensics(submission_with(json::array({forged})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  CHECK(flags[0].reason.find("samples_per_s is 6400 but batch 32 in a median of 10 ms is 3200") !=
        std::string::npos);
  json between = honest;
  between["latency"]["min_ms"] = 9.55;  // 95.5 ticks of 0.1 ms
  const auto grid = evidence_forensics(submission_with(json::array({between})));
  REQUIRE(codes(grid) == std::vector<std::string>{kFlagOffGrid});
  CHECK(grid[0].reason.find("rows[0].latency: 1 of 2 samples are not whole ticks of the clock the "
                            "row records (0.1 ms a tick, 1 calls per sample): min_ms = 9.55 ms × 1 "
                            "calls is 95.5 ticks") != std::string::npos);
  json bare = {{"batch_size", 1}, {"samples_per_s", 400}};
  CHECK(codes(evidence_forensics(submission_with(json::array({bare})))) ==
        std::vector<std::string>{kFlagUntimed});
}

TEST_CASE("a backward row's medians must be its timings' medians") {
  const json latency = {{"median_ms", 2.2},
                        {"min_ms", 2.1},
                        {"max_ms", 2.5},
                        {"inner_iterations", 1},
                        {"resolution_ms", 0.1}};
  const json forward = {{"median_ms", 1.0},
                        {"min_ms", 0.9},
                        {"max_ms", 1.2},
                        {"inner_iterations", 1},
                        {"resolution_ms", 0.1}};
  const json honest = {{"batch_size", 8},
                       {"latency", latency},
                       {"forward_latency", forward},
                       {"measured_ms", 2.2},
                       {"forward_ms", 1.0}};
  CHECK(evidence_forensics(submission_with(json::array({honest}))).empty());
  json forged = honest;
  forged["forward_ms"] = 1.5;
  const auto flags = evidence_forensics(submission_with(json::array({forged})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  CHECK(flags[0].reason ==
        "benchmarking.ab-capstone: rows[0].forward_ms is 1.5 ms but its forward_latency.median_ms "
        "is 1 ms");
  json bare = {{"measured_ms", 2.2}, {"forward_ms", 1.0}};
  CHECK(codes(evidence_forensics(submission_with(json::array({bare})))) ==
        std::vector<std::string>{kFlagUntimed});
}

TEST_CASE("nested timings are held to the clock grid, and pruned layers must chain") {
  const json kv = {{"tokens", 64},
                   {"decoder", "tiny"},
                   {"recompute",
                    {{"median_ms", 12.0},
                     {"min_ms", 11.5},
                     {"max_ms", 13.05},
                     {"inner_iterations", 1},
                     {"resolution_ms", 0.1}}}};
  const auto flags = evidence_forensics(submission_with(json::array({kv})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagOffGrid});
  CHECK(flags[0].reason.find("rows[0].recompute: 1 of 2 samples") != std::string::npos);

  const json chain = json::array({{{"linear", 0}, {"in", 784}, {"out", 120}},
                                  {{"linear", 2}, {"in", 60}, {"out", 10}},
                                  {{"linear", 1}, {"in", 120}, {"out", 60}}});
  CHECK(evidence_forensics(submission_with(chain)).empty());
  json broken = chain;
  broken[2]["out"] = 64;
  const auto bad = evidence_forensics(submission_with(broken));
  REQUIRE(codes(bad) == std::vector<std::string>{kFlagInconsistent});
  CHECK(bad[0].reason ==
        "benchmarking.ab-capstone: Linear 1 has 64 outputs but Linear 2 takes 60 "
        "inputs: the layers' sizes do not chain");
}

TEST_CASE("a run or probe dated after the export, and a run before its probe, are flagged") {
  const json row = ab_row(on_grid(kTicksA), on_grid(kTicksB), 7);
  auto flags = evidence_forensics(submission_with(json::array({row}), "2026-11-20T11:00:00.000Z"));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagChronology});
  CHECK(flags[0].reason.find("finished 30 minutes after the file was exported") !=
        std::string::npos);

  json late_probe = submission_with(json::array({row}));
  late_probe["machine"]["probe"]["measured_at"] = "2026-11-21T10:00:00.000Z";
  flags = evidence_forensics(late_probe);
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagChronology});
  CHECK(flags[0].exercise.empty());

  // A roofline row placed against the file's probe, 55 minutes before that probe.
  const json placed = {{"op", "add"},
                       {"n", 1048576},
                       {"flops", 1048576},
                       {"gflops_per_s", 1.048576},
                       {"stats",
                        {{"median_ms", 1.0},
                         {"min_ms", 0.95},
                         {"max_ms", 1.1},
                         {"inner_iterations", 1},
                         {"resolution_ms", 0.005}}},
                       {"peak_gflops_per_s", 50.0},
                       {"bandwidth_gb_per_s", 20.0}};
  flags = evidence_forensics(submission_with(json::array({placed}), "2026-11-20T09:05:00.000Z"));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagChronology});
  CHECK(flags[0].reason.find("finished 55 minutes before that probe was measured") !=
        std::string::npos);
  // Other roofs than the probe's, run after it: not the roofs this file's probe gave.
  json other = placed;
  other["peak_gflops_per_s"] = 80.0;
  flags = evidence_forensics(submission_with(json::array({other})));
  REQUIRE(codes(flags) == std::vector<std::string>{kFlagInconsistent});
  // ...but before it: an earlier probe, replaced since. Not flagged.
  CHECK(evidence_forensics(submission_with(json::array({other}), "2026-11-20T09:05:00.000Z"))
            .empty());
}

TEST_CASE("evidence_forensics refuses what is not a submission") {
  CHECK_THROWS_AS(evidence_forensics(json::array()), ValueError);
  CHECK_THROWS_AS(evidence_forensics(json{{"exercises", 3}}), ValueError);
  CHECK(evidence_forensics(json::object()).empty());
}

TEST_CASE("compare_samples_cached returns compare_samples' result, remembered or not") {
  CompareOptions options;
  options.seed = 9;
  const std::vector<double> a = on_grid(kTicksA), b = on_grid(kTicksB);
  const Comparison fresh = compare_samples(a, b, options);
  for (int call = 0; call < 2; ++call) {
    const Comparison c = detail::compare_samples_cached(a, b, options, "a", "b");
    CHECK(c.ratio == fresh.ratio);
    CHECK(c.ratio_interval.low == fresh.ratio_interval.low);
    CHECK(c.ratio_interval.high == fresh.ratio_interval.high);
    CHECK(c.verdict == fresh.verdict);
  }
  options.seed = 10;  // other options: computed again, not the remembered result
  CHECK(detail::compare_samples_cached(a, b, options, "a", "b").ratio_interval.low ==
        compare_samples(a, b, options).ratio_interval.low);
  CHECK_THROWS_AS(detail::compare_samples_cached({1, 2}, {0, 0}, options, "a", "b"), ValueError);
}
