// Protects the Optimization chapter's quantization and Pareto sections end to end (page ->
// bridge -> lab worker -> wasm core) in quick mode: without a baseline both wait for one;
// with the pretrained baseline loaded, quantizing with both calibrations of core's quick plan
// fills the summary (int8 bytes below the float bytes, accuracies, sentences computed from
// the rows), one per-layer table per calibration, and one latency row per calibration and
// batch with core's verdict in words; both int8 models join the made models, and timing
// every made model places each on both Pareto charts with core's frontier marked. No
// console error. No timing asserted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const role = (r) => `[data-role="${r}"]`;
const rowsOf = (page, r) => page.$$eval(`${role(r)} tbody tr`, (rows) => rows.map((tr) => [...tr.children].map((c) => c.textContent)));
const dotsIn = (page, chart) => page.$$eval(`[data-chart="${chart}"] g[aria-label="dot"] circle`, (c) => c.length);
const number = (text) => Number(text.replace(/[^0-9.]/g, ''));

describe('Optimization chapter: quantization and the Pareto frontier (quick mode)', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#optimization' });
    await lab.page.waitForFunction(() => document.querySelector('[data-role="quantize-plan"]')?.hidden === false, null, { timeout: 20000 });
  });
  after(async () => {
    const errors = lab?.errors ?? [];
    await lab?.close();
    assert.deepEqual(errors, []);
  });

  test('without a baseline neither section can run', async () => {
    const { page } = lab;
    assert.match(await page.textContent(role('quantize-baseline')), /^Train or load the baseline first/);
    assert.match(await page.textContent(role('pareto-made')), /^No model made yet/);
    assert.equal(await page.isDisabled('[data-action="run-quantize"]'), true);
    assert.equal(await page.isDisabled('[data-action="run-pareto"]'), true);
  });

  test('quantize the pretrained baseline with both calibrations', async () => {
    const { page } = lab;
    await page.click('[data-action="evaluate-baseline"]');
    await page.waitForFunction(() => /^The baseline/.test(document.querySelector('[data-role="quantize-baseline"]').textContent), null, { timeout: 30000 });
    await page.click('[data-action="run-quantize"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 40000 });
    assert.equal(await page.isHidden(role('quantize-error')), true, await page.textContent(role('quantize-error')));
    const summary = await rowsOf(page, 'quantize-summary');
    assert.deepEqual(summary.map((r) => r[0]), ['min/max', 'percentile']);
    for (const r of summary) {
      assert.ok(number(r[3]) < number(r[2]) / 3, `int8 bytes ${r[3]} against float ${r[2]}`);
      assert.match(r[7], /^[+−]\d+\.\d\d points$/);
    }
    const sentences = await page.$$eval(`${role('quantize-summary-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.equal(sentences.length, 2);
    // The sentence's points are the row's.
    const points = summary[0][7].replace(/^[+−]/, '').replace(' points', '');
    if (points !== '0.00') assert.ok(sentences[0].includes(`${points} points`), sentences[0]);
    for (const method of ['minmax', 'percentile']) {
      const layers = await rowsOf(page, `quantize-layers-${method}`);
      assert.deepEqual(layers.map((r) => r[0]), ['layers[0] Linear', 'layers[1] ReLU', 'layers[2] Linear', 'layers[3] ReLU', 'layers[4] Linear']);
    }
    const latency = await rowsOf(page, 'quantize-latency');
    assert.deepEqual(latency.map((r) => `${r[0]}@${r[1]}`), ['min/max@1', 'min/max@64', 'percentile@1', 'percentile@64']);
    for (const r of latency) assert.match(r[5], /^(faster|slower|no clear difference|too few samples)$/);
    const latencySentences = await page.$$eval(`${role('quantize-latency-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.match(latencySentences[0], /^At batch 1, by core’s interleaved A\/B/);
  });

  test('time every made model and mark the frontier', async () => {
    const { page } = lab;
    await page.waitForFunction(() => /^3 models made/.test(document.querySelector('[data-role="pareto-made"]').textContent), null, { timeout: 5000 });
    await page.click('[data-action="run-pareto"]');
    await page.waitForFunction(() => /^(Timed|Stopped|Cancelled)/.test(document.querySelector('[data-role="pareto-status"]').textContent), null, { timeout: 30000 });
    assert.equal(await page.isHidden(role('pareto-error')), true, await page.textContent(role('pareto-error')));
    const rows = await rowsOf(page, 'pareto-table');
    assert.equal(rows.length, 3);
    assert.equal(await dotsIn(page, 'pareto-latency'), 3);
    assert.equal(await dotsIn(page, 'pareto-bytes'), 3);
    // The smallest model is on the bytes frontier whatever its accuracy.
    const smallest = rows.reduce((a, b) => (number(b[2]) < number(a[2]) ? b : a));
    assert.equal(smallest[5], 'on it');
    const sentences = await page.$$eval(`${role('pareto-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.match(sentences[0], /^On the latency–accuracy frontier: /);
  });
});
