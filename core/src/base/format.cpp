// format_number and describe (format.hpp).
#include "perflab/base/format.hpp"

#include "perflab/base/utf8.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace perflab {

std::string format_number(double v, int significant) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  const bool round_trip = significant == kRoundTripDigits;
  const int digits = round_trip ? 17 : std::min(std::max(significant, 1), 17);
  const double whole_from = round_trip ? HUGE_VAL : std::pow(10.0, digits - 1);
  if (std::fabs(v) < 1e15 && (v == std::trunc(v) || std::fabs(v) >= whole_from)) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  if (!round_trip) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    return buf;
  }
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

std::string describe(const nlohmann::json& value) {
  std::string text;
  if (value.is_number_float() && std::isfinite(value.get<double>())) {
    const double v = value.get<double>();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    text = buf;
    if (v == std::trunc(v) && text.find_first_of(".e") == std::string::npos) text += ".0";
  } else if (value.is_number_float()) {
    text = format_number(value.get<double>());
  } else {
    text = value.dump();
  }
  constexpr std::size_t kMaxChars = 60;
  // Cut at a character boundary: half a character would reach the page as U+FFFD.
  if (text.size() > kMaxChars) text = utf8_prefix(text, kMaxChars - 3) + "...";
  return text;
}

}  // namespace perflab
