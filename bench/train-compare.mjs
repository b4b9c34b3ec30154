// Training throughput, one Node process: core's trainer through our wasm training bindings
// against TensorFlow.js's wasm backend (non-threaded SIMD binary, one thread) training the
// same model, core's zoo `fashion_mlp` (784-256-128-10, ReLU, softmax cross-entropy), with
// the same recipe (core's baseline: Adam and its betas and eps, batch 64, learning rate
// 1e-3, held constant here; the same standardisation of the pixels) on the same real
// Fashion-MNIST rows (the first steps × batch images of the training split). After one
// warmup round each, interleaved rounds of a fixed number of steps; each round prints every
// side's samples/s, ours with core's time split (data, forward, loss, backward, optimizer),
// then the median ratio ours/theirs against the floor of issue 23 (3×), the FLOP
// arithmetic, and each side's test accuracy after the same steps (both must have learned).
// Not a test: it asserts no timing and exits 0 whatever the ratio; exit 1 means a side
// failed to load or did not learn, 2 a bad argument.
// Usage: node --no-experimental-fetch bench/train-compare.mjs [--quick] [--rounds R]
//          [--steps S] [--data DIR] [--wasm-dir DIR]
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { loadWasmModule, wasmModuleFiles } from '../tools/wasm-node.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const USAGE = 'usage: node --no-experimental-fetch bench/train-compare.mjs [--quick] [--rounds R] ' +
  '[--steps S] [--data DIR] [--wasm-dir DIR]';
const MODEL = 'fashion_mlp'; // core's zoo entry and baseline recipe
const FLOOR = 3.0; // ours/theirs samples/s, issue 23
const TEST_IMAGES = 2000; // the accuracy check: the first rows of the test split
const LEARNED_ACCURACY = 0.5; // chance is 0.1; below this a side did not train at all
const DEFAULT_DATA = '/usr/share/datasets/fashion-mnist';
const FILES = {
  trainImages: 'train-images-idx3-ubyte.gz', trainLabels: 'train-labels-idx1-ubyte.gz',
  testImages: 't10k-images-idx3-ubyte.gz', testLabels: 't10k-labels-idx1-ubyte.gz',
};

function parseArgs(argv) {
  const args = { quick: false, rounds: undefined, steps: undefined, data: DEFAULT_DATA,
    wasmDir: process.env.PERFLAB_WASM_DIR };
  const usageError = (message) => {
    console.error(`${message}; ${USAGE}`);
    process.exit(2);
  };
  const positive = (name, value) => {
    if (!/^[1-9][0-9]*$/.test(value ?? '')) usageError(`${name} needs a positive integer, got ${value}`);
    return Number(value);
  };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quick') args.quick = true;
    else if (argv[i] === '--rounds') args.rounds = positive('--rounds', argv[++i]);
    else if (argv[i] === '--steps') args.steps = positive('--steps', argv[++i]);
    else if (argv[i] === '--data' || argv[i] === '--wasm-dir') {
      if (argv[i + 1] === undefined) usageError(`${argv[i]} needs a directory`);
      args[argv[i] === '--data' ? 'data' : 'wasmDir'] = path.resolve(argv[++i]);
    } else usageError(`unknown argument '${argv[i]}'`);
  }
  args.rounds ??= args.quick ? 2 : 5;
  args.steps ??= args.quick ? 50 : 200;
  args.wasmDir = path.resolve(args.wasmDir ?? path.join(repoRoot, 'build', 'wasm'));
  return args;
}

function fail(message) {
  console.error(`train-compare: ${message}`);
  process.exit(1);
}

// Records every wasm binary instantiated in this process (SHA-256 of its bytes), so the
// report says which files were really loaded (as compare.mjs does).
const loadedBinaries = [];
function recordInstantiations() {
  const original = WebAssembly.instantiate;
  WebAssembly.instantiate = function (source, imports) {
    if (ArrayBuffer.isView(source) || source instanceof ArrayBuffer) {
      const bytes = ArrayBuffer.isView(source)
        ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
        : new Uint8Array(source);
      loadedBinaries.push(createHash('sha256').update(bytes).digest('hex'));
    }
    return original.call(this, source, imports);
  };
}
const sha256OfFile = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

// ---- The two sides.

