// The lab worker: owns the wasm modules (nothing else touches them), answers requests
// through a `handlers = {kind: fn}` table built from the declared API (api.js: one handler
// per declared function, plus machineInfo), each call going to the module its declaration
// names (the main one, or the training or grading one, each loaded at its first call), and replies
// with progress, result or error
// (protocol.js). Sweeps (sweep.js) yield a macrotask between measured points so a cancel
// message is seen. Not for: student code (the sandbox worker runs it) or any arithmetic core does.

import { simd } from 'wasm-feature-detect';
// `?url` makes Vite emit each .wasm as an asset and hand us its final URL, the same in
// `vite dev`, `vite build` and `vite preview`; locateFile passes it to Emscripten. A URL is
// only a string: nothing is fetched until a module is instantiated.
import simdWasmUrl from '@wasm/perflab_simd.wasm?url';
import scalarWasmUrl from '@wasm/perflab_scalar.wasm?url';
import trainSimdWasmUrl from '@wasm/perflab_train_simd.wasm?url';
import trainScalarWasmUrl from '@wasm/perflab_train_scalar.wasm?url';
import gradeSimdWasmUrl from '@wasm/perflab_grade_simd.wasm?url';
import gradeScalarWasmUrl from '@wasm/perflab_grade_scalar.wasm?url';
import { API, BUILDS, CALL, MODULES, payloadProblem, positional } from './api.js';
import { KINDS, cancelledError, errorReply, progressReply, requestProblem, resultReply } from './protocol.js';
import { createModuleCache } from './module-cache.js';
import { inflateArguments } from './inflate.js';
import { runSweep } from './sweep.js';
import { installEngine } from './engine-seam.js';

const simdAvailable = simd();

// Dynamic imports: a browser without SIMD never downloads the SIMD glue, the "same C++ with
// and without SIMD" experiment can load both, a page that never trains never downloads the
// training module, and the grading module arrives at the first grading call, after the page
// is usable (module -> build -> its glue and wasm URL; api.js MODULES).
const factories = {
  main: {
    simd: () => import('@wasm/perflab_simd.mjs').then((m) => [m.default, simdWasmUrl]),
    scalar: () => import('@wasm/perflab_scalar.mjs').then((m) => [m.default, scalarWasmUrl]),
  },
  train: {
    simd: () => import('@wasm/perflab_train_simd.mjs').then((m) => [m.default, trainSimdWasmUrl]),
    scalar: () => import('@wasm/perflab_train_scalar.mjs').then((m) => [m.default, trainScalarWasmUrl]),
  },
  grade: {
    simd: () => import('@wasm/perflab_grade_simd.mjs').then((m) => [m.default, gradeSimdWasmUrl]),
    scalar: () => import('@wasm/perflab_grade_scalar.mjs').then((m) => [m.default, gradeScalarWasmUrl]),
  },
};
for (const module of Object.keys(MODULES)) {
  if (!factories[module]) throw new Error(`the lab worker cannot load the ${module} module that api.js declares`);
}
// One instance per build and module; one that aborted is replaced by a fresh one
// (module-cache.js).
const modules = createModuleCache((build, module) =>
  factories[module][build]().then(([createPerflab, wasmUrl]) =>
    createPerflab({ locateFile: (path) => (path.endsWith('.wasm') ? wasmUrl : path) }),
  ),
);

async function resolveBuild(requested = 'auto') {
  const available = await simdAvailable;
  if (requested === 'auto' || requested === undefined) return available ? 'simd' : 'scalar';
  if (!BUILDS.includes(requested)) {
    throw new Error(`unknown build "${requested}"; allowed: auto, ${BUILDS.join(', ')}`);
  }
  if (requested === 'simd' && !available) {
    throw new Error('this browser has no WebAssembly SIMD; only the scalar build can run here');
  }
  return requested;
}

const loadModule = (build, module = 'main') => modules.load(build, module);

// The kernel engine (engine/: the FMA and threaded kernels in their own small modules),
// loaded at the first call that needs it (api.js `engine: true`), once per worker, and
// installed in each main-module instance that makes such a call (engine-seam.js). Its loader
// is imported only then, so a page that never measures a parallel kernel never fetches it.
let enginePromise = null;
// The loader is small (no engine module is fetched to detect); its import starts with the
// main module's load, not after it, so the header's facts are not held up by it.
async function engineChoice(Module, loader) {
  const { detectEngine } = await loader;
  return detectEngine(Module.engineLimits().max_threads_cap);
}
async function withEngine(Module) {
  enginePromise ??= Promise.all([import('./engine/engine-loader.js'), Module.engineLimits()])
    .then(([{ loadEngine }, limits]) => loadEngine({ cap: limits.max_threads_cap }))
    .catch((err) => {
      enginePromise = null; // a later call tries again
      throw new Error(`the kernel engine could not load: ${err?.message ?? err}`);
    });
  const engine = await enginePromise;
  if (Module.perflabEngine === undefined) installEngine(Module, engine);
  return Module;
}

