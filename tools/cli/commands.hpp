// The CLI's subcommands that live in their own files, called from main.cpp's dispatcher.
// Each returns the process exit status (0 done, 2 bad usage with the reason on stderr;
// compare: 1 for a regression).
// Not for: argument parsing shared by all commands (main.cpp).
#pragma once

#include <string>
#include <vector>

#include "perflab/stats/compare.hpp"

namespace perflab::cli {

// `perflab roofline [--json] [--quick]`; args are those after the subcommand.
int roofline_command(const std::vector<std::string>& args);
// `perflab bench [--json] [--quick] [--samples]`.
int bench_command(const std::vector<std::string>& args);
// `perflab compare BASE.json NEW.json`, options already parsed: 1 when a benchmark regressed.
int compare_command(const std::string& base_path, const std::string& new_path,
                    const CompareOptions& options, bool as_json);
// `perflab suite SUITE.json [--json|--markdown|--csv]`: exit 2 naming the file and the field.
int suite_command(const std::vector<std::string>& args);

}  // namespace perflab::cli
