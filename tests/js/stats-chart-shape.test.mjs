// Protects the Benchmarking charts' pure data shaping, on samples small enough to count by
// hand: the bin count (Freedman-Diaconis, Sturges when the IQR is 0), the histogram's bins
// split at the fences, the box plot's whiskers and outliers, which side the mean and median
// labels go, and the fitted curves grouped into lines with the classes in order.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { binCount, boxPlot, centreRules, curveSeries, histogram } from '../../web/src/charts/stats-shape.js';

test('binCount uses the Freedman-Diaconis width, Sturges when the IQR is 0, and clamps', () => {
  // n = 8: ∛8 = 2, width = 2·IQR/2 = IQR = 2, range 10 → 5 bins.
  assert.equal(binCount({ n: 8, iqr: 2, min: 0, max: 10 }), 5);
  // IQR 0 with n = 8: ⌈log2 8⌉ + 1 = 4.
  assert.equal(binCount({ n: 8, iqr: 0, min: 0, max: 10 }), 4);
  // A long tail: 1000 values, IQR 1, range 1000 → width 0.2, 5000 bins, clamped to 60.
  assert.equal(binCount({ n: 1000, iqr: 1, min: 0, max: 1000 }), 60);
  assert.equal(binCount({ n: 1000, iqr: 1, min: 0, max: 1000 }, 20), 20);
  assert.equal(binCount({ n: 1, iqr: 0, min: 3, max: 3 }), 1);
  assert.equal(binCount({ n: 5, iqr: 0, min: 3, max: 3 }), 1);
  assert.throws(() => binCount({ n: -1, iqr: 0, min: 0, max: 1 }), {
    message: 'n must be a whole number ≥ 0, got -1',
  });
  assert.throws(() => binCount({ n: 4, iqr: 1, min: 0, max: 1 }, 0), {
    message: 'maxBins must be a whole number ≥ 1, got 0',
  });
});

test('histogram counts equal-width bins, the last one holding the maximum, split at the fences', () => {
  // [0, 10] in 5 bins of width 2: [0,2) [2,4) [4,6) [6,8) [8,10].
  const values = [0, 1, 2, 3, 3, 5, 10, 9.5];
  assert.deepEqual(histogram(values, { bins: 5, lowerFence: 0.5, upperFence: 9 }), [
    { x0: 0, x1: 2, count: 1, part: 'within fences' }, // 1
    { x0: 0, x1: 2, count: 1, part: 'Tukey outlier' }, // 0 < 0.5
    { x0: 2, x1: 4, count: 3, part: 'within fences' }, // 2, 3, 3
    { x0: 4, x1: 6, count: 1, part: 'within fences' }, // 5
    { x0: 8, x1: 10, count: 2, part: 'Tukey outlier' }, // 9.5 and 10 > 9
  ]);
  const total = histogram(values, { bins: 3 }).reduce((s, r) => s + r.count, 0);
  assert.equal(total, values.length, 'every value lands in a bin');
  assert.deepEqual(histogram([], { bins: 3 }), []);
});

test('histogram gives equal values one bin of width 1% of their magnitude (1 at zero)', () => {
  assert.deepEqual(histogram([4, 4, 4], { bins: 7 }), [{ x0: 3.98, x1: 4.02, count: 3, part: 'within fences' }]);
  assert.deepEqual(histogram([0, 0], { bins: 2 }), [{ x0: -0.5, x1: 0.5, count: 2, part: 'within fences' }]);
});

test('histogram refuses values that are not finite and a bin count that is not a whole number', () => {
  assert.throws(() => histogram([1, NaN], { bins: 2 }), { message: 'values[1] must be a finite number, got NaN' });
  assert.throws(() => histogram([1, 2], { bins: 0 }), { message: 'bins must be a whole number ≥ 1, got 0' });
  assert.throws(() => histogram('12', { bins: 2 }), { message: 'values must be an array of numbers' });
});

test('boxPlot puts the whiskers at the extreme samples inside the fences and lists the rest', () => {
  // Quartiles and fences as core would send them for this sample (Q1 2, Q3 4, IQR 2: 2 − 3 and 4 + 3).
  const summary = { p25: 2, median: 3, p75: 4, lower_fence: -1, upper_fence: 7 };
  assert.deepEqual(boxPlot([1, 2, 3, 4, 5, 30, 2.5, -4], summary), {
    q1: 2,
    median: 3,
    q3: 4,
    whiskerLow: 1,
    whiskerHigh: 5,
    outliers: [30, -4],
  });
  assert.throws(() => boxPlot([], summary), { message: 'boxPlot needs at least one value' });
});

test('centreRules puts the median on the first line, the mean on the second, each label inside the domain', () => {
  const f = (v) => `${v} ms`;
  assert.deepEqual(centreRules(5, 3, f, [0, 20]), [
    { key: 'median', x: 3, label: 'median 3 ms', anchor: 'start', line: 0 },
    { key: 'mean', x: 5, label: 'mean 5 ms', anchor: 'start', line: 1 },
  ]);
  // Domain [0, 20], middle 10: a value at the middle still writes rightwards, past it leftwards.
  assert.deepEqual(
    centreRules(17, 10, f, [0, 20]).map((r) => [r.key, r.anchor]),
    [
      ['median', 'start'],
      ['mean', 'end'],
    ],
  );
});

test('curveSeries sorts each line by n, keeps the classes in order and drops what a log axis cannot show', () => {
  const curves = [
    { n: 256, value: 8, fit: 'O(n^3)' },
    { n: 64, value: 0.125, fit: 'O(n^3)' },
    { n: 64, value: 0.5, fit: 'O(n^2)' },
    { n: 0, value: 1, fit: 'O(n^2)' },
    { n: 128, value: -1, fit: 'O(n^2)' },
    { n: 256, value: 8, fit: 'O(n^2)' },
  ];
  const { rows, fits } = curveSeries(curves);
  assert.deepEqual(fits, ['O(n^3)', 'O(n^2)']);
  assert.deepEqual(
    rows.map((r) => [r.line, r.n]),
    [
      ['O(n^2)', 64],
      ['O(n^2)', 256],
      ['O(n^3)', 64],
      ['O(n^3)', 256],
    ],
  );
  const twoKernels = curveSeries([
    { n: 8, value: 1, fit: 'O(n)', series: 'gelu' },
    { n: 8, value: 2, fit: 'O(n)', series: 'add' },
  ]);
  assert.deepEqual(
    twoKernels.rows.map((r) => r.line),
    ['add · O(n)', 'gelu · O(n)'],
  );
  assert.deepEqual(twoKernels.fits, ['O(n)']);
  assert.throws(() => curveSeries([{ n: 1, value: 1 }]), { message: 'curves[0].fit must name a complexity class' });
  assert.throws(() => curveSeries(null), { message: 'curves must be an array of {n, value, fit}' });
});
