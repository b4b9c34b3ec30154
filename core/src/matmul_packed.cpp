// The "packed" matmul: GotoBLAS/BLIS structure on 128-bit vectors. b is copied into k×NR
// strips and a into MR×k strips so the micro-kernel reads both with unit stride from cache,
// and the loops are blocked so that a b strip stays in L1, a block of a in L2 and a panel
// of b in L2/L3. Single thread. Not for: transposed operands, alpha/beta scaling, or
// anything but float32 row-major.
//
// Loop nest (BLIS names), out (M, N) += a (M, K) @ b (K, N):
//   for jc in N step NC:              panel of b columns
//     for pc in K step KC:            pack b[pc:pc+KC, jc:jc+NC] into NR-wide strips
//       for ic in M step MC:          pack a[ic:ic+MC, pc:pc+KC] into MR-tall strips
//         for jr in NC step NR:       one b strip (KC×NR, L1) ...
//           for ir in MC step MR:     ... against every a strip (MR×KC, L2)
//             micro-kernel: an MR×NR block of out in registers, KC rank-1 updates
// The first pc block stores into out, later ones add to it, so out is overwritten.
//
// Why 2×16 (MR×NR): the micro-kernel holds 8 accumulators, 4 b vectors, a broadcast and a
// product temporary, 14 of the 16 vector registers x86 has (V8's wasm code generator keeps
// one for itself), and broadcasts only 2 values of a per k. Measured on a Sapphire Rapids
// core, single thread: in Node 20 (wasm), 2×16 and 4×8 both reach 24-28 GFLOP/s at
// N = 256-512, about the probe's peak and ~90% of what three FP ports allow without FMA, 2×16
// a few percent ahead; natively (SSE2, where a broadcast is a shuffle competing with the
// adds) 2×16 is clearly ahead. 5×8, 6×8, 3×12 and 4×12 measured 15-25% slower (spills), and
// unrolling the k loop by 2 or 4 cost 15-40% (clang hoists the next step's loads: more live
// registers than V8 has).
#include <algorithm>
#include <cstddef>
#include <memory>

#include "matmul_kernels.hpp"
#include "perflab/detail/simd.hpp"

namespace perflab::detail {
namespace {

using std::size_t;

constexpr size_t MR = kPackedMR;
constexpr size_t NR = kPackedNR;
constexpr size_t NV = NR / kLanes;  // vectors per row of the block
static_assert(NR % kLanes == 0, "NR must be a whole number of vectors");
static_assert(kPackedMC % MR == 0 && kPackedNC % NR == 0, "blocks must hold whole strips");

#if defined(__GNUC__)
#define PERFLAB_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define PERFLAB_ALWAYS_INLINE inline
#endif

// c (MR×NR block, row stride ldc) = (accumulate ? c : 0) + a_strip @ b_strip, where
// a_strip holds MR floats per k and b_strip NR floats per k. The k loop is left rolled on
// purpose (see the note at the top). Always inlined: a call per block cost a few percent at
// small sizes in V8.
PERFLAB_ALWAYS_INLINE void micro_kernel(size_t kc, const float* a_strip, const float* b_strip, float* c,
                         size_t ldc, bool accumulate) {
  f32x4 acc[MR][NV];
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v) acc[r][v] = zero();
  for (size_t k = 0; k < kc; ++k) {
    f32x4 b_k[NV];
    for (size_t v = 0; v < NV; ++v) b_k[v] = load(b_strip + k * NR + kLanes * v);
    for (size_t r = 0; r < MR; ++r) {
      const f32x4 a_rk = splat(a_strip[k * MR + r]);
      for (size_t v = 0; v < NV; ++v) acc[r][v] = fmadd(a_rk, b_k[v], acc[r][v]);
    }
  }
  for (size_t r = 0; r < MR; ++r) {
    for (size_t v = 0; v < NV; ++v) {
      float* p = c + r * ldc + kLanes * v;
      storeu(p, accumulate ? add(loadu(p), acc[r][v]) : acc[r][v]);
    }
  }
}

// a (mc×kc block, row stride lda) into ceil(mc/MR) strips of MR×kc, k-major inside a strip
// (the MR values the micro-kernel broadcasts at step k are adjacent). Missing rows of the
// last strip are zeros, so the micro-kernel never needs a shorter variant.
void pack_a(float* dst, const float* a, size_t lda, size_t mc, size_t kc) {
  for (size_t i = 0; i < mc; i += MR) {
    const size_t rows = std::min(MR, mc - i);
    for (size_t k = 0; k < kc; ++k) {
      size_t r = 0;
      for (; r < rows; ++r) dst[k * MR + r] = a[(i + r) * lda + k];
      for (; r < MR; ++r) dst[k * MR + r] = 0.0f;
    }
    dst += kc * MR;
  }
}

// b (kc×nc block, row stride ldb) into ceil(nc/NR) strips of kc×NR, row by row; missing
// columns of the last strip are zeros. dst is 16-byte aligned and NR is a whole number of
// vectors, so every strip row is aligned.
void pack_b(float* dst, const float* b, size_t ldb, size_t kc, size_t nc) {
  for (size_t j = 0; j < nc; j += NR) {
    const size_t cols = std::min(NR, nc - j);
    for (size_t k = 0; k < kc; ++k) {
      const float* src = b + k * ldb + j;
      float* row = dst + k * NR;
      if (cols == NR) {
        for (size_t v = 0; v < NV; ++v) store(row + kLanes * v, loadu(src + kLanes * v));
      } else {
        size_t c = 0;
        for (; c < cols; ++c) row[c] = src[c];
        for (; c < NR; ++c) row[c] = 0.0f;
      }
    }
    dst += kc * NR;
  }
}

// 16-byte aligned scratch for the packed operands. Plain heap memory, not a Tensor: it is
// the kernel's working space, like a BLAS library's, and the memory tracker counts tensors.
std::unique_ptr<f32x4[]> scratch(size_t floats) {
  return std::unique_ptr<f32x4[]>(new f32x4[(floats + kLanes - 1) / kLanes]);
}

size_t round_up(size_t x, size_t multiple) { return (x + multiple - 1) / multiple * multiple; }

}  // namespace

