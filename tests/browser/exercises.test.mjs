// Protects the exercise engine end to end (page → lab worker → core's grader, and the
// student-code sandbox), on the chapter's first exercise of each kind (the others are in
// exercises-profiling.test.mjs): each kind grades a right and a wrong answer correctly from the
// variant shown on the page; hints unlock after a failed attempt; an endless loop is stopped
// at the time limit while the page stays responsive; progress (seed, answers, attempts,
// scores, code) survives a reload; a malformed import is refused and changes nothing; an
// export imports back; unreadable saved progress is announced at the top of the page, one bad
// entry costing only itself (named, downloadable, restorable re-graded) and a save that cannot
// be read at all kept aside whole.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab } from './harness.mjs';

const STORAGE_KEY = 'perflab.progress.v1';
const NUMERIC = 'profiling.linear-params';
const CHOICE = 'profiling.bound-classify';
const CODE = 'profiling.median';

let lab;
let page;
let card, params, dataOf, submitAndWait, waitForCards;
before(async () => {
  lab = await openLab({ hash: '#profiling' });
  page = lab.page;
  const cards = exerciseCards(page);
  ({ card, params, dataOf, submitAndWait } = cards);
  /** Waits until every exercise card of the chapter shows its variant. */
  waitForCards = () => cards.waitForCards([NUMERIC, CHOICE, CODE]);
  await waitForCards();
});
after(async () => {
  await lab?.close();
});

async function setCode(code) {
  const editor = card(CODE).locator('.cm-content');
  await editor.click();
  await page.keyboard.press('Control+A');
  // insertText types no keys, so the editor's bracket closing and auto-indent stay out of it.
  await page.keyboard.insertText(code);
}

const savedProgress = () => page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY);

async function summary() {
  return page.locator('.pl-exercises[data-chapter="profiling"] [data-role="summary"]').evaluate((el) => ({
    earned: Number(el.dataset.earned),
    possible: Number(el.dataset.possible),
    text: el.textContent,
  }));
}

// The chapter's bank, in the order the page shows it: [id, kind, points].
const CHAPTER = [
  [NUMERIC, 'numeric', 10],
  ['profiling.ffn-param-memory', 'numeric', 10],
  ['profiling.adam-memory', 'numeric', 10],
  ['profiling.linear-flops', 'numeric', 15],
  ['profiling.flops-batch', 'choice', 10],
  ['profiling.conv-output', 'numeric', 10],
  ['profiling.count-linear-flops', 'code', 10],
  ['profiling.count-conv2d-flops', 'code', 10],
  ['profiling.efficiency', 'numeric', 10],
  [CHOICE, 'choice', 10],
  ['profiling.latency-statistic', 'choice', 10],
  [CODE, 'code', 15],
  ['profiling.measure-latency', 'code', 15],
  ['profiling.count-parameters', 'code', 10],
  ['profiling.integrated-profile', 'numeric', 15],
  ['profiling.batch-throughput', 'numeric', 20],
  ['profiling.backward-ratio', 'numeric', 15],
];
const POSSIBLE = CHAPTER.reduce((sum, [, , points]) => sum + points, 0);

test('the chapter shows its exercises and a score summary starting at zero', async () => {
  const shown = await page.$$eval('article[data-exercise-id]', (els) =>
    els.filter((el) => el.closest('[data-chapter="profiling"]')).map((el) => [el.dataset.exerciseId, el.dataset.kind]),
  );
  assert.deepEqual(shown, CHAPTER.map(([id, kind]) => [id, kind]));
  const s = await summary();
  assert.equal(s.earned, 0);
  assert.equal(s.possible, POSSIBLE);
  assert.match(s.text, new RegExp(`0 / ${POSSIBLE} points`));
  assert.match(s.text, new RegExp(`0 of ${CHAPTER.length} solved`));
  // The tolerance is stated in words beside the numeric answer, with the unit.
  assert.match(await card(NUMERIC).textContent(), /The answer must be exact \(within 0\.5\)\./);
  assert.match(await card(NUMERIC).locator('.pl-ex-unit').textContent(), /parameters/);
});

