// SGD with momentum, Adam and AdamW. Updates run in float over each parameter's elements, with
// the step's coefficients (bias corrections, decay factors) computed once in double; the same
// order of operations everywhere, so training is bit-identical for the same inputs.
// Not for: mixed precision or sparse gradients.
#include "perflab/train/optimizer.hpp"

#include <cmath>
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"

namespace perflab {

const std::vector<std::string>& optimizer_names() {
  static const std::vector<std::string> names = {"sgd", "adam", "adamw"};
  return names;
}

namespace {

std::string names_joined() {
  std::string s;
  for (const auto& n : optimizer_names()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

void require_unit_interval(const char* field, double v) {
  if (!(v >= 0.0 && v < 1.0)) {
    throw ValueError(std::string("optimizer ") + field + " must be at least 0 and below 1, got " +
                     format_number(v));
  }
}

// A moment or velocity below 1e-30 in magnitude becomes 0. A parameter whose gradient stays
// 0 for many steps (a ReLU unit that no image in the batch turns on) has its moments shrink
// by β each step into the subnormal floats, and arithmetic on subnormals is many times slower
// on x86: without this, fashion_cnn's baseline spent 4.4 to 5.8 s an epoch in Adam natively
// from the second epoch on, with it 0.94 s, for the same losses to four decimals
// (docs/TRAINING.md). The values dropped change an update by under lr·1e-30 / eps.
inline float flush_tiny(float x) { return std::fabs(x) < 1e-30f ? 0.0f : x; }

class Sgd final : public Optimizer {
 public:
  Sgd(OptimizerConfig c, std::vector<ParameterRef> p) : Optimizer(std::move(c), std::move(p)) {
    if (config_.momentum > 0) {
      velocity_ = zero_buffers();
      state_.push_back(&velocity_);
    }
  }

 private:
  void update(double lr) override {
    const float rate = static_cast<float>(lr);
    const float mu = static_cast<float>(config_.momentum);
    const float wd = static_cast<float>(config_.weight_decay);
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      float* w = parameters_[i].value->data();
      const float* g = parameters_[i].grad->data();
      const std::size_t n = parameters_[i].value->size();
      if (velocity_.empty()) {
        for (std::size_t j = 0; j < n; ++j) w[j] -= rate * (g[j] + wd * w[j]);
      } else {
        float* v = velocity_[i].data();
        for (std::size_t j = 0; j < n; ++j) {
          v[j] = flush_tiny(mu * v[j] + (g[j] + wd * w[j]));
          w[j] -= rate * v[j];
        }
      }
    }
  }
  std::vector<Tensor> velocity_;
};

class Adam final : public Optimizer {
 public:
  Adam(OptimizerConfig c, std::vector<ParameterRef> p, bool decoupled)
      : Optimizer(std::move(c), std::move(p)), decoupled_(decoupled) {
    m_ = zero_buffers();
    v_ = zero_buffers();
    state_.push_back(&m_);
    state_.push_back(&v_);
  }

 private:
  void update(double lr) override {
    const double t = static_cast<double>(steps_ + 1);
    const double c1 = 1.0 - std::pow(config_.beta1, t), c2 = 1.0 - std::pow(config_.beta2, t);
    const float b1 = static_cast<float>(config_.beta1), b2 = static_cast<float>(config_.beta2);
    const float one_b1 = static_cast<float>(1.0 - config_.beta1);
    const float one_b2 = static_cast<float>(1.0 - config_.beta2);
    // w −= lr · m̂ / (√v̂ + eps) with m̂ = m / c1 and √v̂ = √v / √c2.
    const float step_size = static_cast<float>(lr / c1);
    const float eps = static_cast<float>(config_.eps);
    const float inv_sqrt_c2 = static_cast<float>(1.0 / std::sqrt(c2));
    const float wd = static_cast<float>(config_.weight_decay);
    const float decay = static_cast<float>(1.0 - lr * config_.weight_decay);
    for (std::size_t i = 0; i < parameters_.size(); ++i) {
      float* w = parameters_[i].value->data();
      const float* g = parameters_[i].grad->data();
      float* m = m_[i].data();
      float* v = v_[i].data();
      const std::size_t n = parameters_[i].value->size();
      for (std::size_t j = 0; j < n; ++j) {
        float grad = g[j];
        if (decoupled_) {
          w[j] *= decay;
        } else {
          grad += wd * w[j];
        }
        m[j] = flush_tiny(b1 * m[j] + one_b1 * grad);
        v[j] = flush_tiny(b2 * v[j] + one_b2 * grad * grad);
        w[j] -= step_size * m[j] / (std::sqrt(v[j]) * inv_sqrt_c2 + eps);
      }
    }
  }
  bool decoupled_;
  std::vector<Tensor> m_, v_;
};

}  // namespace

void OptimizerConfig::validate() const {
  bool known = false;
  for (const auto& n : optimizer_names()) known = known || n == name;
  if (!known) {
    throw ValueError("optimizer \"" + name + "\" is not known; the optimizers are " +
                     names_joined());
  }
  require_unit_interval("momentum", momentum);
  require_unit_interval("beta1", beta1);
  require_unit_interval("beta2", beta2);
  if (!(eps > 0.0 && std::isfinite(eps))) {
    throw ValueError("optimizer eps must be a positive number, got " + format_number(eps));
  }
  if (!(weight_decay >= 0.0 && std::isfinite(weight_decay))) {
    throw ValueError("optimizer weight_decay must be at least 0, got " +
                     format_number(weight_decay));
  }
}

std::size_t optimizer_state_floats_per_parameter(const OptimizerConfig& config) {
  config.validate();
  if (config.name == "sgd") return config.momentum > 0 ? 1 : 0;
  return 2;
}

std::size_t optimizer_state_bytes(const OptimizerConfig& config, std::size_t parameter_count) {
  return optimizer_state_floats_per_parameter(config) * parameter_count * sizeof(float);
}

Optimizer::Optimizer(OptimizerConfig config, std::vector<ParameterRef> parameters)
    : config_(std::move(config)), parameters_(std::move(parameters)) {}

std::vector<Tensor> Optimizer::zero_buffers() const {
  std::vector<Tensor> buffers;
  buffers.reserve(parameters_.size());
  for (const ParameterRef& p : parameters_) buffers.emplace_back(p.value->shape());
  return buffers;
}

void Optimizer::step(double learning_rate) {
  if (!(learning_rate > 0.0 && std::isfinite(learning_rate))) {
    throw ValueError("learning rate must be a positive number, got " +
                     format_number(learning_rate));
  }
  update(learning_rate);
  ++steps_;
}

std::size_t Optimizer::state_bytes() const {
  std::size_t bytes = 0;
  for (const std::vector<Tensor>* buffers : state_) {
    for (const Tensor& t : *buffers) bytes += t.bytes();
  }
  return bytes;
}

std::vector<const Tensor*> Optimizer::state_of(std::size_t i) const {
  if (i >= parameters_.size()) {
    throw ValueError("optimizer: parameter " + std::to_string(i) + " does not exist; there are " +
                     std::to_string(parameters_.size()));
  }
  std::vector<const Tensor*> out;
  for (const std::vector<Tensor>* buffers : state_) out.push_back(&(*buffers)[i]);
  return out;
}

std::unique_ptr<Optimizer> make_optimizer(const OptimizerConfig& config,
                                          std::vector<ParameterRef> parameters) {
  config.validate();
  for (const ParameterRef& p : parameters) {
    if (p.value == nullptr || p.grad == nullptr || p.value->shape() != p.grad->shape()) {
      throw ValueError("optimizer: parameter " + p.name +
                       " needs a value and a gradient of the same shape");
    }
  }
  if (config.name == "sgd") return std::make_unique<Sgd>(config, std::move(parameters));
  return std::make_unique<Adam>(config, std::move(parameters), config.name == "adamw");
}

}  // namespace perflab
