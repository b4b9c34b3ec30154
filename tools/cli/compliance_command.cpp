// `perflab compliance [--json|--markdown] [--data DIR] [--baseline MODEL_FILE] [--samples N]`:
// core's MLPerf-Tiny-style compliance report (suite/compliance.hpp), Markdown by default. This
// file only finds the inputs: the baseline model file (default: the pretrained one
// tools/pretrained.mjs caches in build/pretrained beside this binary's build folder) and
// Fashion-MNIST's test split (default: Debian's folder). A default that is absent makes that
// part of the Fashion-MNIST row "not measured" with the reason; a path given on the command
// line that cannot be read is bad input (exit 2).
// Not for: timing, judging or wording anything (core does all three).
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/suite/compliance.hpp"

#ifndef PERFLAB_VERSION
#error "PERFLAB_VERSION must be set by tools/CMakeLists.txt"
#endif

namespace perflab::cli {

int compliance_command(const std::vector<std::string>& args) {
  std::string format = "markdown";
  std::optional<std::string> baseline_path, data_dir;
  ComplianceInputs in;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json" || a == "--markdown") {
      format = a.substr(2);
    } else if (a == "--baseline") {
      baseline_path = option_value(args, i);
    } else if (a == "--data") {
      data_dir = option_value(args, i);
    } else if (a == "--samples") {
      in.timer.samples = count_arg(a, option_value(args, i));
    } else {
      return usage("unknown argument '" + a +
                   "' for compliance; the options are --json, --markdown, --data DIR, "
                   "--baseline MODEL_FILE and --samples N");
    }
  }
  in.timer.controls = {"--samples", ""};
  try {
    in.timer.validate();
  } catch (const ValueError& e) {
    return usage(std::string("--") + e.what());  // "--samples must be between 1 and ..."
  }

  std::optional<ModelFile> baseline;
  if (baseline_path) {
    baseline = read_model_path(*baseline_path);
    in.baseline_path = *baseline_path;
  } else {
    const std::string path = pretrained_baseline_path();
    std::error_code error;
    if (!path.empty() && std::filesystem::is_regular_file(path, error)) {
      baseline = read_model_path(path);
      in.baseline_path = path;
    } else {
      in.baseline_missing =
          "no baseline model file: " +
          (path.empty() ? std::string("this perflab cannot find its build folder")
                        : "there is none at " + path) +
          "; make it with node tools/pretrained.mjs, or give one with --baseline MODEL_FILE";
    }
  }
  if (baseline) {
    in.baseline = &*baseline;
    in.baseline_name = std::filesystem::path(in.baseline_path).filename().string();
  }

  std::optional<LabeledImages> test;
  const std::string dir = data_dir.value_or(kFashionMnistDir);
  std::error_code error;
  if (data_dir || std::filesystem::is_directory(dir, error)) {
    test = load_fashion_mnist(dir, "test");  // a folder named on the command line must load
    in.test = &*test;
    in.test_data = "Fashion-MNIST from " + dir;
  } else {
    in.test_missing = "no Fashion-MNIST data at " + dir +
                      " (Debian's dataset-fashion-mnist installs it there); give a folder with "
                      "--data DIR";
  }

  const ComplianceReport report = run_compliance(PERFLAB_VERSION, in);
  if (format == "json") {
    std::cout << to_json(report).dump(2) << "\n";
  } else {
    std::cout << compliance_report_markdown(report);
  }
  return 0;
}

}  // namespace perflab::cli
