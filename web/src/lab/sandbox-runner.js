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
// functions the timed path calls are captured below when the module loads (before any student
// code exists), the tests are read into the runner's own records before the code runs, and
// once it has started, the loop over the tests, the timed path and the storing of results
// call no method that goes through a prototype the code can patch (no forEach, push, sort,
// spread). Copying a test's arguments and the returned value may (the student's own data
// only; patching them changes nothing but that test's result).
// Not for: time limits (an infinite loop cannot be stopped from inside; sandbox.js terminates
// the worker) or removing the worker's network and storage APIs (sandbox-lockdown.js).

// Captured while only this module's code has run.
const FunctionConstructor = Function;
const Float64ArrayConstructor = Float64Array;
const Uint32ArrayConstructor = Uint32Array;
const ArrayIsArray = Array.isArray;
const ArrayBufferIsView = ArrayBuffer.isView;
const MathImul = Math.imul;
const ObjectDefineProperty = Object.defineProperty;
const ObjectHasOwn = Object.hasOwn;
const ReflectApply = Reflect.apply;
const capturedNow = typeof performance === 'object' && typeof performance.now === 'function'
  ? performance.now.bind(performance)
  : Date.now;
const capturedRandomValues = typeof crypto === 'object' && typeof crypto.getRandomValues === 'function'
  ? crypto.getRandomValues.bind(crypto)
  : null;

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
// in every browser.
function seededRandom(seed) {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let x = MathImul(t ^ (t >>> 15), 1 | t);
    x = (x + MathImul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of one call's inputs in a timed test: the test's seed, the run's nonce and the
 * call's number mixed (murmur3's finalizer), so no two calls of a run see the same inputs and
 * a run's inputs cannot be known before it starts (the nonce is drawn then), which leaves
 * nothing to cache or precompute. A 32-bit unsigned integer.
 */
export function benchmarkSeed(seed, nonce, call) {
  let h = (seed >>> 0) ^ MathImul(nonce >>> 0, 0x9e3779b1) ^ MathImul((call + 1) >>> 0, 0x85ebca77);
  h = MathImul(h ^ (h >>> 16), 0x85ebca6b);
  h = MathImul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A fresh 32-bit nonce from the platform's random source (crypto), captured at load. */
export function freshNonce() {
  if (capturedRandomValues) return capturedRandomValues(new Uint32ArrayConstructor(1))[0];
  return (capturedNow() * 1000) >>> 0;
}

// ---- compiling ---------------------------------------------------------------------------

let compiles = 0;

/**
 * The one way the runner turns source text into a function, for the student's code and for a
 * timed test's reference alike: `code` becomes the body of a function made by the Function
 * constructor, whose parameters are `parameters` (one string, "console, Float64Array") bound
 * to `values`, and which returns the function named `functionName` that the code declares
 * (undefined when it declares none). Every call compiles afresh: a numbered comment makes each
 * text unique, so the engine's cache of compiled source cannot hand back a function that
 * carries an earlier compile's type feedback or optimized code. Throws what compiling or the
 * code's top level throws.
 */
export function compileFunction(code, functionName, parameters, values) {
  compiles += 1;
  const define = new FunctionConstructor(
    parameters,
    `${code}\n;return typeof ${functionName} === 'function' ? ${functionName} : undefined;\n// compile ${compiles}`,
  );
  return ReflectApply(define, undefined, values);
}

/**
 * The references a timed test (core's `benchmark` object, grader.hpp) may name: how to build
 * one call's arguments from a seed, the naive function the student's is timed against (its
 * `source`, compiled by compileFunction exactly as the student's code is), and the length of
 * a result. Only captured constructors are used (the reference's `Float64Array` is a
 * parameter bound to the captured one), so the student's code cannot change the inputs or
 * slow the reference down by patching globals.
 */
export const BENCHMARK_REFERENCES = Object.freeze({
  'matmul-ijk': Object.freeze({
    args({ n, seed }) {
      const random = seededRandom(seed);
      const a = new Float64ArrayConstructor(n * n);
      const b = new Float64ArrayConstructor(n * n);
      for (let i = 0; i < n * n; i++) a[i] = random() * 2 - 1;
      for (let i = 0; i < n * n; i++) b[i] = random() * 2 - 1;
      return [a, b, n];
    },
    // The textbook order, character for character the exercise's starter code: the inner loop
    // reads b down a column, n·8 bytes apart.
    functionName: 'matmul',
    source: `function matmul(a, b, n) {
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum += a[i * n + k] * b[k * n + j];
      c[i * n + j] = sum;
    }
  }
  return c;
}`,
    resultLength: (n) => n * n,
    shape: (n) => `an array of n·n = ${n * n} numbers`,
  }),
});

function describeReturn(v) {
  if (v === undefined) return 'undefined';
  if (ArrayIsArray(v) || ArrayBufferIsView(v)) return `an array of ${v.length} values`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v).slice(0, 40)}`;
}

/**
 * A returned result read into the runner's own Float64Array of `length` values, or null when
 * it is not an array or typed array of that length. Called inside the timed window, so a
 * result that computes its values when they are read (a Proxy, getters) pays for it there.
 */
function takeResult(got, length) {
  if (!(ArrayIsArray(got) || ArrayBufferIsView(got)) || got.length !== length) return null;
  const copy = new Float64ArrayConstructor(length);
  for (let i = 0; i < length; i++) copy[i] = got[i];
  return copy;
}

/** The largest |x - y| over two equal-length Float64Arrays; NaN when a value is not finite. */
function maxAbsDifference(expected, got) {
  let max = 0;
  for (let i = 0; i < got.length; i++) {
    const d = got[i] - expected[i];
    if (d !== d || d === Infinity || d === -Infinity) return NaN;
    const abs = d < 0 ? -d : d;
    if (abs > max) max = abs;
  }
  return max;
}

/**
 * A benchmark description checked and copied into the runner's own record; throws
 * TestDescriptionError when it is malformed.
 */
export function benchmarkPlan(spec) {
  const reference = isPlainObject(spec) && ObjectHasOwn(BENCHMARK_REFERENCES, spec.reference)
    ? BENCHMARK_REFERENCES[spec.reference]
    : undefined;
  const { n, rounds, seed } = spec ?? {};
  if (!reference || !Number.isInteger(n) || n < 1 || n > 2048 || !Number.isInteger(rounds) || rounds < 1 || rounds > 50 || !Number.isInteger(seed)) {
    throw new TestDescriptionError(
      `benchmark must be {reference: one of ${Object.keys(BENCHMARK_REFERENCES).join(', ')}, n: 1..2048, rounds: 1..50, seed: integer}, got ${shown(spec)}`,
    );
  }
  return Object.freeze({ reference, n, rounds, seed });
}

/** A Float64Array's values as a plain array (JSON carries it), without a prototype method. */
function plainArray(values) {
  const out = [];
  for (let i = 0; i < values.length; i++) {
    ObjectDefineProperty(out, i, { value: values[i], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

const quietConsole = Object.freeze({ log() {}, info() {}, warn() {}, error() {}, debug() {} });

/**
 * Runs one timed test of `code` (the student's source text, declaring `functionName`). Both
 * sides are timed the same way: the student's function and the reference are each compiled
 * afresh from source text by compileFunction, so neither carries type feedback from another
 * call (the student's copy has not seen the plain arrays of the other tests), and both get the
 * same history: one untimed warm-up call, then `rounds` interleaved rounds, alternating which
 * goes first so drift (a busy tab, frequency scaling) hits both alike. Every call gets inputs
 * of its own, fresh from the seeded generator with a per-call seed (benchmarkSeed: the test's
 * seed and this run's nonce), every result of the student's is checked against the
 * reference's on the same inputs, and results are read inside the timed window. Returns what
 * core grades: {value: {student_ms: [...], reference_ms: [...], max_abs_difference}}, each
 * round's time of each side in ms (core takes the medians and applies the speed rule) and the
 * largest difference over every call, or {error}. `console` is the student's (their code's
 * top level is run again for the fresh copy, with console output muted while it runs).
 * Throws TestDescriptionError when `spec` is malformed; `nonce` fixes the inputs and
 * `compile` (compileFunction's signature) sees both compiles (tests).
 */
export function runBenchmark(code, functionName, spec, now = capturedNow, { nonce = freshNonce(), console = quietConsole, compile = compileFunction } = {}) {
  return runPlan(code, functionName, benchmarkPlan(spec), now, nonce, console, () => {}, compile);
}

function runPlan(code, functionName, plan, now, nonce, console, muteConsole, compile = compileFunction) {
  const { reference, n, rounds, seed } = plan;
  let fn;
  muteConsole(true);
  try {
    fn = compile(code, functionName, 'console', [console]);
  } catch (e) {
    return { error: errorText(e) };
  } finally {
    muteConsole(false);
  }
  if (typeof fn !== 'function') {
    return { error: `ReferenceError: your code must define a function named ${functionName}` };
  }
  const referenceFn = compile(reference.source, reference.functionName, 'console, Float64Array', [quietConsole, Float64ArrayConstructor]);
  const length = reference.resultLength(n);
  const studentMs = new Float64ArrayConstructor(rounds);
  const referenceMs = new Float64ArrayConstructor(rounds);
  let worst = 0;
  for (let r = -1; r < rounds; r++) {
    const callSeed = benchmarkSeed(seed, nonce, r + 1);
    const mine = reference.args({ n, seed: callSeed });
    const theirs = reference.args({ n, seed: callSeed });

    let got = null;
    let studentStart = 0;
    let studentEnd = 0;
    const timeStudent = () => {
      studentStart = now();
      const out = fn(mine[0], mine[1], mine[2]);
      got = takeResult(out, length);
      studentEnd = now();
      if (got === null) return `at N = ${n} your function returned ${describeReturn(out)}, not ${reference.shape(n)}`;
      return null;
    };
    let expected = null;
    let referenceStart = 0;
    let referenceEnd = 0;
    const timeReference = () => {
      referenceStart = now();
      expected = takeResult(referenceFn(theirs[0], theirs[1], theirs[2]), length);
      referenceEnd = now();
    };

    let problem;
    try {
      if (r % 2 === 0) {
        problem = timeStudent();
        timeReference();
      } else {
        timeReference();
        problem = timeStudent();
      }
    } catch (e) {
      return { error: errorText(e) };
    }
    if (problem !== null) return { error: problem };
    const difference = maxAbsDifference(expected, got);
    if (difference !== difference) return { error: `at N = ${n} your result holds a value that is not a finite number` };
    if (difference > worst) worst = difference;
    if (r >= 0) {
      studentMs[r] = studentEnd - studentStart;
      referenceMs[r] = referenceEnd - referenceStart;
    }
  }
  return {
    value: {
      student_ms: plainArray(studentMs),
      reference_ms: plainArray(referenceMs),
      max_abs_difference: worst,
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

// `import(` (whitespace or comments allowed before the parenthesis): a dynamic import would
// load a module from anywhere. It cannot be removed from the language, and the keyword cannot
// be spelled with escapes, so code holding it is refused before it runs (eval and Function,
// which could assemble it at run time, are removed by sandbox-lockdown.js).
const DYNAMIC_IMPORT = /(?<![\w$])import(?:\s|\/\*[\s\S]*?\*\/|\/\/[^\n]*\n)*\(/;

/** Why the sandbox refuses to run `code` (a sentence), or null when it does not. */
export function refusedCode(code) {
  if (DYNAMIC_IMPORT.test(code)) {
    return 'Error: your code calls import(), which the sandbox does not run: exercises run without modules or network access. Remove the import (the word "import" followed by "(" is refused even in a comment or a string).';
  }
  return null;
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
 * output. Returns the results array.
 */
export function runStudentTests({ code, functionName, tests, onResult = () => {}, onLog = () => {}, now }) {
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
  const refusal = refusedCode(code);
  if (refusal) {
    finishAll({ error: refusal });
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
      }));
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