void matmul_packed(float* out, const float* a, const float* b, size_t M, size_t K, size_t N) {
  if (M == 0 || N == 0) return;
  if (K == 0) {  // an empty sum: the loops below would never write out
    std::fill(out, out + M * N, 0.0f);
    return;
  }
  // Buffers sized for the blocks this call really has, so small products stay cheap.
  const size_t kc_max = std::min(kPackedKC, K);
  const size_t mc_max = std::min(kPackedMC, round_up(M, MR));
  const size_t nc_max = std::min(kPackedNC, round_up(N, NR));
  const auto a_buffer = scratch(mc_max * kc_max);
  const auto b_buffer = scratch(kc_max * nc_max);
  float* a_packed = reinterpret_cast<float*>(a_buffer.get());
  float* b_packed = reinterpret_cast<float*>(b_buffer.get());
  alignas(16) float edge[MR * NR];  // partial blocks at the bottom and right edges

  for (size_t jc = 0; jc < N; jc += kPackedNC) {
    const size_t nc = std::min(kPackedNC, N - jc);
    for (size_t pc = 0; pc < K; pc += kPackedKC) {
      const size_t kc = std::min(kPackedKC, K - pc);
      const bool accumulate = pc > 0;
      pack_b(b_packed, b + pc * N + jc, N, kc, nc);
      for (size_t ic = 0; ic < M; ic += kPackedMC) {
        const size_t mc = std::min(kPackedMC, M - ic);
        pack_a(a_packed, a + ic * K + pc, K, mc, kc);
        for (size_t jr = 0; jr < nc; jr += NR) {
          const size_t nr = std::min(NR, nc - jr);
          const float* b_strip = b_packed + jr * kc;
          for (size_t ir = 0; ir < mc; ir += MR) {
            const size_t mr = std::min(MR, mc - ir);
            const float* a_strip = a_packed + ir * kc;
            float* c = out + (ic + ir) * N + jc + jr;
            if (mr == MR && nr == NR) {
              micro_kernel(kc, a_strip, b_strip, c, N, accumulate);
            } else {
              micro_kernel(kc, a_strip, b_strip, edge, NR, false);
              for (size_t r = 0; r < mr; ++r) {
                for (size_t j = 0; j < nr; ++j) {
                  c[r * N + j] = accumulate ? c[r * N + j] + edge[r * NR + j] : edge[r * NR + j];
                }
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace perflab::detail
