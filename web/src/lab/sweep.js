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
  // Kernel points (wasm/bind_kernels.cpp, bind_probe.cpp, bind_profiler.cpp); options are
  // timer options (measureOperation's entry is below).
  measureMatmulBlocked: Object.freeze({
    call: (Module, p) => Module.measureMatmulBlocked(p.n, p.tiles ?? {}, p.options ?? {}),
    label: (p) => `blocked ${tilesText(p.tiles)} at N=${p.n}`,
  }),
  measureGelu: Object.freeze({
    call: (Module, p) => Module.measureGelu(p.variant, p.elements, p.options ?? {}),
    label: (p) => `${p.variant} GELU over ${p.elements} elements`,
  }),
  measureReadBandwidth: Object.freeze({
    call: (Module, p) => Module.measureReadBandwidth(p.bytes, p.options ?? {}),
    label: (p) => `read bandwidth over ${p.bytes} bytes`,
    // The points grow, so a working set the lab cannot allocate (core's AllocationError:
    // "... does not fit: the lab's memory cap ...", "cannot allocate ...", or guarded()'s
    // "out of memory: the WebAssembly heap could not grow") is where the sweep ends.
    endsSweep: (message) => /does not fit|cannot allocate|out of memory/.test(message),
  }),
  measureLinear: Object.freeze({
    call: (Module, p) =>
      Module.measureLinear(p.in_features, p.out_features, p.batch, p.variant, p.options ?? {}),
    label: (p) => `Linear ${p.in_features}→${p.out_features} (${p.variant}) at batch ${p.batch}`,
  }),
  // Profiling chapter: one point per spec (an object or its JSON text) and batch
  // (undefined: the spec's own batch); options are timer options.
  measureForwardPoint: Object.freeze({
    call: (Module, p) => Module.measureForwardPoint(p.spec, p.batch, p.options ?? {}),
    label: (p) => `${specName(p.spec)}${p.batch ? ` at batch ${p.batch}` : ''}`,
  }),
  measureBackwardPoint: Object.freeze({
    // Core's backward row has no model name: the point's is added so rows say which model.
    call: (Module, p) => ({ name: specName(p.spec), ...Module.measureBackwardPoint(p.spec, p.batch, p.options ?? {}) }),
    label: (p) => `${specName(p.spec)} forward and backward${p.batch ? ` at batch ${p.batch}` : ''}`,
  }),
  memoryBreakdown: Object.freeze({
    call: (Module, p) => ({ name: specName(p.spec), ...Module.memoryBreakdown(p.spec, p.batch) }),
    label: (p) => `memory of ${specName(p.spec)}${p.batch ? ` at batch ${p.batch}` : ''}`,
  }),
  profilingOverhead: Object.freeze({
    call: (Module, p) => ({ name: specName(p.spec), ...Module.profilingOverhead(p.spec, p.batch, p.options ?? {}) }),
    label: (p) => `profiling overhead of ${specName(p.spec)}`,
  }),
  // An MLP over widths (core's mlpSpec), then its forward point: the model-scaling sweep.
  mlpForwardPoint: Object.freeze({
    call: (Module, p) => ({
      widths: p.widths,
      ...Module.measureForwardPoint(Module.mlpSpec(p.widths, p.batch), p.batch, p.options ?? {}),
    }),
    label: (p) => `MLP ${p.widths.join('-')} at batch ${p.batch}`,
  }),
  // One kernel by name (operations.hpp); options may carry the roofs to place the row.
  measureOperation: Object.freeze({
    call: (Module, p) => Module.measureOperation(p.op, p.n, p.options ?? {}),
    label: (p) => `${p.op}${p.op === 'matmul' ? ` at N=${p.n}` : ` on ${p.n} elements`}`,
  }),
  // Counted, nothing timed: attention FLOPs and bytes at one sequence length.
  attentionScaling: Object.freeze({
    call: (Module, p) => Module.attentionScaling(p.d_model, p.heads, [p.seq_len], p.batch ?? 1)[0],
    label: (p) => `attention at T=${p.seq_len}`,
  }),
});

