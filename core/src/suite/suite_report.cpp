// A suite's report written three ways (suite.hpp): JSON for the page and `--json`, Markdown
// to read or paste, CSV for a spreadsheet. All three carry the same numbers; the energy
// figure appears only under its label, apart from the measurements.
// Not for: deciding anything (suite.cpp makes the summary and the recommendations).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "perflab/base/format.hpp"
#include "perflab/suite/suite.hpp"
#include "perflab/tensor/memory.hpp"

namespace perflab {

namespace {

using nlohmann::json;

const char* const kEnergyFormula = "0.1 + 2.0·latency_s + 0.01·memory_MB joules";

std::string energy_note() {
  return std::string(kEnergyEstimateLabel) + ": " + kEnergyFormula +
         ", with latency the median forward pass and memory_MB the measured peak bytes / 2^20. "
         "A web page cannot measure energy; this is shown only to compare with the original "
         "course, never as a result.";
}

std::string num(double v) { return report_number(v); }
std::string num(std::size_t v) { return num(static_cast<double>(v)); }

// A metric's value as the Markdown table shows it: bytes as sizes, timed values with their
// mean ± spread.
std::string cell(const ModelBenchmark& b, const std::string& metric) {
  if (metric == "latency_ms") {
    const Stats& t = b.latency;
    return num(t.median_ms) + " (" + num(t.mean_ms) + " ± " + num(t.stddev_ms) + ")";
  }
  if (metric == "accuracy") return b.accuracy_text();
  const std::optional<double> v = metric_value(b, metric);
  if (metric == "peak_memory_bytes") return b.peak_memory_text();
  if (metric == "size_bytes") return b.size_text();
  return num(v.value_or(0));
}

std::string cpu_text(std::size_t cpus) {
  if (cpus == 0) return "not known (this platform does not say)";
  return num(cpus) + " logical (the lab measures on one)";
}

std::string csv_number(double v) { return format_number(v, kRoundTripDigits); }

// "-0.25 points": an accuracy change in percentage points.
std::string accuracy_points(double points) {
  char text[48];
  std::snprintf(text, sizeof(text), "%+.2f points", points);
  return text;
}

}  // namespace

json to_json(const SystemInfo& s) {
  return {{"version", s.version},         {"build", s.build},
          {"simd_backend", s.simd_backend}, {"timer_resolution_ms", s.timer_resolution_ms},
          {"clock", s.clock},             {"platform", s.platform},
          {"cpu_count", s.cpu_count}};
}

std::string system_markdown_rows(const SystemInfo& s) {
  return "| version | " + s.version + " |\n| build | " + s.build + " |\n| platform | " +
         s.platform + " |\n| CPUs | " + cpu_text(s.cpu_count) + " |\n| SIMD backend | " +
         s.simd_backend + " |\n| timer resolution | " + num(s.timer_resolution_ms) +
         " ms |\n| clock | " + s.clock + " |\n";
}

json to_json(const SuiteReport& r) {
  json metrics = json::array();
  for (const auto& name : r.metrics) metrics.push_back(to_json(model_metric(name)));
  json models = json::array();
  for (const auto& m : r.models) models.push_back(to_json(m));
  json kernels = json::array();
  for (const auto& k : r.kernels) {
    json row = to_json(k);
    row["median_ms"] = k.stats.median_ms;
    row["mean_ms"] = k.stats.mean_ms;
    row["spread_ms"] = k.stats.stddev_ms;
    row["spread_kind"] = kTimingSpreadKind;
    kernels.push_back(row);
  }
  json summary = json::array();
  for (const auto& s : r.summary) {
    json ranking = json::array();
    for (const auto& row : s.ranking) ranking.push_back(to_json(row));
    summary.push_back({{"metric", to_json(s.metric)},
                       {"best", s.best},
                       {"best_value", s.best_value},
                       {"ranking", ranking}});
  }
  json recommendations = json::array();
  for (const auto& rec : r.recommendations) {
    recommendations.push_back({{"use", rec.use},
                               {"model", rec.model.empty() ? json(nullptr) : json(rec.model)},
                               {"measured", rec.measured},
                               {"reason", rec.reason}});
  }
  json optimizations = json::array();  // each pair by its models' names (rows under "models")
  for (const auto& o : r.optimizations) optimizations.push_back(to_json(o));
  return {{"tool", "perflab"},
          {"kind", "suite"},
          {"name", r.name},
          {"system", to_json(r.system)},
          {"metrics", metrics},
          {"batch", r.batch},
          {"options", to_json(r.timer)},
          {"models", models},
          {"kernels", kernels},
          {"summary", summary},
          {"recommendations", recommendations},
          {"accuracy", r.accuracy},
          {"accuracy_data", r.accuracy_data.empty() ? json(nullptr) : json(r.accuracy_data)},
          {"optimizations", optimizations},
          {"optimizations_not_measured", r.optimizations_not_measured},
          {"energy_note", energy_note()},
          {"complete", r.complete},
          {"points_done", r.points_done},
          {"points_total", r.points_total}};
}

std::string suite_report_markdown(const SuiteReport& r) {
  std::ostringstream md;
  md << "# Suite: " << r.name << "\n\n";
  if (!r.complete) {
    md << "**Partial report:** cancelled after " << r.points_done << " of " << r.points_total
       << " points.\n\n";
  }
  md << "## System\n\n| fact | value |\n|---|---|\n"
     << system_markdown_rows(r.system) << "| batch | " << (r.batch == 0 ? std::string("each spec's own") : num(r.batch))
     << " |\n"
     << "| timer | warmup " << r.timer.warmup << ", " << r.timer.samples
     << " samples, each at least " << num(r.timer.min_sample_ms) << " ms, at most "
     << num(r.timer.max_total_ms) << " ms per point |\n\n";

  if (!r.models.empty()) {
    md << "## Models\n\nTimed values: median (mean ± "
       << kTimingSpreadKind << ") of per-call times.\n\n| model | batch |";
    for (const auto& m : r.metrics) {
      // Sizes (KiB, MiB) and accuracy (%) carry their own unit in each cell, so the header
      // names none.
      const MetricInfo& info = model_metric(m);
      const bool own_unit = info.unit == "bytes" || info.name == "accuracy";
      md << " " << info.label << (own_unit ? "" : " [" + info.unit + "]") << " |";
    }
    md << "\n|---|---|";
    for (std::size_t i = 0; i < r.metrics.size(); ++i) md << "---|";
    md << "\n";
    for (const auto& b : r.models) {
      md << "| " << b.name << " | " << num(b.batch) << " |";
      for (const auto& m : r.metrics) md << " " << cell(b, m) << " |";
      md << "\n";
    }
    md << "\n";
  }

  if (!r.kernels.empty()) {
    md << "## Kernels\n\n| op | variant | n | median ms (mean ± "
       << kTimingSpreadKind << ") | GFLOP/s | GB/s |\n|---|---|---|---|---|---|\n";
    for (const auto& k : r.kernels) {
      const Stats& t = k.stats;
      md << "| " << k.op << " | " << k.variant << " | " << num(k.n) << " | " << num(t.median_ms) << " ("
         << num(t.mean_ms) << " ± " << num(t.stddev_ms) << ") | " << num(k.gflops_per_s) << " | "
         << num(k.gb_per_s) << " |\n";
    }
    md << "\n";
  }

  if (!r.summary.empty()) {
    md << "## Best per metric\n\n| metric | best | value | ranking (times worse than the best) |\n"
          "|---|---|---|---|\n";
    for (const auto& s : r.summary) {
      if (s.best.empty()) {
        md << "| " << s.metric.name << " | none | not measured for any model | |\n";
        continue;
      }
      md << "| " << s.metric.name << " | " << s.best << " | " << metric_text(s.metric.name, s.best_value)
         << " | ";
      for (std::size_t i = 0; i < s.ranking.size(); ++i) {
        md << (i ? ", " : "") << s.ranking[i].name << " " << num(s.ranking[i].times_worse_than_best)
           << "x";
      }
      md << " |\n";
    }
    md << "\n";
  }

  md << "## Recommendations\n\n";
  for (const auto& rec : r.recommendations) {
    md << "- **" << rec.use << "**: " << (rec.model.empty() ? "none" : rec.model) << ". "
       << rec.reason << "\n";
  }

  if (!r.optimizations.empty() || !r.optimizations_not_measured.empty()) {
    md << "\n## Optimized against base\n\n";
    if (!r.optimizations.empty()) {
      md << "Ratios of one run each (the timed ones are medians); above 1 means more.\n\n"
            "| optimized | base | speedup (base latency / optimized) | throughput ratio "
            "(optimized / base) | peak memory ratio | size ratio | FLOPs ratio | accuracy "
            "retention |\n|---|---|---|---|---|---|---|---|\n";
      for (const auto& o : r.optimizations) {
        md << "| " << o.optimized.name << " | " << o.base.name << " | " << num(o.speedup) << "x | "
           << num(o.throughput_ratio) << "x | " << num(o.memory_ratio) << "x | "
           << num(o.size_ratio) << "x | " << num(o.flops_ratio) << "x | "
           << (o.accuracy_retention ? metric_text("accuracy", *o.accuracy_retention) + " (" +
                                          accuracy_points(*o.accuracy_change_points) + ")"
                                    : std::string("not measured"))
           << " |\n";
      }
      md << "\n";
      for (const auto& o : r.optimizations) {
        for (const auto& sentence : o.recommendations) md << "- " << sentence << "\n";
      }
    }
    for (const auto& pair : r.optimizations_not_measured) {
      md << "- " << pair << ": not compared, a model of the pair was not measured (the run "
         << "stopped before it)\n";
    }
  }

  md << "\n## Notes\n\n- Accuracy: " << r.accuracy << ".\n";
  // Each warning once, with the points that gave it, in report order: warnings that differ
  // only in their numbers ("CV 12%" and "CV 35%") are one warning, its numbers listed per
  // point where they differ ("CV 12% / 35%"), in the order of the points named.
  struct Warning {
    std::vector<std::string> words;                 // the text between the numbers
    std::vector<std::vector<std::string>> numbers;  // [number slot][point]
    std::vector<std::string> where;
  };
  std::vector<Warning> warnings;
  const auto warn = [&](const std::string& text, std::string where) {
    if (text.empty()) return;
    Warning w;
    w.words.emplace_back();
    std::vector<std::string> values;
    for (std::size_t i = 0; i < text.size();) {
      const bool starts = std::isdigit(static_cast<unsigned char>(text[i])) &&
                          (i == 0 || !std::isalpha(static_cast<unsigned char>(text[i - 1])));
      if (!starts) {
        w.words.back() += text[i++];
        continue;
      }
      std::size_t j = i;
      while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
      if (j + 1 < text.size() && text[j] == '.' && std::isdigit(static_cast<unsigned char>(text[j + 1]))) {
        for (++j; j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]));) ++j;
      }
      values.push_back(text.substr(i, j - i));
      w.words.emplace_back();
      i = j;
    }
    auto it = std::find_if(warnings.begin(), warnings.end(),
                           [&](const Warning& o) { return o.words == w.words; });
    if (it == warnings.end()) {
      w.numbers.resize(values.size());
      it = warnings.insert(warnings.end(), std::move(w));
    }
    for (std::size_t k = 0; k < values.size(); ++k) it->numbers[k].push_back(values[k]);
    it->where.push_back(std::move(where));
  };
  for (const auto& b : r.models) warn(b.latency.warning, b.name);
  for (const auto& k : r.kernels) warn(k.stats.warning, k.op + " " + k.variant + " at n=" + num(k.n));
  for (const Warning& w : warnings) {
    md << "- Timer warning (" << w.where.size() << (w.where.size() == 1 ? " point: " : " points: ");
    for (std::size_t i = 0; i < w.where.size(); ++i) md << (i ? ", " : "") << w.where[i];
    md << "): " << w.words[0];
    for (std::size_t k = 0; k < w.numbers.size(); ++k) {
      const auto& v = w.numbers[k];
      const bool same = std::all_of(v.begin(), v.end(), [&](const std::string& x) { return x == v[0]; });
      for (std::size_t i = 0; i < (same ? 1 : v.size()); ++i) md << (i ? " / " : "") << v[i];
      md << w.words[k + 1];
    }
    md << "\n";
  }
  if (!r.models.empty()) {
    md << "\n### " << kEnergyEstimateLabel << "\n\n" << energy_note()
       << "\n\n| model | " << kEnergyEstimateLabel << " [J] |\n|---|---|\n";
    for (const auto& b : r.models) {
      md << "| " << b.name << " | " << num(b.original_energy_estimate_j) << " |\n";
    }
  }
  return md.str();
}

