// LayerNorm over the last axis as a standalone kernel: the naive three passes (mean,
// variance, normalise) and two fused passes (a one-pass, numerically stable mean and variance,
// then normalise), each registered by name, and their FLOP/byte counts for the roofline.
// kernels/ includes nothing from roofline/ (kernel.hpp says why).
// Not for: the LayerNorm layer (layers.hpp owns parameters and backward), or other axes.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "perflab/kernels/kernel.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// y = (x − mean) / sqrt(var + eps) · gamma + beta for each row of the last axis (D features),
// with the population variance (divide by D), as PyTorch's LayerNorm. gamma and beta have
// shape (D). Variants:
//   "naive": three passes over each row, scalar, float sums (the reference): mean; variance
//            as the mean of (x − mean)²; normalise;
//   "fused": two passes on vectors: mean and variance in one pass by blocks of 4 values per
//            lane merged with Chan's update (stable when |mean| ≫ std, where sum and
//            sum-of-squares would cancel), then normalise; the default.
// Errors: ShapeError for a 0-D x or a gamma/beta of the wrong shape, ValueError for eps not
// finite and above 0, or an unknown variant.
const std::vector<KernelInfo>& layernorm_variants();
Tensor layernorm(const Tensor& x, const Tensor& gamma, const Tensor& beta, double eps = 1e-5,
                 std::string_view variant = "fused");

// Costs of LayerNorm over rows × cols (n = rows·cols). FLOPs: 7 per element (mean 1,
// centre 1, square and sum 2, ·rstd 1, ·gamma and +beta 2), the LayerNorm layer's count;
// per-row division and sqrt not counted. Bytes, each pass reading its inputs and writing its
// output once, gamma and beta read once per call (8·cols):
//   naive  16n + 8·cols: mean reads x (4n), variance reads x (4n), normalise reads x and
//                        writes y (8n);
//   fused  12n + 8·cols: statistics read x (4n), normalise reads x and writes y (8n).
OpCost cost_layernorm_naive(std::size_t rows, std::size_t cols);
OpCost cost_layernorm_fused(std::size_t rows, std::size_t cols);

}  // namespace perflab
