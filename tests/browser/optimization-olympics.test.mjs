// Protects the Optimization chapter's Olympics section end to end (page -> bridge -> lab
// worker -> wasm core) in quick mode: core's events fill the table before any model exists and
// the measurement cannot run without the baseline; with the pretrained baseline and an int8
// model made from it, core gives the model's pipeline, the measurement times both
// interleaved, and the standing lists every event with core's verdict (the baseline's
// figures: an int8 model keeps its accuracy within a point or two, so the accuracy floors
// pass and the verdicts that differ are core's); the entry is kept with the progress (a
// reload lists it again, its latency recomputed by core from its samples), the export
// carries it under olympics.entries, and Remove takes it out; a distilled model is refused
// beside the control with core's sentence. No console error. No timing asserted.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { openLab, waitForMachineFacts } from './harness.mjs';

const role = (r) => `[data-role="${r}"]`;
const rowsOf = (page, r) => page.$$eval(`${role(r)} tbody tr`, (rows) => rows.map((tr) => [...tr.children].map((c) => c.textContent)));
const planShown = (page) => page.waitForFunction(() => document.querySelector('[data-role="olympics-plan"]')?.hidden === false, null, { timeout: 30000 });

describe('Optimization chapter: the Olympics (quick mode)', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#optimization' });
    await planShown(lab.page);
  });
  after(async () => {
    const errors = lab?.errors ?? [];
    await lab?.close();
    assert.deepEqual(errors, []);
  });

  test('core’s events are listed and nothing can be entered before the baseline', async () => {
    const { page } = lab;
    const events = await rowsOf(page, 'olympics-events');
    assert.deepEqual(events.map((r) => r[0]), ['Latency sprint', 'Memory challenge', 'Accuracy contest', 'All-around', 'Extreme push']);
    // Each constraint is core's sentence with core's limit.
    assert.match(events[1][3], /a test accuracy of at least 0\.85; parameter bytes at most 0\.50× the baseline's/);
    assert.match(events[4][3], /upper end of the 95% interval/);
    assert.match(await page.textContent(role('olympics-pipeline')), /^Train or load the baseline first/);
    assert.equal(await page.isDisabled('[data-action="run-olympics"]'), true);
    assert.match(await page.textContent(role('olympics-kept-note')), /^No entry yet/);
  });

  test('an int8 model of the baseline is entered: pipeline, interleaved timing, core’s standing, kept and exported', async () => {
    const { page } = lab;
    await page.click('[data-action="evaluate-baseline"]');
    await page.waitForFunction(() => /^Quantizing the baseline/.test(document.querySelector('[data-role="quantize-baseline"]').textContent), null, { timeout: 30000 });
    await page.click('[data-action="run-quantize"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="quantize-status"]').textContent), null, { timeout: 40000 });
    await page.selectOption('[data-control="model"]', 'int8-minmax');
    await page.waitForFunction(() => /^The pipeline the grader replays/.test(document.querySelector('[data-role="olympics-pipeline"]').textContent), null, { timeout: 20000 });
    assert.match(await page.textContent(role('olympics-pipeline')), /int8/);
    // Enter two events only.
    for (const id of ['memory-challenge', 'accuracy-contest', 'extreme-push']) await page.uncheck(`#optimization-olympics-event-${id}`);
    await page.click('[data-action="run-olympics"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="olympics-status"]').textContent), null, { timeout: 40000 });
    assert.equal(await page.isHidden(role('olympics-error')), true, await page.textContent(role('olympics-error')));
    assert.match(await page.textContent(role('olympics-status')), /^Done: entered as entry-1, int8, min\/max calibration in 2 events/);
    const standing = await rowsOf(page, 'olympics-standing');
    assert.deepEqual(standing.map((r) => `${r[0]}:${r[1]}`), ['Latency sprint:yes', 'Memory challenge:no', 'Accuracy contest:no', 'All-around:yes', 'Extreme push:no']);
    // int8 stores about a quarter of the float bytes: core qualifies it for the memory challenge
    // on size; the score there is its byte count, a latency score is a ratio with its interval.
    assert.equal(standing[1][3], 'qualifies');
    assert.match(standing[1][2], /^[\d,]+ bytes$/);
    assert.match(standing[0][2], /^\d[\d.]*× \(\d[\d.]*×–\d[\d.]*×\)$/);
    for (const r of standing) assert.match(r[3], /^(qualifies|refused: .+)$/);
    assert.match(await page.textContent(role('olympics-latency-sentences')), /\S/);

    const kept = await rowsOf(page, 'olympics-kept');
    assert.deepEqual(kept.map((r) => r.slice(0, 3)), [['entry-1', 'int8, min/max calibration', 'latency-sprint, all-around']]);
    assert.equal(kept[0][5], standing[0][2], 'the kept entry’s latency is core’s answer from the same samples');

    const panel = page.locator('.pl-exercises[data-chapter="optimization"] .pl-progress');
    const [download] = await Promise.all([page.waitForEvent('download'), panel.locator('button[data-role="export"]').click()]);
    const file = JSON.parse(await readFile(await download.path(), 'utf8'));
    const [entry] = file.olympics.entries;
    assert.equal(file.olympics.entries.length, 1);
    assert.deepEqual(entry.events, ['latency-sprint', 'all-around']);
    assert.equal(entry.base.model, 'fashion_mlp');
    assert.match(entry.base.checksum, /^[0-9a-f]{16}$/);
    assert.deepEqual(entry.pipeline.map((s) => s.transform), ['quantize']);
    assert.equal(entry.timing.batch, 1);
    assert.equal(entry.timing.mode, 'interleaved');
    assert.equal(entry.timing.a_ms.length, entry.timing.b_ms.length);
    assert.ok(entry.claimed.parameter_bytes > 0 && entry.claimed.accuracy > 0.5);
  });

  test('a distilled model cannot enter: core’s sentence beside the model, and no measurement', async () => {
    const { page } = lab;
    await page.click('[data-action="run-distill"]');
    await page.waitForFunction(() => /^(Done|Stopped|Cancelled)/.test(document.querySelector('[data-role="distill-status"]').textContent), null, { timeout: 40000 });
    await page.selectOption('[data-control="model"]', 'distilled');
    await page.waitForFunction(() => document.querySelector('[data-role="olympics-pipeline-error"]')?.hidden === false, null, { timeout: 20000 });
    assert.match(await page.textContent(role('olympics-pipeline-error')), /distil/);
    assert.match(await page.textContent(role('olympics-pipeline')), /cannot enter/);
    assert.equal(await page.isDisabled('[data-action="run-olympics"]'), true);
    // Back to the int8 model: its pipeline again, and the measurement may run.
    await page.selectOption('[data-control="model"]', 'int8-minmax');
    assert.equal(await page.isHidden(role('olympics-pipeline-error')), true);
    assert.equal(await page.isDisabled('[data-action="run-olympics"]'), false);
  });

  test('a reload keeps the entry (judged again once the baseline is back), and Remove takes it out', async () => {
    const { page } = lab;
    await page.reload();
    await waitForMachineFacts(page);
    await planShown(page);
    await page.waitForFunction(() => /×/.test(document.querySelector('[data-role="olympics-kept"] tbody tr')?.children[5]?.textContent ?? ''), null, { timeout: 20000 });
    const kept = await rowsOf(page, 'olympics-kept');
    assert.deepEqual(kept.map((r) => r[0]), ['entry-1']);
    assert.match(kept[0][6], /^the baseline’s figures are needed/);
    await page.click('[data-action="remove-entry"][data-entry="entry-1"]');
    await page.waitForFunction(() => /^No entry yet/.test(document.querySelector('[data-role="olympics-kept-note"]').textContent), null, { timeout: 5000 });
    assert.deepEqual(await rowsOf(page, 'olympics-kept'), []);
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('perflab.progress.v1')).olympics);
    assert.deepEqual(saved, { entries: [] });
  });
});
