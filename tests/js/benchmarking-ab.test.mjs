// Protects the pure half of the Benchmarking chapter's A/B experiment (benchmarking-ab): its
// two runAB points (interleaved then sequential, one seed) for normal and quick mode, the
// checks beside its controls (A and B differ and are variants of one kernel, n within the
// page's budget), the chart's per-round rows, how a row prints, both CSVs, the analysis it
// hands to the renderer (core's fields unchanged) and that the spec passes the framework's
// checks. No DOM, no wasm: rows are hand-written in runAB's shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { readControls, specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import * as ab from '../../web/src/chapters/benchmarking/ab-data.js';
import { kernelChoices, parseKernel, setComparisonLimits, sizeProblem } from '../../web/src/chapters/benchmarking/compare-common.js';

const VALUES = { 'variant-a': 'matmul:simd', 'variant-b': 'matmul:packed', n: 64, seed: 7 };

const comparison = (over = {}) => ({
  n_a: 3,
  n_b: 3,
  median_a: 2,
  median_b: 1,
  ratio: 2,
  ratio_interval: { low: 1.5, high: 2.5 },
  change: -0.5,
  welch: { t: -5, df: 4, p_value: 0.01, difference: { low: -1.2, high: -0.8 } },
  mann_whitney: { u: 9, z: 0, p_value: 0.1, exact: true },
  cohens_d: -4,
  cliffs_delta: -1,
  alpha: 0.05,
  threshold: 0.02,
  min_samples: 5,
  bootstrap_resamples: 10000,
  seed: 7,
  verdict: { name: 'too_few_samples', word: 'too few samples', sentence: 'too few samples to decide: 3 of A and 3 of B' },
  warning: '',
  ...over,
});
const drift = { rho: 0.1, p_value: 0.8, change: 0.01, detected: false, alpha: 0.01, threshold: 0.02, rounds: 8, min_rounds: 6, critical_rho: 0.881, sentence: 'not detected: …' };
const measured = (mode) => ({
  op: 'matmul',
  n: 64,
  variant_a: 'simd',
  variant_b: 'packed',
  mode,
  rounds: 3,
  a_ms: [2, 2.1, 1.9],
  b_ms: [1, 1.1, 0.9],
  a_first: mode === 'sequential' ? [true, true, true] : [true, false, true],
  inner_iterations_a: 4,
  inner_iterations_b: 8,
  resolution_ms: 0.005,
  drift_a: drift,
  drift_b: { ...drift, detected: true, change: -0.2 },
  comparison: comparison(),
});
const rowsFor = (points) => points.map((p) => rowOf('runAB', p, measured(p.options.mode), 'simd'));

// Core's plans as experimentPlan('benchmarking-ab') gives them, in init's facts (the full one,
// and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = { rounds: 30, warmup: 3 };
const QUICK = { rounds: 7, warmup: 2 };
const INFO = { plan: FULL, fullPlan: FULL };
const QUICK_INFO = { plan: QUICK, fullPlan: FULL };

test('ab: two runAB points, interleaved then sequential, with one seed and the kernel split into op and variant', () => {
  const points = ab.abPoints(VALUES, { quick: false, info: INFO });
  assert.deepEqual(points, [
    { op: 'matmul', variant_a: 'simd', variant_b: 'packed', n: 64, options: { mode: 'interleaved', ...FULL, seed: 7 } },
    { op: 'matmul', variant_a: 'simd', variant_b: 'packed', n: 64, options: { mode: 'sequential', ...FULL, seed: 7 } },
  ]);
  const quick = ab.abPoints({ ...VALUES, 'variant-a': 'gelu:fused', 'variant-b': 'gelu:unfused' }, { quick: true, info: QUICK_INFO });
  assert.deepEqual(quick.map((p) => [p.op, p.variant_a, p.variant_b, p.options.mode, p.options.rounds]), [
    ['gelu', 'fused', 'unfused', 'interleaved', QUICK.rounds],
    ['gelu', 'fused', 'unfused', 'sequential', QUICK.rounds],
  ]);
  assert.ok(quick.every((p) => p.options.warmup === QUICK.warmup), 'quick mode takes core’s quick plan');
  assert.throws(() => ab.abPoints(VALUES, { quick: false, info: null }), /gave no plan of the A\/B rounds/);
  assert.notEqual(points[0].options, points[1].options, 'each point owns its options');
});

