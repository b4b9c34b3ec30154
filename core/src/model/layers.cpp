// The Layer base (validation, caching rules, parameter registry, observer hook), the shared
// helpers of layers_detail.hpp, the element-wise cost table, im2col/col2im, Linear and Conv2d.
// Element-wise layers live in layers_elementwise.cpp, attention in layers_attention.cpp.
// Not for: kernels themselves (kernels/); layers call the public kernels.
#include "perflab/model/layers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "layers_detail.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/base/random.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// detail helpers

namespace detail {

namespace {
// nullptr: kLayerMatmulVariant. Set only by LayerMatmulVariantScope.
const MatmulVariant* g_layer_matmul = nullptr;

const MatmulVariant& layer_matmul() {
  // Looked up once: the kernel list is fixed for the life of the program.
  static const MatmulVariant& fallback = find_matmul_variant(kLayerMatmulVariant);
  return g_layer_matmul != nullptr ? *g_layer_matmul : fallback;
}
}  // namespace

void gemm(float* out, const float* a, const float* b, std::size_t M, std::size_t K, std::size_t N) {
  if (M == 0 || N == 0) return;
  layer_matmul().kernel(out, a, b, M, K, N);
}

void transpose(float* out, const float* in, std::size_t rows, std::size_t cols) {
  // 32×32 tiles keep both the rows read and the rows written in cache.
  constexpr std::size_t kTile = 32;
  for (std::size_t i0 = 0; i0 < rows; i0 += kTile) {
    const std::size_t i1 = std::min(rows, i0 + kTile);
    for (std::size_t j0 = 0; j0 < cols; j0 += kTile) {
      const std::size_t j1 = std::min(cols, j0 + kTile);
      for (std::size_t i = i0; i < i1; ++i)
        for (std::size_t j = j0; j < j1; ++j) out[j * rows + i] = in[i * cols + j];
    }
  }
}

void add_into(float* dst, const float* src, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) dst[i] += src[i];
}

void dense_forward(float* y, const float* x, const float* w, const float* b, std::size_t R,
                   std::size_t in, std::size_t out) {
  gemm(y, x, w, R, in, out);
  if (b == nullptr) return;
  for (std::size_t r = 0; r < R; ++r) add_into(y + r * out, b, out);
}

void dense_backward(float* dx, float* dw, float* db, const float* x, const float* w,
                    const float* dy, std::size_t R, std::size_t in, std::size_t out) {
  if (R == 0) return;
  if (dx != nullptr) {  // dx = dy (R, out) @ wᵀ (out, in)
    Tensor wt({out, in});
    transpose(wt.data(), w, in, out);
    gemm(dx, dy, wt.data(), R, out, in);
  }
  {  // dw += xᵀ (in, R) @ dy (R, out); the kernel overwrites, so go through a temporary
    Tensor xt({in, R});
    transpose(xt.data(), x, R, in);
    Tensor product({in, out});
    gemm(product.data(), xt.data(), dy, in, R, out);
    add_into(dw, product.data(), in * out);
  }
  if (db != nullptr) {
    for (std::size_t r = 0; r < R; ++r) add_into(db, dy + r * out, out);
  }
}

std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t part) {
  Rng rng(seed ^ (0x9E3779B97F4A7C15ull * (part + 1)));
  return rng.next_u64();
}

void fill_uniform(Tensor& t, std::uint64_t seed, double bound) {
  Rng rng(seed);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = static_cast<float>(rng.uniform(-bound, bound));
}

void init_weights(Tensor& weight, Tensor* bias, std::uint64_t seed, std::uint64_t part,
                  std::size_t fan_in, std::size_t fan_out, Init init) {
  const double in = static_cast<double>(fan_in), out = static_cast<double>(fan_out);
  const double uniform_bound = 1.0 / std::sqrt(in);
  double bound = uniform_bound;
  if (init == Init::He) bound = std::sqrt(6.0 / in);
  if (init == Init::Xavier) bound = std::sqrt(6.0 / (in + out));
  fill_uniform(weight, derive_seed(seed, 2 * part), bound);
  if (bias == nullptr) return;
  if (init == Init::Uniform) {
    fill_uniform(*bias, derive_seed(seed, 2 * part + 1), uniform_bound);
  } else {
    std::fill(bias->data(), bias->data() + bias->size(), 0.0f);
  }
}

