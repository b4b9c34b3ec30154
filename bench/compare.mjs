// Side-by-side benchmark, one Node process: our wasm kernels (perflab_node.cjs, the SIMD
// build) against TensorFlow.js's wasm backend (non-threaded SIMD binary, one thread) on the
// same shapes: matmul N = 128, 256, 512 and GELU on 4 Mi elements, with the machine probe's
// SIMD peak and copy bandwidth timed in the same rounds. Prints a table, one line per
// comparison with the ratio ours/theirs (or ours/probe), and one final line per floor of
// issue 4 (met / NOT MET); GELU reports its fraction of its compute roof instead of a
// floor. Not a test: it asserts no timing and exits 0 whatever the ratios; it exits 1 only
// when a side computes a wrong result or fails to load.
// Usage: node --no-experimental-fetch bench/compare.mjs [--quick] [--rounds R] [--wasm-dir DIR]
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS, fractionOfGeluRoof, geluComputeRoof } from './gelu-roof.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const USAGE = 'usage: node --no-experimental-fetch bench/compare.mjs [--quick] [--rounds R] [--wasm-dir DIR]';
const MATMUL_SIZES = [128, 256, 512];
const MATMUL_FLOOR = { 256: 1.2, 512: 1.2 }; // ours/theirs, issue 4
const MATMUL_PEAK_FLOOR = { n: 512, fraction: 0.8 }; // of the probe's SIMD peak
const GELU_ELEMENTS = 4 * 1024 * 1024;
const GELU_L1_ELEMENTS = 4 * 1024; // 16 KiB in + 16 KiB out: fits the smallest L1 data cache in use
const GELU_FUSED_FLOOR = 2.0; // fused-simd over unfused
// GELU has no bandwidth floor (issue 14 item 9): in 128-bit wasm without a fused multiply-add
// it is bound by its arithmetic, not by memory (docs/PERFORMANCE.md, "Why the GELU
// copy-bandwidth floor is not met"). Reported instead: its fraction of its own compute roof,
// the probe's SIMD multiply/add rate over the vector operations fused-simd spends per element
// (gelu-roof.mjs, which says how that count relates to core's 9 FLOPs per element).
const GELU_BYTES_PER_ELEMENT = 8; // cost_gelu_fused (elementwise.hpp): read x, write out
const MATMUL_TOLERANCE = 1e-4; // normwise, as core's kMatmulTolerance
const GELU_TOLERANCE = 1e-5; // absolute, |x| < 1: both sides are float32 tanh approximations

function parseArgs(argv) {
  const args = { quick: false, rounds: undefined, wasmDir: process.env.PERFLAB_WASM_DIR };
  const usageError = (message) => {
    console.error(`${message}; ${USAGE}`);
    process.exit(2);
  };
  for (let i = 0; i < argv.length; ++i) {
    if (argv[i] === '--quick') {
      args.quick = true;
    } else if (argv[i] === '--rounds') {
      const value = argv[++i];
      if (!/^[1-9][0-9]*$/.test(value ?? '')) usageError(`--rounds needs a positive integer, got ${value}`);
      args.rounds = Number(value);
    } else if (argv[i] === '--wasm-dir') {
      if (argv[i + 1] === undefined) usageError('--wasm-dir needs a directory');
      args.wasmDir = path.resolve(argv[++i]);
    } else {
      usageError(`unknown argument '${argv[i]}'`);
    }
  }
  args.wasmDir = path.resolve(args.wasmDir ?? path.join(repoRoot, 'build', 'wasm'));
  return args;
}

// Records every wasm binary instantiated in this process, so the report can say which file
// each side really loaded (by SHA-256 of the bytes), not which one we asked for.
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

// ---- Timing. Theirs is timed here with the same procedure as core's Timer (timer.cpp), so
// both sides get the same warmup, the same sample length, the same budget and the same
// statistic: calibrate the calls per sample until a sample lasts min_sample_ms (growing at
// most 10× per step), take `samples` samples (at least 2 if the budget runs out), drop
// Tukey outliers, median of the per-call times (with core's median()).

