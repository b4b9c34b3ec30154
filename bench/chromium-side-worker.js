// One contestant of compare.mjs's Chromium group, in a dedicated worker of a cross-origin
// isolated page (chromium-side.mjs serves it): TensorFlow.js's wasm backend with the binary
// and thread count it is told, or (kind 'ours') the lab's main module with the kernel engine
// installed, as the lab worker runs them. A classic worker, because TensorFlow.js ships UMD
// bundles for importScripts; the shared timer comes in with import().
//
// Messages in: {id, cmd: 'init', kind, binary, threads} | {id, cmd: 'product', n} |
// {id, cmd: 'time', n, options, flavour?, threads?}. Out: {id, result} or {id, error}.
'use strict';

let side = null; // {describe(), product(n), time(n, options)}
let timer = null; // js-timer.mjs

const TFJS = '/node_modules/@tensorflow';
const WASM_DIST = `${TFJS}/tfjs-backend-wasm/dist/`;
const BINARIES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];

// The .wasm files this worker fetched, from its resource timeline: what really ran, not what
// was asked for.
const fetchedWasm = () =>
  performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => p.endsWith('.wasm'));

// TensorFlow.js forced to one binary: the other two names point at a path that does not
// exist, so a different choice fails to initialise instead of measuring another binary.
// 'threaded-simd' needs SharedArrayBuffer (this page is cross-origin isolated); its pool has
// `threads` threads counting the calling one (XNNPACK's pthreadpool), as setThreadsCount says,
// but no more than navigator.hardwareConcurrency / 2: tfjs-backend-wasm 4.22's backend.cc
// (init_with_threads_count) assumes two logical CPUs per core and caps the pool at the cores
// it infers. On a machine with one logical CPU per core that cap halves the threads; given
// `logicalCpus`, this worker's navigator reports that many instead, so the cap is the one
// TF.js means: its physical cores. describe() says what TF.js then really uses.
async function initTfjs(binary, threads, logicalCpus) {
  if (logicalCpus !== undefined) {
    Object.defineProperty(self.navigator, 'hardwareConcurrency', { get: () => logicalCpus, configurable: true });
  }
  importScripts(`${TFJS}/tfjs-core/dist/tf-core.min.js`, `${WASM_DIST}tf-backend-wasm.min.js`);
  const tf = self.tf;
  const wanted = binary === 'threaded-simd' ? 'tfjs-backend-wasm-threaded-simd.wasm' : 'tfjs-backend-wasm-simd.wasm';
  tf.wasm.setWasmPaths(Object.fromEntries(BINARIES.map((f) =>
    [f, f === wanted ? `${WASM_DIST}${f}` : `${WASM_DIST}not-loaded-on-purpose/${f}`])));
  tf.env().set('WASM_HAS_SIMD_SUPPORT', true);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', binary === 'threaded-simd');
  tf.wasm.setThreadsCount(threads);
  if (!(await tf.setBackend('wasm'))) throw new Error(`TensorFlow.js could not initialise its wasm backend (${binary})`);
  await tf.ready();
  const tensors = new Map(); // n -> [a, b], made once per size
  const operands = (n) => {
    if (!tensors.has(n)) {
      tensors.set(n, [tf.tensor2d(timer.randomFloat32(1 + n, n * n), [n, n]), tf.tensor2d(timer.randomFloat32(2 + n, n * n), [n, n])]);
    }
    return tensors.get(n);
  };
  return {
    describe: () => ({ kind: 'tfjs', binary, threads: tf.wasm.getThreadsCount(), version: tf.wasm.version_wasm,
      wasm: fetchedWasm(), crossOriginIsolated: self.crossOriginIsolated, hardwareConcurrency: navigator.hardwareConcurrency, logicalCpusSet: logicalCpus }),
    product(n) {
      const [a, b] = operands(n);
      const c = tf.matMul(a, b);
      const data = c.dataSync();
      c.dispose();
      return Array.from(data); // a plain array crosses page.evaluate's serialisation
    },
    // tf.matMul alone: the wasm backend runs its kernel synchronously (its pool's threads
    // joined), so the product is complete when the op returns; the new tensor is disposed.
    time(n, options) {
      const [a, b] = operands(n);
      return timer.sampleCalls(() => tf.matMul(a, b).dispose(), options);
    },
  };
}

self.onmessage = async ({ data }) => {
  const { id, cmd } = data;
  try {
    let result;
    if (cmd === 'init') {
      timer = await import('/bench/js-timer.mjs');
      if (data.kind === 'tfjs') side = await initTfjs(data.binary, data.threads, data.logicalCpus);
      else if (data.kind === 'ours') side = await (await import('/bench/chromium-side-ours.mjs')).initOurs(data, timer);
      else throw new Error(`unknown contestant kind '${data.kind}'; allowed: tfjs, ours`);
      result = side.describe();
    } else if (cmd === 'product') {
      result = side.product(data.n, data);
    } else if (cmd === 'time') {
      result = side.time(data.n, data.options, data);
    } else {
      throw new Error(`unknown command '${cmd}'; allowed: init, product, time`);
    }
    self.postMessage({ id, result });
  } catch (e) {
    self.postMessage({ id, error: e?.stack ?? String(e) });
  }
};