// Ours: the page's two SIMD modules (tools/wasm-node.mjs). `train` is the training module
// perflab_train_simd (loadFashionMnist, createModel, startTraining, trainSteps, trainingResult,
// evaluateModel, baselineRecipe); `lab` the main module perflab_simd (zooSpec, measureMatmul,
// median).
// Which file holds what is known here only.
const TRAIN_BINDINGS = ['loadFashionMnist', 'createModel', 'startTraining', 'trainSteps', 'trainingResult',
  'evaluateModel', 'baselineRecipe', 'dropModel', 'dropDataset'];
async function loadOurs(wasmDir) {
  const load = async (name) => {
    const { wasm: wasmFile } = wasmModuleFiles(wasmDir, name);
    let module;
    try {
      module = await loadWasmModule(wasmDir, name);
    } catch (e) {
      fail(`cannot load ${wasmFile} (${e.message.split('\n')[0]}); build it with tools/lab build, or pass --wasm-dir`);
    }
    const info = module.buildInfo();
    if (!info.simd) fail(`${wasmFile} is not the SIMD build (simd_backend ${info.simd_backend})`);
    return { module, info, wasmFile };
  };
  const lab = await load('perflab_simd');
  const train = await load('perflab_train_simd');
  for (const name of TRAIN_BINDINGS) {
    if (typeof train.module[name] !== 'function') fail(`${train.wasmFile} has no training binding ${name}`);
  }
  return { lab: lab.module, train: train.module, info: train.info,
    wasmFiles: [...new Set([lab.wasmFile, train.wasmFile])] };
}

// TF.js: the union package (its layers, optimizers and registered gradients) on the wasm
// backend, forced to the non-threaded SIMD binary exactly as compare.mjs does: the plain and
// threaded file names point at a path that does not exist, so tfjs cannot silently measure
// another binary.
async function loadTheirs() {
  // The union package greets Node users with advice to install tfjs-node; not our backend.
  const warn = console.warn;
  console.warn = () => {};
  const tf = require('@tensorflow/tfjs');
  console.warn = warn;
  const tfwasm = require('@tensorflow/tfjs-backend-wasm');
  const dist = path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'));
  const simdFile = path.join(dist, 'tfjs-backend-wasm-simd.wasm');
  const missing = path.join(dist, 'not-loaded-on-purpose');
  tfwasm.setWasmPaths({
    'tfjs-backend-wasm.wasm': `${missing}/tfjs-backend-wasm.wasm`,
    'tfjs-backend-wasm-simd.wasm': simdFile,
    'tfjs-backend-wasm-threaded-simd.wasm': `${missing}/tfjs-backend-wasm-threaded-simd.wasm`,
  });
  tf.env().set('WASM_HAS_SIMD_SUPPORT', true);
  tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  tfwasm.setThreadsCount(1);
  if (!(await tf.setBackend('wasm'))) fail('TensorFlow.js could not initialise its wasm backend');
  await tf.ready();
  if (tf.getBackend() !== 'wasm') fail(`TensorFlow.js runs on '${tf.getBackend()}', not 'wasm'`);
  return { tf, tfwasm, simdFile, dist };
}

// ---- Data: the gzipped IDX files, inflated once. Ours parses them in core
// (loadFashionMnist); theirs reads the same bytes here (IDX: big-endian magic, counts and
// sizes, then the bytes), and both keep the same first rows.

function readIdx(dir) {
  const read = (name) => {
    try {
      return new Uint8Array(gunzipSync(readFileSync(path.join(dir, name))));
    } catch (e) {
      return fail(`cannot read ${path.join(dir, name)} (${e.message}); pass --data DIR with Fashion-MNIST's .gz files`);
    }
  };
  return Object.fromEntries(Object.entries(FILES).map(([k, name]) => [k, read(name)]));
}

// The first n images (standardised as core's Preprocessing: (pixel · scale − mean) / std)
// and their labels, from IDX bytes core has already accepted.
function idxRows(images, labels, n, p) {
  const view = new DataView(images.buffer, images.byteOffset);
  const pixelsPerImage = view.getUint32(8) * view.getUint32(12);
  const x = new Float32Array(n * pixelsPerImage);
  for (let i = 0; i < x.length; ++i) x[i] = (images[16 + i] * p.scale - p.mean) / p.std;
  return { x, labels: labels.slice(8, 8 + n), pixelsPerImage };
}

