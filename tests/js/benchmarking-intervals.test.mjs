// Protects the pure half of the Benchmarking chapter's intervals experiment: the reference run
// it plans for normal and quick mode, the coverage options it hands core, the sizes control
// (parsed, each size once), how the row prints and its CSV, the long rows both charts draw
// from core's coverage report, the analysis sentences, and the spec's checks. Reports are
// hand-written in core's shape; no DOM, no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { controlDefaults, readControls, specProblems } from '../../web/src/experiments/model.js';
import * as iv from '../../web/src/chapters/benchmarking/intervals-data.js';
import { FULL_SAMPLING, QUICK_SAMPLING } from '../../web/src/chapters/benchmarking/distribution-data.js';
import { intervalsExperiment, renderIntervals } from '../../web/src/chapters/benchmarking/intervals-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

const method = (mean_width, coverage) => ({ mean_width, coverage });
const REPORT = {
  reference_median: 0.05,
  reference_n: 1000,
  trials: 400,
  bootstrap_resamples: 1000,
  seed: 1,
  rows: [
    { n: 5, z: method(0.02, 0.8), t: method(0.03, 0.93), bootstrap: method(0.025, 0.96) },
    { n: 100, z: method(0.004, 0.71), t: method(0.0041, 0.72), bootstrap: method(0.005, 0.95) },
  ],
};

test('intervals: one reference run, 1,000 samples (quick: fewer), and core’s coverage options', () => {
  const values = controlDefaults(intervalsExperiment.controls);
  assert.deepEqual(values, { kernel: iv.DEFAULT_KERNEL, n: iv.DEFAULT_N, sizes: [...iv.DEFAULT_SIZES] });
  const [full] = iv.intervalsPoints({ ...values, kernel: 'gelu:fused' }, { quick: false });
  assert.deepEqual(full, { op: 'gelu', variant: 'fused', n: iv.DEFAULT_N, options: { ...FULL_SAMPLING } });
  assert.equal(full.options.samples, 1000);
  const quick = iv.intervalsPoints(values, { quick: true });
  assert.equal(quick.length, 1);
  assert.deepEqual(quick[0].options, { ...QUICK_SAMPLING });
  assert.ok(QUICK_SAMPLING.samples < FULL_SAMPLING.samples);
  assert.deepEqual(iv.coverageOf(false), { ...iv.FULL_COVERAGE });
  assert.ok(iv.coverageOf(true).trials < iv.FULL_COVERAGE.trials);
  assert.ok(iv.coverageOf(true).bootstrap_resamples < iv.FULL_COVERAGE.bootstrap_resamples);
  assert.ok(Math.max(...iv.DEFAULT_SIZES) <= 100 && Math.min(...iv.DEFAULT_SIZES) === 5, 'n from 5 to 100');
});

test('intervals: the sizes control takes 2..100, each once', () => {
  const read = (raw) => readControls([iv.SIZES_CONTROL], { sizes: raw });
  assert.deepEqual(read('5, 10 20').values.sizes, [5, 10, 20]);
  assert.match(read('5, 5').problems.sizes, /each size once/);
  assert.match(read('1').problems.sizes, /from 2 to 100/);
  assert.match(read('5, 500').problems.sizes, /from 2 to 100/);
});

test('intervals: the reference row prints, the CSV holds its samples', () => {
  const row = rowOf('sampleKernel', { op: 'matmul', variant: 'packed', n: 64, options: {} }, { samples_ms: [0.05, 0.06], inner_iterations: 8, resolution_ms: 0.005, warning: '' }, 'simd');
  const cells = Object.fromEntries(iv.TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, row)]));
  assert.equal(cells.samples, '2');
  assert.equal(toCsv([row], iv.CSV_COLUMNS).split('\r\n')[1], 'simd,matmul,packed,64,8,0.005,,0.05 0.06');
});

test('intervals: both charts draw one line per method from core’s rows', () => {
  const rows = iv.longRows(REPORT);
  assert.equal(rows.length, 6);
  assert.deepEqual(rows[0], { n: 5, method: iv.METHODS[0].label, width_ms: 0.02, coverage: 0.8 });
  assert.deepEqual(rows.filter((r) => r.n === 100).map((r) => r.coverage), [0.71, 0.72, 0.95]);
  assert.deepEqual(iv.longRows(null), []);
});

test('intervals: the sentences quote core’s coverage and say which intervals fell short', () => {
  const kernel = { op: 'matmul', variant: 'packed', n: 64 };
  const text = renderIntervals({ ...REPORT, kernel }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(text, /Reference: 1,000 samples of the packed matmul at N = 64, median 0\.0500 ms\./);
  assert.match(text, /core drew 400 small samples .* seed 1/);
  assert.match(text, /At n = 5 the intervals contained it in z 80\.0%, t 93\.0%, bootstrap 96\.0% of the trials; at n = 100, in z 71\.0%, t 72\.0%, bootstrap 95\.0%\./);
  assert.match(text, /At n = 5, z and t fell short of the promised 95%\./);
  const fine = renderIntervals({ ...REPORT, rows: [REPORT.rows[0]].map((r) => ({ ...r, z: method(0.02, 0.95), t: method(0.03, 0.97) })), kernel }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.doesNotMatch(fine, /fell short/);
});

test('intervals: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(intervalsExperiment), []);
  assert.equal(EXPERIMENTS.intervals, intervalsExperiment);
});

test('intervals: a z or t coverage falling with n is explained as an interval of the mean', () => {
  const kernel = { op: 'matmul', variant: 'packed', n: 64 };
  const text = renderIntervals({ ...REPORT, kernel }, { h }).map((n) => n.textContent).join('\n');
  assert.match(text, /z and t contained the median less often at n = 100 than at n = 5: they are intervals of the mean/);
  const steady = { ...REPORT, rows: REPORT.rows.map((r) => ({ ...r, z: method(0.02, 0.95), t: method(0.03, 0.96) })) };
  assert.doesNotMatch(renderIntervals({ ...steady, kernel }, { h }).map((n) => n.textContent).join('\n'), /intervals of the mean/);
});
