// One run of an experiment, without the DOM: `startRun(spec, opts)` goes through its phases
// (PHASES: prepare, plan, measure, assemble, analyze, publish) through the lab bridge, tells
// its caller what changed (`onEvent`) and resolves with an outcome that says what to show,
// complete or partial. Cancel or a failure in any phase keeps the rows measured so far.
// Also the run's texts: the progress line while it measures and the Done line.
// Pure module: experiment.js renders it, tests/js/experiment-runner.test.mjs drives it in Node.
// Not for: controls, charts, tables (experiment.js), the spec's checks (model.js).

import { labOf } from '../lab/client.js';
import { cancelledError } from '../lab/protocol.js';
import { formatCount, formatElapsed } from '../ui/format.js';
import { MEASURE_LONGER_ID, labelOf, measureLongerHint, measureOf, scalePoints, withMeasureLongerControls } from './model.js';

/**
 * A run's phases in order. `prepare` comes first because a plan may need what it returned
 * (a seeded order of builds); `assemble` and `analyze` run only for specs that have them.
 */
export const PHASES = Object.freeze(['prepare', 'plan', 'measure', 'assemble', 'analyze', 'publish']);

/** Calls the spec's plan and checks it produced points (plain objects). */
export function planPoints(spec, values, ctx) {
  const points = spec.plan(values, ctx);
  if (!Array.isArray(points) || points.length === 0 || !points.every((p) => p !== null && typeof p === 'object' && !Array.isArray(p))) {
    throw new Error(`the plan of experiment "${spec.id}" produced no points for these settings`);
  }
  return points;
}

/**
 * The status line while a run is under way ("point i of n, elapsed").
 * @param {{started: boolean, done: number, total: number, label?: string|null, elapsed_ms: number}} s
 */
export function progressText({ started, done, total, label, elapsed_ms }) {
  const elapsed = formatElapsed(elapsed_ms);
  if (!started) return `Starting the lab worker… ${elapsed}`;
  if (done >= total) return `Measured ${total} of ${total} points · ${elapsed} elapsed`;
  return `Measuring point ${done + 1} of ${total}${label ? ` (${label})` : ''} · ${elapsed} elapsed`;
}

// Timed samples and calls of one measured row: a timer's (samples_ms, inner_iterations calls
// each) or an A/B run's (a_ms and b_ms, inner_iterations_a and _b calls each); null otherwise.
function timedWork(r) {
  if (Array.isArray(r?.samples_ms)) {
    return { samples: r.samples_ms.length, calls: r.samples_ms.length * (r.inner_iterations ?? 1) };
  }
  if (Array.isArray(r?.a_ms) && Array.isArray(r?.b_ms)) {
    return {
      samples: r.a_ms.length + r.b_ms.length,
      calls: r.a_ms.length * (r.inner_iterations_a ?? 1) + r.b_ms.length * (r.inner_iterations_b ?? 1),
    };
  }
  return null;
}

/**
 * The status line when a run is done, saying what was measured: the timed calls when the rows
 * carry their samples ("Done: 100 calls timed one by one (1 point) in 2.1 s."), else the points.
 * @param {object[]} rows the measured rows (before any assembling)
 * @param {{seconds: string, build?: string|null}} s
 */
export function doneText(rows, { seconds, build }) {
  const work = rows.map(timedWork);
  const points = formatCount(rows.length, 'point');
  let what = points;
  if (rows.length > 0 && work.every(Boolean)) {
    const samples = work.reduce((n, w) => n + w.samples, 0);
    const calls = work.reduce((n, w) => n + w.calls, 0);
    what =
      calls === samples
        ? `${formatCount(calls, 'call')} timed one by one (${points})`
        : `${formatCount(samples, 'timed sample')} of ${formatCount(calls, 'call')} in all (${points})`;
  }
  return `Done: ${what} in ${seconds} s${build ? ` (${build} build)` : ''}.`;
}

/**
 * The spec's `init` facts (machine info shown beside the experiment), asked once and kept; a
 * failed init is asked again at the next call, and init's `update(info)` replaces them.
 * @param {object} spec
 * @param {object} args what init is given besides `update` ({bridge, slot, quick, h})
 * @param {(info: object) => void} onUpdate after init's `update`
 * @returns {() => Promise<object|null>} the facts (null for a spec without init)
 */
export function initFacts(spec, args, onUpdate) {
  let promise = null;
  const update = (info) => {
    promise = Promise.resolve(info);
    onUpdate(info);
  };
  return () => {
    if (!spec.init) return Promise.resolve(null);
    if (!promise) {
      promise = Promise.resolve().then(() => spec.init({ ...args, update }));
      // A failed init must not stick: the next Run tries again.
      promise.catch(() => (promise = null));
    }
    return promise;
  };
}

