// Layers of the model spec (docs/MODEL_SPEC.md): each knows its output shape, its
// parameters, its FLOPs by the lab's convention, and runs forward and backward (gradients
// for its input and its parameters) on float32 tensors. Dimension names: images (N, C, H, W),
// sequences (B, T, D), and a layer's "sample" is one index of the first (batch) dimension.
// Not for: autograd graphs, optimizers, dropout or masks; layers keep their own caches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "perflab/kernels/elementwise.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// ---------------------------------------------------------------------------------------
// FLOPs. The headline number is the textbook convention: 2 FLOPs per multiply-accumulate
// in Linear, Conv2d and attention matmuls, per sample (batch-size independent). The other
// two categories are reported beside it so that nothing is hidden:
//   bias         1 per bias add (Linear, Conv2d, the four attention projections);
//   elementwise  the documented per-element costs below.
// Element-wise costs, forward / backward, counted per element of the tensor named:
//   ReLU                     1 / 1   compare-select / select of dout
//   GELU                     9 / 19  the formula's operations (x·x, ·x, ·0.044715, +x,
//                                    ·√(2/π), tanh, 1+, ·x, ·0.5; tanh counts as one), the
//                                    kernels' kGeluFlopsPerElement / the same six up to
//                                    tanh, then 13 for the derivative
//                                    0.5(1+t) + 0.5x(1−t²)√(2/π)(1+3·0.044715x²), times dout
//   Sigmoid                  4 / 3   negate, exp, 1+, divide / dout·y·(1−y)
//   Softmax (per input)      5 / 4   max, subtract, exp, sum, divide / Σ dout·y (2),
//                                    subtract, multiply by y
//   LayerNorm (per input)    7 / 11  mean (1), centre (1), square and sum (2), ·rstd (1),
//                                    ·gamma and +beta (2) / dgamma (2), dbeta (1), ·gamma (1),
//                                    two row sums (3), combine (4); per-row sqrt not counted
//   MaxPool2d (per output)   k²−1 / 1  comparisons in the window / scatter of dout
//   attention scores         6 / 5   per score element (B·heads·T·T): scale by 1/√d_head (1)
//                                    + softmax (5) / softmax backward (4) + scale (1)
//   residual add (block)     1 / 1   per element of (B, T, D), two per TransformerBlock
//   Conv2d col2im (backward) 1       per element of the im2col matrix (scatter-add)
// A layer's full backward costs 2× its forward matmul FLOPs (dinput and dweight each cost
// one forward matmul); backward bias FLOPs are the sums that form dbias (1 per output
// element). A training step needs no dinput for the model's first layer (nothing upstream
// reads it): Model::backward_parameters skips it and Model's backward counts leave it out,
// so a model's backward is below 2× forward (a single Linear: dweight only, 1× forward).
// The original course's "backward ≈ 2 × forward" is reported beside the count as an estimate.
// Counts are doubles: exact integers below 2^53, and no overflow for silly specs.
struct FlopCounts {
  double matmul = 0;  // the headline number
  double bias = 0;
  double elementwise = 0;
  double total() const { return matmul + bias + elementwise; }
  FlopCounts& operator+=(const FlopCounts& o) {
    matmul += o.matmul;
    bias += o.bias;
    elementwise += o.elementwise;
    return *this;
  }
  friend FlopCounts operator+(FlopCounts a, const FlopCounts& b) { return a += b; }
  friend FlopCounts operator*(FlopCounts a, double k) {
    a.matmul *= k;
    a.bias *= k;
    a.elementwise *= k;
    return a;
  }
  friend bool operator==(const FlopCounts&, const FlopCounts&) = default;
};

// The table above as constants, so the profiler and the page show the same numbers.
namespace flop_cost {
inline constexpr double kReluForward = 1, kReluBackward = 1;
// Forward is the kernels' count (elementwise.hpp; one constant, so the profiler and the
// roofline agree); backward recomputes the six operations up to tanh and adds the
// derivative's 13.
inline constexpr double kGeluForward = kGeluFlopsPerElement, kGeluBackward = 6 + 13;
inline constexpr double kSigmoidForward = 4, kSigmoidBackward = 3;
inline constexpr double kSoftmaxForward = 5, kSoftmaxBackward = 4;
inline constexpr double kLayerNormForward = 7, kLayerNormBackward = 11;
inline constexpr double kMaxPoolBackward = 1;  // forward is kernel² − 1 per output
inline constexpr double kAttentionScoreForward = 6, kAttentionScoreBackward = 5;
inline constexpr double kResidualAdd = 1;
inline constexpr double kCol2im = 1;
}  // namespace flop_cost