test('ab: the rows keep what the capstone grades (mode, op, variants, n, both samples, the comparison)', () => {
  const rows = rowsFor(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO }));
  for (const key of ['mode', 'op', 'variant_a', 'variant_b', 'n', 'a_ms', 'b_ms', 'comparison']) {
    assert.ok(rows.every((r) => key in r), key);
  }
  assert.deepEqual(rows.map((r) => r.mode), ['interleaved', 'sequential']);
  assert.equal(rows[0].options, undefined, 'options are an argument, not a row field');
});

// Core's statsLimits() as the page reads it (kMaxAbMatmulN, kMaxAbGeluN, kMaxAbModelBatch).
const LIMITS = { ab_max_n: { matmul: 512, gelu: 4194304, model: 16 } };

test('ab: A and B must differ and belong to one kernel, and n stays within core’s limits', () => {
  setComparisonLimits(LIMITS);
  const controls = ab.AB_CONTROLS.map((c) =>
    typeof c.options === 'function'
      ? { ...c, options: ['matmul:simd', 'matmul:packed', 'gelu:fused'].map((value) => ({ value, label: value })) }
      : c,
  );
  const raws = { compare: 'variants', 'variant-a': 'matmul:simd', 'variant-b': 'matmul:packed', n: '64', seed: '1' };
  assert.deepEqual(readControls(controls, raws).problems, {});
  assert.match(readControls(controls, { ...raws, 'variant-b': 'matmul:simd' }).problems['variant-b'], /^B must differ from A/);
  assert.match(readControls(controls, { ...raws, 'variant-b': 'gelu:fused' }).problems['variant-b'], /same kernel: A is a matmul variant, B a gelu one/);
  assert.match(readControls(controls, { ...raws, n: '100000' }).problems.n, /^for matmul, n must be at most 512 here/);
  // Across builds B is variant A in the SIMD build: the variant-B select is not consulted.
  assert.deepEqual(readControls(controls, { ...raws, compare: 'builds', 'variant-b': 'matmul:simd' }).problems, {});
  assert.deepEqual(readControls(controls, { ...raws, compare: 'builds', 'variant-b': 'gelu:fused' }).problems, {});
  assert.equal(sizeProblem('gelu:fused', 100000), null);
  assert.deepEqual(parseKernel('gelu:fused-simd'), { op: 'gelu', variant: 'fused-simd' });
});

test('ab: the kernel choices are core’s two variant lists and the zoo, labelled with their op', async () => {
  const asked = [];
  const lab = {
    matmulVariants: async ({ where }) => (asked.push(['matmul', where]), [{ name: 'naive', description: 'loops' }]),
    geluVariants: async () => (asked.push(['gelu']), [{ name: 'fused', description: 'one pass' }]),
    zooModels: async () => (asked.push(['zoo']), [{ name: 'mlp_784', description: 'MNIST MLP', spec: {} }]),
    statsLimits: async () => (asked.push(['limits']), { ...LIMITS, ab_max_n: { ...LIMITS.ab_max_n, model: 8 } }),
  };
  setComparisonLimits({});
  assert.equal(sizeProblem('model:mlp_784', 100), null, 'before core’s limits are read, core judges');
  assert.deepEqual(await kernelChoices(lab, 'x'), [
    { value: 'matmul:naive', label: 'matmul · naive', title: 'loops' },
    { value: 'gelu:fused', label: 'gelu · fused', title: 'one pass' },
    { value: 'model:mlp_784', label: 'model · mlp_784', title: 'MNIST MLP' },
  ]);
  assert.deepEqual(asked, [['limits'], ['matmul', 'x'], ['gelu'], ['zoo']]);
  // A model's n is its batch, capped (by core's limit, read with the choices) so that every
  // round stays short.
  assert.equal(sizeProblem('model:mlp_784', 8), null);
  assert.match(sizeProblem('model:mlp_784', 9), /^for model, n must be at most 8 here \(a larger batch/);
});

test('ab: the chart shows each round’s A and B of one mode, in colours fixed by the controls', () => {
  const rows = rowsFor(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO }));
  const series = ab.roundSeries(rows, 'sequential');
  assert.equal(series.length, 6);
  assert.deepEqual(series[0], { round: 1, ms: 2, arm: 'A: simd' });
  assert.deepEqual(series[5], { round: 3, ms: 0.9, arm: 'B: packed' });
  assert.deepEqual(ab.armDomain(VALUES), ['A: simd', 'B: packed']);
  assert.deepEqual(ab.roundSeries([], 'interleaved'), []);
  assert.deepEqual(ab.roundTicks(3), [1, 2, 3]);
  assert.deepEqual(ab.roundTicks(30), [1, 5, 10, 15, 20, 25, 30]);
  assert.equal(ab.driftedArms({ drift_a: { detected: true }, drift_b: { detected: true } }), 'A and B');
  assert.equal(ab.driftedArms({ drift_a: { detected: false }, drift_b: { detected: false } }), 'none');
  // Below the rounds at which core's rule can fire, "none" would claim what was not looked for.
  const few = { detected: false, rounds: 5, min_rounds: 6 };
  assert.equal(ab.driftedArms({ drift_a: few, drift_b: few }), 'too few rounds to tell');
  assert.equal(ab.driftedArms({ drift_a: { ...few, rounds: 6 }, drift_b: { ...few, rounds: 6 } }), 'none');
});

