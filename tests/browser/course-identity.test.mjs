// Protects the student's side of submissions (issue 13) and two grading rules (issue 12 items
// 12 and 14) on the built page: without course.json the header says practice mode and no id
// is asked; with one (served by the test server through PERFLAB_COURSE) the page asks once
// for id and name in a modal dialog, the seed is the one the course and the normalized id
// give (computed here independently with FNV-1a, core's documented rule), survives clearing
// storage, and a changed id downloads and keeps the earlier work aside; a malformed
// course.json is an error naming the field, in practice mode, with the progress kept.
// The export carries every field of the submission contract; an import is re-graded by core,
// so a forged solved entry ends at 0 points with a message; a two-choice exercise answered
// wrong then right earns 0 points and says why. course.json's answer modes (issue 25 item 5):
// an assessed card words its feedback right/wrong only and closes after its tries; a sealed
// card records the answer and shows no verdict.
// Needs `npx vite build` first (and the wasm build PERFLAB_WASM_DIR points at).

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { exerciseCards, openLab, readMachineFacts, waitForMachineFacts } from './harness.mjs';

const STORAGE_KEY = 'perflab.progress.v1';
const NUMERIC = 'profiling.linear-params';
const BOUND_CHOICE = 'profiling.bound-classify';
const COURSE = { id: 'perf-2026-fall', title: 'ML Systems, fall 2026', salt: 'a salt for the test', chapters: ['profiling', 'acceleration'] };

// core's course seed (core/src/grading/course.cpp), written again from its definition:
// FNV-1a 64 over course id, 0x1f, salt, 0x1f, the trimmed ASCII-lower-cased id, then murmur3's
// fmix64, folded to 32 bits.
function courseSeed(course, studentId) {
  let h = 0xcbf29ce484222325n;
  const feed = (text) => {
    for (const byte of Buffer.from(text, 'utf8')) {
      h ^= BigInt(byte);
      h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
    }
  };
  feed(course.id);
  feed('\x1f');
  feed(course.salt);
  feed('\x1f');
  feed(studentId.trim().replace(/[A-Z]/g, (c) => c.toLowerCase()));
  const M = 0xffffffffffffffffn;
  h ^= h >> 33n;
  h = (h * 0xff51afd7ed558ccdn) & M;
  h ^= h >> 33n;
  h = (h * 0xc4ceb9fe1a85ec53n) & M;
  h ^= h >> 33n;
  return Number((h ^ (h >> 32n)) & 0xffffffffn);
}

let lab;
let page;
let dir;
let cards;
const coursePath = () => path.join(dir, 'course.json');
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'perflab-course-'));
  delete process.env.PERFLAB_COURSE;
  lab = await openLab({ hash: '#profiling' });
  page = lab.page;
  cards = exerciseCards(page);
  await cards.waitForCards([NUMERIC, BOUND_CHOICE]);
});
after(async () => {
  delete process.env.PERFLAB_COURSE;
  await lab?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const saved = async () => JSON.parse(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY));
const panel = () => page.locator('.pl-exercises[data-chapter="profiling"] .pl-progress');
const identity = () => page.locator('[data-role="identity"]');
const dialog = () => page.locator('dialog[data-role="identity-dialog"]');

async function exportFile() {
  const [download] = await Promise.all([page.waitForEvent('download'), panel().locator('button[data-role="export"]').click()]);
  return { name: download.suggestedFilename(), file: JSON.parse(await readFile(await download.path(), 'utf8')) };
}

async function importFile(name, obj) {
  await panel().locator('input[data-role="import-file"]').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(obj)) });
  await page.waitForFunction(
    (n) => {
      const text = document.querySelector('.pl-exercises[data-chapter="profiling"] [data-role="progress-message"]')?.textContent ?? '';
      return text.includes(n) && !text.startsWith('Re-grading');
    },
    name,
    { timeout: 60000 },
  );
  return panel().locator('[data-role="progress-message"]').textContent();
}

/** Reloads the page (course.json is read again) and waits for the header's facts. */
async function reload() {
  await page.reload();
  await waitForMachineFacts(page);
}

