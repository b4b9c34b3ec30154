// Protects the sandbox's fake clock, which grades timing code exactly: the markers core sends
// ({"$fake_clock": ...}, {"$fake_fn": {"costs_ms": [...]}}) become a clock and a function that
// share one fake time per test; a malformed marker is reported as the exercise's bug; and on
// measureLatency-style tests a correct solution returns the median of the timed calls while
// one that times its warmup calls, one that returns the mean, or one that reads the real
// clock returns something else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TestDescriptionError, materializeArgs, runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { SOLUTIONS } from './grading-generate.mjs';

const fakeFn = (costs_ms) => ({ $fake_fn: { costs_ms } });
const fakeClock = (start_ms) => ({ $fake_clock: start_ms === undefined ? true : { start_ms } });

test('plain arguments come back as a deep copy', () => {
  const args = [[3, 1, 2], { a: { b: [1] } }, 'x', 4, null, true];
  const got = materializeArgs(args);
  assert.deepEqual(got, args);
  got[0].sort();
  got[1].a.b.push(2);
  assert.deepEqual(args[0], [3, 1, 2]);
  assert.deepEqual(args[1], { a: { b: [1] } });
});

test('a fake clock starts at start_ms (or 0) and reading it never advances it', () => {
  const [clock] = materializeArgs([fakeClock(1000.5)]);
  assert.equal(clock.now(), 1000.5);
  assert.equal(clock.now(), 1000.5);
  const { now } = clock; // works detached from the object too
  assert.equal(now(), 1000.5);
  assert.equal(materializeArgs([fakeClock()])[0].now(), 0);
  assert.equal(materializeArgs([{ $fake_clock: {} }])[0].now(), 0);
  assert.ok(Object.isFrozen(clock));
});

test('each call of the fake fn advances the shared fake time by its scripted cost', () => {
  const [fn, options, clock] = materializeArgs([fakeFn([5, 0.25, 10]), { warmup: 1, iterations: 2 }, fakeClock(100)]);
  assert.deepEqual(options, { warmup: 1, iterations: 2 });
  assert.equal(clock.now(), 100);
  assert.equal(fn(), undefined);
  assert.equal(clock.now(), 105);
  fn();
  assert.equal(clock.now(), 105.25);
  fn();
  assert.equal(clock.now(), 115.25);
  assert.throws(fn, { name: 'Error', message: 'fn() was called 4 times, but this test scripts only 3 calls (warmup + iterations)' });
  assert.equal(clock.now(), 115.25, 'a refused call costs nothing');
});

test('markers nested in objects work, and every test gets its own fake time', () => {
  const args = [{ clock: fakeClock(7), work: fakeFn([2]) }];
  const [first] = materializeArgs(args);
  first.work();
  assert.equal(first.clock.now(), 9);
  const [second] = materializeArgs(args);
  assert.equal(second.clock.now(), 7);
});

test('a malformed marker is a TestDescriptionError naming the path and what is allowed', () => {
  const cases = [
    [[fakeFn('slow')], 'args[0].$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got {"costs_ms":"slow"}'],
    [[fakeFn([1, -2])], 'args[0].$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got {"costs_ms":[1,-2]}'],
    [[{ $fake_fn: [1, 2] }], 'args[0].$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got [1,2]'],
    [[{ $fake_clock: 'now' }], 'args[0].$fake_clock must be true or {"start_ms": number}, got "now"'],
    [[{ $fake_clock: { start_ms: 'x' } }], 'args[0].$fake_clock.start_ms must be a finite number, got "x"'],
    [[{ $fake_clock: { start: 1 } }], 'args[0].$fake_clock must be true or {"start_ms": number}, got {"start":1}'],
    [[fakeClock(1), { c: fakeClock(2) }], 'args[1].c starts the shared fake time at 2 ms, but args[0] starts it at 1 ms'],
    [[{ $fake_fn: { costs_ms: [1] }, extra: 1 }], 'args[0] mixes the marker $fake_fn with other fields ($fake_fn, extra)'],
    [[{ $fake_random: true }], 'args[0] has the unknown marker $fake_random (known: $fake_clock, $fake_fn)'],
    [{ not: 'an array' }, 'args must be an array, got {"not":"an array"}'],
  ];
  for (const [args, message] of cases) {
    assert.throws(() => materializeArgs(args), (e) => e instanceof TestDescriptionError && e.message === message, message);
  }
});

