// Runs a student's JavaScript on a code exercise's tests: defines their function from the code,
// calls it once per test on a fresh copy of the arguments (with core's fake-clock markers turned
// into a live clock and function, see materializeArgs), and turns each outcome into what core's
// grader reads ({value} or {error: "TypeError: ..."}). A timed test (core's `benchmark`) is
// run against a naive reference instead and answered with every round's time of both
// (runBenchmark). Pure and synchronous, so node:test covers it; sandbox-worker.js runs it
// inside a throwaway Worker, tools/grading/code-worker.mjs in a node:vm context.
//
// The student's code runs in the same realm as this module, so once it has started nothing the
// runner relies on may be reachable or replaceable from it: the clock, the constructors and the
// functions the timed path calls are captured when sandbox-intrinsics.js loads (before any
// student code exists), the tests are read into the runner's own records before the code runs, and
// once it has started, the loop over the tests, the timed path and the storing of results
// call no method that goes through a prototype the code can patch (no forEach, push, sort,
// spread). Copying a test's arguments and the returned value may (the student's own data
// only; patching them changes nothing but that test's result).
// Not for: time limits (an infinite loop cannot be stopped from inside; sandbox.js terminates
// the worker), removing the worker's network and storage APIs (sandbox-lockdown.js) or
// refusing a dynamic import (sandbox-parse.js: its callers check the code before this runs).
//
// Split by job, each module importing only its siblings by name (the command line evaluates
// them together as one script: tools/grading/code-worker.mjs's runnerModules):
// sandbox-intrinsics.js (the captured built-ins and compileFunction), sandbox-values.js
// (results and errors as data), sandbox-fake-clock.js (materializeArgs) and
// sandbox-benchmark.js (timed tests); this module runs the tests and re-exports the rest.

import { ObjectDefineProperty, ObjectHasOwn, capturedNow, compileFunction } from './sandbox-intrinsics.js';
import { errorText, isPlainObject, resultOf } from './sandbox-values.js';
import { materializeArgs } from './sandbox-fake-clock.js';
import { benchmarkPlan, freshNonce, referenceSide, runPlan } from './sandbox-benchmark.js';

export { BENCHMARK_REFERENCES, benchmarkPlan, benchmarkSeed, freshNonce, referenceSide, runBenchmark } from './sandbox-benchmark.js';
export { compileFunction, freezeIntrinsics } from './sandbox-intrinsics.js';
export { materializeArgs } from './sandbox-fake-clock.js';
export { TestDescriptionError, errorText, resultOf } from './sandbox-values.js';

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
export const MAX_LOG_LINES = 200;
const MAX_LOG_LINE_CHARS = 500;

// ---- running the tests ---------------------------------------------------------------------

function formatLogArg(a) {
  if (typeof a === 'string') return a;
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}

const invalidTest = (e) => ({
  error: `Error: this test's description is invalid (${e.message}); that is a bug in the exercise, not in your code`,
});

/**
 * The tests read into the runner's own records before the student's code runs: per test,
 * {kind: 'benchmark', benchmark: plan}, {kind: 'args', args} or {kind: 'error', error: result}
 * (every field own, so a getter on Object.prototype cannot answer for one).
 */
function planTests(tests) {
  const plans = [];
  for (let i = 0; i < tests.length; i++) {
    const test = tests[i];
    const benchmark = isPlainObject(test) && ObjectHasOwn(test, 'benchmark') ? test.benchmark : undefined;
    if (benchmark !== undefined) {
      try {
        plans[i] = { kind: 'benchmark', benchmark: benchmarkPlan(benchmark), args: null, error: null };
      } catch (e) {
        plans[i] = { kind: 'error', benchmark: null, args: null, error: invalidTest(e) };
      }
    } else {
      const args = isPlainObject(test) && ObjectHasOwn(test, 'args') ? test.args : [];
      plans[i] = { kind: 'args', benchmark: null, args, error: null };
    }
  }
  return plans;
}

/**
 * Runs `code` on `tests` ([{name, args}]). `onResult(index, result)` hears each test as it
 * finishes (so results before a timeout are kept); `onLog(line)` hears the student's console
 * output; `referenceSide` gives a timed test its reference (sandbox-benchmark.js's, by default
 * in this realm; the command line passes one from a realm of its own). Returns the results array.
 */
export function runStudentTests({ code, functionName, tests, onResult = () => {}, onLog = () => {}, now, referenceSide: sideOf = referenceSide }) {
  const results = [];
  const count = tests.length;
  // Reported before it is stored, and stored without [[Set]], so a setter the student's code
  // put on Array.prototype never sees a result.
  const finish = (i, result) => {
    onResult(i, result);
    ObjectDefineProperty(results, i, { value: result, writable: true, enumerable: true, configurable: true });
  };
  const finishAll = (result) => {
    for (let i = 0; i < count; i++) finish(i, result);
  };
  if (!IDENTIFIER.test(functionName ?? '')) {
    finishAll({ error: `Error: the exercise names no valid function (got ${JSON.stringify(functionName)})` });
    return results;
  }
  const plans = planTests(tests);

  let logged = 0;
  let muted = false;
  const log = (...args) => {
    if (muted) return;
    logged += 1;
    if (logged > MAX_LOG_LINES) return;
    if (logged === MAX_LOG_LINES) {
      onLog(`… more output was cut after ${MAX_LOG_LINES} lines`);
      return;
    }
    let line = '';
    for (let i = 0; i < args.length; i++) line += (i ? ' ' : '') + formatLogArg(args[i]);
    onLog(line.length > MAX_LOG_LINE_CHARS ? `${line.slice(0, MAX_LOG_LINE_CHARS)}…` : line);
  };
  const studentConsole = { log, info: log, warn: log, error: log, debug: log };

  // The student's code is the body of a function whose own scope holds their declarations;
  // `console` is shadowed so their logging reaches the page. Only the function they define
  // leaves that scope; the runner's variables are not in it.
  let fn;
  try {
    fn = compileFunction(code, functionName, 'console', [studentConsole]);
  } catch (e) {
    finishAll({ error: errorText(e) });
    return results;
  }
  if (typeof fn !== 'function') {
    finishAll({ error: `ReferenceError: your code must define a function named ${functionName}` });
    return results;
  }

  for (let i = 0; i < count; i++) {
    const plan = plans[i];
    if (plan.kind === 'error') {
      finish(i, plan.error);
      continue;
    }
    if (plan.kind === 'benchmark') {
      // Timed on a copy of its own, compiled like the reference (runPlan); the output of its
      // top level, already shown once, is not repeated.
      finish(i, runPlan(code, functionName, plan.benchmark, now ?? capturedNow, freshNonce(), studentConsole, (on) => {
        muted = on;
      }, compileFunction, sideOf));
      continue;
    }
    // A fresh copy per test (a function that sorts its input in place must not change the next
    // test's arguments), with its own fake time.
    let args;
    try {
      args = materializeArgs(plan.args);
    } catch (e) {
      finish(i, invalidTest(e));
      continue;
    }
    let result;
    try {
      result = resultOf(fn(...args));
    } catch (e) {
      result = { error: errorText(e) };
    }
    finish(i, result);
  }
  return results;
}
