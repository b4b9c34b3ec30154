// Protects the page's one machine probe (state/machine-probe.js): probed once and shared by
// every caller, dated, handed to core (setMachineRoofs), kept in localStorage so a reload
// restores it without probing, replaced everywhere by Re-probe, and a probe core could not
// time (a roof of 0) or a damaged saved entry never becomes the page's probe.
// A caller that asks for the kernel engine gets its peaks as a second step, measured once,
// saved with the probe and again on Re-probe; a browser without the engine keeps the probe.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROBE_STORAGE_KEY, enginePeaksProblem, machineProbeStore, probeProblem, probeTime, readSavedProbe } from '../../web/src/state/machine-probe.js';

function memoryStorage(initial = {}) {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => (data.has(k) ? data.get(k) : null), setItem: (k, v) => data.set(k, String(v)) };
}

// A bridge whose probes read the next of `probes`; it records every call.
function fakeBridge(probes) {
  const calls = [];
  let i = 0;
  return {
    calls,
    async call(kind, payload) {
      calls.push([kind, payload]);
      if (kind === 'probeMachine') return probes[i++];
      if (kind === 'setMachineRoofs') return { ...payload.roofs, source: 'probe' };
      throw new Error(`unexpected ${kind}`);
    },
  };
}

const probe = (peak, bandwidth) => ({ peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth, ridge_flops_per_byte: peak / bandwidth, simd_backend: 'wasm-simd128' });

test('the first caller probes, every other caller shares that probe, and core gets its roofs', async () => {
  const bridge = fakeBridge([probe(40, 10)]);
  const storage = memoryStorage();
  const store = machineProbeStore(bridge, { storage, now: () => 1000 });
  const [a, b] = await Promise.all([store.current(), store.current()]);
  assert.equal(a, b);
  assert.deepEqual(a, { probe: probe(40, 10), measured_at_ms: 1000 });
  assert.equal(await store.current(), a);
  assert.deepEqual(bridge.calls.map(([k]) => k), ['probeMachine', 'setMachineRoofs']);
  assert.deepEqual(bridge.calls[1][1], { roofs: { peak_gflops_per_s: 40, bandwidth_gb_per_s: 10 } });
  assert.deepEqual(readSavedProbe(storage), a);
  assert.equal(machineProbeStore(bridge), store, 'one store per bridge');
});

test('a reload restores the saved probe without probing; Re-probe replaces it for every subscriber', async () => {
  const storage = memoryStorage();
  await machineProbeStore(fakeBridge([probe(40, 10)]), { storage, now: () => 1000 }).current();

  const bridge = fakeBridge([probe(50, 20)]);
  let t = 5000;
  const store = machineProbeStore(bridge, { storage, now: () => t });
  const seen = [];
  store.subscribe((e) => seen.push(e.measured_at_ms));
  const restored = await store.current();
  assert.deepEqual(restored, { probe: probe(40, 10), measured_at_ms: 1000 });
  assert.deepEqual(bridge.calls, [['setMachineRoofs', { roofs: { peak_gflops_per_s: 40, bandwidth_gb_per_s: 10 } }]]);

  const next = await store.reprobe();
  assert.deepEqual(next, { probe: probe(50, 20), measured_at_ms: 5000 });
  assert.equal(store.latest(), next);
  assert.deepEqual(seen, [1000, 5000]);
  assert.deepEqual(readSavedProbe(storage), next);
});

test('a probe that read 0 is refused with a reason naming Re-probe, and nothing is kept', async () => {
  const storage = memoryStorage();
  const store = machineProbeStore(fakeBridge([probe(0, 10), probe(40, 10)]), { storage, now: () => 7 });
  await assert.rejects(store.current(), /peak_gflops_per_s = 0: the machine was too busy to time; Re-probe/);
  assert.equal(store.latest(), null);
  assert.equal(storage.getItem(PROBE_STORAGE_KEY), null);
  assert.equal((await store.current()).probe.peak_gflops_per_s, 40, 'the next caller probes again');
});

test('a damaged or foreign saved entry is ignored, never thrown', () => {
  const good = { version: 1, measured_at_ms: 1000, probe: probe(40, 10) };
  const saved = (value) => readSavedProbe(memoryStorage({ [PROBE_STORAGE_KEY]: typeof value === 'string' ? value : JSON.stringify(value) }));
  assert.deepEqual(saved(good), { probe: good.probe, measured_at_ms: 1000 });
  assert.equal(saved('{not json'), null);
  assert.equal(saved({ ...good, version: 2 }), null);
  assert.equal(saved({ ...good, measured_at_ms: 'yesterday' }), null);
  assert.equal(saved({ ...good, probe: { ...good.probe, bandwidth_gb_per_s: -1 } }), null);
  assert.equal(saved({ ...good, probe: { ...good.probe, ridge_flops_per_byte: null } }), null);
  assert.equal(readSavedProbe({ getItem: () => { throw new Error('blocked'); } }), null);
  assert.equal(probeProblem(null), 'the probe gave no result');
});

test('a probe of today is named by its time, an older one by its date too', () => {
  const at = new Date(2026, 10, 26, 3, 12, 5).getTime();
  assert.equal(probeTime(at, at + 60000), '03:12:05');
  assert.equal(probeTime(at, at + 3 * 86400000), '26 Nov 03:12:05');
});

