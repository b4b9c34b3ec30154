// `perflab suite SUITE.json [--json|--markdown|--csv]`: runs a benchmark suite and prints
// core's report (suite.hpp) as JSON, Markdown (the default) or CSV, the same report the page
// renders. Progress goes to stderr, so stdout is only the report. Model files the suite names
// ({"model_file": PATH}) and its options.data folder are read relative to the suite file;
// the data set's test split is loaded only when a model file is named, for its accuracy.
// Not for: checking the file or deciding anything (core does both); this file only prints.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "args.hpp"
#include "commands.hpp"
#include "perflab/base/error.hpp"
#include "perflab/data/dataset.hpp"
#include "perflab/model/model_file.hpp"
#include "perflab/suite/suite.hpp"

#ifndef PERFLAB_VERSION
#error "PERFLAB_VERSION must be set by tools/CMakeLists.txt"
#endif

namespace perflab::cli {

namespace {
// A path the suite file gives, as the CLI opens it: relative to the suite file's folder.
std::string beside(const std::string& suite_path, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(suite_path).parent_path() / p).lexically_normal().string();
}
}  // namespace

int suite_command(const std::vector<std::string>& args) {
  std::string format = "markdown", path;
  for (const std::string& a : args) {
    if (a == "--json" || a == "--markdown" || a == "--csv") {
      format = a.substr(2);
    } else if (a.rfind("--", 0) == 0) {
      std::cerr << "perflab: unknown option '" << a
                << "' for suite; the options are --json, --markdown and --csv\n";
      return 2;
    } else if (path.empty()) {
      path = a;
    } else {
      std::cerr << "perflab: suite takes one SUITE.json, got '" << path << "' and '" << a
                << "'\n";
      return 2;
    }
  }
  if (path.empty()) {
    std::cerr << "perflab: suite needs SUITE.json, e.g. perflab suite suite.json --markdown\n";
    return 2;
  }
  const std::string text = read_text_file(path, "suite file");
  // The file is checked before anything is measured; a point can still refuse its input
  // (an unknown kernel variant), and both name the file and the field.
  SuiteReport report;
  try {
    Suite suite = suite_from_text(text, [&](const std::string& model_path) {
      const std::string file = beside(path, model_path);
      return read_model_file(read_binary_file(file, "model file", kMaxModelFileBytes),
                             "model file '" + file + "'");
    });
    if (suite_needs_test_data(suite)) {
      suite.data = beside(path, suite.data);
      try {
        suite.test = std::make_shared<const LabeledImages>(load_fashion_mnist(suite.data, "test"));
      } catch (const ValueError& e) {
        throw ValueError(std::string("suite.options.data: ") + e.what());
      }
    }
    // The timer's warnings name the suite file's fields, which is where a reader of this
    // report sets samples and the time budget.
    suite.timer.controls = {"options.samples in the suite file",
                            "options.max_total_ms in the suite file"};
    const std::size_t total = suite_point_count(suite);
    report = run_suite(suite, PERFLAB_VERSION, [&](double fraction) {
      const auto done = static_cast<std::size_t>(fraction * static_cast<double>(total) + 0.5);
      if (done < total) std::fprintf(stderr, "perflab suite: point %zu of %zu\n", done + 1, total);
      return true;
    });
  } catch (const ValueError& e) {
    std::cerr << "perflab: " << path << ": " << e.what() << "\n";
    return 2;
  }
  if (format == "json") {
    std::cout << to_json(report).dump(2) << "\n";
  } else if (format == "csv") {
    std::cout << suite_report_csv(report);
  } else {
    std::cout << suite_report_markdown(report);
  }
  return 0;
}

}  // namespace perflab::cli
