// Protects the Optimization chapter's KV cache and int8 sections end to end in quick mode
// (page -> bridge -> lab worker -> the training module's core): the KV cache run measures every
// length of core's quick plan, its speedup cells are the two medians' ratio, both charts draw
// and the sentences quote the rows; the KV exercise unlocks on that run and grades an answer
// computed from the table (a wrong one fails); the int8 run measures every variant of the plan,
// core places both kernels on the probe's roofline and the sentences say the roof is float's.
// No timing asserted, no console errors.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { exerciseCards, openLab } from './harness.mjs';

const KV = '[data-experiment="optimization-kv-cache"]';
const INT8 = '[data-experiment="optimization-int8"]';
const EXERCISE = 'optimization.kv-cache-growth';

const tableRows = (page, sel) => page.$$eval(`${sel} [data-role="table"] tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
const headers = (page, sel) => page.$$eval(`${sel} [data-role="table"] thead th`, (ths) => ths.map((th) => th.textContent));
const number = (text) => Number(text.replace(/[,×]/g, ''));

async function runToDone(page, sel, timeout = 60000) {
  await page.waitForFunction((s) => document.querySelector(`${s} [data-action="run"]`)?.disabled === false, sel, { timeout: 30000 });
  await page.click(`${sel} [data-action="run"]`);
  await page.waitForFunction((s) => /^Done/.test(document.querySelector(`${s} [data-role="status"]`)?.textContent ?? ''), sel, { timeout });
}

describe('Optimization chapter: the KV cache and int8, quick', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#optimization' });
  });
  after(async () => {
    const errors = lab?.errors ?? [];
    await lab?.close();
    assert.deepEqual(errors, []);
  });

  test('the KV cache run measures each length of the plan, draws both charts and says what the rows say', async () => {
    const { page } = lab;
    await runToDone(page, KV);
    const head = await headers(page, KV);
    const rows = await tableRows(page, KV);
    const col = (name) => head.findIndex((h) => h.startsWith(name));
    assert.deepEqual(rows.map((r) => r[0]), ['8', '16', '32', '64']);
    for (const r of rows) {
      const ratio = number(r[col('recompute (median)')]) / number(r[col('cached (median)')]);
      const shown = number(r[col('speedup')]);
      assert.ok(Math.abs(ratio - shown) <= 0.02 * shown, r.join(' | '));
      assert.ok(number(r[col('FLOP ratio')]) > 1, 'recompute runs more FLOPs');
    }
    const sentences = await page.$$eval(`${KV} [data-role="kv-sentence"]`, (ps) => ps.map((p) => p.textContent));
    const last = rows.at(-1);
    assert.match(sentences[0], new RegExp(`^At 64 tokens the speedup \\S+× is [\\d.]+ of the FLOP ratio \\S+×, so it (follows|does not follow) the FLOP ratio`));
    assert.match(sentences[1], /^From 8 to 64 new tokens, recompute went from /);
    assert.match(sentences[2], new RegExp(`^After 64 new tokens the cache holds 71 positions: ${last[col('cache at the end')].replace(/[.]/g, '\\.')} \\(`));
    // Two line charts, two series each.
    const lines = await page.$$eval(`${KV} [data-role="chart"]`, (charts) => charts.map((c) => c.querySelectorAll('g[aria-label="line"] path').length));
    assert.deepEqual(lines, [2, 2]);
  });

  test('the KV exercise is graded from that run: the page’s numbers pass, a length 2% off fails', async () => {
    const { page } = lab;
    const { card, submitAndWait } = exerciseCards(page);
    await card(EXERCISE).waitFor({ timeout: 30000 });
    await page.waitForFunction((id) => !document.querySelector(`article[data-exercise-id="${id}"] button[type="submit"]`).disabled, EXERCISE, { timeout: 20000 });
    const head = await headers(page, KV);
    const rows = await tableRows(page, KV);
    const col = head.findIndex((h) => h.startsWith('recompute (median)'));
    const [n1, n2] = [number(rows.at(-2)[0]), number(rows.at(-1)[0])];
    const [t1, t2] = [number(rows.at(-2)[col]), number(rows.at(-1)[col])];
    const k = Math.log(t2 / t1) / Math.log(n2 / n1);
    // The decoder as the experiment's text names it (core's plan).
    const text = await page.textContent(KV);
    const [, layers, dModel] = /(\d+) layers?, d_model (\d+)/.exec(text);
    // The weights' bytes as the sentence under Run prints them ("… the weights’ 2.01 MiB").
    const sentence = (await page.$$eval(`${KV} [data-role="kv-sentence"]`, (ps) => ps.map((p) => p.textContent))).at(-1);
    const mib = Number(/the weights’ ([\d.]+) MiB\.$/.exec(sentence)[1]);
    const first = Math.floor((mib * 2 ** 20) / (2 * Number(layers) * Number(dModel) * 4)) + 1;
    const boxes = card(EXERCISE).locator('input[data-role="answer"]');
    const answer = async (values) => {
      for (const [i, v] of values.entries()) await boxes.nth(i).fill(String(v));
      return submitAndWait(EXERCISE, () => card(EXERCISE).locator('button[type="submit"]').click());
    };
    assert.equal(await answer([k, Math.round(first * 0.98)]), 'false');
    assert.equal(await answer([k, first]), 'true');
  });

  test('the int8 run measures each variant, and core places both kernels on the probe’s roofline', async () => {
    const { page } = lab;
    await runToDone(page, INT8);
    const rows = await tableRows(page, INT8);
    assert.deepEqual(rows.map((r) => `${r[0]} ${r[2]}`), ['784→256 naive', '784→256 simd']);
    const sentences = await page.$$eval(`${INT8} [data-role="int8-sentence"]`, (ps) => ps.map((p) => p.textContent));
    assert.match(sentences[0], /^Linear 784→256 at batch 256: int8 (naive|simd) ran \S+ G integer ops\/s against float32’s \S+ GFLOP\/s/);
    // The roofs' sentence comes after the layers' (then one more for each kernel that ran above its roof).
    assert.match(sentences[1], /^Each kernel has its own flat roof: int8’s is the probe’s integer peak, the same multiply-add in registers only \(\S+ G integer ops\/s\), \S+× the float32 peak/);
    // The sentence's speedup is the table's largest (the identity it states: peak ratio × the fractions' ratio).
    const column = (await headers(page, INT8)).indexOf('float32 ÷ int8');
    const cells = rows.map((r) => r[column]);
    const largest = cells.reduce((a, b) => (parseFloat(b) > parseFloat(a) ? b : a));
    assert.ok(sentences[1].includes(`so its speedup (${largest})`), `${sentences[1]} | ${cells.join(', ')}`);
    for (const s of sentences.slice(2)) assert.match(s, /^(The float32 kernel itself ran above its roof at 784→256 |(Every int8 point|1 of the 2 int8 points) ran above the integer roof)/);
    // The integer peak's flat roof is drawn beside the float one.
    const labels = await page.$$eval(`${INT8} [data-role="chart"]`, (charts) => [...charts[1].querySelectorAll('text')].map((t) => t.textContent));
    assert.ok(labels.some((t) => /^integer peak \S+ Gop\/s$/.test(t)), labels.join('|'));
    // Two int8 points and the float one on the roofline; the speedup bars.
    const dots = await page.$$eval(`${INT8} [data-role="chart"]`, (charts) => charts.map((c) => c.querySelectorAll('g[aria-label="dot"] circle').length));
    assert.equal(dots[1], 3);
    assert.ok((await page.$$(`${INT8} [data-role="chart"] g[aria-label="bar"] rect`)).length >= 2);
  });
});
