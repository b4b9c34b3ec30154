// The lab worker's wasm modules, one instance per build and module (api.js MODULES: main,
// train), each loaded on first use. A module that aborted (Emscripten's `RuntimeError: Aborted()`, or any other wasm trap) is in an unknown
// state, so it is forgotten and the next call gets a fresh instance; the error that reaches
// the page says so. Pure: the worker passes the factory, the tests a fake one.
// Not for: choosing a build (worker.js) or calling functions (worker.js, sweep.js).

/** True for an error thrown by a wasm trap or an Emscripten abort, also when wrapped (`cause`). */
export function isModuleAbort(err) {
  for (let e = err, depth = 0; e && depth < 8; e = e.cause, ++depth) {
    if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
    if (typeof e.message === 'string' && /(^|\W)Aborted\(/.test(e.message)) return true;
  }
  return false;
}

// How messages name each module (the main one by its build alone) and what its replacement
// loses: the training module holds data sets and models between calls (by id), gone with it;
// the grading module holds nothing between calls.
const WORDS = {
  main: { name: '', lost: 'results measured before are kept, and the next run starts from a clean state' },
  train: {
    name: ' training',
    lost: 'the data sets and models it held are gone (load them again); results shown before are kept',
  },
  grade: {
    name: ' grading',
    lost: 'it holds nothing between calls, so only the call that failed is lost; grades shown before are kept',
  },
};
const named = (module) => WORDS[module]?.name ?? ` ${module}`;

/**
 * @param {(build: string, module: string) => Promise<object>} instantiate creates a fresh
 *   instance of a module (api.js MODULES) in a build
 * @returns {{load(build: string, module?: string): Promise<object>,
 *   replaceIfAborted(builds: string[], err: unknown, module?: string): unknown}}
 */
export function createModuleCache(instantiate) {
  const modules = new Map(); // "module build" -> Promise<Module>
  const key = (build, module) => `${module} ${build}`;
  return {
    async load(build, module = 'main') {
      const k = key(build, module);
      if (!modules.has(k)) {
        const loading = Promise.resolve().then(() => instantiate(build, module));
        // A failed load must not stick: forget it so the next request tries again.
        loading.catch(() => modules.delete(k));
        modules.set(k, loading);
      }
      try {
        return await modules.get(k);
      } catch (err) {
        const what = module === 'main' ? `the ${build} wasm build` : `the ${build} wasm build's${named(module)} module`;
        throw new Error(`could not load ${what}: ${err?.message ?? err}`);
      }
    },
    // The error to report for `err`, thrown by a call into `module` (default main) of `builds`:
    // when it is an abort, those instances are dropped (the next call loads fresh ones; the
    // other module's instances are kept) and the message says so; otherwise `err` itself.
    replaceIfAborted(builds, err, module = 'main') {
      if (!isModuleAbort(err)) return err;
      for (const build of builds) modules.delete(key(build, module));
      const which =
        builds.length === 1 ? `the ${builds[0]}${named(module)} WebAssembly module` : `the${named(module)} WebAssembly modules`;
      const message = err?.message ?? String(err);
      return new Error(
        `${message} — ${which} stopped and has been replaced by a fresh instance; ${(WORDS[module] ?? WORDS.main).lost}`,
        { cause: err },
      );
    },
  };
}
