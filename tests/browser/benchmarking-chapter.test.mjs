// Protects the Benchmarking chapter's page before its experiments arrive: the header says what
// the chapter teaches (no "still to come"), every section ends in what to run, and each
// experiment has one stable slot (#benchmarking-<experiment>-slot) to mount into, which says
// the experiment is not in the lab yet until it mounts.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openLab } from './harness.mjs';

let lab;
before(async () => {
  lab = await openLab({ hash: '#benchmarking' });
});
after(async () => {
  await lab?.close();
});

test('the chapter says what it teaches and promises nothing that is not there', async () => {
  const text = await lab.page.textContent('#chapter-benchmarking');
  assert.doesNotMatch(text, /still to come/i);
  assert.match(await lab.page.textContent('#chapter-benchmarking > h2'), /Benchmarking/);
});

test('every section ends in what to run, then the slots its experiments mount into', async () => {
  const sections = await lab.page.$$eval('#chapter-benchmarking section[data-section]', (els) =>
    els.map((el) => ({
      id: el.dataset.section,
      tail: [...el.children].filter((c) => !c.hasAttribute('data-slot')).at(-1)?.className,
      slots: [...el.querySelectorAll('[data-slot]')].map((s) => ({ id: s.id, text: s.textContent })),
    })),
  );
  assert.equal(sections.length, 10);
  for (const s of sections) assert.equal(s.tail, 'try', `section ${s.id} ends with its "Run it" line`);
  const slots = sections.flatMap((s) => s.slots);
  assert.deepEqual(
    slots.map((s) => s.id),
    ['warmup', 'clock', 'distribution', 'intervals', 'aa', 'ab', 'complexity', 'regression', 'suite'].map(
      (e) => `benchmarking-${e}-slot`,
    ),
  );
  // No experiment is mounted yet, so every slot says so rather than leaving a "Run it" line
  // pointing at nothing.
  for (const s of slots) assert.match(s.text, /not in the lab yet/, `${s.id} says its experiment is not here yet`);
});

test('the table of contents scrolls to a section and keeps the chapter hash', async () => {
  await lab.page.click('#chapter-benchmarking .chapter-toc a[data-section="complexity"]');
  await lab.page.waitForFunction(() => {
    const top = document.querySelector('#benchmarking-complexity').getBoundingClientRect().top;
    return top >= 0 && top < 200;
  });
  assert.equal(new URL(lab.page.url()).hash, '#benchmarking');
  assert.deepEqual(lab.errors, []);
});
