// Protects the sandbox's timed tests (core's `benchmark` objects): the student's function and
// the naive reference are timed the same way (both compiled afresh from source text by one
// function, the reference's text being the exercise's starter code, the same warm-up, then
// interleaved rounds), every call on fresh inputs of its own (a per-call seed from the test's
// seed and the run's nonce) and every result checked, so a function that caches or
// precomputes cannot win; the answer is {value: {student_ms, reference_ms,
// max_abs_difference}}, every round's time of both, for core to grade, a wrong or malformed
// result is reported instead of timed, and a malformed benchmark description is named as the
// exercise's bug. The reference side is the one the caller gives (the command line's comes
// from a realm of its own), its rounds interleaved with the student's; the loop reads only its
// own records, and freezeIntrinsics freezes what the reference goes through in the realm it is
// called for. Timing is driven by a fake clock, never asserted against the real one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BENCHMARK_REFERENCES, benchmarkSeed, compileFunction, freshNonce, referenceSide, runBenchmark, runStudentTests } from '../../web/src/lab/sandbox-runner.js';

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
  const c = compileFunction(ref.source, ref.functionName, 'console, Float64Array', [console, Float64Array])(a, b, n);
  assert.deepEqual([...c], [a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2], a[2] * b[1] + a[3] * b[3]]);
});

test('the reference is the exercise\'s starter code, character for character', () => {
  const bank = JSON.parse(readFileSync(new URL('../../core/exercises/acceleration.json', import.meta.url), 'utf8'));
  const exercise = bank.exercises.find((e) => e.id === 'acceleration.matmul-loop-order');
  const ref = BENCHMARK_REFERENCES['matmul-ijk'];
  assert.equal(ref.source, exercise.starter_code.join('\n'));
  assert.equal(ref.functionName, exercise.function_name);
  assert.equal(ref.run, undefined); // no precompiled copy that could be timed instead
});

test('a timed test compiles the student\'s code and the reference afresh, through the same function', () => {
  const calls = [];
  const compile = (...args) => {
    calls.push(args);
    return compileFunction(...args);
  };
  const studentConsole = { log() {} };
  const result = runBenchmark(ikj, 'matmul', spec, nothing, { nonce: 1, console: studentConsole, compile });
  assert.ok(result.value, JSON.stringify(result));
  assert.equal(calls.length, 2);
  assert.deepEqual(calls[0], [ikj, 'matmul', 'console', [studentConsole]]);
  const ref = BENCHMARK_REFERENCES['matmul-ijk'];
  assert.equal(calls[1][0], ref.source);
  assert.equal(calls[1][1], 'matmul');
  // The reference's Float64Array is the one captured when the runner loaded.
  assert.equal(calls[1][2], 'console, Float64Array');
  assert.equal(calls[1][3][1], Float64Array);
});

test('compileFunction returns a new function each call, never one with an earlier call\'s state', () => {
  const code = 'let calls = 0; function f() { return ++calls; }';
  const one = compileFunction(code, 'f', 'console', [console]);
  const two = compileFunction(code, 'f', 'console', [console]);
  assert.notEqual(one, two);
  assert.equal(one(), 1);
  assert.equal(one(), 2);
  assert.equal(two(), 1);
  assert.equal(compileFunction('const x = 1;', 'f', 'console', [console]), undefined);
  assert.throws(() => compileFunction('function f( {', 'f', 'console', [console]), SyntaxError);
});

