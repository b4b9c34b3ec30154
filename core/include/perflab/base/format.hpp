// Numbers and JSON values as text, for every message and sentence core writes: the Timer's
// warnings, option and argument errors, the roofline verdict, the grader's feedback. One
// rule everywhere, so a value reads the same in every message.
// Not for: tables (the CLI pads its columns) or byte sizes (format_bytes, memory.hpp).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

// Significant digits that read back as the same double: the exact value of a number that
// was rounded before use (a grader's parameter).
inline constexpr int kRoundTripDigits = 0;

// A number with `significant` digits (1..17), spelled as JavaScript spells the values it
// cannot print as digits ("NaN", "Infinity", "-Infinity"), since messages reach the page:
//   whole numbers print without decimals (20, 100000, -3);
//   values of 10^(significant−1) and above print rounded to a whole number (1235, not
//   1.23e+03), so digits are never lost to an exponent; 1e15 and above as %g does;
//   others with `significant` digits as %g does: 0.25, 1.5, 9.54e-07.
// With kRoundTripDigits, a non-whole number gets the fewest digits that read back as the
// same double (0.1, 2.575, 0.30000000000000004).
std::string format_number(double v, int significant = 3);

// A number for a table column: `significant` digits (1..17) in positional notation at every
// magnitude, so one column never mixes "1.23e-05" with "0.000123" (the page's formatSig
// follows the same rule): 0.0000123, 0.0457, 1.23, 12.3; from 10^(significant−1) up the
// whole number (123, 1235); "NaN", "Infinity" and "-Infinity" as format_number writes them.
std::string format_decimal(double v, int significant = 3);

// A number with exactly `decimals` (0..17) digits after the point, as printf's %.*f writes
// it: format_fixed(0.5, 2) is "0.50". For figures a sentence or a table prints to a fixed
// precision (ratios "0.50×", percentages "89.85%").
std::string format_fixed(double v, int decimals);

// Names in double quotes, comma-separated, for the "allowed: ..." of a message:
// {"a", "b"} gives "\"a\", \"b\"".
std::string quoted_list(const std::vector<std::string>& names);

// A CSV field as RFC 4180 writes it: as it is, or in double quotes (a quote doubled) when it
// holds a comma, a quote or a line break. Every CSV core writes (suite reports, the Olympics
// leaderboard) quotes through this.
std::string csv_field(const std::string& text);

// A JSON value as its writer would write it, for "got ..." and "expected ..." in messages:
// strings quoted, floats at any depth (alone, in arrays and objects) with up to 10
// significant digits (2.575, not the 2.5749999999999997 that round-trips; the whole number
// 2.0 keeps its ".0" so it does not read as an integer), anything else as compact JSON; at
// most 60 characters, the rest cut to "...".
std::string describe(const nlohmann::json& value);

}  // namespace perflab
