// Protects the Profiling exercises added beyond the first of each kind, end to end in the page
// (exercises.test.mjs covers the engine on those): a multi-part numeric exercise shows one
// labelled box per part, refuses empty boxes without counting an attempt, grades a wrong
// answer with per-part feedback and partial credit and a right one in full, and restores the
// boxes after a reload; a choice shown in a per-variant order is graded by what it says; a
// correct measureLatency is graded correct through the sandbox's fake clock, and one that
// times its warmup calls is not. Answers are computed here from the variant on the page.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab } from './harness.mjs';

const FLOPS = 'profiling.linear-flops';
const STATISTIC = 'profiling.latency-statistic';
const LATENCY = 'profiling.measure-latency';

let lab;
let page;
let card, params, dataOf, submitAndWait, waitForCards;
before(async () => {
  lab = await openLab({ hash: '#profiling' });
  page = lab.page;
  const cards = exerciseCards(page);
  ({ card, params, dataOf, submitAndWait } = cards);
  waitForCards = () => cards.waitForCards([FLOPS, STATISTIC, LATENCY]);
  await waitForCards();
});
after(async () => {
  await lab?.close();
});

/** What each part's feedback line says, and whether it is marked right. */
const partFeedback = () =>
  card(FLOPS)
    .locator('.pl-ex-part')
    .evaluateAll((els) =>
      els.map((el) => ({ correct: el.dataset.correct, text: el.querySelector('[data-role="part-feedback"]').textContent })),
    );

test('a multi-part numeric exercise shows one labelled box per part, with unit, points and tolerance', async () => {
  assert.match(await card(FLOPS).locator('.pl-ex-kind').textContent(), /Numeric answer in 3 parts · 15 points/);
  const parts = card(FLOPS).locator('.pl-ex-part');
  assert.equal(await parts.count(), 3);
  const labels = ['FLOPs per sample', 'FLOPs per batch', 'Minimum latency of the batch'];
  for (const [i, label] of labels.entries()) {
    // Each box is reachable by its label, as a screen reader would announce it.
    assert.equal(await card(FLOPS).getByLabel(label).getAttribute('data-part'), String(i));
    assert.match(await parts.nth(i).textContent(), /5 points/);
  }
  assert.match(await parts.nth(0).locator('.pl-ex-unit').textContent(), /FLOPs/);
  assert.match(await parts.nth(2).locator('.pl-ex-unit').textContent(), /^ms$/);
  assert.match(await parts.nth(0).textContent(), /The answer must be exact \(within 0\.5\)\./);
  assert.match(await parts.nth(2).textContent(), /The answer must be within 1%\./);
});

test('multi-part numeric: an empty box is refused, a wrong answer gets per-part feedback and partial credit', async () => {
  const p = await params(FLOPS);
  const perSample = 2 * p.in * p.out;
  const boxes = card(FLOPS).locator('input[data-role="answer"]');
  const submit = card(FLOPS).locator('button[type="submit"]');

  await boxes.nth(0).fill(String(perSample));
  await submit.click();
  assert.equal(
    await card(FLOPS).locator('[data-role="error"]').textContent(),
    'FLOPs per batch: Type a number first. Minimum latency of the batch: Type a number first.',
  );
  assert.equal(await boxes.nth(1).getAttribute('aria-invalid'), 'true');
  assert.equal((await dataOf(FLOPS)).attempts, '0');

  // Per sample right; the batch forgotten, so the batch total and the latency are one sample's.
  await boxes.nth(1).fill(String(perSample));
  await boxes.nth(2).fill(String((perSample / (p.gflops_per_s * 1e9)) * 1e3));
  assert.equal(await submitAndWait(FLOPS, () => submit.click()), 'false');
  assert.match(await card(FLOPS).locator('[data-role="feedback"]').textContent(), /1 of 3 parts correct\..*5 \/ 15 points for this attempt/);
  const feedback = await partFeedback();
  assert.deepEqual(feedback.map((f) => f.correct), ['true', 'false', 'false']);
  assert.match(feedback[0].text, /Correct\. \(5 \/ 5 points\)/);
  assert.match(feedback[1].text, /Too low: the answer must be exact \(within 0\.5\)\. \(0 \/ 5 points\)/);
  assert.match(feedback[2].text, /Too low: the answer must be within 1%\./);
  const d = await dataOf(FLOPS);
  assert.equal(d.bestScore, '5');
  assert.equal(d.solved, 'false');
  assert.equal(await card(FLOPS).locator('[data-role="hints"] li').count(), 1);
});

