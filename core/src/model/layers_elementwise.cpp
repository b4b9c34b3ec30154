// Layers without matmuls: ReLU, GELU, Sigmoid, Softmax, LayerNorm, MaxPool2d, Flatten, and
// the row softmax shared with attention. Each keeps the smallest cache backward needs.
// Not for: vectorised element-wise kernels (kernels/elementwise.hpp has those; GELU forward
// uses one).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "layers_detail.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/model/layers.hpp"

namespace perflab {

using detail::product;

// ---------------------------------------------------------------------------------------
// row softmax (Softmax layer and attention)

namespace detail {

void softmax_rows(float* y, const float* x, std::size_t rows, std::size_t cols, float scale) {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* in = x + r * cols;
    float* out = y + r * cols;
    // The maximum keeps exp() below 1; a NaN in the row makes the whole row NaN below.
    float max_value = -INFINITY;
    for (std::size_t j = 0; j < cols; ++j) max_value = std::max(max_value, scale * in[j]);
    double sum = 0.0;
    for (std::size_t j = 0; j < cols; ++j) {
      out[j] = std::exp(scale * in[j] - max_value);
      sum += out[j];
    }
    const auto inv = static_cast<float>(1.0 / sum);
    for (std::size_t j = 0; j < cols; ++j) out[j] *= inv;
  }
}

void softmax_rows_backward(float* dx, const float* y, const float* dy, std::size_t rows,
                           std::size_t cols) {
  for (std::size_t r = 0; r < rows; ++r) {
    const float* y_r = y + r * cols;
    const float* dy_r = dy + r * cols;
    float* dx_r = dx + r * cols;
    double dot = 0.0;
    for (std::size_t j = 0; j < cols; ++j) dot += static_cast<double>(dy_r[j]) * y_r[j];
    const auto d = static_cast<float>(dot);
    for (std::size_t j = 0; j < cols; ++j) dx_r[j] = y_r[j] * (dy_r[j] - d);
  }
}

}  // namespace detail

namespace {

// Element-wise layers accept any shape that has the batch dimension.
void require_batch_dim(const std::string& prefix, const Shape& input) {
  if (input.empty()) {
    throw ShapeError(prefix + "input must have at least 1 dimension (the batch), got shape ()");
  }
}

double per_sample_elements(const Shape& input) {
  return static_cast<double>(product(input, 1, input.size()));
}

FlopCounts elementwise(double flops) {
  FlopCounts f;
  f.elementwise = flops;
  return f;
}

}  // namespace

// ---------------------------------------------------------------------------------------
// ReLU

Shape ReLU::output_shape(const Shape& input) const {
  require_batch_dim(error_prefix(), input);
  return input;
}
FlopCounts ReLU::flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kReluForward * per_sample_elements(output_shape(input)));
}
FlopCounts ReLU::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kReluBackward * per_sample_elements(output_shape(input)));
}

Tensor ReLU::forward_impl(const Tensor& x, const Shape& out_shape) {
  x_ = Tensor();
  Tensor y(out_shape);
  // x < 0 rather than x > 0, so that NaN passes through as in PyTorch.
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] < 0.0f ? 0.0f : x[i];
  if (keep_for_backward()) x_ = x;
  return y;
}

Tensor ReLU::backward_impl(const Tensor& dout, const Shape& input_shape) {
  Tensor dx(input_shape);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = x_[i] > 0.0f ? dout[i] : 0.0f;
  return dx;
}

// ---------------------------------------------------------------------------------------
// GELU

Shape GELU::output_shape(const Shape& input) const {
  require_batch_dim(error_prefix(), input);
  return input;
}
FlopCounts GELU::flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kGeluForward * per_sample_elements(output_shape(input)));
}
FlopCounts GELU::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kGeluBackward * per_sample_elements(output_shape(input)));
}

Tensor GELU::forward_impl(const Tensor& x, const Shape&) {
  x_ = Tensor();
  Tensor y = gelu(x, detail::kLayerGeluVariant);
  if (keep_for_backward()) x_ = x;
  return y;
}

