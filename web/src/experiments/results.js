// Where finished experiment runs are published, so other code (exercises graded against
// the student's own measurements) can read the latest result of an experiment by id or
// be told when one arrives. Only complete runs are published: a cancelled or failed run
// never replaces a complete one. Not for: storing results across page loads (state/ does).

const latest = new Map(); // experiment id -> frozen result
const listeners = new Set();

/**
 * @param {{id: string, rows: object[], build?: string, values?: object, analysis?: object}} result
 * @returns {object} the stored (frozen) result
 */
export function publishResult(result) {
  const stored = Object.freeze({
    id: result.id,
    rows: Object.freeze(result.rows.map((r) => structuredClone(r))),
    build: result.build ?? null,
    values: Object.freeze({ ...(result.values ?? {}) }),
    // What the spec's analyze concluded from the rows (core's verdict, fit or report), or null.
    analysis: result.analysis == null ? null : Object.freeze(structuredClone(result.analysis)),
    finished_at_ms: Date.now(),
  });
  latest.set(stored.id, stored);
  for (const listener of [...listeners]) {
    if (listener.id === undefined || listener.id === stored.id) listener.fn(stored);
  }
  return stored;
}

/** The latest complete run of experiment `id`, or null if it has not finished one. */
export function latestResult(id) {
  return latest.get(id) ?? null;
}

/**
 * Calls `fn(result)` for every run published from now on (of experiment `id` only, if
 * given). @returns {() => void} unsubscribe
 */
export function subscribeResults(fn, { id } = {}) {
  const listener = { fn, id };
  listeners.add(listener);
  return () => listeners.delete(listener);
}
