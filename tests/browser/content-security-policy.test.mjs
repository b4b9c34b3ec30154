// Protects the page's and its workers' Content-Security-Policies (tools/csp.mjs) in Chromium:
// (1) the built page, served as `tools/lab serve` serves it, asks no origin but its own for
// anything while it loads, runs a quick experiment and grades a code exercise, and each
// response carries its policy (the page's in a <meta> too, for static hosts); (2) the policies
// themselves do what tools/csp.mjs says, checked with probe workers served under each one by
// this test: the sandbox's, as the host frame's <meta> with no header at all, blocks fetch,
// XHR, WebSocket, EventSource and a dynamic import before any request leaves, yet lets the
// runner compile code with new Function; the lab worker's allows its own wasm and Embind's new Function; the page's <meta>
// blocks the page's own requests to other origins; (3) a quick run of every experiment of the
// three chapters (and the model builder's profile) asks no other origin for anything, the
// workers' requests included (every test that opens the lab through harness.mjs's openLab
// checks the same over what it does); (4) on a plain file server that sends no header, the
// student's code (through the page's code card, and a probe without the lockdown in the host
// frame) makes no request reach the server. A second origin records every request.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { LAB_WORKER_POLICY, PAGE_META_POLICY, PAGE_POLICY, SANDBOX_POLICY, policyFor, sandboxHostHtml } from '../../tools/csp.mjs';
import {
  collectErrors,
  collectForeignRequests,
  exerciseCards,
  launchBrowser,
  startPreview,
  waitForMachineFacts,
} from './harness.mjs';

const otherRequests = [];
const other = http.createServer((req, res) => {
  otherRequests.push(`${req.method} ${req.url}`);
  res.writeHead(200, {
    'content-type': 'text/javascript',
    'access-control-allow-origin': '*',
    'cross-origin-resource-policy': 'cross-origin',
  });
  res.end('export const escaped = true;');
});
other.on('upgrade', (req, socket) => {
  otherRequests.push(`UPGRADE ${req.url}`);
  socket.destroy();
});
let OTHER;
let browser;

before(async () => {
  await new Promise((resolve) => other.listen(0, '127.0.0.1', resolve));
  OTHER = `http://127.0.0.1:${other.address().port}`;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  other.close();
});

