// Protects the pure half of the Benchmarking chapter's A/A experiment (benchmarking-aa): its R
// runAB points (one kernel as both arms, interleaved, distinct seeds) for normal and quick
// mode, the chart data (p-values with alpha's line, ratios with their intervals), how a row
// prints, the CSV, the tally of core's verdicts and the sentences built on it (true for any
// count), and that the spec passes the framework's checks. No DOM, no wasm: rows are
// hand-written in runAB's shape.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { readControls, specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import * as aa from '../../web/src/chapters/benchmarking/aa-data.js';
import { setComparisonLimits } from '../../web/src/chapters/benchmarking/compare-common.js';

const VALUES = { kernel: 'gelu:fused', n: 4096, repeats: 40, seed: 11 };

// A repeat's measurement: p, verdict and warning vary; the rest is runAB's shape.
const measured = (point, { p = 0.5, verdict = 'no_difference', warning = '', drift = false } = {}) => ({
  op: point.op,
  n: point.n,
  variant_a: point.variant_a,
  variant_b: point.variant_b,
  mode: 'interleaved',
  rounds: 3,
  a_ms: [1, 1.1, 0.9],
  b_ms: [1.05, 1, 0.95],
  a_first: [true, false, true],
  inner_iterations_a: 16,
  inner_iterations_b: 16,
  resolution_ms: 0.1,
  drift_a: { rho: 0, p_value: 1, change: 0, detected: false },
  drift_b: { rho: 0, p_value: 1, change: 0, detected: drift },
  comparison: {
    n_a: 3,
    n_b: 3,
    median_a: 1,
    median_b: 1,
    ratio: 1.01,
    ratio_interval: { low: 0.9, high: 1.1 },
    change: -0.01,
    welch: { t: 0.1, df: 4, p_value: 0.9, difference: { low: -0.1, high: 0.1 } },
    mann_whitney: { u: 4, z: 0, p_value: p, exact: true },
    cohens_d: 0.1,
    cliffs_delta: 0.1,
    alpha: 0.05,
    threshold: 0.02,
    min_samples: 5,
    bootstrap_resamples: 10000,
    seed: point.options.seed,
    verdict: { name: verdict, word: verdict === 'no_difference' ? 'no clear difference' : verdict, sentence: verdict === 'no_difference' ? 'no difference' : `B is ${verdict}` },
    warning,
  },
});

// Core's plans as experimentPlan('benchmarking-aa') gives them, in init's facts (the full one,
// and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = { rounds: 30, warmup: 3, max_repeats: null };
const QUICK = { rounds: 9, warmup: 2, max_repeats: 6 };
const INFO = { plan: FULL, fullPlan: FULL };
const QUICK_INFO = { plan: QUICK, fullPlan: FULL };

test('aa: R interleaved runAB points of one kernel against itself, each with its own seed', () => {
  const points = aa.aaPoints(VALUES, { quick: false, info: INFO });
  assert.equal(points.length, 40);
  assert.deepEqual(points[0], {
    repeat: 1,
    op: 'gelu',
    variant_a: 'fused',
    variant_b: 'fused',
    n: 4096,
    options: { mode: 'interleaved', rounds: FULL.rounds, warmup: FULL.warmup, seed: 11 },
  });
  assert.deepEqual(points.map((p) => p.repeat), Array.from({ length: 40 }, (_, i) => i + 1));
  assert.equal(new Set(points.map((p) => p.options.seed)).size, 40, 'distinct seeds');
  assert.ok(points.every((p) => p.variant_a === p.variant_b));
  const quick = aa.aaPoints(VALUES, { quick: true, info: QUICK_INFO });
  assert.equal(quick.length, QUICK.max_repeats);
  assert.ok(quick.every((p) => p.options.rounds === QUICK.rounds && p.options.warmup === QUICK.warmup));
  assert.equal(aa.aaPoints({ ...VALUES, repeats: 200 }, { quick: false, info: INFO }).length, 200, 'no cap when core’s plan has none');

  assert.equal(aa.aaPoints({ ...VALUES, repeats: 3 }, { quick: true, info: QUICK_INFO }).length, 3, 'a smaller R stays as asked');
});

