// Protects the sandbox's timed tests (core's `benchmark` objects): the student's function and
// the naive reference are timed in interleaved rounds on the same seeded inputs, the answer is
// {value: {student_median_ms, reference_median_ms, rounds, max_abs_difference}} for core to
// grade, a wrong or malformed result is reported instead of timed, and a malformed benchmark
// description is named as the exercise's bug. Timing is driven by a fake clock, never asserted
// against the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BENCHMARK_REFERENCES, runBenchmark, runStudentTests } from '../../web/src/lab/sandbox-runner.js';

const ikj = `
function matmul(a, b, n) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = a[i * n + k];
      for (let j = 0; j < n; j++) c[i * n + j] += x * b[k * n + j];
    }
  return c;
}`;
const spec = { reference: 'matmul-ijk', n: 12, rounds: 5, seed: 42 };

/** A clock that advances by `student` ms around the student's calls and `naive` around the reference's. */
function scriptedClock(order) {
  let t = 0;
  const costs = [...order];
  let pending = null;
  return () => {
    if (pending === null) {
      pending = costs.shift();
      return t;
    }
    t += pending;
    pending = null;
    return t;
  };
}

test('the reference multiplies matrices in the textbook order, from seeded inputs', () => {
  const ref = BENCHMARK_REFERENCES['matmul-ijk'];
  const [a, b, n] = ref.args({ n: 2, seed: 1 });
  assert.equal(n, 2);
  assert.deepEqual([...ref.args({ n: 2, seed: 1 })[0]], [...a]); // same seed, same input
  assert.notDeepEqual([...ref.args({ n: 2, seed: 2 })[0]], [...a]);
  assert.ok(a.every((x) => x >= -1 && x < 1));
  const c = ref.run(a, b, n);
  assert.deepEqual([...c], [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]]);
});

test('a timed test reports both medians of interleaved rounds and the largest difference', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  // Rounds alternate the order: student first in even rounds, the reference first in odd ones.
  const clock = scriptedClock([10, 30, 31, 12, 11, 29, 33, 13, 9, 40]);
  const result = runBenchmark(fn, spec, clock);
  assert.equal(result.value.rounds, 5);
  assert.equal(result.value.student_median_ms, 11); // 10, 12, 11, 13, 9
  assert.equal(result.value.reference_median_ms, 31); // 30, 31, 29, 33, 40
  assert.ok(result.value.max_abs_difference < 1e-12);
  assert.deepEqual(Object.keys(result.value).sort(), ['max_abs_difference', 'reference_median_ms', 'rounds', 'student_median_ms']);
});

test('runStudentTests answers a benchmark test with the timing object, other tests as before', () => {
  const results = runStudentTests({
    code: ikj,
    functionName: 'matmul',
    tests: [
      { name: '1×1', args: [[2], [3], 1] },
      { name: 'timed', args: [], benchmark: spec },
    ],
  });
  assert.deepEqual(results[0], { value: [6] });
  assert.ok(results[1].value.student_median_ms >= 0);
  assert.ok(results[1].value.reference_median_ms >= 0);
  assert.ok(results[1].value.max_abs_difference < 1e-12);
});

test('a wrong product still times, and core sees how far off it is', () => {
  const wrong = new Function(`${ikj.replace('+= x * b', '+= 2 * x * b')}; return matmul;`)();
  const result = runBenchmark(wrong, spec, scriptedClock(Array(10).fill(1)));
  assert.ok(result.value.max_abs_difference > 0.1);
});

test('a result of the wrong shape, a throw or NaN is reported instead of timed', () => {
  assert.deepEqual(runBenchmark(() => undefined, spec), {
    error: 'at N = 12 your function returned undefined, not an array of n·n = 144 numbers',
  });
  assert.deepEqual(runBenchmark(() => new Float64Array(10), spec), {
    error: 'at N = 12 your function returned an array of 10 values, not an array of n·n = 144 numbers',
  });
  assert.deepEqual(runBenchmark(() => { throw new TypeError('b is undefined'); }, spec), { error: 'TypeError: b is undefined' });
  assert.deepEqual(runBenchmark(() => new Array(144).fill(NaN), spec), {
    error: 'at N = 12 your result holds a value that is not a finite number',
  });
});

test('a malformed benchmark description is reported as the exercise bug it is', () => {
  const results = runStudentTests({
    code: ikj,
    functionName: 'matmul',
    tests: [{ name: 'timed', args: [], benchmark: { reference: 'nope', n: 4, rounds: 1, seed: 1 } }],
  });
  assert.match(results[0].error, /^Error: this test's description is invalid \(benchmark must be \{reference: one of matmul-ijk, n: 1\.\.2048, rounds: 1\.\.50, seed: integer\}, got .*"nope".*\); that is a bug in the exercise, not in your code$/);
});