test('numeric: a wrong answer is graded wrong, unlocks hint 1, and the right one is accepted', async () => {
  const { in: n_in, out: n_out } = await params(NUMERIC);
  assert.ok(Number.isInteger(n_in) && Number.isInteger(n_out));
  const prompt = await card(NUMERIC).locator('.pl-ex-prompt').textContent();
  assert.ok(prompt.includes(String(n_in)) && prompt.includes(String(n_out)), prompt);

  const input = card(NUMERIC).locator('input[data-role="answer"]');
  // Not a number: refused beside the input, no attempt counted.
  await input.fill('lots');
  await card(NUMERIC).locator('button[type="submit"]').click();
  assert.match(await card(NUMERIC).locator('[data-role="error"]').textContent(), /"lots" is not a number/);
  assert.equal((await dataOf(NUMERIC)).attempts, '0');

  // Forgetting the bias: in·out.
  await input.fill(String(n_in * n_out));
  assert.equal(await submitAndWait(NUMERIC, () => card(NUMERIC).locator('button[type="submit"]').click()), 'false');
  assert.match(await card(NUMERIC).locator('[data-role="feedback"]').textContent(), /Too low/);
  assert.equal(await card(NUMERIC).locator('[data-role="hints"] li').count(), 1);
  assert.equal(await card(NUMERIC).locator('[data-role="reference"]').isVisible(), false);

  // in·out + out, typed with thousands separators as students copy large counts.
  await input.fill((n_in * n_out + n_out).toLocaleString('en-US'));
  assert.equal(await submitAndWait(NUMERIC, () => input.press('Enter')), 'true');
  const d = await dataOf(NUMERIC);
  assert.equal(d.solved, 'true');
  assert.equal(d.bestScore, '10');
  assert.equal(await card(NUMERIC).locator('[data-role="reference"]').isVisible(), true);
  assert.match(await card(NUMERIC).locator('[data-role="reference"]').textContent(), /in·out \+ out/);
  assert.equal((await summary()).earned, 10);
});

test('multiple choice: each kernel is placed from the figures on the page, and a wrong try draws a new variant', async () => {
  // The verdicts by hand from the card's own figures: intensity MFLOP / MB against the ridge.
  const rightLabel = (p) => {
    const ridge = p.peak_gflops_per_s / p.bandwidth_gb_per_s; // FLOP/byte
    const side = (mflop, mb) => (mflop / mb > ridge ? 'compute-bound' : 'memory-bound');
    return `A ${side(p.a_mflop, p.a_mb)}, B ${side(p.b_mflop, p.b_mb)}`;
  };
  const submit = card(CHOICE).locator('button[type="submit"]');

  await submit.click();
  assert.match(await card(CHOICE).locator('[data-role="error"]').textContent(), /Pick one of the answers first/);
  assert.equal((await dataOf(CHOICE)).attempts, '0');

  const first = await params(CHOICE);
  const labels = await card(CHOICE).locator('label.pl-ex-choice').allTextContents();
  assert.equal(labels.length, 4);
  const wrong = labels.map((t) => t.trim()).find((t) => t !== rightLabel(first));
  await card(CHOICE).getByLabel(wrong, { exact: true }).check();
  assert.equal(await submitAndWait(CHOICE, () => submit.click()), 'false');
  assert.equal(await card(CHOICE).locator('[data-role="hints"] li').count(), 1);
  assert.match(await card(CHOICE).locator('[data-role="hints"]').textContent(), /Hint 2 of 3 unlocks/);
  assert.match(await card(CHOICE).locator('[data-role="feedback"]').textContent(), /Your next try shows a new variant/);

  // Try 2 is another variant: other figures in the prompt, nothing checked.
  await page.waitForFunction(
    ([id, before]) => {
      const el = document.querySelector(`article[data-exercise-id="${id}"]`);
      return el.dataset.params !== before && el.querySelector('input[type="radio"]');
    },
    [CHOICE, JSON.stringify(first)],
  );
  const second = await params(CHOICE);
  assert.notDeepEqual(second, first);
  const shown = (x) => (x >= 10000 ? x.toLocaleString('en-US') : String(x)); // core's grouping
  assert.match(await card(CHOICE).locator('.pl-ex-prompt').textContent(), new RegExp(`Kernel A performs ${shown(second.a_mflop)} MFLOP`));
  assert.equal(await card(CHOICE).locator('input[type="radio"]:checked').count(), 0);

  await card(CHOICE).getByLabel(rightLabel(second), { exact: true }).check();
  assert.equal(await submitAndWait(CHOICE, () => submit.click()), 'true');
  assert.equal((await dataOf(CHOICE)).solved, 'true');
  assert.equal(await card(CHOICE).locator('[data-role="hints"] li').count(), 3, 'all hints once solved');
  // Right on the second try: half the points (core scores by tries), and the card keeps it.
  assert.equal((await dataOf(CHOICE)).bestScore, '5');
  assert.deepEqual(await params(CHOICE), second);
  assert.equal((await summary()).earned, 15);
});

