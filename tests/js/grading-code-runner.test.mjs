// The command line's code runner (tools/grading/code-runner.mjs): the page's test runner in a
// fresh context per job inside worker threads; an endless loop ends at the time limit with the
// finished tests kept, a worker that does not come back is terminated and replaced, and the
// student's code sees neither Node's globals nor another job's changes. The runner's modules
// (web/src/lab/sandbox-*.js) are joined into that one script in their import order, with
// every name the page's module exports. A timed test's reference runs in a context of its own
// (a %TypedArray% getter the student patched never runs for it); code holding a dynamic
// import, however hidden, is refused, and a syntax error names its line and column.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';

import { createCodeRunner } from '../../tools/grading/code-runner.mjs';
import { runnerModules, runnerSource } from '../../tools/grading/code-worker.mjs';
import * as pageRunner from '../../web/src/lab/sandbox-runner.js';

const runner = createCodeRunner({ workers: 2, marginMs: 500 });
after(() => runner.close());
const tests = (...args) => args.map((a, i) => ({ name: `t${i}`, args: [a] }));

describe('createCodeRunner', () => {
  it('runs a function on each test and returns what core grades', async () => {
    const results = await runner.runCode({ code: 'function double(x) { return 2 * x; }', functionName: 'double', tests: tests(1, 2, 3), timeLimitMs: 2000 });
    assert.deepEqual(results, [{ value: 2 }, { value: 4 }, { value: 6 }]);
  });

  it('reports what the code threw, and a missing function', async () => {
    const thrown = await runner.runCode({ code: 'function f(x) { return x.y.z; }', functionName: 'f', tests: tests(1), timeLimitMs: 2000 });
    assert.match(thrown[0].error, /^TypeError/);
    const missing = await runner.runCode({ code: 'const g = 1;', functionName: 'f', tests: tests(1), timeLimitMs: 2000 });
    assert.match(missing[0].error, /must define a function named f/);
  });

  it('stops an endless loop at the time limit and keeps the tests that finished', async () => {
    const code = 'function f(x) { while (x === 2) {} return x; }';
    const results = await runner.runCode({ code, functionName: 'f', tests: tests(1, 2, 3), timeLimitMs: 200 });
    assert.deepEqual(results, [{ value: 1 }, { timeout: true }, { timeout: true }]);
    // The worker is still usable afterwards.
    assert.deepEqual(await runner.runCode({ code, functionName: 'f', tests: tests(5), timeLimitMs: 200 }), [{ value: 5 }]);
  });

  it('ends a blocking wait at the time limit too', async () => {
    const code = 'function f(x) { if (x === 2) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); return x; }';
    const results = await runner.runCode({ code, functionName: 'f', tests: tests(1, 2), timeLimitMs: 100 });
    assert.deepEqual(results, [{ value: 1 }, { timeout: true }]);
  });

  it('terminates a worker that has not answered by the hard timeout, keeps its finished tests and replaces it', async () => {
    // A negative margin puts the hard timeout before the worker's own limit, which is the
    // case of code the worker cannot interrupt.
    const strict = createCodeRunner({ workers: 1, marginMs: -250 });
    try {
      const code = 'function f(x) { while (x === 2) {} return x; }';
      const results = await strict.runCode({ code, functionName: 'f', tests: tests(1, 2, 3), timeLimitMs: 400 });
      assert.deepEqual(results, [{ value: 1 }, { timeout: true }, { timeout: true }]);
      assert.equal(strict.stats.hard_timeouts, 1);
      assert.equal(strict.stats.restarts, 1);
      assert.deepEqual(await strict.runCode({ code, functionName: 'f', tests: tests(7), timeLimitMs: 400 }), [{ value: 7 }]);
    } finally {
      await strict.close();
    }
  });

  it('gives the code no Node globals, not even through a constructor', async () => {
    const code = `function f() {
      const viaConstructor = [].constructor.constructor('return typeof process')();
      return [typeof process, typeof require, typeof fetch, typeof globalThis.Buffer, viaConstructor, typeof __post, typeof __runner];
    }`;
    const [result] = await runner.runCode({ code, functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
    assert.deepEqual(result, { value: Array(7).fill('undefined') });
  });

  it('runs each job in a fresh context: one job\'s changes to built-ins do not reach the next', async () => {
    const polluted = await runner.runCode({ code: 'Math.max = () => 42; globalThis.leak = 1; function f() { return Math.max(1, 2); }', functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
    assert.deepEqual(polluted, [{ value: 42 }]);
    for (let i = 0; i < 3; i++) {
      const clean = await runner.runCode({ code: 'function f() { return [Math.max(1, 2), typeof leak]; }', functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
      assert.deepEqual(clean, [{ value: [2, 'undefined'] }]);
    }
  });

  it('runs a job with a timed test alone: it waits for running jobs, and later jobs wait for it', async () => {
    const order = [];
    const slow = 'function f(x) { const t = Date.now(); while (Date.now() - t < 300) {} return x; }';
    const matmul = `function matmul(a, b, n) {
      const c = new Float64Array(n * n);
      for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) c[i * n + j] += a[i * n + k] * b[k * n + j];
      return c;
    }`;
    const timed = [{ name: 'timed', args: [], benchmark: { reference: 'matmul-ijk', n: 8, rounds: 1, seed: 3 } }];
    const a = runner.runCode({ code: slow, functionName: 'f', tests: tests(1), timeLimitMs: 5000 }).then(() => order.push('slow'));
    const b = runner.runCode({ code: matmul, functionName: 'matmul', tests: timed, timeLimitMs: 5000 }).then((r) => {
      order.push('timed');
      assert.equal(r[0].value.student_ms.length, 1, JSON.stringify(r));
      assert.equal(r[0].value.reference_ms.length, 1, JSON.stringify(r));
    });
    const c = runner.runCode({ code: 'function g() { return 1; }', functionName: 'g', tests: tests(0), timeLimitMs: 5000 }).then(() => order.push('after'));
    await Promise.all([a, b, c]);
    assert.deepEqual(order, ['slow', 'timed', 'after']);
  });

  it('times a copy of the student\'s function that has seen only the timed inputs, as the page does', async () => {
    // The copy the small tests ran on has seen plain arrays; the timed copy must not have.
    const code = `const seen = [];
function matmul(a, b, n) {
  seen.push(Object.prototype.toString.call(a));
  if (n === 8 && seen.includes('[object Array]')) throw new Error('the timed copy saw ' + seen.join(', '));
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) c[i * n + j] += a[i * n + k] * b[k * n + j];
  return c;
}`;
    const timed = { name: 'timed', args: [], benchmark: { reference: 'matmul-ijk', n: 8, rounds: 3, seed: 3 } };
    const r = await runner.runCode({ code, functionName: 'matmul', tests: [{ name: '1×1', args: [[2], [3], 1] }, timed], timeLimitMs: 5000 });
    assert.deepEqual(r[0], { value: [6] });
    assert.equal(r[1].value?.student_ms.length, 3, JSON.stringify(r[1]));
    assert.equal(r[1].value.reference_ms.length, 3);
    assert.equal(r[1].value.max_abs_difference, 0);
  });

  it('times the reference where the student\'s code cannot reach: a patched %TypedArray% getter never runs for it', async () => {
    // The naive loop with a length getter that would slow only what is not its own (here it
    // throws, so the test does not depend on timing): the reference's arrays and the runner's
    // copies of its results must never go through it.
    const code = `const TypedArray = Object.getPrototypeOf(Float64Array.prototype);
const lengthOf = Object.getOwnPropertyDescriptor(TypedArray, 'length').get;
const own = new WeakSet();
try {
  Object.defineProperty(TypedArray, 'length', {
    get() {
      if (!own.has(this)) throw new Error('the reference read a length the student controls');
      return lengthOf.call(this);
    },
    configurable: true,
  });
} catch (e) {}
function matmul(a, b, n) {
  own.add(a); own.add(b);
  const c = new Float64Array(n * n);
  own.add(c);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) { let s = 0; for (let k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j]; c[i * n + j] = s; }
  return c;
}`;
    const timed = [{ name: 'timed', args: [], benchmark: { reference: 'matmul-ijk', n: 8, rounds: 3, seed: 5 } }];
    const [result] = await runner.runCode({ code, functionName: 'matmul', tests: timed, timeLimitMs: 5000 });
    assert.equal(result.value?.max_abs_difference, 0, JSON.stringify(result));
    assert.equal(result.value.reference_ms.length, 3);
  });

  it('refuses a dynamic import however it is hidden from a text pattern, before the code runs', async () => {
    // Both compile to import("x") in a script: an HTML-like comment (Annex B) and a line
    // comment ended by U+2028, a line terminator a `//[^\\n]*\\n` pattern does not know.
    for (const code of ['function f() { return import<!--\n("x"); }', 'function f() { return import// c\u2028("x"); }']) {
      const [result] = await runner.runCode({ code, functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
      assert.match(result.error ?? '', /^Error: your code calls import\(\), which the sandbox does not run.* \(line [12], column \d+\)/, JSON.stringify(result));
    }
    // The word in a string or a comment is not a call.
    const [fine] = await runner.runCode({ code: 'const s = "import(";\n// import("x")\nfunction f() { return s; }', functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
    assert.deepEqual(fine, { value: 'import(' });
  });

  it('reports a syntax error with the line and column where the student wrote it', async () => {
    const [result] = await runner.runCode({ code: 'const a = 1;\nfunction f() { return a +; }\n', functionName: 'f', tests: tests(0), timeLimitMs: 2000 });
    assert.match(result.error ?? '', /^SyntaxError: Unexpected token \(line 2, column 26\)$/, JSON.stringify(result));
  });

  it('turns the fake-clock markers into a live clock, as the page does', async () => {
    const code = `function measure(fn, clock) { const t0 = clock.now(); fn(); fn(); return clock.now() - t0; }`;
    const results = await runner.runCode({ code, functionName: 'measure', tests: [{ name: 'a', args: [{ $fake_fn: { costs_ms: [3, 4] } }, { $fake_clock: { start_ms: 100 } }] }], timeLimitMs: 2000 });
    assert.deepEqual(results, [{ value: 7 }]);
  });
});

describe('runnerSource', () => {
  it('keeps the runner\'s top-level names private and returns its exports', () => {
    const source = runnerSource('const secret = 1;\nexport function a() { return secret; }\nexport const b = 2;\nexport class C {}\n');
    const api = new Function(`return ${source};`)();
    assert.deepEqual(Object.keys(api).sort(), ['C', 'a', 'b']);
    assert.equal(api.a(), 1);
    assert.equal(typeof globalThis.secret, 'undefined');
  });

  it('refuses a runner that imports something, rather than half-loading it', () => {
    assert.throws(() => runnerSource("import { x } from './y.js';\nexport const a = x;"), /import or an export list/);
  });
});

describe('runnerModules', () => {
  const fromFiles = (files) => (name) => {
    if (!Object.hasOwn(files, name)) throw new Error(`no file ${name}`);
    return files[name];
  };

  it('places each module after the siblings it imports, without import or re-export lines', () => {
    const text = runnerModules(fromFiles({
      'main.js': "import { b } from './b.js';\nimport {\n  a,\n} from './a.js';\nexport { a } from './a.js';\nexport function main() { return a + b; }\n",
      'b.js': "import { a } from './a.js';\nexport const b = a + 1;\n",
      'a.js': 'const hidden = 1;\nexport const a = hidden;\n',
    }), 'main.js');
    assert.deepEqual([...text.matchAll(/^\/\/ ---- (\S+)/gm)].map((m) => m[1]), ['a.js', 'b.js', 'main.js']);
    assert.doesNotMatch(text, /^\s*(import|export)\s*\{/m);
    const api = new Function(`return ${runnerSource(text)};`)();
    assert.equal(api.main(), 3);
  });

  it('refuses what one script cannot hold: renamed imports, missing exports, circles, a name declared twice', () => {
    assert.throws(() => runnerModules(fromFiles({ 'm.js': "import { a as x } from './a.js';\n", 'a.js': 'export const a = 1;\n' }), 'm.js'),
      /m\.js imports "a as x" from a\.js; the runner.s modules link plain names only/);
    assert.throws(() => runnerModules(fromFiles({ 'm.js': "import { b } from './a.js';\n", 'a.js': 'const b = 1;\n' }), 'm.js'),
      /m\.js imports b from a\.js, which does not declare it as an export/);
    assert.throws(() => runnerModules(fromFiles({ 'm.js': "import { a } from './a.js';\nexport const m = 1;\n", 'a.js': "import { m } from './m.js';\nexport const a = 1;\n" }), 'm.js'),
      /import each other in a circle through m\.js/);
    assert.throws(() => runnerModules(fromFiles({ 'm.js': "import { a } from './a.js';\nfunction helper() {}\n", 'a.js': 'function helper() {}\nexport const a = 1;\n' }), 'm.js'),
      /helper is declared in both a\.js and m\.js/);
  });

  it('gives the command line every name the page’s runner exports, running the same tests the same way', () => {
    const dir = new URL('../../web/src/lab/', import.meta.url);
    const cli = new Function(`return ${runnerSource(runnerModules((file) => readFileSync(new URL(file, dir), 'utf8')))};`)();
    for (const name of Object.keys(pageRunner)) assert.equal(typeof cli[name], typeof pageRunner[name], name);
    const job = {
      code: 'function measure(fn, clock) { const t0 = clock.now(); fn(); return [clock.now() - t0, undefined]; }',
      functionName: 'measure',
      tests: [{ args: [{ $fake_fn: { costs_ms: [5] } }, { $fake_clock: { start_ms: 10 } }] }, { args: [{ $fake_clock: 'x' }] }],
    };
    assert.deepEqual(cli.runStudentTests(job), pageRunner.runStudentTests(job));
  });
});
