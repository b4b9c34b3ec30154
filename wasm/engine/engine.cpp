// The kernel engine: core's band kernels (perflab/detail/kernel_bands.hpp) exported from a
// small standalone wasm module that clang-16 builds twice, with relaxed SIMD (flavour "fma":
// simd.hpp's fmadd is the relaxed madd) and without ("simd": multiply then add), each linked
// with shared and with unshared imported memory (wasm/CMakeLists.txt). The JS engine
// (web/src/lab/engine/engine.js) instantiates one copy per thread over one Memory, gives each
// its own stack through the exported __stack_pointer, and calls these with thread t of T.
// Not for: allocating (no malloc, no static data: every pointer is into the memory the JS
// engine lays out), validating (core checks every call before it reaches the engine), timing.
#include <stddef.h>

#include "perflab/detail/kernel_bands.hpp"

// C names the JS engine calls, exported by name (wasm-ld keeps what export_name marks).
#define PERFLAB_ENGINE_EXPORT(name) extern "C" __attribute__((export_name(name)))

namespace bands = perflab::detail;

// out (M, N) = a (M, K) @ b (K, N), rows of thread t's band; scratch is this thread's own,
// scratch_floats(K, N) floats, 16-byte aligned.
PERFLAB_ENGINE_EXPORT("matmul_band")
void engine_matmul_band(float* out, const float* a, const float* b, size_t M, size_t K, size_t N,
                        unsigned t, unsigned T, float* scratch) {
  const bands::Band band = bands::matmul_band(M, t, T);
  bands::matmul_packed_rows(out, a, b, M, K, N, band.begin, band.end, scratch);
}

// out[i] = gelu(x[i]) over thread t's band of [0, n).
PERFLAB_ENGINE_EXPORT("gelu_band")
void engine_gelu_band(float* out, const float* x, size_t n, unsigned t, unsigned T) {
  const bands::Band band = bands::element_band(n, t, T);
  bands::gelu_fused_simd_range(out, x, band.begin, band.end);
}

// The probe's register-only chains, `steps` steps, on this thread; the result goes to this
// thread's sink so that the chains are not dead code.
PERFLAB_ENGINE_EXPORT("peak_band")
void engine_peak_band(long steps, float multiplier, float* sink) {
  *sink = bands::peak_chains(steps, multiplier);
}

// a[i] = b[i] + s·c[i] over thread t's band of [0, n).
PERFLAB_ENGINE_EXPORT("triad_band")
void engine_triad_band(float* a, const float* b, const float* c, float s, size_t n, unsigned t,
                       unsigned T) {
  const bands::Band band = bands::element_band(n, t, T);
  bands::triad_range(a, b, c, s, band.begin, band.end);
}

// Floats of scratch one thread needs for matmul_band at this K and N (the JS engine asks,
// so the layout's one owner is kernel_bands.hpp).
PERFLAB_ENGINE_EXPORT("scratch_floats")
size_t engine_scratch_floats(size_t K, size_t N) { return bands::packed_scratch_floats(K, N); }
