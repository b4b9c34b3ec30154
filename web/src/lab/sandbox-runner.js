// Runs a student's JavaScript on a code exercise's tests: defines their function from the code,
// calls it once per test on a fresh copy of the arguments (with core's fake-clock markers turned
// into a live clock and function, see materializeArgs), and turns each outcome into what core's
// grader reads ({value} or {error: "TypeError: ..."}). A timed test (core's `benchmark`) is
// run against a naive reference instead and answered with both medians (runBenchmark). Pure
// and synchronous, so node:test covers it; sandbox-worker.js runs it inside a throwaway Worker.
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

// ---- timed tests ---------------------------------------------------------------------------

// A seeded generator for benchmark inputs (mulberry32): the same seed gives the same matrices
// in every browser, so a student's run is reproducible.
function seededRandom(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = Math.imul(t ^ (t >>> 15), 1 | t);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The references a timed test (core's `benchmark` object, grader.hpp) may name: how to build
 * the arguments, the naive function the student's is timed against, and how far two results
 * are apart (or a sentence when the student's result has the wrong shape).
 */
export const BENCHMARK_REFERENCES = Object.freeze({
  'matmul-ijk': {
    args({ n, seed }) {
      const random = seededRandom(seed);
      const a = new Float64Array(n * n);
      const b = new Float64Array(n * n);
      for (let i = 0; i < n * n; i++) a[i] = random() * 2 - 1;
      for (let i = 0; i < n * n; i++) b[i] = random() * 2 - 1;
      return [a, b, n];
    },
    // The textbook order: the inner loop reads b down a column, n·8 bytes apart.
    run(a, b, n) {
      const c = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          for (let k = 0; k < n; k++) sum += a[i * n + k] * b[k * n + j];
          c[i * n + j] = sum;
        }
      }
      return c;
    },
    difference(expected, got, [, , n]) {
      const length = got?.length;
      if (!(Array.isArray(got) || ArrayBuffer.isView(got)) || length !== n * n) {
        return `at N = ${n} your function returned ${describeReturn(got)}, not an array of n·n = ${n * n} numbers`;
      }
      let max = 0;
      for (let i = 0; i < length; i++) {
        const d = Math.abs(got[i] - expected[i]);
        if (!(d <= max)) max = d; // NaN too: it never compares below
      }
      return Number.isFinite(max) ? max : `at N = ${n} your result holds a value that is not a finite number`;
    },
  },
});

function describeReturn(v) {
  if (v === undefined) return 'undefined';
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return `an array of ${v.length} values`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`;
}

const medianOf = (values) => {
  const s = [...values].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/**
 * Runs one timed test: builds the reference's arguments, warms both functions up (which also
 * gives the result to compare), then times the student's function and the reference in
 * `rounds` interleaved rounds, alternating which goes first so drift (a busy tab, frequency
 * scaling) hits both alike. Returns what core grades: {value: {student_median_ms,
 * reference_median_ms, rounds, max_abs_difference}} or {error}. core applies the speed rule.
 */
export function runBenchmark(fn, spec, now = () => performance.now()) {
  const reference = BENCHMARK_REFERENCES[spec?.reference];
  const { n, rounds, seed } = spec ?? {};
  if (!reference || !Number.isInteger(n) || n < 1 || n > 2048 || !Number.isInteger(rounds) || rounds < 1 || rounds > 50 || !Number.isInteger(seed)) {
    throw new TestDescriptionError(
      `benchmark must be {reference: one of ${Object.keys(BENCHMARK_REFERENCES).join(', ')}, n: 1..2048, rounds: 1..50, seed: integer}, got ${shown(spec)}`,
    );
  }
  const args = reference.args({ n, seed });
  const expected = reference.run(...args);
  let got;
  try {
    got = fn(...args);
  } catch (e) {
    return { error: errorText(e) };
  }
  const difference = reference.difference(expected, got, args);
  if (typeof difference === 'string') return { error: difference };

  const student = [];
  const naive = [];
  const time = (f, into) => {
    const start = now();
    f(...args);
    into.push(now() - start);
  };
  try {
    for (let r = 0; r < rounds; r++) {
      if (r % 2 === 0) {
        time(fn, student);
        time(reference.run, naive);
      } else {
        time(reference.run, naive);
        time(fn, student);
      }
    }
  } catch (e) {
    return { error: errorText(e) };
  }
  return {
    value: {
      student_median_ms: medianOf(student),
      reference_median_ms: medianOf(naive),
      rounds,
      max_abs_difference: difference,
    },
  };
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
export function runStudentTests({ code, functionName, tests, onResult = () => {}, onLog = () => {}, now }) {
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
    if (test.benchmark !== undefined) {
      let result;
      try {
        result = runBenchmark(fn, test.benchmark, now);
      } catch (e) {
        result = { error: `Error: this test's description is invalid (${e.message}); that is a bug in the exercise, not in your code` };
      }
      finish(i, result);
      return;
    }
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