test('the timed copy of the student\'s function has seen only the timed inputs, as the reference has', () => {
  // Type feedback from the plain arrays of the small tests would slow the student's copy down
  // (the reference sees only Float64Arrays): the timed test runs a copy of its own.
  const probe = `const seen = [];
${ikj.replace('function matmul(a, b, n) {', `function matmul(a, b, n) {
  seen.push(Object.prototype.toString.call(a));
  if (n === ${spec.n} && seen.includes('[object Array]')) throw new Error('the timed copy saw ' + seen.join(', '));`)}`;
  const logs = [];
  const results = runStudentTests({
    code: `console.log('top level');\n${probe}`,
    functionName: 'matmul',
    tests: [
      { name: '1×1', args: [[2], [3], 1] },
      { name: 'timed', args: [], benchmark: spec },
    ],
    onLog: (line) => logs.push(line),
  });
  assert.deepEqual(results[0], { value: [6] });
  assert.ok(results[1].value, JSON.stringify(results[1]));
  assert.deepEqual(logs, ['top level']); // the copy's top level is not shown twice
});

test('a timed test reports every round of both sides, interleaved, and the largest difference', () => {
  // An untimed warm-up (reference first), then rounds alternating the order: student first in
  // even rounds, the reference first in odd ones.
  const clock = scriptedClock([500, 600, 10, 30, 31, 12, 11, 29, 33, 13, 9, 40]);
  const result = runBenchmark(ikj, 'matmul', spec, clock);
  assert.deepEqual(result.value.student_ms, [10, 12, 11, 13, 9]);
  assert.deepEqual(result.value.reference_ms, [30, 31, 29, 33, 40]);
  assert.ok(Array.isArray(result.value.student_ms)); // plain arrays: JSON carries them to core
  assert.ok(result.value.max_abs_difference < 1e-12);
  assert.deepEqual(Object.keys(result.value).sort(), ['max_abs_difference', 'reference_ms', 'student_ms']);
});

test('code that defines no function, or throws at its top level, is reported in the timed test', () => {
  assert.deepEqual(runBenchmark('const matmul = 3;', 'matmul', spec, nothing), {
    error: 'ReferenceError: your code must define a function named matmul',
  });
  assert.deepEqual(runBenchmark('throw new RangeError("no");', 'matmul', spec, nothing), { error: 'RangeError: no' });
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
  assert.equal(results[1].value.student_ms.length, spec.rounds);
  assert.equal(results[1].value.reference_ms.length, spec.rounds);
  assert.ok(results[1].value.max_abs_difference < 1e-12);
});

test('a wrong product still times, and core sees how far off it is', () => {
  const wrong = ikj.replace('+= x * b', '+= 2 * x * b');
  const result = runBenchmark(wrong, 'matmul', spec, scriptedClock(Array(12).fill(1)));
  assert.ok(result.value.max_abs_difference > 0.1);
});

test('a result of the wrong shape, a throw or NaN is reported instead of timed', () => {
  const returning = (body) => `function matmul(a, b, n) { ${body} }`;
  assert.deepEqual(runBenchmark(returning('return undefined;'), 'matmul', spec), {
    error: 'at N = 12 your function returned undefined, not an array of n·n = 144 numbers',
  });
  assert.deepEqual(runBenchmark(returning('return new Float64Array(10);'), 'matmul', spec), {
    error: 'at N = 12 your function returned an array of 10 values, not an array of n·n = 144 numbers',
  });
  assert.deepEqual(runBenchmark(returning("throw new TypeError('b is undefined');"), 'matmul', spec), { error: 'TypeError: b is undefined' });
  assert.deepEqual(runBenchmark(returning('return new Array(144).fill(NaN);'), 'matmul', spec), {
    error: 'at N = 12 your result holds a value that is not a finite number',
  });
});

test('a malformed benchmark description is reported as the exercise bug it is', () => {
  const results = runStudentTests({
    code: ikj,
    functionName: 'matmul',
    tests: [{ name: 'timed', args: [], benchmark: { reference: 'nope', n: 4, rounds: 1, seed: 1 } }],
  });
  assert.match(results[0].error, /^Error: this test's description is invalid \(benchmark must be \{reference: one of matmul-ijk, dense-matvec, n: 1\.\.2048, rounds: 1\.\.50, seed: integer, and for dense-matvec density: \(0, 1\]\}, got .*"nope".*\); that is a bug in the exercise, not in your code$/);
});

const nothing = () => 0;

// The runner compiles the student's code from its text, so a test's closure (a spy) is reached
// through a global the text names.
let hooks = 0;
function delegating(fn) {
  const name = `__matmulHook${hooks++}`;
  globalThis[name] = fn;
  return `function matmul(a, b, n) { return globalThis.${name}(a, b, n); }`;
}

test('each call gets inputs of its own: a per-call seed from the test seed and the run nonce', () => {
  const seeds = new Set();
  for (let call = 0; call < 100; call++) seeds.add(benchmarkSeed(42, 7, call));
  assert.equal(seeds.size, 100);
  assert.equal(benchmarkSeed(42, 7, 3), benchmarkSeed(42, 7, 3)); // deterministic
  assert.notEqual(benchmarkSeed(42, 7, 3), benchmarkSeed(42, 8, 3)); // the nonce changes it
  assert.notEqual(benchmarkSeed(42, 7, 3), benchmarkSeed(43, 7, 3));
  assert.ok(Number.isInteger(benchmarkSeed(42, 7, 3)) && benchmarkSeed(42, 7, 3) >= 0 && benchmarkSeed(42, 7, 3) < 2 ** 32);
  assert.notEqual(freshNonce(), freshNonce()); // 2^-32 chance of a false failure
});

test('the student never sees the same arrays or the same values twice, nor the reference\'s arrays', () => {
  const seen = [];
  const fn = new Function(`${ikj}; return matmul;`)();
  const spy = (a, b, n) => {
    seen.push([a, b, a[0], b[0]]);
    return fn(a, b, n);
  };
  const result = runBenchmark(delegating(spy), 'matmul', spec, nothing, { nonce: 1 });
  assert.equal(seen.length, 1 + spec.rounds);
  assert.equal(new Set(seen.map((s) => s[0])).size, seen.length);
  assert.equal(new Set(seen.map((s) => s[2])).size, seen.length);
  assert.equal(new Set(seen.map((s) => s[3])).size, seen.length);
  assert.ok(result.value.max_abs_difference < 1e-12);
  // Another run draws other inputs.
  const again = [];
  runBenchmark(delegating((a, b, n) => (again.push(a[0]), fn(a, b, n))), 'matmul', spec, nothing, { nonce: 2 });
  assert.ok(again.every((x) => !seen.some((s) => s[2] === x)));
});

test('a function that caches its result for repeated arguments gains nothing and is still checked', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  let computed = 0;
  const cache = new Map();
  const caching = (a, b, n) => {
    const key = `${n}:${a[0]}:${b[0]}`;
    if (!cache.has(key)) {
      computed++;
      cache.set(key, fn(a, b, n));
    }
    return cache.get(key);
  };
  const result = runBenchmark(delegating(caching), 'matmul', spec, nothing, { nonce: 3 });
  assert.equal(computed, 1 + spec.rounds); // no call was answered from the cache
  assert.ok(result.value.max_abs_difference < 1e-12);
});

test('a result that is right in the warm-up and stale afterwards is caught', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  let first = null;
  const stale = (a, b, n) => (first ??= fn(a, b, n));
  const result = runBenchmark(delegating(stale), 'matmul', spec, nothing, { nonce: 4 });
  assert.ok(result.value.max_abs_difference > 0.01, JSON.stringify(result));
});