test('ab: each arm’s drift is core’s sentence, the rule and its reach in it', () => {
  const sentence = 'too few rounds to detect drift: the rule (Spearman p below 0.01 and a change beyond ±2%) can fire from 6 rounds on, and this run has 5';
  assert.equal(ab.driftText({ ...drift, rounds: 5, sentence }), sentence);
});

test('ab: a row prints core’s numbers, with p-values, ratios and drift readable', () => {
  const [row] = rowsFor(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO }));
  const cells = Object.fromEntries(ab.AB_COLUMNS.map((c) => [headerText(c), cellText(c, row)]));
  assert.deepEqual(cells, {
    mode: 'interleaved',
    rounds: '3',
    'median A (ms)': '2.00',
    'median B (ms)': '1.00',
    'ratio A/B': '2.00×',
    'ratio CI': '1.50–2.50×',
    'Mann-Whitney p': '0.100',
    'Welch p': '0.0100',
    'Cohen’s d': '-4.00',
    'Cliff’s δ': '-1.00',
    verdict: 'too few samples',
    'drift in': 'B',
  });
  const tiny = { ...row, comparison: comparison({ mann_whitney: { p_value: 1e-9, exact: false }, cohens_d: null }) };
  assert.equal(cellText(ab.AB_COLUMNS[6], tiny), '< 0.0001');
  assert.equal(cellText(ab.AB_COLUMNS[8], tiny), 'unbounded');
});

test('ab: the CSV has one line per mode with both samples; the per-round CSV one line per round', () => {
  const rows = rowsFor(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO }));
  const lines = toCsv(rows, ab.AB_CSV_COLUMNS).trimEnd().split('\r\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^build,op,n,variant_a,variant_b,mode,rounds,.*,verdict,sentence,warning,a_ms,b_ms$/);
  assert.match(lines[1], /^simd,matmul,64,simd,packed,interleaved,3,4,8,0\.005,2,1,2,1\.5,2\.5,0\.1,0\.01,-4,-1,7,too_few_samples,too few samples to decide: 3 of A and 3 of B,,2 2\.1 1\.9,1 1\.1 0\.9$/);
  const rounds = toCsv(ab.abRoundRows(rows)).trimEnd().split('\r\n');
  assert.equal(rounds[0], 'mode,op,n,variant_a,variant_b,build_a,build_b,round,a_first,a_ms,b_ms');
  assert.equal(rounds.length, 1 + 6);
  assert.equal(rounds[2], 'interleaved,matmul,64,simd,packed,simd,simd,2,false,2.1,1.1');
  assert.equal(rounds[4], 'sequential,matmul,64,simd,packed,simd,simd,1,true,2,1');
  // The experiment's CSV names the build of each arm (one build here).
  const own = toCsv(rows, ab.AB_EXPERIMENT_CSV_COLUMNS).trimEnd().split('\r\n');
  assert.match(own[0], /^build,op,n,variant_a,variant_b,build_a,build_b,mode,rounds,/);
  assert.match(own[1], /^simd,matmul,64,simd,packed,simd,simd,interleaved,3,/);
});

test('ab: the analysis hands core’s comparison and drift of each mode to the renderer unchanged', () => {
  const rows = rowsFor(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO }));
  const analysis = ab.abAnalysis([...rows].reverse());
  assert.deepEqual(analysis.modes.map((m) => m.mode), ['interleaved', 'sequential']);
  assert.equal(analysis.modes[0].comparison, rows[0].comparison);
  assert.equal(analysis.modes[1].drift_b, rows[1].drift_b);
  assert.equal(analysis.rounds.length, 6);
  // A cancelled run's single row still renders.
  assert.equal(ab.abAnalysis(rows.slice(0, 1)).modes.length, 1);
});