/**
 * Starts one run.
 * @param {object} spec a checked experiment spec (model.js specProblems)
 * @param {object} o
 * @param {{call: Function}} o.bridge the lab bridge (the worker client, or a fake in tests)
 * @param {object} o.values the controls' parsed values
 * @param {boolean} [o.quick] quick mode (smaller plans)
 * @param {string} o.where what errors name as the caller
 * @param {() => Promise<object|null>} [o.loadInfo] the spec's init facts (and anything to load first)
 * @param {(result: object) => object} [o.publish] stores a complete run; its return is the outcome's `result`
 * @param {(type: string, detail: any) => void} [o.onEvent] 'phase' name, 'status' text, 'planned' ctx,
 *   'progress' fraction, 'row' row, 'note' text, 'measured', 'rows' {rows, build, ctx}
 * @param {() => number} [o.now] milliseconds (performance.now)
 * @returns {{state: object, cancel: () => void, statusText: () => string, done: Promise<object>}}
 *   `done` never rejects: `{ok: true, rows, build, ctx, status, note, hint, result}` or
 *   `{ok: false, phase, cancelled, error, measured, total, status, note, hint, show, ctx}`.
 */
export function startRun(spec, o) {
  const { bridge, values, quick = false, where, loadInfo, publish, onEvent = () => {}, now = () => performance.now() } = o;
  if (typeof bridge?.call !== 'function') throw new TypeError('startRun: `bridge` must be the lab bridge (an object with call)');
  if (values === null || typeof values !== 'object') throw new TypeError("startRun: `values` must be an object of the controls' values");
  const controller = new AbortController();
  const state = { phase: null, rows: [], ctx: null, points: [], total: null, done: 0, started: false, startedAt: now() };
  const hookCtx = (info, prepared) => ({
    lab: labOf(bridge),
    bridge,
    values,
    quick,
    info,
    prepared,
    signal: controller.signal,
    where,
    // A line for the status while a hook works ("Fetching the test split: 2.1 of 4.4 MB").
    status: (text) => onEvent('status', text),
  });
  const statusText = () =>
    progressText({
      started: state.started,
      done: state.done,
      total: state.total,
      label: labelOf(spec, state.points[state.done]),
      elapsed_ms: now() - state.startedAt,
    });
  const onProgress = (fraction, detail) => {
    state.started = true;
    if (Number.isInteger(detail?.total)) state.total = detail.total;
    if (detail?.row) {
      const row = spec.derive ? spec.derive(detail.row, state.ctx) : detail.row;
      state.rows.push(row);
      onEvent('row', row);
    }
    state.done = Number.isInteger(detail?.done) ? detail.done : state.rows.length;
    onEvent('progress', fraction);
  };
  // Cancel must not wait for a slow init or prepare (the first loads the wasm build).
  const aborted = new Promise((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(cancelledError()), { once: true }),
  );
  aborted.catch(() => {});
  let info = null;
  const enter = (phase) => {
    state.phase = phase;
    onEvent('phase', phase);
  };

  async function phases() {
    enter('prepare');
    onEvent('status', 'Starting the lab worker…');
    info = (await Promise.race([Promise.resolve(loadInfo ? loadInfo() : null), aborted])) ?? null;
    const ctx = { values, quick, info, points: null, analysis: null, prepared: null };
    state.ctx = ctx;
    if (spec.prepare) {
      // What the plan needs from core at each run (a seeded order, a calibration).
      onEvent('status', 'Preparing the run in the lab’s core…');
      ctx.prepared = await Promise.race([spec.prepare(values, hookCtx(info, null)), aborted]);
    }

    enter('plan');
    // Measure longer scales the planned points' timer options (samples, time budget); core's
    // timer warnings name Measure longer only where the experiment has it.
    const factor = values[MEASURE_LONGER_ID] ?? '1';
    const scaled = scalePoints(planPoints(spec, values, ctx), factor);
    ctx.points = spec.measureLonger === false ? scaled : scaled.map(withMeasureLongerControls);
    let note = null;
    if (factor !== '1' && ctx.points.every((p) => !Number.isFinite(p.options?.samples) && !Number.isFinite(p.options?.max_total_ms))) {
      note = 'Measure longer has nothing to scale here: these points take no timer samples.';
      onEvent('note', note);
    }
    Object.assign(state, { points: ctx.points, total: ctx.points.length });
    onEvent('planned', ctx);

    enter('measure');
    const m = measureOf(spec, ctx);
    const payload = m.payload ? m.payload(values, ctx.points, ctx) : { points: ctx.points, build: values.build };
    const result = await bridge.call(m.fn, payload, { signal: controller.signal, where, onProgress });
    onEvent('measured');
    const build = result.build ?? null;
    // The result is authoritative: redraw from it rather than trusting the progress stream.
    let rows = result.rows.map((r) => (spec.derive ? spec.derive(r, ctx) : r));
    if (spec.assemble) {
      enter('assemble');
      onEvent('status', `Assembling ${rows.length} measurements in the lab’s core…`);
      rows = await spec.assemble(rows, hookCtx(info, ctx.prepared));
    }
    onEvent('rows', { rows, build, ctx });
    if (spec.analyze) {
      // Core's conclusions from the rows (a verdict, a fit, a report): the rows stay on
      // screen if this fails or is cancelled, and only an analysed run is a result.
      enter('analyze');
      onEvent('status', `Analysing ${rows.length} rows in the lab’s core…`);
      ctx.analysis = await spec.analyze(rows, { lab: labOf(bridge), values, quick, info, build, prepared: ctx.prepared, signal: controller.signal, where });
      onEvent('rows', { rows, build, ctx });
    }
    onEvent('progress', 1);
    enter('publish');
    const seconds = ((now() - state.startedAt) / 1000).toFixed(1);
    // A sweep that found its limit (sweep.js `ended`) is a result, with the reason beside it.
    if (result.ended) {
      const e = result.ended;
      note = `The sweep ended at ${e.label} (${e.done} of ${e.total} points measured): ${e.message}`;
    }
    const published = publish ? publish({ id: spec.id, rows, build: result.build, values, analysis: ctx.analysis }) : null;
    return {
      ok: true,
      rows,
      build,
      ctx,
      // What was measured: the timed calls, or the points (an assembled run shows fewer rows
      // than it measured points, so the measured rows are counted).
      status: doneText(result.rows, { seconds, build: result.build }),
      note,
      hint: hintOf(rows),
      result: published,
    };
  }

  const hintOf = (rows) => measureLongerHint(rows, values[MEASURE_LONGER_ID], { hasControl: spec.measureLonger !== false });

  // What a stopped run leaves: the rows so far, or what core assembles from them.
  async function stopped(err) {
    const phase = state.phase;
    const measured = state.rows.length;
    const cancelled = Boolean(err?.cancelled);
    const why = cancelled ? 'cancelled' : 'stopped by an error';
    const out = { ok: false, phase, cancelled, error: err, measured, total: state.total, ctx: state.ctx };
    Object.assign(out, { note: null, hint: null, show: null });
    if (phase === 'analyze') {
      out.note = `All ${measured} points were measured, but the analysis was ${why}: the table and the CSV hold the measured points; Run again for the analysis.`;
    } else if (phase === 'publish') {
      out.note = `All ${measured} points were measured and analysed, but keeping the result was ${why}: the table and the CSV hold it; Run again to keep it.`;
    } else if (measured > 0) {
      out.hint = hintOf(state.rows);
      let held = 'these points only';
      if (spec.assemble) {
        // Pieces are not rows: the table and the CSV hold what core assembles from the ones
        // measured so far (a fresh signal: the run's is aborted), or nothing.
        let rows = [];
        if (phase === 'assemble') {
          held = `nothing: assembling them was ${why}`;
        } else {
          try {
            rows = await spec.assemble(state.rows, { ...hookCtx(info, state.ctx?.prepared ?? null), signal: undefined });
            // An assemble that keeps the rows as they are (nothing to pair) leaves the note as it was.
            if (rows !== state.rows) held = `the ${formatCount(rows.length, 'row')} core assembled from them`;
          } catch (assembleErr) {
            rows = [];
            held = `nothing: core could not assemble them (${assembleErr.message})`;
          }
        }
        out.show = { rows, build: null, ctx: state.ctx };
      }
      out.note = `Partial result: ${measured} of ${state.total} points, ${why}. The table and the CSV hold ${held}.`;
    }
    if (cancelled) {
      out.status =
        phase === 'analyze' ? `Cancelled during the analysis, after all ${measured} points.` : `Cancelled after ${measured} of ${state.total ?? '?'} points.`;
    } else {
      out.status = 'Stopped by an error.';
    }
    return out;
  }

  const done = phases().then(
    (outcome) => {
      state.phase = 'done';
      return outcome;
    },
    async (err) => {
      const outcome = await stopped(err);
      state.phase = 'stopped';
      return outcome;
    },
  );
  return { state, statusText, cancel: () => controller.abort(), done };
}
