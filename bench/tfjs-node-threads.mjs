// Does TensorFlow.js 4.22's threaded SIMD wasm backend run in this Node, on 1 and on 2
// threads? Each attempt runs in a fresh child process (a failed backend initialisation leaves
// tfjs's registry behind it): forced to the threaded binary (WASM_HAS_MULTITHREAD_SUPPORT,
// which tfjs itself sets false under Node), setThreadsCount(T), setBackend('wasm'), then one
// 512 × 512 product checked against a plain JS product. Prints one line per thread count:
// the threads tfjs reports and the product's error, or the error that stopped it. The answer
// is why compare.mjs times TensorFlow.js's threaded backend in Chromium (bench/README.md).
//
//   node --no-experimental-fetch bench/tfjs-node-threads.mjs
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomFloat32 } from './js-timer.mjs';

const require = createRequire(import.meta.url);
const self = fileURLToPath(import.meta.url);
const ATTEMPT_MS = 30000; // a pool that never starts would otherwise hang the attempt

async function attempt(threads) {
  const tf = require('@tensorflow/tfjs-core');
  const tfwasm = require('@tensorflow/tfjs-backend-wasm');
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const before = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  tfwasm.setWasmPaths(`${dist}/`);
  tf.env().set('WASM_HAS_SIMD_SUPPORT', true);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', true);
  tfwasm.setThreadsCount(threads);
  const messages = [];
  const originalWarn = console.warn;
  console.warn = (...a) => messages.push(a.map(String).join(' ').split('\n')[0]);
  const ok = await tf.setBackend('wasm').catch((e) => { messages.push(String(e?.message ?? e)); return false; });
  console.warn = originalWarn;
  const prefix = `threads ${threads} (tfjs's own WASM_HAS_MULTITHREAD_SUPPORT here: ${before}):`;
  if (!ok) {
    console.log(`${prefix} does not run: ${messages.filter((m) => !/^\s*at /.test(m)).join(' | ')}`);
    return;
  }
  const n = 512;
  const a = randomFloat32(1, n * n);
  const b = randomFloat32(2, n * n);
  const got = tf.matMul(tf.tensor2d(a, [n, n]), tf.tensor2d(b, [n, n])).dataSync();
  let worst = 0;
  for (let i = 0; i < n; i += 37) {
    for (let j = 0; j < n; j += 41) {
      let s = 0;
      for (let k = 0; k < n; ++k) s += a[i * n + k] * b[k * n + j];
      worst = Math.max(worst, Math.abs(s - got[i * n + j]));
    }
  }
  console.log(`${prefix} runs on ${tfwasm.getThreadsCount()} thread(s), largest error on sampled entries ${worst.toExponential(1)}`);
}

const i = process.argv.indexOf('--attempt');
if (i >= 0) {
  await attempt(Number(process.argv[i + 1]));
  process.exit(0);
}
console.log(`TensorFlow.js ${require('@tensorflow/tfjs-backend-wasm/package.json').version} threaded SIMD wasm backend in Node ${process.version}:`);
for (const threads of [1, 2]) {
  const child = spawnSync(process.execPath, [...process.execArgv, self, '--attempt', String(threads)],
    { encoding: 'utf8', timeout: ATTEMPT_MS });
  const out = `${child.stdout}`.trim();
  console.log(out || `threads ${threads}: no answer within ${ATTEMPT_MS / 1000} s (${child.signal ?? `exit ${child.status}`}) ${`${child.stderr}`.trim().split('\n')[0]}`);
}