test('without course.json the header says practice mode and no id is asked', async () => {
  assert.equal(await identity().getAttribute('data-mode'), 'practice');
  assert.match(await identity().textContent(), /^Practice mode/);
  assert.equal(await dialog().count(), 0);
  assert.equal((await cards.dataOf(NUMERIC)).seed, String((await saved()).seed));
});

test('a choice answered wrong, then right on the next try\'s new variant, earns half and says why', async () => {
  const card = cards.card(BOUND_CHOICE);
  assert.match(
    await card.locator('[data-role="scoring"]').textContent(),
    /^Full points on the first try, half on the second, none later: each wrong try draws a new variant/,
  );
  // The right label by hand from the card's figures: each kernel's MFLOP / MB against the ridge.
  const rightLabel = (p) => {
    const ridge = p.peak_gflops_per_s / p.bandwidth_gb_per_s;
    const side = (mflop, mb) => (mflop / mb > ridge ? 'compute-bound' : 'memory-bound');
    return `A ${side(p.a_mflop, p.a_mb)}, B ${side(p.b_mflop, p.b_mb)}`;
  };
  const pick = async (label) => {
    await card.getByLabel(label, { exact: true }).check();
    return cards.submitAndWait(BOUND_CHOICE, () => card.locator('button[type="submit"]').click());
  };
  const first = await cards.params(BOUND_CHOICE);
  const labels = (await card.locator('label.pl-ex-choice').allTextContents()).map((t) => t.trim());
  assert.equal(await pick(labels.find((t) => t !== rightLabel(first))), 'false');
  await page.waitForFunction(
    ([id, before]) => document.querySelector(`article[data-exercise-id="${id}"]`).dataset.params !== before,
    [BOUND_CHOICE, JSON.stringify(first)],
  );
  const second = await cards.params(BOUND_CHOICE);
  const label = rightLabel(second);
  assert.equal(await pick(label), 'true');
  const feedback = await card.locator('[data-role="feedback"]').textContent();
  assert.match(feedback, /Found on try 2, so it earns half the points\./);
  assert.equal(await card.locator('[data-role="attempt-points"]').getAttribute('data-score'), '5');
  assert.match(feedback, /\(5 \/ 10 points for this attempt, try 2\)/);
  const entry = (await saved()).exercises[BOUND_CHOICE];
  assert.deepEqual([entry.solved, entry.best_score, entry.attempts], [true, 5, 2]);
  const index = (await card.locator('label.pl-ex-choice').allTextContents()).map((t) => t.trim()).indexOf(label);
  assert.deepEqual(entry.last_answer, { choice: index, attempt: 2 });
});

test('the export carries every field of the submission contract, machine facts as the header shows them', async () => {
  const card = cards.card(NUMERIC);
  const { in: inputs, out } = await cards.params(NUMERIC);
  const right = inputs * out + out; // a Linear layer's parameters with bias (the prompt's formula)
  await card.locator('input[data-role="answer"]').fill(String(right));
  assert.equal(await cards.submitAndWait(NUMERIC, () => card.locator('button[type="submit"]').click()), 'true');

  const { name, file } = await exportFile();
  assert.match(name, /^perflab-submission-\d{4}-\d{2}-\d{2}\.json$/);
  assert.deepEqual(Object.keys(file), ['format', 'version', 'course', 'student', 'seed', 'bank_version', 'page_version', 'machine', 'exported_at', 'exercises']);
  assert.equal(file.format, 'perflab-submission');
  assert.equal(file.version, 2);
  assert.equal(file.course, null);
  assert.equal(file.student, null);
  assert.equal(file.seed, (await saved()).seed);
  assert.match(file.bank_version, /^bank-[0-9a-f]{16}$/);
  assert.match(file.page_version, /^\d+\.\d+\.\d+\+([0-9a-f]{4,}|unknown)$/);
  assert.ok(Math.abs(Date.parse(file.exported_at) - Date.now()) < 60_000);
  await page.waitForFunction(() => document.querySelector('.site-header [data-fact="engine"] dd')?.dataset.value);
  const facts = await readMachineFacts(page);
  // The engine's choice as the header shows it ("fma:2"), or null where it has none.
  assert.deepEqual(file.machine.engine, facts.engine.value === 'none' ? null
    : { flavour: facts.engine.value.split(':')[0], max_threads: Number(facts.engine.value.split(':')[1]) });
  assert.equal(file.machine.cores, Number(facts.cores.value));
  assert.equal(file.machine.timer_resolution_ms, Number(facts.timer.value));
  assert.equal(file.machine.cross_origin_isolated, facts.isolated.value === 'true');
  assert.ok(facts.simd.text.includes(`${file.machine.build} build`));
  assert.equal(typeof file.machine.user_agent, 'string');
  assert.ok('probe' in file.machine);
  const entry = file.exercises[NUMERIC];
  assert.deepEqual(Object.keys(entry), ['attempts', 'solved', 'best_score', 'best_answer', 'best_code', 'last_answer', 'code', 'hints_used']);
  assert.deepEqual([entry.solved, entry.best_score, entry.best_answer], [true, 10, { value: right }]);
  assert.deepEqual(file.exercises[BOUND_CHOICE].best_answer.attempt, 2);
});

