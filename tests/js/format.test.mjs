// Protects the page's number formats (web/src/ui/format.js) where a reader once met them
// wrong: one notation per column at every magnitude, digits kept for tiny values, a
// scientific format for columns that span decades, and points as the grader gives them.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATS, countWord, formatChange, formatList, formatPoints, formatSci, formatSig } from '../../web/src/ui/format.js';

test('formatSig writes every magnitude in positional notation and keeps three digits', () => {
  // One column read "5.57e-7" beside "0.0000886"; six decimals at most turned 5.57e-7 into "0.000001".
  assert.equal(formatSig(5.57e-7), '0.000000557');
  assert.equal(formatSig(0.0000886), '0.0000886');
  assert.equal(formatSig(-0.00123), '-0.00123');
  // Rounded first: 0.0099996 has three digits as "0.0100", not four as "0.01000".
  assert.equal(formatSig(0.0099996), '0.0100');
  for (const v of [1e-12, 3.3e-9, 5.57e-7, 0.0000886, 0.0123, 1.5, 12.5, 999.4]) {
    assert.doesNotMatch(formatSig(v), /e/, `${v}`);
  }
});

test('formatSci writes a column that spans decades in one notation', () => {
  assert.equal(formatSci(5.57e-7), '5.57 × 10⁻⁷');
  assert.equal(formatSci(0.0000886), '8.86 × 10⁻⁵');
  assert.equal(formatSci(1.5), '1.50 × 10⁰');
  assert.equal(formatSci(-1234.5), '-1.23 × 10³');
  assert.equal(formatSci(0), '0');
  assert.equal(formatSci(NaN), '—');
  assert.equal(FORMATS.sci, formatSci);
});

test('points keep the grader’s two decimals: 3.75 is not "3.8"', () => {
  assert.equal(formatPoints(3.75), '3.75');
  assert.equal(formatPoints(10 / 3), '3.33');
  assert.equal(formatPoints(2.5), '2.5');
  assert.equal(formatPoints(15), '15');
  assert.equal(formatPoints(Infinity), '—');
});

test('a change column reads in one resolution, never finer than 0.01%', () => {
  // The regression table printed "+0.000000369%" beside "+1.79%" and "-59.4%".
  assert.equal(formatChange(3.69e-9), '+0.00%');
  assert.equal(formatChange(0.0179), '+1.79%');
  assert.equal(formatChange(-0.594), '-59.4%');
  assert.equal(formatChange(1.48), '+148%');
  assert.equal(formatChange(12.3456), '+1,235%');
  assert.equal(formatChange(0.000123), '+0.01%');
  assert.equal(formatChange(0), '0%');
  assert.equal(formatChange(Infinity), '—');
});

test('countWord writes small counts in words and larger ones in digits; formatList joins items as prose', () => {
  assert.deepEqual([0, 1, 2, 5, 12].map(countWord), ['zero', 'one', 'two', 'five', 'twelve']);
  assert.equal(countWord(13), '13');
  assert.equal(countWord(2048), '2,048');
  assert.equal(formatList([]), '');
  assert.equal(formatList([64]), '64');
  assert.equal(formatList([64, 128]), '64 and 128');
  assert.equal(formatList(['1', 2, 4, 32]), '1, 2, 4 and 32');
});
