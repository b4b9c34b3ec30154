// Central finite-difference gradient checks for anything with forward, backward, zero_grad
// and parameters() (a Layer or a Model). The loss is L = Σ w·y with fixed random weights w,
// so dL/dy = w is the dout given to backward; every input element and every parameter
// element is perturbed by ±eps and (L+ − L−) / (x+ − x−) is compared with the analytic
// gradient. Float layers, so eps is 1e-2 and the tolerance is atol + rtol·|gradient|.
// Keep shapes small: each element costs two forward passes.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "perflab/tensor/tensor.hpp"

namespace perflab::testing {

struct GradientTolerance {
  double eps = 1e-2;
  double rtol = 2e-2;
  double atol = 2e-3;
};

// The largest |numeric − analytic| / (atol + rtol·max(|numeric|, |analytic|)) over a
// tensor: <= 1 passes. Reports the worst element so a failure names it.
struct Worst {
  double ratio = 0;
  std::size_t index = 0;
  double numeric = 0, analytic = 0;
  void update(std::size_t i, double numeric_value, double analytic_value,
              const GradientTolerance& tol) {
    const double allowed =
        tol.atol + tol.rtol * std::max(std::fabs(numeric_value), std::fabs(analytic_value));
    const double r = std::fabs(numeric_value - analytic_value) / allowed;
    if (!(r <= ratio)) {  // also catches NaN
      ratio = r;
      index = i;
      numeric = numeric_value;
      analytic = analytic_value;
    }
  }
};

template <class Net>
double weighted_loss(Net& net, const Tensor& x, const Tensor& w) {
  const Tensor y = net.forward(x);
  double sum = 0;
  for (std::size_t i = 0; i < y.size(); ++i) sum += static_cast<double>(y[i]) * w[i];
  return sum;
}

// Checks dinput and every parameter gradient of net at x.
template <class Net>
void check_gradients(Net& net, const Tensor& x, std::uint64_t seed,
                     const GradientTolerance& tol = {}) {
  net.zero_grad();
  const Tensor y = net.forward(x);
  const Tensor w = Tensor::random(y.shape(), seed);
  const Tensor dx = net.backward(w);
  REQUIRE(dx.shape() == x.shape());

  {
    Worst worst_input;
    Tensor probe = x;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const float original = x[i];
      const float plus = original + static_cast<float>(tol.eps);
      const float minus = original - static_cast<float>(tol.eps);
      probe[i] = plus;
      const double loss_plus = weighted_loss(net, probe, w);
      probe[i] = minus;
      const double loss_minus = weighted_loss(net, probe, w);
      probe[i] = original;
      worst_input.update(i, (loss_plus - loss_minus) / (static_cast<double>(plus) - minus), dx[i],
                         tol);
    }
    INFO("dinput: worst element " << worst_input.index << ": numeric " << worst_input.numeric
                                  << ", analytic " << worst_input.analytic);
    CHECK(worst_input.ratio <= 1.0);
  }  // scoped, so the INFO above does not repeat for the parameters

  for (auto& p : net.parameters()) {
    Worst worst;
    Tensor& value = *p.value;
    for (std::size_t i = 0; i < value.size(); ++i) {
      const float original = value[i];
      const float plus = original + static_cast<float>(tol.eps);
      const float minus = original - static_cast<float>(tol.eps);
      value[i] = plus;
      const double loss_plus = weighted_loss(net, x, w);
      value[i] = minus;
      const double loss_minus = weighted_loss(net, x, w);
      value[i] = original;
      worst.update(i, (loss_plus - loss_minus) / (static_cast<double>(plus) - minus), (*p.grad)[i],
                   tol);
    }
    INFO("d" << p.name << ": worst element " << worst.index << ": numeric " << worst.numeric
             << ", analytic " << worst.analytic);
    CHECK(worst.ratio <= 1.0);
  }
}

}  // namespace perflab::testing