test('an import is re-graded by core: a forged solved entry ends at 0 points, and the panel says so', async () => {
  const { file } = await exportFile();
  const { in: inputs, out } = await cards.params(NUMERIC);
  const wrong = inputs * out; // without the bias: wrong
  const forged = {
    ...file,
    exercises: {
      ...file.exercises,
      [NUMERIC]: { ...file.exercises[NUMERIC], attempts: 1, solved: true, best_score: 10, best_answer: { value: wrong }, last_answer: { value: wrong }, hints_used: 0 },
    },
  };
  const message = await importFile('forged.json', forged);
  assert.match(message, /Imported forged\.json/);
  assert.match(message, /1 entry re-graded lower: [^(]+\(10 → 0\)/);
  assert.match(message, /Solved flag dropped on /);
  const entry = (await saved()).exercises[NUMERIC];
  assert.deepEqual([entry.solved, entry.best_score], [false, 0]);
  await cards.waitForCards([NUMERIC]);
  assert.equal((await cards.dataOf(NUMERIC)).solved, 'false');
  assert.equal((await cards.dataOf(NUMERIC)).bestScore, '0');

  // The honest file imports back as it was, and says nothing changed.
  const honest = await importFile('honest.json', file);
  assert.match(honest, /Every score in the file re-graded as claimed/);
  assert.deepEqual([(await saved()).exercises[NUMERIC].solved, (await saved()).exercises[NUMERIC].best_score], [true, 10]);
});

test('a version 1 file still imports, read as practice mode and re-graded', async () => {
  const now = await saved();
  const v1 = {
    version: 1,
    seed: now.seed,
    exercises: { [NUMERIC]: { attempts: 2, solved: true, best_score: 10, last_answer: now.exercises[NUMERIC].best_answer, code: null } },
  };
  const message = await importFile('old.json', v1);
  assert.match(message, /a version 1 file, read as practice mode/);
  const entry = (await saved()).exercises[NUMERIC];
  assert.deepEqual([entry.solved, entry.best_score, entry.hints_used], [true, 10, 1]);
});

test('with course.json the page asks once for id and name, and the seed is the course’s for that id', async () => {
  await writeFile(coursePath(), JSON.stringify(COURSE));
  process.env.PERFLAB_COURSE = coursePath();
  const practiceWork = await saved();
  await reload();
  await dialog().waitFor({ state: 'visible' });
  assert.equal(await page.getByRole('dialog', { name: `Welcome to ${COURSE.title}` }).count(), 1);
  assert.equal(await identity().getAttribute('data-mode'), 'course');
  // Nothing typed: the id is asked for beside its box.
  await dialog().locator('[data-role="identity-submit"]').click();
  assert.match(await dialog().locator('[data-role="identity-error"]').textContent(), /Type your student id/);
  await page.getByLabel('Student id').fill(' S123 ');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await dialog().locator('[data-role="identity-submit"]').click();
  await dialog().waitFor({ state: 'detached' });
  await cards.waitForCards([NUMERIC]);

  const seed = courseSeed(COURSE, 'S123');
  assert.equal((await cards.dataOf(NUMERIC)).seed, String(seed));
  const progress = await saved();
  assert.equal(progress.seed, seed);
  assert.deepEqual(progress.student, { id: 'S123', name: 'Ada Lovelace' });
  assert.deepEqual(progress.course, { id: COURSE.id, title: COURSE.title, chapters: COURSE.chapters });
  assert.match(await identity().locator('[data-role="course-title"]').textContent(), new RegExp(COURSE.title));
  assert.equal(await identity().locator('[data-role="student"]').textContent(), 'Ada Lovelace (S123)');
  // The practice work (another seed) was kept aside, not destroyed.
  const aside = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('perflab.progress.aside.')).map((k) => JSON.parse(localStorage.getItem(k))));
  assert.equal(aside.length, 1);
  assert.deepEqual(aside[0].exercises, practiceWork.exercises);
  assert.match(await page.locator('[data-role="course-error"]').textContent(), /kept aside in this browser/);

  // A reload asks nothing; clearing storage asks again, and the same id (any case) gives the same variants.
  const params = await cards.params(NUMERIC);
  await reload();
  await cards.waitForCards([NUMERIC]);
  assert.equal(await dialog().count(), 0);
  await page.evaluate(() => localStorage.clear());
  await reload();
  await dialog().waitFor({ state: 'visible' });
  await page.getByLabel('Student id').fill('s123');
  await page.getByLabel('Your name').fill('Ada Lovelace');
  await dialog().locator('[data-role="identity-submit"]').click();
  await cards.waitForCards([NUMERIC]);
  assert.equal((await cards.dataOf(NUMERIC)).seed, String(seed));
  assert.deepEqual(await cards.params(NUMERIC), params);

  const { name, file } = await exportFile();
  assert.match(name, /^perflab-submission-perf-2026-fall-s123-\d{4}-\d{2}-\d{2}\.json$/);
  assert.deepEqual([file.course.id, file.student.id, file.seed], [COURSE.id, 's123', seed]);
  assert.equal('salt' in file.course, false);
});

