// Protects the pure half of the Benchmarking chapter's regression experiment
// (benchmarking-regression): its sampleKernel points from core's bench plan (normal and quick
// plans are core's; the page copies the timer into each point), the run handed to compareRuns
// (kernel and raw samples only), the baseline kept in storage (saved, read back, refused when
// malformed, cleared), a loaded file that is not JSON, the chart rows, how a row and a compare
// row print, the CSV, the sentence counting core's verdicts, and the spec's framework checks.
// No DOM, no wasm: plans, rows and comparisons are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { readControls, specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import * as reg from '../../web/src/chapters/benchmarking/regression-data.js';
import { regressionSpec, regressionState } from '../../web/src/chapters/benchmarking/regression-experiment.js';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';

const PLAN = {
  timer: { warmup: 1, samples: 5, min_sample_ms: 1, max_total_ms: 150 },
  points: [
    { op: 'matmul', variant: 'naive', n: 32 },
    { op: 'gelu', variant: 'fused', n: 65536 },
  ],
};
const measured = (p, samples_ms) => ({ samples_ms, inner_iterations: 10, resolution_ms: 0.005, clock_tick_ms: 0, warning: '' });
const rowsOf = (points) => points.map((p, i) => rowOf('sampleKernel', p, measured(p, [1 + i, 2 + i, 3 + i]), 'simd'));

/** A Map with the Storage methods the store uses. */
function fakeStorage() {
  const map = new Map();
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
  };
}

const COMPARISON = {
  base: 'baseline',
  new: 'this run',
  alpha: 0.05,
  threshold: 0.05,
  regression: true,
  only_in_base: ['matmul simd n=512'],
  only_in_new: [],
  rows: [
    { benchmark: 'matmul naive n=32', base_median_ms: 1, new_median_ms: 1.5, change: 0.5, change_interval: { low: 0.43, high: 0.67 }, p_value: 0.008, ratio_interval: { low: 0.6, high: 0.7 }, verdict: 'slower', verdict_word: 'slower', sentence: 'this run is 1.50x slower than the baseline (95% CI 1.43-1.67x, p = 0.008)' },
    { benchmark: 'gelu fused n=65536', base_median_ms: 2, new_median_ms: 1, change: -0.5, change_interval: { low: -0.55, high: -0.45 }, p_value: 0.00001, ratio_interval: { low: 1.8, high: 2.2 }, verdict: 'faster', verdict_word: 'faster', sentence: 'this run is 2.00x faster than the baseline' },
    { benchmark: 'gelu fused-simd n=65536', base_median_ms: 2, new_median_ms: 2, change: 0, change_interval: { low: -0.09, high: 0.11 }, p_value: 0.9, ratio_interval: { low: 0.9, high: 1.1 }, verdict: 'no_difference', verdict_word: 'no clear difference', sentence: 'no significant difference' },
  ],
};

test('regression: one sampleKernel point per kernel of core’s bench plan, each with the plan’s timer', () => {
  const points = reg.regressionPoints({ threshold: 5 }, { info: PLAN });
  assert.deepEqual(points, [
    { op: 'matmul', variant: 'naive', n: 32, options: PLAN.timer },
    { op: 'gelu', variant: 'fused', n: 65536, options: PLAN.timer },
  ]);
  assert.notEqual(points[0].options, PLAN.timer, 'each point owns its options');
  assert.throws(() => reg.regressionPoints({}, { info: { timer: {}, points: [] } }), /listed no benchmarks/);
});

test('regression: the threshold control takes a percentage', () => {
  assert.deepEqual(readControls([reg.THRESHOLD_CONTROL], { threshold: '2.5' }), { values: { threshold: 2.5 }, problems: {} });
  assert.match(readControls([reg.THRESHOLD_CONTROL], { threshold: '-1' }).problems.threshold, /from 0 to 100/);
});

test('regression: the run handed to core keeps each kernel and its raw samples only', () => {
  const rows = rowsOf(reg.regressionPoints({}, { info: PLAN }));
  assert.deepEqual(reg.runOf(rows), [
    { op: 'matmul', variant: 'naive', n: 32, samples_ms: [1, 2, 3] },
    { op: 'gelu', variant: 'fused', n: 65536, samples_ms: [2, 3, 4] },
  ]);
  const samples = reg.sampleRows(rows);
  assert.deepEqual(samples.slice(2, 4), [
    { order: 3, kernel: 'matmul naive', n: 32, ms: 3 },
    { order: 4, kernel: 'gelu fused', n: 65536, ms: 2 },
  ]);
  assert.equal(samples.length, 6);
});

test('regression: the baseline is kept in storage, read back, cleared, and a malformed entry reads as none', () => {
  const storage = fakeStorage();
  const store = reg.baselineStore(storage);
  assert.equal(store.get(), null);
  const rows = rowsOf(reg.regressionPoints({}, { info: PLAN }));
  const saved = store.set(reg.browserBaseline(rows, 'simd', 1000));
  assert.ok([...storage.map.keys()].every((k) => k.startsWith('perflab.')));
  assert.deepEqual(store.get(), saved);
  assert.equal(saved.label, 'this browser’s run (simd build, 2 benchmarks)');
  assert.deepEqual(saved.data, reg.runOf(rows));
  store.clear();
  assert.equal(store.get(), null);
  storage.setItem(reg.BASELINE_KEY, '{not json');
  assert.equal(store.get(), null);
  storage.setItem(reg.BASELINE_KEY, JSON.stringify({ version: 2, label: 'x', data: [] }));
  assert.equal(store.get(), null);
  const refusing = { ...fakeStorage(), setItem: () => { throw new Error('QuotaExceededError'); } };
  assert.throws(() => reg.baselineStore(refusing).set(saved), /refused to keep the baseline: QuotaExceededError/);
  assert.throws(() => reg.baselineStore(null).set(saved), /localStorage is off/);
});

