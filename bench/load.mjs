// The page's load budget (issue 14): how long until the built page is usable, and how many
// bytes it transfers (gzipped) before that, in Debian's Chromium on localhost. Usable means
// all three of: the chapter's text is shown, the header's machine facts are filled (the
// wasm build in use, the timer resolution core measured, isolation, cores), and the first
// experiment's Run button is enabled. A benchmark, not a test: it prints figures against
// the floors (1 s, 600 KB gzipped) and never fails on them.
//
//   tools/lab build && node bench/load.mjs [--runs N] [--hash '#acceleration']
//   (PERFLAB_DIST_DIR=DIR measures another build output, a path from the repository's root)
//
// Each run launches Chromium with a fresh profile (empty cache), so every load is a first
// visit. Time is measured from navigation start (performance.timeOrigin) to the moment the
// page is usable, polled on each animation frame inside the page. Bytes: every response
// the page and its workers received before that moment, each body gzipped here at level 6
// (zlib's default, what a static host's on-the-fly compression typically sends; level 9, as
// precompressed files would be, is printed beside it). vite preview sends them uncompressed,
// so the browser's own transfer size would say nothing about a real host.

import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { launchBrowser, startPreview } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const RUNS = Number(option('--runs', '7'));
const HASH = option('--hash', '');
const TIME_FLOOR_MS = 1000;
const BYTES_FLOOR = 600 * 1000;

// Evaluated in the page: the time (ms since navigation start) at which it became usable.
// The three conditions are plain DOM reads, checked on every animation frame.
function usableAt() {
  const at = {};
  const mark = (name, ok) => {
    if (ok && at[name] === undefined) at[name] = performance.now();
    return ok;
  };
  const ready = () => {
    const chapter = document.querySelector('section.chapter:not([hidden])');
    const text = chapter?.querySelector('p')?.textContent.trim() ?? '';
    const facts = [...document.querySelectorAll('[data-fact] dd')];
    const factsFilled =
      facts.length > 0 &&
      facts.every((dd) => dd.dataset.value !== undefined) &&
      / build$/.test(document.querySelector('[data-fact="simd"] dd').textContent);
    const run = chapter?.querySelector('[data-experiment] [data-action="run"]');
    const runnable = run !== null && run !== undefined && !run.disabled;
    // Each condition is marked when first seen, all three evaluated on every frame.
    return [mark('text', text.length > 0), mark('facts', factsFilled), mark('run', runnable)].every(Boolean);
  };
  // A lab that failed to start never becomes usable: its error ends the wait instead.
  const labError = () => {
    const box = document.querySelector('[data-role="lab-error"]');
    return box && !box.hidden ? box.textContent : null;
  };
  return new Promise((resolve) => {
    const poll = () => {
      if (labError() !== null) resolve({ ms: performance.now(), at, labError: labError() });
      else if (ready()) resolve({ ms: performance.now(), at });
      else requestAnimationFrame(poll);
    };
    poll();
  });
}

async function oneLoad(url) {
  const browser = await launchBrowser();
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const responses = [];
    let usable = false;
    browser.context.on('response', (response) => {
      if (!usable) responses.push(response);
    });
    // Registered before navigation so no frame is missed: the poll starts with the document.
    await page.addInitScript(`window.__usableAt = (${usableAt.toString()})();`);
    await page.goto(url);
    const { ms, at, labError } = await page.evaluate(() => window.__usableAt);
    usable = true;
    if (labError !== undefined) throw new Error(`the lab failed to start: ${labError}`);
    const files = [];
    for (const r of responses) {
      const body = await r.body().catch(() => Buffer.alloc(0));
      files.push({
        path: new URL(r.url()).pathname,
        bytes: body.length,
        gzipped: body.length ? gzipSync(body).length : 0,
        gzipped9: body.length ? gzipSync(body, { level: 9 }).length : 0,
      });
    }
    return { ms, at, files };
  } finally {
    await browser.close();
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

const server = await startPreview();
const url = `${server.url}${HASH}`;
const loadBefore = os.loadavg();
const results = [];
try {
  await oneLoad(url); // warms the server's file cache and the OS's, not the browser's
  for (let i = 0; i < RUNS; i++) results.push(await oneLoad(url));
} finally {
  await server.close();
}
const loadAfter = os.loadavg();

const times = results.map((r) => r.ms);
const partMedian = (name) => median(results.map((r) => r.at[name])).toFixed(0);
const last = results.at(-1).files;
const total = last.reduce((s, f) => s + f.gzipped, 0);
const raw = last.reduce((s, f) => s + f.bytes, 0);
const total9 = last.reduce((s, f) => s + f.gzipped9, 0);
console.log(`perflab load budget: ${url}, ${RUNS} loads, fresh profile each (Chromium ${CHROMIUM_VERSION()})`);
console.log(`load average (1, 5, 15 min): before ${loadBefore.map((x) => x.toFixed(2)).join(', ')}; after ${loadAfter.map((x) => x.toFixed(2)).join(', ')}`);
console.log('');
console.log('responses before the page was usable (last load):');
for (const f of [...last].sort((a, b) => b.gzipped - a.gzipped)) {
  console.log(`  ${kb(f.gzipped).padStart(10)} gzipped  ${kb(f.bytes).padStart(10)} raw  ${f.path}`);
}
console.log('');
console.log(
  `time to usable: median ${median(times).toFixed(0)} ms, range ${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)} ms ` +
    `(${times.map((t) => t.toFixed(0)).join(', ')}); floor ${TIME_FLOOR_MS} ms: ${median(times) < TIME_FLOOR_MS ? 'met' : 'NOT MET'}`,
);
console.log(
  `  median time each condition was first met: chapter text ${partMedian('text')} ms, ` +
    `header facts ${partMedian('facts')} ms, first Run enabled ${partMedian('run')} ms`,
);
console.log(
  `initial transfer: ${kb(total)} gzipped (level 6; ${kb(total9)} at level 9; ${kb(raw)} raw) in ${last.length} responses; floor ${kb(BYTES_FLOOR)}: ${total < BYTES_FLOOR ? 'met' : 'NOT MET'}`,
);
// The training and grading modules (wasm/CMakeLists.txt) are loaded at their first call, the
// grading one by the exercise engine once the page is usable, and the kernel engine's four
// perflab_engine_* modules and its pool threads' script at the first call that needs them
// (api.js `engine: true`): any of their files before that is a regression. (Its loader's few
// KB of JS do arrive: the header's engine fact asks its detectEngine, which fetches nothing.)
const MODULES_LOADED_LATER = [
  ['training', /\/perflab_train_/],
  ['grading', /\/perflab_grade_/],
  ['kernel engine', /\/perflab_engine_|\/engine-thread[-.]/],
];
for (const [name, pattern] of MODULES_LOADED_LATER) {
  const early = results.flatMap((r) => r.files).filter((f) => pattern.test(f.path));
  console.log(
    `${name} module in the initial load: ${early.length === 0 ? 'none (as intended)' : `REQUESTED: ${[...new Set(early.map((f) => f.path))].join(', ')}`}`,
  );
}

function CHROMIUM_VERSION() {
  try {
    return execFileSync(process.env.PERFLAB_CHROMIUM || '/usr/bin/chromium', ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim().replace(/^Chromium /, '');
  } catch {
    return 'version unknown';
  }
}
