// Side-by-side benchmark, one Node process: our wasm kernels (the page's perflab_simd, the SIMD
// build) against TensorFlow.js's wasm backend (non-threaded SIMD binary, one thread) on the
// same shapes: matmul N = 128, 256, 512 and GELU on 4 Mi elements, with the machine probe's
// SIMD peak and copy bandwidth timed in the same rounds. Prints a table, one line per
// comparison with the ratio ours/theirs (or ours/probe), and one final line per floor of
// issue 4 (met / NOT MET); GELU reports its fraction of its compute roof instead of a
// floor. Issue 27 adds, in the same matmul groups, the kernel engine (its simd and fma flavours
// on 1 thread, its fastest flavour on 2 threads), and a Chromium group (chromium-side.mjs):
// TensorFlow.js's threaded wasm backend runs only in a browser, so there both sides' threaded
// figures are timed side by side, with the floors of issue 27 checked where each is like with
// like. Not a test: it asserts no timing and exits 0 whatever the ratios; it exits 1 only
// when a side computes a wrong result or fails to load.
// Usage: node --no-experimental-fetch bench/compare.mjs [--quick] [--rounds R] [--wasm-dir DIR] [--no-chromium]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS, fractionOfGeluRoof, geluComputeRoof } from './gelu-roof.mjs';
import { randomFloat32, sampleCalls, summarizeSamples } from './js-timer.mjs';
import { loadWasmModule, wasmModuleFiles } from '../tools/wasm-node.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

const USAGE = 'usage: node --no-experimental-fetch bench/compare.mjs [--quick] [--rounds R] [--wasm-dir DIR] [--no-chromium]';