Tensor GELU::backward_impl(const Tensor& dout, const Shape& input_shape) {
  // d/dx 0.5·x·(1 + tanh(u)), u = k·(x + c·x³): 0.5·(1 + t) + 0.5·x·(1 − t²)·k·(1 + 3c·x²).
  constexpr float k = 0.7978845608028654f, c = 0.044715f;
  Tensor dx(input_shape);
  for (std::size_t i = 0; i < dx.size(); ++i) {
    const float x = x_[i];
    const float t = std::tanh(k * (x + c * x * x * x));
    const float d = 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * k * (1.0f + 3.0f * c * x * x);
    dx[i] = dout[i] * d;
  }
  return dx;
}

// ---------------------------------------------------------------------------------------
// Sigmoid

Shape Sigmoid::output_shape(const Shape& input) const {
  require_batch_dim(error_prefix(), input);
  return input;
}
FlopCounts Sigmoid::flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kSigmoidForward * per_sample_elements(output_shape(input)));
}
FlopCounts Sigmoid::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kSigmoidBackward * per_sample_elements(output_shape(input)));
}

Tensor Sigmoid::forward_impl(const Tensor& x, const Shape& out_shape) {
  y_ = Tensor();
  Tensor y(out_shape);
  for (std::size_t i = 0; i < x.size(); ++i) {
    // exp of a non-positive number only, so nothing overflows for large |x|.
    const float v = x[i];
    if (v >= 0.0f) {
      y[i] = 1.0f / (1.0f + std::exp(-v));
    } else {
      const float e = std::exp(v);
      y[i] = e / (1.0f + e);
    }
  }
  if (keep_for_backward()) y_ = y;
  return y;
}

Tensor Sigmoid::backward_impl(const Tensor& dout, const Shape& input_shape) {
  Tensor dx(input_shape);
  for (std::size_t i = 0; i < dx.size(); ++i) dx[i] = dout[i] * y_[i] * (1.0f - y_[i]);
  return dx;
}

// ---------------------------------------------------------------------------------------
// Softmax

Shape Softmax::output_shape(const Shape& input) const {
  if (input.size() < 2) throw_rank_mismatch("at least 2 dimensions (batch, ..., classes)", input);
  return input;
}
FlopCounts Softmax::flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kSoftmaxForward * per_sample_elements(output_shape(input)));
}
FlopCounts Softmax::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kSoftmaxBackward * per_sample_elements(output_shape(input)));
}

Tensor Softmax::forward_impl(const Tensor& x, const Shape& out_shape) {
  y_ = Tensor();
  Tensor y(out_shape);
  if (y.size() > 0) {
    const std::size_t cols = out_shape.back();
    detail::softmax_rows(y.data(), x.data(), y.size() / cols, cols, 1.0f);
  }
  if (keep_for_backward()) y_ = y;
  return y;
}

Tensor Softmax::backward_impl(const Tensor& dout, const Shape& input_shape) {
  Tensor dx(input_shape);
  if (dx.size() > 0) {
    const std::size_t cols = input_shape.back();
    detail::softmax_rows_backward(dx.data(), y_.data(), dout.data(), dx.size() / cols, cols);
  }
  return dx;
}

// ---------------------------------------------------------------------------------------
// LayerNorm

LayerNorm::LayerNorm(std::size_t features, double eps) : features_(features), eps_(eps) {
  if (features_ == 0) throw ValueError("LayerNorm: features must be a positive integer, got 0");
  if (!(std::isfinite(eps_) && eps_ > 0.0)) {
    throw ValueError("LayerNorm: eps must be a positive number, got " + format_number(eps_, 6));
  }
  gamma_ = Tensor({features_});
  dgamma_ = Tensor({features_});
  beta_ = Tensor({features_});
  dbeta_ = Tensor({features_});
  register_parameter("gamma", gamma_, dgamma_);
  register_parameter("beta", beta_, dbeta_);
  reset_parameters(0);
}

void LayerNorm::reset_parameters(std::uint64_t, Init) {
  std::fill(gamma_.data(), gamma_.data() + features_, 1.0f);
  std::fill(beta_.data(), beta_.data() + features_, 0.0f);
  zero_grad();
}

