// Reductions: the sum of a tensor (sequential scalar vs SIMD pairwise) and softmax over the
// last axis (naive three passes vs two fused passes), each variant registered by name with a
// naive reference, and the FLOP/byte counts the roofline places them with. kernels/ includes
// nothing from roofline/ (kernel.hpp says why). Not for: reductions over other axes,
// keepdims, or a softmax temperature (layers scale their scores themselves).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "perflab/kernels/kernel.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

// Sum of all elements (0 for an empty tensor), in float:
//   "naive": one float accumulator, element after element (error grows like n·ε);
//   "simd":  blocks of 256 summed by four vector accumulators (16 partial sums), blocks
//            combined pairwise (error grows like log2(n)·ε), the default.
// Cost: cost_sum (n FLOPs, 4n bytes) for both.
const std::vector<KernelInfo>& sum_variants();
float sum(const Tensor& x, std::string_view variant = "simd");
// Sum of n floats to one: n FLOPs (n − 1 adds, counted as n), 4n bytes.
OpCost cost_sum(std::size_t n);

// Softmax over the last axis: y = e^(x − max) / Σ e^(x − max) per row, shape kept. A row
// holding NaN or +inf gives NaN throughout, and a row of −inf gives NaN (0/0), as NumPy's
// expression does. Variants:
//   "naive": three passes over each row, scalar, the C library's exp (the reference):
//            max; e = exp(x − max) written to y while summing; y /= sum;
//   "fused": two passes on vectors: an online max and sum of e^(x − max) (the sum is
//            rescaled by e^(old max − new max) whenever the max grows), then
//            y = e^(x − max) / sum, recomputing e^ instead of reading it back; the default.
// Errors: ShapeError for a 0-D tensor, ValueError for an unknown variant.
const std::vector<KernelInfo>& softmax_variants();
Tensor softmax(const Tensor& x, std::string_view variant = "fused");

// Costs of softmax over rows × cols (n = rows·cols elements). FLOPs: 5 per element (max,
// subtract, exp counted as one, sum, divide), the Softmax layer's count; per-row work not
// counted. Bytes: what the variant's passes move, each pass reading its inputs and writing
// its output once:
//   naive  20n: max reads x (4n), exp reads x and writes y (8n), normalise reads and
//               writes y (8n);
//   fused  12n: max+sum reads x (4n), normalise reads x and writes y (8n).
OpCost cost_softmax_naive(std::size_t rows, std::size_t cols);
OpCost cost_softmax_fused(std::size_t rows, std::size_t cols);

}  // namespace perflab
