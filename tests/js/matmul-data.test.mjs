// Protects the matmul experiment's pure half: which sweep quick mode selects, the points it
// plans from core's variant list, how a measured point prints in the table, and the CSV
// export (one line per point, stats flattened, RFC 4180 quoting).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText, specProblems } from '../../web/src/experiments/model.js';
import {
  CSV_COLUMNS,
  FULL_SWEEP,
  QUICK_SWEEP,
  TABLE_COLUMNS,
  matmulPoints,
  sweepPlan,
} from '../../web/src/chapters/acceleration/matmul-data.js';

const row = {
  build: 'simd',
  variant: 'naive',
  n: 32,
  flops: 65536,
  gflops_per_s: 0.262144,
  stats: {
    samples: 7,
    outliers: 1,
    mean_ms: 0.26,
    stddev_ms: 0.01,
    min_ms: 0.24,
    max_ms: 0.28,
    median_ms: 0.25,
    p95_ms: 0.275,
    p99_ms: 0.279,
    ci95_low_ms: 0.245,
    ci95_high_ms: 0.255,
    cv: 0.0385,
    inner_iterations: 64,
    resolution_ms: 0.005,
    warning: 'CV 12% over 7 samples: close other tabs, or raise min_sample_ms to 20',
  },
};

test('quick mode selects the quick sweep, else the full one', () => {
  assert.deepEqual(sweepPlan(true).sizes, QUICK_SWEEP.sizes);
  assert.deepEqual(sweepPlan(false).sizes, FULL_SWEEP.sizes);
  assert.equal(sweepPlan(true).quick, true);
});

test('sweepPlan returns copies, so a caller cannot change the presets', () => {
  const plan = sweepPlan(false);
  plan.sizes.push(4096);
  plan.options.samples = 1000;
  assert.equal(FULL_SWEEP.sizes.includes(4096), false);
  assert.equal(FULL_SWEEP.options.samples, 12);
});

test('the plan measures every listed variant at every size, sizes outermost', () => {
  const points = matmulPoints({ build: 'auto' }, { quick: true, info: { variants: ['naive', 'simd'] } });
  assert.deepEqual(
    points.map((p) => `${p.variant}@${p.n}`),
    ['naive@32', 'simd@32', 'naive@64', 'simd@64', 'naive@128', 'simd@128'],
  );
  assert.deepEqual(points[0].options, QUICK_SWEEP.options);
  assert.notEqual(points[0].options, points[1].options, 'each point owns its options');
  assert.equal(matmulPoints({}, { quick: false, info: { variants: ['naive'] } }).length, FULL_SWEEP.sizes.length);
});

test('the plan refuses to run without core’s variant list', () => {
  const message = 'the lab worker listed no matmul variants, so there is nothing to measure';
  assert.throws(() => matmulPoints({}, { quick: true, info: null }), { message });
  assert.throws(() => matmulPoints({}, { quick: true, info: { variants: [] } }), { message });
});

test('the table prints one measured point as the columns say', () => {
  assert.deepEqual(TABLE_COLUMNS.map(headerText), [
    'N',
    'variant',
    'median (ms)',
    'GFLOP/s',
    '95% CI of median (ms)',
    'CV',
    'samples',
    'warning',
  ]);
  assert.deepEqual(
    TABLE_COLUMNS.map((c) => cellText(c, row)),
    [
      '32',
      'naive',
      '0.250',
      '0.262',
      '0.245 – 0.255',
      '3.9%',
      '7 (1 dropped)',
      'CV 12% over 7 samples: close other tabs, or raise min_sample_ms to 20',
    ],
  );
  assert.equal(TABLE_COLUMNS[6].format({ ...row, stats: { ...row.stats, outliers: 0 } }), '7');
});

test('the CSV has the header and one CRLF line per row, stats flattened', () => {
  const csv = toCsv([row, { ...row, variant: 'simd', stats: { ...row.stats, warning: '' } }], CSV_COLUMNS);
  const lines = csv.split('\r\n');
  assert.equal(lines.length, 4, 'header, two rows, and the empty string after the final CRLF');
  assert.equal(lines[0], CSV_COLUMNS.join(','));
  assert.equal(
    lines[1],
    'simd,naive,32,65536,0.262144,0.25,0.26,0.01,0.24,0.28,0.275,0.245,0.255,0.0385,7,1,64,0.005,' +
      '"CV 12% over 7 samples: close other tabs, or raise min_sample_ms to 20"',
  );
  assert.match(lines[2], /^simd,simd,32,.*,0\.005,$/);
  assert.equal(lines[3], '');
  assert.equal(toCsv([], CSV_COLUMNS), CSV_COLUMNS.join(',') + '\r\n');
});

test('the experiment spec passes the framework’s checks', async () => {
  // matmul-experiment.js imports the DOM half of the framework; only its data is checked here.
  const spec = {
    id: 'matmul',
    title: 't',
    plan: matmulPoints,
    measure: { fn: 'measureMatmul' },
    columns: TABLE_COLUMNS,
    csv: { filename: 'perflab-matmul.csv', columns: CSV_COLUMNS },
  };
  assert.deepEqual(specProblems(spec), []);
});
