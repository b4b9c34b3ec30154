// Runs a student's JavaScript on a code exercise's tests: defines their function from the code,
// calls it once per test on a fresh copy of the arguments, and turns each outcome into what
// core's grader reads ({value} or {error: "TypeError: ..."}). Pure and synchronous, so node:test
// covers it; sandbox-worker.js runs it inside a throwaway Worker.
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
    let result;
    try {
      // A fresh copy per test: a function that sorts its input in place must not change the
      // next test's arguments.
      const args = Array.isArray(test.args) ? structuredClone(test.args) : [];
      result = resultOf(fn(...args));
    } catch (e) {
      result = { error: errorText(e) };
    }
    finish(i, result);
  });
  return results;
}
