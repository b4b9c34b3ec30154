// Reading one typed field of a JSON options object, with the error every option reader in
// core gives: "<field> must be an integer, got \"ten\"". Ranges stay with the struct that
// owns the field (its validate()). Not for: whole documents (model.hpp, report.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace perflab {

// An integral JSON number (1 or 1.0) that fits a 32-bit int.
int json_int(const nlohmann::json& value, const std::string& field);
// Any JSON number.
double json_number(const nlohmann::json& value, const std::string& field);

}  // namespace perflab