// One row of the table above, for display; the numbers the counts use are the constants.
struct ElementwiseCost {
  std::string op;       // "GELU"
  std::string per;      // what one count is per: "element", "output element", "score"
  std::string forward;  // FLOPs, as text because MaxPool2d's is "k² − 1"
  std::string backward;
  std::string note;  // what is counted, in words
};
const std::vector<ElementwiseCost>& elementwise_costs();

// ---------------------------------------------------------------------------------------
// The matmul variant behind Linear, Conv2d and the attention projections ("packed" unless
// overridden). The override is scoped: it lasts while the scope object lives and restores
// the previous variant when it dies, so an experiment ("the same Linear with loops, then
// vectorized") cannot leave the model running slow kernels. Process-wide and not
// thread-safe, as the lab is single-threaded. Throws ValueError for an unknown variant.
struct MatmulVariant;
class LayerMatmulVariantScope {
 public:
  explicit LayerMatmulVariantScope(std::string_view variant);
  ~LayerMatmulVariantScope();
  LayerMatmulVariantScope(const LayerMatmulVariantScope&) = delete;
  LayerMatmulVariantScope& operator=(const LayerMatmulVariantScope&) = delete;

 private:
  const MatmulVariant* previous_;
};
// The variant layers run now: "packed", or the innermost scope's.
std::string_view layer_matmul_variant();

// ---------------------------------------------------------------------------------------
// im2col / col2im for one image, square kernel, zero padding.
//   x    (C, H, W)
//   col  (C·k·k, Ho·Wo): row (c·k + i)·k + j, column oh·Wo + ow holds
//        x[c, oh·stride − padding + i, ow·stride − padding + j], or 0 inside the padding.
// Then a convolution is W (C_out, C·k·k) @ col = out (C_out, Ho·Wo).
// Ho = conv_output_size(H, k, stride, padding), Wo likewise. Callers validate sizes.

// floor((input + 2·padding − kernel) / stride) + 1; requires input + 2·padding >= kernel
// and stride >= 1 (throws ValueError otherwise).
std::size_t conv_output_size(std::size_t input, std::size_t kernel, std::size_t stride,
                             std::size_t padding);
// Overwrites col.
void im2col(float* col, const float* x, std::size_t C, std::size_t H, std::size_t W,
            std::size_t kernel, std::size_t stride, std::size_t padding);
// The adjoint: dx (C, H, W) += the entries of dcol, each added to the pixel it was copied
// from (padding entries are dropped). Accumulates: zero dx first for a plain result.
void col2im(float* dx, const float* dcol, std::size_t C, std::size_t H, std::size_t W,
            std::size_t kernel, std::size_t stride, std::size_t padding);

// ---------------------------------------------------------------------------------------
// How reset_parameters draws a layer's weights: uniform, from the layer's seed, with
// fan_in = Linear in, Conv2d in_channels·k², attention d_model and fan_out = Linear out,
// Conv2d out_channels·k², attention d_model.
//   Uniform  weights and biases in ±1/√fan_in (PyTorch's default; what a spec's seed gives)
//   He       weights in ±√(6/fan_in), variance 2/fan_in, which keeps the activations' scale
//            through ReLU layers (He et al. 2015); biases 0
//   Xavier   weights in ±√(6/(fan_in + fan_out)), variance 2/(fan_in + fan_out), for
//            symmetric activations (Glorot and Bengio 2010); biases 0
// LayerNorm is gamma 1, beta 0 under every scheme. Training picks one: TrainRecipe::init (train/train.hpp).
enum class Init { Uniform, He, Xavier };

// A parameter and its gradient, as the optimizer (and optimizer-state sizing) sees them.
// name: "weight", "bias", "gamma", "beta"; composite layers prefix their parts
// ("attn.q.weight"), Model prefixes the layer index ("3.attn.q.weight").
struct ParameterRef {
  std::string name;
  Tensor* value = nullptr;
  Tensor* grad = nullptr;  // same shape as value; backward accumulates into it
};

class Layer;

