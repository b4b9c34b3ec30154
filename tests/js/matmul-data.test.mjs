// Protects the matmul experiment's pure helpers: which sweep a URL selects, how numbers
// are printed in the table, and the CSV export (RFC 4180 quoting, one line per point).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CSV_COLUMNS,
  FULL_SWEEP,
  QUICK_SWEEP,
  csvField,
  formatPercent,
  formatSig,
  isQuick,
  sweepPlan,
  tableCells,
  toCsv,
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

test('?quick=1 selects the quick sweep; absent, 0 or false select the full one', () => {
  assert.equal(isQuick('?quick=1'), true);
  assert.equal(isQuick('?a=b&quick'), true);
  assert.equal(isQuick(''), false);
  assert.equal(isQuick('?quick=0'), false);
  assert.equal(isQuick('?quick=false'), false);
  assert.deepEqual(sweepPlan('?quick=1').sizes, QUICK_SWEEP.sizes);
  assert.deepEqual(sweepPlan('').sizes, FULL_SWEEP.sizes);
});

test('sweepPlan returns copies, so a caller cannot change the presets', () => {
  const plan = sweepPlan('');
  plan.sizes.push(4096);
  plan.options.samples = 1000;
  assert.equal(FULL_SWEEP.sizes.includes(4096), false);
  assert.equal(FULL_SWEEP.options.samples, 12);
});

test('formatSig prints three significant digits without exponents', () => {
  assert.equal(formatSig(0.0123456), '0.0123');
  assert.equal(formatSig(1.23456), '1.23');
  assert.equal(formatSig(123.456), '123');
  assert.equal(formatSig(98765.4), '98765');
  assert.equal(formatSig(0), '0');
  assert.equal(formatSig(NaN), '—');
  assert.equal(formatPercent(0.0385), '3.9%');
});

test('tableCells prints one measured point as the table columns', () => {
  assert.deepEqual(tableCells(row), [
    '32',
    'naive',
    '0.250',
    '0.262',
    '0.245 – 0.255',
    '3.9%',
    '7 (1 dropped)',
    'CV 12% over 7 samples: close other tabs, or raise min_sample_ms to 20',
  ]);
});

test('csvField quotes commas, quotes and line breaks, and doubles quotes', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField(1.5), '1.5');
  assert.equal(csvField(undefined), '');
  assert.equal(csvField('a, b'), '"a, b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
});

test('toCsv writes the header and one CRLF line per row, stats flattened', () => {
  const csv = toCsv([row, { ...row, variant: 'simd', stats: { ...row.stats, warning: '' } }]);
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
});

test('toCsv of no rows is the header alone', () => {
  assert.equal(toCsv([]), CSV_COLUMNS.join(',') + '\r\n');
});
