// A browser whose localStorage is full still shows the student's saved work: the page loads
// the progress it holds (the same seed, so the same variants, and the attempts made), says at
// the top that new progress cannot be saved here, and offers Export there, whose file carries
// the saved seed and entries. Before, the page's storage check wrote a probe, took the full
// storage for none at all, and started afresh with a new seed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { emptyEntry } from '../../web/src/state/submission.js';
import { exerciseCards, openLab } from './harness.mjs';

const STORAGE_KEY = 'perflab.progress.v1';
const CHOICE = 'profiling.bound-classify';

let lab;
let page;
before(async () => {
  lab = await openLab({ hash: '#profiling' });
  page = lab.page;
});
after(async () => {
  await lab?.close();
});

test('a full localStorage loads the saved progress, says it cannot save, and exports it from the notice', async () => {
  const { params, dataOf, waitForCards } = exerciseCards(page);
  await waitForCards([CHOICE]);
  const paramsBefore = await params(CHOICE);
  // The saved progress, with attempts on one exercise as a student's earlier visit left them
  // (solved on try 1, so the card shows try 1's variant again: a choice redraws per try).
  const saved = JSON.parse(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY));
  const answer = { choice: 0, attempt: 1 };
  saved.exercises[CHOICE] = { ...emptyEntry(), attempts: 2, solved: true, best_score: 10, best_answer: answer, last_answer: answer };
  const text = JSON.stringify(saved);
  // Then the origin's storage is filled to the last character.
  const filled = await page.evaluate(([key, value]) => {
    localStorage.clear();
    localStorage.setItem(key, value);
    let n = 0;
    for (let size = 1 << 20; size >= 1; size >>= 1) {
      for (;;) {
        try {
          localStorage.setItem(`filler.${n}`, 'x'.repeat(size));
          n += 1;
        } catch {
          break;
        }
      }
    }
    try {
      localStorage.setItem('one.more', 'x');
      return { n, full: false };
    } catch (e) {
      return { n, full: true, name: e.name };
    }
  }, [STORAGE_KEY, text]);
  assert.ok(filled.full, `localStorage did not fill: ${JSON.stringify(filled)}`);

  await page.reload();
  await waitForCards([CHOICE]);
  const notice = page.locator('header [data-role="progress-notice"]');
  await notice.waitFor({ state: 'visible', timeout: 20000 });
  assert.match(
    await notice.textContent(),
    /^Your saved progress was loaded, but new progress cannot be saved in this browser \(this browser's storage for the page is full\)\. Use Export/,
  );
  // The saved seed and work: the same variant, the attempts made.
  assert.deepEqual(await params(CHOICE), paramsBefore);
  assert.equal((await dataOf(CHOICE)).attempts, '2');
  assert.equal(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEY), text, 'the stored text is untouched');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    notice.getByRole('button', { name: 'Export progress' }).click(),
  ]);
  const exported = JSON.parse(await (await import('node:fs/promises')).readFile(await download.path(), 'utf8'));
  assert.equal(exported.seed, saved.seed);
  assert.equal(exported.exercises[CHOICE].attempts, 2);
  assert.match(await notice.locator('[data-role="restore-status"]').textContent(), /^Exported perflab-/);
  await page.evaluate(() => localStorage.clear());
});