// A bridge as fakeBridge, with a kernel engine of `facts` whose probes read the next of
// `peaks` (facts null: the engine does not load).
function engineBridge(probes, facts, peaks) {
  const bridge = fakeBridge(probes);
  const call = bridge.call;
  let i = 0;
  bridge.call = async (kind, payload) => {
    if (kind === 'engineFacts') {
      bridge.calls.push([kind, payload]);
      if (!facts) throw new Error('no relaxed or plain SIMD module compiled');
      return facts;
    }
    if (kind === 'probeEngine') {
      bridge.calls.push([kind, payload]);
      return peaks[i++];
    }
    return call(kind, payload);
  };
  return bridge;
}

const enginePeaks = (fma, allCore) => ({
  threads: 2, muladd_gflops_per_s: 40, fma_gflops_per_s: fma, all_core_gflops_per_s: allCore,
  per_core_triad_gb_per_s: 10, all_core_triad_gb_per_s: 14, all_core_flavour: fma ? 'fma' : 'simd',
  all_core_ridge_flops_per_byte: allCore / 14,
});
const facts = { flavours: ['fma', 'simd'], max_threads: 2, shared_memory: true, why: 'relaxed SIMD and 2 of 2 cores' };

test('a caller asking for the engine gets its peaks as a second step on every thread, saved with the probe', async () => {
  const storage = memoryStorage();
  const bridge = engineBridge([probe(40, 10)], facts, [enginePeaks(60, 120)]);
  const store = machineProbeStore(bridge, { storage, now: () => 1000 });
  const seen = [];
  store.subscribe((e) => seen.push(e.engine ? 'engine' : e.engine_pending ? 'pending' : 'probe'));
  const plain = await store.current();
  assert.equal(plain.engine, undefined, 'a caller that does not ask never waits for the engine');
  assert.deepEqual(bridge.calls.map(([k]) => k), ['probeMachine', 'setMachineRoofs']);
  const entry = await store.current({ engine: true });
  assert.deepEqual(entry, { probe: probe(40, 10), measured_at_ms: 1000, engine: enginePeaks(60, 120), engine_why: facts.why });
  assert.deepEqual(bridge.calls.slice(2), [['engineFacts', {}], ['probeEngine', { threads: 2, options: { quick: true } }]]);
  assert.deepEqual(seen, ['probe', 'pending', 'engine']);
  assert.equal(await store.current({ engine: true }), entry, 'measured once');
  // A reload restores both without measuring.
  const again = machineProbeStore(fakeBridge([]), { storage });
  assert.deepEqual(await again.current({ engine: true }), entry);
});

test('Re-probe measures the engine again once it was asked for; figures that read 0 are refused with a reason', async () => {
  const bridge = engineBridge([probe(40, 10), probe(50, 20)], facts, [enginePeaks(null, 90), enginePeaks(60, 0)]);
  let t = 1;
  const store = machineProbeStore(bridge, { storage: memoryStorage(), now: () => t++ });
  const first = await store.current({ engine: true });
  assert.equal(first.engine.fma_gflops_per_s, null, 'an engine without FMA has no FMA peak, the rest holds');
  const second = await store.reprobe();
  assert.equal(second.probe.peak_gflops_per_s, 50);
  assert.equal(second.engine, undefined);
  assert.match(second.engine_error, /all_core_gflops_per_s = 0: the machine was too busy to time; Re-probe/);
  assert.deepEqual(bridge.calls.filter(([k]) => k === 'probeEngine').length, 2);
});

test('a browser where the engine does not load keeps the probe alone and says why, asking once', async () => {
  const bridge = engineBridge([probe(40, 10), probe(41, 10)], null, []);
  const storage = memoryStorage();
  const store = machineProbeStore(bridge, { storage, now: () => 5 });
  const entry = await store.current({ engine: true });
  assert.deepEqual(entry.probe, probe(40, 10));
  assert.match(entry.engine_error, /^the kernel engine did not load in this browser \(no relaxed or plain SIMD module compiled\)$/);
  assert.deepEqual(readSavedProbe(storage), { probe: probe(40, 10), measured_at_ms: 5 }, 'no failure is saved');
  const next = await store.reprobe();
  assert.equal(next.probe.peak_gflops_per_s, 41);
  assert.equal(next.engine_error, entry.engine_error);
  assert.equal(bridge.calls.filter(([k]) => k === 'engineFacts').length, 1);
});

test('engine figures are checked: a damaged saved engine is dropped, the probe kept', () => {
  assert.equal(enginePeaksProblem(enginePeaks(60, 120)), null);
  assert.equal(enginePeaksProblem(enginePeaks(null, 120)), null);
  assert.match(enginePeaksProblem({ ...enginePeaks(60, 120), fma_gflops_per_s: -1 }), /fma_gflops_per_s = -1/);
  assert.match(enginePeaksProblem({ ...enginePeaks(60, 120), per_core_triad_gb_per_s: undefined }), /per_core_triad_gb_per_s = undefined/);
  assert.match(enginePeaksProblem({ ...enginePeaks(60, 120), threads: 0 }), /ran on 0 threads/);
  assert.equal(enginePeaksProblem(null), 'the engine probe gave no result');
  const good = { version: 1, measured_at_ms: 1000, probe: probe(40, 10) };
  const stored = (engine) => memoryStorage({ [PROBE_STORAGE_KEY]: JSON.stringify({ ...good, engine, engine_why: 'w' }) });
  assert.deepEqual(readSavedProbe(stored({ threads: 2 })), { probe: good.probe, measured_at_ms: 1000 });
  assert.deepEqual(readSavedProbe(stored(enginePeaks(60, 120))).engine, enginePeaks(60, 120));
});
