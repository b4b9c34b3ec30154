// bench_run_from_json and compare_runs: reading two benchmark runs and the regression verdict
// per benchmark, on samples whose answer is plain (the same values, or every new value 1.5x).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/stats/regression.hpp"

using namespace perflab;
using nlohmann::json;

namespace {

std::vector<double> spread(double centre, int n = 20) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(centre * (1.0 + 0.001 * (i % 5)));
  return v;
}

json row(const char* op, const char* variant, int n, const std::vector<double>& samples) {
  return {{"op", op}, {"variant", variant}, {"n", n}, {"samples_ms", samples}, {"median_ms", 1}};
}

}  // namespace

TEST_CASE("bench_run_from_json reads a bench file or a bare array of rows") {
  const json file = {{"tool", "perflab"},
                     {"kind", "bench"},
                     {"rows", {row("matmul", "packed", 64, {1, 2}), row("gelu", "fused", 1024, {3})}}};
  const BenchRun run = bench_run_from_json(file, "base.json");
  CHECK(run.name == "base.json");
  REQUIRE(run.rows.size() == 2);
  CHECK(run.rows[0].key == "matmul packed n=64");
  CHECK(run.rows[0].samples_ms == std::vector<double>{1, 2});
  CHECK(run.rows[1].key == "gelu fused n=1024");
  const BenchRun bare = bench_run_from_json(file["rows"], "this run");
  CHECK(bare.rows.size() == 2);
  CHECK(bare.rows[1].samples_ms == std::vector<double>{3});
}

TEST_CASE("bench_run_from_json names what is wrong and how to make a bench run") {
  CHECK_THROWS_WITH_AS(bench_run_from_json(json{{"kind", "bench"}}, "b.json"),
                       doctest::Contains("b.json: not perflab JSON"), ValueError);
  CHECK_THROWS_WITH_AS(bench_run_from_json(json{{"tool", "perflab"}, {"kind", "roofline"}, {"rows", json::array()}}, "b.json"),
                       "b.json: kind must be \"bench\", got \"roofline\"", ValueError);
  CHECK_THROWS_WITH_AS(bench_run_from_json(json::array({row("matmul", "packed", 64, {})}), "b"),
                       doctest::Contains("b: rows[0].samples_ms must be a non-empty array"), ValueError);
  // Samples in another unit are refused by name, not compared with milliseconds.
  json micro = json::array({row("matmul", "packed", 64, {1})});
  micro[0]["samples_us"] = micro[0]["samples_ms"];
  micro[0].erase("samples_ms");
  CHECK_THROWS_WITH_AS(bench_run_from_json(micro, "new.json"),
                       "new.json: rows[0].samples_us holds per-call times in microseconds; perflab "
                       "compare compares samples in one unit, milliseconds (samples_ms): convert "
                       "them, or make the file with `perflab bench --json`",
                       ValueError);
  json missing = json::array({row("matmul", "packed", 64, {1})});
  missing[0].erase("variant");
  CHECK_THROWS_WITH_AS(bench_run_from_json(missing, "b"), "b: rows[0].variant is missing", ValueError);
  json text = json::array({row("matmul", "packed", 64, {1})});
  text[0]["samples_ms"][0] = "fast";
  CHECK_THROWS_WITH_AS(bench_run_from_json(text, "b"),
                       "b: rows[0].samples_ms[0] must be a number, got \"fast\"", ValueError);
  const json twice = json::array({row("gelu", "fused", 8, {1}), row("gelu", "fused", 8, {2})});
  CHECK_THROWS_WITH_AS(bench_run_from_json(twice, "b"), "b: rows[1] repeats gelu fused n=8 (rows[0])",
                       ValueError);
}

TEST_CASE("compare_runs: a benchmark 1.5x slower is a regression, an unchanged one is not") {
  const BenchRun base = bench_run_from_json(
      json::array({row("matmul", "packed", 64, spread(1.0)), row("gelu", "fused", 8, spread(2.0)),
                   row("add", "", 8, spread(1.0))}),
      "baseline");
  const BenchRun next = bench_run_from_json(
      json::array({row("matmul", "packed", 64, spread(1.5)), row("gelu", "fused", 8, spread(2.0)),
                   row("mul", "", 8, spread(1.0))}),
      "this run");
  const json r = compare_runs(base, next);
  CHECK(r["base"] == "baseline");
  CHECK(r["new"] == "this run");
  REQUIRE(r["rows"].size() == 2);
  CHECK(r["rows"][0]["benchmark"] == "matmul packed n=64");
  CHECK(r["rows"][0]["verdict"] == "slower");
  CHECK(r["rows"][0]["change"].get<double>() == doctest::Approx(0.5));
  CHECK(r["rows"][1]["verdict"] == "no_difference");
  CHECK(r["only_in_base"] == json::array({"add  n=8"}));
  CHECK(r["only_in_new"] == json::array({"mul  n=8"}));
  CHECK(r["regression"] == true);

  // The sentence names the runs by their labels (their names when unlabelled) and prints the
  // interval of the factor it states; change_interval is the change's own, in its direction.
  const json& slow = r["rows"][0];
  CHECK(slow["verdict_word"] == "slower");
  CHECK(r["rows"][1]["verdict_word"] == "no clear difference");
  // Both intervals are {low, high}, the shape of every interval core writes (summary.hpp).
  const Interval ratio = interval_from_json(slow["ratio_interval"], "ratio_interval");
  const Interval change = interval_from_json(slow["change_interval"], "change_interval");
  CHECK(slow["change_interval"].size() == 2);
  CHECK(change.low == doctest::Approx(1 / ratio.high - 1));
  CHECK(change.high == doctest::Approx(1 / ratio.low - 1));
  CHECK(change.contains(0.5));
  CHECK(slow["sentence"].get<std::string>().rfind("this run is 1.50x slower than baseline (95% CI 1.", 0) == 0);
  BenchRun labelled_base = base, labelled_next = next;
  labelled_base.label = "the baseline";
  const json labelled = compare_runs(labelled_base, labelled_next);
  CHECK(labelled["base"] == "baseline");
  CHECK(labelled["rows"][0]["sentence"].get<std::string>().rfind(
            "this run is 1.50x slower than the baseline (95% CI 1.", 0) == 0);

  const json same = compare_runs(base, base);
  CHECK(same["regression"] == false);
  CompareOptions bad;
  bad.alpha = 2;
  CHECK_THROWS_AS(compare_runs(base, next, bad), ValueError);
}
