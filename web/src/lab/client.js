// The main thread's helpers for the declared wasm API (api.js), built from the declaration:
// `labOf(bridge).profileModel(spec, options, {where, signal, onProgress, build})` posts the
// declared kind with named arguments; `declaredSweep('measureMatmul')` is an experiment spec's
// `measure`. Chapters use these instead of naming request kinds or argument orders.
// Not for: talking to the worker (bridge.js) or deciding what a function computes (core).

import { API, CALL, POINT } from './api.js';

const labs = new WeakMap(); // bridge -> its helpers

/**
 * One function per declared call: the declared arguments in order, then optionally the
 * call's options `{where?, signal?, onProgress?, build?}` (where defaults to the name).
 * @param {{call: Function}} bridge
 */
export function labOf(bridge) {
  if (!labs.has(bridge)) {
    const lab = {};
    for (const [name, entry] of Object.entries(API)) {
      if (entry.type === CALL) lab[name] = (...given) => callDeclared(bridge, name, entry, given);
    }
    labs.set(bridge, Object.freeze(lab));
  }
  return labs.get(bridge);
}

function callDeclared(bridge, name, entry, given) {
  const n = entry.args.length;
  if (given.length > n + 1) {
    const args = n ? `(${entry.args.join(', ')})` : '';
    throw new TypeError(`${name}${args} takes ${n} argument${n === 1 ? '' : 's'} and the call's options, got ${given.length} values`);
  }
  const { where = name, signal, onProgress, build } = given.length === n + 1 ? (given[n] ?? {}) : {};
  const payload = {};
  entry.args.forEach((arg, i) => {
    if (given[i] !== undefined) payload[arg] = given[i];
  });
  if (build !== undefined) payload.build = build;
  return bridge.call(name, payload, { where, signal, onProgress });
}

/**
 * An experiment spec's `measure`: a sweep of the declared point function `name`. The
 * framework posts `{points, build}` (the run's build control) unless `payload(values,
 * points, ctx)` builds the request, e.g. `{points, builds: ['simd', 'scalar']}`.
 */
export function declaredSweep(name, { payload } = {}) {
  if (!Object.hasOwn(API, name) || API[name].type !== POINT) {
    const points = Object.keys(API).filter((k) => API[k].type === POINT);
    throw new Error(`${JSON.stringify(name)} is not a declared sweep point; declared: ${points.join(', ')}`);
  }
  return Object.freeze(payload ? { fn: name, payload } : { fn: name });
}

/**
 * A sweep of the declared point function `name` run outside an experiment's own sweep (a
 * calibration before it): `payload` is `{points, build?}` or `{points, builds}`; resolves to
 * `{build, rows}`.
 */
export function sweepOnce(bridge, name, payload, { where = name, signal, onProgress } = {}) {
  declaredSweep(name); // throws for a name that is not a declared point function
  return bridge.call(name, payload, { where, signal, onProgress });
}

/**
 * probeMachine, then setMachineRoofs with the roofs it measured, so every later profile
 * judges bottlenecks against this machine: every probe on the page goes through here.
 * @returns {Promise<object>} the probe's result
 */
export async function probeMachineRoofs(bridge, options, callOptions = {}) {
  const lab = labOf(bridge);
  const probe = await lab.probeMachine(options, callOptions);
  const { peak_gflops_per_s, bandwidth_gb_per_s } = probe;
  await lab.setMachineRoofs({ peak_gflops_per_s, bandwidth_gb_per_s }, { where: callOptions.where });
  return probe;
}
