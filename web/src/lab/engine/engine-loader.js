// The browser's kernel engine (engine.js) for the lab worker: detects what this browser can
// run (relaxed SIMD from wasm-feature-detect, which validates a tiny module; shared memory
// from crossOriginIsolated; cores from hardwareConcurrency, capped by core's cap), fetches
// and compiles the two modules that fit (fma and simd, shared or single link) once, at the
// first engine call, and spawns pool threads (engine-thread.js) as module workers.
// Nothing here runs at page load: the lab worker imports this module at its first engine
// call, so the engine's modules are not in the initial load. Node's twin: tools/engine-node.mjs.
// Not for: validating calls (core), the header's wording of these facts (the page asks core).
import { relaxedSimd } from 'wasm-feature-detect';
import fmaSharedUrl from '@wasm/perflab_engine_fma_shared.wasm?url';
import fmaSingleUrl from '@wasm/perflab_engine_fma_single.wasm?url';
import simdSharedUrl from '@wasm/perflab_engine_simd_shared.wasm?url';
import simdSingleUrl from '@wasm/perflab_engine_simd_single.wasm?url';
import { createEngine } from './engine.js';

const URLS = {
  fma: { shared: fmaSharedUrl, single: fmaSingleUrl },
  simd: { shared: simdSharedUrl, single: simdSingleUrl },
};

const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
const capped = (cores, cap) => (cores > cap ? `, capped at ${cap}` : '');

/**
 * What this browser's engine can run, without fetching anything: {relaxed, shared, cores,
 * max_threads, why}. cap: the most threads core allows (kMaxEngineThreads, engineFacts().cap).
 */
export async function detectEngine(cap) {
  if (!(Number.isInteger(cap) && cap >= 1)) {
    throw new Error(`the engine's thread cap must be a whole number >= 1, not ${cap}`);
  }
  const relaxed = await relaxedSimd();
  const shared = globalThis.crossOriginIsolated === true && canShareMemory();
  const cores = Math.max(1, Math.floor(globalThis.navigator?.hardwareConcurrency ?? 1));
  const maxThreads = shared ? Math.min(cores, cap) : 1;
  const why = describe({ relaxed, shared, cores, maxThreads, cap });
  return { relaxed, shared, cores, max_threads: maxThreads, why };
}

// Whether a shared WebAssembly.Memory can be made here: what the engine needs, asked
// directly. WebKitGTK 2.50 is cross-origin isolated and makes shared memories, yet names no
// SharedArrayBuffer global, so testing for the global would give it one thread for a wrong
// reason.
function canShareMemory() {
  try {
    return new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true }).buffer instanceof Object;
  } catch {
    return false;
  }
}

// One sentence: the flavour's reason, then the threads'.
function describe({ relaxed, shared, cores, maxThreads, cap }) {
  const flavour = relaxed ? 'relaxed SIMD available' : 'no relaxed SIMD in this browser: multiply then add';
  const threads = shared
    ? `${plural(maxThreads, 'thread')}: cross-origin isolated, ${plural(cores, 'core')}${capped(cores, cap)}`
    : 'one thread: the page is not cross-origin isolated (the server sends no COOP/COEP headers)';
  return `${flavour}; ${threads}`;
}

// A plain fetch and compile rather than compileStreaming, which needs the host to send
// application/wasm: a static host that does not would otherwise break the engine alone.
async function compile(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`fetching ${url} failed: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

function spawnThread() {
  return new Worker(new URL('./engine-thread.js', import.meta.url), { type: 'module', name: 'perflab-engine-thread' });
}

let loading = null;

/**
 * The engine, loaded once per worker (later calls get the same one). cap: core's thread cap;
 * threads: how many threads to have running before it resolves (default all it may run:
 * run() is synchronous, and a browser starts a worker only while its parent is idle, so a
 * job's threads must be up before core calls run(); engine.ready(n) starts more later).
 */
export function loadEngine({ cap, threads } = {}) {
  loading ??= load(cap, threads).catch((err) => {
    loading = null; // a later call tries again
    throw err;
  });
  return loading;
}

async function load(cap, threads) {
  const detected = await detectEngine(cap);
  const link = detected.shared ? 'shared' : 'single';
  const [simd, fma] = await Promise.all([
    compile(URLS.simd[link]),
    // wasm-feature-detect validated one relaxed instruction; a browser that still refuses the
    // whole module falls back to the simd flavour, and the sentence says so.
    detected.relaxed ? compile(URLS.fma[link]).catch(() => null) : null,
  ]);
  const why = detected.relaxed && !fma
    ? describe({ ...detected, maxThreads: detected.max_threads, cap, relaxed: false }).replace(
        'no relaxed SIMD in this browser',
        'this browser validates relaxed SIMD but would not compile the FMA kernels',
      )
    : detected.why;
  const engine = createEngine({
    modules: fma ? { fma, simd } : { simd },
    shared: detected.shared,
    maxThreads: detected.max_threads,
    spawnThread,
    why,
  });
  try {
    await engine.ready(threads ?? detected.max_threads);
  } catch (err) {
    engine.dispose();
    throw err;
  }
  return engine;
}
