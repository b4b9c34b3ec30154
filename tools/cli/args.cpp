// The CLI's shared argument and file readers (args.hpp).
#include "args.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <cstring>
#include <exception>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "perflab/base/error.hpp"

namespace perflab::cli {

namespace {

// What a path that is not a regular file is, in words: "a named pipe (FIFO)".
const char* not_regular_kind(std::filesystem::file_type type) {
  switch (type) {
    case std::filesystem::file_type::fifo: return "a named pipe (FIFO)";
    case std::filesystem::file_type::character: return "a character device";
    case std::filesystem::file_type::block: return "a block device";
    case std::filesystem::file_type::socket: return "a socket";
    default: return "a special file";
  }
}

}  // namespace

std::string pretrained_baseline_path() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return "";
  return (self.parent_path().parent_path().parent_path() / "pretrained" / "fashion_mlp.perflab")
      .lexically_normal()
      .string();
}

const std::string& option_value(const std::vector<std::string>& args, std::size_t& i) {
  if (i + 1 >= args.size()) throw ValueError(args[i] + " needs a value");
  return args[++i];
}

double number_arg(const std::string& flag, const std::string& text) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || !std::isfinite(v)) {
    throw ValueError(flag + " needs a number, got '" + text + "'");
  }
  return v;
}

int count_arg(const std::string& flag, const std::string& text) {
  const double v = number_arg(flag, text);
  if (v != std::floor(v) || v < 0 || v > 1e9) {
    throw ValueError(flag + " needs a non-negative integer, got '" + text + "'");
  }
  return static_cast<int>(v);
}

namespace {

// Refuses a directory or a special file before it is opened; `give` ends the sentence
// ("give the path of a JSON file").
void check_regular_file(const std::string& path, const std::string& named,
                        const std::string& give) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (std::filesystem::is_directory(status)) throw ValueError(named + " is a directory; " + give);
  // Only a regular file has an end: opening a named pipe waits for a writer forever, and a
  // device (/dev/zero, a terminal) never ends. A path that does not exist is open's error.
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    throw ValueError(named + " is " + not_regular_kind(status.type()) + ", not a regular file; " +
                     give);
  }
}

std::string named_file(const std::string& path, const std::string& what) {
  return (what.empty() ? "" : what + " ") + "'" + path + "'";
}

}  // namespace

std::vector<std::uint8_t> read_binary_file(const std::string& path, const std::string& what,
                                           std::size_t max_bytes) {
  const std::string named = named_file(path, what);
  check_regular_file(path, named, "give the path of a " + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValueError("cannot read " + named + ": " + std::strerror(errno));
  std::vector<std::uint8_t> bytes;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (bytes.size() + got > max_bytes) {
      throw ValueError(named + " is larger than " + std::to_string(max_bytes >> 20) +
                       " MiB, the most perflab reads as a " + what);
    }
    bytes.insert(bytes.end(), chunk.data(), chunk.data() + got);
  }
  if (in.bad()) throw ValueError("cannot read " + named + ": " + std::strerror(errno));
  return bytes;
}

void write_binary_file(const std::string& path, const std::vector<std::uint8_t>& bytes,
                       const std::string& what) {
  const std::string named = named_file(path, what);
  std::error_code error;
  if (std::filesystem::is_directory(std::filesystem::status(path, error))) {
    throw ValueError("cannot write " + named + ": it is a directory; give a file name");
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ValueError("cannot write " + named + ": " + std::strerror(errno));
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw ValueError("cannot write " + named + ": " + std::strerror(errno));
}

std::string read_text_file(const std::string& path, const std::string& what) {
  const std::string named = named_file(path, what);
  check_regular_file(path, named, "give the path of a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValueError("cannot read " + named + ": " + std::strerror(errno));
  // Read in chunks, so that a binary file is refused at its first NUL byte and a huge (or
  // still growing) one at the limit, not after reading it whole.
  std::string text;
  std::vector<char> chunk(std::size_t{1} << 16);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (std::find(chunk.begin(), chunk.begin() + static_cast<std::ptrdiff_t>(got), '\0') !=
        chunk.begin() + static_cast<std::ptrdiff_t>(got)) {
      throw ValueError(named + " is not text (it contains NUL bytes); give a JSON file");
    }
    if (text.size() + got > kMaxTextFileBytes) {
      throw ValueError(named + " is larger than " + std::to_string(kMaxTextFileBytes >> 20) +
                       " MiB, the most perflab reads from a file");
    }
    text.append(chunk.data(), got);
  }
  if (in.bad()) throw ValueError("cannot read " + named + ": " + std::strerror(errno));
  return text;
}

int usage(const std::string& message) {
  std::cerr << "perflab: " << message << "\n";
  return 2;
}

std::string percent(double fraction) {
  if (!std::isfinite(fraction)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f%%", 100 * fraction);
  return buf;
}

}  // namespace perflab::cli
