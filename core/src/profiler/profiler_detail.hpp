// Helpers shared by the profiler's source files: shapes at another batch, restoring the
// layers' keep_for_backward, a spec at another batch, and a pass checked against the budget.
// Not part of the public API.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "perflab/model/model.hpp"
#include "perflab/tensor/tensor.hpp"
#include "perflab/timing/timer.hpp"

namespace perflab::detail {

// The shape with its first (batch) dimension replaced.
Shape at_batch(Shape shape, std::size_t batch);
// batch, or the model's spec batch when batch is 0.
std::size_t resolve_batch(const Model& model, std::size_t batch);
// Layer i's input at another batch: every layer keeps dimension 0 as the batch.
Shape layer_input_at(const Model& model, std::size_t i, std::size_t batch);

// Puts every layer's keep_for_backward back as it was at construction.
class KeepGuard {
 public:
  explicit KeepGuard(Model& model);
  ~KeepGuard();
  KeepGuard(const KeepGuard&) = delete;
  KeepGuard& operator=(const KeepGuard&) = delete;

 private:
  Model& model_;
  std::vector<bool> keep_;
};

// The model of `spec` with input[0] set to batch (batch 0, or a spec without a usable
// "input": the spec as is, so that model_from_json reports what is wrong). The spec is read
// by reference and copied only to change the batch: copying recurses per level.
Model model_at_batch(const nlohmann::json& spec, std::size_t batch);

// Refuses, before any work, a measurement whose one pass of the model at batch (0: the
// model's) cannot fit options.max_total_ms (check_call_fits_budget): the forward pass, or
// with with_backward the forward and backward pass a training step times ("one call of a
// forward pass of x at batch 64 is 5.37e+08 FLOPs, at least 6 ms at 100 GFLOP/s ...").
void check_pass_fits_budget(const Model& model, std::size_t batch, bool with_backward,
                            const TimerOptions& options);

}  // namespace perflab::detail
