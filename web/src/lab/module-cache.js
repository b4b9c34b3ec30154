// The lab worker's wasm modules, one instance per build, loaded on first use. A module that
// aborted (Emscripten's `RuntimeError: Aborted()`, or any other wasm trap) is in an unknown
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

/**
 * @param {(build: string) => Promise<object>} instantiate creates a fresh module of a build
 * @returns {{load(build: string): Promise<object>, replaceIfAborted(builds: string[], err: unknown): unknown}}
 */
export function createModuleCache(instantiate) {
  const modules = new Map(); // build -> Promise<Module>
  return {
    async load(build) {
      if (!modules.has(build)) {
        const loading = Promise.resolve().then(() => instantiate(build));
        // A failed load must not stick: forget it so the next request tries again.
        loading.catch(() => modules.delete(build));
        modules.set(build, loading);
      }
      try {
        return await modules.get(build);
      } catch (err) {
        throw new Error(`could not load the ${build} wasm build: ${err?.message ?? err}`);
      }
    },
    // The error to report for `err`, thrown by a call into the modules of `builds`: when it is
    // an abort, those modules are dropped (the next call loads fresh ones) and the message says
    // so; otherwise `err` itself.
    replaceIfAborted(builds, err) {
      if (!isModuleAbort(err)) return err;
      for (const build of builds) modules.delete(build);
      const which = builds.length === 1 ? `the ${builds[0]} WebAssembly module` : 'the WebAssembly modules';
      const message = err?.message ?? String(err);
      return new Error(
        `${message} — ${which} stopped and has been replaced by a fresh instance; ` +
          'results measured before are kept, and the next run starts from a clean state',
        { cause: err },
      );
    },
  };
}
