// Protects the pure half of the Benchmarking chapter's complexity experiment: the sizes of each
// kernel for normal and quick mode (rows carry op, variant, n and samples_ms, which the
// exercises grade), how a row prints and its CSV, the grouping per kernel for core's fit, the
// chart's points and best-fit curves from core's answer, the analysis sentences, and the
// spec's checks. Rows and fits are hand-written in core's shapes; no DOM, no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { specProblems } from '../../web/src/experiments/model.js';
import * as cx from '../../web/src/chapters/benchmarking/complexity-data.js';
import { complexityExperiment, fitSentence, renderComplexity } from '../../web/src/chapters/benchmarking/complexity-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

const row = (op, variant, n, samples_ms) =>
  rowOf('sampleKernel', { op, variant, n, options: {} }, { samples_ms, inner_iterations: 2, resolution_ms: 0.005, warning: '' }, 'simd');

// Core's plans as experimentPlan('benchmarking-complexity') gives them, in init's facts (the
// full one, and a quick one with other numbers than core's, so the page shows it reads them).
// Their sizes' spans and counts are core's doctests' to check.
const FULL = {
  kernels: [
    { op: 'matmul', variant: 'naive', sizes: [16, 24, 32, 48, 64, 96, 128, 192, 256] },
    { op: 'matmul', variant: 'packed', sizes: [16, 32, 64, 128, 256] },
    { op: 'gelu', variant: 'fused-simd', sizes: [1024, 4096, 16384, 65536, 262144, 1048576] },
  ],
  options: { warmup: 2, samples: 15, min_sample_ms: 0, max_total_ms: 2000 },
};
const QUICK = {
  kernels: [
    { op: 'matmul', variant: 'naive', sizes: [8, 40, 200] },
    { op: 'gelu', variant: 'fused-simd', sizes: [2048, 65536, 524288] },
  ],
  options: { warmup: 1, samples: 4, min_sample_ms: 0, max_total_ms: 150 },
};
const INFO = { plan: FULL, fullPlan: FULL };
const QUICK_INFO = { plan: QUICK, fullPlan: FULL };

test('complexity: every kernel of core’s plan at each of its sizes, smallest first, quick mode’s in quick mode', () => {
  for (const info of [INFO, QUICK_INFO]) {
    const points = cx.complexityPoints({}, { quick: info === QUICK_INFO, info });
    const { kernels, options } = info.plan;
    assert.equal(points.length, kernels.reduce((s, k) => s + k.sizes.length, 0));
    for (const k of kernels) {
      const sizes = points.filter((p) => p.op === k.op && p.variant === k.variant).map((p) => p.n);
      assert.deepEqual(sizes, k.sizes);
    }
    assert.deepEqual(Object.keys(points[0]).sort(), ['n', 'op', 'options', 'variant']);
    assert.deepEqual(points[0].options, { ...options });
    assert.notEqual(points[0].options, points[1].options, 'each point owns its options');
  }
  const full = cx.complexityPoints({}, { quick: false, info: INFO });
  assert.deepEqual(full.filter((p) => p.variant === 'naive').map((p) => p.n), [16, 24, 32, 48, 64, 96, 128, 192, 256]);
  assert.deepEqual(full.filter((p) => p.op === 'gelu').map((p) => p.n).filter((n, i, a) => i === 0 || i === a.length - 1), [1024, 1048576]);
  assert.throws(() => cx.complexityPoints({}, { quick: false, info: null }), /gave no plan of the kernels and their sizes/);
});

test('complexity: its texts quote core’s plan, "…" until it arrives', () => {
  const text = (info) => complexityExperiment.explanation({ quick: false, info }).join(' ');
  assert.match(text(null), /over a range of sizes \(…; n is N for a matmul, elements for GELU\), … samples per size/);
  assert.match(
    text(QUICK_INFO),
    /\(naive matmul n = 16…256, packed matmul n = 16…256, fused-simd GELU n = 1024…1048576; n is N for a matmul, elements for GELU\), 15 samples per size/,
  );
  assert.equal(complexityExperiment.quickNote({ quick: true, info: null }), null);
  assert.equal(
    complexityExperiment.quickNote({ quick: true, info: QUICK_INFO }),
    'Quick mode (?quick=1): naive matmul n = 8…200, fused-simd GELU n = 2048…524288, 4 samples per size. Three sizes make a wide slope interval; remove it for the full sweep.',
  );
});

test('complexity: a row carries op, variant, n and samples_ms; table and CSV print them', () => {
  const r = row('matmul', 'naive', 32, [0.1, 0.12]);
  for (const key of ['op', 'variant', 'n', 'samples_ms']) assert.ok(key in r, key);
  const cells = Object.fromEntries(cx.TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, r)]));
  assert.equal(cells.samples, '2');
  assert.equal(cells['calls per sample'], '2');
  const csv = toCsv([r], cx.CSV_COLUMNS).split('\r\n');
  assert.equal(csv[0], 'build,op,variant,n,inner_iterations,resolution_ms,warning,samples_ms');
  assert.equal(csv[1], 'simd,matmul,naive,32,2,0.005,,0.1 0.12');
});

test('complexity: rows grouped per kernel in order of appearance, sizes in row order', () => {
  const rows = [row('matmul', 'naive', 16, [1]), row('gelu', 'fused-simd', 1024, [1]), row('matmul', 'naive', 32, [2])];
  const groups = cx.kernelGroups(rows);
  assert.deepEqual(groups.map((g) => g.name), ['naive matmul', 'fused-simd GELU']);
  assert.deepEqual(groups[0].rows.map((r) => r.n), [16, 32]);
});

