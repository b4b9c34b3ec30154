// The kernel engine: where the threaded and FMA kernels run. Core owns everything but the
// call: it draws the inputs, copies them into the engine once per measurement (untimed),
// times run() with its own Timer, copies the result back and verifies it (kernels/
// parallel.hpp). The engine only holds buffers and runs the band kernels of
// perflab/detail/kernel_bands.hpp on its threads. Natively it is a pool of std::threads
// (core/src/kernels/engine.cpp); in wasm it is the JS engine the lab worker installs
// (wasm/engine_bridge.cpp), with its own wasm modules and memory.
// Not for: anything but the four kernels below, or timing (core times).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace perflab {

// The cap on any thread count; the page caps navigator.hardwareConcurrency at it.
inline constexpr unsigned kMaxEngineThreads = 16;

// The integers cross to JS: keep them.
enum class EngineKernel { matmul = 0, gelu = 1, peak = 2, triad = 3 };
enum class EngineBuffer { a = 0, b = 1, c = 2, out = 3 };

struct EngineFacts {
  std::vector<std::string> flavours;  // of "fma", "simd": what this engine can run, fastest first
  unsigned max_threads = 1;  // threads this engine can run at once (1 when memory cannot be shared)
  bool shared_memory = false;
  std::string why;  // one sentence: why these flavours and this many threads
};
// {flavours, max_threads, shared_memory, why}
nlohmann::json to_json(const EngineFacts& facts);

class KernelEngine {
 public:
  virtual ~KernelEngine() = default;
  virtual EngineFacts facts() const = 0;
  // Room for a job: floats per buffer (0 = unused) and scratch per thread for `threads`
  // threads. Contents are undefined after.
  virtual void prepare(std::size_t a, std::size_t b, std::size_t c, std::size_t out,
                       std::size_t scratch_per_thread, unsigned threads) = 0;
  virtual void write(EngineBuffer buffer, const float* src, std::size_t n) = 0;
  virtual void read(EngineBuffer buffer, float* dst, std::size_t n) = 0;
  // One call of `kernel` over the prepared buffers in `flavour` on `threads` threads
  // (<= max_threads; validated by core before):
  //   matmul: out (m, n) = a (m, k) @ b (k, n), rows split by detail::matmul_band;
  //   gelu:   out[0..n) = gelu(a[0..n)), elements split by detail::element_band;
  //   peak:   every thread runs `steps` steps of detail::peak_chains with multiplier
  //           `scalar` (results to a sink);
  //   triad:  a[i] = b[i] + scalar·c[i] over n, split by detail::element_band.
  // Returns when every thread has finished.
  virtual void run(EngineKernel kernel, const std::string& flavour, unsigned threads,
                   std::size_t m, std::size_t k, std::size_t n, long steps, float scalar) = 0;
};

// The process's engine: natively a std::thread engine (flavour "simd", max_threads =
// std::thread::hardware_concurrency() capped at kMaxEngineThreads), made at the first call
// when none was set; in wasm the JS engine the lab worker installs (wasm/engine_bridge.cpp).
// set_kernel_engine(nullptr) removes the installed one.
void set_kernel_engine(std::shared_ptr<KernelEngine> engine);
// Throws Error("no kernel engine is loaded ...") when none is (wasm before the lab worker
// installs one).
KernelEngine& kernel_engine();

#if !defined(__EMSCRIPTEN__)
// Natively: a new std::thread engine running up to max_threads (1..kMaxEngineThreads) threads,
// started at its first run of more than one. kernel_engine()'s default is one of these with
// hardware_concurrency() threads; the tests make one with more threads than cores, to check
// the division of work at thread counts this machine does not have.
std::shared_ptr<KernelEngine> make_thread_engine(unsigned max_threads);
#endif

// Validates a call before it reaches the engine: flavour in facts().flavours and
// 1 <= threads <= facts().max_threads, with ValueError sentences naming what is allowed.
void check_engine_call(const KernelEngine& engine, const std::string& flavour, unsigned threads);

}  // namespace perflab
