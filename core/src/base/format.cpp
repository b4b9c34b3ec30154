// format_number and describe (format.hpp).
#include "perflab/base/format.hpp"

#include "perflab/base/error.hpp"
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

std::string format_fixed(double v, int decimals) {
  if (decimals < 0 || decimals > 17) {
    throw ValueError("format_fixed: decimals is " + std::to_string(decimals) +
                     "; allowed: 0 to 17");
  }
  char text[400];  // %.17f of the largest double is 309 digits and 18 more
  std::snprintf(text, sizeof(text), "%.*f", decimals, v);
  return text;
}

std::string format_decimal(double v, int significant) {
  if (!std::isfinite(v)) return format_number(v);
  if (v == 0) return "0";
  const int digits = std::min(std::max(significant, 1), 17);
  char buf[400];
  // Rounded to its digits first, so 0.099996 is 0.100 and not 0.1000.
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);
  const double rounded = std::strtod(buf, nullptr);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::fabs(rounded))));
  if (magnitude >= digits - 1) {  // every digit before the point: the whole number
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.*f", std::min(digits - 1 - magnitude, 340), rounded);
  return buf;
}

namespace {

constexpr std::size_t kMaxChars = 60;

// The value's text, floats at any depth with 10 significant digits: an array of expected
// values reads [17.495,2.5], not the [17.494999999999997,2.5] that dump() writes. Stops
// once `out` holds more than `limit` characters (the rest would be cut anyway).
void append_value(std::string& out, const nlohmann::json& value, std::size_t limit) {
  if (out.size() > limit) return;
  if (value.is_number_float() && std::isfinite(value.get<double>())) {
    const double v = value.get<double>();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    const std::string text = buf;
    out += text;
    if (v == std::trunc(v) && text.find_first_of(".e") == std::string::npos) out += ".0";
  } else if (value.is_number_float()) {
    out += format_number(value.get<double>());
  } else if (value.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < value.size() && out.size() <= limit; ++i) {
      if (i) out += ',';
      append_value(out, value[i], limit);
    }
    out += ']';
  } else if (value.is_object()) {
    out += '{';
    bool first = true;
    for (const auto& item : value.items()) {
      if (out.size() > limit) break;
      if (!first) out += ',';
      out += nlohmann::json(item.key()).dump() + ':';
      append_value(out, item.value(), limit);
      first = false;
    }
    out += '}';
  } else {
    out += value.dump();
  }
}

}  // namespace

std::string describe(const nlohmann::json& value) {
  std::string text;
  append_value(text, value, kMaxChars);
  // Cut at a character boundary: half a character would reach the page as U+FFFD.
  if (text.size() > kMaxChars) text = utf8_prefix(text, kMaxChars - 3) + "...";
  return text;
}

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace perflab
