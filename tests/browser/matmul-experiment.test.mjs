// Protects the matmul experiment of the Acceleration chapter (acceleration-vectorization,
// which replaced the first "matmul: loops vs SIMD" experiment) end to end (page -> bridge
// -> lab worker -> wasm core): a quick sweep (?quick=1) completes, draws one line per
// variant and fills the table, the CSV download has a header and the rows, and Cancel
// stops a full sweep within a second, keeping what it measured, and leaves the page able
// to run again; a failed run leaves the last result on screen. No timing asserted.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const EXP = '[data-experiment="acceleration-vectorization"]';
const exp = (role) => `${EXP} [data-role="${role}"]`;
// The experiment measures every registered matmul variant; the page lists them.
const variantCount = (page) => page.$$eval(`${EXP} .variants li`, (items) => items.length);
const btn = (action) => `${EXP} [data-action="${action}"]`;
// Quick mode: N = 64 and 128.
const QUICK_SIZES = 2;

describe('quick sweep', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  test('runs to completion and draws one line per variant and a full table', async () => {
    const { page } = lab;
    await page.waitForSelector(`${EXP} .variants li`);
    const variants = await variantCount(page);
    assert.ok(variants >= 3, 'at least naive, reordered and simd');
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('Done'), exp('status'), {
      timeout: 60000,
    });
    const lines = await page.$$(`${exp('chart')}[data-chart="0"] svg g[aria-label="line"] path`);
    assert.equal(lines.length, variants);
    const rowCount = await page.$$eval(`${exp('table')} tbody tr`, (rows) => rows.length);
    assert.equal(rowCount, QUICK_SIZES * variants, 'two sizes × every variant');
    assert.ok(await page.$(`${exp('chart')} svg[aria-label*="GFLOP/s"]`), 'the chart has an ARIA label');
    assert.equal(await page.isVisible(exp('error')), false);
  });

  test('Download CSV saves a header and one line per measured point', async () => {
    const { page } = lab;
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(btn('csv'))]);
    assert.equal(download.suggestedFilename(), 'perflab-acceleration-vectorization.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    assert.match(lines[0], /^build,variant,n,flops,bytes,intensity,gflops_per_s,gb_per_s,peak_gflops_per_s,fraction_of_peak,median_ms,/);
    assert.equal(lines.length, 1 + QUICK_SIZES * (await variantCount(page)));
    // 2·64³ FLOPs, 12·64² bytes, intensity 64/6; the probe's peak beside every row.
    assert.match(lines[1], /^(simd|scalar),naive,64,524288,49152,10\.666\d*,[\d.e-]+,[\d.e-]+,[\d.e-]+,[\d.e-]+,/);
  });

  test('the scalar build runs the same sweep when chosen', async () => {
    const { page } = lab;
    await page.selectOption('#acceleration-vectorization-build', 'scalar');
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('Done'), exp('status'), {
      timeout: 60000,
    });
    assert.match(await page.textContent(exp('status')), /\(scalar build\)/);
    assert.equal(await page.$$eval(`${exp('table')} tbody tr`, (rows) => rows.length), QUICK_SIZES * (await variantCount(page)));
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('cancel', () => {
  let lab;
  before(async () => {
    lab = await openLab({ hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  // Cancel early (a small point: the worker sees the cancel between points), then again in
  // a large point (one measurement lasts up to max_total_ms, so the bridge has to
  // terminate the worker); each time the page must say so within a second and run again.
  async function runThenCancel(page, afterRows) {
    await page.click(btn('run'));
    await page.waitForFunction(
      ([sel, n]) => document.querySelectorAll(sel).length >= n,
      [`${exp('table')} tbody tr`, afterRows],
      { timeout: 90000 },
    );
    assert.match(
      await page.textContent(exp('status')),
      /^Measuring point \d+ of \d+ \(\w+ at N=\d+\) · \d+\.\d s elapsed$/,
    );
    const clicked = Date.now();
    await page.click(btn('cancel'));
    await page.waitForFunction((sel) => /^Cancelled/.test(document.querySelector(sel).textContent), exp('status'), {
      timeout: 1000,
    });
    const elapsed_ms = Date.now() - clicked;
    assert.ok(elapsed_ms < 1000, `cancelled after ${elapsed_ms} ms`);
    assert.equal(await page.isEnabled(btn('run')), true);
    assert.equal(await page.isDisabled(btn('cancel')), true);
    assert.equal(await page.isVisible(exp('error')), false);
    // The points measured before the cancel stay on screen, and the page says so.
    assert.match(await page.textContent(exp('result-note')), /^Partial result: \d+ of \d+ points, cancelled\./);
    assert.ok((await page.$$(`${exp('table')} tbody tr`)).length >= afterRows);
  }

  test('Cancel stops a full sweep within a second, early or in a large point, and a new run starts', async () => {
    const { page } = lab;
    await runThenCancel(page, 4);
    // N = 512 (the 4th size): points that last a second or more each.
    await runThenCancel(page, 3 * (await variantCount(page)) + 1);
    // The worker restarted after the second cancel: a third run measures again.
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 1, `${exp('table')} tbody tr`, {
      timeout: 30000,
    });
    await page.click(btn('cancel'));
    await page.waitForFunction((sel) => /^Cancelled/.test(document.querySelector(sel).textContent), exp('status'), {
      timeout: 1000,
    });
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('errors', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  test('a build that fails to load is reported beside Run, and the other build still runs', async () => {
    const { page } = lab;
    // A complete run first, so there is a result the failed run must leave on screen.
    await page.waitForSelector(`${EXP} .variants li`);
    await page.selectOption('#acceleration-vectorization-build', 'simd');
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('Done'), exp('status'), {
      timeout: 60000,
    });

    // Only the scalar .wasm is made unreachable; the worker has loaded the SIMD one already.
    await page.route(/perflab_scalar-[^/]*\.wasm$/, (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.selectOption('#acceleration-vectorization-build', 'scalar');
    await page.click(btn('run'));
    await page.waitForSelector(`${exp('error')}:not([hidden])`, { timeout: 30000 });
    assert.match(await page.textContent(exp('error')), /^Error: could not load the scalar wasm build: /);
    assert.equal(await page.textContent(exp('status')), 'Stopped by an error.');
    assert.equal(await page.isEnabled(btn('run')), true);
    const variants = await variantCount(page);
    const count = QUICK_SIZES * variants;
    assert.equal(await page.$$eval(`${exp('table')} tbody tr`, (rows) => rows.length), count, 'the last result stays');
    assert.equal((await page.$$(`${exp('chart')}[data-chart="0"] svg g[aria-label="line"] path`)).length, variants);
    assert.match(
      await page.textContent(exp('result-note')),
      new RegExp(`still showing the previous result \\(${count} points, simd build\\)\\.$`),
    );

    await page.selectOption('#acceleration-vectorization-build', 'simd');
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('Done'), exp('status'), {
      timeout: 60000,
    });
    assert.equal(await page.isVisible(exp('error')), false, 'a new run clears the old error');
  });
});
