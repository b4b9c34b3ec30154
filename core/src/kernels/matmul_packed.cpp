// The "packed" matmul: GotoBLAS/BLIS structure on 128-bit vectors. b is copied into k×NR
// strips so the micro-kernel reads it with unit stride from L1; a is read in place (MR rows
// at a time, each with unit stride along k), and the loops are blocked so that a b strip
// stays in L1, a block of a in L2 and a panel of b in L2/L3. The code is in
// perflab/detail/kernel_bands.hpp (matmul_packed_rows), which the kernel engine's threads
// also run over their bands of rows; this file gives it one thread and its scratch. Not for:
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
#include <cstddef>
#include <memory>

#include "matmul_packed.hpp"
#include "perflab/detail/kernel_bands.hpp"

namespace perflab::detail {

void matmul_packed(float* out, const float* a, const float* b, std::size_t M, std::size_t K,
                   std::size_t N) {
  if (M == 0 || N == 0) return;
  // 16-byte aligned scratch for the packed operands. Plain heap memory, not a Tensor: it is
  // the kernel's working space, like a BLAS library's, and the memory tracker counts tensors.
  const std::size_t floats = packed_scratch_floats(K, N);
  const std::unique_ptr<f32x4[]> scratch(new f32x4[(floats + kLanes - 1) / kLanes]);
  matmul_packed_rows(out, a, b, M, K, N, 0, M, reinterpret_cast<float*>(scratch.get()));
}

}  // namespace perflab::detail
