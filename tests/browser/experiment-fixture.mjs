// Shared by the experiment-*.test.mjs browser tests: builds the fixture page
// (tests/browser/fixtures/experiments, which mounts web/src/experiments and web/src/charts
// directly) with Vite into a temporary folder, serves it, and opens it in Chromium with
// error collection. Not a test file itself; not for the deployed page (harness.mjs is).

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { build, preview } from 'vite';
import { collectErrors, launchBrowser, repoRoot } from './harness.mjs';

const fixtureRoot = path.join(repoRoot, 'tests/browser/fixtures/experiments');

/** @returns {Promise<{page, errors: string[], close: () => Promise<void>}>} */
export async function openFixture() {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'perflab-fixture-'));
  const shared = { configFile: false, root: fixtureRoot, base: './', logLevel: 'warn' };
  await build({ ...shared, build: { outDir, emptyOutDir: true, target: 'es2022' } });
  const server = await preview({ ...shared, build: { outDir }, preview: { host: '127.0.0.1', port: 0, open: false } });
  const { port } = server.httpServer.address();
  const browser = await launchBrowser();
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const errors = collectErrors(page);
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => window.fixture !== undefined);
  return {
    page,
    errors,
    async close() {
      await browser.close();
      await server.close();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