function percentileSorted(sorted, p) {
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

function timeJs(perflab, fn, options) {
  const start = performance.now();
  for (let i = 0; i < options.warmup; ++i) fn();
  const timeBatch = (inner) => {
    const t0 = performance.now();
    for (let i = 0; i < inner; ++i) fn();
    return performance.now() - t0;
  };
  let inner = 1;
  let batchMs = timeBatch(inner);
  while (batchMs < options.min_sample_ms) {
    let multiplier = 10;
    if (batchMs > 0.1 * options.min_sample_ms) multiplier = Math.min(10, (options.min_sample_ms * 1.4) / batchMs);
    inner = Math.max(Math.ceil(inner * multiplier), inner + 1);
    batchMs = timeBatch(inner);
  }
  const perCallMs = [];
  while (perCallMs.length < options.samples) {
    perCallMs.push(timeBatch(inner) / inner);
    if (perCallMs.length >= 2 && performance.now() - start >= options.max_total_ms) break;
  }
  const sorted = [...perCallMs].sort((x, y) => x - y);
  const q1 = percentileSorted(sorted, 25);
  const q3 = percentileSorted(sorted, 75);
  const kept = sorted.filter((t) => t >= q1 - 1.5 * (q3 - q1) && t <= q3 + 1.5 * (q3 - q1));
  const mean = kept.reduce((s, t) => s + t, 0) / kept.length;
  const sd = kept.length < 2 ? 0 : Math.sqrt(kept.reduce((s, t) => s + (t - mean) ** 2, 0) / (kept.length - 1));
  return {
    median_ms: perflab.median(kept),
    cv: mean > 0 ? sd / mean : 0,
    samples: kept.length,
    inner_iterations: inner,
  };
}

// ---- Data and checks.

function randomFloat32(seed, n) {
  let a = seed >>> 0; // mulberry32
  const out = new Float32Array(n);
  for (let i = 0; i < n; ++i) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  }
  return out;
}

function normwiseError(got, reference) {
  let maxDiff = 0;
  let maxRef = 0;
  for (let i = 0; i < reference.length; ++i) {
    const diff = Math.abs(got[i] - reference[i]);
    if (Number.isNaN(diff)) return NaN;
    maxDiff = Math.max(maxDiff, diff);
    maxRef = Math.max(maxRef, Math.abs(reference[i]));
  }
  return maxRef === 0 ? maxDiff : maxDiff / maxRef;
}

function maxAbsError(got, reference) {
  let worst = 0;
  for (let i = 0; i < reference.length; ++i) {
    const diff = Math.abs(got[i] - reference[i]);
    if (Number.isNaN(diff)) return NaN;
    worst = Math.max(worst, diff);
  }
  return worst;
}

function fail(message) {
  console.error(`compare: ${message}`);
  process.exit(1);
}

// ---- The two sides.

async function loadOurs(wasmDir) {
  const file = path.join(wasmDir, 'node', 'perflab_node.cjs');
  let createPerflab;
  try {
    createPerflab = require(file);
  } catch (e) {
    fail(`cannot load ${file} (${e.message.split('\n')[0]}); build it with tools/lab build, or pass --wasm-dir`);
  }
  const perflab = await createPerflab();
  const info = perflab.buildInfo();
  if (!info.simd) fail(`${file} is not the SIMD build (simd_backend ${info.simd_backend})`);
  return { perflab, info, wasmFile: file.replace(/\.cjs$/, '.wasm') };
}

