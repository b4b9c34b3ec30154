// The page's one machine probe: core's quick probe of this CPU's peak GFLOP/s and bandwidth,
// measured once, dated, kept in localStorage so a reload keeps it, and shared by every
// chapter that judges against it (the builder's bottleneck, the roofline, "% of peak", the
// operation-efficiency experiment). Re-probe replaces it everywhere at once: subscribers
// hear of each new probe. A caller that asks for the engine's figures (the roofline's
// per-core FMA and all-core roofs) gets a second step on the kernel engine, measured after
// the probe and published with it; a browser where the engine does not load keeps the probe
// alone. Not for: measuring (core's probeMachine, probeEngine) or judging (core).

import { labOf, probeMachineRoofs } from '../lab/client.js';
import { recordProbe } from '../lab/machine-facts.js';
import { readStoredJson, writeStoredJson } from './stored-json.js';

export const PROBE_STORAGE_KEY = 'perflab.machine-probe.v1';
export const PROBE_STORAGE_VERSION = 1;

const ROOF_FIELDS = ['peak_gflops_per_s', 'bandwidth_gb_per_s', 'ridge_flops_per_byte'];

/**
 * Why a probe result cannot be used, or null: both roofs and the ridge must be finite and
 * above 0 (a machine too busy to time reads 0; core reports that as null).
 */
export function probeProblem(probe) {
  if (probe === null || typeof probe !== 'object') return 'the probe gave no result';
  for (const field of ROOF_FIELDS) {
    const v = probe[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      return `the probe read ${field} = ${v === null ? 'nothing' : String(v)}: the machine was too busy to time; Re-probe`;
    }
  }
  return null;
}

// Core's EnginePeaks fields that must be finite and above 0 (fma_gflops_per_s may be null).
const ENGINE_FIELDS = ['muladd_gflops_per_s', 'all_core_gflops_per_s', 'per_core_triad_gb_per_s', 'all_core_triad_gb_per_s'];

/** Why the engine's peaks (core's probeEngine object) cannot be drawn, or null. */
export function enginePeaksProblem(peaks) {
  if (peaks === null || typeof peaks !== 'object') return 'the engine probe gave no result';
  const fma = peaks.fma_gflops_per_s;
  const fields = fma === null || fma === undefined ? ENGINE_FIELDS : [...ENGINE_FIELDS, 'fma_gflops_per_s'];
  for (const field of fields) {
    const v = peaks[field];
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      return `the engine probe read ${field} = ${v === null ? 'nothing' : String(v)}: the machine was too busy to time; Re-probe`;
    }
  }
  if (!Number.isInteger(peaks.threads) || peaks.threads < 1) return `the engine probe ran on ${String(peaks.threads)} threads`;
  return null;
}

/**
 * The saved entry `{probe, measured_at_ms, engine?, engine_why?}`, or null when nothing
 * usable is saved (never throws); engine figures that do not check are left out.
 */
export function readSavedProbe(storage) {
  const saved = readStoredJson(
    storage,
    PROBE_STORAGE_KEY,
    PROBE_STORAGE_VERSION,
    (s) => Number.isFinite(s.measured_at_ms) && s.measured_at_ms > 0 && probeProblem(s.probe) === null,
  );
  if (!saved) return null;
  const entry = { probe: saved.probe, measured_at_ms: saved.measured_at_ms };
  if (saved.engine !== undefined && enginePeaksProblem(saved.engine) === null) {
    entry.engine = saved.engine;
    if (typeof saved.engine_why === 'string') entry.engine_why = saved.engine_why;
  }
  return entry;
}

// What is saved of an entry: the figures, never a step in progress or a failure.
const savedFields = ({ probe, measured_at_ms, engine, engine_why }) =>
  engine ? { probe, measured_at_ms, engine, ...(engine_why !== undefined ? { engine_why } : {}) } : { probe, measured_at_ms };

function saveProbe(storage, entry) {
  // Storage blocked or full: the probe still holds for this page, so the error is dropped.
  writeStoredJson(storage, PROBE_STORAGE_KEY, PROBE_STORAGE_VERSION, entry);
}

/** "03:12:05" for a probe of today, "25 Nov 03:12:05" for an older one (local time). */
export function probeTime(measured_at_ms, now_ms = Date.now()) {
  const at = new Date(measured_at_ms);
  const time = at.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hour12: false });
  if (at.toDateString() === new Date(now_ms).toDateString()) return time;
  return `${at.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${time}`;
}

const stores = new WeakMap(); // bridge -> store

// An entry still owed its engine step: none measured, none running, none failed.
const needsEngine = (e) => !e.engine && !e.engine_pending && e.engine_error === undefined;

