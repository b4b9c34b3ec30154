// The process's kernel engine (set_kernel_engine / kernel_engine), the checks every engine
// call passes first, and, natively, the default engine: a pool of std::threads running the
// band kernels of perflab/detail/kernel_bands.hpp, the same code the wasm kernel engine runs,
// so doctest and the CLI test the division of work and the measurement code natively.
// Not for: the wasm engine (web/src/lab/engine/, installed by wasm/engine_bridge.cpp), or
// timing (core's Timer times run()).
#include "perflab/kernels/engine.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <utility>

#include "perflab/base/error.hpp"

#if !defined(__EMSCRIPTEN__)
#include <condition_variable>
#include <thread>

#include "perflab/detail/kernel_bands.hpp"
#endif

namespace perflab {
namespace {

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

#if !defined(__EMSCRIPTEN__)

using std::size_t;

// One 64-byte cache line of floats: buffers are vectors of these, so every buffer starts on a
// line (element bands of whole 16-float chunks then never share a line between threads) and
// is 16-byte aligned for the vector loads.
struct alignas(64) Line {
  float f[16];
};
static_assert(sizeof(Line) == 16 * sizeof(float), "a Line is 16 floats");

struct Buffer {
  std::vector<Line> lines;
  size_t floats = 0;
  float* data() { return lines.empty() ? nullptr : lines.front().f; }
  void resize(size_t n) {
    lines.resize((n + 15) / 16);
    floats = n;
  }
};

// A persistent pool: threads 1..max_threads-1 are started at the first run that needs them
// and then sleep on a condition variable between runs; thread 0 is the caller, which runs
// its band and then waits for the others. A run's job is published under the mutex with a
// new generation number, so a woken thread runs each job exactly once.
class ThreadEngine final : public KernelEngine {
 public:
  explicit ThreadEngine(unsigned max_threads) : max_threads_(max_threads) {
    sinks_.resize(max_threads_);
  }
  ~ThreadEngine() override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : pool_) t.join();
  }

  EngineFacts facts() const override {
    EngineFacts f;
    f.flavours = {"simd"};
    f.max_threads = max_threads_;
    f.shared_memory = true;
    f.why = std::string("native std::thread engine: core's own ") + detail::kSimdBackend +
            " kernels (relaxed SIMD exists only in WebAssembly) on up to " +
            std::to_string(max_threads_) + (max_threads_ == 1 ? " thread" : " threads") +
            " (one per hardware thread, at most " + std::to_string(kMaxEngineThreads) + ")";
    return f;
  }

  void prepare(size_t a, size_t b, size_t c, size_t out, size_t scratch_per_thread,
               unsigned threads) override {
    check_threads(threads);
    buffers_[0].resize(a);
    buffers_[1].resize(b);
    buffers_[2].resize(c);
    buffers_[3].resize(out);
    scratch_.resize(threads);
    for (auto& s : scratch_) s.resize(scratch_per_thread);
  }

  void write(EngineBuffer buffer, const float* src, size_t n) override {
    Buffer& dst = checked(buffer, n, "write");
    for (size_t i = 0; i < n; ++i) dst.data()[i] = src[i];
  }

  void read(EngineBuffer buffer, float* dst, size_t n) override {
    Buffer& src = checked(buffer, n, "read");
    for (size_t i = 0; i < n; ++i) dst[i] = src.data()[i];
  }

