// The lab worker's sweep runner: calls one declared point function (api.js) per planned
// point, posting progress with each point's row and yielding a macrotask between points so
// a cancel message is seen. Pure (the Module and the progress/cancel context are passed in),
// so node:test drives it with a fake Module. Not for: choosing the points (the page's
// experiment spec plans them), what a row holds (api.js rowOf) or any arithmetic.

import { API, POINT, labelOf, payloadProblem, positional, rowOf } from './api.js';

const nextMacrotask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Returns null when `name` is a declared point function and `payload` can run. */
export function sweepProblem(name, payload) {
  if (Object.hasOwn(API, name) && API[name].type !== POINT) return `${name} is a one-shot call, not a sweep point`;
  return payloadProblem(name, payload);
}

// One point in one Module: the declared arguments in order, core's row, the point's identity.
function measure(Module, name, point, build) {
  const fn = Module[name];
  if (typeof fn !== 'function') {
    throw new Error(`the wasm build has no function ${name}; rebuild wasm/ (needed to measure ${labelOf(name, point)})`);
  }
  return rowOf(name, point, fn.apply(Module, positional(name, point)), build);
}

/**
 * Runs every point in every build, point by point (each point is measured in every build
 * before the next point, so both builds see the machine in the same state); a point that
 * names its `build` runs in that build only (an A/B across builds alternates them in the
 * order its points give), the others in the first module's. Progress: one
 * reply before the first point `{done: 0, total, row: null}`, then one per row.
 * A declaration's `endsSweep(message)` may end a one-build sweep early: when a point fails
 * with a message it accepts, the result is the rows so far plus
 * `ended: {message, label, done, total}` (a sweep that found its limit, not a failed one);
 * any other error is thrown with the point's label.
 * @param {Array<[string|undefined, object]>} modules [build, Module] pairs
 * @param {string} name a declared point function
 * @param {object[]} points named arguments plus the point's identifying fields
 * @param {{progress: Function, throwIfCancelled: Function}} ctx the worker's request context
 * @param {{byBuild?: boolean}} [options] byBuild: the request named its builds (`builds`),
 *        so errors name the build and no point ends the sweep early
 * @returns {Promise<{build: string|undefined, rows: object[], ended?: object}>}
 */
export async function runSweep(modules, name, points, ctx, { byBuild = false, yieldToEvents = nextMacrotask } = {}) {
  const problem = sweepProblem(name, { points });
  if (problem) throw new Error(problem);
  const entry = API[name];
  // Points that name their build run there alone (the first module is the others' build).
  const perPoint = points.some((p) => p.build !== undefined);
  const targets = (point) => {
    if (!perPoint) return modules;
    const wanted = point.build ?? modules[0]?.[0];
    const found = modules.find(([b]) => b === wanted);
    if (!found) throw new Error(`sweep point ${labelOf(name, point)} names the ${wanted} build, which was not loaded`);
    return [found];
  };
  const several = byBuild || modules.length > 1;
  const build = modules.map(([b]) => b).join(' + ') || undefined;
  const total = perPoint ? points.length : points.length * modules.length;
  const rows = [];
  ctx.progress(0, { done: 0, total, row: null });
  for (const point of points) {
    for (const [pointBuild, Module] of targets(point)) {
      // Between points is the only place a cancel can be seen: one point runs synchronously
      // inside core (bounded by its own time budget); the bridge terminates us if it is long.
      await yieldToEvents();
      ctx.throwIfCancelled();
      let row;
      try {
        row = measure(Module, name, point, pointBuild);
      } catch (err) {
        const message = String(err?.message ?? err);
        const label = entry.label(point);
        if (!several && entry.endsSweep?.(message)) {
          return { build, rows, ended: { message, label, done: rows.length, total } };
        }
        throw new Error(`${message} (measuring ${label}${several ? ` in the ${pointBuild} build` : ''})`, {
          cause: err,
        });
      }
      rows.push(row);
      ctx.progress(rows.length / total, { done: rows.length, total, row });
    }
  }
  return { build, rows };
}
