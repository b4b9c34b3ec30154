// Protects the arithmetic behind bench/compare.mjs's "fraction of its own compute roof" for
// fused GELU (bench/gelu-roof.mjs) on numbers worked by hand: a probe peak of 46 GFLOP/s is
// 11.5 G four-lane vector operations/s; at 23 of them per 4 elements (5.75 per element) that
// is a roof of 2 G elements/s, so 1.5 G elements/s is 75% of it. Bad rates are refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS, SIMD_LANES, fractionOfGeluRoof, geluComputeRoof } from '../../bench/gelu-roof.mjs';

test('the count is core GeluVec’s 23 vector operations per 4 elements, on 4 lanes', () => {
  assert.equal(GELU_SIMD_VECTOR_OPS_PER_4_ELEMENTS, 23);
  assert.equal(SIMD_LANES, 4);
});

test('the roof: peak over 4 lanes, over 23/4 vector operations per element', () => {
  assert.deepEqual(geluComputeRoof(46), { g_vector_ops_per_s: 11.5, vector_ops_per_element: 5.75, g_elements_per_s: 2 });
  assert.equal(geluComputeRoof(23).g_elements_per_s, 1);
});

test('the fraction: the measured rate over the roof', () => {
  assert.equal(fractionOfGeluRoof(1.5, 46), 0.75);
  assert.equal(fractionOfGeluRoof(2, 46), 1);
  assert.equal(fractionOfGeluRoof(0.25, 23), 0.25);
});

test('rates that are not positive finite numbers are refused with the unit', () => {
  assert.throws(() => geluComputeRoof(0), /^RangeError: simd_peak_gflops_per_s must be a positive finite number of GFLOP\/s, got 0$/);
  assert.throws(() => geluComputeRoof(Number.NaN), /got NaN$/);
  assert.throws(() => geluComputeRoof('46'), /got "46"$/);
  assert.throws(() => fractionOfGeluRoof(-1, 46), /^RangeError: g_elements_per_s must be a positive finite number of G elements\/s, got -1$/);
  assert.throws(() => fractionOfGeluRoof(1, Infinity), /simd_peak_gflops_per_s .* got Infinity$/);
});
