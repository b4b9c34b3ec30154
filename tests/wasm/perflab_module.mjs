// Loads the page's wasm modules (tools/wasm-node.mjs) for the Node tests of the bindings (the
// main module with loadPerflab, the training module with loadPerflabTrain, the grading module
// with loadPerflabGrade), and holds
// the small helpers those tests share (a seeded PRNG, random float32 data, the Fashion-MNIST
// files, an error's message).
// Not a test file itself: node --test only runs *.test.mjs here.
// Build dir: $PERFLAB_WASM_DIR, else build/wasm (the `wasm` preset); modules in <dir>/web/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadWasmModule } from '../../tools/wasm-node.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const wasmDir = process.env.PERFLAB_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm');

// The two builds: same bindings, core compiled with and without -msimd128. Each has three
// modules (web/src/lab/api.js MODULES): main (`name`), train (`train_name`, bind_train.cpp) and
// grade (`grade_name`, bind_grader.cpp).
export const BUILDS = [
  { flavour: 'simd', name: 'perflab_simd', train_name: 'perflab_train_simd', grade_name: 'perflab_grade_simd', simd: true },
  { flavour: 'scalar', name: 'perflab_scalar', train_name: 'perflab_train_scalar', grade_name: 'perflab_grade_scalar', simd: false },
];

const instances = new Map();

// One module instance per build, module and test file (node --test runs each file in its own
// process).
function load(name) {
  if (!instances.has(name)) instances.set(name, loadWasmModule(wasmDir, name));
  return instances.get(name);
}

/** The build's main module. */
export const loadPerflab = (build) => load(build.name);
/** The build's training module (loadFashionMnist, startTraining, trainSteps, ...). */
export const loadPerflabTrain = (build) => load(build.train_name);
/** The build's grading module (exerciseBank, exerciseVariant, gradeExercise, courseSeed, ...). */
export const loadPerflabGrade = (build) => load(build.grade_name);

// mulberry32: a tiny seeded PRNG so failures reproduce.
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// n float32 values uniform in [-1, 1).
export function randomFloat32(random, n) {
  const out = new Float32Array(n);
  for (let i = 0; i < n; ++i) out[i] = random() * 2 - 1;
  return out;
}

export const numel = (shape) => shape.reduce((p, d) => p * d, 1);

/** Debian's Fashion-MNIST, inflated as the page's worker inflates it: the four IDX files' bytes. */
export function fashionMnistFiles(dir = '/usr/share/datasets/fashion-mnist') {
  const read = (name) => new Uint8Array(gunzipSync(readFileSync(path.join(dir, name))));
  return {
    trainImages: read('train-images-idx3-ubyte.gz'),
    trainLabels: read('train-labels-idx1-ubyte.gz'),
    testImages: read('t10k-images-idx3-ubyte.gz'),
    testLabels: read('t10k-labels-idx1-ubyte.gz'),
  };
}

/** The message of the error fn throws; fails the test when it throws none. */
export function messageOf(fn) {
  try {
    fn();
  } catch (err) {
    return String(err.message);
  }
  assert.fail('expected an error');
}
