// run_kernel_ab: the A/B runner on the lab's own kernels (matmul and GELU variants), the
// inputs built once and shared by both arms. Not for: the runner itself (ab.cpp).
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/kernels/kernels.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {

AbResult run_kernel_ab(const std::string& op, const std::string& variant_a,
                       const std::string& variant_b, std::size_t n, const AbOptions& options,
                       Clock& clock, const ProgressFn& progress) {
  options.validate();
  if (op == "matmul") {
    find_matmul_variant(variant_a);
    find_matmul_variant(variant_b);
    if (n < 1 || n > kMaxMeasureMatmulN) {
      throw ValueError("n must be between 1 and " + std::to_string(kMaxMeasureMatmulN) +
                       " for matmul, got " + std::to_string(n));
    }
    const Tensor a = Tensor::random({n, n}, 0x5EED0001);
    const Tensor b = Tensor::random({n, n}, 0x5EED0002);
    return run_ab([&] { const Tensor y = matmul(a, b, variant_a); },
                  [&] { const Tensor y = matmul(a, b, variant_b); }, options, clock, progress);
  }
  if (op == "gelu") {
    find_gelu_variant(variant_a);
    find_gelu_variant(variant_b);
    if (n < 1 || n > kMaxMeasureGeluN) {
      throw ValueError("n must be between 1 and " + std::to_string(kMaxMeasureGeluN) +
                       " for gelu, got " + std::to_string(n));
    }
    const Tensor x = Tensor::random({n}, 0x5EED0003, -4.0f, 4.0f);
    return run_ab([&] { const Tensor y = gelu(x, variant_a); },
                  [&] { const Tensor y = gelu(x, variant_b); }, options, clock, progress);
  }
  throw ValueError("op must be \"matmul\" or \"gelu\", got \"" + op + "\"");
}

}  // namespace perflab
