// Protects the pure half of the Benchmarking chapter's distribution experiment: its one point
// for normal and quick mode and for a chosen kernel, how its row prints, the CSV holding every
// raw sample, the chart's data and the summary table from core's answer, the analysis box's
// sentences, and that the spec passes the framework's checks. Rows and summaries are
// hand-written in core's shapes; no DOM, no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { controlDefaults, specProblems } from '../../web/src/experiments/model.js';
import * as dist from '../../web/src/chapters/benchmarking/distribution-data.js';
import { distributionExperiment, renderDistribution } from '../../web/src/chapters/benchmarking/distribution-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { parseKernel } from '../../web/src/chapters/benchmarking/samples-common.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

const interval = (low, high) => ({ low, high });
export const SUMMARY = {
  n: 6,
  mean: 0.06,
  std: 0.02,
  median: 0.05,
  min: 0.04,
  max: 0.11,
  p5: 0.041,
  p25: 0.045,
  p75: 0.055,
  p95: 0.1,
  p99: 0.108,
  mad: 0.004,
  cv: 0.33,
  z_interval: interval(0.044, 0.076),
  t_interval: interval(0.039, 0.081),
  bootstrap_median_interval: interval(0.045, 0.06),
  bootstrap_resamples: 10000,
  bootstrap_seed: 1,
  lower_fence: 0.03,
  upper_fence: 0.07,
  outliers: [{ index: 5, value: 0.11 }],
  warning: '',
};
const ROW = rowOf(
  'sampleKernel',
  { op: 'matmul', variant: 'packed', n: 64, options: { samples: 6 } },
  { samples_ms: [0.05, 0.04, 0.045, 0.055, 0.05, 0.11], inner_iterations: 8, resolution_ms: 0.005, warning: '' },
  'simd',
);

// Core's plans as experimentPlan('benchmarking-distribution') gives them, in init's facts (the
// full one, and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = { options: { warmup: 20, samples: 1000, min_sample_ms: 0, max_total_ms: 30000 } };
const QUICK = { options: { warmup: 4, samples: 300, min_sample_ms: 0, max_total_ms: 2400 } };
const INFO = { plan: FULL, fullPlan: FULL };
const QUICK_INFO = { plan: QUICK, fullPlan: FULL };

test('distribution: core’s 1,000 samples of the chosen kernel (fewer in quick mode), taken in calls of 100 samples', () => {
  const values = controlDefaults(distributionExperiment.controls);
  assert.deepEqual(values, { kernel: dist.DEFAULT_KERNEL, n: dist.DEFAULT_N });
  const full = dist.distributionPoints({ ...values, kernel: 'gelu:fused-simd' }, { quick: false, info: INFO });
  assert.equal(full.length, 10);
  for (const p of full) {
    assert.deepEqual(p, { op: 'gelu', variant: 'fused-simd', n: dist.DEFAULT_N, options: { ...FULL.options, samples: 100, max_total_ms: 3000 } });
  }
  assert.equal(full.reduce((sum, p) => sum + p.options.samples, 0), 1000);
  const quick = dist.distributionPoints({}, { quick: true, info: QUICK_INFO });
  assert.deepEqual(quick, [0, 1, 2].map(() => ({ ...parseKernel(dist.DEFAULT_KERNEL), n: dist.DEFAULT_N, options: { ...QUICK.options, samples: 100, max_total_ms: 800 } })));
  assert.ok(quick.length < full.length);
  assert.notEqual(quick[0].options, quick[1].options, 'each point owns its options');
  // An uneven run: the last call takes the rest.
  const uneven = dist.samplingCalls('gelu', 'fused', 8, { warmup: 1, samples: 250, min_sample_ms: 0, max_total_ms: 900 });
  assert.deepEqual(uneven.map((p) => [p.options.samples, p.options.max_total_ms]), [[100, 300], [100, 300], [50, 300]]);
  assert.throws(() => dist.distributionPoints({ kernel: 'matmul' }, { quick: false, info: INFO }), /op:variant/);
  assert.throws(() => dist.distributionPoints({}, { quick: false, info: null }), /gave no plan of the samples/);
});

test('distribution: its heading and texts quote core’s plan, "…" until it arrives', () => {
  const e = distributionExperiment;
  assert.equal(e.title({ quick: false, info: null }), 'Experiment: the distribution of … samples');
  assert.equal(e.title({ quick: true, info: QUICK_INFO }), 'Experiment: the distribution of 1,000 samples');
  assert.match(e.explanation({ quick: false, info: INFO }).join(' '), /20 untimed warmup calls, then 1,000 samples, every one kept/);
  assert.equal(e.quickNote({ quick: true, info: null }), null);
  assert.equal(e.quickNote({ quick: true, info: QUICK_INFO }), 'Quick mode (?quick=1): 300 samples instead of 1000. Remove it for the full run.');
});

test('distribution: the row prints its kernel and batching, the CSV holds every sample in order', () => {
  const cells = Object.fromEntries(dist.TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, ROW)]));
  assert.deepEqual(cells, {
    op: 'matmul',
    variant: 'packed',
    n: '64',
    samples: '6',
    'calls per sample': '8',
    'clock resolution (ms)': '0.00500',
    warning: '',
  });
  const csv = toCsv([ROW], dist.CSV_COLUMNS).split('\r\n');
  assert.equal(csv[0], 'build,op,variant,n,inner_iterations,resolution_ms,warning,samples_ms');
  assert.equal(csv[1], 'simd,matmul,packed,64,8,0.005,,0.05 0.04 0.045 0.055 0.05 0.11');
});