Shape LayerNorm::output_shape(const Shape& input) const {
  if (input.size() < 2) throw_rank_mismatch("at least 2 dimensions (batch, ..., features)", input);
  if (input.back() != features_) {
    throw_size_mismatch("features", features_, input.back(), "feature", "features");
  }
  return input;
}
FlopCounts LayerNorm::flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kLayerNormForward * per_sample_elements(output_shape(input)));
}
FlopCounts LayerNorm::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kLayerNormBackward * per_sample_elements(output_shape(input)));
}

Tensor LayerNorm::forward_impl(const Tensor& x, const Shape& out_shape) {
  xhat_ = Tensor();
  rstd_ = Tensor();
  const bool keep = keep_for_backward();
  const std::size_t F = features_, rows = x.size() / F;
  Tensor y(out_shape);
  Tensor xhat = keep ? Tensor(out_shape) : Tensor();
  Tensor rstd = keep ? Tensor({rows}) : Tensor();
  for (std::size_t r = 0; r < rows; ++r) {
    const float* in = x.data() + r * F;
    float* out = y.data() + r * F;
    // Sums in double: the two-pass variance of float data stays accurate for any F.
    double sum = 0.0;
    for (std::size_t j = 0; j < F; ++j) sum += in[j];
    const double mean = sum / static_cast<double>(F);
    double sq = 0.0;
    for (std::size_t j = 0; j < F; ++j) sq += (in[j] - mean) * (in[j] - mean);
    const auto inv = static_cast<float>(1.0 / std::sqrt(sq / static_cast<double>(F) + eps_));
    const auto m = static_cast<float>(mean);
    for (std::size_t j = 0; j < F; ++j) {
      const float h = (in[j] - m) * inv;
      if (keep) xhat[r * F + j] = h;
      out[j] = h * gamma_[j] + beta_[j];
    }
    if (keep) rstd[r] = inv;
  }
  if (keep) {
    xhat_ = std::move(xhat);
    rstd_ = std::move(rstd);
  }
  return y;
}

Tensor LayerNorm::backward_impl(const Tensor& dout, const Shape& input_shape) {
  const std::size_t F = features_;
  Tensor dx(input_shape);
  const std::size_t rows = dx.size() / F;
  const double inv_F = 1.0 / static_cast<double>(F);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* dy = dout.data() + r * F;
    const float* h = xhat_.data() + r * F;
    float* d = dx.data() + r * F;
    double sum_dh = 0.0, sum_dh_h = 0.0;
    for (std::size_t j = 0; j < F; ++j) {
      dgamma_[j] += dy[j] * h[j];
      dbeta_[j] += dy[j];
      const double dh = static_cast<double>(dy[j]) * gamma_[j];
      sum_dh += dh;
      sum_dh_h += dh * h[j];
    }
    const auto mean_dh = static_cast<float>(sum_dh * inv_F);
    const auto mean_dh_h = static_cast<float>(sum_dh_h * inv_F);
    const float rstd = rstd_[r];
    for (std::size_t j = 0; j < F; ++j) {
      d[j] = rstd * (dy[j] * gamma_[j] - mean_dh - h[j] * mean_dh_h);
    }
  }
  return dx;
}

// ---------------------------------------------------------------------------------------
// MaxPool2d

MaxPool2d::MaxPool2d(std::size_t kernel, std::optional<std::size_t> stride)
    : kernel_(kernel), stride_(stride.value_or(kernel)) {
  if (kernel_ == 0) throw ValueError("MaxPool2d: kernel must be a positive integer, got 0");
  if (stride_ == 0) throw ValueError("MaxPool2d: stride must be a positive integer, got 0");
}

