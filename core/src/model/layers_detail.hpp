// Helpers shared by the layer files: raw-pointer products through the registered SIMD
// matmul kernel (so layers work on slices without copying into new tensors), transposes,
// the dense (Linear) forward/backward used by Linear and the attention projections, and
// parameter initialisation. Not part of the public API.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "perflab/model/layers.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab::detail {

// The kernel variants the layers run, named in one place so a faster registered variant
// can be adopted with one edit. The matmul one is the default of LayerMatmulVariantScope
// (layers.hpp), which experiments use to swap it for a while.
inline constexpr const char* kLayerMatmulVariant = "packed";
inline constexpr const char* kLayerGeluVariant = "fused-simd";

// out (M, N) = a (M, K) @ b (K, N), overwriting out, with the layers' matmul variant
// (kLayerMatmulVariant unless a LayerMatmulVariantScope is alive).
void gemm(float* out, const float* a, const float* b, std::size_t M, std::size_t K, std::size_t N);
// out (cols, rows) = in (rows, cols)ᵀ.
void transpose(float* out, const float* in, std::size_t rows, std::size_t cols);
// dst[i] += src[i].
void add_into(float* dst, const float* src, std::size_t n);

// y (R, out) = x (R, in) @ w (in, out) + b (out; nullptr: no bias).
void dense_forward(float* y, const float* x, const float* w, const float* b, std::size_t R,
                   std::size_t in, std::size_t out);
// Given dy (R, out): dx (R, in) = dy @ wᵀ (overwritten; skipped when dx is nullptr),
// dw (in, out) += xᵀ @ dy, db (out) += column sums of dy (skipped when nullptr).
// Scratch comes from tracked tensors, so memory numbers see it.
void dense_backward(float* dx, float* dw, float* db, const float* x, const float* w,
                    const float* dy, std::size_t R, std::size_t in, std::size_t out);

// y (rows, cols) = softmax(scale · x) per row, the row maximum subtracted first; y may be x.
void softmax_rows(float* y, const float* x, std::size_t rows, std::size_t cols, float scale);
// dx = y ⊙ (dy − Σ_row dy·y), the softmax backward given its output y; dx may be dy.
void softmax_rows_backward(float* dx, const float* y, const float* dy, std::size_t rows,
                           std::size_t cols);

// Conv2d's direct path (conv2d_direct.cpp). pad_image: xp (C, H+2p, W+2p) = x (C, H, W) with
// a zero border of width padding. conv_direct_stride1: y (F, Ho, Wo) = the stride-1
// convolution of the padded xp (C, Hp, Wp) with w (F, C, k, k), overwriting y; Ho = Hp − k + 1.
void pad_image(float* xp, const float* x, std::size_t C, std::size_t H, std::size_t W,
               std::size_t padding);
void conv_direct_stride1(float* y, const float* xp, const float* w, std::size_t C, std::size_t Hp,
                         std::size_t Wp, std::size_t F, std::size_t k);

// Uniform in [−bound, bound) from a generator seeded with seed.
void fill_uniform(Tensor& t, std::uint64_t seed, double bound);
// A weight (and its bias, or nullptr) drawn by the scheme of `init` (layers.hpp's Init):
// the one place weights are initialised. Weight from derive_seed(seed, 2·part), bias from
// derive_seed(seed, 2·part + 1) (part 0: what Linear and Conv2d always used).
void init_weights(Tensor& weight, Tensor* bias, std::uint64_t seed, std::uint64_t part,
                  std::size_t fan_in, std::size_t fan_out, Init init);
// An independent seed for part i of a layer seeded with seed.
std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t part);

// Product of shape[first, last).
std::size_t product(const Shape& shape, std::size_t first, std::size_t last);
// "1 channel", "3 channels".
std::string count_of(std::size_t n, const char* singular, const char* plural);

}  // namespace perflab::detail
