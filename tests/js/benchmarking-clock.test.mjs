// Protects the pure half of the Benchmarking chapter's clock experiment: every batch size on
// both clocks for normal and quick mode (fixed inner_iterations, clock_tick_ms on the coarsened
// one), the reference row, the chart's error rows from core's answer, the table and CSV, the
// analysis sentences, and the spec's checks. Rows are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { controlDefaults, readControls, specProblems } from '../../web/src/experiments/model.js';
import * as ck from '../../web/src/chapters/benchmarking/clock-data.js';
import { clockExperiment, renderClock } from '../../web/src/chapters/benchmarking/clock-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

// Core's plans as experimentPlan('benchmarking-clock') gives them, in init's facts (the full
// one, and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = { batches: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024], options: { warmup: 200, samples: 50, min_sample_ms: 0, max_total_ms: 3000 } };
const QUICK = { batches: [1, 8, 64], options: { warmup: 100, samples: 12, min_sample_ms: 0, max_total_ms: 250 } };
const INFO = { resolution_ms: 0.005, plan: FULL, fullPlan: FULL };
const QUICK_INFO = { resolution_ms: 0.005, plan: QUICK, fullPlan: FULL };

test('clock: every batch 1 … 1024 on both clocks, the clocks alternating; quick fewer', () => {
  const values = controlDefaults(clockExperiment.controls);
  assert.deepEqual(values, { kernel: ck.DEFAULT_KERNEL, n: ck.DEFAULT_N, tick: ck.DEFAULT_TICK_MS });
  const full = ck.clockPoints({ ...values, tick: 1 }, { quick: false, info: INFO });
  const ks = (clock) => full.filter((p) => p.clock === clock).map((p) => p.options.inner_iterations);
  assert.deepEqual(ks(ck.PAGE), [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024]);
  assert.deepEqual(ks(ck.COARSE), ks(ck.PAGE));
  assert.ok(full.filter((p) => p.clock === ck.PAGE).every((p) => !('clock_tick_ms' in p.options)));
  assert.ok(full.filter((p) => p.clock === ck.COARSE).every((p) => p.options.clock_tick_ms === 1));
  assert.deepEqual(full.slice(0, 4).map((p) => [p.clock, p.options.inner_iterations]), [['page', 1], ['coarsened', 1], ['page', 2], ['coarsened', 2]]);
  assert.deepEqual(full[0], {
    clock: 'page',
    op: 'gelu',
    variant: 'fused-simd',
    n: ck.DEFAULT_N,
    options: { warmup: 200, samples: FULL.options.samples, min_sample_ms: 0, max_total_ms: FULL.options.max_total_ms, inner_iterations: 1 },
  });
  const quick = ck.clockPoints(values, { quick: true, info: QUICK_INFO });
  assert.deepEqual(quick.filter((p) => p.clock === ck.PAGE).map((p) => p.options.inner_iterations), QUICK.batches);
  assert.ok(quick.every((p) => p.options.samples === QUICK.options.samples && p.options.warmup === QUICK.options.warmup));
  assert.throws(() => ck.clockPoints(values, { quick: false, info: null }), /gave no plan of batch sizes/);
  assert.match(readControls([ck.TICK_CONTROL], { tick: '0' }).problems.tick, /from 0\.001 to 100/);
});

const row = (clock, k, samples_ms, tick = 0) =>
  rowOf('sampleKernel', { clock, op: 'gelu', variant: 'fused-simd', n: 4096, options: {} }, { samples_ms, inner_iterations: k, resolution_ms: 0.005, clock_tick_ms: tick, warning: '' }, 'simd');

test('clock: the reference is the largest batch on this page’s clock', () => {
  const rows = [row('page', 1, [0.005]), row('page', 64, [0.004]), row('coarsened', 1024, [0], 0.1), row('page', 8, [0.004])];
  assert.equal(ck.referenceRow(rows), rows[1]);
  assert.equal(ck.referenceRow([rows[2]]), null);
});

