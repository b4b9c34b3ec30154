// Which vector instructions this build's kernels use (detail/simd.hpp picks them at compile
// time), for reports that say what was measured. kernels/ includes nothing from roofline/
// (kernel.hpp says why). Not for: choosing a code path at run time (there is one per build).
#pragma once

namespace perflab {

// True when this build's SIMD kernels use 128-bit vectors (wasm simd128 or SSE2/NEON);
// false when they fall back to scalar code.
bool simd_enabled();
// "wasm-simd128", "sse2", "neon" or "scalar".
const char* simd_backend();

}  // namespace perflab
