// A regression check of two benchmark runs: each benchmark present in both is compared by
// compare_samples (A = base, B = new) and is a regression when the verdict is "slower"
// (significant, the ratio's interval excluding 1, beyond the noise threshold). One module for
// `perflab compare` and the page's regression experiment, so both print the same verdicts.
// Not for: timing anything (`perflab bench` and the page's sweep do) or reading files (the CLI).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/stats/compare.hpp"

namespace perflab {

// The most benchmarks one run may hold (`perflab bench` writes 24): each compared benchmark
// costs a comparison, whose exact Mann-Whitney count alone is up to 40 ms in wasm at 49
// samples a side (256 such rows took 10 s). All of a run's samples together are at most
// kMaxSampleValues.
inline constexpr std::size_t kMaxBenchRows = 64;

struct BenchSamples {
  std::string key;  // "matmul packed n=64"
  std::vector<double> samples_ms;
};

struct BenchRun {
  std::string name;  // the file's path, or the page's "baseline" / "this run"
  std::vector<BenchSamples> rows;  // in the run's order, keys distinct
  std::string label;  // how the verdict sentences name it ("the baseline"); name when empty
};

// The benchmarks of a run with their raw samples, from `perflab bench --json`
// output ({tool: "perflab", kind: "bench", rows: [...]}) or a bare array of rows; each row
// {op, variant, n, samples_ms: [numbers]} (other fields ignored). ValueError "NAME: ..."
// naming the field (rows[2].samples_ms must be ...), a repeated benchmark, or a document
// that is not a bench run, and how to make one; more than kMaxBenchRows rows, or more than
// kMaxSampleValues samples in all its rows, refused before any row is read.
BenchRun bench_run_from_json(const nlohmann::json& doc, const std::string& name);

// {base, new, alpha, threshold, rows: [{benchmark, base_median_ms, new_median_ms, change,
// change_interval: {low, high}, p_value, ratio_interval: {low, high}, verdict, verdict_word,
// sentence}], only_in_base, only_in_new, regression}: what `perflab compare --json` prints.
// change_interval is the interval of change (new / base − 1, the ratio's interval inverted);
// ratio_interval that of base / new. The sentence names the runs by their labels ("this run is
// 2.05x slower than the baseline (95% CI 1.98-2.12x, ...)"). options.validate() and each
// run's limits (as bench_run_from_json's) first. One bootstrap budget for the whole run: every
// benchmark's ratio uses bootstrap_resamples_within_budget(requested, the samples of all the
// benchmarks compared); the report adds bootstrap_resamples (used),
// bootstrap_resamples_requested and note (the sentence when fewer were used, else "").
nlohmann::json compare_runs(const BenchRun& base, const BenchRun& next,
                            const CompareOptions& options = {});

}  // namespace perflab
