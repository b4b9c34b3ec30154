// libFuzzer target for the bindings' argument rules that need no JS (js_args.hpp) and the
// UTF-16 and UTF-8 rules under them (utf8.hpp): the numbers a JS value may hold, quoting a
// JS string (lone surrogates, pairs at the cut), option names, and any bytes quoted in a
// message. Each call returns a value within its documented range or throws ValueError, and
// every string it makes is valid UTF-8; anything else, a crash or a sanitizer report is a
// finding. Input: one byte picks the rule, the rest is its argument (8 bytes of a double,
// UTF-16 units, or bytes). Built by the asan preset (docs/RELIABILITY.md).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/base/error.hpp"
#include "perflab/base/js_args.hpp"
#include "perflab/base/utf8.hpp"

namespace {

using namespace perflab;

void require(bool ok) {
  if (!ok) std::abort();
}

void require_utf8(const std::string& s) { require(is_valid_utf8(s)); }

double number_from(const std::uint8_t* data, std::size_t size) {
  double d = 0;
  std::memcpy(&d, data, size < sizeof d ? size : sizeof d);
  return d;
}

std::u16string units_from(const std::uint8_t* data, std::size_t size) {
  std::u16string units(size / 2, u'\0');
  if (!units.empty()) std::memcpy(units.data(), data, units.size() * 2);
  return units;
}

const js_args::Shown shown = [] { return std::string("the value"); };

void run(std::uint8_t op, const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  switch (op % 9) {
    case 0: {
      const double d = number_from(data, size);
      require(std::isfinite(js_args::finite_number(d, "x", shown)));
      break;
    }
    case 1: {
      const double d = number_from(data, size);
      require(js_args::int32(d, "x", shown) == d);
      break;
    }
    case 2: {
      const double d = number_from(data, size);
      const std::size_t n = js_args::size(d, "x", shown, std::numeric_limits<std::uint32_t>::max());
      require(n == d && n <= std::numeric_limits<std::uint32_t>::max());
      break;
    }
    case 3: {
      const double d = number_from(data, size);
      require(js_args::seed(d, shown) == d);
      break;
    }
    case 4:
      js_args::check_length(number_from(data, size), "x", 1000);
      break;
    case 5: {
      const std::u16string units = units_from(data, size);
      const std::string q = js_args::quote(units, size % 2 == 1);
      require_utf8(q);
      require(q.size() >= 2 && q.front() == '"');
      break;
    }
    case 6: {
      const std::u16string units = units_from(data, size);
      const std::string s = utf16_to_utf8(units);
      require_utf8(s);
      // Each unit gives 1 to 3 bytes, a pair 4: never more than 3 bytes a unit.
      require(s.size() <= 3 * units.size() && s.size() >= units.size());
      break;
    }
    case 7: {
      // Names separated by NUL bytes: the first half allowed, all of them checked.
      std::vector<std::string> names;
      std::size_t start = 0;
      for (std::size_t i = 0; i <= size; ++i) {
        if (i == size || data[i] == 0) {
          names.emplace_back(bytes.substr(start, i - start));
          start = i + 1;
        }
      }
      const std::vector<std::string> allowed(names.begin(), names.begin() + names.size() / 2);
      require_utf8(js_args::and_list(std::vector<std::string>(1, valid_utf8(bytes))));
      js_args::check_keys(names, allowed);
      break;
    }
    default: {
      require_utf8(valid_utf8(bytes));
      const std::string prefix = utf8_prefix(bytes, size / 2);
      require_utf8(prefix);
      if (is_valid_utf8(bytes)) require(prefix.size() <= size / 2);
      require_utf8(text_excerpt(bytes, size / 3));
      require_utf8(text_place(bytes, size / 2));
      break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  try {
    run(data[0], data + 1, size - 1);
  } catch (const perflab::ValueError& e) {
    // The one allowed failure, in valid UTF-8.
    require_utf8(e.what());
  }
  return 0;
}