test('aa: rows carry the repeat index and what the exercises read', () => {
  const rows = aa.aaPoints(VALUES, { quick: true, info: QUICK_INFO }).map((p) => rowOf('runAB', p, measured(p), 'simd'));
  for (const key of ['repeat', 'op', 'variant_a', 'variant_b', 'n', 'mode', 'a_ms', 'b_ms', 'comparison']) {
    assert.ok(rows.every((r) => key in r), key);
  }
  assert.deepEqual(rows.map((r) => r.repeat), [1, 2, 3, 4, 5, 6]);
});

test('aa: the controls check the size against the chosen kernel', () => {
  // Core's limits as kernelChoices reads them (statsLimits) before the controls are checked.
  setComparisonLimits({ ab_max_n: { matmul: 512, gelu: 4194304 } });
  const controls = aa.AA_CONTROLS.map((c) =>
    typeof c.options === 'function' ? { ...c, options: [{ value: 'matmul:naive' }, { value: 'gelu:fused' }] } : c,
  );
  const raws = { kernel: 'matmul:naive', n: '64', repeats: '40', seed: '1' };
  assert.deepEqual(readControls(controls, raws).problems, {});
  assert.match(readControls(controls, { ...raws, n: '2048' }).problems.n, /^for matmul, n must be at most 512/);
  assert.deepEqual(readControls(controls, { ...raws, kernel: 'gelu:fused', n: '2048' }).problems, {});
  assert.match(readControls(controls, { ...raws, repeats: '1' }).problems.repeats, /from 2 to 200/);
});

test('aa: the charts plot each repeat’s p-value against alpha and its ratio with the interval', () => {
  const points = aa.aaPoints({ ...VALUES, repeats: 2 }, { quick: true, info: QUICK_INFO });
  const rows = [rowOf('runAB', points[0], measured(points[0], { p: 0.01, verdict: 'faster' }), 'simd'), rowOf('runAB', points[1], measured(points[1]), 'simd')];
  assert.deepEqual(aa.pValueChart(rows), {
    points: [
      { repeat: 1, p_value: 0.01, verdict: 'faster', call: aa.CALLED },
      { repeat: 2, p_value: 0.5, verdict: 'no_difference', call: aa.NOT_CALLED },
    ],
    references: [{ y: 0.05, label: 'α = 0.05', dashed: true }],
  });
  const ratio = aa.ratioChart(rows);
  assert.equal(ratio.points.length, 2);
  // 1, then core's 2% threshold on both sides, then each repeat's interval.
  assert.deepEqual(ratio.references.slice(0, 3), [
    { y: 1, dashed: true },
    { y: 1.02, label: '±2% noise threshold', dashed: true, stroke: 'gray' },
    { y: 1 / 1.02, dashed: true, stroke: 'gray' },
  ]);
  assert.deepEqual(ratio.references[3], { x1: 1, x2: 1, y1: 0.9, y2: 1.1, caps: true });
  assert.deepEqual(aa.pValueChart([]), { points: [], references: [] });
  assert.deepEqual(aa.ratioChart([]), { points: [], references: [] });
});

test('aa: a row prints core’s numbers; the CSV has the repeat and both samples', () => {
  const [p] = aa.aaPoints(VALUES, { quick: true, info: QUICK_INFO });
  const row = rowOf('runAB', p, measured(p, { warning: 'B drifted', drift: true }), 'simd');
  const cells = Object.fromEntries(aa.AA_COLUMNS.map((c) => [headerText(c), cellText(c, row)]));
  assert.deepEqual(cells, {
    repeat: '1',
    seed: '11',
    'median A (ms)': '1.00',
    'median B (ms)': '1.00',
    'ratio A/B': '1.01×',
    'ratio CI': '0.900–1.10×',
    'Mann-Whitney p': '0.500',
    verdict: 'no clear difference',
    'drift in': 'B',
  });
  const lines = toCsv([row], aa.AA_CSV_COLUMNS).trimEnd().split('\r\n');
  assert.match(lines[0], /^repeat,build,op,n,variant_a,variant_b,mode,rounds,/);
  assert.match(lines[1], /^1,simd,gelu,4096,fused,fused,interleaved,3,.*,1 1\.1 0\.9,1\.05 1 0\.95$/);
});