// TF.js with its wasm backend, forced to the non-threaded SIMD binary: the two other file
// names point at a path that does not exist, so if tfjs chose either, init would fail
// rather than silently measure another binary. (In Node, tfjs already reports no thread
// support, WASM_HAS_MULTITHREAD_SUPPORT; we set both flags explicitly anyway.)
async function loadTheirs() {
  const tf = require('@tensorflow/tfjs-core');
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

// ---- Main.

const args = parseArgs(process.argv.slice(2));
// An error thrown out of the top level would reach Emscripten's uncaughtException handler,
// which rethrows it and Node then prints the module's whole minified source line.
process.on('uncaughtException', (e) => fail(e?.stack ?? String(e)));
process.on('unhandledRejection', (e) => fail(e?.stack ?? String(e)));
// Same options object for both sides (core's TimerOptions field names).
const timerOptions = args.quick
  ? { warmup: 1, samples: 5, min_sample_ms: 5, max_total_ms: 400 }
  : { warmup: 2, samples: 15, min_sample_ms: 20, max_total_ms: 2500 };
const rounds = args.rounds ?? (args.quick ? 1 : 3);

recordInstantiations();
const ours = await loadOurs(args.wasmDir);
const theirs = await loadTheirs();
const { perflab } = ours;
const { tf, tfwasm } = theirs;

const binaryName = new Map([
  [sha256OfFile(ours.wasmFile), path.relative(repoRoot, ours.wasmFile)],
  ...['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'].map(
    (f) => [sha256OfFile(path.join(theirs.dist, f)), `@tensorflow/tfjs-backend-wasm/dist/${f}`],
  ),
]);
const loadedNames = loadedBinaries.map((h) => binaryName.get(h) ?? `an unknown binary (sha256 ${h.slice(0, 12)})`);
if (!loadedNames.includes(binaryName.get(sha256OfFile(theirs.simdFile)))) {
  fail(`TensorFlow.js did not load tfjs-backend-wasm-simd.wasm; loaded: ${loadedNames.join(', ')}`);
}

const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
console.log(`perflab vs TensorFlow.js wasm, one Node process (${args.quick ? 'quick' : 'full'} budgets)`);
console.log(`machine: ${cpu}, ${os.cpus().length} logical CPUs, Node ${process.version}`);
console.log(`ours:   perflab ${ours.info.version}, ${ours.info.simd_backend}`);
console.log(`theirs: @tensorflow/tfjs-core ${tf.version_core}, tfjs-backend-wasm ${tfwasm.version_wasm}, ` +
  `${tfwasm.getThreadsCount()} thread(s)`);
console.log(`wasm binaries instantiated: ${loadedNames.join(', ')}`);
console.log(`timer (both sides): warmup ${timerOptions.warmup}, ${timerOptions.samples} samples of ` +
  `>= ${timerOptions.min_sample_ms} ms, budget ${timerOptions.max_total_ms} ms per figure, median; ` +
  `${rounds} interleaved round(s)`);

// The machine probe (probe.hpp: probe_machine, bound as probeMachine) gives "% of SIMD peak"
// for matmul and "% of copy bandwidth" for GELU. Its figures move with the machine's load
// like ours do, so the probe is run again inside the rounds, next to the kernel it is
// compared with (see probeEntry), and each fraction is taken within a round. This first run
// only prints what the machine looks like.
const simdPeak = (p) => p.simd_peak_gflops_per_s;
{
  const probe = perflab.probeMachine();
  console.log(`probe: SIMD peak ${simdPeak(probe).toFixed(1)} GFLOP/s, copy ` +
    `${probe.copy_gb_per_s.toFixed(1)} GB/s, triad ${probe.triad_gb_per_s.toFixed(1)} GB/s` +
    (probe.warning ? ` (warning: ${probe.warning})` : ''));
}

const summary = [];
const floors = []; // one {what, met} per floor of issue 4, printed last
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const median = (values) => perflab.median(values);
const range = (values, digits) => values.length < 2 ? '' :
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

// One group: the figures that are compared with each other, timed round after round,
// each round in the opposite order of the last, so a change in the machine's load (it is
// shared) hits both sides alike. A figure is the median over rounds of its per-round
// medians; the ratios are taken within each round, then their median and range reported.
// entries: [{side, what, time: () => {median_ms, cv}, rate: (ms) => number, unit}]
function runGroup(kernel, entries) {
  const perRound = entries.map(() => []);
  for (let r = 0; r < rounds; ++r) {
    const order = entries.map((_, i) => (r % 2 === 0 ? i : entries.length - 1 - i));
    for (const i of order) perRound[i].push(entries[i].time());
  }
  return entries.map((e, i) => {
    const ms = perRound[i].map((s) => s.median_ms);
    const figure = { ...e, ms, median_ms: median(ms), cv: median(perRound[i].map((s) => s.cv)) };
    console.log(`${kernel.padEnd(13)} ${e.side.padEnd(5)} ${e.what.padEnd(31)} ` +
      `${figure.median_ms.toFixed(3).padStart(10)} ${range(ms, 3).padStart(17)} ` +
      `${e.rate(figure.median_ms).toFixed(2).padStart(8)} ${e.unit.padEnd(7)} ${pct(figure.cv).padStart(6)}`);
    return figure;
  });
}
// A probe figure as a contestant of a group: the time the probe's rate (GFLOP/s of the SIMD
// peak, or GB/s of copy) would need for the group's work, so the table shows the rate and a
// ratio against it is ours as a fraction of the probe, taken within the round. One full
// probeMachine() per round (about a second); its own spread is in probeMachine's stats.
function probeEntry(what, rateOf, work, unit) {
  return { side: 'probe', what, rate: (ms) => work / ms / 1e6, unit,
    time: () => ({ median_ms: work / rateOf(perflab.probeMachine()) / 1e6, cv: 0 }) };
}
// Per-round ratios of throughput ours/theirs, from times: theirs_ms / ours_ms.
function ratioLine(oursFigure, theirsFigures) {
  const ratios = oursFigure.ms.map((ms, r) => Math.min(...theirsFigures.map((f) => f.ms[r])) / ms);
  const spread = range(ratios, 2);
  return { ratio: median(ratios), perRound: ratios,
    text: `${median(ratios).toFixed(2)}x${spread ? ` (rounds ${spread}x)` : ''}` };
}
const pctRange = (fractions) => fractions.length < 2 ? pct(fractions[0])
  : `${pct(Math.min(...fractions))}-${pct(Math.max(...fractions))}`;

console.log(`\n${'kernel'.padEnd(13)} ${'side'.padEnd(5)} ${'variant'.padEnd(31)} ${'median ms'.padStart(10)} ` +
  `${'rounds range ms'.padStart(17)} ${'rate'.padStart(8)} ${''.padEnd(7)} ${'cv'.padStart(6)}`);

// ---- Matmul. Ours: measure_matmul through the binding (core's Timer; inputs made once,
// the output written into a buffer in wasm memory each call). Theirs: tf.matMul on two
// tensors made once; each call creates the output tensor in the wasm heap and disposes it.
// The wasm backend runs kernels synchronously, so the product is complete when matMul
// returns; "+ dataSync" also copies it out to a JS array, which ours never does. The ratio
// uses the faster of the two TF figures in each round, so the copy never counts against
// them. The scalar baselines (naive, reordered) are left to perflab_bench: they are slow
// at N = 512 and not what we compare.
const SCALAR_BASELINES = new Set(['naive', 'reordered']);
const matmulNames = perflab.matmulVariants().map((v) => v.name).filter((v) => !SCALAR_BASELINES.has(v));
const headlineMatmul = matmulNames.includes('packed') ? 'packed' : 'simd';
for (const n of MATMUL_SIZES) {
  const flops = 2 * n ** 3;
  const aData = randomFloat32(1 + n, n * n);
  const bData = randomFloat32(2 + n, n * n);
  const a = tf.tensor2d(aData, [n, n]);
  const b = tf.tensor2d(bData, [n, n]);
  // Both sides compute the same product before either is timed.
  const c = tf.matMul(a, b);
  const error = normwiseError(c.dataSync(), perflab.matmul(aData, [n, n], bData, [n, n], headlineMatmul).data);
  c.dispose();
  if (!(error <= MATMUL_TOLERANCE)) {
    fail(`matmul N=${n}: ours (${headlineMatmul}) and tfjs differ, normwise error ${error}`);
  }

  const gflops = (ms) => flops / ms / 1e6;
  const figures = runGroup(`matmul N=${n}`, [
    ...matmulNames.map((name) => ({ side: 'ours', what: name, rate: gflops, unit: 'GFLOP/s',
      time: () => perflab.measureMatmul(name, n, timerOptions).stats })),
    { side: 'tfjs', what: 'tf.matMul', rate: gflops, unit: 'GFLOP/s',
      time: () => timeJs(perflab, () => tf.matMul(a, b).dispose(), timerOptions) },
    { side: 'tfjs', what: 'tf.matMul + dataSync', rate: gflops, unit: 'GFLOP/s',
      time: () => timeJs(perflab, () => { const r = tf.matMul(a, b); r.dataSync(); r.dispose(); }, timerOptions) },
    ...(n === MATMUL_PEAK_FLOOR.n
      ? [probeEntry('SIMD peak (probeMachine)', simdPeak, flops, 'GFLOP/s')] : []),
  ]);
  a.dispose(); b.dispose();

  const oursFigure = figures.find((f) => f.side === 'ours' && f.what === headlineMatmul);
  const theirsFigures = figures.filter((f) => f.side === 'tfjs');
  const { ratio, text } = ratioLine(oursFigure, theirsFigures);
  const theirsBest = gflops(Math.min(...theirsFigures.map((f) => f.median_ms)));
  const floor = MATMUL_FLOOR[n];
  summary.push(`matmul N=${n}: ours ${headlineMatmul} ${gflops(oursFigure.median_ms).toFixed(1)} GFLOP/s vs ` +
    `tfjs-wasm ${theirsBest.toFixed(1)} GFLOP/s = ${text}` +
    (floor ? ` (floor ${floor}x)${ratio < floor ? ' BELOW FLOOR' : ''}` : ''));
  if (floor) floors.push({ what: `matmul N=${n} ours/tfjs-wasm ${ratio.toFixed(2)}x >= ${floor}x`, met: ratio >= floor });
  const peakFigure = figures.find((f) => f.side === 'probe');
  if (peakFigure) {
    const { ratio: fraction, perRound } = ratioLine(oursFigure, [peakFigure]);
    const floorFraction = MATMUL_PEAK_FLOOR.fraction;
    summary.push(`matmul N=${n}: ours ${headlineMatmul} ${gflops(oursFigure.median_ms).toFixed(1)} GFLOP/s = ` +
      `${pct(fraction)} of SIMD peak ${gflops(peakFigure.median_ms).toFixed(1)} GFLOP/s ` +
      `(rounds ${pctRange(perRound)}) (floor ${pct(floorFraction)})` +
      (fraction < floorFraction ? ' BELOW FLOOR' : ''));
    floors.push({ what: `matmul N=${n} ${pct(fraction)} of the probe's SIMD peak >= ${pct(floorFraction)}`,
      met: fraction >= floorFraction });
  }
}

// ---- GELU on 4 Mi elements. Theirs: the same tanh formula composed of nine tf ops (tfjs has
// no GELU op), so unfused: each op writes a new 16 MiB tensor; the constants are made once.
// Ours: measureGelu (core's Timer, kernel only, as measureMatmul).
// Rate: GB/s at the fused traffic, 8 bytes per element, for every row alike (so it reads
// as elements per second; the unfused rows move more than that).
const n = GELU_ELEMENTS;
const xData = randomFloat32(7, n);
const x = tf.tensor1d(xData);
const half = tf.scalar(0.5);
const one = tf.scalar(1);
const cubic = tf.scalar(0.044715);
const sqrt2OverPi = tf.scalar(Math.sqrt(2 / Math.PI));
const tfGelu = () =>
  tf.tidy(() => {
    const inner = tf.mul(tf.add(x, tf.mul(tf.mul(tf.mul(x, x), x), cubic)), sqrt2OverPi);
    return tf.mul(tf.mul(x, half), tf.add(tf.tanh(inner), one));
  });
const geluNames = perflab.geluVariants().map((v) => v.name);
const bestGelu = geluNames.includes('fused-simd') ? 'fused-simd' : 'fused';
{
  const y = tfGelu();
  const error = maxAbsError(y.dataSync(), perflab.gelu(xData, [n], bestGelu).data);
  y.dispose();
  if (!(error <= GELU_TOLERANCE)) fail(`GELU: ours (${bestGelu}) and tfjs differ by up to ${error}`);
}
const gbPerS = (ms) => (GELU_BYTES_PER_ELEMENT * n) / ms / 1e6;
const roofPeaks = []; // the probe's SIMD peak (GFLOP/s) of each round, in round order
const geluFigures = runGroup('GELU 4 Mi', [
  ...geluNames.map((name) => ({ side: 'ours', what: name, name, rate: gbPerS, unit: 'GB/s',
    time: () => perflab.measureGelu(name, n, timerOptions).stats })),
  { side: 'tfjs', what: '9 tf ops (unfused)', rate: gbPerS, unit: 'GB/s',
    time: () => timeJs(perflab, () => tfGelu().dispose(), timerOptions) },
  { side: 'tfjs', what: '9 tf ops (unfused) + dataSync', rate: gbPerS, unit: 'GB/s',
    time: () => timeJs(perflab, () => { const y = tfGelu(); y.dataSync(); y.dispose(); }, timerOptions) },
  // The same kernel on 4 Ki elements (32 KiB in and out, in L1), its time scaled to 4 Mi:
  // what the kernel costs when memory costs nothing. Close to the 4 Mi figure means the
  // kernel is bound by its arithmetic, and no memory optimisation can move it.
  { side: 'ours', what: `${bestGelu}, 4 Ki in L1 (x1024)`, name: 'in-l1', rate: gbPerS, unit: 'GB/s',
    time: () => {
      const s = perflab.measureGelu(bestGelu, GELU_L1_ELEMENTS, timerOptions).stats;
      return { median_ms: (s.median_ms * n) / GELU_L1_ELEMENTS, cv: s.cv };
    } },
  probeEntry('copy bandwidth (probeMachine)', (p) => p.copy_gb_per_s, GELU_BYTES_PER_ELEMENT * n, 'GB/s'),
  // The compute roof, shown in the group's unit (8 bytes per element); each round's probe
  // peak is kept so that each round's fraction is taken against its own roof.
  { side: 'roof', what: `compute roof (peak/${GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS} per 4)`, rate: gbPerS, unit: 'GB/s',
    time: () => {
      const peak = simdPeak(perflab.probeMachine());
      roofPeaks.push(peak);
      return { median_ms: n / geluComputeRoof(peak).g_elements_per_s / 1e6, cv: 0 };
    } },
]);
for (const t of [x, half, one, cubic, sqrt2OverPi]) t.dispose();

const geluOurs = (name) => geluFigures.find((f) => f.side === 'ours' && f.name === name);
const best = geluOurs(bestGelu);
const theirsGelu = geluFigures.filter((f) => f.side === 'tfjs');
const theirsGeluMs = Math.min(...theirsGelu.map((f) => f.median_ms));
summary.push(
  `GELU ${n} elements: ours ${best.what} ${best.median_ms.toFixed(2)} ms vs tfjs-wasm (9 ops, unfused) ` +
    `${theirsGeluMs.toFixed(2)} ms = ${ratioLine(best, theirsGelu).text} (no floor)`,
);
{
  const { ratio, text } = ratioLine(best, [geluOurs('unfused')]);
  summary.push(`GELU ${n} elements: ours ${bestGelu} vs ours unfused = ${text} ` +
    `(floor ${GELU_FUSED_FLOOR}x)${ratio < GELU_FUSED_FLOOR ? ' BELOW FLOOR' : ''}`);
  floors.push({ what: `GELU ${bestGelu}/unfused ${ratio.toFixed(1)}x >= ${GELU_FUSED_FLOOR}x`,
    met: ratio >= GELU_FUSED_FLOOR });
  const copyFigure = geluFigures.find((f) => f.side === 'probe');
  const { ratio: copyFraction } = ratioLine(best, [copyFigure]);
  const gElementsPerS = (ms) => n / ms / 1e6;
  // Each round's rate against that round's roof; the median of those, as for every ratio.
  const roofFractions = (figure) => figure.ms.map((ms, r) => fractionOfGeluRoof(gElementsPerS(ms), roofPeaks[r]));
  const perRound = roofFractions(best);
  const fraction = median(perRound);
  const peak = median(roofPeaks);
  const roof = geluComputeRoof(peak);
  summary.push(`${bestGelu} GELU 4 Mi: ${gElementsPerS(best.median_ms).toFixed(3)} G elements/s = ` +
    `${pct(fraction)} of its compute roof (rounds ${pctRange(perRound)}): the probe's SIMD peak ` +
    `${peak.toFixed(1)} GFLOP/s is ${roof.g_vector_ops_per_s.toFixed(2)} G vector operations/s, over ` +
    `${GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS} per 4 elements = ${roof.g_elements_per_s.toFixed(3)} G elements/s; ` +
    `${pct(copyFraction)} of copy bandwidth (no floor: compute-bound)`);
  // Same statistic (median of per-round fractions of the roof), with the data in L1.
  const inL1 = geluOurs('in-l1');
  const l1Fraction = median(roofFractions(inL1));
  const nsPerElement = (ms) => (ms * 1e6) / n;
  summary.push(`${bestGelu} GELU with its data in L1: ${nsPerElement(inL1.median_ms).toFixed(2)} ns/element ` +
    `(at 4 Mi: ${nsPerElement(best.median_ms).toFixed(2)}), ${pct(l1Fraction)} of its compute roof ` +
    'with memory costing nothing');
}

console.log(
  `\nsummary (same run, ${rounds} interleaved round(s); ratio = ours/theirs in throughput, ` +
    'the median of the per-round ratios):',
);
for (const line of summary) console.log(line);
console.log('\nfloors (issue 4; each the median of the per-round ratios):');
for (const f of floors) console.log(`${f.met ? 'met    ' : 'NOT MET'}  ${f.what}`);
