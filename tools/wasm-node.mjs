// Node's way into the wasm modules: the page's own files, build/wasm/web/<name>.mjs and
// <name>.wasm (ES6 glue built for a worker), so every Node test, tool and benchmark runs the
// very bytes the page's lab worker loads. Emscripten 3.1.6's worker glue needs two things
// Node lacks: `self.location.href`, read once when the factory starts (only for the module's
// directory, which the glue then takes from import.meta.url), and a fetch of the .wasm, which
// Node cannot do for a file: URL (the binary is read from disk and handed over as wasmBinary).
// Nothing else in the glue looks for a worker. Not for: the kernel engine modules
// (tools/engine-node.mjs), the doctest and bench binaries (their own CommonJS builds).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module's files in the build `wasmDir`: `{js, wasm}`. */
export function wasmModuleFiles(wasmDir, name) {
  return { js: path.join(wasmDir, 'web', `${name}.mjs`), wasm: path.join(wasmDir, 'web', `${name}.wasm`) };
}

/**
 * Instantiates the build's module `name` (perflab_simd, perflab_scalar, perflab_train_simd,
 * perflab_train_scalar, perflab_grade_simd or perflab_grade_scalar: wasm/CMakeLists.txt) with
 * `options` (print, printErr, ...) and resolves to it. Throws an Error naming the missing file
 * when the build has none.
 */
export async function loadWasmModule(wasmDir, name, options = {}) {
  const { js, wasm } = wasmModuleFiles(wasmDir, name);
  for (const file of [js, wasm]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build the wasm modules first (tools/lab build), or set PERFLAB_WASM_DIR to a build`);
  }
  const { default: factory } = await import(pathToFileURL(js).href);
  return withWorkerLocation(pathToFileURL(js).href, () => factory({ ...options, wasmBinary: readFileSync(wasm) }));
}

// The factory reads `self.location.href` synchronously, before its first await, so the stand-in
// `self` lives only for that call and nothing else in the process sees it.
function withWorkerLocation(href, start) {
  if (globalThis.self?.location) return start();
  const had = Object.getOwnPropertyDescriptor(globalThis, 'self');
  Object.defineProperty(globalThis, 'self', { value: { location: { href } }, configurable: true, writable: true });
  try {
    return start();
  } finally {
    if (had) Object.defineProperty(globalThis, 'self', had);
    else delete globalThis.self;
  }
}
