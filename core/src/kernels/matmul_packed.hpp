// Internal: the packed 2-D matmul kernel that matmul_packed.cpp defines, for matmul.cpp's
// variant list. Shapes as matmul.hpp's MatmulKernel: out (M, N) = a (M, K) @ b (K, N),
// row-major, out overwritten. Not a public header.
#pragma once

#include <cstddef>

namespace perflab::detail {

// matmul_packed.cpp: packing of b + register-blocked micro-kernel (GotoBLAS/BLIS).
void matmul_packed(float* out, const float* a, const float* b, std::size_t M, std::size_t K,
                   std::size_t N);

// The packed kernel's shape and cache blocking, for the bench and the docs.
inline constexpr std::size_t kPackedMR = 2;    // rows of out per micro-kernel call
inline constexpr std::size_t kPackedNR = 16;   // columns (four 4-float vectors)
inline constexpr std::size_t kPackedKC = 512;  // k per packed strip: b strip KC·NR·4 = 32 KiB
inline constexpr std::size_t kPackedMC = 64;   // rows of a per block: MC·KC·4 = 128 KiB (L2)
inline constexpr std::size_t kPackedNC = 512;  // columns of b per packed panel: 512 KiB

}  // namespace perflab::detail
