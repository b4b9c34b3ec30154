// Typed fields of JSON options objects (json_fields.hpp).
#include "perflab/base/json_fields.hpp"

#include <cmath>

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