async function moduleFor(payload, module = 'main') {
  const build = await resolveBuild(payload.build);
  return { build, Module: await loadModule(build, module) };
}

// One handler per declared function (api.js), checked against its declaration before a
// build is loaded: a call runs once with its named arguments in the declared order; a point
// function runs the sweep over `points`, in one build, in each of `builds`, or point by
// point in the build each names, always in the module the declaration names. A call that
// aborts its module (modules.replaceIfAborted) is reported with a note that the module was
// replaced.
function declaredHandler(name, entry) {
  const { module } = entry;
  return async (payload, ctx) => {
    const problem = payloadProblem(name, payload);
    if (problem) throw new Error(problem);
    const used = [];
    try {
      if (entry.type === CALL) {
        const { build, Module } = await moduleFor(payload, module);
        used.push(build);
        if (entry.engine) await withEngine(Module);
        if (typeof Module[name] !== 'function') {
          throw new Error(`the ${build} wasm build's ${module} module has no function ${name}; rebuild wasm/ (needed to ${entry.label(payload)})`);
        }
        // Gzip'd byte arguments (the data's .gz files) are inflated here: core's wasm has no zlib.
        return Module[name](...positional(name, await inflateArguments(payload, entry.inflates)));
      }
      if (payload.builds) {
        // Every build resolved first, so a browser without SIMD says so before anything runs.
        for (const build of payload.builds) await resolveBuild(build);
        const loaded = [];
        for (const build of payload.builds) loaded.push([build, await loadModule(build, module)]);
        used.push(...payload.builds);
        if (entry.engine) for (const [, M] of loaded) await withEngine(M);
        return await runSweep(loaded, name, payload.points, ctx, { byBuild: true });
      }
      const named = [...new Set(payload.points.map((p) => p.build).filter((b) => b !== undefined))];
      if (named.length > 0) {
        // Points that name their build: the sweep's own build first (for the points that do
        // not), then each named one, all resolved before anything runs.
        const builds = payload.points.some((p) => p.build === undefined) ? [await resolveBuild(payload.build)] : [];
        for (const build of named) if (!builds.includes(await resolveBuild(build))) builds.push(build);
        const loaded = [];
        for (const build of builds) loaded.push([build, await loadModule(build, module)]);
        used.push(...builds);
        if (entry.engine) for (const [, M] of loaded) await withEngine(M);
        return await runSweep(loaded, name, payload.points, ctx);
      }
      const { build, Module } = await moduleFor(payload, module);
      used.push(build);
      if (entry.engine) await withEngine(Module);
      return await runSweep([[build, Module]], name, payload.points, ctx);
    } catch (err) {
      throw modules.replaceIfAborted(used, err, module);
    }
  };
}

const handlers = {
  ...Object.fromEntries(Object.entries(API).map(([name, entry]) => [name, declaredHandler(name, entry)])),

  // {build?} -> the page header's machine facts (main.js).
  async [KINDS.machineInfo](payload) {
    const loader = import('./engine/engine-loader.js');
    loader.catch(() => {}); // awaited below only with SIMD; its failure is reported there
    const { build, Module } = await moduleFor(payload);
    return {
      build,
      simd_available: await simdAvailable,
      build_info: Module.buildInfo(),
      timer_resolution_ms: Module.timerResolutionMs(),
      cross_origin_isolated: Boolean(self.crossOriginIsolated),
      matmul_variants: Module.matmulVariants(),
      // What the kernel engine would run here (flavour, threads, why), detected without
      // fetching its modules; null where the engine cannot run (no SIMD).
      engine: (await simdAvailable) ? await engineChoice(Module, loader) : null,
    };
  },
};

const running = new Map(); // request id -> {cancelled}

self.onmessage = async (event) => {
  const msg = event.data;
  const problem = requestProblem(msg);
  if (problem) {
    if (Number.isInteger(msg?.id)) self.postMessage(errorReply(msg.id, new Error(problem)));
    else console.error(`lab worker: ignoring a malformed request: ${problem}`);
    return;
  }
  if (msg.kind === KINDS.cancel) {
    const job = running.get(msg.payload.target);
    if (job) job.cancelled = true;
    return;
  }
  const handler = Object.hasOwn(handlers, msg.kind) ? handlers[msg.kind] : null;
  if (!handler) {
    const known = Object.keys(handlers).join(', ');
    self.postMessage(errorReply(msg.id, new Error(`unknown request kind "${msg.kind}"; known: ${known}`)));
    return;
  }
  const job = { cancelled: false };
  running.set(msg.id, job);
  const ctx = {
    progress: (fraction, detail) => self.postMessage(progressReply(msg.id, fraction, detail)),
    get cancelled() {
      return job.cancelled;
    },
    throwIfCancelled() {
      if (job.cancelled) throw cancelledError();
    },
  };
  try {
    self.postMessage(resultReply(msg.id, await handler(msg.payload, ctx)));
  } catch (err) {
    self.postMessage(errorReply(msg.id, err));
  } finally {
    running.delete(msg.id);
  }
};
