// The page's one machine probe: core's quick probe of this CPU's peak GFLOP/s and bandwidth,
// measured once, dated, kept in localStorage so a reload keeps it, and shared by every
// chapter that judges against it (the builder's bottleneck, the roofline, "% of peak", the
// operation-efficiency experiment). Re-probe replaces it everywhere at once: subscribers
// hear of each new probe. Not for: measuring (core's probeMachine) or judging (core).

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

/** The saved entry `{probe, measured_at_ms}`, or null when nothing usable is saved (never throws). */
export function readSavedProbe(storage) {
  const saved = readStoredJson(
    storage,
    PROBE_STORAGE_KEY,
    PROBE_STORAGE_VERSION,
    (s) => Number.isFinite(s.measured_at_ms) && s.measured_at_ms > 0 && probeProblem(s.probe) === null,
  );
  return saved ? { probe: saved.probe, measured_at_ms: saved.measured_at_ms } : null;
}

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

/**
 * The page's probe store for this bridge (one per page): `current()` resolves to the entry
 * `{probe, measured_at_ms}` (the saved one, else a new probe), `reprobe()` measures again,
 * `latest()` is the entry or null, `subscribe(fn)` calls fn(entry) on every new entry and
 * returns the unsubscribe. Every entry's roofs are handed to core (setMachineRoofs).
 */
export function machineProbeStore(bridge, { storage = globalThis.localStorage, now = () => Date.now() } = {}) {
  if (stores.has(bridge)) return stores.get(bridge);
  let entry = null;
  let pending = null;
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
  // One probe (or restore) at a time: callers meanwhile share its promise.
  const once = (work) => {
    if (!pending) {
      pending = work().finally(() => {
        pending = null;
      });
    }
    return pending;
  };
  const store = {
    latest: () => entry,
    current({ where = 'machine-probe' } = {}) {
      if (entry) return Promise.resolve(entry);
      return once(async () => {
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
      });
    },
    reprobe({ where = 'machine-probe' } = {}) {
      return once(() => probeNow(where));
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
  stores.set(bridge, store);
  return store;
}
