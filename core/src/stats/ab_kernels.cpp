// run_kernel_ab: the A/B runner on the lab's own kernels (matmul and GELU variants), the
// inputs built once and shared by both arms. Not for: the runner itself (ab.cpp) or building
// the kernels (lab_kernels.cpp).
#include <string>
#include <tuple>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/lab_kernels.hpp"

namespace perflab {

AbResult run_kernel_ab(const std::string& op, const std::string& variant_a,
                       const std::string& variant_b, std::size_t n, const AbOptions& options,
                       Clock& clock, const ProgressFn& progress) {
  options.validate();
  // A comparison's sizes, smaller than the measurements': a round calls both arms, and an A/B
  // makes many rounds within kMaxAbTotalMs.
  for (const auto& [name, max, what] :
       {std::tuple{"matmul", kMaxAbMatmulN, "matmul"}, std::tuple{"gelu", kMaxAbGeluN, "gelu"},
        std::tuple{"model", kMaxAbModelBatch, "a zoo model's batch"}}) {
    if (op == name && (n < 1 || n > max)) {
      throw ValueError("n must be between 1 and " + std::to_string(max) + " for an A/B of " +
                       what + ", got " + std::to_string(n) +
                       ": one round calls both arms, and an A/B runs many rounds in at most " +
                       std::to_string(static_cast<long>(kMaxAbTotalMs)) + " ms");
    }
  }
  const LabKernel a = lab_kernel(op, variant_a, n);
  const LabKernel b = lab_kernel(op, variant_b, n);
  return run_ab(a.call, b.call, options, clock, progress);
}

}  // namespace perflab
