// A course's answer modes through the real core (the wasm build's Node module, as
// tools/grade.mjs loads it) and the re-grade: a blind bisection on the grader's feedback
// solves a percentile exercise in practice mode and gets no direction in assessed or sealed
// mode; the re-grade grades with the course's mode (a sealed answer is graded then), flags an
// answer given under another mode and a try count above the course's cap, and does not flag
// an honest file. The page's side (a locked assessed card, a sealed card without a verdict):
// tests/browser/course-identity.test.mjs.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import { FLAGS, regradeSubmission } from '../../web/src/grading/index.js';
import { modeState, recordAttempt } from '../../web/src/exercises/logic.js';
import { buildSubmission, emptyEntry, validateSubmission } from '../../web/src/state/submission.js';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';

const PERCENTILE = 'benchmarking.percentile';
const MEAN_OR_MEDIAN = 'benchmarking.mean-or-median';
const SEALED = 'profiling.ffn-param-memory';
const COURSE_JSON = {
  id: 'perf-modes',
  title: 'Modes test',
  salt: 'modes-salt',
  chapters: ['profiling', 'benchmarking'],
  modes: { default: 'practice', exercises: { [PERCENTILE]: 'assessed', [SEALED]: 'sealed' }, assessed_tries: 2 },
};

let lab;
let course;
before(async () => {
  ({ lab } = await loadNodeLab());
  course = await lab.courseFromJson(COURSE_JSON);
});

/** Bisects on the feedback alone: the tries to a right answer, or null without a direction. */
async function blindBisection(id, seed, mode, hi = 1e6) {
  let lo = 0;
  for (let tries = 1; tries <= 100; tries++) {
    const mid = (lo + hi) / 2;
    const g = await lab.gradeExercise(id, seed, { value: mid }, undefined, mode);
    if (g.correct === true) return { tries, value: mid };
    if (/^Too high/.test(g.feedback)) hi = mid;
    else if (/^Too low/.test(g.feedback)) lo = mid;
    else return null;
  }
  return null;
}

describe('answer modes in core, through the wasm build', () => {
  it('a blind bisection solves a percentile in practice mode and gets no direction when assessed', async () => {
    const practice = await blindBisection(PERCENTILE, 11, undefined);
    assert.ok(practice && practice.tries <= 40, JSON.stringify(practice));
    assert.equal(await blindBisection(PERCENTILE, 11, 'assessed'), null);
    assert.equal(await blindBisection(PERCENTILE, 11, 'sealed'), null);
    const sealedRight = await lab.gradeExercise(PERCENTILE, 11, { value: practice.value }, undefined, 'sealed');
    const sealedWrong = await lab.gradeExercise(PERCENTILE, 11, { value: -1 }, undefined, 'sealed');
    assert.deepEqual(sealedRight, sealedWrong);
    assert.deepEqual([sealedRight.correct, sealedRight.score, sealedRight.mode], [null, null, 'sealed']);
    await assert.rejects(lab.gradeExercise(PERCENTILE, 11, { value: 1 }, undefined, 'quiz'),
      { message: /mode is "quiz"; the modes are "practice", "assessed" or "sealed"/ });
  });

  it('course.json names each exercise’s mode, resolved by core for the page', () => {
    assert.equal(course.modes.exercises[PERCENTILE], 'assessed');
    assert.equal(course.modes.exercises[SEALED], 'sealed');
    assert.equal(course.modes.exercises[MEAN_OR_MEDIAN], 'practice');
    assert.equal(course.modes.assessed_tries, 2);
  });
});

describe('the page’s side of a mode (logic.js)', () => {
  it('counts an assessed exercise’s tries and closes it at the cap', () => {
    assert.deepEqual(modeState({ mode: null, attempts: 9, tries: undefined }), { locked: false, line: null });
    assert.match(modeState({ mode: 'assessed', attempts: 1, tries: 2 }).line, /Try 2 of 2\./);
    assert.equal(modeState({ mode: 'assessed', attempts: 2, tries: 2 }).locked, true);
    assert.equal(modeState({ mode: 'sealed', attempts: 5, tries: 2 }).locked, false);
  });

  it('keeps a sealed answer as the one to grade and records the mode', () => {
    const first = recordAttempt(emptyEntry(), { correct: null, score: null }, { value: 1 }, null, { mode: 'sealed' });
    const second = recordAttempt(first, { correct: null, score: null }, { value: 2 }, null, { mode: 'sealed' });
    assert.deepEqual([second.best_answer, second.best_score, second.solved, second.mode], [{ value: 2 }, 0, false, 'sealed']);
    assert.equal('mode' in recordAttempt(emptyEntry(), { correct: false, score: 0 }, { value: 1 }), false);
  });
});

describe('re-grading with the course’s modes', () => {
  let honest;
  let right;
  before(async () => {
    const { seed } = await lab.courseSeed(course, 'ada');
    right = (await blindBisection(PERCENTILE, seed, undefined)).value;
    const sealedAnswer = (await blindBisection(SEALED, seed, undefined, 1e13)).value;
    const progress = {
      course: { id: course.id, title: course.title, chapters: course.chapters },
      student: { id: 'ada', name: 'Ada' },
      seed,
      exercises: {
        [PERCENTILE]: { ...emptyEntry(), attempts: 2, solved: true, best_score: 10, best_answer: { value: right }, last_answer: { value: right }, hints_used: 1, mode: 'assessed' },
        [SEALED]: { ...emptyEntry(), attempts: 1, best_answer: { value: sealedAnswer }, last_answer: { value: sealedAnswer }, hints_used: 1, mode: 'sealed' },
      },
    };
    honest = buildSubmission(progress, { bankVersion: await lab.exerciseBankVersion(), exportedAt: '2026-12-01T00:00:00.000Z' });
    assert.deepEqual(validateSubmission(honest), []);
  });
  const regrade = (submission) => regradeSubmission(submission, { lab, course, runCode: () => assert.fail('no code here') });
  const row = (result, id) => result.exercises.find((e) => e.id === id);

  it('grades an honest file without flags; its sealed answer is graded now', async () => {
    const result = await regrade(honest);
    assert.deepEqual(result.flags, []);
    assert.equal(row(result, PERCENTILE).score, 10);
    assert.equal(row(result, SEALED).score, row(result, SEALED).max_score, 'the sealed answer found by bisection is right');
  });

  it('flags an answer given in practice mode where the course assesses it', async () => {
    const tampered = structuredClone(honest);
    delete tampered.exercises[PERCENTILE].mode;
    const result = await regrade(tampered);
    const flag = result.flags.find((f) => f.code === FLAGS.MODE_MISMATCH);
    assert.match(flag.reason, /benchmarking\.percentile: answered in practice mode, but the course sets assessed/);
    assert.equal(row(result, PERCENTILE).score, 10, 'the answer is graded all the same');
  });

  it('flags more graded tries than the course allows, and words wrong answers without a direction', async () => {
    const tampered = structuredClone(honest);
    Object.assign(tampered.exercises[PERCENTILE], { attempts: 9, best_answer: { value: right * 3 } });
    const result = await regrade(tampered);
    assert.match(result.flags.find((f) => f.code === FLAGS.TRIES_OVER_CAP).reason, /counts 9 graded tries, over the course's 2/);
    assert.match(row(result, PERCENTILE).feedback, /^Not correct: the answer must be/);
  });
});
