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
import { intervalsExperiment, renderIntervals } from '../../web/src/chapters/benchmarking/intervals-experiment.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';
import { installFakeDocument } from './fake-document.mjs';
import { h } from '../../web/src/ui/dom.js';

installFakeDocument();

// A method's coverage as core reports it: its Monte Carlo interval and finding hand-written.
const method = (mean_width, coverage, interval = [coverage - 0.04, Math.min(1, coverage + 0.03)], finding = 'within_noise') => ({
  mean_width,
  coverage,
  coverage_interval: { low: interval[0], high: interval[1] },
  finding,
});
const REPORT = {
  reference_median: 0.05,
  reference_n: 1000,
  trials: 400,
  bootstrap_resamples: 1000,
  seed: 1,
  rows: [
    {
      n: 5,
      z: method(0.02, 0.8, [0.76, 0.84], 'short'),
      t: method(0.03, 0.93),
      bootstrap: method(0.025, 0.96),
      sentence: 'At n = 5: core’s words for n = 5.',
    },
    {
      n: 100,
      z: method(0.004, 0.71, [0.66, 0.75], 'short'),
      t: method(0.0041, 0.72, [0.67, 0.76], 'short'),
      bootstrap: method(0.005, 0.95),
      sentence: 'At n = 100: core’s words for n = 100.',
    },
  ],
};

// Core's plans as experimentPlan('benchmarking-intervals') gives them, in init's facts (the
// full one, and a quick one with other numbers than core's, so the page shows it reads them).
const FULL = {
  options: { warmup: 20, samples: 1000, min_sample_ms: 0, max_total_ms: 30000 },
  coverage: { trials: 400, bootstrap_resamples: 1000, seed: 1 },
};
const QUICK = {
  options: { warmup: 4, samples: 300, min_sample_ms: 0, max_total_ms: 2400 },
  coverage: { trials: 60, bootstrap_resamples: 150, seed: 2 },
};
const INFO = { plan: FULL, fullPlan: FULL };
const QUICK_INFO = { plan: QUICK, fullPlan: FULL };

test('intervals: one reference run, core’s 1,000 samples (quick: fewer), and core’s coverage options', () => {
  const values = controlDefaults(intervalsExperiment.controls);
  assert.deepEqual(values, { kernel: iv.DEFAULT_KERNEL, n: iv.DEFAULT_N, sizes: [...iv.DEFAULT_SIZES] });
  const full = iv.intervalsPoints({ ...values, kernel: 'gelu:fused' }, { quick: false, info: INFO });
  assert.equal(full.length, 10, 'the reference run in calls of 100 samples');
  for (const p of full) {
    assert.deepEqual(p, { op: 'gelu', variant: 'fused', n: iv.DEFAULT_N, options: { ...FULL.options, samples: 100, max_total_ms: 3000 } });
  }
  assert.equal(full.reduce((sum, p) => sum + p.options.samples, 0), 1000);
  const quick = iv.intervalsPoints(values, { quick: true, info: QUICK_INFO });
  assert.equal(quick.reduce((sum, p) => sum + p.options.samples, 0), QUICK.options.samples);
  assert.equal(quick.reduce((sum, p) => sum + p.options.max_total_ms, 0), QUICK.options.max_total_ms);
  assert.deepEqual(iv.coverageOf(INFO), FULL.coverage);
  assert.notEqual(iv.coverageOf(INFO), FULL.coverage, 'core is handed a copy');
  assert.deepEqual(iv.coverageOf(QUICK_INFO), QUICK.coverage);
  assert.throws(() => iv.intervalsPoints(values, { quick: false, info: { plan: { options: FULL.options } } }), /\(no coverage\)/);
  assert.ok(Math.max(...iv.DEFAULT_SIZES) <= 100 && Math.min(...iv.DEFAULT_SIZES) === 5, 'n from 5 to 100');
});

