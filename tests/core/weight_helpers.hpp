// A two-layer model whose weights the weight and pruning tests set by hand, and the parameter
// access they share: a parameter by its model name ("0.weight"), its values, setting them.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "perflab/base/error.hpp"
#include "perflab/model/model.hpp"

namespace weight_test {

// Linear 2→2, ReLU, Linear 2→1: weights 0.weight (4 values) and 2.weight (2), biases beside.
inline const nlohmann::json kTwoLinear = {{"name", "two"},
                                          {"input", {1, 2}},
                                          {"layers",
                                           {{{"type", "Linear"}, {"in", 2}, {"out", 2}},
                                            {{"type", "ReLU"}},
                                            {{"type", "Linear"}, {"in", 2}, {"out", 1}}}}};

inline perflab::Tensor& parameter(perflab::Model& model, const std::string& name) {
  for (std::size_t i = 0; i < model.size(); ++i) {
    for (const perflab::ParameterRef& p : model.layer(i).parameters()) {
      if (std::to_string(i) + "." + p.name == name) return *p.value;
    }
  }
  throw perflab::ValueError("no parameter " + name);
}

inline std::vector<float> values(perflab::Model& model, const std::string& name) {
  const perflab::Tensor& t = parameter(model, name);
  return {t.data(), t.data() + t.size()};
}

// The parameter's values replaced; ValueError when the count differs.
inline void set_values(perflab::Model& model, const std::string& name,
                       const std::vector<float>& v) {
  perflab::Tensor& t = parameter(model, name);
  if (t.size() != v.size()) throw perflab::ValueError(name + " holds another number of values");
  std::copy(v.begin(), v.end(), t.data());
}

}  // namespace weight_test