test('changing the student warns, downloads the work so far, keeps it aside and draws new variants', async () => {
  const card = cards.card(NUMERIC);
  await card.locator('input[data-role="answer"]').fill('1');
  await cards.submitAndWait(NUMERIC, () => card.locator('button[type="submit"]').click());
  await identity().locator('[data-role="change-student"]').click();
  await dialog().waitFor({ state: 'visible' });
  assert.match(await dialog().locator('[data-role="identity-warning"]').textContent(), /Another student id draws other variants.*1 exercise.*downloaded/);
  await page.getByLabel('Student id').fill('s999');
  await page.getByLabel('Your name').fill('Grace Hopper');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog().locator('[data-role="identity-submit"]').click()]);
  const old = JSON.parse(await readFile(await download.path(), 'utf8'));
  assert.equal(old.student.id, 's123');
  assert.equal(old.exercises[NUMERIC].attempts, 1);
  await cards.waitForCards([NUMERIC]);
  assert.equal((await cards.dataOf(NUMERIC)).seed, String(courseSeed(COURSE, 's999')));
  assert.equal((await cards.dataOf(NUMERIC)).attempts, '0');
  assert.equal(await identity().locator('[data-role="student"]').textContent(), 'Grace Hopper (s999)');
  assert.equal(await panel().locator('[data-role="kept-aside"] li').count(), 1);
  // A file of another course is refused in course mode, nothing changed.
  const before = await saved();
  const refused = await importFile('other.json', { ...old, course: { ...old.course, id: 'another-course' } });
  assert.match(refused, /Import refused: other\.json this file is for the course "another-course"/);
  assert.deepEqual(await saved(), before);
  // The downloaded file of the first id imports back, re-graded for that id's seed.
  const back = await importFile('back.json', old);
  assert.match(back, /Imported back\.json/);
  const restored = await saved();
  assert.deepEqual([restored.student.id, restored.seed], ['s123', courseSeed(COURSE, 's123')]);
  assert.equal(restored.exercises[NUMERIC].attempts, 1);
  assert.equal(await identity().locator('[data-role="student"]').textContent(), 'Ada Lovelace (s123)');
  await cards.waitForCards([NUMERIC]);
  assert.equal((await cards.dataOf(NUMERIC)).seed, String(courseSeed(COURSE, 's123')));
});

