// Every statistics, comparison and A/B binding at the largest input core accepts (its limits
// from statsLimits: kMaxSampleValues, kMaxBootstrapDraws, kMaxBenchRows, kMaxAbTotalMs and the
// A/B sizes), timed once per build in Node, against the 10 s one call may take. Each call is
// checked first for what the limit promises (the bootstrap cut and said so, an A/B stopped at
// its limit), then timed; the line just above each limit is refused, and that refusal timed
// too. A bench, not a test: it prints times, the machine decides them.
// Usage: tools/lab build && node --no-experimental-fetch bench/stats-limits.mjs [--build simd|scalar]
import { performance } from 'node:perf_hooks';
import { BUILDS, loadPerflab, rng } from '../tests/wasm/perflab_module.mjs';

const CEILING_MS = 10000;
const buildArg = process.argv.indexOf('--build');
const only = buildArg > 0 ? process.argv[buildArg + 1] : null;
if (only !== null && !BUILDS.some((b) => b.flavour === only)) {
  console.error(`bench/stats-limits.mjs: --build takes ${BUILDS.map((b) => b.flavour).join(' or ')}, got ${only}`);
  process.exit(2);
}

const next = rng(7);
const sample = (n, scale) => Float64Array.from({ length: n }, () => scale * (1 + 0.1 * next()));
const benchRun = (rows, samples, scale) =>
  Array.from({ length: rows }, (_, i) => ({ op: 'gelu', variant: 'fused', n: i + 1, samples_ms: Array.from(sample(samples, scale)) }));

function check(ok, what) {
  if (!ok) throw new Error(`bench/stats-limits.mjs: ${what}`);
}

const lines = [];
function timed(build, what, fn, verify = () => {}) {
  const t0 = performance.now();
  let result;
  let refused = null;
  try {
    result = fn();
  } catch (e) {
    refused = e.message;
  }
  const ms = performance.now() - t0;
  if (refused === null) verify(result);
  const verdict = ms <= CEILING_MS ? 'under' : 'OVER';
  const line = `${build.padEnd(7)} ${what.padEnd(72)} ${ms.toFixed(0).padStart(7)} ms  ${verdict} 10 s`;
  console.log(refused === null ? line : `${line}  (refused: ${refused.slice(0, 90)}...)`);
  lines.push({ build, what, ms });
  return result;
}

// The two slowest of a list of variants at size n: one call each through runAB's own kernels
// would need a binding per op, so time one sampleKernel call with one call per sample.
function slowestTwo(m, op, names, n) {
  const one = (v) => {
    const r = m.sampleKernel(op, v, n, { warmup: 0, samples: 1, inner_iterations: 1 });
    return r.samples_ms[0];
  };
  return names.map((v) => ({ v, ms: one(v) })).sort((a, b) => b.ms - a.ms).slice(0, 2);
}