Shape MaxPool2d::output_shape(const Shape& input) const {
  if (input.size() != 4) throw_rank_mismatch("shape (N, C, H, W)", input);
  const std::size_t H = input[2], W = input[3];
  if (H < kernel_ || W < kernel_) {
    const std::string hw = std::to_string(H) + "×" + std::to_string(W);
    throw_chain_error("kernel " + std::to_string(kernel_) + " is larger than the input " + hw,
                      spec_field("kernel") + " is " + std::to_string(kernel_) + " but " +
                          input_source() + " gives " + hw + "; set " + spec_field("kernel") +
                          " to at most " + std::to_string(std::min(H, W)));
  }
  return {input[0], input[1], (H - kernel_) / stride_ + 1, (W - kernel_) / stride_ + 1};
}

FlopCounts MaxPool2d::flops_per_sample(const Shape& input) const {
  const Shape out = output_shape(input);
  return elementwise(static_cast<double>(kernel_ * kernel_ - 1) * per_sample_elements(out));
}
FlopCounts MaxPool2d::backward_flops_per_sample(const Shape& input) const {
  return elementwise(flop_cost::kMaxPoolBackward * per_sample_elements(output_shape(input)));
}

Tensor MaxPool2d::forward_impl(const Tensor& x, const Shape& out_shape) {
  argmax_ = Tensor();
  const bool keep = keep_for_backward();
  Tensor y(out_shape);
  Tensor argmax = keep ? Tensor(out_shape) : Tensor();
  const std::size_t planes = out_shape[0] * out_shape[1];
  const std::size_t H = x.dim(2), W = x.dim(3), Ho = out_shape[2], Wo = out_shape[3];
  const std::size_t k = kernel_;
  std::size_t o = 0;
  for (std::size_t p = 0; p < planes; ++p) {
    const float* plane = x.data() + p * H * W;
    for (std::size_t oh = 0; oh < Ho; ++oh) {
      for (std::size_t ow = 0; ow < Wo; ++ow, ++o) {
        const float* window = plane + oh * stride_ * W + ow * stride_;
        float best = window[0];
        std::size_t best_index = 0;
        for (std::size_t i = 0; i < k; ++i) {
          for (std::size_t j = 0; j < k; ++j) {
            const float v = window[i * W + j];
            if (v > best || (std::isnan(v) && !std::isnan(best))) {
              best = v;
              best_index = i * k + j;
            }
          }
        }
        y[o] = best;
        if (keep) argmax[o] = static_cast<float>(best_index);  // < k², exact in a float
      }
    }
  }
  if (keep) argmax_ = std::move(argmax);
  return y;
}

Tensor MaxPool2d::backward_impl(const Tensor& dout, const Shape& input_shape) {
  Tensor dx(input_shape);
  const std::size_t planes = dout.dim(0) * dout.dim(1);
  const std::size_t H = input_shape[2], W = input_shape[3], Ho = dout.dim(2), Wo = dout.dim(3);
  std::size_t o = 0;
  for (std::size_t p = 0; p < planes; ++p) {
    float* plane = dx.data() + p * H * W;
    for (std::size_t oh = 0; oh < Ho; ++oh) {
      for (std::size_t ow = 0; ow < Wo; ++ow, ++o) {
        const auto index = static_cast<std::size_t>(argmax_[o]);
        const std::size_t i = index / kernel_, j = index % kernel_;
        plane[(oh * stride_ + i) * W + ow * stride_ + j] += dout[o];
      }
    }
  }
  return dx;
}

// ---------------------------------------------------------------------------------------
// Flatten

Shape Flatten::output_shape(const Shape& input) const {
  if (input.size() < 2) throw_rank_mismatch("at least 2 dimensions (batch, ...)", input);
  return {input[0], product(input, 1, input.size())};
}
FlopCounts Flatten::flops_per_sample(const Shape& input) const {
  output_shape(input);
  return {};
}
FlopCounts Flatten::backward_flops_per_sample(const Shape& input) const {
  output_shape(input);
  return {};
}

// A copy each way: Tensor has no views, and the copy is the only cost of this layer.
Tensor Flatten::forward_impl(const Tensor& x, const Shape& out_shape) {
  return x.reshaped(out_shape);
}
Tensor Flatten::backward_impl(const Tensor& dout, const Shape& input_shape) {
  return dout.reshaped(input_shape);
}

}  // namespace perflab
