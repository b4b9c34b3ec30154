// Ours in compare.mjs's Chromium group (imported by chromium-side-worker.js): the page's SIMD
// main module (build/wasm/web/perflab_simd) with the kernel engine installed as the lab
// worker installs it (engine-seam.js), over the engine's shared links, so the threaded
// figures compared with TensorFlow.js's threaded backend run in the same browser. The engine
// is put together here from engine.js rather than by engine-loader.js, whose `?url` imports
// only Vite resolves; the modules, the thread script and the seam are the page's own files.
// Relaxed SIMD is detected as the page's loader does: the fma module compiles or it does not.
import createPerflab from '/build/wasm/web/perflab_simd.mjs';
import { createEngine } from '/web/src/lab/engine/engine.js';
import { installEngine } from '/web/src/lab/engine-seam.js';

const WEB = '/build/wasm/web';

async function compileEngine(flavour) {
  const response = await fetch(`${WEB}/perflab_engine_${flavour}_shared.wasm`);
  if (!response.ok) throw new Error(`${WEB}/perflab_engine_${flavour}_shared.wasm: HTTP ${response.status} (build the wasm modules first)`);
  return WebAssembly.compile(await response.arrayBuffer());
}

export async function initOurs() {
  const perflab = await createPerflab({ locateFile: (p) => (p.endsWith('.wasm') ? `${WEB}/perflab_simd.wasm` : p) });
  if (!self.crossOriginIsolated) throw new Error('the page is not cross-origin isolated: the engine cannot share its memory');
  const modules = { simd: await compileEngine('simd') };
  let relaxed = true;
  try {
    modules.fma = await compileEngine('fma');
  } catch (err) {
    if (!(err instanceof WebAssembly.CompileError)) throw err;
    relaxed = false;
  }
  const cap = perflab.engineLimits().max_threads_cap;
  const maxThreads = Math.min(navigator.hardwareConcurrency, cap);
  const why = `${relaxed ? 'relaxed SIMD available' : 'no relaxed SIMD in this browser: multiply then add'}; ` +
    `${maxThreads} thread(s): shared memory, ${navigator.hardwareConcurrency} logical CPUs`;
  const engine = createEngine({ modules, shared: true, maxThreads, why,
    spawnThread: () => new Worker('/web/src/lab/engine/engine-thread.js', { type: 'module' }) });
  await engine.ready(maxThreads);
  installEngine(perflab, engine);
  return {
    describe: () => ({ kind: 'ours', build: perflab.buildInfo().simd_backend, engine: perflab.engineFacts() }),
    product() {
      throw new Error('ours is verified by core inside each measurement (max_error), not here');
    },
    // No flavour: the main module's packed matmul (measureMatmul); else the engine's
    // `flavour` on `threads` threads (measureParallelMatmul). Core's Timer either way.
    time(n, options, { flavour, threads }) {
      if (flavour === undefined) return perflab.measureMatmul('packed', n, options).stats;
      const row = perflab.measureParallelMatmul(flavour, threads, n, options);
      return { ...(row.stats ?? row), max_error: row.max_error };
    },
  };
}