// Sees every Layer::forward and Layer::backward, nested calls included (a TransformerBlock's
// parts run inside it). on_end runs even when the call throws. ProfilerContext installs one.
enum class Pass { Forward, Backward };
class LayerObserver {
 public:
  virtual ~LayerObserver() = default;
  virtual void on_begin(const Layer& layer, Pass pass) = 0;
  virtual void on_end(const Layer& layer, Pass pass) = 0;
};
// Not owned; nullptr (the default) removes it. Single-threaded, like the rest of core.
void set_layer_observer(LayerObserver* observer);
LayerObserver* layer_observer();

// The layer interface. Shapes always include the batch dimension; every count "per sample"
// is for one index of dimension 0 and does not depend on the batch size.
// Errors start with the layer's label ("Linear #2" inside a model, "Linear" alone):
// ShapeError for inputs that do not fit, ValueError for bad constructor arguments, Error
// for a backward without a kept forward. Exception: output_shape's errors for a layer inside
// a model (index set) are chain errors, written for the spec's author in the parse errors'
// form: they name the field to change, "layers[2].in is 256 but the previous layer gives
// 300 features; set layers[2].in to 300" (standalone: "Linear: input has 300 features,
// layer expects 256").
class Layer {
 public:
  Layer(const Layer&) = delete;
  Layer& operator=(const Layer&) = delete;
  virtual ~Layer() = default;

  virtual std::string_view type() const = 0;  // "Linear", as in the spec
  std::string label() const;                  // "Linear #2" or "Linear"
  void set_index(std::optional<std::size_t> index) { index_ = index; }
  std::optional<std::size_t> index() const { return index_; }

  // Validates the input shape (ShapeError naming what was expected) and returns the output.
  virtual Shape output_shape(const Shape& input) const = 0;
  // Per sample; validates like output_shape.
  virtual FlopCounts flops_per_sample(const Shape& input) const = 0;
  virtual FlopCounts backward_flops_per_sample(const Shape& input) const = 0;
  // The part of backward_flops_per_sample that only the input gradient costs: what a backward
  // with set_input_grad(false) does not compute. Default: all of it for a layer without
  // parameters (its backward is dinput), none for one with parameters; Linear and Conv2d
  // override it (their dinput matmul, and col2im). LayerNorm and the attention layers
  // compute dinput anyway (their parameter gradients need it inside), so none is skipped.
  virtual FlopCounts input_grad_flops_per_sample(const Shape& input) const;
  // backward_flops_per_sample, less input_grad_flops_per_sample when input_grad is false.
  FlopCounts backward_flops_for(const Shape& input, bool input_grad) const;
  // Bytes of this layer's output for the whole batch: numel(output_shape(input)) × 4.
  std::size_t activation_bytes(const Shape& input) const;

  std::size_t parameter_count() const;
  std::size_t parameter_bytes() const { return parameter_count() * sizeof(float); }
  std::vector<ParameterRef> parameters();
  void zero_grad();
  // Deterministic in the seed: weights and biases by the scheme (Init above: by default
  // uniform in ±1/√fan_in, as PyTorch's default), LayerNorm gamma 1 and beta 0. Gradients
  // are zeroed.
  virtual void reset_parameters(std::uint64_t seed, Init init = Init::Uniform);

  // Validates x, runs, and (when keep_for_backward is on) keeps what backward needs.
  // Kept tensors are copies: a Tensor has no shared views.
  Tensor forward(const Tensor& x);
  // dout has the shape of the last forward's output. Returns dinput and ADDS the parameter
  // gradients into grad (call zero_grad() between steps). Throws Error when no forward was
  // kept, ShapeError when dout has the wrong shape. Repeatable: the cache stays until the
  // next forward.
  Tensor backward(const Tensor& dout);

  // On (the default): forward keeps its cache for backward. Off: inference, nothing kept,
  // earlier caches are freed by the next forward. Applies to the parts of a composite layer.
  void set_keep_for_backward(bool keep);
  bool keep_for_backward() const { return keep_; }

  // On (the default): backward computes and returns dinput. Off: backward computes only
  // what input_grad_flops_per_sample leaves out of the count, i.e. the parameter gradients,
  // and returns an empty tensor where it skipped dinput (Linear, Conv2d, layers without
  // parameters). Model::backward_parameters turns it off for the first layer.
  void set_input_grad(bool on) { input_grad_ = on; }
  bool input_grad() const { return input_grad_; }

