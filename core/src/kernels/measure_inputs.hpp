// Internal: what measure_matmul / measure_gelu share with the kernel engine's measurements
// (parallel.cpp): the size checks, the inputs drawn (same seeds, same ranges) and the
// verification against the reference, so a threaded or FMA point is measured on the same data
// and checked by the same rule as its single-thread twin. Not a public header.
#pragma once

#include <cstddef>
#include <string>

#include "perflab/tensor/tensor.hpp"

namespace perflab::detail {

// ValueError "n must be between 1 and 4096, got 0" (kMaxMeasureMatmulN).
void check_measure_matmul_n(std::size_t n);
struct SquareMatmulOperands {
  Tensor a, b;  // (n, n) each, Tensor::random with the measurement seeds
};
SquareMatmulOperands square_matmul_operands(std::size_t n);
// matmul_relative_error of out against a @ b computed by `reference` (a variant name of
// matmul_variants()); throws Error "<what> disagrees with <reference> at n=...: max relative
// error ... exceeds 1e-04" above kMatmulTolerance (or NaN). Returns the error.
double verify_square_matmul(const std::string& what, const std::string& reference,
                            const Tensor& a, const Tensor& b, const Tensor& out);

// ValueError "n must be between 1 and 67108864, got 0" (kMaxMeasureGeluN).
void check_measure_gelu_n(std::size_t n);
// n floats in [−4, 4), the measurement seed.
Tensor gelu_measure_input(std::size_t n);
// The largest |got − ref| / (1e-6 + 1e-5·|ref|) over x against gelu_reference; throws Error
// "<what> disagrees with the reference at x = ...: got ..., reference ..." at the first
// element above 1 (or NaN).
double verify_gelu(const std::string& what, const Tensor& x, const float* got);

}  // namespace perflab::detail
