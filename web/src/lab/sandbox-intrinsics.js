// The built-ins the sandbox's runner relies on, captured when this module loads (before any
// student code exists, see sandbox-runner.js), and compileFunction, the one way the runner
// turns source text into a function, for the student's code and a timed test's reference
// alike (so both sides of a timed test are compiled the same way).
// Not for: running tests (sandbox-runner.js) or timing them (sandbox-benchmark.js).

// Captured while only the runner's own modules have run.
export const FunctionConstructor = Function;
export const Float64ArrayConstructor = Float64Array;
export const Uint32ArrayConstructor = Uint32Array;
export const ArrayIsArray = Array.isArray;
export const ArrayBufferIsView = ArrayBuffer.isView;
export const MathImul = Math.imul;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectHasOwn = Object.hasOwn;
export const ReflectApply = Reflect.apply;
export const capturedNow = typeof performance === 'object' && typeof performance.now === 'function'
  ? performance.now.bind(performance)
  : Date.now;
export const capturedRandomValues = typeof crypto === 'object' && typeof crypto.getRandomValues === 'function'
  ? crypto.getRandomValues.bind(crypto)
  : null;

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
