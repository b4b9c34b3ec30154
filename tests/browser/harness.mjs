// Shared by every browser test: serves the built page (web/dist, from `npx vite build`)
// with `vite preview` on a free port, launches Debian's Chromium through playwright-core
// with a fresh profile, and records console errors and page errors so a test can assert
// there were none. Not for: building the page (run `npx vite build` first).
// Env: PERFLAB_DIST_DIR (default web/dist), PERFLAB_CHROMIUM (default /usr/bin/chromium).
//
//   const lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
//   ... lab.page ...; assert.deepEqual(lab.errors, []);
//   await lab.close();

import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// PERFLAB_DIST_DIR serves another build output (`npx vite build --outDir <dir>`), so that
// engineers sharing the tree can test their own build without racing on web/dist.
export const distDir = path.resolve(repoRoot, process.env.PERFLAB_DIST_DIR || 'web/dist');

export const CHROMIUM_PATH = process.env.PERFLAB_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];

/** Starts `vite preview` on 127.0.0.1 and a free port. @returns {{url, close}} */
export async function startPreview() {
  if (!existsSync(path.join(distDir, 'index.html'))) {
    throw new Error(`${distDir}/index.html is missing: run \`npx vite build\` first`);
  }
  const server = await preview({
    configFile: path.join(repoRoot, 'vite.config.js'),
    logLevel: 'warn',
    build: { outDir: distDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const { port } = server.httpServer.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

/** Launches Chromium with a throw-away profile. @returns {{context, close}} */
export async function launchBrowser() {
  const userDataDir = await mkdtemp(path.join(os.tmpdir(), 'perflab-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The values that print as `text`: "1.04" stands for 1.035 to 1.045, "−98.8%" for -98.85 to
 * -98.75 (in the printed unit), a number for itself. A test holds a rounded figure to others
 * by asking whether some value in its range agrees, never by a fixed tolerance, since near a
 * pole (a speedup under 1, a change near -100%) a last-digit rounding moves a quotient far.
 * @returns {[number, number]}
 */
export function printedRange(text) {
  if (typeof text === 'number') return [text, text];
  const clean = String(text).replace(/[×%,]/g, '').replace(/−/g, '-');
  const half = 0.5 * 10 ** -((/\.(\d+)/.exec(clean)?.[1].length) ?? 0);
  return [Number(clean) - half, Number(clean) + half];
}

/** Records console errors (page and its workers) and uncaught page errors into `errors`. */
export function collectErrors(page, errors = []) {
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console: ${msg.text()}`);
  });
  // With where it was thrown: an intermittent uncaught error must be traceable from CI's log.
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}${err.stack ? `\n${err.stack.split('\n').slice(1, 6).join('\n')}` : ''}`));
  page.on('worker', (worker) => {
    worker.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(`worker console: ${msg.text()}`);
    });
  });
  return errors;
}

/** True when `url` is a request to an origin other than `origin` (data: and blob: are local). */
export function isForeign(url, origin) {
  return !url.startsWith(`${origin}/`) && url !== origin && !url.startsWith('data:') && !url.startsWith('blob:');
}

/**
 * Records every request the context makes (the page's and its workers') to an origin other
 * than `origin` into `foreign` (issue 14: the page asks no other origin for anything).
 */
export function collectForeignRequests(context, origin, foreign = []) {
  context.on('request', (r) => {
    if (isForeign(r.url(), origin)) foreign.push(`${r.method()} ${r.url()}`);
  });
  return foreign;
}

/**
 * Serves the page, opens it and waits for the machine facts to arrive from the lab worker.
 * Every test that opens the lab this way also checks that the page and its workers asked no
 * origin but the page's own for anything: close() throws, naming the requests, if they did.
 * @param {{query?: string, hash?: string, waitForFacts?: boolean}} [options]
 * @returns {Promise<{url, page, context, errors: string[], foreignRequests: string[], close: () => Promise<void>}>}
 */
export async function openLab({ query = '', hash = '', waitForFacts = true, initScript } = {}) {
  const server = await startPreview();
  let browser;
  try {
    browser = await launchBrowser();
    const foreignRequests = collectForeignRequests(browser.context, new URL(server.url).origin);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = collectErrors(page);
    const url = `${server.url}${query}${hash}`;
    // A function to run in the page before its own scripts (e.g. a seeded crypto for dumps).
    if (initScript) await page.addInitScript(initScript);
    await page.goto(url);
    if (waitForFacts) await waitForMachineFacts(page);
    return {
      url,
      baseUrl: server.url,
      page,
      context: browser.context,
      errors,
      foreignRequests,
      async close() {
        await browser.close();
        await server.close();
        if (foreignRequests.length > 0) {
          throw new Error(`the page asked another origin for something:\n${foreignRequests.join('\n')}`);
        }
      },
    };
  } catch (err) {
    await browser?.close();
    await server.close();
    throw err;
  }
}

/** Resolves when the header shows the timer resolution measured by core (or a lab error). */
export async function waitForMachineFacts(page, timeout = 20000) {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-fact="timer"] dd')?.dataset.value !== undefined ||
      !document.querySelector('[data-role="lab-error"]')?.hidden,
    null,
    { timeout },
  );
  const labError = page.locator('[data-role="lab-error"]');
  if (await labError.isVisible()) throw new Error(`the lab failed to start: ${await labError.textContent()}`);
}

/** The machine facts as the header shows them: {simd, timer, isolated, cores} -> {text, value}. */
export async function readMachineFacts(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      // The header's facts only: a chapter's text marks core's numbers with data-fact too.
      [...document.querySelectorAll('.site-header [data-fact]')].map((el) => {
        const dd = el.querySelector('dd');
        return [el.dataset.fact, { text: dd.textContent, value: dd.dataset.value }];
      }),
    ),
  );
}