// "64×256×128" (m×n×k), or "default tiles".
function tilesText(tiles) {
  if (!tiles || typeof tiles !== 'object') return 'default tiles';
  return ['tile_m', 'tile_n', 'tile_k'].map((k) => tiles[k] ?? 'default').join('×');
}

function specName(spec) {
  if (spec && typeof spec === 'object' && typeof spec.name === 'string') return spec.name;
  return 'the model';
}

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
 * An entry with `endsSweep(message)` may end the sweep early: when a point fails with a
 * message it accepts, the result is the rows so far plus `ended: {message, label, done, total}`
 * (a sweep that found its limit, not a failed one); any other error is thrown.
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
      const message = String(err?.message ?? err);
      if (entry.endsSweep?.(message)) {
        return { build, rows, ended: { message, label: entry.label(point), done: rows.length, total } };
      }
      throw new Error(`${message} (measuring ${entry.label(point)})`);
    }
    const row = { build, ...measured };
    rows.push(row);
    ctx.progress(rows.length / total, { done: rows.length, total, row });
  }
  return { build, rows };
}

// The same sweep in several wasm builds (the Acceleration chapter's "same C++, with and
// without SIMD" experiment): each point is measured in every build before the next point,
// so both builds see the machine in the same state. Rows carry their build.
const SWEEP_BUILDS = Object.freeze(['simd', 'scalar']);

/** Returns null when `{fn, points, builds}` can run, else a sentence saying what is wrong. */
export function sweepBuildsProblem(payload) {
  const { builds, points } = payload ?? {};
  if (
    !Array.isArray(builds) ||
    builds.length === 0 ||
    new Set(builds).size !== builds.length ||
    !builds.every((b) => SWEEP_BUILDS.includes(b))
  ) {
    const allowed = SWEEP_BUILDS.join(', ');
    return `builds must be a non-empty list of distinct builds from ${allowed}, got ${JSON.stringify(builds)}`;
  }
  const problem = sweepProblem(payload);
  if (problem) return problem;
  if (points.length * builds.length > MAX_SWEEP_POINTS) {
    return `a sweep may have at most ${MAX_SWEEP_POINTS} points, got ${points.length} × ${builds.length} builds`;
  }
  return null;
}

/**
 * Runs every point in every build, point by point. Progress as runSweep's, counting
 * point × build measurements: `{done: 0, total, row: null}` first, then one per row.
 * @param {(build: string) => Promise<object>} loadModule the worker's loader
 * @param {{fn: string, points: object[], builds: string[]}} payload
 * @param {{progress: Function, throwIfCancelled: Function}} ctx
 * @returns {Promise<{build: string, rows: object[]}>} build names the builds, "simd + scalar"
 */
export async function runSweepBuilds(loadModule, payload, ctx, { yieldToEvents = nextMacrotask } = {}) {
  const problem = sweepBuildsProblem(payload);
  if (problem) throw new Error(problem);
  const entry = SWEEP_FUNCTIONS[payload.fn];
  const modules = [];
  for (const build of payload.builds) modules.push([build, await loadModule(build)]);
  const total = payload.points.length * modules.length;
  const rows = [];
  ctx.progress(0, { done: 0, total, row: null });
  for (const point of payload.points) {
    for (const [build, Module] of modules) {
      await yieldToEvents();
      ctx.throwIfCancelled();
      let measured;
      try {
        measured = entry.call(Module, point);
      } catch (err) {
        throw new Error(`${err?.message ?? err} (measuring ${entry.label(point)} in the ${build} build)`);
      }
      const row = { build, ...measured };
      rows.push(row);
      ctx.progress(rows.length / total, { done: rows.length, total, row });
    }
  }
  return { build: payload.builds.join(' + '), rows };
}
