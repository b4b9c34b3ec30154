// The seam between the JS kernel engine (engine/engine.js) and a wasm module's core
// (wasm/engine_bridge.cpp): installs the engine as Module.perflabEngine behind methods that
// never throw (a JS exception unwinding through wasm frames would skip core's destructors),
// each returning its value or, on failure, an error sentence the bridge throws as a C++
// Error. The lab worker and the Node tests install engines through this one function.
// Not for: validation (core checks every call before it reaches the engine).

const failed = (what, err) => `the kernel engine could not ${what}: ${err?.message ?? String(err)}`;

function guard(what, fn) {
  return (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      return failed(what, err);
    }
  };
}

/** Makes `engine` the one core calls in `Module` (a main-module instance). */
export function installEngine(Module, engine) {
  Module.perflabEngine = Object.freeze({
    facts: guard('report its facts', () => engine.facts()),
    prepare: guard('make room for the job', (...a) => engine.prepare(...a)),
    write: guard('copy the inputs in', (...a) => engine.write(...a)),
    read: guard('copy the result out', (...a) => engine.read(...a)),
    run: guard('run the kernel', (...a) => engine.run(...a)),
  });
  return Module;
}
