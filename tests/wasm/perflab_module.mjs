// Loads the CommonJS builds of the wasm modules for the Node tests of the bindings (the main
// module with loadPerflab, the training module with loadPerflabTrain, the grading module with
// loadPerflabGrade), and holds
// the small helpers those tests share (a seeded PRNG, random float32 data, the Fashion-MNIST
// files, an error's message).
// Not a test file itself: node --test only runs *.test.mjs here.
// Build dir: $PERFLAB_WASM_DIR, else build/wasm (the `wasm` preset); modules in <dir>/node/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const wasmDir = process.env.PERFLAB_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm');

// The two Node builds: same bindings, core compiled with and without -msimd128. Each has three
// modules (web/src/lab/api.js MODULES): main (`file`), train (`train_file`, bind_train.cpp) and
// grade (`grade_file`, bind_grader.cpp).
export const BUILDS = [
  { flavour: 'simd', file: 'perflab_node.cjs', train_file: 'perflab_train_node.cjs', grade_file: 'perflab_grade_node.cjs', simd: true },
  { flavour: 'scalar', file: 'perflab_node_scalar.cjs', train_file: 'perflab_train_node_scalar.cjs', grade_file: 'perflab_grade_node_scalar.cjs', simd: false },
];

const require = createRequire(import.meta.url);
const instances = new Map();

// One module instance per build, module and test file (node --test runs each file in its own
// process).
function load(file) {
  if (!instances.has(file)) {
    const createPerflab = require(path.join(wasmDir, 'node', file));
    instances.set(file, createPerflab());
  }
  return instances.get(file);
}

/** The build's main module. */
export const loadPerflab = (build) => load(build.file);
/** The build's training module (loadFashionMnist, startTraining, trainSteps, ...). */
export const loadPerflabTrain = (build) => load(build.train_file);
/** The build's grading module (exerciseBank, exerciseVariant, gradeExercise, courseSeed, ...). */
export const loadPerflabGrade = (build) => load(build.grade_file);

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
