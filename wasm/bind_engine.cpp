// Bindings for the kernel engine (kernels/engine.hpp): what it can run, the parallel and FMA
// measurements (kernels/parallel.hpp), the engine's peaks (roofline/probe_engine.hpp) and the
// analysis of a thread-scaling run (stats/scaling.hpp). The lab worker installs the JS
// engine before any call but engineLimits (api.js: `engine: true`).
// Not for: validation or arithmetic (core), the engine itself (web/src/lab/engine/).
#include <string>
#include <utility>
#include <vector>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/base/format.hpp"
#include "perflab/kernels/engine.hpp"
#include "perflab/kernels/parallel.hpp"
#include "perflab/roofline/probe.hpp"
#include "perflab/roofline/probe_engine.hpp"
#include "perflab/stats/scaling.hpp"

namespace perflab::wasm {
namespace {

// A thread count: an integer from 1 to the cap (core's check_engine_call then holds it to
// what this engine can run).
unsigned to_threads(const val& v) {
  const std::size_t t = to_size(v, "threads");
  if (t < 1 || t > kMaxEngineThreads) {
    throw ValueError("threads must be an integer from 1 to " +
                     std::to_string(kMaxEngineThreads) + ", got " + describe(v));
  }
  return static_cast<unsigned>(t);
}

// engineLimits(): what the page needs before the engine is loaded: the thread cap.
val engine_limits_js() { return to_val(nlohmann::json{{"max_threads_cap", kMaxEngineThreads}}); }

// engineFacts(): the loaded engine's flavours, threads and why, with the cap.
val engine_facts_js() {
  nlohmann::json j = to_json(kernel_engine().facts());
  j["max_threads_cap"] = kMaxEngineThreads;
  return to_val(j);
}

val measure_parallel_matmul_js(val flavour, val threads, val n, val options) {
  // Converted one by one, in order, so the first bad argument is the one reported.
  const std::string f = to_string(flavour, "flavour");
  const unsigned t = to_threads(threads);
  const std::size_t size = to_size(n, "n");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_parallel_matmul(f, t, size, timer_options)));
}

val measure_parallel_gelu_js(val flavour, val threads, val elements, val options) {
  const std::string f = to_string(flavour, "flavour");
  const unsigned t = to_threads(threads);
  const std::size_t size = to_size(elements, "elements");
  const TimerOptions timer_options = to_timer_options(options);
  return to_val(to_json(measure_parallel_gelu(f, t, size, timer_options)));
}

// probeEngine(threads, {quick}?): the engine's peaks on 1 and `threads` threads.
val probe_engine_js(val threads, val options) {
  const unsigned t = to_threads(threads);
  check_option_keys(options, {"quick"});
  const val q = option(options, "quick");
  if (!q.isUndefined() && !q.isTrue() && !q.isFalse()) {
    throw ValueError("options.quick must be true or false, got " + describe(q));
  }
  const ProbeOptions probe_options = q.isTrue() ? ProbeOptions::quick() : ProbeOptions{};
  return to_val(to_json(probe_engine(t, probe_options)));
}

// analyzeScaling([{threads, median_ms}, ...]): speedup, efficiency, Karp-Flatt and the
// Amdahl fit; core checks the points.
val analyze_scaling_js(val points) {
  const nlohmann::json j = to_json(points, "points");
  if (!j.is_array()) {
    throw ValueError("points must be an array of {threads, median_ms}, got " + describe(points));
  }
  std::vector<std::pair<unsigned, double>> pts;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string where = "points[" + std::to_string(i) + "]";
    const nlohmann::json& p = j[i];
    // Types only: core's analyze_scaling refuses a thread count out of range, a repeated
    // one, a missing 1-thread point and a median that is not above 0, each in a sentence.
    if (!p.is_object() || !p.contains("threads") || !p.contains("median_ms") ||
        !p["threads"].is_number_unsigned() || p["threads"].get<unsigned long long>() > 1000000 ||
        !p["median_ms"].is_number()) {
      throw ValueError(where + " must be {threads: a whole number, median_ms: a number}, got " +
                       perflab::describe(p));
    }
    pts.emplace_back(p["threads"].get<unsigned>(), p["median_ms"].get<double>());
  }
  return to_val(to_json(analyze_scaling(pts)));
}

}  // namespace

EMSCRIPTEN_BINDINGS(perflab_engine) {
  expose<&engine_limits_js>("engineLimits");
  expose<&engine_facts_js>("engineFacts");
  expose<&measure_parallel_matmul_js>("measureParallelMatmul");
  expose<&measure_parallel_gelu_js>("measureParallelGelu");
  expose<&probe_engine_js>("probeEngine");
  expose<&analyze_scaling_js>("analyzeScaling");
}

}  // namespace perflab::wasm