test('the page asks no other origin for anything over a load, a quick experiment and a code exercise', async () => {
  const server = await startPreview();
  const page = await browser.context.newPage();
  try {
    const errors = collectErrors(page);
    const requests = [];
    const policies = new Map();
    browser.context.on('request', (r) => requests.push(r.url()));
    page.on('response', (r) => policies.set(new URL(r.url()).pathname, r.headers()['content-security-policy'] ?? null));
    await page.goto(`${server.url}?quick=1#acceleration`);
    await waitForMachineFacts(page);

    // A quick experiment.
    const id = 'acceleration-gelu-fusion';
    await page.click(`[data-experiment="${id}"] [data-action="run"]`);
    await page.waitForFunction(
      (s) => /^(Done|Stopped)/.test(document.querySelector(s)?.textContent ?? ''),
      `[data-experiment="${id}"] [data-role="status"]`,
      { timeout: 120000 },
    );
    // A code exercise.
    const cards = exerciseCards(page);
    const ex = 'acceleration.attainable-code';
    await cards.waitForCards([ex]);
    await cards.card(ex).locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('function attainable(peak, bandwidth, intensity) {\n  return Math.min(peak, intensity * bandwidth);\n}');
    const correct = await cards.submitAndWait(ex, () => cards.card(ex).locator('button[data-role="run"]').click());
    assert.equal(correct, 'true');

    const origin = new URL(server.url).origin;
    const foreign = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
    assert.deepEqual(foreign, []);
    // The workers' own requests are seen too (the wasm is fetched by the lab worker).
    assert.ok(requests.some((u) => u.endsWith('.wasm')), requests.join('\n'));
    assert.ok(requests.some((u) => /\/sandbox\/sandbox-worker-[\w-]+\.js$/.test(u)), requests.join('\n'));
    assert.ok(requests.some((u) => u.endsWith('/sandbox/host.html')), requests.join('\n'));
    assert.deepEqual(otherRequests, []);
    // The host frame leaves the page cross-origin isolated (COOP/COEP), its timers fine.
    assert.equal(await page.evaluate(() => crossOriginIsolated), true);

    // Each response carries its policy; the page's is in the document as well.
    const byPattern = (re) => [...policies].filter(([p]) => re.test(p)).map(([, v]) => v);
    assert.deepEqual(byPattern(/^\/$/), [PAGE_POLICY]);
    assert.deepEqual([...new Set(byPattern(/\/assets\/worker-[\w-]+\.js$/))], [LAB_WORKER_POLICY]);
    assert.deepEqual([...new Set(byPattern(/\/sandbox\/(sandbox-worker-[\w-]+\.js|host\.html)$/))], [SANDBOX_POLICY]);
    assert.equal(
      await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'),
      PAGE_META_POLICY,
    );
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

// Every experiment the page mounts with a Run button, found in the DOM (so a new one is covered without editing
// this list), run in quick mode one after the other; whatever each ends in (Done, Stopped, or
// a message asking for input) is fine here: the count of requests to other origins is what
// is checked, and it must be zero.
test('a quick run of every experiment of every chapter asks no other origin for anything', async () => {
  const server = await startPreview();
  const origin = new URL(server.url).origin;
  const foreign = collectForeignRequests(browser.context, origin);
  const own = [];
  const countOwn = (r) => own.push(r.url());
  browser.context.on('request', countOwn);
  const ran = [];
  otherRequests.length = 0;
  try {
    for (const chapter of ['profiling', 'acceleration', 'benchmarking']) {
      const page = await browser.context.newPage();
      try {
        const errors = collectErrors(page);
        await page.goto(`${server.url}?quick=1#${chapter}`);
        await waitForMachineFacts(page);
        const section = `section[data-chapter="${chapter}"]`;
        if (chapter === 'profiling') {
          await page.click('[data-role="builder"] [data-action="profile"]');
          await page.waitForFunction(
            () => document.querySelector('[data-role="builder"]')?.dataset.state === 'idle',
            null,
            { timeout: 120000 },
          );
          ran.push('profiling builder');
        }
        // Every experiment with a Run button (the intensity calculator and the CLI comparison
        // have none: they compute from what is typed or pasted).
        const ids = await page.$$eval(`${section} [data-experiment]`, (els) =>
          els.filter((e) => e.querySelector('[data-action="run"]')).map((e) => e.dataset.experiment),
        );
        assert.ok(ids.length >= 5, `${chapter}: ${ids.length} experiments found`);
        for (const id of ids) {
          const run = `${section} [data-experiment="${id}"] [data-action="run"]`;
          // Selects whose options come from core keep Run disabled until they arrive.
          await page.waitForFunction((s) => document.querySelector(s)?.disabled === false, run, { timeout: 60000 })
            .catch((err) => assert.fail(`${id}: Run stayed disabled (${err.message}); ran before it:\n${ran.join('\n')}`));
          await page.click(run);
          await page.waitForFunction(
            (s) => /^(Done|Stopped|Fix the setting)/.test(document.querySelector(s)?.textContent ?? ''),
            `${section} [data-experiment="${id}"] [data-role="status"]`,
            { timeout: 180000 },
          );
          ran.push(`${id}: ${(await page.textContent(`${section} [data-experiment="${id}"] [data-role="status"]`)).split(':')[0]}`);
        }
        assert.deepEqual(errors, [], chapter);
      } finally {
        await page.close();
      }
    }
    assert.deepEqual(foreign, [], ran.join('\n'));
    assert.deepEqual(otherRequests, []);
    // The count saw the page's own requests, the workers' included.
    assert.ok(own.some((u) => u.endsWith('.wasm')), own.join('\n'));
    assert.ok(ran.filter((r) => r.endsWith(': Done')).length >= 15, ran.join('\n'));
  } finally {
    browser.context.off('request', countOwn);
    await server.close();
  }
});

// ---- the policies themselves, with probe workers ---------------------------------------------

// Runs in a worker: tries each way out and posts what happened (on the port of the first
// message it gets when `viaPort`, as the sandbox's worker replies).
const probeWorker = (other, { viaPort = false, self = '' } = {}) => `(async () => {
const OTHER = ${JSON.stringify(other)};
const SELF = ${JSON.stringify(self)};
const reply = ${viaPort} ? await new Promise((resolve) => { onmessage = (e) => { const port = e.ports[0]; resolve((m) => port.postMessage(m)); }; }) : postMessage;
const out = {};
async function attempt(name, f) {
  try { out[name] = 'allowed: ' + String(await f()); } catch (e) { out[name] = 'blocked: ' + e.name; }
}
await attempt('new Function', () => new Function('return 1')());
await attempt('wasm', () => WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(() => 'compiled'));
await attempt('fetch self', () => fetch(SELF + '/probe.txt').then((r) => r.status));
await attempt('fetch other', () => fetch(OTHER + '/fetch?data=1').then((r) => r.status));
await attempt('import other', () => import(OTHER + '/import.js').then((m) => m.escaped));
await attempt('sync XHR', () => { const x = new XMLHttpRequest(); x.open('GET', OTHER + '/xhr', false); x.send(); return x.status; });
await attempt('WebSocket', () => new Promise((resolve, reject) => {
  const ws = new WebSocket(OTHER.replace('http', 'ws') + '/ws');
  ws.onopen = () => resolve('open');
  ws.onerror = () => reject(Object.assign(new Error('refused'), { name: 'WebSocketError' }));
}));
await attempt('EventSource', () => new Promise((resolve, reject) => {
  const es = new EventSource(OTHER + '/es');
  es.onopen = () => resolve('open');
  es.onerror = () => reject(Object.assign(new Error('refused'), { name: 'EventSourceError' }));
}));
reply(out);
})();
`;

const probePage = `
const run = (url) => new Promise((resolve) => {
  const w = new Worker(url, { type: 'module' });
  w.onmessage = (e) => resolve(e.data);
  w.onerror = (e) => resolve({ error: e.message || 'could not start' });
});
const pageFetch = await fetch(new URL('/fetch-from-page', OTHER_ORIGIN)).then(() => 'allowed', (e) => 'blocked: ' + e.name);
// The sandbox's way: an opaque-origin frame loading the host file, whose blob: worker runs the
// source it is handed and replies on the port handed with it (web/src/lab/sandbox-host.js).
const viaFrame = (source) => new Promise((resolve) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.src = '/sandbox/host.html';
  const channel = new MessageChannel();
  channel.port1.onmessage = (e) => resolve(e.data);
  addEventListener('message', (e) => {
    if (e.source !== frame.contentWindow) return;
    if (e.data.type === 'ready') frame.contentWindow.postMessage({ source, message: 'probe' }, '*', [channel.port2]);
    else resolve({ error: e.data.message || 'could not start' });
  });
  document.body.append(frame);
});
window.probes = {
  page: pageFetch,
  sandbox: await viaFrame(await (await fetch('/sandbox/frame-probe.js')).text()),
  lab: await run('/assets/worker-probe.js'),
};
`;

test('each policy allows what its context needs and stops every request, the sandbox\'s with no header at all', async () => {
  const served = [];
  let SITE = '';
  const site = http.createServer((req, res) => {
    const { pathname } = new URL(req.url, 'http://localhost');
    served.push(pathname);
    const policy = policyFor(pathname);
    const headers = { ...(policy ? { 'content-security-policy': policy } : {}) };
    if (pathname === '/sandbox/host.html') {
      // No header: the frame's own <meta> is all the policy there is.
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(sandboxHostHtml());
    } else if (pathname === '/sandbox/frame-probe.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(probeWorker(OTHER, { viaPort: true, self: SITE }));
    } else if (pathname === '/') {
      res.writeHead(200, { ...headers, 'content-type': 'text/html' });
      res.end(`<!doctype html><meta http-equiv="Content-Security-Policy" content="${PAGE_META_POLICY}"><script type="module" src="/probe-page.js"></script>`);
    } else if (pathname === '/probe-page.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`const OTHER_ORIGIN = ${JSON.stringify(OTHER)};\n${probePage}`);
    } else if (pathname.endsWith('-probe.js')) {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript' });
      res.end(probeWorker(OTHER));
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    }
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  SITE = `http://127.0.0.1:${site.address().port}`;
  const page = await browser.context.newPage();
  try {
    otherRequests.length = 0;
    await page.goto(`${SITE}/`);
    await page.waitForFunction(() => window.probes, null, { timeout: 20000 });
    const probes = await page.evaluate(() => window.probes);
    assert.equal(probes.page, 'blocked: TypeError');
    assert.deepEqual(probes.sandbox, {
      'new Function': 'allowed: 1',
      wasm: 'allowed: compiled',
      'fetch self': 'blocked: TypeError',
      'fetch other': 'blocked: TypeError',
      'import other': 'blocked: TypeError',
      'sync XHR': 'blocked: NetworkError',
      WebSocket: 'blocked: WebSocketError',
      EventSource: 'blocked: EventSourceError',
    });
    assert.equal(probes.lab['new Function'], 'allowed: 1');
    assert.equal(probes.lab.wasm, 'allowed: compiled');
    assert.equal(probes.lab['fetch self'], 'allowed: 200');
    for (const name of ['fetch other', 'import other', 'sync XHR', 'WebSocket', 'EventSource']) {
      assert.match(probes.lab[name], /^blocked: /, name);
    }
    assert.deepEqual(otherRequests, []);
    // The lab worker's own-origin fetch went out, once: the sandbox's was stopped.
    assert.equal(served.filter((p) => p === '/probe.txt').length, 1, served.join(', '));
  } finally {
    await page.close();
    site.close();
  }
});

// ---- a plain static host ---------------------------------------------------------------------

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

test('on a static host that sends no header at all, the student\'s code reaches no server: the browser stops it', async () => {
  // web/dist served as files and nothing else (no COOP/COEP, no policy header); every request
  // is counted. The page's code card runs code trying every way out; then the host frame runs
  // a probe worker without the lockdown, so what stops it is the frame's own policy.
  const dist = new URL('../../web/dist/', import.meta.url);
  const served = [];
  const site = http.createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://localhost');
    served.push(pathname);
    if (pathname.startsWith('/escape')) {
      res.writeHead(200, { 'content-type': pathname.endsWith('.js') ? 'text/javascript' : 'text/plain' });
      res.end('export const escaped = true;');
      return;
    }
    try {
      const file = new URL(`.${pathname === '/' ? '/index.html' : pathname}`, dist);
      if (!file.href.startsWith(dist.href)) throw new Error('outside');
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file.pathname)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404);
      res.end();
    }
  });
  site.on('upgrade', (req, socket) => {
    served.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  const SITE = `http://127.0.0.1:${site.address().port}`;
  const page = await browser.context.newPage();
  try {
    await page.goto(`${SITE}/?quick=1#acceleration`);
    assert.equal(await page.evaluate(() => crossOriginIsolated), false); // no headers, really
    const cards = exerciseCards(page);
    const ex = 'acceleration.attainable-code';
    await cards.waitForCards([ex]);
    await cards.card(ex).locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(`const SITE = ${JSON.stringify(SITE)};
function attempt(name, f) {
  try { f(); console.log(name + ': reached'); } catch (e) { console.log(name + ': blocked (' + e.name + ')'); }
}
attempt('fetch', () => fetch(SITE + '/escape-fetch'));
attempt('sync XHR', () => { const x = new XMLHttpRequest(); x.open('GET', SITE + '/escape-xhr', false); x.send(); });
attempt('WebSocket', () => new WebSocket(SITE.replace('http', 'ws') + '/escape-ws'));
attempt('EventSource', () => new EventSource(SITE + '/escape-es'));
attempt('Worker', () => new Worker(SITE + '/escape-worker.js'));
attempt('sendBeacon', () => navigator.sendBeacon(SITE + '/escape-beacon', 'x'));
attempt('importScripts', () => importScripts(SITE + '/escape-import-scripts.js'));
const until = Date.now() + 300;
while (Date.now() < until) {}
function attainable(peak, bandwidth, intensity) {
  return Math.min(peak, intensity * bandwidth);
}`);
    const correct = await cards.submitAndWait(ex, () => cards.card(ex).locator('button[data-role="run"]').click());
    assert.equal(correct, 'true');

    const probe = await page.evaluate(async ([site, source]) => {
      const frame = document.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.src = 'sandbox/host.html';
      const channel = new MessageChannel();
      const answer = new Promise((resolve) => {
        channel.port1.onmessage = (e) => resolve(e.data);
        addEventListener('message', (e) => {
          if (e.source !== frame.contentWindow) return;
          if (e.data.type === 'ready') frame.contentWindow.postMessage({ source, message: 'probe' }, '*', [channel.port2]);
          else resolve({ error: e.data.message || 'could not start' });
        });
      });
      document.body.append(frame);
      return answer;
    }, [SITE, probeWorker(SITE, { viaPort: true, self: SITE })]);
    assert.equal(probe['new Function'], 'allowed: 1', JSON.stringify(probe));
    for (const name of ['fetch self', 'fetch other', 'import other', 'sync XHR', 'WebSocket', 'EventSource']) {
      assert.match(probe[name] ?? '', /^blocked: /, `${name}: ${JSON.stringify(probe)}`);
    }
    await page.waitForTimeout(300);
    const escaped = served.filter((p) => p.includes('/escape') || p === '/probe.txt' || p.startsWith('/fetch') || p.startsWith('/import') || p.startsWith('/xhr') || p.startsWith('/es') || p.startsWith('UPGRADE'));
    assert.deepEqual(escaped, []);
    assert.ok(served.includes('/sandbox/host.html'), served.join(', '));
  } finally {
    await page.close();
    site.close();
  }
});