/**
 * Helpers for the exercise cards of a chapter, shared by the exercise browser tests:
 * card(id) locates a card, params(id) reads the variant's parameters the page shows,
 * dataOf(id) its data attributes, waitForCards(ids) waits until those cards show their
 * variants, and submitAndWait(id, action) runs an action and waits for the attempt count
 * to move, returning the result's data-correct ("true"/"false").
 */
export function exerciseCards(page) {
  const card = (id) => page.locator(`article[data-exercise-id="${id}"]`);
  const params = async (id) => JSON.parse(await card(id).getAttribute('data-params'));
  const dataOf = (id) => card(id).evaluate((el) => ({ ...el.dataset }));
  async function waitForCards(ids) {
    await page.waitForFunction(
      (list) => list.every((id) => document.querySelector(`article[data-exercise-id="${id}"][data-params]`)),
      ids,
      { timeout: 20000 },
    );
  }
  async function submitAndWait(id, action) {
    const before = Number((await dataOf(id)).attempts);
    await action();
    await page.waitForFunction(
      ([cid, n]) => Number(document.querySelector(`article[data-exercise-id="${cid}"]`).dataset.attempts) === n,
      [id, before + 1],
      { timeout: 20000 },
    );
    return card(id).locator('[data-role="result"]').getAttribute('data-correct');
  }
  return { card, params, dataOf, waitForCards, submitAndWait };
}

/**
 * Answers the Benchmarking capstone (benchmarking.ab-capstone) from the A/B experiment's
 * per-round CSV (`lines`, header first): the interleaved rounds' median ratio a/b, the rounds
 * B won, and the ratio of medians over the rounds A ran first, none of which the page prints.
 * First with B's wins off by one, then right. Returns the two results' data-correct, so a test
 * can check that the grade can fail and that the computed numbers pass.
 */
export async function answerCapstoneFromRounds(page, lines) {
  const { card, submitAndWait } = exerciseCards(page);
  const id = 'benchmarking.ab-capstone';
  const head = lines[0].split(',');
  const col = (name) => head.indexOf(name);
  const rounds = lines.slice(1).map((l) => l.split(',')).filter((c) => c[col('mode')] === 'interleaved')
    .map((c) => ({ a_first: c[col('a_first')] === 'true', a: Number(c[col('a_ms')]), b: Number(c[col('b_ms')]) }));
  const median = (values) => {
    const s = [...values].sort((x, y) => x - y);
    const mid = s.length >> 1;
    return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  };
  const led = rounds.filter((r) => r.a_first);
  const paired = median(rounds.map((r) => r.a / r.b));
  const wins = rounds.filter((r) => r.b < r.a).length;
  const order = median(led.map((r) => r.a)) / median(led.map((r) => r.b));
  const parts = card(id).locator('input[data-role="answer"]');
  await page.waitForFunction((cid) => !document.querySelector(`article[data-exercise-id="${cid}"] button[type="submit"]`).disabled, id);
  const submit = () => card(id).locator('button[type="submit"]').click();
  const answer = async (values) => {
    for (const [i, v] of values.entries()) await parts.nth(i).fill(String(v));
    return submitAndWait(id, submit);
  };
  const wrongWins = await answer([paired, wins === 0 ? 1 : wins - 1, order]);
  const right = await answer([paired, wins, order]);
  return { wrongWins, right };
}
