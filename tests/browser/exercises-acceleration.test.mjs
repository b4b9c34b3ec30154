// Protects the Acceleration chapter's exercises end to end in the page (?quick=1): a
// multi-part numeric answer, a choice decided from the roofline, the attainable() code
// exercise, the timed matmul whose last test reports both medians, their ratio and every
// round's times, timed on a copy of the function that has seen only the timed inputs, as the
// reference has (whether it passes depends on the machine, so only the report is asserted;
// bench/timed-test-fairness.mjs measures the starter code's ratio), and the experiment-backed
// exercises: Submit stays disabled until the roofline experiment on the page has run, then
// answers computed from the figures the page shows are graded right from that run's rows,
// and are saved with those rows.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab, repoRoot } from './harness.mjs';

const INTENSITY = 'acceleration.intensity';
const POSITION = 'acceleration.roofline-position';
const ATTAINABLE = 'acceleration.attainable-code';
const MATMUL = 'acceleration.matmul-loop-order';
const RIDGE = 'acceleration.my-ridge';
const CLASSIFY = 'acceleration.my-roofline-classify';

let lab;
let page;
let card, params, dataOf, submitAndWait;
before(async () => {
  lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  page = lab.page;
  const cards = exerciseCards(page);
  ({ card, params, dataOf, submitAndWait } = cards);
  await cards.waitForCards([INTENSITY, POSITION, ATTAINABLE, MATMUL, RIDGE, CLASSIFY]);
});
after(async () => {
  await lab?.close();
});

async function setCode(id, code) {
  await card(id).locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(code);
}

test('the chapter lists every exercise of core’s bank for it, with their points', async () => {
  // Core owns the list: the native CLI's bank (PERFLAB_CLI, as tools/lab test sets it).
  const cli = path.resolve(repoRoot, process.env.PERFLAB_CLI || 'build/native/tools/perflab');
  const bank = JSON.parse(execFileSync(cli, ['exercises'], { maxBuffer: 1 << 26 }).toString());
  const chapter = bank.filter((e) => e.chapter === 'acceleration');
  assert.ok(chapter.length > 0, "core's bank has no acceleration exercises");
  const summary = page.locator('#chapter-acceleration [data-role="summary"]');
  assert.equal(await summary.getAttribute('data-possible'), String(chapter.reduce((sum, e) => sum + e.points, 0)));
  const ids = await page.locator('#chapter-acceleration article[data-exercise-id]').evaluateAll((cards) =>
    cards.map((c) => c.dataset.exerciseId),
  );
  assert.deepEqual(ids, chapter.map((e) => e.id));
});

test('numeric in parts: the intensities N/6 and 1/12 are graded right', async () => {
  const p = await params(INTENSITY);
  const boxes = card(INTENSITY).locator('input[data-role="answer"]');
  await boxes.nth(0).fill(String(p.n / 6));
  await boxes.nth(1).fill(String(1 / 12));
  assert.equal(await submitAndWait(INTENSITY, () => card(INTENSITY).locator('button[type="submit"]').click()), 'true');
  assert.match(await card(INTENSITY).locator('[data-role="feedback"]').textContent(), /All 2 parts correct\./);
});

test('choice: each operation is placed left or right of the ridge', async () => {
  const p = await params(POSITION);
  const ridge = p.peak_gflops_per_s / p.bandwidth_gb_per_s;
  const side = (op) => {
    const intensity = /add/.test(op) ? 1 / 12 : /GELU/.test(op) ? 9 / 8 : /sum/.test(op) ? 1 / 4 : Number.parseInt(op.slice(2), 10) / 6;
    return intensity >= ridge ? 'right of the ridge (compute-bound)' : 'left of the ridge (memory-bound)';
  };
  const label = `A ${side(p.op_a)}, B ${side(p.op_b)}`;
  await card(POSITION).getByLabel(label, { exact: true }).check();
  assert.equal(await submitAndWait(POSITION, () => card(POSITION).locator('button[type="submit"]').click()), 'true');
});

test('code: attainable() passes the hidden tests built from core\'s roofline', async () => {
  await setCode(ATTAINABLE, 'function attainable(peak, bandwidth, intensity) {\n  return Math.min(peak, intensity * bandwidth);\n}');
  assert.equal(await submitAndWait(ATTAINABLE, () => card(ATTAINABLE).locator('button[data-role="run"]').click()), 'true');
  assert.equal((await dataOf(ATTAINABLE)).bestScore, '10');
});

