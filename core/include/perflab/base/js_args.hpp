// The rules by which the wasm bindings read a JS argument, with no JS in them: what a number
// must be to count as an integer, a size or a seed, how a string is quoted in a message, and
// how option names are checked against the allowed ones. wasm/convert.cpp reads a value's
// type, number, UTF-16 units or keys from JS and asks these, so the bindings stay thin and the
// logic is compiled natively too, where doctest and a libFuzzer target (fuzz/js_args_fuzz.cpp)
// run it under ASan and UBSan. Every failure is a ValueError naming the parameter.
// Not for: reading JS values (wasm/convert.cpp) or ranges core checks itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace perflab::js_args {

// How many UTF-16 units of a string a message quotes before "...".
inline constexpr std::size_t kMaxQuotedUnits = 40;

// A JS string quoted for a message: at most kMaxQuotedUnits units (a surrogate pair is never
// cut in half), then "..." when `cut_after` (the string had more units than those given).
std::string quote(std::u16string_view units, bool cut_after);

// The value as a message shows it (describe() in the bindings), asked for only on failure.
using Shown = std::function<std::string()>;

// `d` (the number a JS value holds, NaN when it is no number) as each kind of argument, or a
// ValueError "<name> must be ..., got <shown>".
double finite_number(double d, const std::string& name, const Shown& shown);
int int32(double d, const std::string& name, const Shown& shown);
// A non-negative integer; past `most` (SIZE_MAX of the build: 2^32 - 1 in wasm32) a sentence
// that says the build cannot address it.
std::size_t size(double d, const std::string& name, const Shown& shown, std::uint64_t most);
std::uint32_t seed(double d, const Shown& shown);

// Refuses a list (an array's `length`) longer than `most` before any element is read.
void check_length(double length, const std::string& name, std::size_t most);

// "a", "a and b", "a, b and c".
std::string and_list(const std::vector<std::string>& names);
// How a key refusal names what the keys are: "unknown <key> "x"<in>; the allowed <keys> are
// a, b and c" (an options object's by default; {"field", " in roofs", "fields"} for an
// argument's fields, {"tile field", "", "fields"} for the tiles).
struct KeyWords {
  std::string key = "option";
  std::string in;
  std::string keys = "options";
};
// Refuses the first of `keys` not among `allowed`: "unknown option "x"; the allowed options
// are a, b and c", in `words`; the one key check of every binding.
void check_keys(const std::vector<std::string>& keys, const std::vector<std::string>& allowed,
                const KeyWords& words = {});

}  // namespace perflab::js_args