test('a malformed description fails its own test with a message that blames the exercise', () => {
  const results = runStudentTests({
    code: 'function f(x) { return 1; }',
    functionName: 'f',
    tests: [
      { name: 'bad', args: [fakeFn('x')] },
      { name: 'good', args: [1] },
    ],
  });
  assert.deepEqual(results[1], { value: 1 });
  assert.equal(
    results[0].error,
    'Error: this test\'s description is invalid (args[0].$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got {"costs_ms":"x"}); that is a bug in the exercise, not in your code',
  );
});

// ---- measureLatency on the fake clock -----------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Like the tests core draws: slow warmup calls first, then steady calls with a slow outlier.
const latencyTests = [
  { name: 'no warmup', warmup: 0, costs: [4, 6, 5, 3, 7] },
  { name: 'warmup calls are not timed', warmup: 3, costs: [40, 90, 35, 4.5, 5.25, 4.75, 5, 4.25] },
  { name: 'an even number of iterations', warmup: 1, costs: [30, 2, 8, 4, 6, 3, 5] },
  { name: 'one slow outlier', warmup: 2, costs: [50, 60, 3, 3.5, 2.5, 3.25, 40, 2.75, 3, 3.75, 2.25] },
].map(({ name, warmup, costs }) => ({
  name,
  args: [fakeFn(costs), { warmup, iterations: costs.length - warmup }, fakeClock(1234.5)],
  expected: median(costs.slice(warmup)),
}));

function run(code) {
  return runStudentTests({ code, functionName: 'measureLatency', tests: latencyTests });
}

// The reference solution the re-grading tests submit too (grading-generate.mjs).
const CORRECT = SOLUTIONS['profiling.measure-latency'];

test('a correct measureLatency returns the median of the timed calls on every test', () => {
  const results = run(CORRECT);
  assert.equal(results.length, latencyTests.length);
  results.forEach((r, i) => assert.equal(r.value, latencyTests[i].expected, latencyTests[i].name));
  // The expected values are what they should be, and distinct from the wrong answers below.
  assert.deepEqual(latencyTests.map((t) => t.expected), [5, 4.75, 4.5, 3]);
});

test('timing the warmup calls too gives another median wherever there are warmup calls', () => {
  const timesWarmup = CORRECT.replace('for (let i = 0; i < warmup; i++) fn();', '').replace(
    'i < iterations',
    'i < warmup + iterations',
  );
  const results = run(timesWarmup);
  assert.equal(results[0].value, latencyTests[0].expected, 'no warmup: the same');
  for (let i = 1; i < latencyTests.length; i++) {
    const { costs_ms } = latencyTests[i].args[0].$fake_fn;
    assert.equal(results[i].value, median(costs_ms), latencyTests[i].name);
    assert.notEqual(results[i].value, latencyTests[i].expected, latencyTests[i].name);
  }
});

test('skipping the warmup calls times the slow first calls and fails too', () => {
  const results = run(CORRECT.replace('for (let i = 0; i < warmup; i++) fn();', ''));
  assert.notEqual(results[1].value, latencyTests[1].expected);
  assert.notEqual(results[3].value, latencyTests[3].expected);
});

test('returning the mean fails on the skewed test', () => {
  const results = run(CORRECT.replace(/times\.sort[\s\S]*\n}$/, 'return times.reduce((a, b) => a + b, 0) / times.length;\n}'));
  const skewed = latencyTests[3];
  const timed = skewed.args[0].$fake_fn.costs_ms.slice(2);
  assert.equal(results[3].value, mean(timed));
  assert.ok(Math.abs(results[3].value - skewed.expected) > 1, `mean ${results[3].value} vs median ${skewed.expected}`);
});

test('one batch timing divided by the iterations is the mean, not the median', () => {
  const batch = `
function measureLatency(fn, { warmup, iterations }, clock) {
  for (let i = 0; i < warmup; i++) fn();
  const t0 = clock.now();
  for (let i = 0; i < iterations; i++) fn();
  return (clock.now() - t0) / iterations;
}`;
  const results = run(batch);
  assert.notEqual(results[3].value, latencyTests[3].expected);
});

test('reading performance.now() instead of the clock measures nothing the test scripted', () => {
  const results = run(CORRECT.replaceAll('clock.now()', 'performance.now()'));
  for (let i = 0; i < latencyTests.length; i++) assert.ok(results[i].value < 1, `${latencyTests[i].name}: ${results[i].value}`);
});

test('calling fn more often than warmup + iterations is an error in that test', () => {
  const results = run(CORRECT.replace('i < iterations', 'i <= iterations'));
  assert.equal(results[0].error, 'Error: fn() was called 6 times, but this test scripts only 5 calls (warmup + iterations)');
});