test('intervals: its texts quote core’s plan, "…" until it arrives', () => {
  const text = (info) => intervalsExperiment.explanation({ quick: false, info }).join(' ');
  assert.match(text(null), /A reference run of … samples .* from it, … per size, .* counted over … trials/);
  assert.match(text(QUICK_INFO), /A reference run of 1,000 samples .* from it, 400 per size, .* counted over 400 trials/);
  assert.equal(intervalsExperiment.quickNote({ quick: true, info: null }), null);
  assert.equal(
    intervalsExperiment.quickNote({ quick: true, info: QUICK_INFO }),
    'Quick mode (?quick=1): a 300-sample reference and 60 trials per size (bootstrap 150 resamples), so each coverage is a count out of 60. Remove it for the full run.',
  );
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

test('intervals: the sentences are core’s, one for the smallest and one for the largest n', () => {
  const kernel = { op: 'matmul', variant: 'packed', n: 64 };
  const text = renderIntervals({ ...REPORT, kernel }, { h })
    .map((n) => n.textContent)
    .join('\n');
  assert.match(text, /Reference: 1,000 samples of the packed matmul at N = 64, median 0\.0500 ms\./);
  assert.match(text, /core drew 400 small samples .* seed 1/);
  assert.match(text, /^At n = 5: core’s words for n = 5\.$/m);
  assert.match(text, /^At n = 100: core’s words for n = 100\.$/m);
});

test('intervals: 94 of 100 is not called short: the page says nothing core did not', () => {
  // Core judged 94% of 100 trials within the noise of 95% (its interval 87.5% to 97.2%).
  const row = {
    n: 5,
    z: method(0.02, 0.94, [0.875, 0.972]),
    t: method(0.03, 0.97, [0.915, 0.99]),
    bootstrap: method(0.025, 0.95, [0.888, 0.978]),
    sentence: 'At n = 5: z 94.0% of 100 trials (95% Monte Carlo interval 87.5% to 97.2%), … All three are within the noise of 100 trials of 95%.',
  };
  const nodes = renderIntervals({ ...REPORT, trials: 100, rows: [row], kernel: { op: 'matmul', variant: 'packed', n: 64 } }, { h });
  const text = nodes.map((n) => n.textContent).join('\n');
  assert.doesNotMatch(text, /fell short/);
  assert.match(text, /within the noise of 100 trials/);
  // The table shows each coverage with its Monte Carlo interval.
  assert.match(text, /94\.0% \(87\.5–97\.2%\)/);
});

test('intervals: the spec passes the framework’s checks and is mounted in its slot', () => {
  assert.deepEqual(specProblems(intervalsExperiment), []);
  assert.equal(EXPERIMENTS.intervals, intervalsExperiment);
});

test('intervals: a z or t coverage falling with n is explained only when core’s intervals separate', () => {
  const kernel = { op: 'matmul', variant: 'packed', n: 64 };
  const text = renderIntervals({ ...REPORT, kernel }, { h }).map((n) => n.textContent).join('\n');
  // t: 93% [89, 96] at n = 5 against 72% [67, 76] at n = 100, short: separate. z: 80% [76, 84]
  // against 71% [66, 75]: separate too.
  assert.match(text, /z and t contained the median less often at n = 100 than at n = 5: they are intervals of the mean/);
  const steady = { ...REPORT, rows: REPORT.rows.map((r) => ({ ...r, z: method(0.02, 0.95), t: method(0.03, 0.96) })) };
  assert.doesNotMatch(renderIntervals({ ...steady, kernel }, { h }).map((n) => n.textContent).join('\n'), /intervals of the mean/);
  // 93% against 91%, short at n = 100 but the intervals overlap: noise, not a trend.
  const overlapping = {
    ...REPORT,
    rows: [
      { ...REPORT.rows[0], z: method(0.02, 0.93, [0.9, 0.955]), t: method(0.03, 0.93, [0.9, 0.955]) },
      { ...REPORT.rows[1], z: method(0.004, 0.91, [0.88, 0.945], 'short'), t: method(0.004, 0.91, [0.88, 0.945], 'short') },
    ],
  };
  assert.doesNotMatch(renderIntervals({ ...overlapping, kernel }, { h }).map((n) => n.textContent).join('\n'), /intervals of the mean/);
});
