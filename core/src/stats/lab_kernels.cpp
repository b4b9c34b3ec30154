// lab_kernel and sample_kernel: the lab's matmul and GELU variants as callable kernels on
// inputs built once, and the timer's raw per-call samples of one. Not for: A/B rounds (ab.cpp).
#include "perflab/stats/lab_kernels.hpp"

#include <utility>

#include "perflab/base/error.hpp"
#include "perflab/kernels/kernels.hpp"
#include "perflab/tensor/tensor.hpp"

namespace perflab {
namespace {

void check_n(std::size_t n, std::size_t max, const char* op) {
  if (n < 1 || n > max) {
    throw ValueError("n must be between 1 and " + std::to_string(max) + " for " + op + ", got " +
                     std::to_string(n));
  }
}

struct MatmulInputs {
  Tensor a, b;
};

}  // namespace

LabKernel lab_kernel(const std::string& op, const std::string& variant, std::size_t n) {
  LabKernel k{op, variant, n, nullptr, {}};
  if (op == "matmul") {
    find_matmul_variant(variant);
    check_n(n, kMaxMeasureMatmulN, "matmul");
    auto in = std::make_shared<MatmulInputs>(
        MatmulInputs{Tensor::random({n, n}, 0x5EED0001), Tensor::random({n, n}, 0x5EED0002)});
    k.call = [in, variant] { const Tensor y = matmul(in->a, in->b, variant); };
    k.inputs = std::move(in);
    return k;
  }
  if (op == "gelu") {
    find_gelu_variant(variant);
    check_n(n, kMaxMeasureGeluN, "gelu");
    auto x = std::make_shared<Tensor>(Tensor::random({n}, 0x5EED0003, -4.0f, 4.0f));
    k.call = [x, variant] { const Tensor y = gelu(*x, variant); };
    k.inputs = std::move(x);
    return k;
  }
  throw ValueError("op must be \"matmul\" or \"gelu\", got \"" + op + "\"");
}

KernelSample sample_kernel(const LabKernel& kernel, const TimerOptions& options, Clock& clock,
                           const ProgressFn& progress) {
  Timer timer(clock);
  timer.options(options);
  if (progress) timer.on_progress(progress);
  const Stats stats = timer.run(kernel.call);
  return {stats.per_call_ms, stats.inner_iterations, stats.resolution_ms, stats.warning};
}

}  // namespace perflab
