// MultiHeadAttention (self-attention over (B, T, D), no mask) and the pre-norm
// TransformerBlock. Per (batch, head) the head's columns are gathered into contiguous
// (T, d_head) blocks so every product goes through the SIMD matmul kernel.
// Not for: masks, cross-attention, KV caches or fused attention kernels.
#include <cmath>
#include <string>

#include "layers_detail.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/matmul.hpp"
#include "perflab/model/layers.hpp"

namespace perflab {
namespace {

constexpr std::size_t kQ = 0, kK = 1, kV = 2, kO = 3;
constexpr const char* kSlotNames[4] = {"q", "k", "v", "o"};

// dst (T, dh) = columns [h·dh, (h+1)·dh) of src (T, D).
void gather_head(float* dst, const float* src, std::size_t T, std::size_t D, std::size_t h,
                 std::size_t dh) {
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < dh; ++j) dst[t * dh + j] = src[t * D + h * dh + j];
}

// dst (dh, T) = the same columns, transposed.
void gather_head_transposed(float* dst, const float* src, std::size_t T, std::size_t D,
                            std::size_t h, std::size_t dh) {
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < dh; ++j) dst[j * T + t] = src[t * D + h * dh + j];
}

// columns [h·dh, (h+1)·dh) of dst (T, D) = src (T, dh).
void scatter_head(float* dst, const float* src, std::size_t T, std::size_t D, std::size_t h,
                  std::size_t dh) {
  for (std::size_t t = 0; t < T; ++t)
    for (std::size_t j = 0; j < dh; ++j) dst[t * D + h * dh + j] = src[t * dh + j];
}

void require_heads(const char* layer, std::size_t d_model, std::size_t heads) {
  if (d_model == 0)
    throw ValueError(std::string(layer) + ": d_model must be a positive integer, got 0");
  if (heads == 0)
    throw ValueError(std::string(layer) + ": heads must be a positive integer, got 0");
  if (d_model % heads != 0) {
    throw ValueError(std::string(layer) + ": heads (" + std::to_string(heads) +
                     ") must divide d_model (" + std::to_string(d_model) + ")");
  }
}

}  // namespace

// ---------------------------------------------------------------------------------------
// MultiHeadAttention

MultiHeadAttention::MultiHeadAttention(std::size_t d_model, std::size_t heads, std::uint64_t seed)
    : d_model_(d_model), heads_(heads) {
  require_heads("MultiHeadAttention", d_model, heads);
  for (std::size_t s = 0; s < 4; ++s) {
    w_[s] = Tensor({d_model_, d_model_});
    dw_[s] = Tensor({d_model_, d_model_});
    b_[s] = Tensor({d_model_});
    db_[s] = Tensor({d_model_});
    register_parameter(std::string(kSlotNames[s]) + ".weight", w_[s], dw_[s]);
    register_parameter(std::string(kSlotNames[s]) + ".bias", b_[s], db_[s]);
  }
  reset_parameters(seed);
}

void MultiHeadAttention::reset_parameters(std::uint64_t seed, Init init) {
  for (std::size_t s = 0; s < 4; ++s) {
    detail::init_weights(w_[s], &b_[s], seed, s, d_model_, d_model_, init);
  }
  zero_grad();
}

std::size_t MultiHeadAttention::slot(char which) const {
  switch (which) {
    case 'q':
      return kQ;
    case 'k':
      return kK;
    case 'v':
      return kV;
    case 'o':
      return kO;
    default:
      throw ValueError(error_prefix() + "projection must be 'q', 'k', 'v' or 'o', got '" +
                       std::string(1, which) + "'");
  }
}
Tensor& MultiHeadAttention::weight(char which) { return w_[slot(which)]; }
Tensor& MultiHeadAttention::bias(char which) { return b_[slot(which)]; }
Tensor& MultiHeadAttention::dweight(char which) { return dw_[slot(which)]; }
Tensor& MultiHeadAttention::dbias(char which) { return db_[slot(which)]; }

Shape MultiHeadAttention::output_shape(const Shape& input) const {
  if (input.size() != 3) throw_rank_mismatch("shape (B, T, D)", input);
  if (input[2] != d_model_)
    throw_size_mismatch("d_model", d_model_, input[2], "feature", "features");
  shape_numel(input);
  return input;
}

FlopCounts MultiHeadAttention::flops_per_sample(const Shape& input) const {
  output_shape(input);
  const auto T = static_cast<double>(input[1]), D = static_cast<double>(d_model_);
  const auto H = static_cast<double>(heads_);
  FlopCounts f;
  f.matmul = 4 * (2 * T * D * D)     // q, k, v, o projections
             + 2 * (2 * T * T * D);  // Q·Kᵀ and P·V summed over heads
  f.bias = 4 * T * D;
  f.elementwise = flop_cost::kAttentionScoreForward * H * T * T;
  return f;
}