  void run(EngineKernel kernel, const std::string& flavour, unsigned threads, size_t m, size_t k,
           size_t n, long steps, float scalar) override {
    // The full check builds facts() (strings); this runs inside the timed loop, so only a
    // call that fails it pays for the sentence.
    if (flavour != "simd" || threads < 1 || threads > max_threads_) {
      check_engine_call(*this, flavour, threads);
    }
    check_job(kernel, threads, m, k, n);
    const Job job{kernel, threads, m, k, n, steps, scalar};
    if (threads == 1) {
      run_band(job, 0);
      return;
    }
    start_pool();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = job;
      remaining_ = threads - 1;
      ++generation_;
    }
    wake_.notify_all();
    run_band(job, 0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return remaining_ == 0; });
  }

 private:
  struct Job {
    EngineKernel kernel = EngineKernel::matmul;
    unsigned threads = 1;
    size_t m = 0, k = 0, n = 0;
    long steps = 0;
    float scalar = 0;
  };

  void check_threads(unsigned threads) const {
    if (threads < 1 || threads > max_threads_) {
      throw ValueError("threads must be between 1 and " + std::to_string(max_threads_) +
                       " (this engine's max_threads), got " + std::to_string(threads));
    }
  }

  Buffer& checked(EngineBuffer buffer, size_t n, const char* what) {
    const int index = static_cast<int>(buffer);
    if (index < 0 || index > 3) {
      throw ValueError(std::string("cannot ") + what + " engine buffer " +
                       std::to_string(index) + ": the buffers are 0 (a) to 3 (out)");
    }
    Buffer& b = buffers_[index];
    if (n > b.floats) {
      throw ValueError(std::string("cannot ") + what + " " + std::to_string(n) +
                       " floats of engine buffer " + std::to_string(index) + ": prepare gave it " +
                       std::to_string(b.floats));
    }
    return b;
  }

  // What prepare must have made room for; a job beyond it would read or write past a buffer.
  void need(const char* what, size_t needed, size_t prepared) const {
    if (needed > prepared) {
      throw ValueError(std::string("the engine's ") + what + " holds " + std::to_string(prepared) +
                       " floats but this run needs " + std::to_string(needed) +
                       ": call prepare with the job's sizes first");
    }
  }
  void check_job(EngineKernel kernel, unsigned threads, size_t m, size_t k, size_t n) const {
    if (kernel == EngineKernel::peak) return;
    if (threads > scratch_.size() && kernel == EngineKernel::matmul) {
      throw ValueError("prepare made room for " + std::to_string(scratch_.size()) +
                       " threads, this run asks for " + std::to_string(threads));
    }
    switch (kernel) {
      case EngineKernel::matmul:
        need("buffer a", m * k, buffers_[0].floats);
        need("buffer b", k * n, buffers_[1].floats);
        need("buffer out", m * n, buffers_[3].floats);
        need("scratch", detail::packed_scratch_floats(k, n), scratch_.front().floats);
        return;
      case EngineKernel::gelu:
        need("buffer a", n, buffers_[0].floats);
        need("buffer out", n, buffers_[3].floats);
        return;
      case EngineKernel::triad:
        need("buffer a", n, buffers_[0].floats);
        need("buffer b", n, buffers_[1].floats);
        need("buffer c", n, buffers_[2].floats);
        return;
      default:
        throw ValueError("unknown engine kernel " + std::to_string(static_cast<int>(kernel)) +
                         "; the kernels are 0 (matmul), 1 (gelu), 2 (peak) and 3 (triad)");
    }
  }

  void run_band(const Job& job, unsigned t) {
    float* a = buffers_[0].data();
    float* b = buffers_[1].data();
    float* c = buffers_[2].data();
    float* out = buffers_[3].data();
    switch (job.kernel) {
      case EngineKernel::matmul: {
        const detail::Band band = detail::matmul_band(job.m, t, job.threads);
        detail::matmul_packed_rows(out, a, b, job.m, job.k, job.n, band.begin, band.end,
                                   scratch_[t].data());
        return;
      }
      case EngineKernel::gelu: {
        const detail::Band band = detail::element_band(job.n, t, job.threads);
        detail::gelu_fused_simd_range(out, a, band.begin, band.end);
        return;
      }
      case EngineKernel::peak:
        sinks_[t].f[0] = detail::peak_chains(job.steps, job.scalar);
        return;
      case EngineKernel::triad: {
        const detail::Band band = detail::element_band(job.n, t, job.threads);
        detail::triad_range(a, b, c, job.scalar, band.begin, band.end);
        return;
      }
    }
  }

  void start_pool() {
    if (!pool_.empty()) return;
    for (unsigned t = 1; t < max_threads_; ++t) pool_.emplace_back([this, t] { worker(t); });
  }

  void worker(unsigned t) {
    unsigned long seen = 0;
    for (;;) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        job = job_;
      }
      if (t >= job.threads) continue;  // not in this run
      run_band(job, t);
      bool last = false;
      {
        std::lock_guard<std::mutex> lock(mutex_);
        last = --remaining_ == 0;
      }
      if (last) done_.notify_one();
    }
  }

  unsigned max_threads_ = 1;
  Buffer buffers_[4];
  std::vector<Buffer> scratch_;
  std::vector<Line> sinks_;  // one line per thread: the peak chains' results, never shared
  std::vector<std::thread> pool_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  Job job_;
  unsigned long generation_ = 0;
  unsigned remaining_ = 0;
  bool stop_ = false;
};

#endif  // !__EMSCRIPTEN__

std::mutex g_engine_mutex;
std::shared_ptr<KernelEngine> g_engine;

}  // namespace

nlohmann::json to_json(const EngineFacts& facts) {
  return {{"flavours", facts.flavours},
          {"max_threads", facts.max_threads},
          {"shared_memory", facts.shared_memory},
          {"why", facts.why}};
}

void set_kernel_engine(std::shared_ptr<KernelEngine> engine) {
  std::lock_guard<std::mutex> lock(g_engine_mutex);
  g_engine = std::move(engine);
}

KernelEngine& kernel_engine() {
  std::lock_guard<std::mutex> lock(g_engine_mutex);
#if !defined(__EMSCRIPTEN__)
  if (!g_engine) {
    const unsigned hardware = std::thread::hardware_concurrency();  // 0 when unknown
    g_engine = make_thread_engine(hardware == 0 ? 1 : std::min(hardware, kMaxEngineThreads));
  }
#endif
  if (!g_engine) {
    throw Error(
        "no kernel engine is loaded: the lab worker installs it before the first engine call "
        "(api.js marks those calls engine: true)");
  }
  return *g_engine;
}

#if !defined(__EMSCRIPTEN__)
std::shared_ptr<KernelEngine> make_thread_engine(unsigned max_threads) {
  if (max_threads < 1 || max_threads > kMaxEngineThreads) {
    throw ValueError("a thread engine runs between 1 and " + std::to_string(kMaxEngineThreads) +
                     " threads, got " + std::to_string(max_threads));
  }
  return std::make_shared<ThreadEngine>(max_threads);
}
#endif

void check_engine_call(const KernelEngine& engine, const std::string& flavour, unsigned threads) {
  const EngineFacts facts = engine.facts();
  bool known = false;
  for (const auto& f : facts.flavours) known = known || f == flavour;
  if (!known) {
    throw ValueError("engine flavour '" + flavour + "' is not one this engine can run; it runs " +
                     join(facts.flavours) + " (" + facts.why + ")");
  }
  if (threads < 1 || threads > facts.max_threads) {
    throw ValueError("threads must be between 1 and " + std::to_string(facts.max_threads) +
                     " (this engine's max_threads: " + facts.why + "), got " +
                     std::to_string(threads));
  }
}

}  // namespace perflab
