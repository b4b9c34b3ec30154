// The kernel engine's measurements (kernels/parallel.hpp): check the call, draw the inputs
// as the single-thread measurements do, copy them into the engine (untimed), run once and
// verify, then time engine.run with the Timer.
// Not for: the engine itself (kernels/engine.cpp natively, the JS engine in wasm).
#include "perflab/kernels/parallel.hpp"

#include <string>
#include <vector>

#include "measure_inputs.hpp"
#include "perflab/base/rates.hpp"
#include "perflab/detail/kernel_bands.hpp"
#include "perflab/kernels/elementwise.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/matmul.hpp"

namespace perflab {
namespace {

using std::size_t;

// "the engine's fma matmul on 2 threads", for error messages and the budget check.
std::string describe(const char* kernel, const std::string& flavour, unsigned threads) {
  return std::string("the engine's ") + flavour + " " + kernel + " on " + std::to_string(threads) +
         (threads == 1 ? " thread" : " threads");
}

ParallelMeasurement timed(KernelEngine& engine, const char* kernel, const std::string& flavour,
                          unsigned threads, size_t m, size_t k, size_t n,
                          const TimerOptions& options, Clock& clock, const ProgressFn& progress) {
  const EngineKernel which = std::string(kernel) == "matmul" ? EngineKernel::matmul
                                                             : EngineKernel::gelu;
  Timer timer(clock);
  timer.options(options);
  if (progress) timer.on_progress(progress);
  ParallelMeasurement r;
  r.stats = timer.run([&] { engine.run(which, flavour, threads, m, k, n, 0, 0.0f); });
  r.kernel = kernel;
  r.flavour = flavour;
  r.threads = threads;
  return r;
}

}  // namespace

ParallelMeasurement measure_parallel_matmul(const std::string& flavour, unsigned threads,
                                            std::size_t n, const TimerOptions& options,
                                            Clock& clock, const ProgressFn& progress) {
  KernelEngine& engine = kernel_engine();
  check_engine_call(engine, flavour, threads);
  detail::check_measure_matmul_n(n);
  options.validate();
  const std::string what = describe("matmul", flavour, threads);
  // The budget check's bound is one core's fastest rate; `threads` cores share the call.
  check_call_fits_budget(cost_matmul(n, n, n).flops / threads, what + " at n=" + std::to_string(n),
                         options);

  const detail::SquareMatmulOperands operands = detail::square_matmul_operands(n);
  engine.prepare(n * n, n * n, 0, n * n, detail::packed_scratch_floats(n, n), threads);
  engine.write(EngineBuffer::a, operands.a.data(), n * n);
  engine.write(EngineBuffer::b, operands.b.data(), n * n);

  // Verify before timing, by measure_matmul's normwise rule (kMatmulTolerance). The fma
  // flavour rounds once per multiply-add where the main module's kernels round twice, so its
  // results differ from theirs in the last bits: far inside 1e-4. Above kMaxVerifiedMatmulN
  // naive is too slow for a browser; the main module's single-thread packed kernel (itself
  // checked against naive by the tests) is the reference there, one call, about one sample.
  engine.run(EngineKernel::matmul, flavour, threads, n, n, n, 0, 0.0f);
  Tensor out({n, n});
  engine.read(EngineBuffer::out, out.data(), n * n);
  const double error = detail::verify_square_matmul(
      what, n <= kMaxVerifiedMatmulN ? "naive" : "packed", operands.a, operands.b, out);

  ParallelMeasurement m =
      timed(engine, "matmul", flavour, threads, n, n, n, options, clock, progress);
  const OpCost cost = cost_matmul(n, n, n);
  m.n = n;
  m.flops = cost.flops;
  m.bytes = cost.bytes;
  m.gflops_per_s = gflops_per_s(m.flops, m.stats.median_ms);
  m.gb_per_s = gb_per_s(m.bytes, m.stats.median_ms);
  m.max_error = error;
  return m;
}

ParallelMeasurement measure_parallel_gelu(const std::string& flavour, unsigned threads,
                                          std::size_t elements, const TimerOptions& options,
                                          Clock& clock, const ProgressFn& progress) {
  KernelEngine& engine = kernel_engine();
  check_engine_call(engine, flavour, threads);
  detail::check_measure_gelu_n(elements);
  options.validate();
  const std::string what = describe("gelu", flavour, threads);

  const Tensor x = detail::gelu_measure_input(elements);
  engine.prepare(elements, 0, 0, elements, 0, threads);
  engine.write(EngineBuffer::a, x.data(), elements);

  // Verify before timing, by measure_gelu's bound per element (1e-6 + 1e-5·|reference|).
  engine.run(EngineKernel::gelu, flavour, threads, 0, 0, elements, 0, 0.0f);
  std::vector<float> out(elements);
  engine.read(EngineBuffer::out, out.data(), elements);
  const double error = detail::verify_gelu(what, x, out.data());

  ParallelMeasurement m =
      timed(engine, "gelu", flavour, threads, 0, 0, elements, options, clock, progress);
  const OpCost cost = cost_gelu_fused(elements);
  m.n = elements;
  m.flops = kGeluFlopsPerElement * static_cast<double>(elements);
  m.bytes = cost.bytes;
  m.gflops_per_s = gflops_per_s(m.flops, m.stats.median_ms);
  m.gb_per_s = gb_per_s(m.bytes, m.stats.median_ms);
  m.max_error = error;
  return m;
}

nlohmann::json to_json(const ParallelMeasurement& m) {
  return {{"kernel", m.kernel},
          {"flavour", m.flavour},
          {"threads", m.threads},
          {"n", m.n},
          {"flops", m.flops},
          {"bytes", m.bytes},
          {"gflops_per_s", m.gflops_per_s},
          {"gb_per_s", m.gb_per_s},
          {"max_error", m.max_error},
          {"stats", to_json(m.stats)}};
}

}  // namespace perflab
