// Timed tests (core's `benchmark`, grader.hpp): the student's function against a naive
// reference on fresh seeded inputs, both compiled by compileFunction and timed the same way
// in interleaved rounds, every result checked after both sides are timed. The reference side
// (referenceSide) is made by the runner of the realm that times it: on the command line a
// context the student's code never runs in, in the page the sandbox worker, whose typed-array
// intrinsics are frozen (freezeIntrinsics) before the student's code runs. Pure and synchronous
// like the rest of the runner; runStudentTests (sandbox-runner.js) calls runPlan for a test
// that is timed.
// Not for: deciding whether the student was fast enough (core's grader does, from the times).

import {
  ArrayBufferIsView,
  ArrayIsArray,
  Float64ArrayConstructor,
  MathFloor,
  MathImul,
  MathLog,
  ObjectDefineProperty,
  ObjectHasOwn,
  Uint32ArrayConstructor,
  capturedNow,
  capturedRandomValues,
  compileFunction,
} from './sandbox-intrinsics.js';
import { TestDescriptionError, errorText, isPlainObject, shown } from './sandbox-values.js';

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
  // y = A·x for an n×n A of which each entry is kept with probability `density` (the test's):
  // the student's function gets A as CSR (values, colIndex, rowStart: a Float64Array and two
  // Uint32Arrays) and x, the reference A itself, zeros included, and x.
  'dense-matvec': Object.freeze({
    usesDensity: true,
    args({ n, seed, density }) {
      const { dense, x } = sparseMatrix(n, seed, density, true);
      return [dense, x, n];
    },
    studentArgs({ n, seed, density }) {
      const { values, colIndex, rowStart, x } = sparseMatrix(n, seed, density, false);
      return [values, colIndex, rowStart, x];
    },
    // Every entry, zeros included, row by row: what a dense kernel does with a pruned matrix.
    functionName: 'matvec',
    source: `function matvec(a, x, n) {
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += a[i * n + j] * x[j];
    y[i] = sum;
  }
  return y;
}`,
    resultLength: (n) => n,
    shape: (n) => `an array of n = ${n} numbers`,
  }),
});

/**
 * An n×n matrix drawn from seed, each entry nonzero with probability density (values in
 * [-1, 1)), and an x of n values in [-1, 1): dense (row-major, zeros included: the
 * reference's) when `dense` is true, else as CSR (the student's). The nonzeros' row-major
 * positions are drawn as geometric gaps, one draw per nonzero rather than one per entry: at the
 * re-grade's n = 2048 and density 0.05 that is 0.2 M draws instead of 4.4 M for each call of
 * either side, which made this exercise's timed test cost a second of every re-grade.
 */
function sparseMatrix(n, seed, density, dense) {
  const random = seededRandom(seed);
  const total = n * n;
  const logKeep = density < 1 ? MathLog(1 - density) : 0;
  let capacity = MathFloor(total * density * 1.25) + 16;
  let positions = new Float64ArrayConstructor(capacity);
  let values = new Float64ArrayConstructor(capacity);
  let nnz = 0;
  for (let position = -1; ;) {
    // P(gap = g) = density·(1 - density)^(g - 1): each entry kept independently with `density`.
    position += logKeep === 0 ? 1 : MathFloor(MathLog(1 - random()) / logKeep) + 1;
    if (position >= total) break;
    const value = random() * 2 - 1;
    if (value === 0) continue;
    if (nnz === capacity) {
      capacity *= 2;
      const morePositions = new Float64ArrayConstructor(capacity);
      const moreValues = new Float64ArrayConstructor(capacity);
      for (let k = 0; k < nnz; k++) {
        morePositions[k] = positions[k];
        moreValues[k] = values[k];
      }
      positions = morePositions;
      values = moreValues;
    }
    positions[nnz] = position;
    values[nnz++] = value;
  }
  const x = new Float64ArrayConstructor(n);
  for (let i = 0; i < n; i++) x[i] = random() * 2 - 1;
  if (dense) {
    const a = new Float64ArrayConstructor(total);
    for (let k = 0; k < nnz; k++) a[positions[k]] = values[k];
    return { dense: a, x };
  }
  const csrValues = new Float64ArrayConstructor(nnz);
  const colIndex = new Uint32ArrayConstructor(nnz);
  const rowStart = new Uint32ArrayConstructor(n + 1);
  let row = 0;
  for (let k = 0; k < nnz; k++) {
    const r = MathFloor(positions[k] / n);
    while (row < r) rowStart[++row] = k;
    csrValues[k] = values[k];
    colIndex[k] = positions[k] - r * n;
  }
  while (row < n) rowStart[++row] = nnz;
  return { values: csrValues, colIndex, rowStart, x };
}

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

