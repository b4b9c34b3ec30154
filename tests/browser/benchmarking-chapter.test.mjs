// Protects the Benchmarking chapter's page: the header says what the chapter teaches (no
// "still to come"), every section ends in what to run, and each experiment has one stable slot
// (#benchmarking-<experiment>-slot) holding either its mounted experiment or a line saying the
// experiment is not in the lab yet (never both, never neither).

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
      slots: [...el.querySelectorAll('[data-slot]')].map((s) => ({
        id: s.id,
        text: s.textContent,
        mounted: s.querySelectorAll('section.experiment').length,
      })),
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
  // A slot holds its experiment, or says it is not here yet rather than leaving a "Run it" line
  // pointing at nothing.
  for (const s of slots) {
    if (s.mounted) assert.doesNotMatch(s.text, /not in the lab yet/, `${s.id} holds its experiment only`);
    else assert.match(s.text, /not in the lab yet/, `${s.id} says its experiment is not here yet`);
    assert.ok(s.mounted <= 1, `${s.id} holds one experiment`);
  }
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

test('the numbers the text quotes come from core and agree with the hand-computed example', async () => {
  // Every placeholder is filled once the worker answers; none is left showing "…".
  await lab.page.waitForFunction(
    () => [...document.querySelectorAll('#chapter-benchmarking [data-fact]')].every((s) => s.textContent !== '…'),
    null,
    { timeout: 30000 },
  );
  const text = await lab.page.textContent('#benchmarking-intervals');
  // [1, 2, 3, 4, 5]: s = √2.5, z = 3 ± 1.96·s/√5, t = 3 ± 2.7764·s/√5 (by hand, not by core).
  assert.match(text, /s = 1\.5811; z gives \(1\.614, 4\.386\), t gives \(1\.037, 4\.963\)/);
  assert.match(text, /t\(0\.975, 4\) = 2\.776, so the t interval is 1\.42 times as wide/);
  assert.equal(await lab.page.isVisible('#chapter-benchmarking p.error'), false);
});