std::string suite_report_csv(const SuiteReport& r) {
  std::ostringstream csv;
  csv << "kind,name,op,variant,n,batch,latency_median_ms,latency_mean_ms,latency_spread_ms,"
         "throughput_samples_per_s,peak_memory_bytes,parameters,size_bytes,flops_per_sample,"
         "gflops_per_s,gb_per_s,accuracy,"
      << csv_field(std::string(kEnergyEstimateLabel) + " [J]") << ",warning\n";
  for (const auto& b : r.models) {
    const Stats& t = b.latency;
    csv << "model," << csv_field(b.name) << ",,,," << b.batch << "," << csv_number(t.median_ms)
        << "," << csv_number(t.mean_ms) << "," << csv_number(t.stddev_ms) << ","
        << csv_number(b.throughput_samples_per_s) << "," << csv_number(b.peak_memory_bytes)
        << "," << b.parameters << "," << csv_number(b.size_bytes) << ","
        << csv_number(b.flops_per_sample) << ",,,"
        << (b.accuracy ? csv_number(*b.accuracy) : std::string()) << ","
        << csv_number(b.original_energy_estimate_j)
        << "," << csv_field(b.latency.warning) << "\n";
  }
  for (const auto& k : r.kernels) {
    const Stats& t = k.stats;
    csv << "kernel,," << csv_field(k.op) << "," << csv_field(k.variant) << "," << k.n << ",,"
        << csv_number(t.median_ms) << "," << csv_number(t.mean_ms) << "," << csv_number(t.stddev_ms)
        << ",,,,,," << csv_number(k.gflops_per_s) << "," << csv_number(k.gb_per_s) << ",,,"
        << csv_field(k.stats.warning) << "\n";
  }
  return csv.str();
}

}  // namespace perflab
