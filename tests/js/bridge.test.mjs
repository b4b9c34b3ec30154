// Protects the bridge's contract with the page: results, progress and errors reach the
// right call; an abort cancels cooperatively; a worker that does not answer a cancel in
// time is terminated, the call rejects as cancelled and the next call gets a new worker;
// calls still waiting survive the restart. A fake worker stands in for the lab worker.

import assert from 'node:assert/strict';
import { test as nodeTest } from 'node:test';
import { createBridge } from '../../web/src/lab/bridge.js';
import { errorReply, progressReply, resultReply } from '../../web/src/lab/protocol.js';

// Answers each request by calling `respond(msg, worker)` on a later macrotask, as a real
// worker would; a respond that does nothing models a worker stuck in a long step.
class FakeWorker {
  constructor(respond) {
    this.respond = respond;
    this.posted = [];
    this.terminated = false;
  }
  postMessage(msg) {
    this.posted.push(msg);
    setTimeout(() => !this.terminated && this.respond(msg, this), 0);
  }
  reply(msg) {
    if (!this.terminated) setTimeout(() => this.onmessage?.({ data: msg }), 0);
  }
  terminate() {
    this.terminated = true;
  }
}

function fakeBridge(respond, options = {}) {
  const workers = [];
  const bridge = createBridge({
    createWorker: () => {
      const w = new FakeWorker(respond);
      workers.push(w);
      return w;
    },
    ...options,
  });
  return { bridge, workers };
}

// A bridge bug tends to leave a promise pending forever: fail such a test instead of hanging.
const test = (name, fn) => nodeTest(name, { timeout: 5000 }, fn);

const echo = (msg, w) => msg.kind !== 'cancel' && w.reply(resultReply(msg.id, { kind: msg.kind, payload: msg.payload }));

test('call resolves with the result of its own request', async () => {
  const { bridge, workers } = fakeBridge(echo);
  const [a, b] = await Promise.all([bridge.call('machineInfo'), bridge.call('exerciseBank', { build: 'scalar' })]);
  assert.deepEqual(a, { kind: 'machineInfo', payload: {} });
  assert.deepEqual(b, { kind: 'exerciseBank', payload: { build: 'scalar' } });
  assert.equal(workers.length, 1, 'one worker serves every call');
});

test('progress replies reach onProgress in order before the result', async () => {
  const { bridge } = fakeBridge((msg, w) => {
    w.reply(progressReply(msg.id, 0.5, { done: 1 }));
    w.reply(progressReply(msg.id, 1, { done: 2 }));
    w.reply(resultReply(msg.id, 'rows'));
  });
  const seen = [];
  const result = await bridge.call('sweep', {}, { onProgress: (f, d) => seen.push([f, d.done]) });
  assert.equal(result, 'rows');
  assert.deepEqual(seen, [
    [0.5, 1],
    [1, 2],
  ]);
});

test('an error reply rejects with an Error carrying the message, where and cancelled', async () => {
  const { bridge } = fakeBridge((msg, w) => w.reply(errorReply(msg.id, new Error('n = 0 is outside [1, 4096]'))));
  await assert.rejects(bridge.call('sweep', {}, { where: 'matmul-run' }), (err) => {
    assert.ok(err instanceof Error);
    assert.equal(err.message, 'n = 0 is outside [1, 4096]');
    assert.equal(err.where, 'matmul-run');
    assert.equal(err.cancelled, false);
    return true;
  });
});

test('where defaults to the kind of the call', async () => {
  const { bridge } = fakeBridge((msg, w) => w.reply(errorReply(msg.id, 'bad')));
  await assert.rejects(bridge.call('gradeExercise'), { message: 'bad', where: 'gradeExercise' });
});

test('an abort sends a cancel for that request and rejects as cancelled without a restart', async () => {
  const { bridge, workers } = fakeBridge((msg, w) => {
    if (msg.kind === 'cancel') w.reply(errorReply(msg.payload.target, { message: 'cancelled', cancelled: true }));
  });
  const controller = new AbortController();
  const call = bridge.call('sweep', {}, { signal: controller.signal, where: 'matmul-run' });
  controller.abort();
  await assert.rejects(call, { message: 'cancelled', cancelled: true, where: 'matmul-run' });
  const [request, cancel] = workers[0].posted;
  assert.deepEqual(cancel.payload, { target: request.id });
  assert.equal(cancel.kind, 'cancel');
  assert.equal(workers[0].terminated, false);
});

test('a worker that ignores the cancel is terminated after the timeout and restarted lazily', async () => {
  let stuck = true;
  const { bridge, workers } = fakeBridge(
    (msg, w) => {
      if (!stuck && msg.kind !== 'cancel') w.reply(resultReply(msg.id, 'fresh'));
    },
    { cancelTimeoutMs: 20 },
  );
  const controller = new AbortController();
  const call = bridge.call('sweep', {}, { signal: controller.signal });
  controller.abort();
  await assert.rejects(call, { message: 'cancelled', cancelled: true });
  assert.equal(workers[0].terminated, true);
  assert.equal(workers.length, 1, 'no new worker until it is needed');
  stuck = false;
  assert.equal(await bridge.call('machineInfo'), 'fresh');
  assert.equal(workers.length, 2);
});

test('calls waiting on a terminated worker are re-sent to its replacement', async () => {
  const { bridge, workers } = fakeBridge(
    (msg, w) => {
      // The first worker is stuck; its replacement answers everything.
      if (workers.indexOf(w) > 0 && msg.kind !== 'cancel') w.reply(resultReply(msg.id, msg.kind));
    },
    { cancelTimeoutMs: 20 },
  );
  const controller = new AbortController();
  const sweep = bridge.call('sweep', {}, { signal: controller.signal });
  const bank = bridge.call('exerciseBank');
  controller.abort();
  await assert.rejects(sweep, { cancelled: true });
  assert.equal(await bank, 'exerciseBank');
  assert.equal(workers.length, 2);
});

test('an already-aborted signal rejects at once and posts nothing', async () => {
  const { bridge, workers } = fakeBridge(echo);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(bridge.call('machineInfo', {}, { signal: controller.signal }), { cancelled: true });
  assert.equal(workers.length, 0);
});

test('a late result after an abort still rejects as cancelled', async () => {
  const { bridge } = fakeBridge((msg, w) => msg.kind !== 'cancel' && setTimeout(() => w.reply(resultReply(msg.id, 1)), 5));
  const controller = new AbortController();
  const call = bridge.call('machineInfo', {}, { signal: controller.signal });
  controller.abort();
  await assert.rejects(call, { cancelled: true });
});

test('a worker error event fails its waiting calls and the next call starts a new worker', async () => {
  const { bridge, workers } = fakeBridge((msg, w) => {
    if (workers.indexOf(w) === 0) w.onerror({ message: 'Uncaught SyntaxError in worker.js' });
    else w.reply(resultReply(msg.id, 'ok'));
  });
  await assert.rejects(bridge.call('machineInfo', {}, { where: 'machine-facts' }), {
    message: 'Uncaught SyntaxError in worker.js',
    where: 'machine-facts',
    cancelled: false,
  });
  assert.equal(workers[0].terminated, true);
  assert.equal(await bridge.call('machineInfo'), 'ok');
});

test('terminate rejects waiting calls as cancelled and ends the worker', async () => {
  const { bridge, workers } = fakeBridge(() => {});
  const call = bridge.call('sweep');
  bridge.terminate();
  await assert.rejects(call, { cancelled: true });
  assert.equal(workers[0].terminated, true);
});