test('distribution: the chart draws the raw samples with core’s summary, nothing before the analysis', () => {
  assert.deepEqual(dist.chartData([ROW], { summary: SUMMARY }), { values: ROW.samples_ms, summary: SUMMARY });
  assert.deepEqual(dist.chartData([ROW], null), { values: ROW.samples_ms, summary: null });
  assert.deepEqual(dist.chartData([], null), { values: [], summary: null });
  // The zoom keeps the samples up to core's upper fence (0.07 here, below p99 = 0.108): the
  // 0.11 sample is left out, and the note says where the zoom cut.
  const zoom = dist.zoomData([ROW], { summary: SUMMARY });
  assert.deepEqual(zoom.values, [0.05, 0.04, 0.045, 0.055, 0.05]);
  assert.equal(zoom.summary, SUMMARY);
  assert.match(zoom.note, /^Up to 0\.0700 ms, Tukey’s upper fence, .*: the slowest 1 sample left out\.$/);
  assert.deepEqual(dist.zoomData([ROW], null), { values: [], summary: null });
});

test('distribution: with many slow outliers the zoom cuts at the fence, not at p99 among them', () => {
  // 18% of 100 samples slow: p99 lies in the tail, and a zoom to p99 kept 17 of the 18, so the
  // "zoomed" histogram spanned nearly the whole range again.
  const body = Array.from({ length: 82 }, (_, i) => 0.1 + 0.0005 * (i % 10));
  const tail = Array.from({ length: 18 }, (_, i) => 1 + 0.1 * i);
  const summary = { p25: 0.101, p75: 0.1035, p99: 2.683, upper_fence: 0.10725, lower_fence: 0.09725 };
  const zoom = dist.zoomData([{ samples_ms: [...body, ...tail] }], { summary });
  assert.equal(zoom.values.length, 82);
  assert.ok(Math.max(...zoom.values) <= summary.upper_fence);
  assert.match(zoom.note, /^Up to 0\.107 ms, Tukey’s upper fence, which lies below the 99th percentile \(2\.68 ms\)/);
  assert.match(zoom.note, /the slowest 18 samples left out\.$/);
  // The mean, pulled into the tail, is off the zoomed chart: the note says where it went.
  const withMean = dist.zoomData([{ samples_ms: [...body, ...tail] }], { summary: { ...summary, mean: 0.41 } });
  assert.match(withMean.note, /left out\. The mean \(0\.410 ms\) lies beyond the cut, pulled there by them\.$/);
  // Few outliers: p99 is the lower cut, as the title says.
  const calm = dist.zoomData([{ samples_ms: body }], { summary: { ...summary, p99: 0.1044 } });
  assert.equal(calm.values.length, 74);
  assert.match(calm.note, /^Up to 0\.104 ms, the 99th percentile: the slowest 8 samples left out\.$/);
});

test('distribution: the summary table names every statistic core gives, with core’s numbers', () => {
  const rows = dist.summaryRows(SUMMARY);
  const by = Object.fromEntries(rows.map((r) => [r.statistic.split(' (')[0], r]));
  assert.equal(by['samples n'].count, 6);
  assert.equal(by.median.value, 0.05);
  assert.equal(by.MAD.value, 0.004);
  for (const p of ['p5', 'p95', 'p99']) assert.equal(by[p].value, SUMMARY[p]);
  assert.equal(by['outliers beyond the fences'].count, 1);
  assert.deepEqual(by['95% t interval of the mean'], { statistic: '95% t interval of the mean', low: 0.039, high: 0.081 });
  assert.match(rows.at(-1).statistic, /10000 resamples, seed 1/);
});

test('distribution: the analysis sentences quote core’s numbers and agree with them', () => {
  const kernel = { op: 'matmul', variant: 'packed', n: 64, inner_iterations: 8, resolution_ms: 0.005, warning: '' };
  const text = renderDistribution({ summary: SUMMARY, kernel }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(text, /6 samples of the packed matmul at N = 64\. Each sample is the time per call of a batch of 8 calls/);
  assert.match(text, /Median 0\.0500 ms, mean 0\.0600 ms: the mean lies above the median, pulled toward the slow tail\./);
  assert.match(text, /1 of 6 samples lie beyond Tukey's fences \(0\.0300 ms and 0\.0700 ms\)/);
  const below = renderDistribution({ summary: { ...SUMMARY, mean: 0.04 }, kernel }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(below, /the mean lies below the median\./);
  const warned = renderDistribution({ summary: { ...SUMMARY, warning: 'few samples' }, kernel: { ...kernel, warning: 'budget' } }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(warned, /The timer’s own check, made on the samples inside its fences as its usual summary does: budget/);
  assert.match(warned, /Summary: few samples/);
});

test('distribution: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(distributionExperiment), []);
  assert.equal(EXPERIMENTS.distribution, distributionExperiment);
  assert.equal(distributionExperiment.id, 'benchmarking-distribution');
});

test('distribution: the calls are joined into the run’s one row, every sample in order, batching differences said', async () => {
  assert.equal(distributionExperiment.assemble, dist.joinCalls);
  const part = (samples_ms, inner_iterations, warning = '') =>
    rowOf('sampleKernel', { op: 'matmul', variant: 'packed', n: 64, options: { samples: samples_ms.length } }, { samples_ms, inner_iterations, resolution_ms: 0.005, clock_tick_ms: 0, warning }, 'simd');
  const [one] = await dist.joinCalls([part([1, 2], 8), part([3], 8), part([4, 5], 8)]);
  assert.deepEqual(one, { ...part([1, 2, 3, 4, 5], 8) });
  const [mixed] = await dist.joinCalls([part([1], 8), part([2], 9, 'slow')]);
  assert.equal(mixed.inner_iterations, 8);
  assert.equal(mixed.warning, 'slow; the 2 sampling calls batched 8 to 9 calls per sample');
  const single = [part([1, 2], 8)];
  assert.equal(await dist.joinCalls(single), single);
});
