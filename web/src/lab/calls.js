// The lab worker's generic `call` kind: one allow-listed, quick, pure Module function called
// once with positional arguments, its return value the reply (no progress; cancel is the
// bridge terminating the worker, as for any long call). Pure (the Module is passed in), so
// node:test drives it with a fake Module. Not for: loops over points (sweep.js) or any
// arithmetic (core does it).

/**
 * The only Module functions `call` may run, each with a label for error messages.
 * To add one: bind it in wasm/ (plain values in and out), add an entry here.
 */
export const CALL_FUNCTIONS = Object.freeze({
  // Profiling chapter (H2)
  profileModel: Object.freeze({ label: 'profile a model spec' }),
  zooNames: Object.freeze({ label: 'list the model zoo' }),
  zooModels: Object.freeze({ label: 'list the model zoo with specs' }),
  zooSpec: Object.freeze({ label: 'a zoo model’s spec' }),
  mlpSpec: Object.freeze({ label: 'build an MLP spec' }),
  attentionScaling: Object.freeze({ label: 'count attention against sequence length' }),
  flopCosts: Object.freeze({ label: 'list element-wise FLOP costs' }),
  // Acceleration chapter (H3)
  matmulVariants: Object.freeze({ label: 'list the matmul variants' }),
  geluVariants: Object.freeze({ label: 'list the GELU variants' }),
  probeMachine: Object.freeze({ label: 'probe this machine’s peak and bandwidth' }),
  rooflinePoint: Object.freeze({ label: 'place a kernel on the roofline' }),
  cliReport: Object.freeze({ label: 'read pasted perflab CLI JSON' }),
  memoryStats: Object.freeze({ label: 'read what the lab has allocated and its memory cap' }),
});

/** A call may pass at most this many arguments; more is a mistake, not a use. */
export const MAX_CALL_ARGS = 8;

/** Returns null when `{fn, args}` can run, else a sentence saying what is wrong. */
export function callProblem(payload) {
  const { fn, args } = payload ?? {};
  if (typeof fn !== 'string' || !Object.hasOwn(CALL_FUNCTIONS, fn)) {
    return `unknown call function ${JSON.stringify(fn)}; allowed: ${Object.keys(CALL_FUNCTIONS).join(', ')}`;
  }
  if (args !== undefined && !Array.isArray(args)) {
    return `call args must be an array of positional arguments, got ${JSON.stringify(args)}`;
  }
  if ((args ?? []).length > MAX_CALL_ARGS) {
    return `call args may hold at most ${MAX_CALL_ARGS} arguments, got ${args.length}`;
  }
  return null;
}

/**
 * Runs `Module[fn](...args)` after checking the payload; the Module's Error (core's
 * message) passes through unchanged so the page can show it beside its control.
 * @param {object} Module the loaded wasm module
 * @param {{fn: string, args?: any[]}} payload
 */
export function runCall(Module, payload) {
  const problem = callProblem(payload);
  if (problem) throw new Error(problem);
  const fn = Module[payload.fn];
  if (typeof fn !== 'function') {
    throw new Error(`the wasm build has no function ${payload.fn}; rebuild wasm/ (needed to ${CALL_FUNCTIONS[payload.fn].label})`);
  }
  return fn.apply(Module, payload.args ?? []);
}
