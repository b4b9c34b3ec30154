// Protects the sandbox's lockdown (web/src/lab/sandbox-lockdown.js) in a Node worker thread of
// its own, so the test process keeps its globals: every blocked API is gone afterwards, the
// worker's postMessage and onmessage are locked, no string can be run as code (eval, Function,
// the constructors reachable from any function, string timers), and ordinary code still works.
// The same lockdown in a real Chromium worker: tests/browser/sandbox-escapes.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { BLOCKED_GLOBALS, BLOCKED_NAVIGATOR } from '../../web/src/lab/sandbox-lockdown.js';

const lockdownUrl = new URL('../../web/src/lab/sandbox-lockdown.js', import.meta.url).href;

function inLockedThread(setup, probes) {
  const source = `
    import { parentPort } from 'node:worker_threads';
    const { BLOCKED_GLOBALS, BLOCKED_NAVIGATOR, lockDownSandbox } = await import(${JSON.stringify(lockdownUrl)});
    ${setup}
    const left = lockDownSandbox(globalThis);
    const out = { left };
    const probes = ${probes};
    for (const [name, f] of Object.entries(probes)) {
      try { out[name] = String(f()); } catch (e) { out[name] = 'threw ' + e.name + ': ' + e.message; }
    }
    parentPort.postMessage(out);
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), { type: 'module' });
    worker.once('message', (m) => {
      resolve(m);
      worker.terminate();
    });
    worker.once('error', reject);
  });
}

test('every blocked API is gone, from the global and from its prototype chain', async () => {
  // Node lacks most browser APIs: give the thread stand-ins, some on a prototype of the global.
  const out = await inLockedThread(
    `const proto = Object.getPrototypeOf(globalThis);
     for (const name of BLOCKED_GLOBALS) globalThis[name] = function () { return 'reached'; };
     Object.defineProperty(proto, 'indexedDB', { get: () => ({}), configurable: true });
     Object.defineProperty(globalThis, 'navigator', { value: Object.create({ sendBeacon() {}, storage: {}, locks: {}, serviceWorker: {} }), configurable: true });`,
    `Object.fromEntries([
       ...BLOCKED_GLOBALS.map((n) => [n, () => typeof globalThis[n]]),
       ...BLOCKED_NAVIGATOR.map((n) => ['navigator.' + n, () => typeof navigator[n]]),
     ])`,
  );
  assert.deepEqual(out.left, []);
  for (const name of BLOCKED_GLOBALS) assert.equal(out[name], 'undefined', name);
  for (const name of BLOCKED_NAVIGATOR) assert.equal(out[`navigator.${name}`], 'undefined', name);
});

test('no string runs as code, the worker channel is locked, ordinary code still works', async () => {
  const out = await inLockedThread('', `({
    eval: () => eval('1 + 1'),
    indirectEval: () => (0, globalThis.eval)('1 + 1'),
    Function: () => Function('return 1')(),
    constructor: () => (function () {}).constructor('return 1')(),
    async: () => (async function () {}).constructor('return 1'),
    generator: () => (function* () {}).constructor('yield 1'),
    asyncGenerator: () => (async function* () {}).constructor('yield 1'),
    stringTimer: () => setTimeout('globalThis.x = 1', 0),
    functionTimer: () => typeof setTimeout(() => {}, 0),
    instanceOf: () => (() => 1) instanceof Function,
    postMessage: () => postMessage({ type: 'result' }),
    replacePostMessage: () => { try { globalThis.postMessage = () => 'mine'; } catch {} return globalThis.postMessage.name; },
    onmessage: () => { try { globalThis.onmessage = () => {}; } catch {} return globalThis.onmessage; },
    redefine: () => Object.defineProperty(globalThis, 'postMessage', { value: () => 'mine' }),
    arithmetic: () => [3, 1, 2].sort((a, b) => a - b).map((x) => x * 2).join(','),
    json: () => JSON.stringify({ a: new Float64Array([1.5]).length }),
  })`);
  assert.deepEqual(out.left, []);
  for (const name of ['eval', 'indirectEval', 'postMessage']) assert.match(out[name], /^threw TypeError: (eval|postMessage) is not available to code in the sandbox$/, name);
  for (const name of ['Function', 'constructor', 'async', 'generator', 'asyncGenerator']) {
    assert.match(out[name], /^threw TypeError: \w+ \(code from a string\) is not available to code in the sandbox$/, name);
  }
  assert.equal(out.stringTimer, 'threw TypeError: setTimeout takes a function in the sandbox, not a string of code');
  assert.equal(out.functionTimer, 'object');
  assert.equal(out.instanceOf, 'true');
  assert.equal(out.replacePostMessage, 'refused');
  assert.equal(out.onmessage, 'null');
  assert.equal(out.redefine, 'threw TypeError: Cannot redefine property: postMessage');
  assert.equal(out.arithmetic, '2,4,6');
  assert.equal(out.json, '{"a":1}');
});
