// Protects the exercise engine's error path: when the lab cannot load (here: both wasm
// builds of the main and the grading module answer 404), the exercises say so with the lab's reason in place of the cards, and
// "Try again" loads them once the lab can start. Kept apart from exercises.test.mjs because
// the failed loads log console errors on purpose.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, startPreview } from './harness.mjs';

let server;
let browser;
before(async () => {
  server = await startPreview();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a lab that cannot load is reported where the exercises go, and Try again recovers', async () => {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  // The main module and the grading module (the exercises are graded there), both builds.
  const wasm = /perflab_(grade_)?(simd|scalar)-[^/]*\.wasm$/;
  await page.route(wasm, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${server.url}#profiling`);

  const status = page.locator('.pl-exercises[data-chapter="profiling"] [data-role="exercises-status"]');
  await page.waitForFunction(() =>
    /could not be loaded/.test(document.querySelector('[data-role="exercises-status"]')?.textContent ?? ''),
  );
  assert.match(await status.textContent(), /^The exercises could not be loaded: could not load the (simd|scalar) wasm build/);
  assert.equal(await page.locator('article[data-exercise-id]').count(), 0);

  await page.unroute(wasm);
  await status.getByRole('button', { name: 'Try again' }).click();
  await page.waitForSelector('article[data-exercise-id="profiling.linear-params"][data-params]', { timeout: 20000 });
  assert.equal(await status.isVisible(), false);
  // Every kind is back (the chapter's exact list is checked in exercises.test.mjs).
  const kinds = await page.$$eval('article[data-exercise-id]', (els) => new Set(els.map((el) => el.dataset.kind)).size);
  assert.equal(kinds, 3);
  assert.ok((await page.locator('article[data-exercise-id]').count()) >= 3);
});

test('a grading module that cannot load is reported where the exercises go, the chapter still runs, and Try again recovers', async () => {
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  const grading = /perflab_grade_(simd|scalar)-[^/]*\.wasm$/;
  await page.route(grading, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.goto(`${server.url}#acceleration`);
  await page.reload();

  const status = page.locator('.pl-exercises[data-chapter="acceleration"] [data-role="exercises-status"]');
  await status.filter({ hasText: 'could not be loaded' }).waitFor({ timeout: 30000 });
  assert.match(await status.textContent(), /^The exercises could not be loaded: could not load the (simd|scalar) wasm build's grading module/);
  // The main module is not the grading one: the header's facts and the experiments still work.
  await page.waitForFunction(() => / build$/.test(document.querySelector('[data-fact="simd"] dd')?.textContent ?? ''));

  await page.unroute(grading);
  await status.getByRole('button', { name: 'Try again' }).click();
  await page.waitForSelector('.pl-exercises[data-chapter="acceleration"] article[data-exercise-id][data-params]', { timeout: 20000 });
  assert.equal(await status.isVisible(), false);
});
