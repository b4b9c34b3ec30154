// What crosses the sandbox's boundary as data: a student's returned value or thrown error as
// the JSON core's grader reads ({value} or {error: "TypeError: ..."}), and the error for a
// test description that is malformed (a bug in the exercise, not in the student's code).
// Not for: calling the student's function (sandbox-runner.js).

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

/** A test description core sent is malformed: a bug in the exercise, not in the student's code. */
export class TestDescriptionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'TestDescriptionError';
  }
}

export const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const shown = (v) => (v === undefined ? 'undefined' : JSON.stringify(v));
