// The "packed" matmul: GotoBLAS/BLIS structure on 128-bit vectors. b is copied into k×NR
// strips so the micro-kernel reads it with unit stride from L1; a is read in place (MR rows
// at a time, each with unit stride along k), and the loops are blocked so that a b strip
// stays in L1, a block of a in L2 and a panel of b in L2/L3. Single thread. Not for:
// transposed operands, alpha/beta scaling, or anything but float32 row-major.
//
// Loop nest (BLIS names), out (M, N) += a (M, K) @ b (K, N):
//   for jc in N step NC:              panel of b columns
//     for pc in K step KC:            pack b[pc:pc+KC, jc:jc+NC] into NR-wide strips
//       for ic in M step MC:          block of a rows (MC×KC, stays in L2)
//         for jr in NC step NR:       one b strip (KC×NR, L1) ...
//           for ir in MC step MR:     ... against every MR-row strip of the a block
//             micro-kernel: an MR×NR block of out in registers, KC rank-1 updates
// The first pc block stores into out, later ones add to it, so out is overwritten.
//
// Why a is not packed (BLIS packs both; XNNPACK, which TensorFlow.js's wasm backend uses,
// packs only the weights): with MR = 2 the kernel broadcasts from two rows of a, two
// unit-stride streams the prefetcher follows as well as one packed strip, so packing a
// bought nothing and cost a scalar strided copy of all of a per column panel (measured in
// Node 20 on a Sapphire Rapids core: reading a in place was 5-9% faster at N = 256, the
// same at N = 512).
// Only a last strip of fewer than MR rows is copied, zero-padded.
//
// Why 2×16 (MR×NR): the micro-kernel holds 8 accumulators, 4 b vectors, a broadcast and a
// product temporary, 14 of the 16 vector registers x86 has (V8's wasm code generator keeps
// one for itself), and broadcasts only 2 values of a per k. Measured on a Sapphire Rapids
// core, single thread: in Node 20 (wasm), 2×16 and 4×8 both reach 24-28 GFLOP/s at
// N = 256-512, about the probe's peak and ~90% of what three FP ports allow without FMA, 2×16
// a few percent ahead; natively (SSE2, where a broadcast is a shuffle competing with the
// adds) 2×16 is clearly ahead. 5×8, 6×8, 3×12 and 4×12 measured 15-25% slower (spills), and
// unrolling the k loop by 2 or 4 cost 15-40% (clang hoists the next step's loads: more live
// registers than V8 has; an empty asm barrier between the two steps did not help).
// KC = 512 (a 32 KiB b strip) so that K <= 512 is one block and out is written once, not
// read back and added to: 3-7% faster at N = 512 here than KC = 256 (MC 32-128 made no
// difference; MC = 64 keeps the a block at 128 KiB). This machine has a 48 KiB L1; on a
// 32 KiB one the strip fills L1 and is partly streamed from L2 (BLIS would pick KC = 256
// there): a tuning for the machine the floors are measured on, stated as such.
#include <algorithm>
#include <cstddef>
#include <memory>

#include "matmul_packed.hpp"
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

// c (MR×NR block, row stride ldc) = (accumulate ? c : 0) + a_rows @ b_strip, where row r of
// the MR×kc block of a starts at a_rows + r·lda (a itself, read in place, or the zero-padded
// edge copy) and b_strip holds NR floats per k. The k loop is left rolled on purpose (see
// the note at the top). Always inlined: a call per block cost a few percent at small sizes
// in V8.
PERFLAB_ALWAYS_INLINE void micro_kernel(size_t kc, const float* a_rows, size_t lda,
                                        const float* b_strip, float* c, size_t ldc,
                                        bool accumulate) {
  f32x4 acc[MR][NV];
  for (size_t r = 0; r < MR; ++r)
    for (size_t v = 0; v < NV; ++v) acc[r][v] = zero();
  // Pointers bumped each step rather than indices scaled by k: V8 then addresses every load
  // as base + pointer + constant offset, where k·NR and r·lda + k cost a shift and adds per
  // load (measured in Node 20: 12-17% faster at N = 256 and 512).
  const float* a_k[MR];
  for (size_t r = 0; r < MR; ++r) a_k[r] = a_rows + r * lda;
  const float* const b_end = b_strip + kc * NR;
  for (const float* b_k_row = b_strip; b_k_row != b_end; b_k_row += NR) {
    f32x4 b_k[NV];
    for (size_t v = 0; v < NV; ++v) b_k[v] = load(b_k_row + kLanes * v);
    for (size_t r = 0; r < MR; ++r) {
      const f32x4 a_rk = splat(*a_k[r]++);
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

// The last rows of a when fewer than MR are left: copied into an MR×kc block (row stride
// kc) whose missing rows are zeros, so the micro-kernel never needs a shorter variant.
void pack_a_edge(float* dst, const float* a, size_t lda, size_t rows, size_t kc) {
  for (size_t r = 0; r < MR; ++r) {
    for (size_t k = 0; k < kc; ++k) dst[r * kc + k] = r < rows ? a[r * lda + k] : 0.0f;
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
  const size_t nc_max = std::min(kPackedNC, round_up(N, NR));
  const auto b_buffer = scratch(kc_max * nc_max);
  const auto a_buffer = scratch(MR * kc_max);  // only for a last strip of fewer than MR rows
  float* b_packed = reinterpret_cast<float*>(b_buffer.get());
  float* a_edge = reinterpret_cast<float*>(a_buffer.get());
  alignas(16) float edge[MR * NR];  // partial blocks at the right edge

  for (size_t jc = 0; jc < N; jc += kPackedNC) {
    const size_t nc = std::min(kPackedNC, N - jc);
    for (size_t pc = 0; pc < K; pc += kPackedKC) {
      const size_t kc = std::min(kPackedKC, K - pc);
      const bool accumulate = pc > 0;
      pack_b(b_packed, b + pc * N + jc, N, kc, nc);
      for (size_t ic = 0; ic < M; ic += kPackedMC) {
        const size_t mc = std::min(kPackedMC, M - ic);
        const size_t full_rows = mc / MR * MR;
        if (full_rows < mc) {
          pack_a_edge(a_edge, a + (ic + full_rows) * K + pc, K, mc - full_rows, kc);
        }
        for (size_t jr = 0; jr < nc; jr += NR) {
          const size_t nr = std::min(NR, nc - jr);
          const float* b_strip = b_packed + jr * kc;
          for (size_t ir = 0; ir < mc; ir += MR) {
            const size_t mr = std::min(MR, mc - ir);
            // Whole strips read a in place (row stride K), the last partial one its copy.
            const float* a_rows = mr == MR ? a + (ic + ir) * K + pc : a_edge;
            const size_t lda = mr == MR ? K : kc;
            float* c = out + (ic + ir) * N + jc + jr;
            if (mr == MR && nr == NR) {
              micro_kernel(kc, a_rows, lda, b_strip, c, N, accumulate);
            } else {
              micro_kernel(kc, a_rows, lda, b_strip, edge, NR, false);
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