FlopCounts MultiHeadAttention::backward_flops_per_sample(const Shape& input) const {
  FlopCounts f = flops_per_sample(input);
  const auto T = static_cast<double>(input[1]), H = static_cast<double>(heads_);
  f.matmul *= 2;
  f.elementwise = flop_cost::kAttentionScoreBackward * H * T * T;
  return f;
}

Tensor MultiHeadAttention::forward_impl(const Tensor& x, const Shape& out_shape) {
  x_ = q_ = k_ = v_ = ctx_ = p_ = Tensor();
  const bool keep = keep_for_backward();
  const std::size_t B = x.dim(0), T = x.dim(1), D = d_model_, H = heads_, dh = d_head();
  const std::size_t R = B * T;
  const auto scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));

  Tensor q({B, T, D}), k({B, T, D}), v({B, T, D});
  detail::dense_forward(q.data(), x.data(), w_[kQ].data(), b_[kQ].data(), R, D, D);
  detail::dense_forward(k.data(), x.data(), w_[kK].data(), b_[kK].data(), R, D, D);
  detail::dense_forward(v.data(), x.data(), w_[kV].data(), b_[kV].data(), R, D, D);

  // Inference needs one (T, T) score block at a time; backward needs all of them.
  Tensor p = keep ? Tensor({B, H, T, T}) : Tensor({T, T});
  Tensor ctx({B, T, D});
  Tensor qh({T, dh}), kh_t({dh, T}), vh({T, dh}), oh({T, dh});
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t off = b * T * D;
    for (std::size_t h = 0; h < H; ++h) {
      float* scores = p.data() + (keep ? (b * H + h) * T * T : 0);
      gather_head(qh.data(), q.data() + off, T, D, h, dh);
      gather_head_transposed(kh_t.data(), k.data() + off, T, D, h, dh);
      gather_head(vh.data(), v.data() + off, T, D, h, dh);
      detail::gemm(scores, qh.data(), kh_t.data(), T, dh, T);  // Q_h·K_hᵀ (T, T)
      detail::softmax_rows(scores, scores, T, T, scale);
      detail::gemm(oh.data(), scores, vh.data(), T, T, dh);  // P·V_h (T, dh)
      scatter_head(ctx.data() + off, oh.data(), T, D, h, dh);
    }
  }
  Tensor y(out_shape);
  detail::dense_forward(y.data(), ctx.data(), w_[kO].data(), b_[kO].data(), R, D, D);
  if (keep) {
    x_ = x;
    q_ = std::move(q);
    k_ = std::move(k);
    v_ = std::move(v);
    ctx_ = std::move(ctx);
    p_ = std::move(p);
  }
  return y;
}

Tensor MultiHeadAttention::backward_impl(const Tensor& dout, const Shape& input_shape) {
  const std::size_t B = input_shape[0], T = input_shape[1], D = d_model_, H = heads_;
  const std::size_t dh = d_head(), R = B * T;
  const auto scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(dh)));

  Tensor dctx({B, T, D});
  detail::dense_backward(dctx.data(), dw_[kO].data(), db_[kO].data(), ctx_.data(), w_[kO].data(),
                         dout.data(), R, D, D);

  Tensor dq({B, T, D}), dk({B, T, D}), dv({B, T, D});
  Tensor doh({T, dh}), vh_t({dh, T}), qh({T, dh}), kh({T, dh});
  Tensor dqh({T, dh}), dkh({T, dh}), dvh({T, dh});
  Tensor dscores({T, T}), transposed({T, T});
  for (std::size_t b = 0; b < B; ++b) {
    const std::size_t off = b * T * D;
    for (std::size_t h = 0; h < H; ++h) {
      const float* probs = p_.data() + (b * H + h) * T * T;
      gather_head(doh.data(), dctx.data() + off, T, D, h, dh);
      gather_head_transposed(vh_t.data(), v_.data() + off, T, D, h, dh);
      // dV_h = Pᵀ·dO_h; dP = dO_h·V_hᵀ.
      detail::transpose(transposed.data(), probs, T, T);
      detail::gemm(dvh.data(), transposed.data(), doh.data(), T, T, dh);
      detail::gemm(dscores.data(), doh.data(), vh_t.data(), T, dh, T);
      // Through the softmax, then the 1/√d_head scale of the scores.
      detail::softmax_rows_backward(dscores.data(), probs, dscores.data(), T, T);
      for (std::size_t i = 0; i < T * T; ++i) dscores[i] *= scale;
      // dQ_h = dS·K_h; dK_h = dSᵀ·Q_h.
      gather_head(kh.data(), k_.data() + off, T, D, h, dh);
      gather_head(qh.data(), q_.data() + off, T, D, h, dh);
      detail::gemm(dqh.data(), dscores.data(), kh.data(), T, T, dh);
      detail::transpose(transposed.data(), dscores.data(), T, T);
      detail::gemm(dkh.data(), transposed.data(), qh.data(), T, T, dh);
      scatter_head(dq.data() + off, dqh.data(), T, D, h, dh);
      scatter_head(dk.data() + off, dkh.data(), T, D, h, dh);
      scatter_head(dv.data() + off, dvh.data(), T, D, h, dh);
    }
  }
  // x feeds all three projections: dx is the sum of their input gradients.
  Tensor dx(input_shape), part(input_shape);
  detail::dense_backward(dx.data(), dw_[kQ].data(), db_[kQ].data(), x_.data(), w_[kQ].data(),
                         dq.data(), R, D, D);
  detail::dense_backward(part.data(), dw_[kK].data(), db_[kK].data(), x_.data(), w_[kK].data(),
                         dk.data(), R, D, D);
  detail::add_into(dx.data(), part.data(), dx.size());
  detail::dense_backward(part.data(), dw_[kV].data(), db_[kV].data(), x_.data(), w_[kV].data(),
                         dv.data(), R, D, D);
  detail::add_into(dx.data(), part.data(), dx.size());
  return dx;
}

