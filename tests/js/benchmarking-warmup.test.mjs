// Protects the pure half of the Benchmarking chapter's warmup experiment: the one point (no
// warmup, one call per sample) for normal and quick mode, the first and last stretches core
// summarizes, the chart's rows, the row's table and CSV, the analysis sentences, and the
// spec's checks. Rows and summaries are hand-written in core's shapes; no DOM, no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { controlDefaults, specProblems } from '../../web/src/experiments/model.js';
import * as wu from '../../web/src/chapters/benchmarking/warmup-data.js';
import { renderWarmup, warmupExperiment } from '../../web/src/chapters/benchmarking/warmup-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

// Core's plans as experimentPlan('benchmarking-warmup') gives them, in init's facts (the
// full one, and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = { calls: 300, first: 10, last: 100, max_total_ms: 5000 };
const QUICK = { calls: 70, first: 10, last: 40, max_total_ms: 1500 };
const INFO = { resolution_ms: 0.005, plan: FULL, fullPlan: FULL };
const QUICK_INFO = { resolution_ms: 0.005, plan: QUICK, fullPlan: FULL };

test('warmup: one point timing each of the first calls by itself, as many as core’s plan says', () => {
  const values = controlDefaults(warmupExperiment.controls);
  assert.deepEqual(values, { kernel: wu.DEFAULT_KERNEL, n: wu.DEFAULT_N });
  const [full] = wu.warmupPoints({ ...values, kernel: 'gelu:unfused', n: 65536 }, { quick: false, info: INFO });
  assert.deepEqual(full, {
    op: 'gelu',
    variant: 'unfused',
    n: 65536,
    options: { warmup: 0, samples: FULL.calls, inner_iterations: 1, min_sample_ms: 0, max_total_ms: FULL.max_total_ms },
  });
  const [quick] = wu.warmupPoints(values, { quick: true, info: QUICK_INFO });
  assert.equal(quick.options.samples, QUICK.calls);
  assert.equal(quick.options.max_total_ms, QUICK.max_total_ms);
  assert.equal(quick.options.warmup, 0);
  assert.equal(quick.options.inner_iterations, 1);
  assert.throws(() => wu.warmupPoints(values, { quick: false, info: null }), /gave no plan of the first calls/);
  assert.throws(() => wu.warmupPoints(values, { quick: false, info: { plan: { calls: 300 } } }), /\(no first, last, max_total_ms\)/);
});

test('warmup: its texts and chart quote core’s plan, "…" until it arrives', () => {
  const text = (info) => [warmupExperiment.explanation({ quick: false, info })].flat().join(' ');
  assert.match(text(null), /each of the first … calls/);
  assert.match(text(INFO), /each of the first 300 calls/);
  assert.equal(warmupExperiment.quickNote({ quick: true, info: null }), null, 'the generic note until the plan arrives');
  assert.equal(warmupExperiment.quickNote({ quick: true, info: QUICK_INFO }), 'Quick mode (?quick=1): the first 70 calls instead of 300.');
  assert.deepEqual(warmupExperiment.charts[0].options({ quick: true, info: QUICK_INFO }).xDomain, [1, 70]);
});

test('warmup: the first and the last calls as stretches, never overlapping', () => {
  const samples = Array.from({ length: 30 }, (_, i) => i + 1);
  const parts = wu.stretches(samples, { first: 10, last: 15 });
  assert.deepEqual(parts.map(({ key, label, from, to }) => ({ key, label, from, to })), [
    { key: 'first', label: 'first 10 calls', from: 1, to: 10 },
    { key: 'last', label: 'last 15 calls', from: 16, to: 30 },
  ]);
  assert.deepEqual(parts[1].values, samples.slice(15));
  // A run cut short by its budget: the last stretch shrinks, then vanishes.
  assert.deepEqual(wu.stretches(samples.slice(0, 18), { first: 10, last: 15 }).map((p) => p.label), ['first 10 calls', 'last 8 calls']);
  assert.deepEqual(wu.stretches(samples.slice(0, 6), { first: 10, last: 15 }).map((p) => p.label), ['first 6 calls']);
});

const ROW = rowOf('sampleKernel', { op: 'matmul', variant: 'blocked', n: 128, options: {} }, { samples_ms: [3, 0, 1.1, 1], inner_iterations: 1, resolution_ms: 0.005, clock_tick_ms: 0, warning: '' }, 'simd');

