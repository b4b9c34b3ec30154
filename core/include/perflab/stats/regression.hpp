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

struct BenchSamples {
  std::string key;  // "matmul packed n=64"
  std::vector<double> samples_ms;
};

struct BenchRun {
  std::string name;  // the file's path, or the page's "baseline" / "this run"
  std::vector<BenchSamples> rows;  // in the run's order, keys distinct
};

// The benchmarks of a run with their raw samples, from `perflab bench --json --samples`
// output ({tool: "perflab", kind: "bench", rows: [...]}) or a bare array of rows; each row
// {op, variant, n, samples_ms: [numbers]} (other fields ignored). ValueError "NAME: ..."
// naming the field (rows[2].samples_ms must be ...), a repeated benchmark, or a document
// that is not a bench run, and how to make one.
BenchRun bench_run_from_json(const nlohmann::json& doc, const std::string& name);

// {base, new, alpha, threshold, rows: [{benchmark, base_median_ms, new_median_ms, change,
// p_value, ratio_interval: [low, high], verdict, sentence}], only_in_base, only_in_new,
// regression}: what `perflab compare --json` prints. options.validate() first.
nlohmann::json compare_runs(const BenchRun& base, const BenchRun& next,
                            const CompareOptions& options = {});

}  // namespace perflab
