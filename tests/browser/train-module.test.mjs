// Protects the page's initial load from the training module (issue 23): the lab worker
// fetches the training module's glue and wasm (perflab_train_*) only when a training function
// is first called, never while the page loads, and then routes training calls, one-shot and
// sweep points, to it. The page has no training chapter yet, so the calls go through a second
// lab worker made from the page's own worker script, over the real protocol (lab/protocol.js).
// One page load and two small calls; nothing timed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectErrors, collectForeignRequests, launchBrowser, startPreview, waitForMachineFacts } from './harness.mjs';

const isTraining = (path) => /\/perflab_train_/.test(path);

test('the training module is fetched at the first training call, not at page load', async () => {
  const server = await startPreview();
  const browser = await launchBrowser();
  try {
    const requested = [];
    browser.context.on('request', (r) => requested.push(new URL(r.url()).pathname));
    const foreign = collectForeignRequests(browser.context, new URL(server.url).origin);
    const page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const errors = collectErrors(page);
    await page.goto(server.url);
    await waitForMachineFacts(page);
    await page.waitForLoadState('networkidle');

    assert.ok(requested.some((p) => /\/perflab_(simd|scalar)-[^/]*\.wasm$/.test(p)), `the main module was fetched: ${requested.join(', ')}`);
    assert.deepEqual(requested.filter(isTraining), [], 'the page load fetched part of the training module');

    const labWorker = page.workers().map((w) => new URL(w.url()).pathname).find((p) => /\/worker-[^/]*\.js$/.test(p));
    assert.ok(labWorker, `the lab worker's script among ${page.workers().map((w) => w.url()).join(', ')}`);
    const replies = await page.evaluate(async (script) => {
      const worker = new Worker(script, { type: 'module' });
      const ask = (id, kind, payload) =>
        new Promise((resolve) => {
          worker.addEventListener('message', function onReply({ data }) {
            if (data.id !== id || data.type === 'progress') return;
            worker.removeEventListener('message', onReply);
            resolve(data);
          });
          worker.postMessage({ id, kind, payload });
        });
      try {
        return [
          await ask(1, 'baselineRecipe', { name: 'fashion_mlp' }),
          await ask(2, 'trainSteps', { points: [{ model_id: 999, steps: 1 }] }),
        ];
      } finally {
        worker.terminate();
      }
    }, labWorker);

    const [recipe, sweep] = replies;
    assert.equal(recipe.type, 'result', JSON.stringify(recipe));
    assert.ok(Number.isInteger(recipe.result.epochs) && recipe.result.epochs > 0, JSON.stringify(recipe.result));
    // A sweep point of the training module: core's sentence about the id, from that module.
    assert.equal(sweep.type, 'error', JSON.stringify(sweep));
    assert.match(sweep.error.message, /no model has id 999/);

    const training = requested.filter(isTraining);
    assert.ok(training.some((p) => /\/perflab_train_simd-[^/]*\.wasm$/.test(p)), `the SIMD training wasm was fetched: ${training.join(', ')}`);
    assert.ok(training.some((p) => /\/perflab_train_simd-[^/]*\.js$/.test(p)), `the SIMD training glue was fetched: ${training.join(', ')}`);
    assert.deepEqual(foreign, []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.close();
  }
});