// The engine's fma flavour is relaxed SIMD, which Node 20 compiles only with
// --experimental-wasm-relaxed-simd (without it the engine offers simd alone). So the script
// runs itself again with the flag, the same Node and arguments, and whoever starts it
// (tools/lab bench, a person) need not know. The flag only admits the relaxed opcodes: the
// other modules (ours, TensorFlow.js's) have none and run as before. The run drops
// --no-experimental-fetch, which the usage line long carried: playwright-core (the Chromium
// group) needs Node's fetch globals to load, and neither side needs them off (ours is handed
// its wasm bytes by tools/wasm-node.mjs, TensorFlow.js reads its binary from disk in Node).
const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
const NO_FETCH_FLAG = '--no-experimental-fetch';
if (!process.execArgv.includes(RELAXED_FLAG) || process.execArgv.includes(NO_FETCH_FLAG)) {
  const execArgv = [RELAXED_FLAG, ...process.execArgv.filter((a) => a !== RELAXED_FLAG && a !== NO_FETCH_FLAG)];
  const child = spawnSync(process.execPath, [...execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}
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
// Issue 27's floors, each the median of its per-round ratios at N = 512.
const THREADS = 2; // the threaded figures' thread count (this lab's reference machine has 2 cores)
const ENGINE_FLOOR_N = 512;
const FMA_OVER_PACKED_FLOOR = 1.35; // the engine's fma flavour on 1 thread over the main module's packed
const FMA_OVER_TFJS_FLOOR = 1.6; // the same over TensorFlow.js single-threaded (SIMD binary)
const THREADS_SPEEDUP_FLOOR = 1.8; // the engine's fastest flavour, 2 threads over 1
const THREADS_OVER_TFJS_FLOOR = 1.0; // ours on 2 threads over TensorFlow.js threaded on 2 (in Chromium)
const GELU_TOLERANCE = 1e-5; // absolute, |x| < 1: both sides are float32 tanh approximations

function parseArgs(argv) {
  const args = { quick: false, rounds: undefined, wasmDir: process.env.PERFLAB_WASM_DIR, chromium: true };
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
    } else if (argv[i] === '--no-chromium') {
      args.chromium = false;
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

// ---- Timing. Theirs is timed here with the same procedure as core's Timer (js-timer.mjs:
// same warmup, sample length, budget and statistic, with core's median()).
const timeJs = (perflab, fn, options) => summarizeSamples(sampleCalls(fn, options), (xs) => perflab.median(xs));

// ---- Checks.

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
  const { wasm: wasmFile } = wasmModuleFiles(wasmDir, 'perflab_simd');
  let perflab;
  try {
    perflab = await loadWasmModule(wasmDir, 'perflab_simd');
  } catch (e) {
    fail(`cannot load ${wasmFile} (${e.message.split('\n')[0]}); build it with tools/lab build, or pass --wasm-dir`);
  }
  const info = perflab.buildInfo();
  if (!info.simd) fail(`${wasmFile} is not the SIMD build (simd_backend ${info.simd_backend})`);
  return { perflab, info, wasmFile };
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

// The kernel engine in Node (tools/engine-node.mjs: the engine's modules on worker_threads),
// installed in our main module the way the lab worker installs it (engine-seam.js), so that
// measureParallelMatmul runs core's measurement as in the page: core verifies the product
// against its naive twin, then times the engine's run with core's Timer. Returns {facts,
// engine} or {missing: the reason}.
async function loadEngine(perflab, wasmDir) {
  try {
    const [{ loadNodeEngine }, { installEngine }] = await Promise.all([
      import('../tools/engine-node.mjs'), import('../web/src/lab/engine-seam.js')]);
    const engine = await loadNodeEngine({ wasmDir, cap: perflab.engineLimits().max_threads_cap });
    installEngine(perflab, engine);
    return { facts: perflab.engineFacts(), engine };
  } catch (e) {
    return { missing: (e?.message ?? String(e)).split('\n')[0] };
  }
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
const engine = await loadEngine(perflab, args.wasmDir);
// What the engine measures here: each flavour on 1 thread, and its fastest flavour (facts
// list fastest first) on THREADS threads when it can run that many.
const engineFlavours = engine.facts?.flavours ?? [];
const bestFlavour = engineFlavours[0];
const engineThreaded = engine.facts !== undefined && engine.facts.max_threads >= THREADS;

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
console.log(engine.facts
  ? `engine: flavours ${engineFlavours.join(', ')}, up to ${engine.facts.max_threads} thread(s), ` +
    `${engine.facts.shared_memory ? 'shared' : 'unshared'} memory (${engine.facts.why}); Node ${process.execArgv.join(' ')}`
  : `engine: not loaded (${engine.missing}); its figures and floors are not measured`);
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
// The engine's own roofs on one thread (probe_engine.hpp): its multiply-add and FMA peaks, so
// an FMA floor that is missed says how much of the FMA peak the kernel reached and how much
// the floor needs. Measured once, before the rounds.
const enginePeaks = engine.facts?.flavours.includes('fma') ? perflab.probeEngine(1, { quick: args.quick }) : undefined;
if (enginePeaks) {
  console.log(`engine probe (1 thread): multiply-add peak ${enginePeaks.muladd_gflops_per_s.toFixed(1)} GFLOP/s, ` +
    `FMA peak ${enginePeaks.fma_gflops_per_s.toFixed(1)} GFLOP/s (${(enginePeaks.fma_gflops_per_s / enginePeaks.muladd_gflops_per_s).toFixed(2)}x)`);
}
// " = 79% of the engine's FMA peak 66.1 GFLOP/s; the floor needs 94%": where a needed rate
// stands against the FMA roof (nothing when the engine's peaks were not measured).
const ofFmaPeak = (have, need) => enginePeaks
  ? `; the kernel runs at ${pct(have / enginePeaks.fma_gflops_per_s)} of the engine's FMA peak ` +
    `${gf(enginePeaks.fma_gflops_per_s)} and the floor needs ${pct(need / enginePeaks.fma_gflops_per_s)}`
  : '';

const summary = [];
const floors = []; // one {what, met, why?} per floor of issues 4 and 27, printed last; met null: not measured
const pct = (x) => `${(100 * x).toFixed(1)}%`;
const median = (values) => perflab.median(values);
const range = (values, digits) => values.length < 2 ? '' :
  `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;

// One group: the figures that are compared with each other, timed round after round,
// each round in the opposite order of the last, so a change in the machine's load (it is
// shared) hits both sides alike. A figure is the median over rounds of its per-round
// medians; the ratios are taken within each round, then their median and range reported.
// entries: [{side, what, time: () => {median_ms, cv}, rate: (ms) => number, unit}]
// time() may return a promise (the Chromium group's figures are timed in the browser).
async function runGroup(kernel, entries) {
  const perRound = entries.map(() => []);
  for (let r = 0; r < rounds; ++r) {
    const order = entries.map((_, i) => (r % 2 === 0 ? i : entries.length - 1 - i));
    for (const i of order) perRound[i].push(await entries[i].time());
  }
  return entries.map((e, i) => {
    const ms = perRound[i].map((s) => s.median_ms);
    const figure = { ...e, ms, median_ms: median(ms), cv: median(perRound[i].map((s) => s.cv)) };
    console.log(`${kernel.padEnd(14)} ${e.side.padEnd(5)} ${e.what.padEnd(37)} ` +
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

console.log(`\n${'kernel'.padEnd(14)} ${'side'.padEnd(5)} ${'variant'.padEnd(37)} ${'median ms'.padStart(10)} ` +
  `${'rounds range ms'.padStart(17)} ${'rate'.padStart(8)} ${''.padEnd(7)} ${'cv'.padStart(6)}`);

// ---- Matmul. Ours: measure_matmul through the binding (core's Timer; inputs made once,
// the output written into a buffer in wasm memory each call). Theirs: tf.matMul on two
// tensors made once; each call creates the output tensor in the wasm heap and disposes it.
// The wasm backend runs kernels synchronously, so the product is complete when matMul
// returns; "+ dataSync" also copies it out to a JS array, which ours never does. The ratio
// uses the faster of the two TF figures in each round, so the copy never counts against
// them. The scalar baselines (naive, reordered) are left to perflab_bench: they are slow
// at N = 512 and not what we compare.
// The kernel engine's rows (issue 27), in the same group and rounds as the main module's
// kernels and TensorFlow.js: measureParallelMatmul (core's Timer; core verified the product
// first, and the row's max_error says by how much it differs from the naive reference).
// Its rows are keyed "<flavour>x<threads>".
const engineRow = (flavour, threads, n) => {
  const row = perflab.measureParallelMatmul(flavour, threads, n, timerOptions);
  if (!(row.max_error <= MATMUL_TOLERANCE)) fail(`matmul N=${n}: engine ${flavour} on ${threads} thread(s) has error ${row.max_error}`);
  return row.stats ?? row;
};
function engineEntries(n, rate) {
  const entry = (flavour, threads) => ({ side: 'ours', key: `${flavour}x${threads}`, rate, unit: 'GFLOP/s',
    what: `engine ${flavour}, ${threads} thread${threads === 1 ? '' : 's'}`, time: () => engineRow(flavour, threads, n) });
  return [...engineFlavours.map((f) => entry(f, 1)), ...(engineThreaded ? [entry(bestFlavour, THREADS)] : [])];
}
const engineFigure = (figures, key) => figures.find((f) => f.key === key);
const gf = (x) => `${x.toFixed(1)} GFLOP/s`;

// One floor: met, or the arithmetic of why not (each ratio the median of its per-round ratios).
function floorLine(what, ratio, floor, why) {
  floors.push({ what: `${what} ${ratio.toFixed(2)}x >= ${floor}x`, met: ratio >= floor, why: ratio >= floor ? undefined : why() });
}
const notMeasured = (what, why) => floors.push({ what, met: null, why });

// The engine's lines at one N; its floors at ENGINE_FLOOR_N. FMA over packed splits into the
// compiler's share (the engine's simd flavour, the same kernel without FMA, over packed) and
// FMA's own (fma over simd), so a miss says which of the two fell short.
function engineSummary(n, figures, packedFigure, theirsFigures, rate) {
  if (!engine.facts) {
    if (n !== ENGINE_FLOOR_N) return;
    const why = `the engine did not load (${engine.missing})`;
    notMeasured(`matmul N=${n} engine fma / ours packed >= ${FMA_OVER_PACKED_FLOOR}x`, why);
    notMeasured(`matmul N=${n} engine fma / tfjs-wasm >= ${FMA_OVER_TFJS_FLOOR}x`, why);
    notMeasured(`matmul N=${n} engine ${THREADS} threads / 1 thread >= ${THREADS_SPEEDUP_FLOOR}x`, why);
    return;
  }
  const fma = engineFigure(figures, 'fmax1');
  const simd = engineFigure(figures, 'simdx1');
  const one = engineFigure(figures, `${bestFlavour}x1`);
  const two = engineFigure(figures, `${bestFlavour}x${THREADS}`);
  const atFloor = n === ENGINE_FLOOR_N;
  const theirsBest = Math.min(...theirsFigures.map((f) => f.median_ms));
  if (simd) summary.push(`matmul N=${n}: engine simd 1 thread ${gf(rate(simd.median_ms))} vs ours packed = ${ratioLine(simd, [packedFigure]).text}`);
  if (fma) {
    const overPacked = ratioLine(fma, [packedFigure]);
    const overSimd = simd ? ratioLine(fma, [simd]) : undefined;
    const overTfjs = ratioLine(fma, theirsFigures);
    summary.push(`matmul N=${n}: engine fma 1 thread ${gf(rate(fma.median_ms))} vs ours packed ${gf(rate(packedFigure.median_ms))} = ` +
      `${overPacked.text}${overSimd ? `; vs engine simd = ${overSimd.text}` : ''}; vs tfjs-wasm ${gf(rate(theirsBest))} = ${overTfjs.text}`);
    if (atFloor) {
      floorLine(`matmul N=${n} engine fma (1 thread) / ours packed`, overPacked.ratio, FMA_OVER_PACKED_FLOOR, () =>
        `${gf(rate(fma.median_ms))} / ${gf(rate(packedFigure.median_ms))}; ` +
        (overSimd ? `= engine simd / packed ${ratioLine(simd, [packedFigure]).ratio.toFixed(2)}x (the same kernel, clang-16 against emcc) ` +
          `x fma / simd ${overSimd.ratio.toFixed(2)}x (FMA itself); ` : '') +
        `the floor needs ${gf(FMA_OVER_PACKED_FLOOR * rate(packedFigure.median_ms))}` +
        ofFmaPeak(rate(fma.median_ms), FMA_OVER_PACKED_FLOOR * rate(packedFigure.median_ms)));
      floorLine(`matmul N=${n} engine fma (1 thread) / tfjs-wasm (1 thread)`, overTfjs.ratio, FMA_OVER_TFJS_FLOOR, () =>
        `${gf(rate(fma.median_ms))} / ${gf(rate(theirsBest))}; the floor needs ${gf(FMA_OVER_TFJS_FLOOR * rate(theirsBest))}` +
        ofFmaPeak(rate(fma.median_ms), FMA_OVER_TFJS_FLOOR * rate(theirsBest)));
    }
  } else if (atFloor) {
    const why = `the engine has no fma flavour here (${engine.facts.why})`;
    notMeasured(`matmul N=${n} engine fma / ours packed >= ${FMA_OVER_PACKED_FLOOR}x`, why);
    notMeasured(`matmul N=${n} engine fma / tfjs-wasm >= ${FMA_OVER_TFJS_FLOOR}x`, why);
  }
  if (two) {
    const speedup = ratioLine(two, [one]);
    summary.push(`matmul N=${n}: engine ${bestFlavour} ${THREADS} threads ${gf(rate(two.median_ms))} vs 1 thread ` +
      `${gf(rate(one.median_ms))} = ${speedup.text} (efficiency ${pct(speedup.ratio / THREADS)})`);
    if (atFloor) {
      floorLine(`matmul N=${n} engine ${bestFlavour} ${THREADS} threads / 1 thread`, speedup.ratio, THREADS_SPEEDUP_FLOOR,
        () => scalingWhy(one.median_ms, two.median_ms, THREADS_SPEEDUP_FLOOR));
    }
  } else if (atFloor) {
    notMeasured(`matmul N=${n} engine ${THREADS} threads / 1 thread >= ${THREADS_SPEEDUP_FLOOR}x`,
      `the engine runs at most ${engine.facts.max_threads} thread(s) here (${engine.facts.why})`);
  }
}
// Why a speedup fell short, in core's terms (analyzeScaling): the Karp-Flatt serial fraction
// the measured speedup implies, and the one the floor allows.
function scalingWhy(oneMs, twoMs, floor) {
  const analysis = perflab.analyzeScaling([{ threads: 1, median_ms: oneMs }, { threads: THREADS, median_ms: twoMs }]);
  const row = analysis.rows.find((r) => r.threads === THREADS);
  const allowed = (THREADS / floor - 1) / (THREADS - 1); // Karp-Flatt at the floor's speedup
  return `${oneMs.toFixed(2)} ms / ${twoMs.toFixed(2)} ms = ${row.speedup.toFixed(2)}x, efficiency ${pct(row.efficiency)}; ` +
    `Karp-Flatt serial fraction ${pct(row.karp_flatt)} where ${floor}x allows at most ${pct(allowed)}`;
}

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
  const figures = await runGroup(`matmul N=${n}`, [
    ...matmulNames.map((name) => ({ side: 'ours', what: name, rate: gflops, unit: 'GFLOP/s',
      time: () => perflab.measureMatmul(name, n, timerOptions).stats })),
    { side: 'tfjs', what: 'tf.matMul', rate: gflops, unit: 'GFLOP/s',
      time: () => timeJs(perflab, () => tf.matMul(a, b).dispose(), timerOptions) },
    { side: 'tfjs', what: 'tf.matMul + dataSync', rate: gflops, unit: 'GFLOP/s',
      time: () => timeJs(perflab, () => { const r = tf.matMul(a, b); r.dataSync(); r.dispose(); }, timerOptions) },
    ...(n === MATMUL_PEAK_FLOOR.n
      ? [probeEntry('SIMD peak (probeMachine)', simdPeak, flops, 'GFLOP/s')] : []),
    ...engineEntries(n, gflops),
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
  engineSummary(n, figures, oursFigure, theirsFigures, gflops);
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
const geluFigures = await runGroup('GELU 4 Mi', [
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

// ---- The Chromium group (issue 27). TensorFlow.js 4.22's threaded backend does not start in
// Node (bench/README.md), so its threaded figures are timed in headless Chromium, each
// contestant in its own dedicated worker of one cross-origin isolated page: TensorFlow.js
// with its SIMD binary on 1 thread and its threaded SIMD binary on 1 and THREADS threads,
// and ours (the page's SIMD main module with the engine) in one worker: packed, the engine's
// flavours on 1 thread and its fastest on THREADS. Same Timer options, rounds and statistic;
// theirs sampled by js-timer.mjs in the browser, summarised here with core's median(). The
// floor against TensorFlow.js threaded is taken here, like with like.
async function chromiumGroup() {
  const floorName = `matmul N=${ENGINE_FLOOR_N} ours ${THREADS} threads / tfjs-wasm threaded ${THREADS} threads >= ${THREADS_OVER_TFJS_FLOOR}x`;
  let side;
  try {
    // Imported here, not at the top: playwright-core cannot load under --no-experimental-fetch,
    // which the process that only re-runs this script may still carry.
    const { openChromiumSide } = await import('./chromium-side.mjs');
    side = await openChromiumSide();
  } catch (e) {
    console.log(`\nChromium group: not run, Chromium did not start (${(e?.message ?? String(e)).split('\n')[0]})`);
    notMeasured(floorName, 'Chromium did not start');
    return;
  }
  try {
    // TensorFlow.js caps its pool at navigator.hardwareConcurrency / 2 (it assumes two logical
    // CPUs per core): first what it chooses by itself here, then its pools with that
    // navigator reporting twice this machine's logical CPUs, so that THREADS threads run.
    const logicalCpus = 2 * os.cpus().length;
    const stock = await side.add({ kind: 'tfjs', binary: 'threaded-simd', threads: -1 });
    await stock.close();
    const theirsSide = [
      { what: 'tf.matMul, SIMD binary, 1 thread', c: await side.add({ kind: 'tfjs', binary: 'simd', threads: 1 }) },
      { what: 'tf.matMul, threaded binary, 1 thread', c: await side.add({ kind: 'tfjs', binary: 'threaded-simd', threads: 1, logicalCpus }) },
      { what: `tf.matMul, threaded binary, ${THREADS} threads`, key: 'tfjsT', threads: THREADS,
        c: await side.add({ kind: 'tfjs', binary: 'threaded-simd', threads: THREADS, logicalCpus }) },
    ];
    let oursSide = null;
    try {
      oursSide = await side.add({ kind: 'ours' });
    } catch (e) {
      // The worker's error comes back wrapped by page.evaluate ("page.evaluate: Error: ...").
      oursSide = { missing: (e?.message ?? String(e)).split('\n')[0].replace(/^page\.evaluate: (Error: )*/, '') };
    }
    console.log(`\nChromium group: ${side.chromium}, one cross-origin isolated page, each contestant in a dedicated worker`);
    console.log(`tfjs threaded binary by itself: ${stock.info.threads} thread(s) (navigator.hardwareConcurrency ` +
      `${stock.info.hardwareConcurrency}, halved by tfjs-backend-wasm's cap)`);
    for (const t of theirsSide) {
      console.log(`tfjs ${t.what}: runs ${t.c.info.threads} thread(s), loaded ${t.c.info.wasm.join(', ')}` +
        (t.c.info.logicalCpusSet ? ` (its navigator reports ${t.c.info.logicalCpusSet} logical CPUs)` : ''));
      if (t.threads && t.c.info.threads !== t.threads) fail(`TensorFlow.js threaded runs ${t.c.info.threads} threads, not ${t.threads}`);
    }
    const oursFacts = oursSide.info?.engine;
    const oursFlavours = oursFacts?.flavours ?? [];
    const oursThreaded = oursFacts !== undefined && oursFacts.max_threads >= THREADS;
    console.log(oursFacts
      ? `ours: ${oursSide.info.build}; engine flavours ${oursFlavours.join(', ')}, up to ${oursFacts.max_threads} thread(s) (${oursFacts.why})`
      : `ours: not loaded in Chromium (${oursSide.missing})`);
    for (const size of MATMUL_SIZES) {
      const flops = 2 * size ** 3;
      const gflops = (ms) => flops / ms / 1e6;
      const reference = perflab.matmul(randomFloat32(1 + size, size * size), [size, size],
        randomFloat32(2 + size, size * size), [size, size], headlineMatmul).data;
      for (const t of theirsSide) {
        const error = normwiseError(await t.c.product(size), reference);
        if (!(error <= MATMUL_TOLERANCE)) fail(`Chromium matmul N=${size}: tfjs (${t.what}) and ours differ, normwise error ${error}`);
      }
      const browserTime = (c, extra) => async () => {
        const result = await c.time(size, timerOptions, extra);
        if (result.max_error !== undefined && !(result.max_error <= MATMUL_TOLERANCE)) {
          fail(`Chromium matmul N=${size}: ours ${JSON.stringify(extra)} has error ${result.max_error}`);
        }
        return result.perCallMs ? timeJsSummary(result) : result;
      };
      const oursEntry = (what, key, extra) => ({ side: 'ours', what, key, rate: gflops, unit: 'GFLOP/s', time: browserTime(oursSide, extra) });
      const figures = await runGroup(`chromium N=${size}`, [
        ...theirsSide.map((t) => ({ side: 'tfjs', what: t.what, key: t.key, rate: gflops, unit: 'GFLOP/s', time: browserTime(t.c, {}) })),
        ...(oursFacts ? [
          oursEntry('packed (main module)', 'packed', {}),
          ...oursFlavours.map((f) => oursEntry(`engine ${f}, 1 thread`, `${f}x1`, { flavour: f, threads: 1 })),
          ...(oursThreaded ? [oursEntry(`engine ${oursFlavours[0]}, ${THREADS} threads`, `${oursFlavours[0]}x${THREADS}`,
            { flavour: oursFlavours[0], threads: THREADS })] : []),
        ] : []),
      ]);
      const tfjsT = engineFigure(figures, 'tfjsT');
      const tfjs1 = figures.filter((f) => f.side === 'tfjs' && f !== tfjsT);
      const fma = engineFigure(figures, 'fmax1');
      const packed = engineFigure(figures, 'packed');
      const one = oursFacts && engineFigure(figures, `${oursFlavours[0]}x1`);
      const two = oursFacts && engineFigure(figures, `${oursFlavours[0]}x${THREADS}`);
      summary.push(`Chromium N=${size}: tfjs threaded ${THREADS} threads ${gf(gflops(tfjsT.median_ms))} vs its best 1-thread ` +
        `${gf(gflops(Math.min(...tfjs1.map((f) => f.median_ms))))} = ${ratioLine(tfjsT, tfjs1).text}`);
      if (fma) {
        summary.push(`Chromium N=${size}: engine fma 1 thread ${gf(gflops(fma.median_ms))} vs packed = ${ratioLine(fma, [packed]).text}; ` +
          `vs tfjs 1 thread = ${ratioLine(fma, tfjs1).text}`);
      }
      if (two) {
        const speedup = ratioLine(two, [one]);
        const overTfjs = ratioLine(two, [tfjsT]);
        summary.push(`Chromium N=${size}: engine ${oursFlavours[0]} ${THREADS} threads ${gf(gflops(two.median_ms))} vs 1 thread = ` +
          `${speedup.text}; vs tfjs threaded ${THREADS} threads ${gf(gflops(tfjsT.median_ms))} = ${overTfjs.text}`);
        if (size === ENGINE_FLOOR_N) {
          floorLine(`matmul N=${size} ours ${THREADS} threads / tfjs-wasm threaded ${THREADS} threads (Chromium)`, overTfjs.ratio,
            THREADS_OVER_TFJS_FLOOR, () => `${gf(gflops(two.median_ms))} / ${gf(gflops(tfjsT.median_ms))}; ` +
              `ours ${speedup.ratio.toFixed(2)}x from 1 to ${THREADS} threads where tfjs gets ${ratioLine(tfjsT, tfjs1).ratio.toFixed(2)}x; ` +
              `the floor needs ${gf(THREADS_OVER_TFJS_FLOOR * gflops(tfjsT.median_ms))}`);
        }
      } else if (size === ENGINE_FLOOR_N) {
        notMeasured(floorName, oursFacts ? `the engine runs at most ${oursFacts.max_threads} thread(s) in Chromium (${oursFacts.why})`
          : `ours did not load in Chromium (${oursSide.missing})`);
      }
    }
    if (side.errors.length > 0) fail(`the Chromium page reported errors: ${side.errors.join('; ')}`);
  } finally {
    await side.close();
  }
}
const timeJsSummary = (samples) => summarizeSamples(samples, median);
if (args.chromium) {
  await chromiumGroup();
} else {
  notMeasured(`matmul N=${ENGINE_FLOOR_N} ours ${THREADS} threads / tfjs-wasm threaded ${THREADS} threads >= ${THREADS_OVER_TFJS_FLOOR}x`,
    '--no-chromium: TensorFlow.js threaded runs only in Chromium');
}

console.log(
  `\nsummary (same run, ${rounds} interleaved round(s); ratio = ours/theirs in throughput, ` +
    'the median of the per-round ratios):',
);
for (const line of summary) console.log(line);
console.log('\nfloors (issues 4 and 27; each the median of the per-round ratios):');
for (const f of floors) {
  const verdict = f.met === null ? 'NOT MEASURED' : f.met ? 'met' : 'NOT MET';
  console.log(`${verdict.padEnd(12)} ${f.what}${f.why ? `: ${f.why}` : ''}`);
}
engine.engine?.dispose?.();
process.exit(engine.missing ? 1 : 0);