test('a result whose values are computed when read is read inside the timed window', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  let t = 0;
  const clock = () => t;
  const lazy = (a, b, n) => new Proxy(new Array(n * n).fill(0), {
    get(target, key) {
      if (key === 'length') return n * n;
      if (typeof key === 'string' && /^\d+$/.test(key)) {
        t += 1; // each value read costs 1 ms of the fake clock
        const i = Number(key);
        const row = Math.floor(i / n);
        const col = i % n;
        let s = 0;
        for (let k = 0; k < n; k++) s += a[row * n + k] * b[k * n + col];
        return s;
      }
      return target[key];
    },
  });
  const result = runBenchmark(delegating(lazy), 'matmul', spec, clock, { nonce: 5 });
  assert.deepEqual(result.value.student_ms, Array(spec.rounds).fill(144)); // every one of the n·n reads was timed
  assert.ok(result.value.max_abs_difference < 1e-12);
  assert.equal(fn.length, 3);
});

test('inputs do not depend on globals the student\'s code can replace', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  const imul = Math.imul;
  const F64 = globalThis.Float64Array;
  const before = [];
  runBenchmark(delegating((a, b, n) => (before.push(a[0]), fn(a, b, n))), 'matmul', spec, nothing, { nonce: 6 });
  const after = [];
  try {
    Math.imul = () => 0;
    runBenchmark(delegating((a, b, n) => (after.push(a[0]), fn(a, b, n))), 'matmul', spec, nothing, { nonce: 6 });
  } finally {
    Math.imul = imul;
    globalThis.Float64Array = F64;
  }
  assert.deepEqual(after, before);
});