const classCounts = (labels, classes) => {
  const counts = new Array(classes).fill(0);
  for (const l of labels) counts[l] += 1;
  return counts;
};

// mulberry32, for theirs' per-epoch shuffle.
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---- Main.

const args = parseArgs(process.argv.slice(2));
process.on('uncaughtException', (e) => fail(e?.stack ?? String(e)));
process.on('unhandledRejection', (e) => fail(e?.stack ?? String(e)));

recordInstantiations();
const ours = await loadOurs(args.wasmDir);
const theirs = await loadTheirs();
const { lab, train } = ours;
const { tf, tfwasm } = theirs;

const binaryName = new Map([
  ...ours.wasmFiles.map((f) => [sha256OfFile(f), path.relative(repoRoot, f)]),
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map(
    (f) => [sha256OfFile(path.join(theirs.dist, f)), `@tensorflow/tfjs-backend-wasm/dist/${f}`],
  ),
]);
const loadedNames = loadedBinaries.map((h) => binaryName.get(h) ?? `an unknown binary (sha256 ${h.slice(0, 12)})`);
if (!loadedNames.includes(binaryName.get(sha256OfFile(theirs.simdFile)))) {
  fail(`TensorFlow.js did not load tfjs-backend-wasm-simd.wasm; loaded: ${loadedNames.join(', ')}`);
}

// What both sides train: core's zoo spec and baseline recipe, the schedule held constant
// (TF.js's optimizers have none) and no validation split (every row trains; one epoch of
// ours is one round).
const spec = lab.zooSpec(MODEL);
const baseline = train.baselineRecipe(MODEL);
const batch = baseline.batch;
const trainCount = args.steps * batch;
const recipe = { ...baseline, schedule: 'constant', validation_samples: 0, epochs: 1 + args.rounds };
const opt = recipe.optimizer;
if (opt.name !== 'adam' || opt.weight_decay !== 0) fail(`${MODEL}'s baseline optimizer is not plain Adam: ${JSON.stringify(opt)}`);
const dense = spec.layers.filter((l) => l.type === 'Linear');
if (!spec.layers.every((l, i) => l.type === (i % 2 === 0 ? 'Linear' : 'ReLU')) || spec.layers.at(-1).type !== 'Linear') {
  fail(`${MODEL} is not a stack of Linear layers with ReLU between them: ${JSON.stringify(spec.layers)}`);
}
const architecture = [dense[0].in, ...dense.map((l) => l.out)].join('-');

const idx = readIdx(args.data);
const available = new DataView(idx.trainImages.buffer, idx.trainImages.byteOffset).getUint32(4);
if (trainCount > available) {
  console.error(`--steps ${args.steps} needs ${trainCount} training images (${batch} a step); the split holds ` +
    `${available}: at most --steps ${Math.floor(available / batch)}; ${USAGE}`);
  process.exit(2);
}
const oursTrain = train.loadFashionMnist(idx.trainImages, idx.trainLabels, 'train', trainCount);
const oursTest = train.loadFashionMnist(idx.testImages, idx.testLabels, 'test', TEST_IMAGES);
const classes = oursTrain.class_names.length;
const theirsTrain = idxRows(idx.trainImages, idx.trainLabels, trainCount, recipe.preprocessing);
const theirsTest = idxRows(idx.testImages, idx.testLabels, TEST_IMAGES, recipe.preprocessing);
if (oursTrain.count !== trainCount || theirsTrain.pixelsPerImage !== dense[0].in ||
    JSON.stringify(oursTrain.class_counts) !== JSON.stringify(classCounts(theirsTrain.labels, classes))) {
  fail('the two sides do not hold the same training rows');
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`training throughput: perflab vs TensorFlow.js wasm, one Node process`);
const loadAverage = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
console.log(`machine: ${cpu}, ${os.cpus().length} logical CPUs, Node ${process.version}, load average ${loadAverage()}`);
console.log(`ours:   perflab ${ours.info.version}, ${ours.info.simd_backend}, one thread`);
console.log(`theirs: @tensorflow/tfjs ${tf.version.tfjs}, tfjs-backend-wasm ${tfwasm.version_wasm}, ` +
  `${tfwasm.getThreadsCount()} thread(s)`);
