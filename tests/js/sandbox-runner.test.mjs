// Protects what the student-code sandbox reports to the grader: one {value} or {error} per
// test, in order, with error texts like "TypeError: ..."; fresh arguments per test; values
// JSON cannot carry reported instead of silently changed; console output captured. Also the
// main-thread runner's time limit and per-test bookkeeping, with a fake Worker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusedCode } from '../../web/src/lab/sandbox-parse.js';
import { MAX_LOG_LINES, errorText, resultOf, runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { SandboxStoppedError, runInSandbox } from '../../web/src/lab/sandbox.js';

const medianTests = [
  { name: 'odd length', args: [[3, 1, 2]] },
  { name: 'even length', args: [[4, 1, 3, 2]] },
  { name: 'one value', args: [[7]] },
];
const correctMedian = `
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}`;

test('a correct function returns one value per test, in order', () => {
  const heard = [];
  const results = runStudentTests({
    code: correctMedian,
    functionName: 'median',
    tests: medianTests,
    onResult: (i, r) => heard.push([i, r]),
  });
  assert.deepEqual(results, [{ value: 2 }, { value: 2.5 }, { value: 7 }]);
  assert.deepEqual(heard, [[0, { value: 2 }], [1, { value: 2.5 }], [2, { value: 7 }]]);
});

test('arrow functions and const declarations define the function too', () => {
  const results = runStudentTests({ code: 'const median = (xs) => xs.length;', functionName: 'median', tests: medianTests });
  assert.deepEqual(results, [{ value: 3 }, { value: 4 }, { value: 1 }]);
});

test('each test gets fresh arguments even when the code sorts in place', () => {
  const tests = [
    { name: 'a', args: [[3, 1, 2]] },
    { name: 'b', args: [[3, 1, 2]] },
  ];
  const code = 'function first(xs) { const f = xs[0]; xs.sort(); return f; }';
  assert.deepEqual(runStudentTests({ code, functionName: 'first', tests }), [{ value: 3 }, { value: 3 }]);
  assert.deepEqual(tests[0].args, [[3, 1, 2]]);
});

test('a thrown error is reported per test as "Name: message" and later tests still run', () => {
  const code = 'function median(xs) { if (xs.length === 1) return xs[0]; return xs.nope.length; }';
  const results = runStudentTests({ code, functionName: 'median', tests: medianTests });
  assert.equal(results.length, 3);
  assert.match(results[0].error, /^TypeError: /);
  assert.match(results[1].error, /^TypeError: /);
  assert.deepEqual(results[2], { value: 7 });
});

test('a syntax error or a missing function fails every test with the reason', () => {
  const syntax = runStudentTests({ code: 'function median(xs) { return ', functionName: 'median', tests: medianTests });
  assert.equal(syntax.length, 3);
  for (const r of syntax) assert.match(r.error, /^SyntaxError: /);
  const missing = runStudentTests({ code: 'function mean(xs) { return 0; }', functionName: 'median', tests: medianTests });
  assert.deepEqual(missing, Array(3).fill({ error: 'ReferenceError: your code must define a function named median' }));
  const notFn = runStudentTests({ code: 'const median = 5;', functionName: 'median', tests: medianTests });
  assert.deepEqual(notFn[0], { error: 'ReferenceError: your code must define a function named median' });
  const topLevelThrow = runStudentTests({ code: 'null.x; function median() {}', functionName: 'median', tests: medianTests });
  assert.match(topLevelThrow[0].error, /^TypeError: /);
});

test('an invalid function name from the exercise is an error, never code injection', () => {
  const results = runStudentTests({ code: '', functionName: 'x; alert(1)', tests: [{ name: 't', args: [] }] });
  assert.deepEqual(results, [{ error: 'Error: the exercise names no valid function (got "x; alert(1)")' }]);
});

test('values JSON cannot carry are reported, not silently changed', () => {
  assert.deepEqual(resultOf(undefined), { error: 'The function returned undefined: is a return statement missing?' });
  assert.deepEqual(resultOf(NaN), { error: 'the return value is NaN' });
  assert.deepEqual(resultOf([1, Infinity]), { error: 'the return value[1] is Infinity' });
  assert.deepEqual(resultOf({ a: [undefined] }), { error: 'the return value.a[0] is undefined' });
  assert.deepEqual(resultOf(() => 1), { error: 'the return value is a function, not a value' });
  assert.deepEqual(resultOf(3n), { error: 'the return value is a BigInt (3n); return a Number' });
  assert.deepEqual(resultOf(Promise.resolve(1)), { error: 'the return value is a Promise; return the value itself (no async)' });
  assert.deepEqual(resultOf(new Float64Array([1.5, 2])), { value: [1.5, 2] });
  assert.deepEqual(resultOf({ m: 2, xs: [1, 'a', null, true] }), { value: { m: 2, xs: [1, 'a', null, true] } });
  assert.deepEqual(resultOf(null), { value: null });
});

test('thrown non-Errors are described', () => {
  assert.equal(errorText(new RangeError('too deep')), 'RangeError: too deep');
  assert.equal(errorText('boom'), 'Uncaught "boom" (a thrown value that is not an Error)');
  assert.equal(errorText(42), 'Uncaught 42 (a thrown value that is not an Error)');
  assert.equal(errorText(Object.create(null)), 'Uncaught [object Object] (a thrown value that is not an Error)');
});

test('unbounded recursion is a RangeError for that test, not a crash', () => {
  const results = runStudentTests({ code: 'function f(n) { return f(n + 1); }', functionName: 'f', tests: [{ name: 't', args: [0] }] });
  assert.match(results[0].error, /^RangeError: /);
});

test('console output is captured and capped', () => {
  const lines = [];
  runStudentTests({
    code: 'function f(x) { console.log("x is", x, {a: 1}); return x; }',
    functionName: 'f',
    tests: [{ name: 't', args: [5] }],
    onLog: (l) => lines.push(l),
  });
  assert.deepEqual(lines, ['x is 5 {"a":1}']);
  const many = [];
  runStudentTests({
    code: 'function f() { for (let i = 0; i < 1000; i++) console.log(i); return 1; }',
    functionName: 'f',
    tests: [{ name: 't', args: [] }],
    onLog: (l) => many.push(l),
  });
  assert.equal(many.length, MAX_LOG_LINES);
  assert.equal(many.at(-1), `… more output was cut after ${MAX_LOG_LINES} lines`);
});

// A stand-in for Worker that runs the real runner and replies through the port it was handed,
// or hangs like an infinite loop would; `forge` also posts on the worker's own channel, as
// student code calling self.postMessage would.
class FakeWorker {
  constructor({ hangAfter = Infinity, failToLoad = false, forge = false } = {}) {
    this.hangAfter = hangAfter;
    this.failToLoad = failToLoad;
    this.forge = forge;
    this.terminated = false;
  }
  postMessage(data, transfer) {
    setTimeout(() => {
      if (this.failToLoad) {
        this.onerror?.({ message: 'SyntaxError: bad module' });
        return;
      }
      const [port] = transfer;
      const send = (msg) => !this.terminated && port.postMessage(msg);
      if (this.forge) {
        this.onmessage?.({ data: { type: 'result', index: 0, result: { value: 123 } } });
        this.onmessage?.({ data: { type: 'done' } });
      }
      send({ type: 'started' });
      let n = 0;
      runStudentTests({
        code: data.code,
        functionName: data.function_name,
        tests: data.tests.slice(0, this.hangAfter),
        onResult: (index, result) => (n++, send({ type: 'result', index, result })),
        onLog: (line) => send({ type: 'log', line }),
      });
      if (n >= data.tests.length) send({ type: 'done' });
    }, 1);
  }
  terminate() {
    this.terminated = true;
  }
}

test('the runner resolves with every result and terminates the worker', async () => {
  const worker = new FakeWorker();
  const run = await runInSandbox({
    code: correctMedian + '\nconsole.log("hi")',
    functionName: 'median',
    tests: medianTests,
    timeLimitMs: 1000,
    createWorker: () => worker,
  });
  assert.deepEqual(run.results, [{ value: 2 }, { value: 2.5 }, { value: 7 }]);
  assert.deepEqual(run.logs, ['hi']);
  assert.equal(run.timed_out, false);
  assert.equal(worker.terminated, true);
});

test('only the private port is read: results posted on the worker\'s own channel are ignored', async () => {
  const worker = new FakeWorker({ forge: true });
  const run = await runInSandbox({
    code: correctMedian,
    functionName: 'median',
    tests: medianTests,
    timeLimitMs: 1000,
    createWorker: () => worker,
  });
  assert.deepEqual(run.results, [{ value: 2 }, { value: 2.5 }, { value: 7 }]);
});

test('a run past the time limit keeps finished tests and marks the rest as timeouts', async () => {
  const worker = new FakeWorker({ hangAfter: 1 });
  const run = await runInSandbox({
    code: correctMedian,
    functionName: 'median',
    tests: medianTests,
    timeLimitMs: 30,
    createWorker: () => worker,
  });
  assert.deepEqual(run.results, [{ value: 2 }, { timeout: true }, { timeout: true }]);
  assert.equal(run.timed_out, true);
  assert.equal(worker.terminated, true);
});

test('stopping a run rejects with SandboxStoppedError and terminates the worker', async () => {
  const worker = new FakeWorker({ hangAfter: 0 });
  const controller = new AbortController();
  const run = runInSandbox({
    code: correctMedian,
    functionName: 'median',
    tests: medianTests,
    timeLimitMs: 10000,
    signal: controller.signal,
    createWorker: () => worker,
  });
  setTimeout(() => controller.abort(), 10);
  await assert.rejects(run, SandboxStoppedError);
  assert.equal(worker.terminated, true);
});

test('a worker that cannot load rejects with the reason', async () => {
  await assert.rejects(
    runInSandbox({ code: '', functionName: 'f', tests: [], timeLimitMs: 100, createWorker: () => new FakeWorker({ failToLoad: true }) }),
    { message: 'The sandbox for your code could not be started: SyntaxError: bad module' },
  );
  await assert.rejects(
    runInSandbox({ code: '', functionName: 'f', tests: [], timeLimitMs: 100, createWorker: () => { throw new Error('no Worker'); } }),
    { message: 'The sandbox for your code could not be started: no Worker' },
  );
});

test('code calling import() is refused from its syntax tree, whatever spacing, comments or line terminators it uses', () => {
  for (const code of [
    'function f() { return import("https://example.com/x.js"); }',
    'function f() { return import /* c */ ("x"); }',
    'function f() { return import\n//c\n(u); }',
    // Annex B's HTML-like comment and a line comment ended by U+2028 / U+2029: a text pattern
    // missed these, the engine compiles each to import(...).
    'function f() { return import<!--\n("x"); }',
    'function f() { return import// c\u2028("x"); }',
    'function f() { return import// c\u2029("x"); }',
    'function f() { return 1; }\n-->\nconst g = () => import("x");',
  ]) {
    assert.match(refusedCode(code), /^Error: your code calls import\(\), which the sandbox does not run.*\(line \d, column \d+\)\.$/, code);
  }
  for (const code of [
    'function f(important) { return important; }',
    'const reimport = (x) => x; function f() { return obj.imports(1); }',
    'function f() { return $import(1); }',
    'const s = "import("; // import("x")\nfunction f() { return s; }',
    '/* import("x") */ function f() { return `import(${1})`; }',
  ]) {
    assert.equal(refusedCode(code), null, code);
  }
});

test('a syntax error is the student\'s, with the line and column in their code; a body that closes its function is refused', () => {
  assert.equal(refusedCode('const a = 1;\nfunction f() { return a +; }'), 'SyntaxError: Unexpected token (line 2, column 26)');
  for (const code of ['import x from "y";\nfunction f() {}', 'export function f() {}', 'function f() {\n  import<!--\n("x");\n}']) {
    assert.match(refusedCode(code), /^Error: your code uses import or export, which the sandbox does not run: .*\(line [12], column [13]\)\.$/, code);
  }
  assert.match(refusedCode('function f() { return import.meta; }'), /^SyntaxError: .*\(line 1, column \d+\)$/);
  assert.match(refusedCode('function f() {}\n}); import("x"); (function () {'), /^(SyntaxError|Error): /);
  assert.match(refusedCode('}); (function () {'), /^SyntaxError: /);
  assert.throws(() => refusedCode(42), /refusedCode takes the code and its parameters as strings, got number and string/);
});
