// bench_run_from_json and compare_runs: two benchmark runs read and compared benchmark by
// benchmark. Not for: printing the table (tools/cli/compare.cpp) or the statistics (compare.cpp).
#include "perflab/stats/regression.hpp"

#include <map>

#include "perflab/base/error.hpp"

namespace perflab {
namespace {

using json = nlohmann::json;

[[noreturn]] void malformed(const std::string& name, const std::string& what) {
  throw ValueError(name + ": " + what);
}

const json& member(const std::string& name, const json& object, const std::string& where,
                   const char* field) {
  const auto it = object.find(field);
  if (it == object.end()) malformed(name, where + field + " is missing");
  return *it;
}

const std::string& label_of(const BenchRun& run) { return run.label.empty() ? run.name : run.label; }

}  // namespace

BenchRun bench_run_from_json(const json& doc, const std::string& name) {
  const json* rows = &doc;
  if (!doc.is_array()) {
    if (!doc.is_object() || !doc.contains("tool") || doc["tool"] != "perflab") {
      malformed(name, "not perflab JSON (no \"tool\": \"perflab\"); make it with `perflab bench "
                      "--json`");
    }
    const json& kind = member(name, doc, "", "kind");
    if (kind != "bench") malformed(name, "kind must be \"bench\", got " + kind.dump());
    rows = &member(name, doc, "", "rows");
    if (!rows->is_array()) malformed(name, "rows must be an array");
  }

  // The limits first, from the rows' lengths alone: nothing is converted from a run over them.
  if (rows->size() > kMaxBenchRows) {
    malformed(name, "rows has " + std::to_string(rows->size()) + " benchmarks; at most " +
                        std::to_string(kMaxBenchRows) + " are allowed in one run: compare the "
                        "runs in parts");
  }
  std::size_t total = 0;
  for (const json& r : *rows) {
    if (r.is_object() && r.contains("samples_ms") && r["samples_ms"].is_array()) {
      total += r["samples_ms"].size();
    }
  }
  if (total > kMaxSampleValues) {
    malformed(name, "the rows hold " + std::to_string(total) + " samples in all; at most " +
                        std::to_string(kMaxSampleValues) + " are allowed in one run: keep fewer "
                        "samples per benchmark, or compare the runs in parts");
  }

  BenchRun run{name, {}, {}};
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    const std::string where = "rows[" + std::to_string(i) + "].";
    const json& r = (*rows)[i];
    if (!r.is_object()) malformed(name, "rows[" + std::to_string(i) + "] must be an object");
    const json& op = member(name, r, where, "op");
    const json& variant = member(name, r, where, "variant");
    const json& n = member(name, r, where, "n");
    if (!op.is_string()) malformed(name, where + "op must be a string");
    if (!variant.is_string()) malformed(name, where + "variant must be a string");
    if (!n.is_number()) malformed(name, where + "n must be a number");
    // Samples in another unit are named, never compared with milliseconds.
    if (!r.contains("samples_ms")) {
      for (const auto& [key, unit] : {std::pair<const char*, const char*>{"samples_s", "seconds"},
                                      {"samples_us", "microseconds"},
                                      {"samples_ns", "nanoseconds"}}) {
        if (r.contains(key)) {
          malformed(name, where + key + " holds per-call times in " + unit +
                              "; perflab compare compares samples in one unit, milliseconds "
                              "(samples_ms): convert them, or make the file with `perflab bench "
                              "--json`");
        }
      }
    }
    const json& samples = member(name, r, where, "samples_ms");
    if (!samples.is_array() || samples.empty()) {
      malformed(name, where + "samples_ms must be a non-empty array of numbers (from `perflab "
                              "bench --json`)");
    }
    BenchSamples b;
    b.key = op.get<std::string>() + " " + variant.get<std::string>() + " n=" + n.dump();
    for (std::size_t k = 0; k < samples.size(); ++k) {
      if (!samples[k].is_number()) {
        malformed(name, where + "samples_ms[" + std::to_string(k) + "] must be a number, got " +
                            samples[k].dump());
      }
      b.samples_ms.push_back(samples[k].get<double>());
    }
    if (const auto [it, fresh] = seen.emplace(b.key, i); !fresh) {
      malformed(name, "rows[" + std::to_string(i) + "] repeats " + b.key + " (rows[" +
                          std::to_string(it->second) + "])");
    }
    run.rows.push_back(std::move(b));
  }
  return run;
}

json compare_runs(const BenchRun& base, const BenchRun& next, const CompareOptions& options) {
  options.validate();
  for (const BenchRun* run : {&base, &next}) {
    std::size_t total = 0;
    for (const BenchSamples& b : run->rows) total += b.samples_ms.size();
    if (run->rows.size() > kMaxBenchRows || total > kMaxSampleValues) {
      malformed(run->name, "holds " + std::to_string(run->rows.size()) + " benchmarks and " +
                               std::to_string(total) + " samples; at most " +
                               std::to_string(kMaxBenchRows) + " benchmarks and " +
                               std::to_string(kMaxSampleValues) +
                               " samples in all are allowed in one run");
    }
  }
  std::map<std::string, const BenchSamples*> in_new;
  for (const BenchSamples& b : next.rows) in_new[b.key] = &b;
  std::map<std::string, bool> in_base;

  // One bootstrap budget for the run: each resample draws every compared benchmark's samples.
  double drawn = 0;
  for (const BenchSamples& b : base.rows) {
    const auto it = in_new.find(b.key);
    if (it != in_new.end()) {
      drawn += static_cast<double>(b.samples_ms.size() + it->second->samples_ms.size());
    }
  }
  CompareOptions per_row = options;
  per_row.bootstrap_resamples =
      bootstrap_resamples_within_budget(options.bootstrap_resamples, drawn);

  json rows = json::array(), only_base = json::array(), only_new = json::array();
  bool regression = false;
  for (const BenchSamples& b : base.rows) {
    in_base[b.key] = true;
    const auto it = in_new.find(b.key);
    if (it == in_new.end()) {
      only_base.push_back(b.key);
      continue;
    }
    const std::string where = " " + b.key + " samples_ms";
    const Comparison c = compare_samples(b.samples_ms, it->second->samples_ms, per_row,
                                         base.name + where, next.name + where);
    regression = regression || c.verdict == Verdict::slower;
    rows.push_back({{"benchmark", b.key},
                    {"base_median_ms", c.median_a},
                    {"new_median_ms", c.median_b},
                    {"change", c.change},
                    {"change_interval", to_json(Interval{1.0 / c.ratio_interval.high - 1.0,
                                                         1.0 / c.ratio_interval.low - 1.0})},
                    {"p_value", c.mann_whitney.p_value},
                    {"ratio_interval", to_json(c.ratio_interval)},
                    {"verdict", verdict_name(c.verdict)},
                    {"verdict_word", verdict_word(c.verdict)},
                    {"sentence", comparison_sentence(c, label_of(base), label_of(next))}});
  }
  for (const BenchSamples& b : next.rows) {
    if (!in_base.count(b.key)) only_new.push_back(b.key);
  }
  return {{"base", base.name},
          {"new", next.name},
          {"alpha", options.alpha},
          {"threshold", options.threshold},
          {"bootstrap_resamples", per_row.bootstrap_resamples},
          {"bootstrap_resamples_requested", options.bootstrap_resamples},
          {"note", bootstrap_cut_note(options.bootstrap_resamples, per_row.bootstrap_resamples,
                                      drawn)},
          {"rows", rows},
          {"only_in_base", only_base},
          {"only_in_new", only_new},
          {"regression", regression}};
}

}  // namespace perflab