 protected:
  Layer() = default;
  // x has been validated; out_shape = output_shape(x.shape()). Keep a cache only when
  // keep_for_backward() is true, and drop the old one otherwise.
  virtual Tensor forward_impl(const Tensor& x, const Shape& out_shape) = 0;
  // dout has been validated against the kept forward; input_shape is that forward's input.
  virtual Tensor backward_impl(const Tensor& dout, const Shape& input_shape) = 0;
  // Registration (from constructors) makes parameters(), counts and zero_grad work.
  void register_parameter(std::string name, Tensor& value, Tensor& grad);
  void register_part(const std::string& prefix, Layer& part);
  // "Linear #2: " + what.
  std::string error_prefix() const { return label() + ": "; }
  // Chain errors from output_shape: inside a model (index set) throws ShapeError(in_model),
  // standalone ShapeError(error_prefix() + standalone). in_model is built with the two below.
  [[noreturn]] void throw_chain_error(const std::string& standalone,
                                      const std::string& in_model) const;
  // "layers[2].in": the spec field of this layer (only meaningful when index() is set).
  std::string spec_field(std::string_view field) const;
  // Where this layer's input comes from: "the model input" (layer 0), "the previous layer".
  std::string input_source() const;
  // The common chain error: a size field that must equal what the input gives.
  //   standalone "input has 300 features, layer expects 256"
  //   in a model "layers[2].in is 256 but the previous layer gives 300 features; set
  //               layers[2].in to 300"
  [[noreturn]] void throw_size_mismatch(std::string_view field, std::size_t expected,
                                        std::size_t got, const char* singular,
                                        const char* plural) const;
  // A rank mismatch: need is "shape (N, C, H, W)" or "at least 2 dimensions (batch, ...)".
  //   standalone "input must have shape (N, C, H, W), got (2, 8)"
  //   in a model "layers[0].type Conv2d needs an input of shape (N, C, H, W), but the model
  //               input gives (2, 8); change the spec's input"
  [[noreturn]] void throw_rank_mismatch(const std::string& need, const Shape& got) const;

 private:
  struct Entry {
    std::string name;
    Tensor* value;
    Tensor* grad;
  };
  std::vector<Entry> params_;
  std::vector<Layer*> parts_;
  std::optional<std::size_t> index_;
  std::optional<Shape> kept_input_shape_;
  bool keep_ = true;
  bool input_grad_ = true;
};

// y = x · W + b over the last axis, any leading dimensions: x (..., in) -> (..., out).
class Linear final : public Layer {
 public:
  Linear(std::size_t in_features, std::size_t out_features, bool bias = true,
         std::uint64_t seed = 0);
  std::string_view type() const override { return "Linear"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;
  FlopCounts input_grad_flops_per_sample(const Shape& input) const override;
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform) override;

  std::size_t in_features() const { return in_; }
  std::size_t out_features() const { return out_; }
  bool has_bias() const { return has_bias_; }
  Tensor& weight() { return weight_; }  // (in, out), as the original course
  Tensor& bias() { return bias_; }      // (out); empty (size 0) without bias
  Tensor& dweight() { return dweight_; }
  Tensor& dbias() { return dbias_; }

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  std::size_t in_, out_;
  bool has_bias_;
  Tensor weight_, bias_, dweight_, dbias_;
  Tensor x_;  // kept input (..., in)
};

