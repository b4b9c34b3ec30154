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
export const MathFloor = Math.floor;
export const MathImul = Math.imul;
export const MathLog = Math.log;
export const ObjectDefineProperty = Object.defineProperty;
export const ObjectHasOwn = Object.hasOwn;
export const ReflectApply = Reflect.apply;
export const capturedNow = typeof performance === 'object' && typeof performance.now === 'function'
  ? performance.now.bind(performance)
  : Date.now;
export const capturedRandomValues = typeof crypto === 'object' && typeof crypto.getRandomValues === 'function'
  ? crypto.getRandomValues.bind(crypto)
  : null;

const ObjectFreeze = Object.freeze;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const TYPED_ARRAYS = [
  'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array',
  'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array',
];

/**
 * Freezes, in this realm, the built-ins a timed test's reference and the runner's copies of
 * results go through: %TypedArray% and every typed array (constructors and prototypes, so
 * `length`, the indexed access and `new Float64Array(n)` stay the engine's own), ArrayBuffer,
 * SharedArrayBuffer and DataView. Called by the sandbox's entry points before the student's
 * code runs (sandbox-worker.js, tools/grading/code-worker.mjs), so the page and the command
 * line run that code under the same rules: patching these throws, in strict code, a TypeError.
 * Returns the names frozen.
 */
export function freezeIntrinsics(global = globalThis) {
  const frozen = [];
  const freeze = (name, value) => {
    if (typeof value !== 'function') return;
    ObjectFreeze(value);
    if (value.prototype) ObjectFreeze(value.prototype);
    frozen[frozen.length] = name;
  };
  freeze('%TypedArray%', ObjectGetPrototypeOf(Float64ArrayConstructor));
  for (const name of TYPED_ARRAYS) freeze(name, global[name]);
  for (const name of ['ArrayBuffer', 'SharedArrayBuffer', 'DataView']) freeze(name, global[name]);
  return frozen;
}

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
