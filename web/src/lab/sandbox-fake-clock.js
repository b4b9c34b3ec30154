// Core's fake-clock markers in a test's arguments ($fake_clock, $fake_fn, grader.hpp) turned
// into live objects sharing one fake time per test, so timing code is graded exactly on any
// machine. Not for: real timing (sandbox-benchmark.js).

import { TestDescriptionError, isPlainObject, shown } from './sandbox-values.js';

/**
 * One test's arguments as the student's function receives them: a deep copy of the JSON, with
 * the markers documented in core's grader.hpp replaced by live objects that share one fake time
 * (in ms) per test, so timing code is graded exactly, whatever the machine:
 *
 *   {"$fake_clock": true} | {"$fake_clock": {"start_ms": 1000}}
 *       -> {now()}: the fake time (start_ms, else 0); reading it never advances it.
 *   {"$fake_fn": {"costs_ms": [c0, c1, ...]}}
 *       -> a function whose k-th call advances the fake time by c_k and returns undefined; a
 *          call past the list throws an Error.
 *
 * e.g. [{"$fake_fn": {"costs_ms": [40, 3, 5]}}, {"warmup": 1, "iterations": 2},
 *       {"$fake_clock": {"start_ms": 1000}}]
 * Throws TestDescriptionError (naming the path) for a malformed marker.
 */
export function materializeArgs(args) {
  let now_ms = 0;
  let start = null; // [path, start_ms] of the clock that set the start
  const clockOf = (spec, path) => {
    if (spec !== true && !(isPlainObject(spec) && Object.keys(spec).every((k) => k === 'start_ms'))) {
      throw new TestDescriptionError(`${path}.$fake_clock must be true or {"start_ms": number}, got ${shown(spec)}`);
    }
    const start_ms = spec === true || spec.start_ms === undefined ? 0 : spec.start_ms;
    if (!Number.isFinite(start_ms)) {
      throw new TestDescriptionError(`${path}.$fake_clock.start_ms must be a finite number, got ${shown(start_ms)}`);
    }
    if (start && start[1] !== start_ms) {
      throw new TestDescriptionError(`${path} starts the shared fake time at ${start_ms} ms, but ${start[0]} starts it at ${start[1]} ms`);
    }
    start = [path, start_ms];
    now_ms = start_ms;
    return Object.freeze({ now: () => now_ms });
  };
  const fnOf = (spec, path) => {
    const costs = isPlainObject(spec) && Object.keys(spec).length === 1 ? spec.costs_ms : undefined;
    if (!Array.isArray(costs) || !costs.every((c) => Number.isFinite(c) && c >= 0)) {
      throw new TestDescriptionError(`${path}.$fake_fn must be {"costs_ms": [finite numbers ≥ 0]}, got ${shown(spec)}`);
    }
    let calls = 0;
    return function fn() {
      if (calls >= costs.length) {
        throw new Error(`fn() was called ${calls + 1} times, but this test scripts only ${costs.length} calls (warmup + iterations)`);
      }
      now_ms += costs[calls++];
    };
  };
  const walk = (v, path) => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${path}[${i}]`));
    if (!isPlainObject(v)) return v;
    const keys = Object.keys(v);
    const markers = keys.filter((k) => k.startsWith('$fake_'));
    if (markers.length) {
      if (keys.length !== 1) {
        throw new TestDescriptionError(`${path} mixes the marker ${markers[0]} with other fields (${keys.join(', ')})`);
      }
      if (keys[0] === '$fake_clock') return clockOf(v.$fake_clock, path);
      if (keys[0] === '$fake_fn') return fnOf(v.$fake_fn, path);
      throw new TestDescriptionError(`${path} has the unknown marker ${keys[0]} (known: $fake_clock, $fake_fn)`);
    }
    return Object.fromEntries(keys.map((k) => [k, walk(v[k], `${path}.${k}`)]));
  };
  if (!Array.isArray(args)) throw new TestDescriptionError(`args must be an array, got ${shown(args)}`);
  return walk(args, 'args');
}