test('clock: rows print their clock and batch; the CSV keeps the clock and every sample', () => {
  const r = row('coarsened', 4, [0, 0.025], 0.1);
  const cells = Object.fromEntries(ck.TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, r)]));
  assert.equal(cells.clock, 'coarsened');
  assert.equal(cells['tick (ms)'], '0.1');
  assert.equal(cells['calls per sample'], '4');
  assert.equal(cellText(ck.TABLE_COLUMNS[1], row('page', 1, [1])), '—');
  assert.equal(toCsv([r], ck.CSV_COLUMNS).split('\r\n')[1], 'simd,coarsened,0.1,gelu,fused-simd,4096,4,0.005,,0 0.025');
  assert.equal(ck.clockLabel(r), 'clock coarsened to 0.1 ms');
});

const ANALYSIS = {
  resolution_ms: 0.005,
  kernel: { op: 'gelu', variant: 'fused-simd', n: 4096 },
  rows: [
    { label: 'this page’s clock', clock: 'page', inner_iterations: 1, median: 0.005, p25: 0.005, p75: 0.01, change: 0.25, reference: false },
    { label: 'this page’s clock', clock: 'page', inner_iterations: 1024, median: 0.004, p25: 0.004, p75: 0.0041, change: 0, reference: true },
    { label: 'clock coarsened to 0.1 ms', clock: 'coarsened', inner_iterations: 1, median: 0, p25: 0, p75: 0, change: -1, reference: false },
    { label: 'clock coarsened to 0.1 ms', clock: 'coarsened', inner_iterations: 1024, median: 0.0041, p25: 0.004, p75: 0.0042, change: 0.025, reference: false },
  ],
};

test('clock: the chart draws |error| by batch and clock, the reference at 0 with the note that says where', () => {
  // The reference (error 0) was left out, so the line of this page's clock stopped one batch
  // short without a word; the line chart marks 0 on a log axis's bottom edge with the note.
  assert.deepEqual(ck.errorRows(ANALYSIS), [
    { k: 1, error: 0.25, clock: 'this page’s clock' },
    { k: 1024, error: 0, clock: 'this page’s clock' },
    { k: 1, error: 1, clock: 'clock coarsened to 0.1 ms' },
    { k: 1024, error: 0.025, clock: 'clock coarsened to 0.1 ms' },
  ]);
  assert.deepEqual(ck.errorRows(null), []);
  const chart = clockExperiment.charts[0];
  const options = chart.options({ quick: false, values: { tick: 0.1 }, info: INFO });
  assert.deepEqual(options.xTicks, FULL.batches);
  assert.deepEqual(chart.options({ quick: true, values: { tick: 0.1 }, info: QUICK_INFO }).xTicks, QUICK.batches);
  assert.equal(options.yType, 'log');
  assert.equal(options.zeroNote, ck.ZERO_NOTE);
  assert.match(options.zeroNote, /bottom edge: error 0, the reference/);
});

test('clock: the sentences quote core’s medians and errors for one call and the largest batch', () => {
  const text = renderClock(ANALYSIS, { h }).map((n) => n.textContent).join('\n');
  assert.match(text, /Reference: the median of 1,024-call batches on this page’s clock \(resolution 0\.00500 ms\): 0\.00400 ms per call of the fused-simd GELU over 4096 elements\./);
  assert.match(text, /One call per sample \(k = 1\): this page’s clock: 0\.00500 ms \(error 25\.0%\); clock coarsened to 0\.1 ms: 0 ms \(error -100\.0%\)\./);
  assert.match(text, /1,024 calls per sample: this page’s clock: 0\.00400 ms \(the reference\); clock coarsened to 0\.1 ms: 0\.00410 ms \(error 2\.5%\)\./);
});

test('clock: its texts quote core’s plan, "…" until it arrives', () => {
  const text = (info) => clockExperiment.explanation({ quick: false, info }).join(' ');
  assert.match(text(null), /k = 1, 2, 4 … … \(no calibration\), … samples each/);
  assert.match(text(INFO), /k = 1, 2, 4 … 1,024 \(no calibration\), 50 samples each/);
  assert.equal(clockExperiment.quickNote({ quick: true, info: null }), null);
  assert.equal(clockExperiment.quickNote({ quick: true, info: QUICK_INFO }), 'Quick mode (?quick=1): k = 1, 8, 64 and 12 samples each.');
});

test('clock: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(clockExperiment), []);
  assert.equal(EXPERIMENTS.clock, clockExperiment);
});
