// The grading module against the real core (the wasm build's Node module, loaded as
// tools/grade.mjs loads it) and the command line's code runner: generated submissions
// re-grade to what they claim, and each kind of tampering or mistake is caught with its
// reason. Submissions come from tests/js/grading-generate.mjs (answers found by grading).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { FLAGS, gradeClass, regradeSubmission } from '../../web/src/grading/index.js';
import { CANVAS_IDENTITY_COLUMNS, CANVAS_POINTS_POSSIBLE, canvasGradebookCsv, problemsCsv } from '../../web/src/grading/outputs.js';
import { createCodeRunner } from '../../tools/grading/code-runner.mjs';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateSubmission } from './grading-generate.mjs';

const COURSE_JSON = { id: 'perf-test', title: 'Grading test', salt: 'grading-test-salt', chapters: ['profiling'] };
let lab;
let course;
let runner;
let deps;
const honest = new Map();

before(async () => {
  ({ lab } = await loadNodeLab());
  course = await lab.courseFromJson(COURSE_JSON);
  runner = createCodeRunner({ workers: 2 });
  deps = { lab, runCode: runner.runCode, course };
  for (const id of ['ada', 'bob']) honest.set(id, await generateSubmission(lab, { ...COURSE_JSON }, id, { skill: 1 }));
});
after(() => runner?.close());

const copy = (x) => structuredClone(x);
const codes = (result) => result.flags.map((f) => f.code);