const WRONG_MEDIAN = `function median(times) {
  // The middle element without sorting, and no averaging for even lengths.
  return times[Math.floor(times.length / 2)];
}`;
const RIGHT_MEDIAN = `function median(times) {
  const s = [...times].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}`;

test('code: a wrong median fails some tests with messages, a correct one passes all', async () => {
  const run = card(CODE).locator('button[data-role="run"]');
  assert.match(await card(CODE).locator('.cm-content').textContent(), /function median\(times\)/, 'starter code');

  await setCode(WRONG_MEDIAN);
  assert.equal(await submitAndWait(CODE, () => run.click()), 'false');
  const failed = card(CODE).locator('.pl-ex-tests li[data-passed="false"]');
  assert.ok((await failed.count()) >= 2, 'the even-length and unsorted tests fail');
  assert.match(await failed.first().textContent(), /expected .*, got /);
  // Public examples name their expected value; hidden tests only the property that failed.
  assert.match(await card(CODE).locator('[data-role="test-list"]').textContent(), /on 7 tests: 2 examples \(odd length, even length\), shown with the expected value when one fails; 5 hidden tests, which say only what failed\./);
  const hiddenFailed = (await failed.allTextContents()).filter((m) => /hidden test \d+: /.test(m));
  assert.ok(hiddenFailed.length >= 1, (await failed.allTextContents()).join('\n'));
  for (const m of hiddenFailed) {
    assert.match(m, /hidden test \d+: failed: outside the tolerance: the result is off by more than the tolerance \(within /);
    assert.doesNotMatch(m, /expected \d|got |called as/);
  }
  const partial = Number((await dataOf(CODE)).bestScore);
  assert.ok(partial > 0 && partial < 15, `partial credit, got ${partial}`);

  await setCode(RIGHT_MEDIAN);
  // Ctrl+Enter in the editor runs the tests (and inserts no blank line).
  assert.equal(await submitAndWait(CODE, () => page.keyboard.press('Control+Enter')), 'true');
  assert.equal(await card(CODE).locator('.cm-line').count(), RIGHT_MEDIAN.split('\n').length);
  const tests = card(CODE).locator('.pl-ex-tests li');
  const total = await tests.count();
  assert.ok(total >= 5);
  assert.equal(await card(CODE).locator('.pl-ex-tests li[data-passed="true"]').count(), total);
  assert.equal((await dataOf(CODE)).solved, 'true');
  assert.equal((await summary()).earned, 30);
  assert.match((await summary()).text, new RegExp(`3 of ${CHAPTER.length} solved`));
});

test('code: an endless loop is stopped at the time limit while the page stays responsive', async () => {
  const run = card(CODE).locator('button[data-role="run"]');
  await setCode('function median(times) {\n  while (true) {}\n}');
  const attempts = Number((await dataOf(CODE)).attempts);
  const started = Date.now();
  await run.click();
  await page.waitForFunction(() => !document.querySelector('article[data-exercise-id="profiling.median"] button[data-role="stop"]').hidden);

  // During the run the main thread answers: typing into another exercise's input works.
  const other = card(NUMERIC).locator('input[data-role="answer"]');
  const before = await other.inputValue();
  await other.fill('12345');
  assert.equal(await other.inputValue(), '12345');
  assert.equal(await page.evaluate(() => 6 * 7), 42);
  assert.equal(await card(CODE).locator('button[data-role="stop"]').isVisible(), true, 'still running');
  await other.fill(before);

  await page.waitForFunction(
    ([id, n]) => Number(document.querySelector(`article[data-exercise-id="${id}"]`).dataset.attempts) === n,
    [CODE, attempts + 1],
    { timeout: 15000 },
  );
  const elapsed_ms = Date.now() - started;
  // time_limit_ms is 2000; generous slack for the worker's start and the grading round trip.
  assert.ok(elapsed_ms < 2000 + 4000, `stopped after ${elapsed_ms} ms`);
  assert.equal(await card(CODE).locator('[data-role="result"]').getAttribute('data-correct'), 'false');
  assert.match(await card(CODE).locator('[data-role="timeout"]').textContent(), /still running after 2 s and was stopped/);
  const messages = await card(CODE).locator('.pl-ex-tests li').allTextContents();
  assert.ok(messages.length >= 5 && messages.every((m) => /did not finish within 2000 ms/.test(m)), messages.join('\n'));
  // Solved stays solved and the best score stays: a later failed attempt takes nothing away.
  assert.equal((await dataOf(CODE)).solved, 'true');
  assert.equal((await summary()).earned, 30);
  // What is saved (and exported) keeps the code and answer that earned the score beside the loop.
  await page.waitForFunction(
    ([key, id]) => JSON.parse(localStorage.getItem(key)).exercises[id].code.includes('while (true)'),
    [STORAGE_KEY, CODE],
  );
  const entry = JSON.parse(await savedProgress()).exercises[CODE];
  assert.match(entry.code, /while \(true\) \{\}/);
  assert.equal(entry.best_code, RIGHT_MEDIAN);
  assert.ok(entry.best_answer.results.every((r) => 'value' in r), JSON.stringify(entry.best_answer));
  assert.ok(entry.last_answer.results.every((r) => r.timeout === true), JSON.stringify(entry.last_answer));
});

test('code: Stop ends a run without grading it', async () => {
  const attempts = (await dataOf(CODE)).attempts;
  await card(CODE).locator('button[data-role="run"]').click();
  const stop = card(CODE).locator('button[data-role="stop"]');
  if (!(await stop.isVisible())) {
    // Say why the run is not running (an error beside the button, or a status) when it fails.
    const why = await card(CODE).evaluate((el) =>
      ['error', 'run-status', 'result'].map((r) => `${r}: ${el.querySelector(`[data-role="${r}"]`)?.textContent}`).join('\n'),
    );
    assert.fail(`the run did not start or ended at once:\n${why}`);
  }
  await stop.click();
  await page.waitForFunction(() => document.querySelector('article[data-exercise-id="profiling.median"] button[data-role="stop"]').hidden);
  assert.match(await card(CODE).locator('[data-role="run-status"]').textContent(), /Stopped\. Nothing was graded/);
  assert.equal((await dataOf(CODE)).attempts, attempts);
});

test('progress survives a reload: seed, variants, answers, attempts, scores and code', async () => {
  const snapshot = {};
  for (const id of [NUMERIC, CHOICE, CODE]) snapshot[id] = await dataOf(id);
  const numericAnswer = await card(NUMERIC).locator('input[data-role="answer"]').inputValue();
  await setCode(`${RIGHT_MEDIAN}\n// a draft typed after the last run`);
  // Drafts are saved shortly after typing stops.
  await page.waitForFunction(
    ([key, id]) => JSON.parse(localStorage.getItem(key)).exercises[id].code.includes('a draft typed'),
    [STORAGE_KEY, CODE],
  );

  // Every last answer is the answer object core graded, so the native CLI can re-grade an
  // export: for code, the sandbox's per-test results of the last run (the endless loop).
  const saved = JSON.parse(await savedProgress()).exercises;
  assert.deepEqual(Object.keys(saved[NUMERIC].last_answer), ['value']);
  assert.deepEqual(Object.keys(saved[CHOICE].last_answer), ['choice', 'attempt']);
  assert.ok(saved[CODE].last_answer.results.length >= 5);
  assert.ok(saved[CODE].last_answer.results.every((r) => r.timeout === true));

  await page.reload();
  await waitForCards();
  for (const id of [NUMERIC, CHOICE, CODE]) {
    const d = await dataOf(id);
    for (const field of ['seed', 'params', 'attempts', 'solved', 'bestScore']) {
      assert.equal(d[field], snapshot[id][field], `${id} ${field}`);
    }
  }
  assert.equal(await card(NUMERIC).locator('input[data-role="answer"]').inputValue(), numericAnswer.replace(/,/g, ''));
  assert.equal(await card(CHOICE).locator('input[type="radio"]:checked').count(), 1);
  assert.match(await card(CODE).locator('.cm-content').textContent(), /a draft typed after the last run/);
  assert.match(await card(NUMERIC).locator('[data-role="status"]').textContent(), /Solved.*10 \/ 10 points · 2 attempts/);
  assert.equal((await summary()).earned, 30);
});

test('a malformed import is refused with a message naming the problem and changes nothing', async () => {
  const before = await savedProgress();
  const good = JSON.parse(before);
  const files = [
    // core's reason with the place (lab jsonTextProblem), not the browser's wording.
    ['notes.txt', 'this is not JSON', /not valid JSON: parse error at line 1, column 1: "this is not JSON" is not a JSON value/],
    ['future.json', JSON.stringify({ ...good, version: 7 }), /version 7, from a newer perflab/],
    ['types.json', JSON.stringify({ ...good, seed: 'abc' }), /"seed" is the string "abc"/],
    [
      'attempts.json',
      JSON.stringify({ ...good, exercises: { [NUMERIC]: { ...good.exercises[NUMERIC], attempts: 'two' } } }),
      /attempts is the string "two"/,
    ],
  ];
  const panel = page.locator('.pl-exercises[data-chapter="profiling"] .pl-progress');
  for (const [name, text, problem] of files) {
    await panel.locator('input[data-role="import-file"]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    const message = panel.locator('[data-role="progress-message"]');
    await page.waitForFunction((n) => document.querySelector('[data-role="progress-message"]')?.textContent.includes(n), name);
    const shown = await message.textContent();
    assert.match(shown, new RegExp(`Import refused: ${name.replace('.', '\\.')}`));
    assert.match(shown, problem);
    assert.match(shown, /Your progress is unchanged\./);
    assert.equal(await savedProgress(), before);
  }
  assert.equal((await summary()).earned, 30);
  assert.equal((await dataOf(NUMERIC)).attempts, '2');
});

test('an exported file imports back into a fresh start: same seed, variants and progress', async () => {
  const panel = page.locator('.pl-exercises[data-chapter="profiling"] .pl-progress');
  const [download] = await Promise.all([page.waitForEvent('download'), panel.locator('button[data-role="export"]').click()]);
  assert.match(download.suggestedFilename(), /^perflab-submission-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
  const before = JSON.parse(await savedProgress());
  const { exported_at, bank_version: _b, page_version: _p, machine: _m, ...rest } = exported;
  assert.deepEqual(rest, before);
  assert.ok(!Number.isNaN(Date.parse(exported_at)));
  const paramsBefore = await params(NUMERIC);

  // A new browser profile: no saved progress, so a new seed is drawn.
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await waitForCards();
  assert.equal((await summary()).earned, 0);
  assert.notEqual(JSON.parse(await savedProgress()).seed, exported.seed);

  await panel.locator('input[data-role="import-file"]').setInputFiles({
    name: 'mine.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(exported)),
  });
  await page.waitForFunction(() => /Imported mine\.json/.test(document.querySelector('[data-role="progress-message"]')?.textContent));
  await waitForCards();
  assert.deepEqual(JSON.parse(await savedProgress()), before);
  assert.deepEqual(await params(NUMERIC), paramsBefore);
  assert.equal((await dataOf(NUMERIC)).seed, String(exported.seed));
  assert.equal((await summary()).earned, 30);
  assert.equal((await dataOf(CHOICE)).attempts, String(before.exercises[CHOICE].attempts));
  assert.match(await card(CODE).locator('.cm-content').textContent(), /a draft typed after the last run/);
});

// Where the header's progress notice sits: its top in page coordinates (a reload may keep
// the scroll position), the first exercise card's, and the window's height.
const noticePlace = () =>
  page.evaluate((firstCard) => {
    const top = (el) => el.getBoundingClientRect().top + window.scrollY;
    return {
      notice: top(document.querySelector('header [data-role="progress-notice"]')),
      card: top(document.querySelector(`article[data-exercise-id="${firstCard}"]`)),
      viewport: window.innerHeight,
    };
  }, CHAPTER[0][0]);

// Saves `text` as the progress, reloads, and returns the header's notice after checking that
// it shows at the top: in the first screen, above the first exercise card.
async function reloadWithSaved(text) {
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [STORAGE_KEY, text]);
  await page.reload();
  await waitForCards();
  const notice = page.locator('header [data-role="progress-notice"]');
  assert.equal(await notice.isVisible(), true);
  const place = await noticePlace();
  assert.ok(place.notice < place.viewport && place.notice < place.card, JSON.stringify(place));
  return notice;
}

const corruptCopies = () =>
  page.evaluate(() =>
    Object.keys(localStorage)
      .filter((k) => k.startsWith('perflab.progress.corrupt.'))
      .sort()
      .map((k) => localStorage.getItem(k)),
  );

test('one unreadable saved entry costs only itself: the notice at the top names it, Download and a re-graded Restore work', async () => {
  const good = JSON.parse(await savedProgress());
  const earned = (await summary()).earned;
  assert.ok(good.exercises[NUMERIC].solved && earned >= 10);
  const paramsBefore = await params(NUMERIC);
  // An unreadable count, and a score the page must not take from the damaged save.
  const bad = JSON.stringify({ ...good, exercises: { ...good.exercises, [NUMERIC]: { ...good.exercises[NUMERIC], attempts: 'two', best_score: 999 } } });
  const notice = await reloadWithSaved(bad);
  const text = await notice.textContent();
  assert.match(text, /^1 saved exercise entry could not be read: profiling\.linear-params \(exercises\["profiling\.linear-params"\]\.attempts is the string "two"/);
  assert.match(text, /kept unchanged in this browser's storage under "perflab\.progress\.corrupt\.[^"]+"/);
  // The other entries are loaded under the same seed: same variants, their points kept.
  assert.deepEqual(await params(NUMERIC), paramsBefore);
  assert.equal((await summary()).earned, earned - 10);
  assert.equal((await dataOf(CHOICE)).attempts, String(good.exercises[CHOICE].attempts));
  assert.deepEqual(await corruptCopies(), [bad]);

  const [download] = await Promise.all([page.waitForEvent('download'), notice.getByRole('button', { name: 'Download the saved copy' }).click()]);
  assert.equal(await readFile(await download.path(), 'utf8'), bad);
  // "Your progress" lists the copy too, for after the notice is dismissed.
  const kept = page.locator('.pl-exercises[data-chapter="profiling"] [data-role="kept-unreadable"]');
  assert.match(await kept.textContent(), /profiling\.linear-params can be restored/);

  await notice.getByRole('button', { name: 'Restore the unreadable entries' }).click();
  await page.waitForFunction(() => /Restored profiling\.linear-params/.test(document.querySelector('[data-role="restore-status"]')?.textContent ?? ''), null, { timeout: 20000 });
  await waitForCards();
  // Core's score, not the 999 the save claimed; its answer still grades as solved.
  assert.match(await notice.locator('[data-role="restore-status"]').textContent(), /re-graded lower: .*999 → 10/);
  const restored = await dataOf(NUMERIC);
  assert.equal(restored.bestScore, '10');
  assert.equal(restored.solved, 'true');
  assert.equal((await summary()).earned, earned);
  assert.equal(JSON.parse(await savedProgress()).exercises[NUMERIC].best_score, 10);
  assert.equal(await notice.getByRole('button', { name: 'Restore the unreadable entries' }).count(), 0);
  assert.doesNotMatch(await kept.textContent(), /can be restored/);
  assert.equal(await kept.getByRole('button', { name: 'Restore' }).count(), 0);
});

test('an unreadable save is kept aside whole: the notice at the top says so, and it can be downloaded from there and from the panel', async () => {
  const notice = await reloadWithSaved('{"version": 1, "seed": ');
  assert.match(await notice.textContent(), /could not be read \(not valid JSON/);
  assert.match(await notice.textContent(), /kept unchanged in this browser's storage under "perflab\.progress\.corrupt\.[^"]+", and a fresh start was made/);
  const aside = await corruptCopies();
  assert.equal(aside.length, 2);
  assert.equal(aside[1], '{"version": 1, "seed": ');
  // Nothing in it can be read, so there is nothing to restore.
  assert.equal(await notice.getByRole('button', { name: 'Restore the unreadable entries' }).count(), 0);
  const [download] = await Promise.all([page.waitForEvent('download'), notice.getByRole('button', { name: 'Download the saved copy' }).click()]);
  assert.equal(await readFile(await download.path(), 'utf8'), '{"version": 1, "seed": ');
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  assert.equal(await notice.isVisible(), false);
  assert.equal((await summary()).earned, 0);
  // Once the notice is dismissed, both saves stay listed under "Your progress", downloadable.
  const kept = page.locator('.pl-exercises[data-chapter="profiling"] [data-role="kept-unreadable"]');
  assert.equal(await kept.count(), 2);
  const [again] = await Promise.all([page.waitForEvent('download'), kept.first().getByRole('button', { name: 'Download' }).click()]);
  assert.equal(await readFile(await again.path(), 'utf8'), '{"version": 1, "seed": ');
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