console.log(`wasm binaries instantiated: ${loadedNames.join(', ')}`);
console.log(`model: ${MODEL} ${architecture}, ReLU, softmax cross-entropy; Adam lr ${recipe.learning_rate} ` +
  `(constant), betas ${opt.beta1}/${opt.beta2}, eps ${opt.eps}; batch ${batch}`);
console.log(`data: the first ${trainCount.toLocaleString('en-US')} Fashion-MNIST training images of ${args.data}, ` +
  `standardised (scale ${recipe.preprocessing.scale.toPrecision(4)}, mean ${recipe.preprocessing.mean.toPrecision(4)}, ` +
  `std ${recipe.preprocessing.std.toPrecision(4)}), reshuffled every round`);
console.log(`rounds: 1 warmup + ${args.rounds} timed, ${args.steps} steps (${trainCount.toLocaleString('en-US')} samples) ` +
  `each, order alternating\n`);

// A round's wall time and this process's CPU time (user + system, all its threads) over the
// same span. The machine may be shared: the CPU time is what the round cost whatever else
// ran, so samples per CPU second give a second ratio that a busy machine moves less.
function stopwatch() {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  return {
    elapsed: () => {
      const ms = performance.now() - wall;
      const used = process.cpuUsage(cpu);
      return { ms, cpuMs: (used.user + used.system) / 1000 };
    },
  };
}

// Ours: one epoch is one round. trainSteps runs it in core and returns its record, with
// core's samples/s and time split; the figure compared is the wall time of the call in JS,
// as for theirs.
const oursModel = train.createModel(spec).model;
const plan = train.startTraining(oursModel, oursTrain.dataset, recipe);
if (plan.steps_per_epoch !== args.steps || plan.train_samples !== trainCount) {
  fail(`ours plans ${plan.steps_per_epoch} steps of ${plan.train_samples} samples, not ${args.steps} of ${trainCount}`);
}
const oursRound = () => {
  const t0 = stopwatch();
  const chunk = train.trainSteps(oursModel, args.steps);
  const { ms, cpuMs } = t0.elapsed();
  if (chunk.epochs.length !== 1) fail(`ours finished ${chunk.epochs.length} epochs in one round`);
  return { ms, cpuMs, loss: chunk.loss, record: chunk.epochs[0] };
};

// Theirs, three ways; the ratio is taken against the fastest of the three in each round.
// "minimize": variables and tf.fused.matMul (matmul, bias and ReLU in one op, as the layers
// API does), optimizer.minimize, the batch gathered from the rows on the wasm heap.
// "trainOnBatch": the same model as a tf.sequential of dense layers, compiled with the same
// optimizer settings and loss, fed the same gathered batches.
// "hand-written gradients": "minimize" with each layer's gradient written out (tf.customGrad)
// so that every product is an untransposed tf.matMul after an explicit tf.transpose, and the
// first layer computes no input gradient (as core's does not). TF.js's own gradients multiply
// with transposed operands, which tfjs-backend-wasm 4.22 computes an order of magnitude
// slower than the plain product (docs/PERFORMANCE.md); this is TF.js at its best, not as
// anyone writes it.
const xAll = tf.tensor2d(theirsTrain.x, [trainCount, dense[0].in]);
const yAll = tf.oneHot(tf.tensor1d(theirsTrain.labels, 'int32'), classes).toFloat();
const adam = () => tf.train.adam(recipe.learning_rate, opt.beta1, opt.beta2, opt.eps);
const shuffled = (random) => {
  const order = Int32Array.from({ length: trainCount }, (_, i) => i);
  for (let i = trainCount - 1; i > 0; --i) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return tf.tensor1d(order, 'int32');
};
// Runs one round: `step(x, y, last)` per batch of a fresh shuffle, returns the last loss.
function theirsRound(random, step) {
  const order = shuffled(random);
  const t0 = stopwatch();
  let loss;
  for (let s = 0; s < args.steps; ++s) {
    tf.tidy(() => {
      const rows = order.slice(s * batch, batch);
      const last = s === args.steps - 1;
      const l = step(tf.gather(xAll, rows), tf.gather(yAll, rows), last);
      if (last) loss = l;
    });
  }
  const { ms, cpuMs } = t0.elapsed();
  order.dispose();
  return { ms, cpuMs, loss };
}