test('ab: the spec passes the framework’s checks', async () => {
  const { abExperiment } = await import('../../web/src/chapters/benchmarking/ab-experiment.js');
  assert.deepEqual(specProblems(abExperiment), []);
  assert.equal(abExperiment.measure({ values: VALUES }).fn, 'runAB');
  assert.equal(abExperiment.measure({ values: { ...VALUES, compare: 'builds' } }).fn, 'sampleKernel');
  assert.equal(abExperiment.pointLabel(ab.abPoints(VALUES, { quick: true, info: QUICK_INFO })[0]), 'simd against packed matmul at N=64, interleaved');
});

// ---- across builds: variant A in the scalar build (A) against the SIMD build (B)

const BUILD_VALUES = { ...VALUES, compare: 'builds', 'variant-a': 'matmul:packed' };
// Core's orders (hand-written here: abRoundOrder's shape) and calibration rows (sampleKernel's).
const ORDERS = { interleaved: [true, false, false], sequential: [true, true, true] };
const CALIBRATION_ROWS = [
  { build: 'scalar', arm: 'A', op: 'matmul', variant: 'packed', n: 64, samples_ms: [0.9], inner_iterations: 3, resolution_ms: 0.005 },
  { build: 'simd', arm: 'B', op: 'matmul', variant: 'packed', n: 64, samples_ms: [0.2], inner_iterations: 12, resolution_ms: 0.005 },
];
const prepared = ab.buildPrepared(ORDERS, CALIBRATION_ROWS);
// A sampleKernel row of a point: A takes 2 ms a call, B 0.5 ms, plus the round in µs.
const sampled = (p) => rowOf('sampleKernel', p, {
  samples_ms: [(p.arm === 'A' ? 2 : 0.5) + p.round / 1000],
  inner_iterations: p.options.inner_iterations,
  resolution_ms: 0.005,
  clock_tick_ms: 0,
  warning: '',
}, p.build);

test('across builds: each build calibrates once, with the timer’s rule and the run’s warmup', () => {
  assert.deepEqual(ab.calibrationPoints(BUILD_VALUES, { quick: true, info: QUICK_INFO }), [
    { arm: 'A', build: 'scalar', op: 'matmul', variant: 'packed', n: 64, options: { warmup: QUICK.warmup, samples: 1 } },
    { arm: 'B', build: 'simd', op: 'matmul', variant: 'packed', n: 64, options: { warmup: QUICK.warmup, samples: 1 } },
  ]);
  assert.deepEqual(prepared.calibration, {
    A: { build: 'scalar', inner_iterations: 3, resolution_ms: 0.005 },
    B: { build: 'simd', inner_iterations: 12, resolution_ms: 0.005 },
  });
});

test('across builds: one point per arm and round, in core’s order, each in its arm’s build with its batch', () => {
  const points = ab.abPoints(BUILD_VALUES, { quick: true, info: QUICK_INFO, prepared });
  assert.equal(points.length, 2 * 2 * 3);
  const brief = (p) => `${p.mode[0]}${p.round}${p.arm}:${p.build}`;
  assert.deepEqual(points.map(brief), [
    // interleaved: round 1 A first, rounds 2 and 3 B first
    'i1A:scalar', 'i1B:simd', 'i2B:simd', 'i2A:scalar', 'i3B:simd', 'i3A:scalar',
    // sequential: every A round, then every B round
    's1A:scalar', 's2A:scalar', 's3A:scalar', 's1B:simd', 's2B:simd', 's3B:simd',
  ]);
  assert.deepEqual(points[1], {
    mode: 'interleaved', round: 1, arm: 'B', a_first: true, build: 'simd', op: 'matmul', variant: 'packed', n: 64,
    options: { warmup: ab.ROUND_WARMUP, samples: 1, inner_iterations: 12 },
  });
  assert.ok(points.every((p) => p.options.inner_iterations === (p.arm === 'A' ? 3 : 12)), 'one batch per arm, calibrated once');
  assert.equal(ab.buildPointLabel(points[2]), 'interleaved round 2: B, packed in the SIMD build');
  assert.throws(() => ab.abPoints(BUILD_VALUES, { quick: true, info: QUICK_INFO }), /needs core’s order and calibration first/);
});