// ---------------------------------------------------------------------------------------
// TransformerBlock

namespace {
// Runs before the parts are built, so a bad argument is reported as the block's.
std::size_t checked_block_d_model(std::size_t d_model, std::size_t heads, std::size_t d_ff) {
  require_heads("TransformerBlock", d_model, heads);
  if (d_ff == 0) throw ValueError("TransformerBlock: d_ff must be a positive integer, got 0");
  return d_model;
}
}  // namespace

TransformerBlock::TransformerBlock(std::size_t d_model, std::size_t heads, std::size_t d_ff,
                                   std::uint64_t seed)
    : ln1_(checked_block_d_model(d_model, heads, d_ff)),
      attn_(d_model, heads, detail::derive_seed(seed, 1)),
      ln2_(d_model),
      ffn1_(d_model, d_ff, true, detail::derive_seed(seed, 2)),
      ffn2_(d_ff, d_model, true, detail::derive_seed(seed, 3)) {
  register_part("ln1", ln1_);
  register_part("attn", attn_);
  register_part("ln2", ln2_);
  register_part("ffn1", ffn1_);
  register_part("gelu", gelu_);
  register_part("ffn2", ffn2_);
}

void TransformerBlock::reset_parameters(std::uint64_t seed, Init init) {
  ln1_.reset_parameters(0);
  attn_.reset_parameters(detail::derive_seed(seed, 1), init);
  ln2_.reset_parameters(0);
  ffn1_.reset_parameters(detail::derive_seed(seed, 2), init);
  ffn2_.reset_parameters(detail::derive_seed(seed, 3), init);
}

Shape TransformerBlock::output_shape(const Shape& input) const {
  if (input.size() != 3) throw_rank_mismatch("shape (B, T, D)", input);
  if (input[2] != d_model()) {
    throw_size_mismatch("d_model", d_model(), input[2], "feature", "features");
  }
  shape_numel(input);
  return input;
}

FlopCounts TransformerBlock::flops_per_sample(const Shape& input) const {
  output_shape(input);
  const Shape hidden = {input[0], input[1], d_ff()};
  FlopCounts f = ln1_.flops_per_sample(input) + attn_.flops_per_sample(input) +
                 ln2_.flops_per_sample(input) + ffn1_.flops_per_sample(input) +
                 gelu_.flops_per_sample(hidden) + ffn2_.flops_per_sample(hidden);
  f.elementwise += 2 * flop_cost::kResidualAdd * static_cast<double>(input[1] * input[2]);
  return f;
}

FlopCounts TransformerBlock::backward_flops_per_sample(const Shape& input) const {
  output_shape(input);
  const Shape hidden = {input[0], input[1], d_ff()};
  FlopCounts f = ln1_.backward_flops_per_sample(input) + attn_.backward_flops_per_sample(input) +
                 ln2_.backward_flops_per_sample(input) + ffn1_.backward_flops_per_sample(input) +
                 gelu_.backward_flops_per_sample(hidden) + ffn2_.backward_flops_per_sample(hidden);
  // Where a residual branch rejoins, the two gradients are added.
  f.elementwise += 2 * flop_cost::kResidualAdd * static_cast<double>(input[1] * input[2]);
  return f;
}

// The parts validate again on the way (cheap); each keeps its own cache for backward.
Tensor TransformerBlock::forward_impl(const Tensor& x, const Shape&) {
  Tensor h = add(x, attn_.forward(ln1_.forward(x)));
  return add(h, ffn2_.forward(gelu_.forward(ffn1_.forward(ln2_.forward(h)))));
}

Tensor TransformerBlock::backward_impl(const Tensor& dout, const Shape&) {
  Tensor dh = ln2_.backward(ffn1_.backward(gelu_.backward(ffn2_.backward(dout))));
  detail::add_into(dh.data(), dout.data(), dh.size());  // the skip connection around the FFN
  Tensor dx = ln1_.backward(attn_.backward(dh));
  detail::add_into(dx.data(), dh.data(), dx.size());  // and around attention
  return dx;
}

}  // namespace perflab