test('timed code: a cache-friendly matmul is correct and its timed test reports both medians, the ratio and every round', async () => {
  assert.equal(
    await card(MATMUL).locator('[data-role="scoring"]').textContent(),
    'The timed test earns 10 of the 15 points, the other tests share the rest equally; reruns cost nothing.',
  );
  // The timed copy must not have run the small tests' plain arrays (the reference never has):
  // it throws if it had.
  const ikj = `const seen = [];
function matmul(a, b, n) {
  seen.push(Object.prototype.toString.call(a));
  if (n === 512 && seen.includes('[object Array]')) throw new Error('the timed copy saw ' + seen.join(', '));
  const c = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < n; k++) {
      const x = a[i * n + k];
      for (let j = 0; j < n; j++) c[i * n + j] += x * b[k * n + j];
    }
  }
  return c;
}`;
  await setCode(MATMUL, ikj);
  await submitAndWait(MATMUL, () => card(MATMUL).locator('button[data-role="run"]').click());
  const tests = card(MATMUL).locator('.pl-ex-tests li');
  assert.equal(await tests.count(), 6);
  const passed = await tests.evaluateAll((els) => els.map((e) => e.dataset.passed));
  assert.deepEqual(passed.slice(0, 5), ['true', 'true', 'true', 'true', 'true']);
  assert.match(
    await tests.nth(5).textContent(),
    /faster than the naive loop at N = 512: yours [\d.e+-]+ ms, the naive ijk loop [\d.e+-]+ ms \(medians of 3 interleaved rounds at N = 512; each round: yours [\d.e+-]+, [\d.e+-]+, [\d.e+-]+ ms, the naive ijk loop [\d.e+-]+, [\d.e+-]+, [\d.e+-]+ ms\): (only )?[\d.]+× as fast/,
  );
});

test('experiment-backed: Submit waits for a run of the roofline experiment, then grades from it', async () => {
  const note = card(RIDGE).locator('[data-role="evidence"]');
  assert.match(await note.textContent(), /^Answer from your own run of the roofline of this machine\. Submit unlocks once it has finished a run on this page\./);
  assert.equal(await note.locator('a').getAttribute('href'), '#acceleration-roofline-title');
  const submit = card(RIDGE).locator('button[type="submit"]');
  assert.equal(await submit.isDisabled(), true);
  assert.equal(await card(CLASSIFY).locator('button[type="submit"]').isDisabled(), true);

  // The link scrolls to the experiment without leaving the chapter.
  await note.locator('a').click();
  assert.equal(await page.locator('#chapter-acceleration').isVisible(), true);

  const experiment = page.locator('section[data-experiment="acceleration-roofline"]');
  await experiment.locator('[data-role="probe"]').waitFor({ timeout: 60000 });
  await experiment.locator('button[data-action="run"]').click();
  await page.waitForFunction(
    (id) => !document.querySelector(`article[data-exercise-id="${id}"] button[type="submit"]`).disabled,
    RIDGE,
    { timeout: 120000 },
  );
  assert.match(await note.textContent(), /Graded against your run \(\d+ rows?\)/);

  // The figures as the page shows them: "12.3 GFLOP/s".
  const figures = await experiment.locator('[data-role="probe"]').evaluate((dl) => {
    const out = {};
    const terms = [...dl.querySelectorAll('dt')];
    for (const dt of terms) out[dt.textContent] = Number.parseFloat(dt.nextElementSibling.textContent);
    return out;
  });
  const peak = figures['peak (SIMD multiply-adds)'];
  const bandwidth = figures['memory bandwidth (triad, the roof)'];
  const ridge = peak / bandwidth;
  const boxes = card(RIDGE).locator('input[data-role="answer"]');
  await boxes.nth(0).fill(String(ridge));
  await boxes.nth(1).fill(String(Math.min(peak, bandwidth / 12)));
  assert.equal(await submitAndWait(RIDGE, () => submit.click()), 'true');

  // This try's two sizes (drawn per try), each at N/6 FLOP/byte against the measured ridge.
  const { n_small: small, n_large: large } = await params(CLASSIFY);
  const label = `N = ${small} ${small / 6 >= ridge ? 'compute' : 'memory'}-bound, N = ${large} ${large / 6 >= ridge ? 'compute' : 'memory'}-bound`;
  await card(CLASSIFY).locator('label.pl-ex-choice', { hasText: label }).locator('input').check();
  assert.equal(await submitAndWait(CLASSIFY, () => card(CLASSIFY).locator('button[type="submit"]').click()), 'true');
  assert.equal((await dataOf(CLASSIFY)).bestScore, '20');

  // The saved answers are what core graded, rows included, so a teacher re-grades them from
  // the run they came from (docs/SUBMISSION.md).
  const rowCount = Number((await note.textContent()).match(/your run \((\d+) rows?\)/)[1]);
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('perflab.progress.v1')).exercises);
  for (const id of [RIDGE, CLASSIFY]) {
    const { evidence } = saved[id].best_answer;
    assert.equal(evidence.experiment, 'acceleration-roofline', id);
    assert.equal(evidence.rows.length, rowCount, id);
    assert.deepEqual(saved[id].last_answer, saved[id].best_answer, id);
  }
  assert.equal(saved[CLASSIFY].best_answer.attempt, 1);
  assert.equal(saved[RIDGE].best_answer.values.length, 2);
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
