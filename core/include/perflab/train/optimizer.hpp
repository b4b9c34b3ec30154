// Optimizers over a Model's parameters (ParameterRef: value and grad): SGD (with momentum,
// or plain when momentum is 0), Adam and AdamW. Each allocates its state buffers once, at
// construction, as tracked tensors, so their bytes are measured like every other tensor's;
// optimizer_state_bytes() is the count the profiler reports (profiler.hpp's OptimizerBytes).
// Not for: parameter groups, gradient clipping, or schedules (the trainer sets the learning
// rate of each step: TrainRecipe in train/train.hpp).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/model/layers.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// The optimizers by name: "sgd", "adam", "adamw".
const std::vector<std::string>& optimizer_names();

struct OptimizerConfig {
  std::string name = "adam";
  // sgd: v = momentum·v + g, w −= lr·v (PyTorch's form); momentum 0 is plain SGD and keeps
  // no velocity buffer. In [0, 1).
  double momentum = 0.9;
  // adam, adamw: m = β1·m + (1−β1)·g, v = β2·v + (1−β2)·g², w −= lr·m̂ / (√v̂ + eps) with the
  // bias corrections m̂ = m / (1−β1ᵗ), v̂ = v / (1−β2ᵗ). β in [0, 1), eps > 0.
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  // sgd and adam: L2, g += weight_decay·w; adamw: decoupled, w −= lr·weight_decay·w first.
  // At least 0.
  double weight_decay = 0;
  // ValueError naming the field, its value and the allowed range; an unknown name lists the
  // known ones.
  void validate() const;
};

// Floats of state an optimizer keeps per parameter: plain SGD 0, SGD with momentum 1 (the
// velocity), Adam and AdamW 2 (the moments m and v).
std::size_t optimizer_state_floats_per_parameter(const OptimizerConfig& config);
// Bytes of that state for parameter_count parameters: what an Optimizer built with config
// over that many parameters allocates (its state_bytes()).
std::size_t optimizer_state_bytes(const OptimizerConfig& config, std::size_t parameter_count);

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;

  const OptimizerConfig& config() const { return config_; }
  // One update of every parameter from its gradient at this learning rate (> 0, finite).
  // Does not zero the gradients.
  void step(double learning_rate);
  std::size_t steps() const { return steps_; }
  // Bytes of the state buffers this optimizer holds (their tensors' bytes, summed).
  std::size_t state_bytes() const;
  // The state kept for parameter i: SGD with momentum {velocity}, Adam and AdamW {m, v},
  // plain SGD none. ValueError when i is not a parameter's index.
  std::vector<const Tensor*> state_of(std::size_t i) const;

 protected:
  Optimizer(OptimizerConfig config, std::vector<ParameterRef> parameters);
  virtual void update(double learning_rate) = 0;
  // One zeroed buffer per parameter, of its shape.
  std::vector<Tensor> zero_buffers() const;
  OptimizerConfig config_;
  std::vector<ParameterRef> parameters_;
  std::vector<std::vector<Tensor>*> state_;  // the buffers, for state_bytes()
  std::size_t steps_ = 0;
};

// Validates the config and allocates the state. The parameters must outlive the optimizer.
std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& config,
                                          std::vector<ParameterRef> parameters);

}  // namespace perflab
