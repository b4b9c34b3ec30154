// The kernels a thread runs over its share of the work, in one header that three compilers
// build: g++ natively, emcc for the main wasm module and clang-16 for the kernel engine
// (wasm/engine/engine.cpp: -ffreestanding -nostdlib, so nothing here may need the C or C++
// library: <stddef.h>, <stdint.h> and __builtin_memcpy only). There is one packed matmul,
// one fused GELU loop and one set of probe chains: matmul_packed.cpp, elementwise.cpp and
// probe.cpp call these over the whole range, the engines call them over a thread's band.
// Not for: allocating, threads or timing (the callers own those), or exceptions.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "perflab/detail/simd.hpp"
#include "perflab/detail/vmath.hpp"

#if defined(__GNUC__)
#define PERFLAB_ALWAYS_INLINE inline __attribute__((always_inline))
#define PERFLAB_NOINLINE __attribute__((noinline))
#else
#define PERFLAB_ALWAYS_INLINE inline
#define PERFLAB_NOINLINE
#endif

namespace perflab::detail {

// The packed kernel's shape and cache blocking (the reasons for each are in
// core/src/kernels/matmul_packed.cpp's opening note).
inline constexpr size_t kPackedMR = 2;    // rows of out per micro-kernel call
inline constexpr size_t kPackedNR = 16;   // columns (four 4-float vectors)
inline constexpr size_t kPackedKC = 512;  // k per packed strip: b strip KC·NR·4 = 32 KiB
inline constexpr size_t kPackedMC = 64;   // rows of a per block: MC·KC·4 = 128 KiB (L2)
inline constexpr size_t kPackedNC = 512;  // columns of b per packed panel: 512 KiB
static_assert(kPackedNR % kLanes == 0, "NR must be a whole number of vectors");
static_assert(kPackedMC % kPackedMR == 0 && kPackedNC % kPackedNR == 0,
              "blocks must hold whole strips");

// Elements per chunk of an element-wise band: 64 bytes, a cache line, so that no two threads
// ever write the same line (false sharing), and a whole number of 4-vector steps.
inline constexpr size_t kBandChunkFloats = 16;

inline constexpr size_t min_size(size_t x, size_t y) { return x < y ? x : y; }
inline constexpr size_t round_up(size_t x, size_t multiple) {
  return (x + multiple - 1) / multiple * multiple;
}

// Half-open [begin, end); begin == end is an empty band.
struct Band {
  size_t begin, end;
};

// Thread t of T over M rows: whole kPackedMR strips (ceil(M / MR) of them, the last one
// partial when M is odd), the first strips % T threads one strip more, so the bands differ
// by at most one strip. More threads than strips leaves the last ones empty. A strip never
// straddles two bands, so each row's arithmetic is the same whatever T is: the threaded
// result equals the single-thread one bit for bit. t >= T or T = 0 gives an empty band.
inline Band matmul_band(size_t M, unsigned t, unsigned T) {
  if (T == 0 || t >= T) return {0, 0};
  const size_t strips = (M + kPackedMR - 1) / kPackedMR;
  const size_t base = strips / T, extra = strips % T;
  const size_t first = t * base + min_size(t, extra);
  const size_t count = base + (t < extra ? 1 : 0);
  return {min_size(M, first * kPackedMR), min_size(M, (first + count) * kPackedMR)};
}

// Thread t of T over n elements: whole kBandChunkFloats chunks (no two threads write one
// cache line, given 64-byte aligned data; tensors are), split as matmul_band splits strips;
// the last band also takes the n % 16 elements after the last whole chunk. Every band but
// the last starts and ends on a chunk, so aligned vector loads stay aligned.
inline Band element_band(size_t n, unsigned t, unsigned T) {
  if (T == 0 || t >= T) return {0, 0};
  const size_t chunks = n / kBandChunkFloats;
  const size_t base = chunks / T, extra = chunks % T;
  const size_t first = t * base + min_size(t, extra);
  const size_t count = base + (t < extra ? 1 : 0);
  const size_t end = t + 1 == T ? n : (first + count) * kBandChunkFloats;
  return {first * kBandChunkFloats, end};
}

// ---- The packed matmul ----------------------------------------------------------------------

// c (MR×NR block, row stride ldc) = (accumulate ? c : 0) + a_rows @ b_strip, where row r of
// the MR×kc block of a starts at a_rows + r·lda (a itself, read in place, or the zero-padded
// edge copy) and b_strip holds NR floats per k. The k loop is left rolled on purpose (see
// matmul_packed.cpp). Always inlined: a call per block cost a few percent at small sizes
// in V8.
PERFLAB_ALWAYS_INLINE void packed_micro_kernel(size_t kc, const float* a_rows, size_t lda,
                                               const float* b_strip, float* c, size_t ldc,
                                               bool accumulate) {
  constexpr size_t MR = kPackedMR, NR = kPackedNR, NV = NR / kLanes;
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
inline void pack_a_edge(float* dst, const float* a, size_t lda, size_t rows, size_t kc) {
  for (size_t r = 0; r < kPackedMR; ++r) {
    for (size_t k = 0; k < kc; ++k) dst[r * kc + k] = r < rows ? a[r * lda + k] : 0.0f;
  }
}

// b (kc×nc block, row stride ldb) into ceil(nc/NR) strips of kc×NR, row by row; missing
// columns of the last strip are zeros. dst is 16-byte aligned and NR is a whole number of
// vectors, so every strip row is aligned.
inline void pack_b(float* dst, const float* b, size_t ldb, size_t kc, size_t nc) {
  constexpr size_t NR = kPackedNR, NV = NR / kLanes;
  for (size_t j = 0; j < nc; j += NR) {
    const size_t cols = min_size(NR, nc - j);
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

// Scratch layout of one thread, each part starting 16-byte aligned: the packed b panel
// (min(KC, K) × min(NC, N rounded up to NR)), the a edge block (MR × min(KC, K)) and the
// MR×NR block partial blocks at the right edge are computed into. Sized for the blocks this
// product really has, so small products stay cheap.
inline size_t packed_b_floats(size_t K, size_t N) {
  return round_up(min_size(kPackedKC, K) * min_size(kPackedNC, round_up(N, kPackedNR)), kLanes);
}
inline size_t packed_a_edge_floats(size_t K) {
  return round_up(kPackedMR * min_size(kPackedKC, K), kLanes);
}
// Floats of scratch one thread needs for matmul_packed_rows.
inline size_t packed_scratch_floats(size_t K, size_t N) {
  return packed_b_floats(K, N) + packed_a_edge_floats(K) + kPackedMR * kPackedNR;
}

// out rows [row_begin, row_end) of out (M, N) = a (M, K) @ b (K, N), all row-major; those
// rows are overwritten, no other is touched. scratch: 16-byte aligned,
// packed_scratch_floats(K, N) floats, this caller's alone. Each caller packs its own copy of
// b: with T threads that is redundant work (K·N copies against 2·(M/T)·K·N FLOPs per thread,
// T/(2M): 0.2% at N = 512 on two threads) but needs no barrier between packing and
// computing. The loop nest and the reasons for its blocking are in matmul_packed.cpp; over
// [0, M) this is matmul_packed. Always inlined: left a call, the
// single-thread kernel in the wasm build (emcc -O3 -fexceptions) ran 1-2% below its code
// before the move into this header, measured side by side in Node 20; inlined into its one
// caller it runs as before.
PERFLAB_ALWAYS_INLINE void matmul_packed_rows(float* out, const float* a, const float* b,
                                              size_t M, size_t K, size_t N, size_t row_begin,
                                              size_t row_end, float* scratch) {
  constexpr size_t MR = kPackedMR, NR = kPackedNR;
  row_end = min_size(row_end, M);
  if (row_begin >= row_end || N == 0) return;
  if (K == 0) {  // an empty sum: the loops below would never write out
    for (size_t i = row_begin * N; i < row_end * N; ++i) out[i] = 0.0f;
    return;
  }
  float* const b_packed = scratch;
  float* const a_edge = b_packed + packed_b_floats(K, N);  // only for a last strip of < MR rows
  float* const edge = a_edge + packed_a_edge_floats(K);    // partial blocks at the right edge

  for (size_t jc = 0; jc < N; jc += kPackedNC) {
    const size_t nc = min_size(kPackedNC, N - jc);
    for (size_t pc = 0; pc < K; pc += kPackedKC) {
      const size_t kc = min_size(kPackedKC, K - pc);
      const bool accumulate = pc > 0;
      pack_b(b_packed, b + pc * N + jc, N, kc, nc);
      for (size_t ic = row_begin; ic < row_end; ic += kPackedMC) {
        const size_t mc = min_size(kPackedMC, row_end - ic);
        const size_t full_rows = mc / MR * MR;
        if (full_rows < mc) {
          pack_a_edge(a_edge, a + (ic + full_rows) * K + pc, K, mc - full_rows, kc);
        }
        for (size_t jr = 0; jr < nc; jr += NR) {
          const size_t nr = min_size(NR, nc - jr);
          const float* b_strip = b_packed + jr * kc;
          for (size_t ir = 0; ir < mc; ir += MR) {
            const size_t mr = min_size(MR, mc - ir);
            // Whole strips read a in place (row stride K), the last partial one its copy.
            const float* a_rows = mr == MR ? a + (ic + ir) * K + pc : a_edge;
            const size_t lda = mr == MR ? K : kc;
            float* c = out + (ic + ir) * N + jc + jr;
            if (mr == MR && nr == NR) {
              packed_micro_kernel(kc, a_rows, lda, b_strip, c, N, accumulate);
            } else {
              packed_micro_kernel(kc, a_rows, lda, b_strip, edge, NR, false);
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

// ---- Element-wise -----------------------------------------------------------------------------

// out[i] = op(x[i]) for i in [0, n) over vectors; x and out 16-byte aligned (tensors are,
// and element bands start on 16-float chunks). The last n % 4 elements go through a padded
// buffer, so every element gets the same arithmetic, wherever a band starts.
// Four vectors per step, each loaded, transformed and stored as a group: their independent
// chains sit side by side in the instruction stream, so the CPU overlaps a long op (GELU's
// ~50-cycle chain of multiplies, adds and a divide) without needing a deep scheduler to find
// the next chain. GELU in Node 20, measured side by side: on a Zen 4 core 0.67-0.68 ns per
// element against 0.79-0.82 with two vectors per step (two had been 15% ahead of one on a
// Sapphire Rapids core); eight vectors were slower again (V8 spills the constants).
template <class Op>
inline void map_unary(float* out, const float* x, size_t n, Op op) {
  constexpr size_t kStep = 4 * kLanes;
  size_t i = 0;
  for (; i + kStep <= n; i += kStep) {
    f32x4 v[4];
    for (size_t u = 0; u < 4; ++u) v[u] = load(x + i + u * kLanes);
    for (size_t u = 0; u < 4; ++u) v[u] = op(v[u]);
    for (size_t u = 0; u < 4; ++u) store(out + i + u * kLanes, v[u]);
  }
  for (; i + kLanes <= n; i += kLanes) store(out + i, op(load(x + i)));
  if (i < n) {
    alignas(16) float buf[kLanes] = {};
    for (size_t j = i; j < n; ++j) buf[j - i] = x[j];
    store(buf, op(load(buf)));
    for (size_t j = i; j < n; ++j) out[j] = buf[j - i];
  }
}

// The fused vector GELU (detail::GeluVec) over elements [begin, end) of x into out; begin a
// multiple of 4 (element_band's bands are).
inline void gelu_fused_simd_range(float* out, const float* x, size_t begin, size_t end) {
  if (begin >= end) return;
  map_unary(out + begin, x + begin, end - begin, GeluVec{});  // built once: constants in registers
}

// STREAM triad over [begin, end): a[i] = b[i] + s·c[i]; begin a multiple of 4, the arrays
// 16-byte aligned. A tail of fewer than 4 elements is scalar (the probe's arrays have none).
inline void triad_range(float* a, const float* b, const float* c, float s, size_t begin,
                        size_t end) {
  const f32x4 vs = splat(s);
  size_t i = begin;
  for (; i + kLanes <= end; i += kLanes) store(a + i, fmadd(vs, load(c + i), load(b + i)));
  for (; i < end; ++i) a[i] = s * c[i] + b[i];
}

// ---- Peak FLOP/s ------------------------------------------------------------------------------

// 14 chains, each acc = acc·m + m. A multiply then a dependent add is about 8 cycles of
// latency on current x86 cores, which retire more than one such pair per cycle, so fewer
// chains leave units idle (measured on a Xeon, natively and in V8: 8 chains reach three
// quarters of the 14-chain figure). 14 accumulators and the one constant fit in the 15
// vector registers V8 allocates on x64 (16 for SSE2), so nothing spills; the constant
// doubles as the addend to save a register. With a multiplier below 1 each chain converges
// to m / (1 − m): no overflow, no subnormals. Each step is 2·kLanes FLOPs per chain.
inline constexpr int kPeakChains = 14;

// Never inlined, so the loop is compiled alone whatever calls it; in a scalar build GCC is
// also kept from vectorizing the scalar fallback's lane loops, so a scalar build reports
// scalar code (the attributes the probe gave these chains before they moved here; Clang has
// no function attribute for it).
#if defined(PERFLAB_SIMD_SCALAR)
#define PERFLAB_PEAK_ATTRIBUTES PERFLAB_NOINLINE PERFLAB_SCALAR_FUNCTION
#else
#define PERFLAB_PEAK_ATTRIBUTES PERFLAB_NOINLINE
#endif

// kPeakChains register-only multiply-add chains of `steps` steps (fmadd: fused in an FMA
// build); returns the sum of every chain's lanes, so no chain is dead code.
PERFLAB_PEAK_ATTRIBUTES inline float peak_chains(long steps, float multiplier) {
  const f32x4 vm = splat(multiplier);
  f32x4 acc[kPeakChains];
  for (int k = 0; k < kPeakChains; ++k) acc[k] = splat(1.0f + 0.125f * static_cast<float>(k));
  for (long s = 0; s < steps; ++s) {
    for (int k = 0; k < kPeakChains; ++k) acc[k] = fmadd(acc[k], vm, vm);
  }
  float sum = 0.0f;
  for (int k = 0; k < kPeakChains; ++k) sum += hsum(acc[k]);
  return sum;
}

}  // namespace perflab::detail
