// `perflab olympics check ENTRY.json [--data DIR] [--baseline MODEL_FILE] [--json]`: checks
// Olympics entries as the grader does (olympics/entry.hpp): each entry's model rebuilt from
// its pipeline on Fashion-MNIST's training split, evaluated on the test split, its latency
// from its raw samples, every event's verdict and the flags. ENTRY.json is one entry, or a
// submission file holding olympics.entries (then every entry, with the file's exported_at
// and machine for the evidence checks). A refused entry is a result (exit 0); exit 2 only
// for a file that cannot be read. This file finds the inputs and prints; core decides.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/json_text.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/olympics/entry.hpp"

namespace perflab::cli {

namespace {

using nlohmann::json;

std::string ratio_text(const json& v) { return format_number(v.get<double>(), 3) + "×"; }

void print_check(const json& c) {
  const std::string id = c["entry"].is_string() ? c["entry"].get<std::string>() : "(no id)";
  const std::string name = c["name"].is_string() ? c["name"].get<std::string>() : "";
  std::printf("entry %s%s\n", id.c_str(), name.empty() ? "" : (" (" + name + ")").c_str());
  if (!c["valid"].get<bool>()) {
    std::printf("  refused: %s\n", c["error"].get<std::string>().c_str());
    return;
  }
  const json& base = c["baseline"];
  std::printf("  pipeline: %s\n", c["lineage_text"].get<std::string>().c_str());
  std::printf("  test accuracy %s (%zu of %zu images; baseline %s)\n",
              percent(c["accuracy"].get<double>()).c_str(), c["correct"].get<std::size_t>(),
              c["images"].get<std::size_t>(), percent(base["accuracy"].get<double>()).c_str());
  std::printf("  parameter bytes %zu (%s the baseline's %zu)\n",
              c["parameter_bytes"].get<std::size_t>(), ratio_text(c["bytes_ratio"]).c_str(),
              base["parameter_bytes"].get<std::size_t>());
  const json& l = c["latency"];
  std::printf(
      "  latency %s the baseline's (95%% interval %s-%s, %zu rounds at batch %zu; "
      "self-reported)\n",
      ratio_text(l["ratio"]).c_str(), ratio_text(l["interval"][0]).c_str(),
      ratio_text(l["interval"][1]).c_str(), l["rounds"].get<std::size_t>(),
      l["batch"].get<std::size_t>());
  std::printf("  %-18s %-8s %-10s %s\n", "event", "entered", "verdict", "score (95% interval)");
  for (const json& e : c["events"]) {
    const json& iv = e["score_interval"];
    std::printf("  %-18s %-8s %-10s %s (%s-%s)\n", e["event"].get<std::string>().c_str(),
                e["entered"].get<bool>() ? "yes" : "no",
                e["qualified"].get<bool>() ? "qualifies" : "refused",
                format_number(e["score"].get<double>(), 4).c_str(),
                format_number(iv[0].get<double>(), 4).c_str(),
                format_number(iv[1].get<double>(), 4).c_str());
    for (const json& r : e["refusals"]) std::printf("    %s\n", r.get<std::string>().c_str());
  }
  for (const json& f : c["flags"]) {
    std::printf("  flag %s: %s\n", f["code"].get<std::string>().c_str(),
                f["reason"].get<std::string>().c_str());
  }
}

}  // namespace

int olympics_check_command(const std::vector<std::string>& args) {
  bool as_json = false;
  std::string entry_path, data_dir = kFashionMnistDir, baseline_path;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      as_json = true;
    } else if (a == "--data") {
      data_dir = option_value(args, i);
    } else if (a == "--baseline") {
      baseline_path = option_value(args, i);
    } else if (a.rfind("--", 0) == 0) {
      return usage("unknown option '" + a +
                   "' for olympics check; the options are --data DIR, "
                   "--baseline MODEL_FILE and --json");
    } else if (entry_path.empty()) {
      entry_path = a;
    } else {
      return usage("olympics check takes one ENTRY.json, got '" + entry_path + "' and '" + a + "'");
    }
  }
  if (entry_path.empty()) {
    return usage(
        "olympics check needs ENTRY.json (one entry, or a submission file holding "
        "olympics.entries), e.g. perflab olympics check entry.json --json");
  }
  const json file =
      parse_json_text(read_text_file(entry_path, "entry file"), "entry file '" + entry_path + "'");
  // A submission holds its entries under olympics.entries; anything else is one entry (the
  // checker refuses it with a sentence when it is not).
  std::vector<json> entries;
  std::string exported_at;
  json machine = nullptr;
  const bool submission = file.is_object() && file.contains("olympics");
  if (submission) {
    const json& olympics = file.at("olympics");
    if (!olympics.is_object() || !olympics.contains("entries") ||
        !olympics.at("entries").is_array()) {
      return usage("entry file '" + entry_path +
                   "' has an olympics field but no olympics.entries array");
    }
    entries.assign(olympics.at("entries").begin(), olympics.at("entries").end());
    if (file.contains("exported_at") && file.at("exported_at").is_string()) {
      exported_at = file.at("exported_at").get<std::string>();
    }
    machine = file.value("machine", json(nullptr));
  } else {
    entries.push_back(file);
  }

  if (baseline_path.empty()) {
    baseline_path = pretrained_baseline_path();
    std::error_code error;
    if (baseline_path.empty() || !std::filesystem::is_regular_file(baseline_path, error)) {
      return usage("no baseline model file" +
                   (baseline_path.empty() ? std::string(": this perflab cannot find its build "
                                                        "folder")
                                          : " at " + baseline_path) +
                   "; make it with node tools/pretrained.mjs, or pass --baseline MODEL_FILE");
    }
  }
  std::vector<std::uint8_t> base =
      read_binary_file(baseline_path, "model file", kMaxModelFileBytes);
  auto train = std::make_shared<const LabeledImages>(load_fashion_mnist(data_dir, "train"));
  auto test = std::make_shared<const LabeledImages>(load_fashion_mnist(data_dir, "test"));
  OlympicsChecker checker(std::move(base), train, test);

  json checks = json::array();
  for (const json& entry : entries) checks.push_back(checker.check(entry, exported_at, machine));
  if (as_json) {
    std::cout << (submission ? json::object({{"entries", checks}}) : checks.at(0)).dump(2) << "\n";
  } else {
    for (const json& c : checks) print_check(c);
    if (checks.empty()) std::printf("the submission holds no Olympics entry\n");
  }
  return 0;
}

}  // namespace perflab::cli