test('across builds: the samples pair by round into what analyzeAB takes; a cancel keeps complete rounds only', () => {
  const rows = ab.abPoints(BUILD_VALUES, { quick: true, info: QUICK_INFO, prepared }).map(sampled);
  const pairs = ab.pairRounds(rows);
  assert.deepEqual(pairs.map((p) => p.mode), ['interleaved', 'sequential']);
  assert.deepEqual(pairs[0].a_ms, [2.001, 2.002, 2.003]);
  assert.deepEqual(pairs[0].b_ms, [0.501, 0.502, 0.503]);
  assert.deepEqual(pairs[0].a_first, [true, false, false]);
  assert.deepEqual(pairs[1].a_first, [true, true, true]);
  assert.deepEqual(pairs[0].identity, {
    op: 'matmul', n: 64, variant_a: 'packed', variant_b: 'packed', build_a: 'scalar', build_b: 'simd',
    inner_iterations_a: 3, inner_iterations_b: 12, resolution_ms: 0.005,
  });
  // Cancelled after five points: rounds 1 and 2 are complete, round 3 has B only.
  const partial = ab.pairRounds(rows.slice(0, 5));
  assert.equal(partial.length, 1);
  assert.deepEqual(partial[0].a_ms, [2.001, 2.002]);
  assert.deepEqual(ab.pairRounds(rows.slice(0, 1)), []);
  // Core's analysis (runAB's shape) joined to what was measured: the row the table, chart and capstone read.
  const analysis = { mode: 'interleaved', rounds: 3, a_ms: pairs[0].a_ms, b_ms: pairs[0].b_ms, a_first: pairs[0].a_first, drift_a: drift, drift_b: drift, comparison: comparison() };
  const row = ab.assembledRow(pairs[0], analysis);
  assert.equal(row.build, 'scalar + simd');
  assert.equal(row.comparison, analysis.comparison);
  assert.deepEqual([row.build_a, row.build_b, row.variant_a, row.inner_iterations_b], ['scalar', 'simd', 'packed', 12]);
});

test('across builds: the chart names each arm’s build, in colours fixed by the controls, for samples and rows alike', () => {
  const rows = ab.abPoints(BUILD_VALUES, { quick: true, info: QUICK_INFO, prepared }).map(sampled);
  assert.deepEqual(ab.armDomain(BUILD_VALUES), ['A: packed, scalar build', 'B: packed, SIMD build']);
  const live = ab.roundSeries(rows, 'interleaved');
  assert.deepEqual(live[0], { round: 1, ms: 2.001, arm: 'A: packed, scalar build' });
  assert.deepEqual(live[2], { round: 2, ms: 0.502, arm: 'B: packed, SIMD build' });
  const [pair] = ab.pairRounds(rows);
  const assembled = ab.assembledRow(pair, { mode: 'interleaved', a_ms: pair.a_ms, b_ms: pair.b_ms, a_first: pair.a_first, comparison: comparison() });
  assert.deepEqual(
    new Set(ab.roundSeries([assembled], 'interleaved').map((p) => p.arm)),
    new Set(ab.armDomain(BUILD_VALUES)),
  );
  assert.equal(ab.armText('packed', 'scalar'), 'packed in the scalar build');
  assert.equal(ab.armText('packed', undefined), 'packed');
  const analysed = ab.abAnalysis([assembled]);
  assert.deepEqual([analysed.modes[0].build_a, analysed.modes[0].build_b], ['scalar', 'simd']);
  assert.equal(analysed.rounds[0].build_a, 'scalar');
});

test('ab: the round charts and the quick-mode note take core’s rounds once they arrive', async () => {
  const { abExperiment } = await import('../../web/src/chapters/benchmarking/ab-experiment.js');
  const chart = abExperiment.charts[0];
  assert.equal(chart.options({ values: VALUES, quick: true, info: null }).xDomain, undefined);
  assert.deepEqual(chart.options({ values: VALUES, quick: true, info: QUICK_INFO }).xDomain, [1, QUICK.rounds]);
  assert.deepEqual(chart.options({ values: VALUES, quick: false, info: INFO }).xTicks, ab.roundTicks(FULL.rounds));
  assert.equal(abExperiment.quickNote({ quick: true, info: null }), null);
  assert.equal(
    abExperiment.quickNote({ quick: true, info: QUICK_INFO }),
    'Quick mode (?quick=1): 7 rounds per arm instead of 30, so the tests have less to go on.',
  );
});
