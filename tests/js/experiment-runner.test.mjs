// The experiment runner (web/src/experiments/runner.js) without a page: its phases in order,
// the progress it counts, quick and full plans, cancel in the middle of measuring, and a
// failure in each phase, which must keep the rows measured so far and say what they are.
// The bridge is a fake that answers measureMatmul points one by one.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PHASES, initFacts, startRun } from '../../web/src/experiments/runner.js';

const point = (n) => ({ variant: 'naive', n, options: { samples: 3 } });

// A spec of `n` points (2 in quick mode), with the hooks given in `extra`.
function specOf(extra = {}) {
  return {
    id: 'runner-test',
    measure: { fn: 'measureMatmul' },
    measureLonger: false,
    plan: (values, ctx) => (ctx.quick ? [point(8), point(16)] : [point(8), point(16), point(32), point(64)]),
    ...extra,
  };
}

// Answers every point with a row (after `gate(i)` resolves), reporting progress as the worker
// client does; `failAt` throws instead at that point; an aborted signal rejects as cancelled.
function fakeBridge({ gate = () => Promise.resolve(), failAt = -1 } = {}) {
  const calls = [];
  return {
    calls,
    async call(fn, payload, { signal, onProgress }) {
      calls.push({ fn, payload });
      const rows = [];
      const total = payload.points.length;
      for (let i = 0; i < total; i++) {
        await gate(i);
        if (signal.aborted) throw Object.assign(new Error('cancelled'), { cancelled: true });
        if (i === failAt) throw new Error(`point ${i} failed`);
        const row = { n: payload.points[i].n, median_ms: i + 1 };
        rows.push(row);
        onProgress((i + 1) / total, { row, done: i + 1, total });
      }
      return { rows, build: 'simd' };
    },
  };
}

function run(spec, bridge, extra = {}) {
  const events = [];
  const handle = startRun(spec, {
    bridge,
    values: {},
    where: 'runner test',
    onEvent: (type, detail) => events.push([type, detail]),
    now: () => 0,
    ...extra,
  });
  return { handle, events };
}

test('a complete run goes through its phases, counts progress and publishes the rows', async () => {
  const published = [];
  const spec = specOf({
    prepare: async (values, { status }) => {
      status('Fetching the test split: 1 of 4 MB');
      return { seed: 7 };
    },
    assemble: async (rows) => rows.map((r) => ({ ...r, assembled: true })),
    // What prepare returned reaches the analysis too (the suite's held models).
    analyze: async (rows, { prepared }) => ({ count: rows.length, seed: prepared.seed }),
  });
  const bridge = fakeBridge();
  const { handle, events } = run(spec, bridge, { publish: (r) => (published.push(r), { ...r, stored: true }) });
  const outcome = await handle.done;
  assert.equal(outcome.ok, true);
  const phases = events.filter(([t]) => t === 'phase').map(([, p]) => p);
  assert.deepEqual(phases, ['prepare', 'plan', 'measure', 'assemble', 'analyze', 'publish']);
  assert.deepEqual(PHASES, phases);
  assert.equal(outcome.rows.length, 4);
  assert.ok(outcome.rows.every((r) => r.assembled));
  assert.deepEqual(outcome.ctx.analysis, { count: 4, seed: 7 });
  // A hook's status line comes between the runner's own.
  const statuses = events.filter(([t]) => t === 'status').map(([, text]) => text);
  assert.deepEqual(statuses.slice(0, 3), ['Starting the lab worker…', 'Preparing the run in the lab’s core…', 'Fetching the test split: 1 of 4 MB']);
  assert.deepEqual(outcome.ctx.prepared, { seed: 7 });
  assert.equal(outcome.status, 'Done: 4 points in 0.0 s (simd build).');
  assert.equal(published.length, 1);
  assert.equal(outcome.result.stored, true);
  // Progress: one row event per point, fractions rising to 1, done counting to the total.
  assert.equal(events.filter(([t]) => t === 'row').length, 4);
  assert.deepEqual(
    events.filter(([t]) => t === 'progress').map(([, f]) => f),
    [0.25, 0.5, 0.75, 1, 1],
  );
  assert.equal(handle.state.done, 4);
  assert.equal(handle.state.total, 4);
  assert.deepEqual(bridge.calls[0].payload.points.map((p) => p.n), [8, 16, 32, 64]);
});

