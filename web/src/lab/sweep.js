// The lab worker's generic sweep: runs a list of points by calling one allow-listed
// function of the wasm Module per point, posting progress with each point's row and
// yielding a macrotask between points so a cancel message is seen. Pure (the Module and
// the progress/cancel context are passed in), so node:test drives it with a fake Module.
// Not for: choosing the points (the page's experiment spec plans them) or any arithmetic.

/**
 * The only Module functions a sweep may call, each with how a point's named fields become
 * the call's arguments and how a point is named in progress text and error messages.
 * To add one: bind it in wasm/, add an entry here, use its name as `measure.fn` in a spec.
 * `call` returns the row (a plain object); the worker adds `build` to it.
 */
export const SWEEP_FUNCTIONS = Object.freeze({
  measureMatmul: Object.freeze({
    call: (Module, p) => Module.measureMatmul(p.variant, p.n, p.options ?? {}),
    label: (p) => `${p.variant} at N=${p.n}`,
  }),
});

/** A sweep longer than this is a planning mistake, not an experiment a student waits for. */
export const MAX_SWEEP_POINTS = 10000;

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Returns null when `{fn, points}` can run, else a sentence saying what is wrong. */
export function sweepProblem(payload) {
  const { fn, points } = payload ?? {};
  if (typeof fn !== 'string' || !Object.hasOwn(SWEEP_FUNCTIONS, fn)) {
    return `unknown sweep function ${JSON.stringify(fn)}; allowed: ${Object.keys(SWEEP_FUNCTIONS).join(', ')}`;
  }
  if (!Array.isArray(points) || points.length === 0) {
    return `sweep points must be a non-empty array, got ${Array.isArray(points) ? 'an empty array' : JSON.stringify(points)}`;
  }
  if (points.length > MAX_SWEEP_POINTS) {
    return `a sweep may have at most ${MAX_SWEEP_POINTS} points, got ${points.length}`;
  }
  const bad = points.findIndex((p) => !isObject(p));
  if (bad >= 0) return `sweep point #${bad} must be an object of named arguments, got ${JSON.stringify(points[bad])}`;
  return null;
}

/** The label of a point as the allow-list names it ("naive at N=64"), or null. */
export function pointLabel(fn, point) {
  return Object.hasOwn(SWEEP_FUNCTIONS, fn) ? SWEEP_FUNCTIONS[fn].label(point) : null;
}

const nextMacrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Runs every point in order. Progress: one reply before the first point
 * `{done: 0, total, row: null}`, then one per point `{done, total, row}`.
 * @param {object} Module the loaded wasm module
 * @param {{fn: string, points: object[]}} payload
 * @param {{progress: Function, throwIfCancelled: Function}} ctx the worker's request context
 * @param {{build?: string, yieldToEvents?: () => Promise<void>}} [options]
 * @returns {Promise<{build: string|undefined, rows: object[]}>}
 */
export async function runSweep(Module, payload, ctx, { build, yieldToEvents = nextMacrotask } = {}) {
  const problem = sweepProblem(payload);
  if (problem) throw new Error(problem);
  const entry = SWEEP_FUNCTIONS[payload.fn];
  const total = payload.points.length;
  const rows = [];
  ctx.progress(0, { done: 0, total, row: null });
  for (const point of payload.points) {
    // Between points is the only place a cancel can be seen: one point runs synchronously
    // inside core (bounded by its own time budget); the bridge terminates us if it is long.
    await yieldToEvents();
    ctx.throwIfCancelled();
    let measured;
    try {
      measured = entry.call(Module, point);
    } catch (err) {
      throw new Error(`${err?.message ?? err} (measuring ${entry.label(point)})`);
    }
    const row = { build, ...measured };
    rows.push(row);
    ctx.progress(rows.length / total, { done: rows.length, total, row });
  }
  return { build, rows };
}
