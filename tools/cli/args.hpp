// What every perflab subcommand needs to read its arguments and input files, in one place:
// an option's value, a number or a count from text, a whole file; and the two things the model
// commands print alike: a usage error and an accuracy as a percentage. Each throws
// perflab::ValueError naming the flag or the file, which main() turns into exit status 2.
// Not for: a subcommand's own options (each command file parses those).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "perflab/base/json_text.hpp"

namespace perflab::cli {

// "perflab: MESSAGE" on stderr; returns 2, the exit status of bad usage.
int usage(const std::string& message);
// A fraction as a percentage with two decimals, "85.12%"; "-" when it is not finite.
std::string percent(double fraction);

// The value after args[i] (an option such as --threshold), advancing i past it.
const std::string& option_value(const std::vector<std::string>& args, std::size_t& i);
// A whole argument as a finite number: "--alpha needs a number, got 'x'".
double number_arg(const std::string& flag, const std::string& text);
// A whole non-negative integer up to 1e9.
int count_arg(const std::string& flag, const std::string& text);
// The most read_text_file reads: core's JSON text limit, far above any spec, suite or bench
// file the lab writes.
inline constexpr std::size_t kMaxTextFileBytes = kMaxJsonTextBytes;

// The whole file; `what` (may be empty) names it in the error ("cannot read spec file
// 'x.json': No such file or directory", "spec file 'x' is a directory; ...", "... is a
// named pipe (FIFO), not a regular file; ..." (refused before opening, which would wait
// for a writer), "... is not text (it contains NUL bytes); ...", "... is larger than 16
// MiB, ...").
std::string read_text_file(const std::string& path, const std::string& what);
// The whole file as bytes, refused like read_text_file when it is a directory or a special
// file, or past max_bytes ("model file 'x' is larger than 256 MiB, the most perflab reads as
// a model file"); `what` names it ("model file").
std::vector<std::uint8_t> read_binary_file(const std::string& path, const std::string& what,
                                           std::size_t max_bytes);
// The pretrained baseline model file tools/pretrained.mjs caches beside this binary's build
// folder (build/<preset>/tools/perflab → build/pretrained/fashion_mlp.perflab); "" when this
// binary's path cannot be read. Whether the file exists is the caller's to check.
std::string pretrained_baseline_path();

// Replaces the file's contents; ValueError "cannot write <what> 'path': <reason>".
void write_binary_file(const std::string& path, const std::vector<std::uint8_t>& bytes,
                       const std::string& what);

}  // namespace perflab::cli