const vars = dense.map((l, i) => ({
  w: tf.variable(tf.initializers.heNormal({ seed: 11 + i }).apply([l.in, l.out])),
  b: tf.variable(tf.zeros([l.out])),
}));
const forwardMinimize = (x) => vars.reduce((h, v, i) => tf.fused.matMul({ a: h, b: v.w, bias: v.b,
  activation: i < vars.length - 1 ? 'relu' : 'linear' }), x);
const varList = vars.flatMap((v) => [v.w, v.b]);
const minimizeOptimizer = adam();
const minimizeRandom = rng(1);
const minimizeRound = () => theirsRound(minimizeRandom, (x, y, last) => {
  const cost = minimizeOptimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, forwardMinimize(x)), last, varList);
  return last ? cost.dataSync()[0] : undefined;
});

// y = act(a · w + b), its gradient through untransposed products.
const denseHandWritten = (relu, inputGrad) => tf.customGrad((a, w, b, save) => {
  const z = tf.add(tf.matMul(a, w), b);
  const y = relu ? tf.relu(z) : z;
  save([a, w, y]);
  return {
    value: y,
    gradFunc: (dy, [aSaved, wSaved, ySaved]) => {
      const dz = relu ? tf.mul(dy, tf.step(ySaved)) : dy;
      return [inputGrad ? tf.matMul(dz, tf.transpose(wSaved)) : tf.zerosLike(aSaved),
        tf.matMul(tf.transpose(aSaved), dz), tf.sum(dz, 0)];
    },
  };
});
const handVars = dense.map((l, i) => ({
  w: tf.variable(tf.initializers.heNormal({ seed: 31 + i }).apply([l.in, l.out])),
  b: tf.variable(tf.zeros([l.out])),
}));
const handVarList = handVars.flatMap((v) => [v.w, v.b]);
const handLayers = dense.map((_, i) => denseHandWritten(i < dense.length - 1, i > 0));
const forwardHand = (x) => handVars.reduce((h, v, i) => handLayers[i](h, v.w, v.b), x);
const handOptimizer = adam();
const handRandom = rng(3);
const handRound = () => theirsRound(handRandom, (x, y, last) => {
  const cost = handOptimizer.minimize(() => tf.losses.softmaxCrossEntropy(y, forwardHand(x)), last, handVarList);
  return last ? cost.dataSync()[0] : undefined;
});

const layersModel = tf.sequential({
  layers: dense.map((l, i) => tf.layers.dense({ units: l.out, activation: i < dense.length - 1 ? 'relu' : 'linear',
    kernelInitializer: tf.initializers.heNormal({ seed: 21 + i }), ...(i === 0 ? { inputShape: [l.in] } : {}) })),
});
layersModel.compile({ optimizer: adam(), loss: (y, logits) => tf.losses.softmaxCrossEntropy(y, logits) });
const layersRandom = rng(2);
// trainOnBatch returns a promise, though the wasm backend computes synchronously: each step
// is awaited before the next (its loss is read with dataSync inside, every step).
async function layersRound() {
  const order = shuffled(layersRandom);
  const t0 = stopwatch();
  let loss;
  for (let s = 0; s < args.steps; ++s) {
    const [x, y] = tf.tidy(() => {
      const rows = order.slice(s * batch, batch);
      return [tf.gather(xAll, rows), tf.gather(yAll, rows)];
    });
    loss = await layersModel.trainOnBatch(x, y);
    x.dispose();
    y.dispose();
  }
  const { ms, cpuMs } = t0.elapsed();
  order.dispose();
  return { ms, cpuMs, loss };
}

const sides = [
  { side: 'ours', what: 'core trainer (trainSteps)', round: async () => oursRound() },
  { side: 'tfjs', what: 'optimizer.minimize', round: async () => minimizeRound() },
  { side: 'tfjs', what: 'LayersModel.trainOnBatch', round: layersRound },
  { side: 'tfjs', what: 'hand-written gradients', round: async () => handRound() },
];
const samplesPerS = (ms) => trainCount / ms * 1000;

