// Runs a student's JavaScript on a code exercise's tests: defines their function from the code,
// calls it once per test on a fresh copy of the arguments (with core's fake-clock markers turned
// into a live clock and function, see materializeArgs), and turns each outcome into what core's
// grader reads ({value} or {error: "TypeError: ..."}). Pure and synchronous, so node:test covers
// it; sandbox-worker.js runs it inside a throwaway Worker.
// Not for: time limits (an infinite loop cannot be stopped from inside; sandbox.js terminates
// the worker) or security (the code is the student's own, in their own browser).

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
export const MAX_LOG_LINES = 200;
const MAX_LOG_LINE_CHARS = 500;

/** "TypeError: xs.sort is not a function", from anything the student's code threw. */
export function errorText(e) {
  if (e instanceof Error || (e && typeof e === 'object' && 'message' in e && 'name' in e)) {
    return `${e.name || 'Error'}: ${e.message}`;
  }
  let shown;
  try {
    shown = typeof e === 'string' ? JSON.stringify(e) : String(e);
  } catch {
    shown = Object.prototype.toString.call(e);
  }
  return `Uncaught ${shown} (a thrown value that is not an Error)`;
}

/**
 * What a returned value becomes on its way to the grader (JSON): `{value}` when it survives
 * the trip unchanged, else `{error}` saying what JSON cannot carry, so "you returned
 * undefined" is reported instead of silently becoming null.
 */
export function resultOf(value) {
  const problem = unsendable(value, 'the return value');
  if (problem) return { error: problem };
  return { value: toPlain(value) };
}

function unsendable(v, path, depth = 0) {
  if (depth > 20) return `${path} is nested too deeply`;
  if (v === undefined) {
    return depth === 0
      ? 'The function returned undefined: is a return statement missing?'
      : `${path} is undefined`;
  }
  if (typeof v === 'number' && !Number.isFinite(v)) return `${path} is ${v}`;
  if (typeof v === 'function') return `${path} is a function, not a value`;
  if (typeof v === 'bigint') return `${path} is a BigInt (${v}n); return a Number`;
  if (typeof v === 'symbol') return `${path} is a Symbol`;
  if (v && typeof v.then === 'function') return `${path} is a Promise; return the value itself (no async)`;
  if (ArrayBuffer.isView(v)) return unsendable(Array.from(v), path, depth);
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const p = unsendable(v[i], `${path}[${i}]`, depth + 1);
      if (p) return p;
    }
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const p = unsendable(x, `${path}.${k}`, depth + 1);
      if (p) return p;
    }
  }
  return null;
}

function toPlain(v) {
  if (ArrayBuffer.isView(v)) return Array.from(v);
  if (Array.isArray(v)) return v.map(toPlain);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(x)]));
  return v;
}

// ---- fake clock -------------------------------------------------------------------------

/** A test description core sent is malformed: a bug in the exercise, not in the student's code. */
export class TestDescriptionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TestDescriptionError';
  }
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const shown = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));

/**
 * One test's arguments as the student's function receives them: a deep copy of the JSON, with
 * the markers documented in core's grader.hpp replaced by live objects that share one fake time
 * (in ms) per test, so timing code is graded exactly, whatever the machine:
 *
 *   {"$fake_clock": true} | {"$fake_clock": {"start_ms": 1000}}
 *       -> {now()}: the fake time (start_ms, else 0); reading it never advances it.
 *   {"$fake_fn": {"costs_ms": [c0, c1, ...]}}
 *       -> a function whose k-th call advances the fake time by c_k and returns undefined; a
 *          call past the list throws an Error.
 *
 * e.g. [{"$fake_fn": {"costs_ms": [40, 3, 5]}}, {"warmup": 1, "iterations": 2},
 *       {"$fake_clock": {"start_ms": 1000}}]
 * Throws TestDescriptionError (naming the path) for a malformed marker.
 */
