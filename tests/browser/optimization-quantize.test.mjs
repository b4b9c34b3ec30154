// Protects the Optimization chapter's quantization and Pareto sections end to end (page ->
// bridge -> lab worker -> wasm core) in quick mode: without a baseline both wait for one;
// with the pretrained baseline loaded, quantizing with both calibrations of core's quick plan
// fills the summary (int8 bytes below the float bytes, accuracies, sentences computed from
// the rows), one per-layer table per calibration, and one latency row per calibration and
// batch with core's verdict in words; both int8 models join the made models, and timing
// every made model places each on both Pareto charts with core's frontier marked, each with
// its lineage; the Benchmarking chapter's suite measures the made models as twins of the
// baseline (accuracy retention measured). No console error. No timing asserted.

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
    await page.waitForFunction(() => /^Quantizing the baseline/.test(document.querySelector('[data-role="quantize-baseline"]').textContent), null, { timeout: 30000 });
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
    const smallest = rows.reduce((a, b) => (number(b[4]) < number(a[4]) ? b : a));
    assert.equal(smallest[7], 'on it');
    // Each point is labelled by its number in the table, which names the model and its lineage:
    // the baseline, then the transforms that made it.
    assert.deepEqual(rows.map((r) => r[0]), ['1', '2', '3']);
    assert.deepEqual(rows.map((r) => r[2].replace(/ \(.*\)$/, '')), ['the baseline', 'baseline → int8', 'baseline → int8']);
    const labels = await page.$$eval('[data-chart="pareto-latency"] svg text', (ts) => ts.map((t) => t.textContent));
    for (const mark of ['1', '2', '3']) assert.ok(labels.includes(mark), labels.join('|'));
    const sentences = await page.$$eval(`${role('pareto-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.match(sentences[0], /^On the latency–accuracy frontier: /);
  });

  test('the Benchmarking suite measures the made models as twins of their baseline, accuracy retention included', async () => {
    const { page } = lab;
    const EXP = '[data-experiment="benchmarking-suite"]';
    await page.evaluate(() => {
      location.hash = '#benchmarking';
    });
    await page.waitForSelector(`${EXP} [data-action="run"]:not([disabled])`, { timeout: 30000 });
    const boxes = await page.$$eval(`${EXP} input[type="checkbox"]`, (els) => els.map((el) => ({ id: el.id, label: el.labels[0].textContent.trim().replace(/^metric /, '') })));
    for (const b of boxes) {
      const keep = ['the models made in the Optimization chapter', 'latency_ms', 'accuracy'].includes(b.label);
      await (keep ? page.check(`#${b.id}`) : page.uncheck(`#${b.id}`));
    }
    await page.click(`${EXP} [data-action="run"]`);
    await page.waitForFunction((sel) => /^(Done|Stopped|Cancelled)/.test(document.querySelector(sel)?.textContent ?? ''), `${EXP} [data-role="status"]`, { timeout: 120000 });
    const rows = await page.$$eval(`${EXP} [data-role="table"] tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    assert.deepEqual(rows.map((r) => r[0]), ['made: the pretrained fashion_mlp', 'made: int8, min/max calibration', 'made: int8, percentile calibration']);
    const headers = await page.$$eval(`${EXP} [data-role="table"] thead th`, (ths) => ths.map((th) => th.textContent));
    for (const r of rows) assert.match(r[headers.indexOf('accuracy')], /^\d+(\.\d+)?%$/);
    // Core's comparison of each int8 model with the baseline: the report's Markdown names both
    // and a measured retention (the JSON's accuracy_retention, a number, is what it prints).
    const report = await page.textContent(`${EXP} [data-role="report"]`);
    for (const calibration of ['min/max', 'percentile']) {
      assert.match(report, new RegExp(`made: int8, ${calibration} calibration against made: the pretrained fashion_mlp`));
    }
    assert.doesNotMatch(report, /Accuracy retention is not measured/);
    assert.match(report, /retention \d/);
  });
});