// Warmup: one round each (compiles, grows the heaps, allocates the optimizers' state).
for (const s of sides) await s.round();
const tensorsAfterWarmup = tf.memory().numTensors;

const results = sides.map(() => []);
console.log(`${'round'.padEnd(6)} ${sides.map((s) => `${s.side} ${s.what}`.padStart(34)).join(' ')}   ratio`);
for (let r = 0; r < args.rounds; ++r) {
  const order = sides.map((_, i) => (r % 2 === 0 ? i : sides.length - 1 - i));
  for (const i of order) results[i].push(await sides[i].round());
  const rates = results.map((res) => samplesPerS(res[r].ms));
  const ratio = rates[0] / Math.max(...rates.slice(1));
  console.log(`${String(r + 1).padEnd(6)} ${rates.map((v, i) =>
    `${v.toFixed(0).padStart(7)} samples/s (loss ${results[i][r].loss.toFixed(3)})`.padStart(34)).join(' ')}   ${ratio.toFixed(2)}x`);
}
if (tf.memory().numTensors !== tensorsAfterWarmup) {
  fail(`TensorFlow.js leaked tensors during the rounds: ${tensorsAfterWarmup} then ${tf.memory().numTensors}`);
}

// ---- Summary.
const median = (values) => lab.median(values);
const rates = results.map((res) => res.map((x) => samplesPerS(x.ms)));
const fastestTheirs = (perSide, r) => Math.max(...perSide.slice(1).map((side) => side[r]));
const ratios = rates[0].map((v, r) => v / fastestTheirs(rates, r));
const cpuRates = results.map((res) => res.map((x) => samplesPerS(x.cpuMs)));
const cpuRatios = cpuRates[0].map((v, r) => v / fastestTheirs(cpuRates, r));
const medianRatio = median(ratios);
const medianRates = rates.map(median);
const theirsBest = Math.max(...medianRates.slice(1));
const theirsBestName = sides[medianRates.indexOf(theirsBest)].what;
console.log(`\nmedian samples/s: ` + sides.map((s, i) => `${s.side} ${s.what} ${medianRates[i].toFixed(0)}`).join(', '));

console.log(`ours/each tfjs side, the median of per-round ratios: ` + sides.slice(1).map((s, k) =>
  `${s.what} ${median(rates[0].map((v, r) => v / rates[k + 1][r])).toFixed(2)}x`).join(', '));
console.log(`median samples per CPU second of this process: ` + sides.map((s, i) =>
  `${s.side} ${s.what} ${median(cpuRates[i]).toFixed(0)}`).join(', ') +
  `; ratio ${median(cpuRatios).toFixed(2)}x (rounds ${Math.min(...cpuRatios).toFixed(2)}-${Math.max(...cpuRatios).toFixed(2)}x)`);

// Ours' time split, from core's epoch records (core's Clock around each part of each step),
// summed over the timed rounds.
const parts = ['data_ms', 'forward_ms', 'loss_ms', 'backward_ms', 'optimizer_ms'];
const total = Object.fromEntries(parts.map((p) => [p, results[0].reduce((s, x) => s + x.record[p], 0)]));
const stepsMs = parts.reduce((s, p) => s + total[p], 0);
const wallMs = results[0].reduce((s, x) => s + x.ms, 0);
const steps = args.steps * args.rounds;
console.log(`ours, time per step by core's Clock (${steps} steps): ` + parts.map((p) =>
  `${p.replace('_ms', '')} ${(1000 * total[p] / steps).toFixed(0)} us (${(100 * total[p] / stepsMs).toFixed(1)}%)`).join(', ') +
  `; steps ${(1000 * stepsMs / steps).toFixed(0)} us of ${(1000 * wallMs / steps).toFixed(0)} us wall ` +
  `(core's samples/s ${median(results[0].map((x) => x.record.samples_per_s)).toFixed(0)})`);

// The arithmetic: core's training FLOPs per sample (forward, the training backward, the
// loss) times samples/s, against the lab's packed matmul in this build at N = 256.
const flopsPerSample = train.trainingResult(oursModel).flops_per_sample;
const matmulGflops = 2 * 256 ** 3 / lab.measureMatmul('packed', 256,
  { warmup: 2, samples: 15, min_sample_ms: 20, max_total_ms: 2500 }).stats.median_ms / 1e6;
