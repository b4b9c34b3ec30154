// Typed fields of JSON options objects, and the readers a field list uses (json_fields.hpp).
#include "perflab/base/json_fields.hpp"

#include <cmath>
#include <limits>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

namespace perflab {

int json_int(const nlohmann::json& value, const std::string& field) {
  if (!value.is_number_integer() &&
      !(value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>())) {
    throw ValueError(field + " must be an integer, got " + describe(value));
  }
  const double d = value.get<double>();
  if (d < -2147483648.0 || d > 2147483647.0) {
    throw ValueError(field + " must fit a 32-bit integer, got " + describe(value));
  }
  return static_cast<int>(d);
}

double json_number(const nlohmann::json& value, const std::string& field) {
  if (!value.is_number()) throw ValueError(field + " must be a number, got " + describe(value));
  return value.get<double>();
}

}  // namespace perflab

namespace perflab {

void throw_json_field_type(const nlohmann::json& v, const std::string& field, const char* expected) {
  throw ValueError(field + " must be " + expected + ", got " + describe(v));
}

void throw_json_enum(const nlohmann::json& v, const std::string& field,
                     const std::vector<std::string>& names) {
  std::string allowed;
  for (std::size_t i = 0; i < names.size(); ++i) {
    allowed += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + describe(names[i]);
  }
  throw ValueError(field + " must be " + allowed + ", got " + describe(v));
}

const nlohmann::json& json_member(const nlohmann::json& j, const std::string& where, const char* key) {
  if (!j.is_object()) throw_json_field_type(j, where, "an object");
  const auto it = j.find(key);
  if (it == j.end()) throw ValueError(where + "." + key + " is missing");
  return *it;
}

void read_json_value(const nlohmann::json& v, const std::string& field, double& out, JsonRange range) {
  // JSON holds no NaN or infinity, so every JSON number is finite.
  const bool nullable =
      range == JsonRange::unbounded_as_null || range == JsonRange::undefined_as_null;
  if (nullable && v.is_null()) {
    out = range == JsonRange::unbounded_as_null ? std::numeric_limits<double>::infinity()
                                                : std::numeric_limits<double>::quiet_NaN();
    return;
  }
  if (!v.is_number()) throw_json_field_type(v, field, nullable ? "a number or null" : "a number");
  if (range == JsonRange::non_negative && v.get<double>() < 0) {
    throw_json_field_type(v, field, "a number ≥ 0");
  }
  out = v.get<double>();
}

void read_json_value(const nlohmann::json& v, const std::string& field, float& out, JsonRange range) {
  double d = 0;
  read_json_value(v, field, d, range);
  if (!std::isfinite(static_cast<float>(d))) {
    throw_json_field_type(v, field, "a number within a float's range (magnitude below 3.4e38)");
  }
  out = static_cast<float>(d);
}

void read_json_value(const nlohmann::json& v, const std::string& field, std::string& out, JsonRange) {
  if (!v.is_string()) throw_json_field_type(v, field, "a string");
  out = v.get<std::string>();
}

void read_json_value(const nlohmann::json& v, const std::string&, nlohmann::json& out, JsonRange) {
  out = v;
}

void read_json_value(const nlohmann::json& v, const std::string& field, bool& out, JsonRange) {
  if (!v.is_boolean()) throw_json_field_type(v, field, "true or false");
  out = v.get<bool>();
}

std::uint64_t json_unsigned(const nlohmann::json& v, const std::string& field, std::uint64_t max) {
  std::uint64_t u = 0;
  if (v.is_number_unsigned()) {
    u = v.get<std::uint64_t>();
  } else if (v.is_number_integer() && v.get<long long>() >= 0) {
    u = static_cast<std::uint64_t>(v.get<long long>());
  } else if (v.is_number_float() && v.get<double>() >= 0 && v.get<double>() < 0x1p64 &&
             std::trunc(v.get<double>()) == v.get<double>()) {
    u = static_cast<std::uint64_t>(v.get<double>());
  } else {
    throw_json_field_type(v, field, "a whole number ≥ 0");
  }
  if (u > max) throw ValueError(field + " must be at most " + std::to_string(max) + ", got " + describe(v));
  return u;
}

long long json_signed(const nlohmann::json& v, const std::string& field, long long min, long long max) {
  if (!v.is_number_integer() &&
      !(v.is_number_float() && std::trunc(v.get<double>()) == v.get<double>())) {
    throw_json_field_type(v, field, "an integer");
  }
  const double d = v.get<double>();
  if (v.is_number_unsigned() ? v.get<std::uint64_t>() > static_cast<std::uint64_t>(max)
                             : (d < static_cast<double>(min) || d > static_cast<double>(max))) {
    throw ValueError(field + " must be an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got " + describe(v));
  }
  return v.is_number_float() ? static_cast<long long>(d) : v.get<long long>();
}

}  // namespace perflab