test('regression: a loaded file must be JSON (core says where it is not); its label says what it is', async () => {
  const { module } = await loadNodeLab();
  const problem = (t) => module.jsonTextProblem(t);
  await assert.rejects(reg.parseBaselineFile('base.json', '{"rows": }', problem), (e) => {
    assert.match(e.message, /^base\.json is not JSON: parse error at line 1, column 10: .*; make one with perflab bench --json/);
    assert.doesNotMatch(e.message, /Unexpected token|in JSON at position|is not valid JSON/);
    return true;
  });
  const doc = await reg.parseBaselineFile('base.json', JSON.stringify({ tool: 'perflab', kind: 'bench', simd_backend: 'sse2', rows: [{}, {}] }), problem);
  assert.equal(reg.fileBaseline('base.json', doc, 5).label, 'base.json (perflab bench --json, 2 benchmarks, sse2)');
  assert.equal(reg.fileBaseline('rows.json', [{}], 5).label, 'rows.json (perflab bench --json, 1 benchmarks)');
});

test('regression: the sentence counts core’s verdicts and says what perflab compare would exit with', () => {
  assert.equal(
    reg.regressionSentence(COMPARISON),
    'Regression: 1 of 3 benchmarks are significantly slower than the baseline (p < 0.05) by more than 5%; perflab compare would exit with 1. 1 is significantly faster.',
  );
  const calm = { ...COMPARISON, regression: false, rows: [COMPARISON.rows[2]] };
  assert.equal(
    reg.regressionSentence(calm),
    'No regression: none of the 1 benchmarks is significantly slower than the baseline by more than 5%; perflab compare would exit with 0.',
  );
});

test('regression: rows, compare rows and the change chart print core’s numbers', () => {
  const [row] = rowsOf(reg.regressionPoints({}, { info: PLAN }));
  assert.deepEqual(Object.fromEntries(reg.REGRESSION_COLUMNS.map((c) => [headerText(c), cellText(c, row)])), {
    op: 'matmul',
    variant: 'naive',
    n: '32',
    samples: '3',
    'calls per sample': '10',
    'timer warning': '',
  });
  // The interval beside the change is the change's own (core's change_interval, not the
  // ratio base/new's), and the verdict is core's word, never its identifier.
  const columns = reg.compareColumns(COMPARISON.alpha);
  assert.deepEqual(Object.fromEntries(columns.map((c) => [headerText(c), cellText(c, COMPARISON.rows[0])])), {
    benchmark: 'matmul naive n=32',
    'baseline median (ms)': '1.00',
    'this run’s median (ms)': '1.50',
    change: '+50.0%',
    '95% CI of the change': '+43.0% to +67.0%',
    p: '0.00800',
    verdict: 'slower',
    'what core concludes': 'this run is 1.50x slower than the baseline (95% CI 1.43-1.67x, p = 0.008)',
  });
  assert.deepEqual(
    COMPARISON.rows.map((r) => cellText(columns.find((c) => headerText(c) === 'verdict'), r)),
    ['slower', 'faster', 'no clear difference'],
  );
  assert.equal(cellText(columns[4], COMPARISON.rows[1]), '-55.0% to -45.0%');
  assert.equal(headerText(reg.compareColumns(0.01)[4]), '99% CI of the change');
  assert.deepEqual(reg.changeRows(COMPARISON)[2], { size: 'n=65536', kernel: 'gelu fused-simd', change_percent: 0, verdict: 'no clear difference' });
  assert.deepEqual(reg.changeRows({ rows: [{ ...COMPARISON.rows[0], benchmark: 'odd name' }] })[0].kernel, 'odd name');
  assert.deepEqual(reg.changeRows(null), []);
  const lines = toCsv(rowsOf(reg.regressionPoints({}, { info: PLAN })), reg.REGRESSION_CSV_COLUMNS).trimEnd().split('\r\n');
  assert.deepEqual(lines, ['build,op,variant,n,inner_iterations,resolution_ms,warning,samples_ms', 'simd,matmul,naive,32,10,0.005,,1 2 3', 'simd,gelu,fused,65536,10,0.005,,2 3 4']);
});

test('regression: the spec passes the framework’s checks and compares with the kept baseline', async () => {
  const state = regressionState(fakeStorage(), () => 2000);
  const spec = regressionSpec(state);
  assert.deepEqual(specProblems(spec), []);
  assert.equal(spec.measure.fn, 'sampleKernel');
  const rows = rowsOf(reg.regressionPoints({}, { info: PLAN }));
  const asked = [];
  const lab = { compareRuns: async (base, next, options) => (asked.push({ base, next, options }), COMPARISON) };
  assert.deepEqual(await spec.analyze(rows, { lab, values: { threshold: 5 } }), { baseline: null, comparison: null });
  assert.equal(asked.length, 0, 'no baseline: nothing to ask core');
  state.store.set(reg.browserBaseline(rows, 'simd', 1000));
  const analysis = await spec.analyze(rows, { lab, values: { threshold: 5 } });
  assert.equal(analysis.comparison, COMPARISON);
  assert.deepEqual(asked[0].options, { threshold: 0.05 });
  assert.deepEqual(asked[0].next, reg.runOf(rows));
  let told = 0;
  state.onChange(() => (told += 1));
  state.setLastRun(rows, 'simd');
  assert.equal(told, 1);
  assert.equal(state.lastRun.rows, rows);
});
