// This build's SIMD backend, as detail/simd.hpp chose it at compile time.
#include "perflab/kernels/backend.hpp"

#include "perflab/detail/simd.hpp"

namespace perflab {

bool simd_enabled() { return detail::kSimdEnabled; }
const char* simd_backend() { return detail::kSimdBackend; }

}  // namespace perflab
