// The kernel engine's seam in wasm: core's KernelEngine (kernels/engine.hpp) implemented by
// calls to the JS engine the lab worker installs as Module.perflabEngine
// (web/src/lab/engine-seam.js wraps web/src/lab/engine/engine.js). The engine runs the FMA and
// threaded kernels in its own wasm modules and memory (docs/PARALLEL.md); core keeps the
// inputs, the Timer and the verification, and only copies and calls through here.
// Every JS method returns undefined, or an error sentence instead of throwing, so no JS
// exception ever unwinds through wasm frames (convert.hpp, guarded()).
// Not for: validation (core's check_engine_call runs before any call reaches here).
#include <memory>
#include <string>

#include <emscripten/val.h>

#include "convert.hpp"
#include "perflab/base/error.hpp"
#include "perflab/kernels/engine.hpp"

namespace perflab::wasm {
namespace {

class JsEngine final : public KernelEngine {
 public:
  EngineFacts facts() const override {
    const val reply = engine().call<val>("facts");
    check(reply);
    const nlohmann::json j = to_json(reply, "the kernel engine's facts");
    EngineFacts f;
    f.flavours = j.at("flavours").get<std::vector<std::string>>();
    f.max_threads = j.at("max_threads").get<unsigned>();
    f.shared_memory = j.at("shared_memory").get<bool>();
    f.why = j.at("why").get<std::string>();
    return f;
  }
  void prepare(std::size_t a, std::size_t b, std::size_t c, std::size_t out,
               std::size_t scratch_per_thread, unsigned threads) override {
    check(engine().call<val>("prepare", a, b, c, out, scratch_per_thread, threads));
  }
  void write(EngineBuffer buffer, const float* src, std::size_t n) override {
    check(engine().call<val>("write", static_cast<int>(buffer),
                             val(emscripten::typed_memory_view(n, src))));
  }
  void read(EngineBuffer buffer, float* dst, std::size_t n) override {
    check(engine().call<val>("read", static_cast<int>(buffer),
                             val(emscripten::typed_memory_view(n, dst))));
  }
  void run(EngineKernel kernel, const std::string& flavour, unsigned threads, std::size_t m,
           std::size_t k, std::size_t n, long steps, float scalar) override {
    check(engine().call<val>("run", static_cast<int>(kernel), flavour, threads, m, k, n,
                             static_cast<double>(steps), scalar));
  }

 private:
  static val engine() {
    const val e = val::module_property("perflabEngine");
    if (e.isUndefined() || e.isNull()) {
      throw Error(
          "the kernel engine is not loaded: the lab worker loads it before the first parallel "
          "or FMA measurement (this module was called without it)");
    }
    return e;
  }
  static void check(const val& result) {
    if (result.isString()) throw Error(result.as<std::string>());
  }
};

// Installed when the module starts; each call asks for Module.perflabEngine then, so a
// module used before the engine is loaded says so in a sentence.
const bool installed = [] {
  set_kernel_engine(std::make_shared<JsEngine>());
  return true;
}();

}  // namespace
}  // namespace perflab::wasm