// 2-D convolution, NCHW, square kernel, zero padding: (N, C_in, H, W) -> (N, C_out, Ho, Wo).
// Three forward paths, one result (tests compare each with a direct double reference):
//   "gemm-1x1"  kernel 1, stride 1, padding 0: the image (C, H·W) already is the im2col
//               matrix, so W (C_out, C) @ x_n runs on it with no copy; backward too
//               (dweight += dout_n @ x_nᵀ, dx_n = Wᵀ @ dout_n, no col2im).
//   "direct"    stride 1 and a patch C·k·k <= kDirectConvMaxPatch (32): pad the image once,
//               then 4 output channels × 8 columns accumulate in vector registers over the
//               patch (conv2d_direct.cpp). Backward stays im2col + gemm + col2im.
//   "im2col"    everything else: im2col then the layers' matmul per image; backward matmuls
//               then col2im.
// Both fast paths need the layers' default matmul: under a LayerMatmulVariantScope every
// convolution takes "im2col" with the scoped variant, so "the same model with naive loops"
// really runs the naive loops.
// Why these rules: a throwaway program (not kept) timed one image's forward, fastest of 7
// runs of >= 20 ms each, against im2col + the packed matmul, built with g++ -O3 (SSE2) and
// em++ -O3 -msimd128 (run by Node 20) on a shared, loaded 2-core machine (so ±30%).
// Time ratio direct ÷ im2col, native / wasm:
//   cnn_28 conv1 1→8 k3 p1 28²  (patch 9)    0.69 / 0.37     1→4 k3 8²       (9)   0.66 / 0.43
//   3→8 k3 p1 32²               (patch 27)   0.30 / 0.34     3→16 k5 32²     (75)  0.63 / 0.56
//   cnn_28 conv2 8→16 k3 p1 14² (patch 72)   1.18 / 1.81     16→32 k3 p1 32² (144) 0.66 / 1.10
//   32→64 k3 p1 28²             (patch 288)  0.86 / 0.92     64→64 k3 p1 56² (576) 0.73 / 1.00
// so the direct path wins on both targets for every patch up to 32; above that it wins or
// loses with the output width (remainder columns run scalar: Wo = 14 loses, 32 wins), so
// those stay on im2col. Strided convolutions (the 7×7 stride-2 224² stem: a plain direct
// loop was 2.9× / 15.9× slower) stay on im2col too. 1×1: gemm on x took 0.74 / 0.78 of
// im2col + gemm (16→32 at 28²) and 0.82 / 0.88 (64→128), and beat the direct path in every
// 1×1 case measured.
inline constexpr std::size_t kDirectConvMaxPatch = 32;
class Conv2d final : public Layer {
 public:
  Conv2d(std::size_t in_channels, std::size_t out_channels, std::size_t kernel,
         std::size_t stride = 1, std::size_t padding = 0, bool bias = true, std::uint64_t seed = 0);
  std::string_view type() const override { return "Conv2d"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;
  FlopCounts input_grad_flops_per_sample(const Shape& input) const override;
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform) override;

  std::size_t in_channels() const { return in_channels_; }
  std::size_t out_channels() const { return out_channels_; }
  std::size_t kernel() const { return kernel_; }
  std::size_t stride() const { return stride_; }
  std::size_t padding() const { return padding_; }
  // The forward path this layer takes now: "gemm-1x1", "direct" or "im2col" (rule above).
  std::string_view forward_path() const;
  bool has_bias() const { return has_bias_; }
  Tensor& weight() { return weight_; }  // (C_out, C_in, k, k)
  Tensor& bias() { return bias_; }      // (C_out); empty without bias
  Tensor& dweight() { return dweight_; }
  Tensor& dbias() { return dbias_; }

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  std::size_t in_channels_, out_channels_, kernel_, stride_, padding_;
  bool has_bias_;
  Tensor weight_, bias_, dweight_, dbias_;
  Tensor x_;  // kept input; backward recomputes im2col rather than keeping it (k² larger)
};

// Element-wise activations: any shape with at least the batch dimension.
class ReLU final : public Layer {
 public:
  ReLU() = default;
  std::string_view type() const override { return "ReLU"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  Tensor x_;
};

// Tanh approximation, forward through the fused GELU kernel; backward analytic.
class GELU final : public Layer {
 public:
  GELU() = default;
  std::string_view type() const override { return "GELU"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  Tensor x_;
};

class Sigmoid final : public Layer {
 public:
  Sigmoid() = default;
  std::string_view type() const override { return "Sigmoid"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  Tensor y_;
};

// Over the last axis, numerically stable (the row maximum is subtracted before exp).
// Input: at least 2 dimensions (batch, ..., classes).
class Softmax final : public Layer {
 public:
  Softmax() = default;
  std::string_view type() const override { return "Softmax"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  Tensor y_;
};

// Over the last axis (features): (x − mean) / √(var + eps) · gamma + beta, biased variance.
class LayerNorm final : public Layer {
 public:
  explicit LayerNorm(std::size_t features, double eps = 1e-5);
  std::string_view type() const override { return "LayerNorm"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform) override;