/**
 * The page's probe store for this bridge (one per page): `current({where, engine})` resolves
 * to the entry `{probe, measured_at_ms}` (the saved one, else a new probe); with `engine:
 * true` it resolves once the entry also has the kernel engine's peaks (`engine`, core's
 * probeEngine object, with `engine_why`, the engine's own sentence on its threads) or the
 * reason there are none (`engine_error`); meanwhile the entry is published with
 * `engine_pending: true`. `reprobe()` measures again (the engine step too, once any caller has
 * asked for it), `latest()` is the entry or null, `subscribe(fn)` calls fn(entry) on every new
 * entry and returns the unsubscribe. Every entry's roofs are handed to core (setMachineRoofs).
 */
export function machineProbeStore(bridge, { storage = globalThis.localStorage, now = () => Date.now() } = {}) {
  if (stores.has(bridge)) return stores.get(bridge);
  let entry = null;
  let pending = null; // the probe or restore under way
  let enginePending = null; // the engine step under way
  let engineWanted = false; // a caller asked for the engine's figures: Re-probe measures them too
  let engineMissing = null; // why the engine did not load on this page: it is not asked again
  const listeners = new Set();
  const publish = (next) => {
    entry = next;
    // The submission's machine facts carry the probe the page judges against, restored or new.
    recordProbe(next.probe, new Date(next.measured_at_ms));
    for (const fn of listeners) fn(entry);
    return entry;
  };
  const probeNow = async (where) => {
    const probe = await probeMachineRoofs(bridge, { quick: true }, { where });
    const problem = probeProblem(probe);
    if (problem) throw new Error(problem);
    const next = { probe, measured_at_ms: now() };
    saveProbe(storage, next);
    return publish(next);
  };
  // The engine's peaks for the entry in force, on every thread the engine can run; its own
  // step, after the probe, published as it starts and as it ends.
  const measureEngine = async (where) => {
    const base = savedFields(entry);
    // A probe published meanwhile (Re-probe) is newer than these figures: it keeps its own.
    const finish = (next) => (entry.measured_at_ms === base.measured_at_ms ? publish(next) : entry);
    if (engineMissing) return publish({ ...base, engine_error: engineMissing });
    publish({ ...base, engine_pending: true });
    const lab = labOf(bridge);
    let facts;
    try {
      facts = await lab.engineFacts({ where });
    } catch (err) {
      engineMissing = `the kernel engine did not load in this browser (${err?.message ?? err})`;
      return finish({ ...base, engine_error: engineMissing });
    }
    try {
      const engine = await lab.probeEngine(facts.max_threads, { quick: true }, { where });
      const problem = enginePeaksProblem(engine);
      if (problem) throw new Error(problem);
      const next = { ...base, engine, engine_why: facts.why };
      if (entry.measured_at_ms === base.measured_at_ms) saveProbe(storage, savedFields(next));
      return finish(next);
    } catch (err) {
      return finish({ ...base, engine_error: err?.message ?? String(err) });
    }
  };
  const engineStep = (where) => {
    if (!enginePending) {
      enginePending = measureEngine(where).finally(() => {
        enginePending = null;
      });
    }
    return enginePending;
  };
  // One probe (or restore) at a time: callers meanwhile share its promise. It waits for an
  // engine step under way, so the step never publishes over a newer probe.
  const once = (work) => {
    if (!pending) {
      pending = (enginePending ?? Promise.resolve())
        .then(work)
        .finally(() => {
          pending = null;
        });
    }
    return pending;
  };
  const restoreOrProbe = async (where) => {
    const saved = readSavedProbe(storage);
    if (!saved) return probeNow(where);
    // The saved probe becomes core's roofs; one core refuses is measured again.
    const { peak_gflops_per_s, bandwidth_gb_per_s } = saved.probe;
    try {
      await labOf(bridge).setMachineRoofs({ peak_gflops_per_s, bandwidth_gb_per_s }, { where });
    } catch {
      return probeNow(where);
    }
    return publish(saved);
  };
  // The entry, with its engine step when asked for and owed.
  const withEngine = async (base, engine, where) => {
    if (!engine) return base;
    if (needsEngine(base)) return engineStep(where);
    return base.engine_pending ? enginePending ?? base : base;
  };
  const store = {
    latest: () => entry,
    current({ where = 'machine-probe', engine = false } = {}) {
      if (engine) engineWanted = true;
      const base = entry ? Promise.resolve(entry) : once(() => (entry ? entry : restoreOrProbe(where)));
      return base.then((e) => withEngine(e, engine, where));
    },
    reprobe({ where = 'machine-probe' } = {}) {
      return once(() => probeNow(where)).then((e) => withEngine(e, engineWanted, where));
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  stores.set(bridge, store);
  return store;
}