console.log(`statistics at their largest accepted inputs, wasm under Node ${process.version}, one call each`);
for (const build of BUILDS.filter((b) => only === null || b.flavour === only)) {
  const m = await loadPerflab(build);
  const L = m.statsLimits();
  const f = build.flavour;
  const N = L.max_sample_values;
  const a = sample(N, 1.0);
  const b = sample(N, 1.05);
  const cut = (r) => check(r.bootstrap_resamples < r.bootstrap_resamples_requested && /the bootstrap used/.test(r.warning ?? r.note), 'the bootstrap was not cut');

  timed(f, `summarizeSample ${N} values, 1,000,000 resamples asked`, () => m.summarizeSample(a, { bootstrap_resamples: 1000000 }), cut);
  timed(f, `summarizeSample ${N + 1} values (refused)`, () => m.summarizeSample(sample(N + 1, 1)));
  timed(f, `compareSamples ${N} vs ${N}, 1,000,000 resamples asked`, () => m.compareSamples(a, b, { bootstrap_resamples: 1000000 }), cut);
  const first = Array.from({ length: N }, (_, i) => i % 2 === 0);
  timed(f, `analyzeAB ${N} rounds, 1,000,000 resamples asked`, () => m.analyzeAB(a, b, first, { bootstrap_resamples: 1000000 }), (r) => cut(r.comparison));
  timed(f, `abRoundOrder ${N} rounds`, () => m.abRoundOrder('interleaved', N, 1));
  timed(f, `fitComplexity ${N} points`, () => m.fitComplexity(Float64Array.from({ length: N }, (_, i) => i + 1), a));
  // Runs: the most benchmarks with exact Mann-Whitney (49 untied samples a side), and the most
  // samples (kMaxBenchRows benchmarks sharing kMaxSampleValues).
  timed(f, `compareRuns ${L.max_bench_rows} benchmarks x 49 samples`, () => m.compareRuns(benchRun(L.max_bench_rows, 49, 1), benchRun(L.max_bench_rows, 49, 1.05)));
  const per = Math.floor(N / L.max_bench_rows);
  timed(f, `compareRuns ${L.max_bench_rows} benchmarks x ${per} samples`, () => m.compareRuns(benchRun(L.max_bench_rows, per, 1), benchRun(L.max_bench_rows, per, 1.05)), cut);
  timed(f, `compareRuns 1 benchmark x ${N} samples`, () => m.compareRuns(benchRun(1, N, 1), benchRun(1, N, 1.05)), cut);
  timed(f, `compareRuns ${L.max_bench_rows + 1} benchmarks (refused)`, () => m.compareRuns(benchRun(L.max_bench_rows + 1, 1, 1), benchRun(1, 1, 1)));
  // Coverage at its work limit (kMaxCoverageWork): one large size, and the most small trials.
  // 10 × 199 × (100,000 + 16) and 11,111 × 1,000 × (2 + 16): each just under kMaxCoverageWork.
  timed(f, 'intervalCoverage 1 size of 100,000, 10 trials x 199 resamples', () => m.intervalCoverage(a, [N], { trials: 10, bootstrap_resamples: 199 }));
  timed(f, 'intervalCoverage 1 size of 2, 11,111 trials x 1,000 resamples', () => m.intervalCoverage(a, [2], { trials: 11111, bootstrap_resamples: 1000 }));
  timed(f, 'intervalCoverage 1 size of 2, 100,000 trials x 1,000 resamples (refused)', () => m.intervalCoverage(a, [2], { trials: 100000, bootstrap_resamples: 1000 }));

  // A/B: the two slowest variants of each op at its largest size, the page's full settings
  // (30 rounds, 3 warmup calls), and the most rounds the limit accepts on a fast kernel.
  const stopped = (r) => (r.rounds < 30 ? `ran ${r.rounds} of 30 rounds` : `all ${r.rounds} rounds`);
  const ops = [
    ['matmul', m.matmulVariants().map((v) => v.name), L.ab_max_n.matmul],
    ['gelu', m.geluVariants().map((v) => v.name), L.ab_max_n.gelu],
    ['model', m.zooModels().map((v) => v.name), L.ab_max_n.model],
  ];
  for (const [op, names, n] of ops) {
    const [x, y] = slowestTwo(m, op, names, n);
    const r = timed(f, `runAB ${op} ${x.v} vs ${y.v} n=${n} (one call ${x.ms.toFixed(0)} ms), 30 rounds`, () =>
      m.runAB(op, x.v, y.v, n, { rounds: 30, warmup: 3 }));
    if (r) console.log(`        ${stopped(r)}${r.comparison.warning ? `: ${r.comparison.warning.slice(0, 140)}` : ''}`);
  }
  const most = Math.floor(L.ab_max_total_ms / 2);
  const r = timed(f, `runAB gelu fused vs unfused n=8, ${most} rounds of 1 ms samples`, () =>
    m.runAB('gelu', 'fused', 'unfused', 8, { rounds: most, min_sample_ms: 1 }));
  if (r) console.log(`        ${r.rounds} of ${most} rounds${r.comparison.warning ? `: ${r.comparison.warning.slice(0, 140)}` : ''}`);
  timed(f, `runAB matmul n=${L.ab_max_n.matmul + 1} (refused)`, () => m.runAB('matmul', 'naive', 'packed', L.ab_max_n.matmul + 1));

  // sampleKernel: the slowest variant of each op at its largest n with the largest budget.
  for (const [op, names] of ops) {
    const n = L.sample_kernel_max_n[op];
    const [x] = slowestTwo(m, op, names, n);
    timed(f, `sampleKernel ${op} ${x.v} n=${n}, 1000 samples in ${L.sample_kernel_max_total_ms} ms`, () =>
      m.sampleKernel(op, x.v, n, { warmup: 20, samples: 1000, max_total_ms: L.sample_kernel_max_total_ms }));
  }
  timed(f, `sampleKernel matmul n=${L.sample_kernel_max_n.matmul * 2} (refused)`, () => m.sampleKernel('matmul', 'naive', L.sample_kernel_max_n.matmul * 2));
}

const worst = lines.reduce((w, l) => (l.ms > w.ms ? l : w), { ms: 0 });
console.log(`\nlongest: ${worst.build} ${worst.what}: ${worst.ms.toFixed(0)} ms (${worst.ms <= CEILING_MS ? 'under' : 'OVER'} the 10 s ceiling)`);