  std::size_t features() const { return features_; }
  double eps() const { return eps_; }
  Tensor& gamma() { return gamma_; }  // (features)
  Tensor& beta() { return beta_; }
  Tensor& dgamma() { return dgamma_; }
  Tensor& dbeta() { return dbeta_; }

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  std::size_t features_;
  double eps_;
  Tensor gamma_, beta_, dgamma_, dbeta_;
  Tensor xhat_;  // kept (..., features): the normalised input
  Tensor rstd_;  // kept (rows): 1 / √(var + eps)
};

// Max over kernel×kernel windows, no padding: (N, C, H, W) -> (N, C, Ho, Wo).
// Ties go to the first element of the window; a NaN in a window wins (as PyTorch).
class MaxPool2d final : public Layer {
 public:
  // stride defaults to kernel.
  explicit MaxPool2d(std::size_t kernel, std::optional<std::size_t> stride = std::nullopt);
  std::string_view type() const override { return "MaxPool2d"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

  std::size_t kernel() const { return kernel_; }
  std::size_t stride() const { return stride_; }

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  std::size_t kernel_, stride_;
  Tensor argmax_;  // kept (N, C, Ho, Wo): index i·k + j of each maximum in its window
};

// (N, d1, d2, ...) -> (N, d1·d2·...). Input: at least 2 dimensions.
class Flatten final : public Layer {
 public:
  Flatten() = default;
  std::string_view type() const override { return "Flatten"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
};

// Self-attention over (B, T, D), no mask. Q = x·Wq + bq, K, V likewise (each (B, T, D),
// weights (D, D) in the Linear (in, out) layout), split into `heads` heads of
// d_head = D / heads columns; per head P = softmax(Q_h·K_hᵀ / √d_head) (T, T), O_h = P·V_h;
// the heads are concatenated back to (B, T, D) and projected: y = O·Wo + bo.
// Matmul FLOPs per sample: 4 projections 8·T·D² + scores and P·V 4·T²·D.
class MultiHeadAttention final : public Layer {
 public:
  MultiHeadAttention(std::size_t d_model, std::size_t heads, std::uint64_t seed = 0);
  std::string_view type() const override { return "MultiHeadAttention"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform) override;

  std::size_t d_model() const { return d_model_; }
  std::size_t heads() const { return heads_; }
  std::size_t d_head() const { return d_model_ / heads_; }
  // which: 'q', 'k', 'v' or 'o' (ValueError otherwise).
  Tensor& weight(char which);  // (D, D)
  Tensor& bias(char which);    // (D)
  Tensor& dweight(char which);
  Tensor& dbias(char which);

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  std::size_t slot(char which) const;
  std::size_t d_model_, heads_;
  Tensor w_[4], b_[4], dw_[4], db_[4];  // q, k, v, o
  // Kept: the input, Q, K, V and the concatenated heads (B, T, D); probabilities (B, H, T, T).
  Tensor x_, q_, k_, v_, ctx_, p_;
};

// Pre-norm transformer block over (B, T, D): h = x + MHA(LN1(x)); y = h + FFN(LN2(h)),
// FFN = Linear(D, d_ff) → GELU → Linear(d_ff, D). Parameters are named ln1.*, attn.*,
// ln2.*, ffn1.*, ffn2.*.
class TransformerBlock final : public Layer {
 public:
  TransformerBlock(std::size_t d_model, std::size_t heads, std::size_t d_ff,
                   std::uint64_t seed = 0);
  std::string_view type() const override { return "TransformerBlock"; }
  Shape output_shape(const Shape& input) const override;
  FlopCounts flops_per_sample(const Shape& input) const override;
  FlopCounts backward_flops_per_sample(const Shape& input) const override;
  void reset_parameters(std::uint64_t seed, Init init = Init::Uniform) override;

  std::size_t d_model() const { return attn_.d_model(); }
  std::size_t heads() const { return attn_.heads(); }
  std::size_t d_ff() const { return ffn1_.out_features(); }
  LayerNorm& ln1() { return ln1_; }
  MultiHeadAttention& attn() { return attn_; }
  LayerNorm& ln2() { return ln2_; }
  Linear& ffn1() { return ffn1_; }
  GELU& gelu() { return gelu_; }
  Linear& ffn2() { return ffn2_; }

 private:
  Tensor forward_impl(const Tensor& x, const Shape& out_shape) override;
  Tensor backward_impl(const Tensor& dout, const Shape& input_shape) override;
  LayerNorm ln1_;
  MultiHeadAttention attn_;
  LayerNorm ln2_;
  Linear ffn1_;
  GELU gelu_;
  Linear ffn2_;
};

}  // namespace perflab
