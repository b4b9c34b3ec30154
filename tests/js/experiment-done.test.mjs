// The status line when an experiment's run is done (experiments/runner.js doneText): it says
// what was measured. A warmup run is one point of 100 calls timed one by one, so "Done: 1
// point" undersold it; rows with their samples count the timed samples and calls.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { doneText } from '../../web/src/experiments/runner.js';

const calls = (n, inner = 1) => ({ samples_ms: Array.from({ length: n }, (_, i) => 0.1 + i), inner_iterations: inner });

test('one point of 100 single calls reads as the 100 calls', () => {
  assert.equal(doneText([calls(100)], { seconds: '2.1', build: 'simd' }), 'Done: 100 calls timed one by one (1 point) in 2.1 s (simd build).');
});

test('batched samples count the samples and every call in them', () => {
  assert.equal(
    doneText([calls(1000, 40), calls(20, 5)], { seconds: '3.0', build: null }),
    'Done: 1,020 timed samples of 40,100 calls in all (2 points) in 3.0 s.',
  );
});

test('an A/B row counts both arms', () => {
  const row = { a_ms: [1, 2, 3], b_ms: [1, 2, 3], inner_iterations_a: 2, inner_iterations_b: 4 };
  assert.equal(doneText([row], { seconds: '1.0' }), 'Done: 6 timed samples of 18 calls in all (1 point) in 1.0 s.');
});

test('rows without samples are counted as points', () => {
  assert.equal(doneText([{ gflops_per_s: 3 }, { gflops_per_s: 4 }], { seconds: '0.5', build: 'scalar' }), 'Done: 2 points in 0.5 s (scalar build).');
  assert.equal(doneText([{ samples_ms: [1] }, { gflops_per_s: 4 }], { seconds: '0.5' }), 'Done: 2 points in 0.5 s.');
});