export function materializeArgs(args) {
  let now_ms = 0;
  let start = null; // [path, start_ms] of the clock that set the start
  const clockOf = (spec, path) => {
    if (spec !== true && !(isPlainObject(spec) && Object.keys(spec).every((k) => k === 'start_ms'))) {
      throw new TestDescriptionError(`${path}.$fake_clock must be true or {"start_ms": number}, got ${shown(spec)}`);
    }
    const start_ms = spec === true || spec.start_ms === undefined ? 0 : spec.start_ms;
    if (!Number.isFinite(start_ms)) {
      throw new TestDescriptionError(`${path}.$fake_clock.start_ms must be a finite number, got ${shown(start_ms)}`);
    }
    if (start && start[1] !== start_ms) {
      throw new TestDescriptionError(`${path} starts the shared fake time at ${start_ms} ms, but ${start[0]} starts it at ${start[1]} ms`);
    }
    start = [path, start_ms];
    now_ms = start_ms;
    return Object.freeze({ now: () => now_ms });
  };
  const fnOf = (spec, path) => {
    const costs = isPlainObject(spec) && Object.keys(spec).length === 1 ? spec.costs_ms : undefined;
    if (!Array.isArray(costs) || !costs.every((c) => Number.isFinite(c) && c >= 0)) {
      throw new TestDescriptionError(`${path}.$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got ${shown(spec)}`);
    }
    let calls = 0;
    return function fn() {
      if (calls >= costs.length) {
        throw new Error(`fn() was called ${calls + 1} times, but this test scripts only ${costs.length} calls (warmup + iterations)`);
      }
      now_ms += costs[calls++];
    };
  };
  const walk = (v, path) => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (!isPlainObject(v)) return v;
    const keys = Object.keys(v);
    const markers = keys.filter((k) => k.startsWith('$fake_'));
    if (markers.length) {
      if (keys.length !== 1) {
        throw new TestDescriptionError(`${path} mixes the marker ${markers[0]} with other fields (${keys.join(', ')})`);
      }
      if (keys[0] === '$fake_clock') return clockOf(v.$fake_clock, path);
      if (keys[0] === '$fake_fn') return fnOf(v.$fake_fn, path);
      throw new TestDescriptionError(`${path} has the unknown marker ${keys[0]} (known: $fake_clock, $fake_fn)`);
    }
    return Object.fromEntries(keys.map((k) => [k, walk(v[k], `${path}.${k}`)]));
  };
  if (!Array.isArray(args)) throw new TestDescriptionError(`args must be an array, got ${shown(args)}`);
  return walk(args, 'args');
}

// ---- running the tests ---------------------------------------------------------------------

function formatLogArg(a) {
  if (typeof a === 'string') return a;
  try {
    return JSON.stringify(a) ?? String(a);
  } catch {
    return String(a);
  }
}

/**
 * Runs `code` on `tests` ([{name, args}]). `onResult(index, result)` hears each test as it
 * finishes (so results before a timeout are kept); `onLog(line)` hears the student's console
 * output. Returns the results array.
 */
export function runStudentTests({ code, functionName, tests, onResult = () => {}, onLog = () => {} }) {
  const results = [];
  const finish = (i, result) => {
    results[i] = result;
    onResult(i, result);
  };
  if (!IDENTIFIER.test(functionName ?? '')) {
    const error = `Error: the exercise names no valid function (got ${JSON.stringify(functionName)})`;
    tests.forEach((_, i) => finish(i, { error }));
    return results;
  }

  let logged = 0;
  const log = (...args) => {
    logged += 1;
    if (logged > MAX_LOG_LINES) return;
    if (logged === MAX_LOG_LINES) {
      onLog(`… more output was cut after ${MAX_LOG_LINES} lines`);
      return;
    }
    const line = args.map(formatLogArg).join(' ');
    onLog(line.length > MAX_LOG_LINE_CHARS ? `${line.slice(0, MAX_LOG_LINE_CHARS)}…` : line);
  };
  const studentConsole = { log, info: log, warn: log, error: log, debug: log };

  // The student's code is the body of a function whose own scope holds their declarations;
  // `console` is shadowed so their logging reaches the page.
  let fn;
  try {
    const define = new Function(
      'console',
      `${code}\n;return typeof ${functionName} === 'function' ? ${functionName} : undefined;`,
    );
    fn = define(studentConsole);
  } catch (e) {
    const error = errorText(e);
    tests.forEach((_, i) => finish(i, { error }));
    return results;
  }
  if (typeof fn !== 'function') {
    const error = `ReferenceError: your code must define a function named ${functionName}`;
    tests.forEach((_, i) => finish(i, { error }));
    return results;
  }

  tests.forEach((test, i) => {
    // A fresh copy per test (a function that sorts its input in place must not change the next
    // test's arguments), with its own fake time.
    let args;
    try {
      args = materializeArgs(test.args ?? []);
    } catch (e) {
      finish(i, { error: `Error: this test's description is invalid (${e.message}); that is a bug in the exercise, not in your code` });
      return;
    }
    let result;
    try {
      result = resultOf(fn(...args));
    } catch (e) {
      result = { error: errorText(e) };
    }
    finish(i, result);
  });
  return results;
}
