// `perflab compare BASE.json NEW.json`: a regression check of two `perflab bench --json
// --samples` runs. Each benchmark present in both files is compared by core's
// compare_samples (A = base, B = new); a benchmark is a regression when the verdict is
// "slower" (significant by Mann-Whitney, the ratio's interval excluding 1, and more than the
// threshold). Exit status: 1 when any benchmark regressed, 0 otherwise, 2 for a file that
// cannot be read or is malformed (the message names the file and the field).
// Not for: timing anything (bench does that) or deciding what the statistics are (core).
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/stats/compare.hpp"

namespace perflab::cli {
namespace {

using json = nlohmann::json;

struct Benchmark {
  std::string key;  // "matmul packed n=64"
  double median_ms = 0;
  std::vector<double> samples_ms;
};

struct BenchFile {
  std::string path;
  std::vector<Benchmark> rows;  // in file order
};

[[noreturn]] void malformed(const std::string& path, const std::string& what) {
  throw ValueError(path + ": " + what);
}

const json& member(const std::string& path, const json& object, const std::string& where,
                   const char* name) {
  const auto it = object.find(name);
  if (it == object.end()) malformed(path, where + name + " is missing");
  return *it;
}

BenchFile read_bench_file(const std::string& path) {
  const std::string text = read_text_file(path, "");
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    malformed(path, std::string("not valid JSON (") + e.what() + ")");
  }
  if (!doc.is_object() || doc.value("tool", "") != "perflab") {
    malformed(path, "not perflab JSON (no \"tool\": \"perflab\"); make it with `perflab bench "
                    "--json --samples`");
  }
  const json& kind = member(path, doc, "", "kind");
  if (kind != "bench") malformed(path, "kind must be \"bench\", got " + kind.dump());
  const json& rows = member(path, doc, "", "rows");
  if (!rows.is_array()) malformed(path, "rows must be an array");

  BenchFile file{path, {}};
  std::map<std::string, std::size_t> seen;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = "rows[" + std::to_string(i) + "].";
    const json& r = rows[i];
    if (!r.is_object()) malformed(path, "rows[" + std::to_string(i) + "] must be an object");
    const json& op = member(path, r, where, "op");
    const json& variant = member(path, r, where, "variant");
    const json& n = member(path, r, where, "n");
    if (!op.is_string()) malformed(path, where + "op must be a string");
    if (!variant.is_string()) malformed(path, where + "variant must be a string");
    if (!n.is_number()) malformed(path, where + "n must be a number");
    const json& samples = member(path, r, where, "samples_ms");
    if (!samples.is_array() || samples.empty()) {
      malformed(path, where + "samples_ms must be a non-empty array of numbers (from `perflab "
                              "bench --json --samples`)");
    }
    Benchmark b;
    b.key = op.get<std::string>() + " " + variant.get<std::string>() + " n=" + n.dump();
    for (std::size_t k = 0; k < samples.size(); ++k) {
      if (!samples[k].is_number()) {
        malformed(path, where + "samples_ms[" + std::to_string(k) + "] must be a number, got " +
                            samples[k].dump());
      }
      b.samples_ms.push_back(samples[k].get<double>());
    }
    if (const auto [it, fresh] = seen.emplace(b.key, i); !fresh) {
      malformed(path, "rows[" + std::to_string(i) + "] repeats " + b.key + " (rows[" +
                          std::to_string(it->second) + "])");
    }
    file.rows.push_back(std::move(b));
  }
  return file;
}

std::string percent(double fraction) {
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
  const BenchFile base = read_bench_file(base_path), next = read_bench_file(new_path);
  std::map<std::string, const Benchmark*> in_new;
  for (const Benchmark& b : next.rows) in_new[b.key] = &b;
  std::map<std::string, bool> in_base;

  json rows = json::array(), only_base = json::array(), only_new = json::array();
  bool regression = false;
  for (const Benchmark& b : base.rows) {
    in_base[b.key] = true;
    const auto it = in_new.find(b.key);
    if (it == in_new.end()) {
      only_base.push_back(b.key);
      continue;
    }
    const std::string where = " " + b.key + " samples_ms";
    const Comparison c = compare_samples(b.samples_ms, it->second->samples_ms, options,
                                         base.path + where, next.path + where);
    regression = regression || c.verdict == Verdict::slower;
    rows.push_back({{"benchmark", b.key},
                    {"base_median_ms", c.median_a},
                    {"new_median_ms", c.median_b},
                    {"change", c.change},
                    {"p_value", c.mann_whitney.p_value},
                    {"ratio_interval", {c.ratio_interval.low, c.ratio_interval.high}},
                    {"verdict", verdict_name(c.verdict)},
                    {"sentence", c.sentence}});
  }
  for (const Benchmark& b : next.rows) {
    if (!in_base.count(b.key)) only_new.push_back(b.key);
  }

  if (as_json) {
    std::cout << json{{"base", base.path},
                      {"new", next.path},
                      {"alpha", options.alpha},
                      {"threshold", options.threshold},
                      {"rows", rows},
                      {"only_in_base", only_base},
                      {"only_in_new", only_new},
                      {"regression", regression}}
                     .dump(2)
              << "\n";
    return regression ? 1 : 0;
  }
  std::printf("A = %s (base), B = %s (new); alpha %g, noise threshold %g%%\n\n",
              base.path.c_str(), next.path.c_str(), options.alpha, 100.0 * options.threshold);
  std::printf("%-28s %12s %12s %8s %8s  %s\n", "benchmark", "base ms", "new ms", "change", "p",
              "verdict");
  for (const json& r : rows) {
    std::printf("%-28s %12.4g %12.4g %8s %8s  %s\n", r["benchmark"].get<std::string>().c_str(),
                r["base_median_ms"].get<double>(), r["new_median_ms"].get<double>(),
                percent(r["change"].get<double>()).c_str(),
                p_value_text(r["p_value"].get<double>()).c_str(),
                r["verdict"].get<std::string>().c_str());
  }
  std::printf("\n");
  for (const json& r : rows) {
    std::printf("%s: %s\n", r["benchmark"].get<std::string>().c_str(),
                r["sentence"].get<std::string>().c_str());
  }
  for (const json& k : only_base) std::printf("only in %s: %s\n", base.path.c_str(), k.get<std::string>().c_str());
  for (const json& k : only_new) std::printf("only in %s: %s\n", next.path.c_str(), k.get<std::string>().c_str());
  if (regression) std::printf("\nregression: at least one benchmark is significantly slower\n");
  return regression ? 1 : 0;
}

}  // namespace

}  // namespace perflab::cli
