// Protects the Profiling exercises graded from data, end to end in the page (?quick=1):
// countParameters(model) over the lab's model specs (conv, attention and transformer
// blocks included) is graded by core's own counts, one that ignores the bias default fails;
// and the batch-throughput exercise waits for the batch-size experiment, then grades an answer
// read off that run's table, while the same answer for another run would not be assumed.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab } from './harness.mjs';

const COUNT = 'profiling.count-parameters';
const THROUGHPUT = 'profiling.batch-throughput';

let lab;
let page;
let card, dataOf, submitAndWait;
before(async () => {
  lab = await openLab({ query: '?quick=1', hash: '#profiling' });
  page = lab.page;
  const cards = exerciseCards(page);
  ({ card, dataOf, submitAndWait } = cards);
  await cards.waitForCards([COUNT, THROUGHPUT]);
});
after(async () => {
  await lab?.close();
});

async function setCode(id, code) {
  await card(id).locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(code);
}

const RIGHT_COUNT = `function countParameters(model) {
  let total = 0;
  for (const l of model.layers) {
    const bias = l.bias !== false;
    if (l.type === 'Linear') total += l.in * l.out + (bias ? l.out : 0);
    else if (l.type === 'Conv2d') total += l.out_channels * l.in_channels * l.kernel * l.kernel + (bias ? l.out_channels : 0);
    else if (l.type === 'LayerNorm') total += 2 * l.features;
    else if (l.type === 'MultiHeadAttention') total += 4 * (l.d_model * l.d_model + l.d_model);
    else if (l.type === 'TransformerBlock') {
      const d = l.d_model, f = l.d_ff;
      total += 4 * d + 4 * (d * d + d) + (d * f + f) + (f * d + d);
    }
  }
  return total;
}`;

test('countParameters: ignoring the bias default fails, the right count passes all seven models', async () => {
  const run = card(COUNT).locator('button[data-role="run"]');
  await setCode(COUNT, RIGHT_COUNT.replace('l.bias !== false', 'l.bias === true'));
  assert.equal(await submitAndWait(COUNT, () => run.click()), 'false');
  assert.match(await card(COUNT).locator('.pl-ex-tests li').first().textContent(), /one Linear layer \(bias by default\): expected [\d,]+, got \d+/);

  await setCode(COUNT, RIGHT_COUNT);
  assert.equal(await submitAndWait(COUNT, () => run.click()), 'true');
  assert.equal(await card(COUNT).locator('.pl-ex-tests li[data-passed="true"]').count(), 7);
  assert.equal((await dataOf(COUNT)).bestScore, '10');
});

test('batch-throughput: Submit waits for the batch-size experiment, then grades from its table', async () => {
  const note = card(THROUGHPUT).locator('[data-role="evidence"]');
  assert.match(await note.textContent(), /^Answer from your own run of batch-size effects\./);
  const submit = card(THROUGHPUT).locator('button[type="submit"]');
  assert.equal(await submit.isDisabled(), true);

  const experiment = page.locator('section[data-experiment="profiling-batch-size"]');
  await experiment.locator('button[data-action="run"]').click();
  await page.waitForFunction(
    (id) => !document.querySelector(`article[data-exercise-id="${id}"] button[type="submit"]`).disabled,
    THROUGHPUT,
    { timeout: 180000 },
  );

  // samples/s at batch 1 and 32, as the table shows them.
  const table = await experiment.locator('table').evaluate((t) => {
    const headers = [...t.querySelectorAll('thead th')].map((th) => th.textContent);
    const rows = [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((td) => td.textContent));
    return { headers, rows };
  });
  const batchColumn = table.headers.findIndex((h) => /^batch/.test(h));
  const throughputColumn = table.headers.findIndex((h) => /throughput/.test(h));
  const at = (batch) => Number(table.rows.find((r) => Number(r[batchColumn].replace(/,/g, '')) === batch)[throughputColumn].replace(/,/g, ''));
  const gain = at(32) / at(1);

  const input = card(THROUGHPUT).locator('input[data-role="answer"]');
  await input.fill(String(gain * 2));
  assert.equal(await submitAndWait(THROUGHPUT, () => submit.click()), 'false');
  await input.fill(String(gain));
  assert.equal(await submitAndWait(THROUGHPUT, () => submit.click()), 'true');
  assert.equal((await dataOf(THROUGHPUT)).bestScore, '20');
  // The saved answer is what core graded, the run's rows included, so a teacher re-grades it
  // from the same rows (docs/SUBMISSION.md).
  const entry = await page.evaluate((id) => JSON.parse(localStorage.getItem('perflab.progress.v1')).exercises[id], THROUGHPUT);
  assert.equal(entry.best_answer.value, gain);
  assert.equal(entry.best_answer.evidence.experiment, 'profiling-batch-size');
  assert.equal(entry.best_answer.evidence.rows.length, table.rows.length);
  assert.ok(entry.best_answer.evidence.rows.every((r) => Number.isFinite(r.samples_per_s)));
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