/**
 * The largest |x - y| over the first `length` values of two Float64Arrays (the runner's own
 * copies; `length` is the plan's, never read from an array); NaN when a value is not finite.
 */
function maxAbsDifference(expected, got, length) {
  let max = 0;
  for (let i = 0; i < length; i++) {
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
  const { n, rounds, seed, density } = spec ?? {};
  const densityOk = reference?.usesDensity ? typeof density === 'number' && density > 0 && density <= 1 : density === undefined;
  if (!reference || !Number.isInteger(n) || n < 1 || n > 2048 || !Number.isInteger(rounds) || rounds < 1 || rounds > 50 || !Number.isInteger(seed) || !densityOk) {
    throw new TestDescriptionError(
      `benchmark must be {reference: one of ${Object.keys(BENCHMARK_REFERENCES).join(', ')}, n: 1..2048, rounds: 1..50, seed: integer, and for dense-matvec density: (0, 1]}, got ${shown(spec)}`,
    );
  }
  // Every field the timed loop reads is the record's own (a lookup that missed would go on to
  // Object.prototype, which the student's code can reach).
  return Object.freeze({
    name: spec.reference,
    reference,
    studentArgs: ObjectHasOwn(reference, 'studentArgs') ? reference.studentArgs : reference.args,
    resultLength: reference.resultLength(n),
    n,
    rounds,
    seed,
    density,
  });
}

/** A Float64Array's values as a plain array (JSON carries it), without a prototype method. */
function plainArray(values) {
  const out = [];
  for (let i = 0; i < values.length; i++) {
    ObjectDefineProperty(out, i, { value: values[i], writable: true, enumerable: true, configurable: true });
  }
  return out;
}

export const quietConsole = Object.freeze({ log() {}, info() {}, warn() {}, error() {}, debug() {} });

/**
 * The reference's side of a timed test, in the realm of the runner that calls this: the
 * reference named `name` compiled here by `compile` (its `Float64Array` a parameter bound to
 * the one captured in this realm), and `round(callSeed)`, which builds one call's inputs from
 * `callSeed`, then times the call and the copy of its result into this realm's own array,
 * returning {ms, result}. The command line calls it in a context of its own that the student's
 * code never runs in (tools/grading/code-worker.mjs), so no intrinsic the reference goes
 * through is one the student's code could have replaced; the page calls it in the sandbox
 * worker, whose typed-array intrinsics are frozen before the student's code runs
 * (freezeIntrinsics). Throws TestDescriptionError for an unknown reference or a bad n.
 */
export function referenceSide(name, n, density, now = capturedNow, compile = compileFunction) {
  // Called after the student's code has run when both share a realm: reads only own fields of
  // frozen records (no benchmarkPlan, whose checks go through globals).
  if (typeof name !== 'string' || !ObjectHasOwn(BENCHMARK_REFERENCES, name) || typeof n !== 'number') {
    throw new TestDescriptionError(`a timed reference is one of ${Object.keys(BENCHMARK_REFERENCES).join(', ')} with a size n, got ${shown(name)} and ${shown(n)}`);
  }
  const reference = BENCHMARK_REFERENCES[name];
  const resultLength = reference.resultLength(n);
  const referenceFn = compile(reference.source, reference.functionName, 'console, Float64Array', [quietConsole, Float64ArrayConstructor]);
  const args = reference.args;
  return function round(callSeed) {
    const theirs = args({ n, seed: callSeed, density });
    const start = now();
    const result = takeResult(referenceFn(theirs[0], theirs[1], theirs[2]), resultLength);
    const end = now();
    return { ms: end - start, result };
  };
}

/**
 * Runs one timed test of `code` (the student's source text, declaring `functionName`). Both
 * sides are timed the same way: the student's function and the reference are each compiled
 * afresh from source text by compileFunction, so neither carries type feedback from another
 * call (the student's copy has not seen the plain arrays of the other tests), and both get the
 * same history: one untimed warm-up call, then `rounds` interleaved rounds, alternating which
 * goes first so drift (a busy tab, frequency scaling) hits both alike. Every call gets inputs
 * of its own, fresh from the seeded generator with a per-call seed (benchmarkSeed: the test's
 * seed and this run's nonce), results are read inside the timed window, and every result of
 * the student's is checked against the reference's on the same inputs after both are timed.
 * The reference side comes from `referenceSide` (same signature as this module's: the command
 * line passes one from a realm of its own). Returns what core grades: {value: {student_ms:
 * [...], reference_ms: [...], max_abs_difference}}, each round's time of each side in ms (core
 * takes the medians and applies the speed rule) and the largest difference over every call, or
 * {error}. `console` is the student's (their code's top level is run again for the fresh copy,
 * with console output muted while it runs). Throws TestDescriptionError when `spec` is
 * malformed; `nonce` fixes the inputs and `compile` (compileFunction's signature) sees both
 * compiles (tests).
 */
export function runBenchmark(code, functionName, spec, now = capturedNow, { nonce = freshNonce(), console = quietConsole, compile = compileFunction, referenceSide: sideOf = referenceSide } = {}) {
  return runPlan(code, functionName, benchmarkPlan(spec), now, nonce, console, () => {}, compile, sideOf);
}

export function runPlan(code, functionName, plan, now, nonce, console, muteConsole, compile = compileFunction, sideOf = referenceSide) {
  const { name, studentArgs, resultLength: length, n, rounds, seed, density } = plan;
  const shapeOf = plan.reference.shape;
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
  let referenceRound;
  try {
    referenceRound = sideOf(name, n, density, now, compile);
  } catch (e) {
    return { error: `Error: the reference of this timed test could not be prepared (${errorText(e)}); that is a bug in the exercise, not in your code` };
  }
  const studentMs = new Float64ArrayConstructor(rounds);
  const referenceMs = new Float64ArrayConstructor(rounds);
  let worst = 0;
  for (let r = -1; r < rounds; r++) {
    const callSeed = benchmarkSeed(seed, nonce, r + 1);
    const mine = studentArgs({ n, seed: callSeed, density });

    let got = null;
    let studentStart = 0;
    let studentEnd = 0;
    const timeStudent = () => {
      studentStart = now();
      const out = fn(mine[0], mine[1], mine[2], mine[3]);
      got = takeResult(out, length);
      studentEnd = now();
      if (got === null) return `at N = ${n} your function returned ${describeReturn(out)}, not ${shapeOf(n)}`;
      return null;
    };
    let theirs = null;
    const timeReference = () => {
      theirs = referenceRound(callSeed);
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
    // Checked after both sides are timed.
    const expected = theirs.result;
    if (expected === null) return { error: 'Error: the reference of this timed test returned no result; that is a bug in the exercise, not in your code' };
    const difference = maxAbsDifference(expected, got, length);
    if (difference !== difference) return { error: `at N = ${n} your result holds a value that is not a finite number` };
    if (difference > worst) worst = difference;
    if (r >= 0) {
      studentMs[r] = studentEnd - studentStart;
      referenceMs[r] = theirs.ms;
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