describe('re-grading with the real core', () => {
  it('grades an honest submission to the score it claims, with no flags', async () => {
    const submission = honest.get('ada');
    const result = await regradeSubmission(submission, deps);
    assert.deepEqual(result.flags, []);
    const claimed = Object.values(submission.exercises).reduce((sum, e) => sum + e.best_score, 0);
    assert.ok(Math.abs(result.total.score - claimed) < 1e-6, `${result.total.score} vs ${claimed}`);
    assert.ok(result.total.score > 0);
    assert.equal(result.total.max_score, result.chapters.profiling.max_score);
    assert.deepEqual(Object.keys(result.chapters), ['profiling']);
  });

  it('catches a tampered file: a wrong answer that claims 10 re-grades to 0, flagged', async () => {
    const submission = copy(honest.get('ada'));
    const entry = submission.exercises['profiling.linear-params'];
    entry.best_answer = { value: entry.best_answer.value * 3 + 7 };
    assert.equal(entry.best_score, 10);
    const result = await regradeSubmission(submission, deps);
    const row = result.exercises.find((e) => e.id === 'profiling.linear-params');
    assert.equal(row.claimed_score, 10);
    assert.equal(row.score, 0);
    const flag = result.flags.find((f) => f.code === FLAGS.SCORE_DIFFERS && f.exercise === 'profiling.linear-params');
    assert.match(flag.reason, /claims 10 of 10, the re-grade gives 0 \(Too (high|low)/);
  });

  it('re-runs the code: code that fails claims nothing it keeps', async () => {
    const submission = copy(honest.get('ada'));
    const entry = submission.exercises['profiling.median'];
    entry.best_code = 'function median(times) { return times[0]; }';
    const result = await regradeSubmission(submission, deps);
    const row = result.exercises.find((e) => e.id === 'profiling.median');
    assert.ok(row.score < row.max_score, `${row.score}`);
    assert.ok(row.tests.some((t) => !t.passed));
    assert.ok(codes(result).includes(FLAGS.SCORE_DIFFERS));
  });

  it('gives code that loops forever its time limit: every test timed out, the rest graded', async () => {
    const submission = copy(honest.get('ada'));
    submission.exercises['profiling.median'].best_code = 'function median(times) { for (;;) {} }';
    const result = await regradeSubmission(submission, deps);
    const row = result.exercises.find((e) => e.id === 'profiling.median');
    assert.equal(row.score, 0);
    assert.ok(row.tests.every((t) => /did not finish within/.test(t.message)), JSON.stringify(row.tests[0]));
    const others = result.exercises.filter((e) => e.id !== 'profiling.median');
    assert.ok(others.some((e) => e.score > 0));
  });

  it('grades with the seed the student id gives and flags a file whose seed differs', async () => {
    const submission = copy(honest.get('ada'));
    const { seed } = await lab.courseSeed(course, 'ada');
    submission.seed = (seed + 1) >>> 0;
    const result = await regradeSubmission(submission, deps);
    assert.equal(result.seed, seed);
    const flag = result.flags.find((f) => f.code === FLAGS.SEED_MISMATCH);
    assert.match(flag.reason, new RegExp(`seed ${submission.seed} is not the seed ${seed} that student id "ada" gives`));
    // The answers were the id's: graded with the id's seed, they keep their points.
    assert.ok(!codes(result).includes(FLAGS.SCORE_DIFFERS));
  });

  it('notes another bank version and re-grades with the current bank', async () => {
    const submission = copy(honest.get('bob'));
    submission.bank_version = 'bank-0000000000000000';
    const result = await regradeSubmission(submission, deps);
    assert.deepEqual(codes(result), [FLAGS.BANK_VERSION]);
    assert.match(result.flags[0].reason, new RegExp(`re-graded with the current bank ${await lab.exerciseBankVersion()}`));
  });
});

describe('a class with bad files, duplicates and copied code', () => {
  let graded;
  before(async () => {
    const ada = honest.get('ada');
    const bob = copy(honest.get('bob'));
    // bob's median is ada's, comments and layout changed.
    bob.exercises['profiling.median'].best_code = `// my own work\n${ada.exercises['profiling.median'].best_code.replace(/\n/g, '\n\n  ')}`;
    const ada2 = copy(ada);
    ada2.exported_at = '2026-11-21T09:00:00.000Z';
    const text = (x) => JSON.stringify(x, null, 2);
    const files = [
      { name: 'ada.json', text: text(ada) },
      { name: 'ada-again.json', text: text(ada2) },
      { name: 'ada-copy.json', text: text(ada) },
      { name: 'bob.json', text: text(bob) },
      { name: 'empty.json', text: '' },
      { name: 'cut.json', text: text(bob).slice(0, 900) },
      { name: 'notes.txt', text: 'answers: 42\n' },
      { name: 'v9.json', text: text({ ...bob, version: 9 }) },
      { name: 'broken.json', text: text({ ...bob, seed: 'forty-two' }) },
    ];
    graded = await gradeClass(files, deps, { concurrency: 2 });
  });

  it('reports every file that is not graded, with its kind and reason', () => {
    const kinds = Object.fromEntries(graded.problems.filter((p) => !p.graded).map((p) => [p.file, p.kind]));
    assert.deepEqual(kinds, {
      'ada-copy.json': 'duplicate',
      'empty.json': 'empty',
      'cut.json': 'truncated',
      'notes.txt': 'non-json',
      'v9.json': 'wrong-version',
      'broken.json': 'invalid',
    });
    assert.match(graded.problems.find((p) => p.file === 'broken.json').reason, /seed/);
    assert.deepEqual(graded.students.map((s) => s.file).sort(), ['ada-again.json', 'ada.json', 'bob.json']);
  });

  it('flags the duplicate student id and keeps the latest export in the gradebook', () => {
    const flag = graded.flags.find((f) => f.code === FLAGS.DUPLICATE_STUDENT);
    assert.deepEqual(flag.files.sort(), ['ada-again.json', 'ada.json']);
    assert.deepEqual(graded.students.filter((s) => s.in_gradebook).map((s) => s.file).sort(), ['ada-again.json', 'bob.json']);
    const csv = problemsCsv(graded);
    assert.match(csv, /ada\.json,ada,duplicate-student,yes,/);
  });

  it('reports the copied code between the two students, and only that', () => {
    const identical = graded.flags.filter((f) => f.code === FLAGS.IDENTICAL_CODE);
    assert.deepEqual(identical.map((f) => f.exercise), ['profiling.median']);
    assert.match(identical[0].reason, /ada, bob/);
  });

  it('writes the Canvas gradebook with Canvas\'s header, column by column, and its Points Possible row', () => {
    const lines = canvasGradebookCsv(graded).trimEnd().split('\r\n');
    const header = lines[0].split(',');
    // Canvas's own export (instructure/canvas-lms lib/gradebook_exporter.rb), with SIS ids.
    const documented = ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section'];
    documented.forEach((name, i) => assert.equal(header[i], name, `column ${i + 1}`));
    assert.deepEqual(CANVAS_IDENTITY_COLUMNS, documented);
    assert.deepEqual(header.slice(5), ['perflab: Profiling']);
    const points = lines[1].split(',');
    assert.equal(points[0], '    Points Possible');
    assert.equal(points[0], CANVAS_POINTS_POSSIBLE);
    assert.deepEqual(points.slice(1, 5), ['', '', '', '']);
    assert.equal(Number(points[5]), graded.exercises.reduce((s, e) => s + e.points, 0));
    assert.equal(lines.length, 2 + 2); // ada (latest file) and bob
    const bob = lines.find((l) => l.includes(',bob,'));
    const [name, id, sis, login, section, score] = bob.split(',');
    assert.deepEqual([name, id, sis, login, section], ['Student bob', '', 'bob', '', '']);
    const bobResult = graded.students.find((s) => s.file === 'bob.json').result;
    assert.equal(Number(score), Math.round(bobResult.chapters.profiling.score * 100) / 100);
  });
});
