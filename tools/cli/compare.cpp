// `perflab compare BASE.json NEW.json`: a regression check of two `perflab bench --json`
// runs, compared by core's compare_runs (stats/regression.hpp: A = base, B = new;
// a benchmark is a regression when the verdict is "slower"), the same check the page's
// regression experiment runs. Exit status: 1 when any benchmark regressed, 0 otherwise, 2 for
// a file that cannot be read or is malformed (the message names the file and the field).
// Not for: timing anything (bench does that) or deciding what the statistics are (core).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/stats/compare.hpp"
#include "perflab/stats/regression.hpp"

namespace perflab::cli {
namespace {

using json = nlohmann::json;

// A bench file: its text parsed here (the path names it in every message), its rows read by
// core (bench_run_from_json).
BenchRun read_bench_file(const std::string& path) {
  const std::string text = read_text_file(path, "");
  return bench_run_from_json(parse_json_text(text, path), path);
}

std::string signed_percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%+.1f%%", 100.0 * fraction);
  return buf;
}

std::string p_value_text(double p) {
  char buf[32];
  if (p < 0.001) return "<0.001";
  std::snprintf(buf, sizeof(buf), "%.3f", p);
  return buf;
}

// Two files and the options; anything else is a ValueError (exit 2) saying what is allowed.
int compare_files(const std::string& base_path, const std::string& new_path,
                  const CompareOptions& options, bool as_json);

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  CompareOptions options;
  bool as_json = false;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      as_json = true;
    } else if (a == "--threshold") {
      const std::string& text = option_value(args, i);
      const double pct = number_arg(a, text);
      if (!(pct >= 0 && pct <= 100)) {
        throw ValueError("--threshold needs a percentage from 0 to 100, got '" + text + "'");
      }
      options.threshold = pct / 100.0;
    } else if (a == "--alpha") {
      options.alpha = number_arg(a, option_value(args, i));
    } else if (a.rfind("--", 0) == 0) {
      throw ValueError("unknown option '" + a +
                       "' for compare; the options are --threshold PCT, --alpha A and --json");
    } else {
      files.push_back(a);
    }
  }
  if (files.size() != 2) {
    throw ValueError("compare needs BASE.json and NEW.json, got " + std::to_string(files.size()) +
                     " files");
  }
  return compare_files(files[0], files[1], options, as_json);
}

namespace {

int compare_files(const std::string& base_path, const std::string& new_path,
                  const CompareOptions& options, bool as_json) {
  options.validate();
  const BenchRun base = read_bench_file(base_path), next = read_bench_file(new_path);
  const json report = compare_runs(base, next, options);
  const bool regression = report["regression"].get<bool>();
  const json& rows = report["rows"];
  const json& only_base = report["only_in_base"];
  const json& only_new = report["only_in_new"];
  if (as_json) {
    std::cout << report.dump(2) << "\n";
    return regression ? 1 : 0;
  }
  std::printf("A = %s (base), B = %s (new); alpha %g, noise threshold %g%%\n\n",
              base.name.c_str(), next.name.c_str(), options.alpha, 100.0 * options.threshold);
  std::printf("%-28s %12s %12s %8s %8s  %s\n", "benchmark", "base ms", "new ms", "change", "p",
              "verdict");
  for (const json& r : rows) {
    std::printf("%-28s %12.4g %12.4g %8s %8s  %s\n", r["benchmark"].get<std::string>().c_str(),
                r["base_median_ms"].get<double>(), r["new_median_ms"].get<double>(),
                signed_percent(r["change"].get<double>()).c_str(),
                p_value_text(r["p_value"].get<double>()).c_str(),
                r["verdict_word"].get<std::string>().c_str());  // words; --json keeps the names
  }
  std::printf("\n");
  for (const json& r : rows) {
    std::printf("%s: %s\n", r["benchmark"].get<std::string>().c_str(),
                r["sentence"].get<std::string>().c_str());
  }
  for (const json& k : only_base) std::printf("only in %s: %s\n", base.name.c_str(), k.get<std::string>().c_str());
  for (const json& k : only_new) std::printf("only in %s: %s\n", next.name.c_str(), k.get<std::string>().c_str());
  // Large runs get fewer bootstrap resamples (core's kMaxBootstrapDraws): say so.
  if (const std::string note = report.value("note", ""); !note.empty()) {
    std::printf("\n%s\n", note.c_str());
  }
  if (regression) std::printf("\nregression: at least one benchmark is significantly slower\n");
  return regression ? 1 : 0;
}

}  // namespace

}  // namespace perflab::cli