std::size_t product(const Shape& shape, std::size_t first, std::size_t last) {
  std::size_t n = 1;
  for (std::size_t i = first; i < last; ++i) n *= shape[i];
  return n;
}

std::string count_of(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace detail

using detail::product;

namespace {

LayerObserver* g_observer = nullptr;

// on_end runs on every exit, so an observer's begin/end calls always pair up.
class ObserverScope {
 public:
  ObserverScope(const Layer& layer, Pass pass) : layer_(layer), pass_(pass), observer_(g_observer) {
    if (observer_ != nullptr) observer_->on_begin(layer_, pass_);
  }
  ~ObserverScope() {
    if (observer_ != nullptr) observer_->on_end(layer_, pass_);
  }
  ObserverScope(const ObserverScope&) = delete;
  ObserverScope& operator=(const ObserverScope&) = delete;

 private:
  const Layer& layer_;
  Pass pass_;
  LayerObserver* observer_;
};

void require_positive(const char* layer, const char* field, std::size_t value) {
  if (value == 0) {
    throw ValueError(std::string(layer) + ": " + field + " must be a positive integer, got 0");
  }
}

}  // namespace

LayerMatmulVariantScope::LayerMatmulVariantScope(std::string_view variant)
    : previous_(detail::g_layer_matmul) {
  detail::g_layer_matmul = &find_matmul_variant(variant);
}
LayerMatmulVariantScope::~LayerMatmulVariantScope() { detail::g_layer_matmul = previous_; }
std::string_view layer_matmul_variant() { return detail::layer_matmul().name; }

void set_layer_observer(LayerObserver* observer) { g_observer = observer; }
LayerObserver* layer_observer() { return g_observer; }

const std::vector<ElementwiseCost>& elementwise_costs() {
  static const std::vector<ElementwiseCost> table = {
      {"ReLU", "element", "1", "1", "compare and select / select dout"},
      {"GELU", "element", "9", "19",
       "the formula's nine operations (x·x·x, ·0.044715, +x, ·√(2/π), tanh, 1+, ·x, ·0.5), tanh "
       "counted as one / up to tanh again (6) and the derivative (13)"},
      {"Sigmoid", "element", "4", "3", "negate, exp, add 1, divide / dout·y·(1−y)"},
      {"Softmax", "element", "5", "4",
       "max, subtract, exp, sum, divide / Σ dout·y (2), subtract, multiply by y"},
      {"LayerNorm", "element", "7", "11",
       "mean, centre, square and sum, ·rstd, ·gamma, +beta / dgamma (2), dbeta, ·gamma, two "
       "row sums (3), combine (4)"},
      {"MaxPool2d", "output element", "k² − 1", "1",
       "comparisons within the k×k window / scatter dout to the maximum"},
      {"attention scores", "score (B·heads·T·T)", "6", "5",
       "scale by 1/√d_head and softmax / softmax backward and scale"},
      {"residual add", "element of (B, T, D)", "1", "1",
       "the two skip connections of a TransformerBlock"},
      {"Conv2d col2im", "element of the im2col matrix", "0", "1",
       "backward scatter-add of dcol into dinput"},
  };
  return table;
}

// ---------------------------------------------------------------------------------------
// Layer

std::string Layer::label() const {
  std::string text(type());
  if (index_) text += " #" + std::to_string(*index_);
  return text;
}

void Layer::throw_chain_error(const std::string& standalone, const std::string& in_model) const {
  throw ShapeError(index_ ? in_model : error_prefix() + standalone);
}

std::string Layer::spec_field(std::string_view field) const {
  return "layers[" + std::to_string(index_.value_or(0)) + "]." + std::string(field);
}

std::string Layer::input_source() const {
  return index_.value_or(0) == 0 ? "the model input" : "the previous layer";
}

void Layer::throw_size_mismatch(std::string_view field, std::size_t expected, std::size_t got,
                                const char* singular, const char* plural) const {
  const std::string f = spec_field(field);
  throw_chain_error("input has " + detail::count_of(got, singular, plural) + ", layer expects " +
                        std::to_string(expected),
                    f + " is " + std::to_string(expected) + " but " + input_source() + " gives " +
                        detail::count_of(got, singular, plural) + "; set " + f + " to " +
                        std::to_string(got));
}

void Layer::throw_rank_mismatch(const std::string& need, const Shape& got) const {
  // "got (2, 8)" after "shape (N, C, H, W)", "got shape (5)" after "at least 2 dimensions".
  const bool exact = need.rfind("shape ", 0) == 0;
  throw_chain_error(
      "input must have " + need + ", got " + (exact ? "" : "shape ") + shape_to_string(got),
      spec_field("type") + " " + std::string(type()) + " needs an input of " + need + ", but " +
          input_source() + " gives " + shape_to_string(got) + "; " +
          (index_.value_or(0) == 0 ? "change the spec's input"
                                   : "change the layers before it or this layer's type"));
}

std::size_t Layer::activation_bytes(const Shape& input) const {
  const std::size_t n = shape_numel(output_shape(input));
  if (n > std::numeric_limits<std::size_t>::max() / sizeof(float)) {
    throw ValueError(error_prefix() + "output " + shape_to_string(output_shape(input)) +
                     " has more bytes than this build can address");
  }
  return n * sizeof(float);
}

std::size_t Layer::parameter_count() const {
  std::size_t n = 0;
  for (const Entry& e : params_) n += e.value->size();
  return n;
}

std::vector<ParameterRef> Layer::parameters() {
  std::vector<ParameterRef> refs;
  refs.reserve(params_.size());
  for (const Entry& e : params_) refs.push_back({e.name, e.value, e.grad});
  return refs;
}

void Layer::zero_grad() {
  for (const Entry& e : params_) std::fill(e.grad->data(), e.grad->data() + e.grad->size(), 0.0f);
}

void Layer::reset_parameters(std::uint64_t, Init) { zero_grad(); }

Tensor Layer::forward(const Tensor& x) {
  ObserverScope scope(*this, Pass::Forward);
  const Shape out_shape = output_shape(x.shape());
  kept_input_shape_.reset();
  Tensor y = forward_impl(x, out_shape);
  if (keep_) kept_input_shape_ = x.shape();
  return y;
}

Tensor Layer::backward(const Tensor& dout) {
  ObserverScope scope(*this, Pass::Backward);
  if (!kept_input_shape_) {
    throw Error(error_prefix() +
                "backward needs a forward pass first, run with keep_for_backward on");
  }
  const Shape expected = output_shape(*kept_input_shape_);
  if (dout.shape() != expected) {
    throw ShapeError(error_prefix() + "dout has shape " + shape_to_string(dout.shape()) +
                     ", expected " + shape_to_string(expected) +
                     " (the output of the last forward)");
  }
  // Without parameters the whole backward is dinput: nothing to compute when it is off.
  if (!input_grad_ && params_.empty()) return Tensor();
  return backward_impl(dout, *kept_input_shape_);
}

FlopCounts Layer::input_grad_flops_per_sample(const Shape& input) const {
  return params_.empty() ? backward_flops_per_sample(input) : FlopCounts{};
}

FlopCounts Layer::backward_flops_for(const Shape& input, bool input_grad) const {
  FlopCounts f = backward_flops_per_sample(input);
  if (input_grad) return f;
  const FlopCounts dx = input_grad_flops_per_sample(input);
  f.matmul -= dx.matmul;
  f.bias -= dx.bias;
  f.elementwise -= dx.elementwise;
  return f;
}

void Layer::set_keep_for_backward(bool keep) {
  keep_ = keep;
  for (Layer* part : parts_) part->set_keep_for_backward(keep);
}

void Layer::register_parameter(std::string name, Tensor& value, Tensor& grad) {
  params_.push_back({std::move(name), &value, &grad});
}

void Layer::register_part(const std::string& prefix, Layer& part) {
  for (const Entry& e : part.params_) params_.push_back({prefix + "." + e.name, e.value, e.grad});
  parts_.push_back(&part);
}

// ---------------------------------------------------------------------------------------
// im2col / col2im

std::size_t conv_output_size(std::size_t input, std::size_t kernel, std::size_t stride,
                             std::size_t padding) {
  if (stride == 0) throw ValueError("conv_output_size: stride must be a positive integer, got 0");
  if (input + 2 * padding < kernel) {
    throw ValueError("conv_output_size: kernel " + std::to_string(kernel) +
                     " is larger than the padded input " + std::to_string(input + 2 * padding) +
                     " (" + std::to_string(input) + " with padding " + std::to_string(padding) +
                     ")");
  }
  return (input + 2 * padding - kernel) / stride + 1;
}

namespace {

// Calls f(col_index, x_index or -1 for padding) over the im2col matrix, row by row. Both
// directions share it, so they cannot disagree on the layout.
template <class F>
void for_each_patch_entry(std::size_t C, std::size_t H, std::size_t W, std::size_t k,
                          std::size_t stride, std::size_t padding, F f) {
  const std::size_t Ho = conv_output_size(H, k, stride, padding);
  const std::size_t Wo = conv_output_size(W, k, stride, padding);
  const auto pad = static_cast<std::ptrdiff_t>(padding);
  std::size_t col = 0;
  for (std::size_t c = 0; c < C; ++c) {
    for (std::size_t i = 0; i < k; ++i) {
      for (std::size_t j = 0; j < k; ++j) {
        for (std::size_t oh = 0; oh < Ho; ++oh) {
          const std::ptrdiff_t ih = static_cast<std::ptrdiff_t>(oh * stride + i) - pad;
          const bool row_inside = ih >= 0 && ih < static_cast<std::ptrdiff_t>(H);
          for (std::size_t ow = 0; ow < Wo; ++ow, ++col) {
            const std::ptrdiff_t iw = static_cast<std::ptrdiff_t>(ow * stride + j) - pad;
            if (row_inside && iw >= 0 && iw < static_cast<std::ptrdiff_t>(W)) {
              f(col, static_cast<std::ptrdiff_t>((c * H + static_cast<std::size_t>(ih)) * W) + iw);
            } else {
              f(col, std::ptrdiff_t{-1});
            }
          }
        }
      }
    }
  }
}

}  // namespace

void im2col(float* col, const float* x, std::size_t C, std::size_t H, std::size_t W,
            std::size_t kernel, std::size_t stride, std::size_t padding) {
  for_each_patch_entry(C, H, W, kernel, stride, padding, [&](std::size_t i, std::ptrdiff_t src) {
    col[i] = src < 0 ? 0.0f : x[src];
  });
}

void col2im(float* dx, const float* dcol, std::size_t C, std::size_t H, std::size_t W,
            std::size_t kernel, std::size_t stride, std::size_t padding) {
  for_each_patch_entry(C, H, W, kernel, stride, padding, [&](std::size_t i, std::ptrdiff_t dst) {
    if (dst >= 0) dx[dst] += dcol[i];
  });
}

// ---------------------------------------------------------------------------------------
// Linear

Linear::Linear(std::size_t in_features, std::size_t out_features, bool bias, std::uint64_t seed)
    : in_(in_features), out_(out_features), has_bias_(bias) {
  require_positive("Linear", "in", in_);
  require_positive("Linear", "out", out_);
  weight_ = Tensor({in_, out_});
  dweight_ = Tensor({in_, out_});
  register_parameter("weight", weight_, dweight_);
  if (has_bias_) {
    bias_ = Tensor({out_});
    dbias_ = Tensor({out_});
    register_parameter("bias", bias_, dbias_);
  }
  reset_parameters(seed);
}

void Linear::reset_parameters(std::uint64_t seed, Init init) {
  detail::init_weights(weight_, has_bias_ ? &bias_ : nullptr, seed, 0, in_, out_, init);
  zero_grad();
}

Shape Linear::output_shape(const Shape& input) const {
  if (input.size() < 2) throw_rank_mismatch("at least 2 dimensions (batch, ..., features)", input);
  if (input.back() != in_) throw_size_mismatch("in", in_, input.back(), "feature", "features");
  Shape out = input;
  out.back() = out_;
  shape_numel(out);
  return out;
}

FlopCounts Linear::flops_per_sample(const Shape& input) const {
  output_shape(input);
  const double rows = static_cast<double>(product(input, 1, input.size() - 1));
  FlopCounts f;
  f.matmul = 2.0 * static_cast<double>(in_) * static_cast<double>(out_) * rows;
  f.bias = has_bias_ ? static_cast<double>(out_) * rows : 0.0;
  return f;
}

FlopCounts Linear::backward_flops_per_sample(const Shape& input) const {
  FlopCounts f = flops_per_sample(input);
  f.matmul *= 2;  // dinput and dweight
  return f;       // bias: the sums that form dbias, one per output element
}

FlopCounts Linear::input_grad_flops_per_sample(const Shape& input) const {
  FlopCounts f;
  f.matmul = flops_per_sample(input).matmul;  // dinput = dout · Wᵀ, the forward's size
  return f;
}

Tensor Linear::forward_impl(const Tensor& x, const Shape& out_shape) {
  x_ = Tensor();  // free the old cache before allocating the output
  Tensor y(out_shape);
  const std::size_t R = x.size() / in_;
  detail::dense_forward(y.data(), x.data(), weight_.data(), has_bias_ ? bias_.data() : nullptr, R,
                        in_, out_);
  if (keep_for_backward()) x_ = x;
  return y;
}

Tensor Linear::backward_impl(const Tensor& dout, const Shape& input_shape) {
  Tensor dx = input_grad() ? Tensor(input_shape) : Tensor();
  const std::size_t R = shape_numel(input_shape) / in_;
  detail::dense_backward(input_grad() ? dx.data() : nullptr, dweight_.data(),
                         has_bias_ ? dbias_.data() : nullptr, x_.data(), weight_.data(),
                         dout.data(), R, in_, out_);
  return dx;
}

// ---------------------------------------------------------------------------------------
// Conv2d

Conv2d::Conv2d(std::size_t in_channels, std::size_t out_channels, std::size_t kernel,
               std::size_t stride, std::size_t padding, bool bias, std::uint64_t seed)
    : in_channels_(in_channels),
      out_channels_(out_channels),
      kernel_(kernel),
      stride_(stride),
      padding_(padding),
      has_bias_(bias) {
  require_positive("Conv2d", "in_channels", in_channels_);
  require_positive("Conv2d", "out_channels", out_channels_);
  require_positive("Conv2d", "kernel", kernel_);
  require_positive("Conv2d", "stride", stride_);
  weight_ = Tensor({out_channels_, in_channels_, kernel_, kernel_});
  dweight_ = Tensor(weight_.shape());
  register_parameter("weight", weight_, dweight_);
  if (has_bias_) {
    bias_ = Tensor({out_channels_});
    dbias_ = Tensor({out_channels_});
    register_parameter("bias", bias_, dbias_);
  }
  reset_parameters(seed);
}

void Conv2d::reset_parameters(std::uint64_t seed, Init init) {
  const std::size_t k2 = kernel_ * kernel_;
  detail::init_weights(weight_, has_bias_ ? &bias_ : nullptr, seed, 0, in_channels_ * k2,
                       out_channels_ * k2, init);
  zero_grad();
}

Shape Conv2d::output_shape(const Shape& input) const {
  if (input.size() != 4) throw_rank_mismatch("shape (N, C, H, W)", input);
  if (input[1] != in_channels_) {
    throw_size_mismatch("in_channels", in_channels_, input[1], "channel", "channels");
  }
  const std::size_t H = input[2], W = input[3];
  if (H + 2 * padding_ < kernel_ || W + 2 * padding_ < kernel_) {
    const std::string padded =
        std::to_string(H + 2 * padding_) + "×" + std::to_string(W + 2 * padding_);
    const std::string hw = std::to_string(H) + "×" + std::to_string(W);
    throw_chain_error(
        "kernel " + std::to_string(kernel_) + " is larger than the padded input " + padded + " (" +
            hw + " with padding " + std::to_string(padding_) + ")",
        spec_field("kernel") + " is " + std::to_string(kernel_) + " but " + input_source() +
            " gives " + hw + " (" + padded + " with " + spec_field("padding") + " " +
            std::to_string(padding_) + "); set " + spec_field("kernel") + " to at most " +
            std::to_string(std::min(H, W) + 2 * padding_) + " or raise " + spec_field("padding"));
  }
  Shape out = {input[0], out_channels_, conv_output_size(H, kernel_, stride_, padding_),
               conv_output_size(W, kernel_, stride_, padding_)};
  shape_numel(out);
  return out;
}

FlopCounts Conv2d::flops_per_sample(const Shape& input) const {
  const Shape out = output_shape(input);
  const double positions = static_cast<double>(out[2]) * static_cast<double>(out[3]);
  const double patch = static_cast<double>(in_channels_ * kernel_ * kernel_);
  FlopCounts f;
  f.matmul = 2.0 * patch * static_cast<double>(out_channels_) * positions;
  f.bias = has_bias_ ? static_cast<double>(out_channels_) * positions : 0.0;
  return f;
}

FlopCounts Conv2d::backward_flops_per_sample(const Shape& input) const {
  const Shape out = output_shape(input);
  FlopCounts f = flops_per_sample(input);
  f.matmul *= 2;
  f.elementwise = flop_cost::kCol2im * static_cast<double>(in_channels_ * kernel_ * kernel_) *
                  static_cast<double>(out[2]) * static_cast<double>(out[3]);
  return f;
}

FlopCounts Conv2d::input_grad_flops_per_sample(const Shape& input) const {
  const FlopCounts b = backward_flops_per_sample(input);
  FlopCounts f;
  f.matmul = b.matmul / 2;        // dcol = Wᵀ · dout, the forward's size
  f.elementwise = b.elementwise;  // col2im
  return f;
}

std::string_view Conv2d::forward_path() const {
  // The fast paths assume the layers' default matmul (layers.hpp explains the rule).
  if (layer_matmul_variant() != detail::kLayerMatmulVariant) return "im2col";
  if (kernel_ == 1 && stride_ == 1 && padding_ == 0) return "gemm-1x1";
  if (stride_ == 1 && in_channels_ * kernel_ * kernel_ <= kDirectConvMaxPatch) return "direct";
  return "im2col";
}

Tensor Conv2d::forward_impl(const Tensor& x, const Shape& out_shape) {
  x_ = Tensor();
  Tensor y(out_shape);
  const std::size_t N = x.dim(0), H = x.dim(2), W = x.dim(3);
  const std::size_t patch = in_channels_ * kernel_ * kernel_;
  const std::size_t positions = out_shape[2] * out_shape[3];
  const std::size_t Hp = H + 2 * padding_, Wp = W + 2 * padding_;
  const std::string_view path = forward_path();
  // Scratch, one image at a time: the im2col matrix (C·k·k, Ho·Wo), or the padded image
  // (C, Hp, Wp) of the direct path; the 1×1 path reads the input itself.
  Tensor scratch;
  if (path == "im2col") scratch = Tensor({patch, positions});
  if (path == "direct" && padding_ > 0) scratch = Tensor({in_channels_, Hp, Wp});
  for (std::size_t n = 0; n < N; ++n) {
    const float* x_n = x.data() + n * in_channels_ * H * W;
    float* y_n = y.data() + n * out_channels_ * positions;
    if (path == "gemm-1x1") {
      // (C_out, C) @ (C, H·W): the image is its own im2col matrix.
      detail::gemm(y_n, weight_.data(), x_n, out_channels_, patch, positions);
    } else if (path == "direct") {
      const float* xp = x_n;
      if (padding_ > 0) {
        detail::pad_image(scratch.data(), x_n, in_channels_, H, W, padding_);
        xp = scratch.data();
      }
      detail::conv_direct_stride1(y_n, xp, weight_.data(), in_channels_, Hp, Wp, out_channels_,
                                  kernel_);
    } else {
      im2col(scratch.data(), x_n, in_channels_, H, W, kernel_, stride_, padding_);
      // (C_out, C·k·k) @ (C·k·k, Ho·Wo), written straight into this image's output.
      detail::gemm(y_n, weight_.data(), scratch.data(), out_channels_, patch, positions);
    }
    if (has_bias_) {
      for (std::size_t c = 0; c < out_channels_; ++c) {
        float* row = y_n + c * positions;
        const float b = bias_[c];
        for (std::size_t p = 0; p < positions; ++p) row[p] += b;
      }
    }
  }
  if (keep_for_backward()) x_ = x;
  return y;
}

Tensor Conv2d::backward_impl(const Tensor& dout, const Shape& input_shape) {
  const bool want_dx = input_grad();
  Tensor dx = want_dx ? Tensor(input_shape) : Tensor();
  const std::size_t N = input_shape[0], H = input_shape[2], W = input_shape[3];
  const std::size_t patch = in_channels_ * kernel_ * kernel_;
  const std::size_t positions = dout.dim(2) * dout.dim(3);
  // 1×1, stride 1, no padding: the image is its own im2col matrix and dcol is dx itself.
  const bool one_by_one = forward_path() == "gemm-1x1";
  Tensor col, dcol;
  if (!one_by_one) col = Tensor({patch, positions});
  if (!one_by_one && want_dx) dcol = Tensor({patch, positions});
  Tensor col_t({positions, patch});
  Tensor weight_t, dweight_n({out_channels_, patch});
  if (want_dx) {
    weight_t = Tensor({patch, out_channels_});
    detail::transpose(weight_t.data(), weight_.data(), out_channels_, patch);
  }
  for (std::size_t n = 0; n < N; ++n) {
    const float* dout_n = dout.data() + n * out_channels_ * positions;
    const float* x_n = x_.data() + n * in_channels_ * H * W;
    float* dx_n = want_dx ? dx.data() + n * in_channels_ * H * W : nullptr;
    // dweight += dout_n (C_out, Ho·Wo) @ colᵀ (Ho·Wo, C·k·k); im2col is recomputed.
    if (!one_by_one) im2col(col.data(), x_n, in_channels_, H, W, kernel_, stride_, padding_);
    detail::transpose(col_t.data(), one_by_one ? x_n : col.data(), patch, positions);
    detail::gemm(dweight_n.data(), dout_n, col_t.data(), out_channels_, positions, patch);
    detail::add_into(dweight_.data(), dweight_n.data(), dweight_n.size());
    // dcol = weightᵀ (C·k·k, C_out) @ dout_n, scattered back onto the image.
    if (!want_dx) {
      // the first layer of a training step: no input gradient
    } else if (one_by_one) {
      detail::gemm(dx_n, weight_t.data(), dout_n, patch, out_channels_, positions);
    } else {
      detail::gemm(dcol.data(), weight_t.data(), dout_n, patch, out_channels_, positions);
      col2im(dx_n, dcol.data(), in_channels_, H, W, kernel_, stride_, padding_);
    }
    if (has_bias_) {
      for (std::size_t c = 0; c < out_channels_; ++c) {
        const float* row = dout_n + c * positions;
        float sum = 0.0f;
        for (std::size_t p = 0; p < positions; ++p) sum += row[p];
        dbias_[c] += sum;
      }
    }
  }
  return dx;
}

}  // namespace perflab