test('aa: the tally counts core’s p-values below alpha and its verdicts, and the sentences hold for any count', () => {
  const points = aa.aaPoints({ ...VALUES, repeats: 20 }, { quick: false, info: INFO });
  const rows = points.map((p, i) =>
    rowOf('runAB', p, measured(p, i === 0 ? { p: 0.01, verdict: 'slower' } : i === 1 ? { p: 0.03, warning: 'B drifted', drift: true } : {}), 'simd'),
  );
  const tally = aa.aaTally(rows);
  assert.deepEqual(tally, {
    runs: 20,
    alpha: 0.05,
    threshold: 0.02,
    significant: 2,
    differences: 1,
    drifted: 1,
    verdicts: { slower: 1, no_difference: 19 },
  });
  const [first, second, third] = aa.aaSentences(tally);
  assert.match(first, /^Core’s verdict called B faster or slower in 1 of 20 A\/A runs \(the points coloured “verdict: B faster or slower”\): that is a false alarm/);
  assert.match(second, /^2 of 20 \(10%\) had Mann-Whitney p < 0\.05, below the dashed line\. .* about 5% of runs .*: about 1 of 20 here\./);
  assert.match(third, /^p < 0\.05 is not enough for the verdict: .* outside the ±2% noise threshold .*; here 1 of the runs with p < 0\.05 did not pass the other two\. In 1 run core found A or B drifting/);
  const none = aa.aaSentences(aa.aaTally(rows.slice(2)));
  assert.match(none[0], /^Core’s verdict called B faster or slower in 0 of 18 A\/A runs \(.*\): no false alarm this time\.$/);
  assert.match(none[1], /^0 of 18 \(0%\) had Mann-Whitney p < 0\.05.*about 0\.9 of 18 here/);
  assert.match(none[2], /where p alone does not\. Core found no drift across the rounds in any run\.$/);
  assert.deepEqual(aa.aaSentences(aa.aaTally([])), []);
});

test('aa: the text, both charts’ colours and the exercise count the same thing: core’s verdicts of a difference', async () => {
  // A repeat with p below alpha whose verdict is no difference (the ratio inside the threshold)
  // is not counted, nor coloured as a call; one called slower is both.
  const points = aa.aaPoints({ ...VALUES, repeats: 3 }, { quick: false, info: INFO });
  const rows = [
    rowOf('runAB', points[0], measured(points[0], { p: 0.01, verdict: 'slower' }), 'simd'),
    rowOf('runAB', points[1], measured(points[1], { p: 0.02 }), 'simd'),
    rowOf('runAB', points[2], measured(points[2]), 'simd'),
  ];
  const called = (chart) => chart.points.filter((p) => p.call === aa.CALLED).map((p) => p.repeat);
  assert.deepEqual(called(aa.pValueChart(rows)), [1]);
  assert.deepEqual(called(aa.ratioChart(rows)), [1]);
  const tally = aa.aaTally(rows);
  assert.equal(tally.differences, 1, 'what the exercise counts');
  assert.equal(tally.significant, 2);
  const { aaExperiment } = await import('../../web/src/chapters/benchmarking/aa-experiment.js');
  const text = aaExperiment.explanation.join(' ');
  assert.match(text, /Count the repeats whose verdict calls B faster or slower/);
  assert.doesNotMatch(text, /Count the repeats with p below/);
  for (const chart of aaExperiment.charts) {
    assert.equal(chart.options.series, 'call');
    assert.deepEqual(chart.options.seriesDomain, [aa.CALLED, aa.NOT_CALLED]);
  }
  assert.doesNotMatch(aaExperiment.charts[0].title, /below it the test calls a difference/);
});

test('aa: the spec passes the framework’s checks', async () => {
  const { aaExperiment } = await import('../../web/src/chapters/benchmarking/aa-experiment.js');
  assert.deepEqual(specProblems(aaExperiment), []);
  assert.equal(aaExperiment.measure.fn, 'runAB');
  assert.match(aaExperiment.pointLabel(aa.aaPoints(VALUES, { quick: true, info: QUICK_INFO })[2]), /^repeat 3: fused against itself \(seed 13\)$/);
});

test('aa: the quick-mode note quotes core’s quick plan once it arrives', async () => {
  const { aaExperiment } = await import('../../web/src/chapters/benchmarking/aa-experiment.js');
  assert.equal(aaExperiment.quickNote({ quick: true, info: null }), null, 'the generic note until then');
  assert.equal(
    aaExperiment.quickNote({ quick: true, info: QUICK_INFO }),
    'Quick mode (?quick=1): at most 6 repeats of 9 rounds each. Remove it for R repeats of the full length.',
  );
});
