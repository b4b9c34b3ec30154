// Helpers the exercise-bank tests share: reading a drawn variant's shown choices and
// checking feedback text. Not for: grading logic (core's grader is what is under test).
#pragma once

#include <doctest/doctest.h>

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

namespace exercise_test {

inline bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The shown index of the choice that starts with `prefix` (exactly one must).
inline int choice_starting_with(const nlohmann::json& variant, const std::string& prefix) {
  int found = -1;
  const nlohmann::json& choices = variant.at("choices");
  for (std::size_t i = 0; i < choices.size(); ++i) {
    if (choices[i].get<std::string>().rfind(prefix, 0) == 0) {
      REQUIRE(found == -1);
      found = static_cast<int>(i);
    }
  }
  REQUIRE(found >= 0);
  return found;
}

}  // namespace exercise_test
