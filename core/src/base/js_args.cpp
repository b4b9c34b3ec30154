// The bindings' argument rules (js_args.hpp).
#include "perflab/base/js_args.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/base/utf8.hpp"

namespace perflab::js_args {
namespace {

bool is_integer(double d) { return std::isfinite(d) && d == std::trunc(d); }

}  // namespace

std::string quote(std::u16string_view units, bool cut_after) {
  bool cut = cut_after;
  if (units.size() > kMaxQuotedUnits) {
    units = units.substr(0, kMaxQuotedUnits);
    cut = true;
  }
  // Half of a pair at the cut is left out, not written as U+FFFD.
  if (cut && !units.empty() && units.back() >= 0xD800 && units.back() <= 0xDBFF) {
    units.remove_suffix(1);
  }
  std::string quoted = "\"";
  quoted += utf16_to_utf8(units);
  if (cut) quoted += "...";
  quoted += '"';
  return quoted;
}

double finite_number(double d, const std::string& name, const Shown& shown) {
  if (!std::isfinite(d)) throw ValueError(name + " must be a finite number, got " + shown());
  return d;
}

int int32(double d, const std::string& name, const Shown& shown) {
  if (!is_integer(d)) throw ValueError(name + " must be an integer, got " + shown());
  // Beyond int, core's range check (which names the real limits) could not see the value.
  if (d < std::numeric_limits<int>::min() || d > std::numeric_limits<int>::max()) {
    throw ValueError(name + " must fit a 32-bit integer, got " + shown());
  }
  return static_cast<int>(d);
}

std::size_t size(double d, const std::string& name, const Shown& shown, std::uint64_t most) {
  if (!is_integer(d) || d < 0) {
    throw ValueError(name + " must be a non-negative integer, got " + shown());
  }
  const std::uint64_t limit = std::min<std::uint64_t>(most, std::numeric_limits<std::size_t>::max());
  if (d > static_cast<double>(limit)) {
    const bool wasm32 = limit == std::numeric_limits<std::uint32_t>::max();
    throw ValueError(name + " is " + shown() + ", more than this " + (wasm32 ? "32-bit " : "") +
                     "build can address (" + std::to_string(limit) + ")");
  }
  return static_cast<std::size_t>(d);
}

std::uint32_t seed(double d, const Shown& shown) {
  if (!is_integer(d) || d < 0 || d > std::numeric_limits<std::uint32_t>::max()) {
    throw ValueError("seed must be an integer in [0, 4294967295], got " + shown());
  }
  return static_cast<std::uint32_t>(d);
}

void check_length(double length, const std::string& name, std::size_t most) {
  if (length > static_cast<double>(most)) {
    throw ValueError(name + " has " + format_number(length, kRoundTripDigits) +
                     " values; at most " + std::to_string(most) + " are allowed");
  }
}

std::string and_list(const std::vector<std::string>& names) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return list;
}

void check_keys(const std::vector<std::string>& keys, const std::vector<std::string>& allowed,
                const KeyWords& words) {
  for (const std::string& key : keys) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      throw ValueError(valid_utf8("unknown " + words.key + " \"" + key + "\"" + words.in +
                                  "; the allowed " + words.keys + " are " + and_list(allowed)));
    }
  }
}

}  // namespace perflab::js_args