test('quick mode plans the quick points; the progress line counts them', async () => {
  let seen = null;
  const bridge = fakeBridge({
    gate: (i) => {
      if (i === 1) seen = handle.statusText();
      return Promise.resolve();
    },
  });
  const { handle } = run(specOf(), bridge, { quick: true });
  const outcome = await handle.done;
  assert.equal(outcome.ok, true);
  assert.deepEqual(bridge.calls[0].payload.points.map((p) => p.n), [8, 16]);
  assert.match(seen, /^Measuring point 2 of 2 \(naive matmul at N=16|^Measuring point 2 of 2/);
  assert.match(handle.statusText(), /^Measured 2 of 2 points/);
});

test('cancel in the middle of measuring keeps the rows so far and says how many', async () => {
  let release;
  const bridge = fakeBridge({ gate: (i) => (i === 2 ? new Promise((r) => (release = r)) : Promise.resolve()) });
  const { handle } = run(specOf(), bridge);
  while (handle.state.rows.length < 2) await new Promise((r) => setImmediate(r));
  handle.cancel();
  release();
  const outcome = await handle.done;
  assert.equal(outcome.ok, false);
  assert.equal(outcome.cancelled, true);
  assert.equal(outcome.phase, 'measure');
  assert.equal(outcome.measured, 2);
  assert.equal(handle.state.rows.length, 2);
  assert.equal(outcome.status, 'Cancelled after 2 of 4 points.');
  assert.equal(outcome.note, 'Partial result: 2 of 4 points, cancelled. The table and the CSV hold these points only.');
});

test('cancel while prepare is still running does not wait for it', async () => {
  const { handle } = run(specOf({ prepare: () => new Promise(() => {}) }), fakeBridge());
  await new Promise((r) => setImmediate(r));
  handle.cancel();
  const outcome = await handle.done;
  assert.equal(outcome.cancelled, true);
  assert.equal(outcome.phase, 'prepare');
  assert.equal(outcome.measured, 0);
  assert.equal(outcome.status, 'Cancelled after 0 of ? points.');
});

test('a failure in each phase keeps the rows so far and names the phase', async (t) => {
  const boom = (what) => () => {
    throw new Error(`${what} failed`);
  };
  await t.test('prepare', async () => {
    const outcome = await run(specOf({ prepare: boom('prepare') }), fakeBridge()).handle.done;
    assert.deepEqual([outcome.phase, outcome.measured, outcome.error.message, outcome.status], ['prepare', 0, 'prepare failed', 'Stopped by an error.']);
    assert.equal(outcome.note, null);
  });
  await t.test('plan', async () => {
    const outcome = await run(specOf({ plan: () => [] }), fakeBridge()).handle.done;
    assert.equal(outcome.phase, 'plan');
    assert.match(outcome.error.message, /produced no points/);
  });
  await t.test('measure', async () => {
    const outcome = await run(specOf(), fakeBridge({ failAt: 3 })).handle.done;
    assert.deepEqual([outcome.phase, outcome.measured, outcome.cancelled], ['measure', 3, false]);
    assert.equal(outcome.note, 'Partial result: 3 of 4 points, stopped by an error. The table and the CSV hold these points only.');
  });
  await t.test('measure, with pieces core assembles: what it assembles from those measured', async () => {
    const spec = specOf({ assemble: async (rows) => rows.slice(0, 1) });
    const outcome = await run(spec, fakeBridge({ failAt: 3 })).handle.done;
    assert.deepEqual(outcome.show.rows, [{ n: 8, median_ms: 1 }]);
    assert.match(outcome.note, /hold the 1 row core assembled from them\.$/);
  });
  await t.test('assemble', async () => {
    const outcome = await run(specOf({ assemble: boom('assemble') }), fakeBridge()).handle.done;
    assert.deepEqual([outcome.phase, outcome.measured], ['assemble', 4]);
    assert.deepEqual(outcome.show.rows, []);
    assert.match(outcome.note, /^Partial result: 4 of 4 points, stopped by an error\. The table and the CSV hold nothing: assembling them was stopped by an error\.$/);
  });
  await t.test('analyze', async () => {
    const events = [];
    const outcome = await run(specOf({ analyze: boom('analyze') }), fakeBridge(), { onEvent: (type, d) => events.push([type, d]) }).handle.done;
    assert.deepEqual([outcome.phase, outcome.measured], ['analyze', 4]);
    // The measured rows were handed over before the analysis started, and stay.
    assert.equal(events.filter(([type]) => type === 'rows')[0][1].rows.length, 4);
    assert.match(outcome.note, /^All 4 points were measured, but the analysis was stopped by an error/);
  });
  await t.test('publish', async () => {
    const outcome = await run(specOf(), fakeBridge(), { publish: boom('publish') }).handle.done;
    assert.deepEqual([outcome.phase, outcome.measured, outcome.ok], ['publish', 4, false]);
    assert.match(outcome.note, /^All 4 points were measured and analysed, but keeping the result was stopped by an error/);
  });
});

test('a failure before the first point leaves nothing to show', async () => {
  const outcome = await run(specOf(), fakeBridge({ failAt: 0 })).handle.done;
  assert.deepEqual([outcome.phase, outcome.measured, outcome.note, outcome.show], ['measure', 0, null, null]);
});

test('init facts are asked once, asked again after a failure, and replaced by update', async () => {
  let calls = 0;
  let update;
  const updates = [];
  const spec = {
    init: async (args) => {
      calls += 1;
      update = args.update;
      if (calls === 1) throw new Error('probe failed');
      return { cores: args.quick ? 1 : 2 };
    },
  };
  const facts = initFacts(spec, { quick: true }, (info) => updates.push(info));
  await assert.rejects(facts(), /probe failed/);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(await facts(), { cores: 1 });
  assert.deepEqual(await facts(), { cores: 1 });
  assert.equal(calls, 2);
  update({ cores: 4 });
  assert.deepEqual(await facts(), { cores: 4 });
  assert.deepEqual(updates, [{ cores: 4 }]);
  assert.equal(await initFacts({}, {}, () => {})(), null);
});

test('a run without a bridge or values is refused, naming what is missing', () => {
  assert.throws(() => startRun(specOf(), { values: {} }), /`bridge` must be the lab bridge/);
  assert.throws(() => startRun(specOf(), { bridge: fakeBridge(), values: null }), /`values` must be an object/);
});