test('answer modes: an assessed card says right or wrong only and locks after its tries; a sealed card shows no verdict', async () => {
  const SEALED = 'profiling.ffn-param-memory';
  const progress = await saved();
  delete progress.exercises[NUMERIC];
  delete progress.exercises[SEALED];
  await page.evaluate(([key, p]) => localStorage.setItem(key, JSON.stringify(p)), [STORAGE_KEY, progress]);
  // Same id, title and salt: the same student and variants, now with modes.
  await writeFile(coursePath(), JSON.stringify({ ...COURSE, modes: { exercises: { [NUMERIC]: 'assessed', [SEALED]: 'sealed' }, assessed_tries: 2 } }));
  await reload();
  await cards.waitForCards([NUMERIC, SEALED]);
  const card = cards.card(NUMERIC);
  assert.equal(await card.getAttribute('data-mode'), 'assessed');
  assert.match(await card.locator('[data-role="mode"]').textContent(), /right or wrong.*Try 1 of 2\./);
  for (const guess of ['1', '1e12']) {
    await card.locator('input[data-role="answer"]').fill(guess);
    assert.equal(await cards.submitAndWait(NUMERIC, () => card.locator('button[type="submit"]').click()), 'false');
    const feedback = await card.locator('[data-role="feedback"]').textContent();
    assert.match(feedback, /Not correct: the answer must be/);
    assert.doesNotMatch(feedback, /too (high|low)/i);
  }
  // Two graded tries used: the card is closed, its Submit out of reach.
  assert.equal(await card.getAttribute('data-locked'), 'true');
  assert.match(await card.locator('[data-role="mode"]').textContent(), /all 2 graded tries are used/);
  assert.equal(await card.locator('.pl-ex-body').evaluate((el) => el.inert), true);
  await assert.rejects(card.locator('button[type="submit"]').click({ timeout: 1000 }));
  assert.equal((await saved()).exercises[NUMERIC].attempts, 2);
  assert.equal((await saved()).exercises[NUMERIC].mode, 'assessed');
  await reload();
  await cards.waitForCards([NUMERIC]);
  assert.equal(await cards.card(NUMERIC).getAttribute('data-locked'), 'true');

  const sealed = cards.card(SEALED);
  assert.equal(await sealed.getAttribute('data-mode'), 'sealed');
  await sealed.locator('input[data-role="answer"]').fill('12345');
  assert.equal(await cards.submitAndWait(SEALED, () => sealed.locator('button[type="submit"]').click()), null);
  assert.match(await sealed.locator('[data-role="feedback"]').textContent(), /^Answer recorded\./);
  assert.doesNotMatch(await sealed.textContent(), /Not correct|Correct\b|Solved|points for this attempt/);
  assert.match(await sealed.locator('[data-role="status"]').textContent(), /Answer recorded/);
  const entry = (await saved()).exercises[SEALED];
  assert.deepEqual([entry.mode, entry.best_answer, entry.best_score], ['sealed', { value: 12345 }, 0]);
});

test('a malformed course.json is an error naming the field, in practice mode, the progress kept', async () => {
  await writeFile(coursePath(), JSON.stringify({ id: 'perf-2026-fall', title: 'ML Systems', salt: 's', chapters: ['profiling', 'quantum'] }));
  const before = await saved();
  await reload();
  const banner = page.locator('[data-role="course-error"]');
  await banner.waitFor({ state: 'visible' });
  const text = await banner.textContent();
  assert.match(text, /^course\.json is not usable: .*chapters.*quantum/);
  assert.match(text, /practice mode; your saved progress is kept/);
  assert.equal(await identity().getAttribute('data-mode'), 'practice');
  assert.equal(await dialog().count(), 0);
  await cards.waitForCards([NUMERIC]);
  assert.deepEqual(await saved(), before);
  assert.equal((await cards.dataOf(NUMERIC)).seed, String(before.seed));

  await writeFile(coursePath(), '{"id": "x",');
  await reload();
  await banner.waitFor({ state: 'visible' });
  assert.match(await banner.textContent(), /^course\.json is not valid JSON: parse error at line 1, column 12: /);
  assert.doesNotMatch(await banner.textContent(), /Unexpected token|in JSON at position|\(.*is not valid JSON/);
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