test('multi-part numeric: the right answer scores every part and survives a reload', async () => {
  const p = await params(FLOPS);
  const perSample = 2 * p.in * p.out;
  const perBatch = perSample * p.batch;
  const latencyMs = (perBatch / (p.gflops_per_s * 1e9)) * 1e3;
  const boxes = card(FLOPS).locator('input[data-role="answer"]');
  await boxes.nth(1).fill(perBatch.toLocaleString('en-US'));
  await boxes.nth(2).fill(latencyMs.toPrecision(4));
  assert.equal(await submitAndWait(FLOPS, () => boxes.nth(2).press('Enter')), 'true');
  assert.match(await card(FLOPS).locator('[data-role="feedback"]').textContent(), /All 3 parts correct\./);
  assert.deepEqual((await partFeedback()).map((f) => f.correct), ['true', 'true', 'true']);
  const d = await dataOf(FLOPS);
  assert.equal(d.solved, 'true');
  assert.equal(d.bestScore, '15');

  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('perflab.progress.v1')).exercises);
  assert.deepEqual(saved[FLOPS].last_answer, { values: [perSample, perBatch, Number(latencyMs.toPrecision(4))] });

  await page.reload();
  await waitForCards();
  assert.deepEqual(await boxes.evaluateAll((els) => els.map((e) => Number(e.value))), saved[FLOPS].last_answer.values);
  assert.match(await card(FLOPS).locator('[data-role="status"]').textContent(), /Solved.*15 \/ 15 points · 2 attempts/);
});

test('a choice shown in a per-variant order is graded by what it says, and a wrong try asks another question', async () => {
  // Which statistic answers which question (the prompt names the question).
  const statisticFor = (prompt) =>
    /typical latency/.test(prompt) ? 'median' : /total time/.test(prompt) ? 'mean' : /best case/.test(prompt) ? 'minimum' : 'maximum';
  const choices = card(STATISTIC).locator('label.pl-ex-choice');
  const prompt = () => card(STATISTIC).locator('.pl-ex-prompt').textContent();
  assert.equal(await choices.count(), 4);
  const submit = card(STATISTIC).locator('button[type="submit"]');
  const firstPrompt = await prompt();
  const wrong = ['median', 'mean', 'minimum', 'maximum'].find((s) => s !== statisticFor(firstPrompt));
  await choices.filter({ hasText: new RegExp(`^\\s*The ${wrong}, `) }).locator('input').check();
  assert.equal(await submitAndWait(STATISTIC, () => submit.click()), 'false');
  // Try 2: another question about new samples.
  await page.waitForFunction(
    ([id, before]) => document.querySelector(`article[data-exercise-id="${id}"] .pl-ex-prompt`)?.textContent !== before,
    [STATISTIC, firstPrompt],
  );
  const secondPrompt = await prompt();
  assert.notEqual(statisticFor(secondPrompt), statisticFor(firstPrompt));
  // The median shown is the median of the samples on the page.
  const { samples_ms } = await params(STATISTIC);
  const sorted = [...samples_ms].sort((a, b) => a - b);
  assert.match(await choices.filter({ hasText: /^\s*The median, / }).textContent(), new RegExp(`The median, ${sorted[4]} ms`));
  await choices.filter({ hasText: new RegExp(`^\\s*The ${statisticFor(secondPrompt)}, `) }).locator('input').check();
  assert.equal(await submitAndWait(STATISTIC, () => submit.click()), 'true');
  assert.equal((await dataOf(STATISTIC)).bestScore, '5');
});

async function setCode(id, code) {
  await card(id).locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(code);
}

const RIGHT_LATENCY = `function measureLatency(fn, { warmup, iterations }, clock) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < iterations; i++) {
    const start = clock.now();
    fn();
    times.push(clock.now() - start);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}`;

test('measureLatency: timing the warmup calls fails, the right solution passes every fake-clock test', async () => {
  const run = card(LATENCY).locator('button[data-role="run"]');
  assert.match(await card(LATENCY).locator('.cm-content').textContent(), /function measureLatency\(fn, \{ warmup, iterations \}, clock\)/);

  const timesWarmup = RIGHT_LATENCY.replace('for (let i = 0; i < warmup; i++) fn();', '').replace(
    'i < iterations',
    'i < warmup + iterations',
  );
  await setCode(LATENCY, timesWarmup);
  assert.equal(await submitAndWait(LATENCY, () => run.click()), 'false');
  const tests = card(LATENCY).locator('.pl-ex-tests li');
  assert.equal(await tests.count(), 6);
  // Only the test without warmup calls passes.
  assert.deepEqual(await tests.evaluateAll((els) => els.map((e) => e.dataset.passed)), ['true', 'false', 'false', 'false', 'false', 'false']);
  assert.match(await tests.nth(1).textContent(), /3 warmup calls are not timed: expected .*, got /);

  await setCode(LATENCY, RIGHT_LATENCY);
  assert.equal(await submitAndWait(LATENCY, () => run.click()), 'true');
  assert.equal(await card(LATENCY).locator('.pl-ex-tests li[data-passed="true"]').count(), 6);
  assert.match(await card(LATENCY).locator('[data-role="feedback"]').textContent(), /All 6 tests passed\./);
  assert.equal((await dataOf(LATENCY)).bestScore, '15');
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
