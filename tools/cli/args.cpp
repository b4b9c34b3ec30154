// The CLI's shared argument and file readers (args.hpp).
#include "args.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <exception>
#include <fstream>
#include <sstream>

#include "perflab/base/error.hpp"

namespace perflab::cli {

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

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw ValueError("cannot read " + (what.empty() ? "" : what + " ") + "'" + path +
                     "': " + std::strerror(errno));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace perflab::cli