const gflops = (perS) => flopsPerSample * perS / 1e9;
console.log(`FLOPs: ${(flopsPerSample / 1e6).toFixed(3)} MFLOP per training sample (core's count) -> ours ` +
  `${gflops(medianRates[0]).toFixed(2)} GFLOP/s, tfjs ${gflops(theirsBest).toFixed(2)} GFLOP/s; ` +
  `the lab's packed matmul N=256 in this build: ${matmulGflops.toFixed(1)} GFLOP/s ` +
  `(ours trains at ${(100 * gflops(medianRates[0]) / matmulGflops).toFixed(0)}% of it)`);

// Why TF.js's own gradients are slow: the products of a Linear layer's backward with a
// transposed operand, against the same product untransposed, in tfjs-backend-wasm.
{
  const timeMatMul = (m, k, n, transposeA, transposeB) => {
    const a = tf.randomUniform(transposeA ? [k, m] : [m, k]);
    const b = tf.randomUniform(transposeB ? [n, k] : [k, n]);
    tf.matMul(a, b, transposeA, transposeB).dispose();
    const reps = 20;
    const t0 = performance.now();
    for (let i = 0; i < reps; ++i) tf.matMul(a, b, transposeA, transposeB).dispose();
    const ms = (performance.now() - t0) / reps;
    a.dispose();
    b.dispose();
    return `${(2 * m * k * n / ms / 1e6).toFixed(1)} GFLOP/s`;
  };
  const [d0, d1] = [dense[0].in, dense[0].out];
  console.log(`tfjs-wasm tf.matMul, the first layer's products at batch ${batch}: forward ${batch}x${d0} · ${d0}x${d1} ` +
    `${timeMatMul(batch, d0, d1, false, false)}; its weight gradient as TF.js's gradient computes it (transposeA, ` +
    `${d0}x${batch} · ${batch}x${d1}) ${timeMatMul(d0, batch, d1, true, false)}, the same product untransposed ` +
    `${timeMatMul(d0, batch, d1, false, false)}; the input-gradient form at this size (transposeB, ${batch}x${d1} · ${d1}x${d0}) ` +
    `${timeMatMul(batch, d1, d0, false, true)}`);
}

// Both sides learned: test accuracy after the same number of steps on the same rows.
const oursAccuracy = train.evaluateModel(oursModel, oursTest.dataset, 0).accuracy;
const accuracyOf = (predict) => tf.tidy(() => {
  const predicted = predict(tf.tensor2d(theirsTest.x, [TEST_IMAGES, dense[0].in])).argMax(1).dataSync();
  return predicted.reduce((s, p, i) => s + (p === theirsTest.labels[i] ? 1 : 0), 0) / TEST_IMAGES;
});
const accuracies = [oursAccuracy, accuracyOf(forwardMinimize), accuracyOf((x) => layersModel.predict(x)),
  accuracyOf(forwardHand)];
console.log(`test accuracy on the first ${TEST_IMAGES} test images after ${(1 + args.rounds) * args.steps} steps: ` +
  sides.map((s, i) => `${s.side} ${s.what} ${accuracies[i].toFixed(3)}`).join(', '));
if (accuracies.some((a) => !(a >= LEARNED_ACCURACY))) fail(`a side did not learn (accuracy below ${LEARNED_ACCURACY})`);

const met = medianRatio >= FLOOR;
console.log(`load average at the end: ${loadAverage()}`);
console.log(`\ntraining ${MODEL} ${architecture}, batch ${batch}, Adam: ours ${medianRates[0].toFixed(0)} samples/s vs ` +
  `tfjs-wasm ${theirsBestName} ${theirsBest.toFixed(0)} samples/s = ${medianRatio.toFixed(2)}x ` +
  `(rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x)`);
console.log(`floor (issue 23; the median of the per-round ratios against the fastest tfjs side):`);
console.log(`${met ? 'PASS ' : 'below'}    training samples/s ours/tfjs-wasm ${medianRatio.toFixed(2)}x >= ${FLOOR}x`);
train.dropModel(oursModel);
train.dropDataset(oursTrain.dataset);
train.dropDataset(oursTest.dataset);