const FITS = [
  { complexity: 'O(n^3)', coefficient: 2e-6, normalized_rms: 0.03 },
  { complexity: 'O(n^2)', coefficient: 1e-4, normalized_rms: 0.4 },
  { complexity: 'O(1)', coefficient: 1, normalized_rms: 1.2 },
];
const KERNEL = {
  op: 'matmul',
  variant: 'naive',
  name: 'naive matmul',
  sizes: [16, 32, 64],
  medians: [0.008, 0.066, 0.52],
  fits: FITS,
  power_law: { exponent: 2.98, coefficient: 2e-6, exponent_interval: { low: 2.5, high: 3.46 }, r_squared: 0.9991 },
  named_class: 'O(n^3)',
  conclusion: 'O(n^3): core’s conclusion.',
  warning: '',
};
// GELU as the lab once printed it, "O(n log n)" beside a slope of 0.93 (0.80 to 1.05): core
// names no class, and neither may the page.
const GELU = {
  op: 'gelu',
  variant: 'fused-simd',
  name: 'fused-simd GELU',
  sizes: [1024, 4096, 1048576],
  medians: [0.002, 0.007, 1.3],
  fits: [
    { complexity: 'O(n log n)', coefficient: 6e-8, normalized_rms: 0.05 },
    { complexity: 'O(n)', coefficient: 1.2e-6, normalized_rms: 0.08 },
  ],
  power_law: { exponent: 0.93, coefficient: 3e-6, exponent_interval: { low: 0.8, high: 1.05 }, r_squared: 0.998 },
  named_class: '',
  conclusion: 'No class named: the best fit by RMS is O(n log n) (normalized RMS 5.0%), but the log-log slope b = 0.93 (95% interval 0.80 to 1.05) excludes its 1.10 over these sizes and holds O(n) (1.00).',
  warning: '',
};

test('complexity: the chart draws core’s medians and each kernel’s best class as c·g(n)', () => {
  const { points, curves } = cx.fitChartData({ kernels: [KERNEL] });
  assert.deepEqual(points, [
    { n: 16, value: 0.008, series: 'naive matmul' },
    { n: 32, value: 0.066, series: 'naive matmul' },
    { n: 64, value: 0.52, series: 'naive matmul' },
  ]);
  assert.ok(curves.every((c) => c.fit === 'O(n^3)' && c.series === 'naive matmul'));
  assert.deepEqual(curves.map((c) => c.n).filter((n) => [16, 32, 64].includes(n)), [16, 32, 64]);
  const at64 = curves.find((c) => c.n === 64);
  assert.equal(at64.value, 2e-6 * 64 ** 3);
  assert.equal(curves.length, 9, 'three steps between each pair of sizes');
  // A class this page cannot draw is left out rather than drawn wrong.
  assert.deepEqual(cx.fitChartData({ kernels: [{ ...KERNEL, fits: [{ ...FITS[0], complexity: 'O(2^n)' }] }] }).curves, []);
  assert.deepEqual(cx.fitChartData(null), { points: [], curves: [] });
});

test('complexity: the sentence and tables quote core’s fit', () => {
  assert.equal(fitSentence(KERNEL), 'naive matmul — O(n^3): core’s conclusion. R² = 0.999, over n = 16 … 64.');
  const text = renderComplexity({ kernels: [{ ...KERNEL, warning: 'only three sizes' }] }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(text, /naive matmul: only three sizes/);
  assert.match(text, /Ranked fits: naive matmul/);
  assert.match(text, /O\(n\^2\)/);
});

test('complexity: a class core did not name is named neither in the sentence nor in the legend', () => {
  const sentence = fitSentence(GELU);
  assert.match(sentence, /^fused-simd GELU — No class named: .* excludes its 1\.10 over these sizes and holds O\(n\) \(1\.00\)\. R² = 0\.998, over n = 1,024 … 1,048,576\.$/);
  assert.doesNotMatch(sentence, /best fit O\(n log n\)/);
  const { curves } = cx.fitChartData({ kernels: [KERNEL, GELU] });
  assert.deepEqual([...new Set(curves.map((c) => c.fit))], ['O(n^3)', 'O(n log n) (RMS only)']);
});

test('complexity: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(complexityExperiment), []);
  assert.equal(EXPERIMENTS.complexity, complexityExperiment);
});

test('complexity: the ranked fits print every coefficient in one notation', () => {
  // The column read "5.57e-7" beside "0.0000886": toPrecision switches notation at 1e-6.
  const fits = [
    { complexity: 'O(n^3)', coefficient: 5.57e-7, normalized_rms: 0.03 },
    { complexity: 'O(n^2)', coefficient: 0.0000886, normalized_rms: 0.4 },
    { complexity: 'O(n)', coefficient: 0.0123, normalized_rms: 0.9 },
  ];
  const text = renderComplexity({ kernels: [{ ...KERNEL, fits }] }, { h })
    .map((n) => n.textContent)
    .join('\n');
  for (const c of ['5.57 × 10⁻⁷', '8.86 × 10⁻⁵', '1.23 × 10⁻²']) assert.ok(text.includes(c), `${c} in ${text}`);
  assert.doesNotMatch(text, /\de-\d/);
});
