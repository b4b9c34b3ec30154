// Internal: the packed 2-D matmul kernel that matmul_packed.cpp defines, for matmul.cpp's
// variant list. Shapes as matmul.hpp's MatmulKernel: out (M, N) = a (M, K) @ b (K, N),
// row-major, out overwritten. Its shape and cache blocking (kPackedMR, ...) and its code are
// in perflab/detail/kernel_bands.hpp, shared with the kernel engine. Not a public header.
#pragma once

#include <cstddef>

namespace perflab::detail {

// matmul_packed.cpp: packing of b + register-blocked micro-kernel (GotoBLAS/BLIS), one thread.
void matmul_packed(float* out, const float* a, const float* b, std::size_t M, std::size_t K,
                   std::size_t N);

}  // namespace perflab::detail