test('warmup: the chart puts each call at its number, zero readings left off the log axis', () => {
  assert.deepEqual(wu.callRows([ROW]), [
    { call: 1, time_ms: 3, series: 'each call timed alone' },
    { call: 3, time_ms: 1.1, series: 'each call timed alone' },
    { call: 4, time_ms: 1, series: 'each call timed alone' },
  ]);
  assert.deepEqual(wu.callRows([]), []);
  const cells = Object.fromEntries(wu.TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, ROW)]));
  assert.equal(cells['calls per sample'], '1');
  assert.equal(toCsv([ROW], wu.CSV_COLUMNS).split('\r\n')[1], 'simd,matmul,blocked,128,1,0.005,,3 0 1.1 1');
});

const summary = (median, extra = {}) => ({ n: 10, median, mean: median, min: median, max: median, mad: 0, ...extra });

test('warmup: the sentences quote core’s summaries of both stretches', () => {
  const a = {
    calls: 300,
    first_call_ms: 3,
    resolution_ms: 0.005,
    parts: [
      { key: 'first', label: 'first 10 calls', from: 1, to: 10, summary: summary(1.5) },
      { key: 'last', label: 'last 100 calls', from: 201, to: 300, summary: summary(1) },
    ],
    kernel: { op: 'matmul', variant: 'blocked', n: 128, warning: '' },
  };
  const text = renderWarmup(a, { h }).map((n) => n.textContent).join('\n');
  assert.match(text, /300 calls of the blocked matmul at N = 128, each timed on its own from the first\. The first call took 3\.00 ms\./);
  assert.match(text, /Median of the first 10 calls: 1\.50 ms; of the last 100 calls: 1\.00 ms, so by their medians the first calls are above the steady level\./);
  assert.doesNotMatch(text, /choose a larger n/);
  const short = renderWarmup({ ...a, resolution_ms: 0.1 }, { h }).map((n) => n.textContent).join('\n');
  assert.match(short, /under 20 ticks of this page’s clock \(0\.100 ms\)/);
});

test('warmup: medians that print alike are equal, and the first calls a median hides are named', () => {
  // The run the chapter once described as "0.325 ms; of the last 50 calls: 0.325 ms, so the
  // first calls are below the steady level": a warmup of two calls, mean 2.10 ms against 0.453 ms.
  const a = {
    calls: 100,
    first_call_ms: 9.89,
    first_calls_ms: [9.89, 8.1, 0.33, 0.324, 0.326, 0.3249, 0.325, 0.323, 0.327, 0.331],
    resolution_ms: 0.005,
    parts: [
      { key: 'first', label: 'first 10 calls', from: 1, to: 10, summary: summary(0.32492, { mean: 2.1, max: 9.89 }) },
      { key: 'last', label: 'last 50 calls', from: 51, to: 100, summary: summary(0.32501, { mean: 0.453, max: 0.61 }) },
    ],
    kernel: { op: 'matmul', variant: 'blocked', n: 128, warning: '' },
  };
  const text = renderWarmup(a, { h }).map((n) => n.textContent).join('\n');
  assert.match(text, /Median of the first 10 calls: 0\.325 ms; of the last 50 calls: 0\.325 ms: equal at the precision shown/);
  assert.doesNotMatch(text, /first calls are (below|above)/);
  assert.match(
    text,
    /Calls 1 and 2 took 9\.89 and 8\.10 ms, slower than every one of the last 50 calls \(at most 0\.610 ms\): a warmup the median of the first 10 calls hides\. The mean of the first 10 calls is 2\.10 ms against 0\.453 ms for the last 50 calls; their slowest took 9\.89 ms\./,
  );
  // No call above the steady stretch's slowest: said so, with the means beside it.
  const calm = renderWarmup({ ...a, first_calls_ms: [0.5, 0.33, 0.61] }, { h }).map((n) => n.textContent).join('\n');
  assert.match(calm, /None of the first 10 calls was slower than the slowest of the last 50 calls \(0\.610 ms\): no warmup stands out in this run\./);
  // Medians that differ as printed still say above or below.
  const above = renderWarmup({ ...a, parts: [{ ...a.parts[0], summary: summary(0.4, { mean: 2.1, max: 9.89 }) }, a.parts[1]] }, { h });
  assert.match(above.map((n) => n.textContent).join('\n'), /0\.400 ms; of the last 50 calls: 0\.325 ms, so by their medians the first calls are above the steady level\./);
});

test('warmup: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(warmupExperiment), []);
  assert.equal(EXPERIMENTS.warmup, warmupExperiment);
});
