// Protects the Optimization chapter's structured-pruning and distillation sections end to end
// (page -> bridge -> lab worker -> wasm core) in quick mode: without a baseline both ask for
// one; with the pretrained baseline loaded, pruning half its hidden units and one epoch of
// fine-tuning fill the layer and size tables from core's report (the layers shrink), draw the
// curve (epoch 0 and 1) with the baseline's reference line, time both forwards at each
// batch of core's quick plan and write sentences from those rows; a tiny distillation trains
// both students epoch by epoch and ends with one row per epoch, two curves and the sentence
// on one seed; both results join the made models. Cancel keeps the fine-tuned epochs done (a
// chunked run), or stops an aborting run (quantization) with its own sentence; either section
// runs again after; the pruned model quantized keeps its lineage. No console error. No
// timing asserted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const role = (r) => `[data-role="${r}"]`;
const rowsOf = (page, r) => page.$$eval(`${role(r)} tbody tr`, (rows) => rows.map((tr) => [...tr.children].map((c) => c.textContent)));
const number = (text) => Number(text.replace(/[^0-9.]/g, ''));
const dotsIn = (page, chart) => page.$$eval(`[data-chart="${chart}"] g[aria-label="dot"] circle`, (c) => c.length);

describe('Optimization chapter: structured pruning and distillation (quick mode)', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#optimization' });
    await lab.page.waitForFunction(() => document.querySelector('[data-role="structured-plan"]')?.hidden === false, null, { timeout: 20000 });
  });
  after(async () => {
    const errors = lab?.errors ?? [];
    await lab?.close();
    assert.deepEqual(errors, []);
  });

  test('without a baseline both sections ask for one, and cannot run', async () => {
    const { page } = lab;
    assert.match(await page.textContent(role('structured-baseline')), /^Train or load the baseline first/);
    assert.match(await page.textContent(role('distill-baseline')), /^Train or load the baseline first/);
    assert.equal(await page.isDisabled('[data-action="run-structured"]'), true);
    assert.equal(await page.isDisabled('[data-action="run-distill"]'), true);
  });

  test('prune half the baseline’s hidden units and fine-tune one epoch', async () => {
    const { page } = lab;
    await page.click('[data-action="evaluate-baseline"]');
    await page.waitForFunction(() => /^The baseline/.test(document.querySelector('[data-role="structured-baseline"]').textContent), null, { timeout: 30000 });
    await page.selectOption('[data-control="fraction"]', '0.5');
    await page.fill('[data-control="finetune_epochs"]', '1');
    await page.click('[data-action="run-structured"]');
    await page.waitForFunction(() => /^(Done|Stopped)/.test(document.querySelector('[data-role="structured-status"]').textContent), null, { timeout: 40000 });
    assert.equal(await page.isHidden(role('structured-error')), true, await page.textContent(role('structured-error')));
    const layers = await rowsOf(page, 'structured-layers');
    assert.equal(layers.length, 2);
    for (const [, before, after] of layers) assert.equal(Number(after.replace(/,/g, '')) * 2, Number(before.replace(/,/g, '')));
    const sizes = await rowsOf(page, 'structured-sizes');
    assert.deepEqual(sizes.map((r) => r[0]), ['parameters', 'parameter bytes', 'forward FLOPs per image (core’s total)']);
    for (const r of sizes) assert.ok(Number(r[3]) < 1, `${r[0]} shrank: ${r}`);
    assert.deepEqual((await rowsOf(page, 'structured-curve')).map((r) => r[0]), ['0', '1']);
    assert.equal(await dotsIn(page, 'structured-curve'), 2);
    assert.match(await page.textContent('[data-chart="structured-curve"]'), /baseline \d+\.\d%/);
    const latency = await rowsOf(page, 'structured-latency');
    assert.deepEqual(latency.map((r) => r[0]), ['1', '64']);
    const sentences = await page.$$eval(`${role('structured-latency-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.equal(sentences.length, 2);
    assert.match(sentences[0], /^At batch 1: /);
    const accuracy = await page.$$eval(`${role('structured-accuracy-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.match(accuracy[1], /^After 1 epoch of fine-tuning/);
  });

  test('distil the baseline into the small student beside the same student on labels alone', async () => {
    const { page } = lab;
    await page.click('[data-action="run-distill"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="distill-status"]').textContent), null, { timeout: 40000 });
    assert.equal(await page.isHidden(role('distill-error')), true, await page.textContent(role('distill-error')));
    const rows = await rowsOf(page, 'distill-epochs');
    const epochs = Number(await page.getAttribute('[data-chart="distill-curves"]', 'data-epochs'));
    assert.ok(epochs >= 1);
    assert.equal(rows.length, epochs);
    assert.equal(await dotsIn(page, 'distill-curves'), 2 * epochs);
    const sentences = await page.$$eval(`${role('distill-sentences')} p`, (ps) => ps.map((p) => p.textContent));
    assert.match(sentences[0], new RegExp(`^After ${epochs} epochs? on seed 1: distilled \\d+\\.\\d\\d%, labels alone \\d+\\.\\d\\d%`));
    assert.match(sentences[1], /^This is one seed\..*perflab_bench_optimize_floors/);
  });

  test('Cancel during fine-tuning keeps the epochs done, and the section runs again', async () => {
    const { page } = lab;
    await page.fill('[data-control="finetune_epochs"]', '30');
    await page.click('[data-action="run-structured"]');
    // Cancel once the first fine-tuned epoch is on the curve (rows 0 and 1) of this run: the
    // status says fine-tuning only after the run cleared the previous run's rows.
    await page.waitForFunction(() => /^Fine-tuning/.test(document.querySelector('[data-role="structured-status"]').textContent), null, { timeout: 40000 });
    await page.waitForFunction(() => document.querySelectorAll('[data-role="structured-curve"] tbody tr').length >= 2, null, { timeout: 40000 });
    await page.click('[data-action="cancel-structured"]');
    await page.waitForFunction(() => /^(Cancelled,|Done|Stopped)/.test(document.querySelector('[data-role="structured-status"]').textContent), null, { timeout: 40000 });
    const status = await page.textContent(role('structured-status'));
    assert.match(status, /^Cancelled, the epochs done kept: .* after (\d+) fine-tuning epochs?/);
    const kept = Number(/after (\d+) fine-tuning/.exec(status)[1]);
    assert.ok(kept >= 1 && kept < 30, status);
    assert.equal((await rowsOf(page, 'structured-curve')).length, kept + 1);
    assert.equal(await page.isHidden(role('structured-error')), true);
    assert.equal(await page.isDisabled('[data-action="cancel-structured"]'), true);
    assert.equal(await page.isDisabled('[data-action="run-structured"]'), false);
  });

  test('Cancel of a section that aborts its call says so, and the section runs again', async () => {
    const { page } = lab;
    await page.click('[data-action="run-quantize"]');
    await page.waitForFunction(() => document.querySelector('[data-action="cancel-quantize"]')?.disabled === false, null, { timeout: 20000 });
    await page.click('[data-action="cancel-quantize"]');
    await page.waitForFunction(() => /^(Cancelled|Done|Stopped)/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 40000 });
    assert.match(await page.textContent(role('quantize-status')), /^Cancelled; the rows above are those finished\.$/);
    assert.equal(await page.isHidden(role('quantize-error')), true, await page.textContent(role('quantize-error')));
    await page.waitForFunction(() => document.querySelector('[data-action="run-quantize"]')?.disabled === false, null, { timeout: 10000 });
    await page.click('[data-action="run-quantize"]');
    await page.waitForFunction(() => !/^Cancelled/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 10000 });
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 60000 });
    assert.match(await page.textContent(role('quantize-status')), /^Done: /, await page.textContent(role('quantize-error')));
  });

  test('transforms compose: the pruned model quantized keeps its lineage', async () => {
    const { page } = lab;
    const options = await page.$$eval('[data-control="source"] option', (os) => os.map((o) => o.value));
    assert.equal(options[0], 'baseline');
    assert.ok(options.includes('structured-50'), options.join());
    assert.ok(!options.some((o) => o.startsWith('int8-')), options.join());
    await page.selectOption('[data-control="source"]', 'structured-50');
    assert.match(await page.textContent(role('quantize-baseline')), /^Quantizing structured pruning, 50% of hidden units removed.* \(made by structured prune 50%/);
    await page.click('[data-action="run-quantize"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 60000 });
    assert.equal(await page.isHidden(role('quantize-error')), true, await page.textContent(role('quantize-error')));
    const made = await page.textContent(role('pareto-made'));
    assert.match(made, /int8 \(min\/max\) of structured pruning, 50% of hidden units removed/);
    assert.match(made, /int8 \(percentile\) of structured pruning, 50% of hidden units removed/);
    // The int8 model's bytes are a quarter of the pruned float model's, not of the baseline's.
    const summary = await rowsOf(page, 'quantize-summary');
    for (const r of summary) assert.ok(number(r[3]) < number(r[2]) / 3, `int8 bytes ${r[3]} against float ${r[2]}`);
  });
});