test('patched prototypes do not reach the timings or the stored results', () => {
  const fn = new Function(`${ikj}; return matmul;`)();
  const saved = {
    sort: Array.prototype.sort,
    forEach: Array.prototype.forEach,
    iterator: Array.prototype[Symbol.iterator],
  };
  let seenByForEach = 0;
  const code = `${ikj}
Array.prototype.sort = function () { return [0, 0, 0]; };
const forEach = Array.prototype.forEach;
Array.prototype.forEach = function (...args) { globalThis.__seen = (globalThis.__seen ?? 0) + 1; return forEach.apply(this, args); };
Object.defineProperty(Array.prototype, '0', { set(v) { if (v && v.value) v.value.student_ms = [0.001]; }, configurable: true });
`;
  let results;
  try {
    results = runStudentTests({
      code,
      functionName: 'matmul',
      tests: [{ name: 'timed', args: [], benchmark: spec }],
      now: scriptedClock([1, 1, 10, 5, 5, 10, 10, 5, 5, 10, 10, 5]),
    });
    seenByForEach = globalThis.__seen ?? 0;
  } finally {
    Array.prototype.sort = saved.sort;
    Array.prototype.forEach = saved.forEach;
    delete Array.prototype[0];
    delete globalThis.__seen;
  }
  assert.equal(seenByForEach, 0);
  assert.deepEqual(results[0].value.student_ms, [10, 10, 10, 10, 10]);
  assert.deepEqual(results[0].value.reference_ms, [5, 5, 5, 5, 5]);
  assert.equal(fn.length, 3);
  assert.equal(saved.iterator, Array.prototype[Symbol.iterator]);
});

test('the timed loop reads only its own records: a getter on Object.prototype never answers for the plan', () => {
  // `reference.studentArgs` of a reference that has none used to go on to Object.prototype.
  const code = `${ikj}
Object.defineProperty(Object.prototype, 'studentArgs', { get() { throw new Error('the runner asked Object.prototype'); }, configurable: true });`;
  let results;
  try {
    results = runStudentTests({ code, functionName: 'matmul', tests: [{ name: 'timed', args: [], benchmark: spec }], now: nothing });
  } finally {
    delete Object.prototype.studentArgs;
  }
  assert.ok(results[0].value, JSON.stringify(results[0]));
});

test('the reference side is the one given: its rounds interleave with the student\'s, its results checked after timing', () => {
  const calls = [];
  const own = referenceSide('matmul-ijk', spec.n, undefined, nothing);
  const sideOf = (...args) => {
    calls.push(['side', ...args.slice(0, 3)]);
    return (callSeed) => {
      calls.push(['reference', callSeed]);
      return own(callSeed);
    };
  };
  const delegate = `${ikj.replace('function matmul(a, b, n) {', 'function product(a, b, n) {')}
function matmul(a, b, n) { console.log('student'); return product(a, b, n); }`;
  const order = [];
  const studentConsole = { log: () => order.push(calls.length) };
  const result = runBenchmark(delegate, 'matmul', spec, nothing, { nonce: 9, console: studentConsole, referenceSide: sideOf });
  assert.equal(result.value?.max_abs_difference, 0, JSON.stringify(result));
  assert.deepEqual(calls[0], ['side', 'matmul-ijk', spec.n, undefined]);
  const seeds = calls.slice(1).map((c) => c[1]);
  assert.deepEqual(seeds, Array.from({ length: spec.rounds + 1 }, (_, r) => benchmarkSeed(spec.seed, 9, r)));
  // Warm-up: reference first; then the student first in even rounds, the reference in odd ones.
  assert.deepEqual(order, [2, 2, 4, 4, 6, 6]);
  // A wrong reference result is the student's difference, seen after both sides are timed.
  const skewed = () => (callSeed) => {
    const r = own(callSeed);
    r.result[0] += 1;
    return r;
  };
  assert.equal(runBenchmark(ikj, 'matmul', spec, nothing, { nonce: 9, referenceSide: skewed }).value.max_abs_difference, 1);
});

test('freezeIntrinsics freezes what the reference goes through, in the realm of the runner that calls it', async () => {
  // The runner's modules as the command line loads them into a context of their own.
  const { default: vm } = await import('node:vm');
  const { runnerModules, runnerSource } = await import('../../tools/grading/code-worker.mjs');
  const dir = new URL('../../web/src/lab/', import.meta.url);
  const context = vm.createContext({});
  const runner = vm.runInContext(runnerSource(runnerModules((file) => readFileSync(new URL(file, dir), 'utf8'))), context);
  const names = runner.freezeIntrinsics();
  for (const name of ['%TypedArray%', 'Float64Array', 'Uint32Array', 'ArrayBuffer', 'DataView']) assert.ok(names.includes(name), names.join());
  assert.equal(vm.runInContext(`'use strict';
    let thrown = '';
    try { Object.defineProperty(Object.getPrototypeOf(Float64Array.prototype), 'length', { get() { return 0; } }); } catch (e) { thrown = e.name; }
    [thrown, Object.isFrozen(Float64Array.prototype), Object.isFrozen(ArrayBuffer.prototype), new Float64Array(3).length].join()`, context), 'TypeError,true,true,3');
  assert.ok(!Object.isFrozen(Float64Array.prototype)); // this realm is untouched
});
