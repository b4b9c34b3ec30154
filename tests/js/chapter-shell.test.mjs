// Protects the chapter shell's declarations (web/src/chapters/chapter-model.js): what a
// chapter must hold before the shell mounts it, each problem a sentence naming the place, and
// every chapter's sections (and Benchmarking's slots) passing those checks. The mounted DOM is the browser tests' part.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chapterProblems, checkChapter, slotId } from '../../web/src/chapters/chapter-model.js';
import * as acceleration from '../../web/src/chapters/acceleration/explanations.js';
import * as benchmarking from '../../web/src/chapters/benchmarking/explanations.js';
import * as profiling from '../../web/src/chapters/profiling/explanations.js';
import { EXPERIMENTS } from '../../web/src/chapters/benchmarking/experiments.js';

const spec = { id: 'demo', title: 'Demo' };
const mountFn = () => ({ destroy() {} });
const minimal = () => ({
  id: 'fourth',
  title: 'Fourth',
  heading: 'Fourth: a chapter of data',
  intro: ['An intro.'],
  sections: [{ id: 'one', title: 'One', paragraphs: ['Text.'], mounts: [spec, mountFn] }],
});

test('a chapter of data, experiment specs and mount functions passes', () => {
  assert.deepEqual(chapterProblems(minimal()), []);
  assert.equal(checkChapter(minimal()).id, 'fourth');
});

test('each missing or malformed part is named with its section', () => {
  const cases = [
    [(c) => delete c.heading, /chapter "fourth": heading must be a non-empty string/],
    [(c) => (c.id = 'Fourth!'), /id must be lower-case letters, digits and dashes, got "Fourth!"/],
    [(c) => (c.intro = 'An intro.'), /intro must be a list of paragraphs/],
    [(c) => (c.sections = []), /sections must be a non-empty list/],
    [(c) => c.sections.push({ ...c.sections[0] }), /section "one": id is used by an earlier section/],
    [(c) => (c.sections[0].mounts = [42]), /section "one": mounts must hold experiment specs or mount functions, got number/],
    [(c) => (c.sections[0].slots = ['missing']), /section "one": slot "missing" is not in the chapter's slots/],
    [(c) => (c.sections[0].formula = 3), /section "one": formula, if given, must be a string/],
    [(c) => (c.facts = {}), /facts, if given, must be a function/],
  ];
  for (const [spoil, message] of cases) {
    const chapter = minimal();
    spoil(chapter);
    assert.throws(() => checkChapter(chapter), message);
  }
  assert.deepEqual(chapterProblems(null), ['a chapter must be an object']);
});

test("Benchmarking's sections name only slots its experiments fill, each with its own id", () => {
  const chapter = { ...minimal(), id: 'benchmarking', sections: benchmarking.SECTIONS, slots: EXPERIMENTS };
  assert.deepEqual(chapterProblems(chapter), []);
  const names = benchmarking.SECTIONS.flatMap((s) => s.slots);
  assert.equal(new Set(names).size, names.length);
  assert.deepEqual(new Set(names), new Set(Object.keys(EXPERIMENTS)));
  assert.equal(slotId('benchmarking', 'aa'), 'benchmarking-aa-slot');
});

test("Acceleration's and Profiling's sections are a chapter's sections", () => {
  for (const [id, data] of [['acceleration', acceleration], ['profiling', profiling]]) {
    const chapter = { ...minimal(), id, intro: data.INTRO, sections: data.SECTIONS.map((s) => ({ ...s, mounts: [spec] })) };
    assert.deepEqual(chapterProblems(chapter), [], id);
  }
});
