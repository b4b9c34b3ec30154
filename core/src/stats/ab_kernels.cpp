// run_kernel_ab: the A/B runner on the lab's own kernels (matmul and GELU variants), the
// inputs built once and shared by both arms. Not for: the runner itself (ab.cpp) or building
// the kernels (lab_kernels.cpp).
#include <string>

#include "perflab/base/error.hpp"
#include "perflab/stats/ab.hpp"
#include "perflab/stats/lab_kernels.hpp"

namespace perflab {

AbResult run_kernel_ab(const std::string& op, const std::string& variant_a,
                       const std::string& variant_b, std::size_t n, const AbOptions& options,
                       Clock& clock, const ProgressFn& progress) {
  options.validate();
  const LabKernel a = lab_kernel(op, variant_a, n);
  const LabKernel b = lab_kernel(op, variant_b, n);
  return run_ab(a.call, b.call, options, clock, progress);
}

}  // namespace perflab
