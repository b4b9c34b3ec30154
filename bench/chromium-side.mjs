// compare.mjs's Chromium group: TensorFlow.js's threaded wasm backend does not run in Node
// (bench/README.md, "TensorFlow.js's threads"), so its threaded figures, and the figures they
// are compared with, are timed in Debian's headless Chromium. A tiny static server on
// 127.0.0.1 sends the cross-origin isolation headers (COOP same-origin, COEP require-corp)
// so the page has SharedArrayBuffer; each contestant lives in its own dedicated worker
// (chromium-side-worker.js), as the lab runs its kernels in a worker, and is timed by
// js-timer.mjs there; Node gets each sample's per-call times back and applies core's
// statistic. Nothing is downloaded: the files served are TensorFlow.js's from node_modules,
// ours from build/wasm/web and web/src/lab/engine, and bench's own.
//
//   const side = await openChromiumSide();
//   const c = await side.add({ kind: 'tfjs', binary: 'threaded-simd', threads: 2 });
//   c.info; await c.product(512); await c.time(512, timerOptions); ...; await side.close();

import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, CHROMIUM_PATH } from '../tests/browser/harness.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Only these folders are served (a path outside them is a 404, as is any '..').
const SERVED = ['/bench/', '/node_modules/@tensorflow/tfjs-core/dist/', '/node_modules/@tensorflow/tfjs-backend-wasm/dist/',
  '/build/wasm/web/', '/web/src/lab/'];
const TYPES = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.cjs': 'text/javascript',
  '.wasm': 'application/wasm', '.html': 'text/html', '.json': 'application/json' };
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-store' };

// The page: it only holds the workers and relays messages to them.
const PAGE = `<!doctype html><meta charset="utf-8"><title>compare.mjs, Chromium group</title>
<script>
  const workers = [];
  let nextId = 0;
  window.contestant = {
    add() { workers.push(new Worker('/bench/chromium-side-worker.js')); return workers.length - 1; },
    remove(index) { workers[index].terminate(); },
    call(index, message) {
      const id = nextId++;
      const worker = workers[index];
      return new Promise((resolve, reject) => {
        const onMessage = ({ data }) => {
          if (data.id !== id) return;
          worker.removeEventListener('message', onMessage);
          data.error === undefined ? resolve(data.result) : reject(new Error(data.error));
        };
        worker.addEventListener('message', onMessage);
        worker.addEventListener('error', (e) => reject(new Error(e.message || 'the worker failed to load')), { once: true });
        worker.postMessage({ ...message, id });
      });
    },
  };
</script>`;

function startServer() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    const send = (status, type, body) => {
      res.writeHead(status, { ...ISOLATION, 'Content-Type': type });
      res.end(body);
    };
    if (url.pathname === '/') return send(200, 'text/html', PAGE);
    if (url.pathname === '/favicon.ico') return send(204, 'text/plain', '');
    const file = path.join(repoRoot, url.pathname);
    const allowed = !url.pathname.includes('..') && SERVED.some((prefix) => url.pathname.startsWith(prefix));
    if (!allowed || !existsSync(file) || !statSync(file).isFile()) return send(404, 'text/plain', `not served: ${url.pathname}`);
    res.writeHead(200, { ...ISOLATION, 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
    return undefined;
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export async function openChromiumSide() {
  const server = await startServer();
  const url = `http://127.0.0.1:${server.address().port}/`;
  let browser;
  try {
    browser = await launchBrowser();
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    // The workers' console too (TensorFlow.js's pool threads warn there when they fail).
    const messages = [];
    const listen = (where) => (m) => messages.push(`${where} ${m.type()}: ${m.text()}`);
    page.on('console', listen('page'));
    page.on('worker', (w) => w.on('console', listen('worker')));
    await page.goto(url);
    if (!(await page.evaluate(() => self.crossOriginIsolated))) {
      throw new Error('the page is not cross-origin isolated although the server sends COOP and COEP');
    }
    const version = browser.context.browser()?.version() ?? 'version unknown';
    return {
      chromium: `${CHROMIUM_PATH} ${version}`,
      url,
      page,
      // A contestant in its own worker: {info, product(n) -> Float32Array, time(n, options, extra) -> samples, close()}.
      async add(init) {
        const index = await page.evaluate(() => window.contestant.add());
        const call = (message) => page.evaluate(([i, m]) => window.contestant.call(i, m), [index, message]);
        const info = await call({ cmd: 'init', ...init });
        return {
          info,
          // The product comes back as a plain array (page.evaluate's serialisation).
          product: async (n, extra = {}) => Float32Array.from(await call({ cmd: 'product', n, ...extra })),
          time: (n, options, extra = {}) => call({ cmd: 'time', n, options, ...extra }),
          // Ends the worker (and the threads it started).
          close: () => page.evaluate((i) => window.contestant.remove(i), index),
        };
      },
      errors,
      messages,
      async close() {
        await browser.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } catch (e) {
    await browser?.close();
    server.close();
    throw e;
  }
}
