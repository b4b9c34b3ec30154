// Node's kernel engine: the page's engine (web/src/lab/engine/engine.js) over the same four
// modules, $PERFLAB_WASM_DIR/web/perflab_engine_{fma,simd}_{shared,single}.wasm (default
// build/wasm), its pool threads worker_threads workers running engine-thread.js. The twin of
// the browser's engine-loader.js, for tests/wasm and bench/. Node 20 compiles the fma
// (relaxed SIMD) modules only when started with --experimental-wasm-relaxed-simd; without it
// the engine has the simd flavour alone and says why.
// Not for: the main wasm modules (tools/wasm-node.mjs), validating calls (core does).
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createEngine } from '../web/src/lab/engine/engine.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const defaultWasmDir = process.env.PERFLAB_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm');
const threadScript = new URL('../web/src/lab/engine/engine-thread.js', import.meta.url);

/** The engine module file of `flavour` ("fma" or "simd") and `link` ("shared" or "single"). */
export function engineModuleFile(wasmDir, flavour, link) {
  return path.join(wasmDir, 'web', `perflab_engine_${flavour}_${link}.wasm`);
}

function readModule(file) {
  if (!existsSync(file)) {
    throw new Error(
      `${file} is missing: build the wasm modules first (tools/lab build), or set PERFLAB_WASM_DIR to a build`,
    );
  }
  return readFileSync(file);
}

// A worker_threads Worker behind the web Worker's shape engine.js expects (postMessage,
// terminate, onmessage and onerror receiving events). Unref'd once it has said it is ready
// (before, the wait for it keeps Node running): a test that forgets dispose() still exits.
function spawnNodeThread() {
  const worker = new Worker(threadScript);
  const like = {
    onmessage: null,
    onerror: null,
    postMessage: (message) => worker.postMessage(message),
    terminate: () => worker.terminate(),
  };
  worker.on('message', (data) => like.onmessage?.({ data }));
  worker.on('error', (error) => like.onerror?.({ error, message: error.message }));
  worker.once('message', () => worker.unref());
  return like;
}

/**
 * The engine, its modules compiled from `wasmDir` (default $PERFLAB_WASM_DIR, else build/wasm).
 * cap: the most threads it may use (core's kMaxEngineThreads, from engineFacts().cap, or what a
 * test needs); shared: false for the single link (one thread, unshared memory, as a page
 * that is not cross-origin isolated gets). Resolves once `threads` (default: all it may run)
 * can run.
 */
export async function loadNodeEngine({ cap, shared = true, threads, wasmDir = defaultWasmDir } = {}) {
  if (!(Number.isInteger(cap) && cap >= 1)) throw new Error(`cap must be a whole number of threads >= 1, not ${cap}`);
  const link = shared ? 'shared' : 'single';
  const modules = { simd: new WebAssembly.Module(readModule(engineModuleFile(wasmDir, 'simd', link))) };
  const fmaBytes = readModule(engineModuleFile(wasmDir, 'fma', link));
  let relaxed = true;
  try {
    modules.fma = new WebAssembly.Module(fmaBytes);
  } catch (err) {
    if (!(err instanceof WebAssembly.CompileError)) throw err;
    relaxed = false;
  }
  const cores = availableParallelism();
  const maxThreads = shared ? Math.min(cores, cap) : 1;
  const flavourWhy = relaxed
    ? 'relaxed SIMD available'
    : 'no relaxed SIMD in this Node (it needs --experimental-wasm-relaxed-simd): multiply then add';
  const plural = (n, what) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const capped = cores > cap ? `, capped at ${cap}` : '';
  const threadsWhy = shared
    ? `${plural(maxThreads, 'thread')}: shared memory, ${plural(cores, 'core')}${capped}`
    : 'one thread: unshared memory (the single link)';
  const why = `${flavourWhy}; ${threadsWhy}`;
  const engine = createEngine({ modules, shared, maxThreads, spawnThread: spawnNodeThread, why });
  await engine.ready(threads ?? maxThreads);
  return engine;
}
