// The grading module against a fake lab: every answer is re-graded from the file, the
// claimed score is only compared, and each flag comes with its reason.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { FLAGS, gradeClass, normalizeCode, readSubmission, regradeSubmission } from '../../web/src/grading/index.js';
import { COURSE, FAKE_VERSION, fakeLab, fakeRunCode, fakeSubmission } from './grading-fake-lab.mjs';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';

// core's own reason for a text that is not JSON (the wasm module's binding).
const { module: coreModule } = await loadNodeLab();
const jsonTextProblem = (text) => coreModule.jsonTextProblem(text);

const deps = (lab = fakeLab()) => ({ lab, runCode: fakeRunCode, course: COURSE });
const codes = (result) => result.flags.map((f) => f.code);

describe('regradeSubmission', () => {
  it('grades a right submission in full, with no flags', async () => {
    const result = await regradeSubmission(await fakeSubmission('s1'), deps());
    assert.deepEqual(result.total, { score: 35, max_score: 35 });
    assert.deepEqual(result.chapters, { ch1: { score: 20, max_score: 20 }, ch2: { score: 15, max_score: 15 } });
    assert.deepEqual(result.flags, []);
    assert.equal(result.student.id, 's1');
    assert.equal(result.bank_version, FAKE_VERSION);
  });

  it('catches a tampered file: claimed 10, re-graded 0, flagged with both numbers', async () => {
    const submission = await fakeSubmission('s2', { wrong: ['ch1.number'], claim: { 'ch1.number': 10 } });
    const result = await regradeSubmission(submission, deps());
    const row = result.exercises.find((e) => e.id === 'ch1.number');
    assert.equal(row.score, 0);
    assert.equal(row.claimed_score, 10);
    const flag = result.flags.find((f) => f.code === FLAGS.SCORE_DIFFERS);
    assert.ok(flag, JSON.stringify(result.flags));
    assert.match(flag.reason, /claims 10 of 10, the re-grade gives 0/);
    assert.equal(result.total.score, 25);
  });

  it('re-runs code rather than trusting the results in the file', async () => {
    const submission = await fakeSubmission('s3', { wrong: ['ch2.double'], claim: { 'ch2.double': 15 } });
    submission.exercises['ch2.double'].best_answer = { results: [{ value: 999 }, { value: 14 }] };
    const lab = fakeLab();
    const result = await regradeSubmission(submission, deps(lab));
    const graded = lab.calls.find((c) => c.id === 'ch2.double');
    assert.notDeepEqual(graded.answer.results, [{ value: 999 }, { value: 14 }]);
    assert.ok(codes(result).includes(FLAGS.SCORE_DIFFERS));
  });

  it('grades with the seed of the student id and flags a different seed in the file', async () => {
    const lab = fakeLab();
    const { seed } = await lab.courseSeed(COURSE, 's4');
    // Right answers for another seed: wrong for the id's seed.
    const submission = await fakeSubmission('s4', { seed: seed + 1 });
    const result = await regradeSubmission(submission, deps(lab));
    assert.equal(result.seed, seed);
    const flag = result.flags.find((f) => f.code === FLAGS.SEED_MISMATCH);
    assert.ok(flag);
    assert.match(flag.reason, new RegExp(`seed ${seed + 1} is not the seed ${seed}`));
    assert.ok(lab.calls.every((c) => c.seed === seed));
  });

  it('notes another bank version and still grades with the current one', async () => {
    const submission = await fakeSubmission('s5');
    submission.bank_version = 'bank-ffffffffffffffff';
    const result = await regradeSubmission(submission, deps());
    const flag = result.flags.find((f) => f.code === FLAGS.BANK_VERSION);
    assert.match(flag.reason, /bank-ffffffffffffffff.*current bank bank-00000000000000aa/);
    assert.equal(result.total.score, 35);
  });

  it('gives 0 with the reason when core refuses a malformed answer', async () => {
    const submission = await fakeSubmission('s6');
    submission.exercises['ch1.number'].best_answer = { value: 'lots' };
    const result = await regradeSubmission(submission, deps());
    const row = result.exercises.find((e) => e.id === 'ch1.number');
    assert.equal(row.score, 0);
    assert.match(row.feedback, /could not be graded: answer.value must be a number/);
    assert.ok(codes(result).includes(FLAGS.SCORE_DIFFERS));
  });

  it('counts a missing exercise as 0 without a flag', async () => {
    const submission = await fakeSubmission('s7');
    delete submission.exercises['ch1.pick'];
    const result = await regradeSubmission(submission, deps());
    assert.equal(result.exercises.find((e) => e.id === 'ch1.pick').score, 0);
    assert.deepEqual(result.flags, []);
  });

  it('says which answers count for nothing: unknown exercises and chapters the course leaves out', async () => {
    const submission = await fakeSubmission('s9');
    submission.exercises['ch9.gone'] = { ...submission.exercises['ch1.number'] };
    const result = await regradeSubmission(submission, { ...deps(), course: { ...COURSE, chapters: ['ch1'] } });
    const flag = result.flags.find((f) => f.code === FLAGS.UNGRADED_ANSWERS);
    assert.equal(flag.reason, 'the file has answers that count for nothing here, not in the current exercise bank: ch9.gone; in chapters the course does not grade: ch2.double');
    assert.deepEqual(Object.keys(result.chapters), ['ch1']);
  });

  it('without a course uses the file seed and says so', async () => {
    const result = await regradeSubmission(await fakeSubmission('s8'), { lab: fakeLab(), runCode: fakeRunCode, course: null });
    assert.deepEqual(codes(result), [FLAGS.NO_COURSE]);
    assert.equal(result.total.score, 35);
  });
});

describe('gradeClass', () => {
  const file = (name, obj) => ({ name, text: JSON.stringify(obj) });

  it('reports each unreadable file with its kind and grades the rest', async () => {
    const good = await fakeSubmission('a1');
    const goodText = JSON.stringify(good, null, 2);
    const v1 = { version: 1, seed: 3, exercises: {}, exported_at: 'x' };
    const files = [
      { name: 'a1.json', text: goodText },
      { name: 'copy-of-a1.json', text: goodText },
      { name: 'empty.json', text: '' },
      { name: 'cut.json', text: goodText.slice(0, goodText.length / 2) },
      { name: 'notes.txt', text: 'my answers are 3 and 4' },
      file('old.json', v1),
      file('v3.json', { ...good, version: 3 }),
      file('other.json', { hello: 1 }),
      file('practice.json', { ...good, course: null, student: null }),
    ];
    const out = await gradeClass(files, deps());
    assert.equal(out.students.length, 1);
    const kinds = Object.fromEntries(out.problems.map((p) => [p.file, p.kind]));
    assert.deepEqual(kinds, {
      'copy-of-a1.json': 'duplicate',
      'empty.json': 'empty',
      'cut.json': 'truncated',
      'notes.txt': 'non-json',
      'old.json': 'no-student',
      'v3.json': 'wrong-version',
      'other.json': 'wrong-format',
      'practice.json': 'no-student',
    });
    for (const p of out.problems) assert.ok(p.reason.length > 10, p.reason);
  });

  it('flags duplicate student ids and keeps the latest export in the gradebook', async () => {
    const older = await fakeSubmission('b1', { wrong: ['ch1.pick'] });
    const newer = await fakeSubmission(' B1 ');
    newer.exported_at = '2026-11-21T10:00:00.000Z';
    const out = await gradeClass([file('old.json', older), file('new.json', newer)], deps());
    assert.equal(out.flags.filter((f) => f.code === FLAGS.DUPLICATE_STUDENT).length, 1);
    const inBook = out.students.filter((s) => s.in_gradebook).map((s) => s.file);
    assert.deepEqual(inBook, ['new.json']);
    assert.ok(out.problems.some((p) => p.file === 'old.json' && p.kind === 'duplicate-student' && p.graded));
  });

  it('reports identical code between students, but not unchanged starter code', async () => {
    const same = 'function double(x) {\n  return x * 2; // mine\n}';
    const sameOtherwise = '/* written alone */ function double(x){return x*2;}';
    const a = await fakeSubmission('c1', { code: same });
    const b = await fakeSubmission('c2', { code: sameOtherwise });
    const c = await fakeSubmission('c3');
    const d = await fakeSubmission('c4', { code: 'function double(x) {\n  // your code\n}\n' });
    const e = await fakeSubmission('c5', { code: 'function double(x) {\n  // your code\n}\n' });
    const out = await gradeClass([file('a', a), file('b', b), file('c', c), file('d', d), file('e', e)], deps());
    const identical = out.flags.filter((f) => f.code === FLAGS.IDENTICAL_CODE);
    assert.equal(identical.length, 1);
    assert.match(identical[0].reason, /c1, c2/);
    assert.deepEqual(identical[0].files.sort(), ['a', 'b']);
  });

  it('lists a tampered file in problems as graded', async () => {
    const t = await fakeSubmission('d1', { wrong: ['ch1.number'], claim: { 'ch1.number': 10 } });
    const out = await gradeClass([file('t.json', t)], deps());
    const p = out.problems.find((x) => x.kind === 'tampered');
    assert.equal(p.graded, true);
    assert.equal(p.student_id, 'd1');
  });

  it('stops at a cancel and keeps what was graded', async () => {
    const controller = new AbortController();
    const files = [];
    for (let i = 0; i < 5; i++) files.push(file(`${i}.json`, await fakeSubmission(`e${i}`)));
    const out = await gradeClass(files, deps(), {
      signal: controller.signal,
      onProgress: ({ done }) => { if (done === 2) controller.abort(); },
    });
    assert.equal(out.partial, true);
    assert.equal(out.students.length, 2);
    assert.deepEqual(out.problems.map((p) => p.kind), ['not-graded', 'not-graded', 'not-graded']);
  });
});

describe('normalizeCode and readSubmission', () => {
  it('drops comments and whitespace but keeps strings', () => {
    assert.equal(normalizeCode('a = "x // y";  // c\n/* b */ b = 1'), 'a="x // y";b=1');
    assert.equal(normalizeCode("s = ' a  b '"), "s=' a  b '");
  });

  it('refuses what the submission format refuses, with its sentences', async () => {
    const bad = await fakeSubmission('z1');
    bad.exercises['ch1.number'].attempts = -2;
    bad.surprise = true;
    const { problem } = await readSubmission(JSON.stringify(bad), { jsonTextProblem });
    assert.equal(problem.kind, 'invalid');
    assert.match(problem.reason, /surprise/);
    assert.match(problem.reason, /attempts/);
  });

  it('reads a byte-order mark and refuses a non-object', async () => {
    assert.equal((await readSubmission('\ufeff[1,2]', { jsonTextProblem })).problem.kind, 'wrong-format');
    const truncated = (await readSubmission('{"a": [1, 2', { jsonTextProblem })).problem;
    assert.equal(truncated.kind, 'truncated');
    assert.match(truncated.reason, /^the file ends before its JSON does \(11 characters; parse error at line 1, column 12: /);
    // Core's reason, with the place, not the engine's wording.
    const notJson = (await readSubmission('{"a": }', { jsonTextProblem })).problem;
    assert.equal(notJson.kind, 'non-json');
    assert.match(notJson.reason, /^the file is not JSON: parse error at line 1, column 7: /);
    for (const p of [truncated, notJson]) assert.doesNotMatch(p.reason, /Unexpected token|Unexpected end|in JSON at position|is not valid JSON/);
    // Nesting far past a submission's is refused before anything recurses into it.
    const deep = (await readSubmission(`${'['.repeat(5000)}${']'.repeat(5000)}`, { jsonTextProblem })).problem;
    assert.equal(deep.kind, 'invalid');
    assert.match(deep.reason, /nested 5000 levels deep/);
  });
});

describe('exclusiveScheduler', () => {
  it('runs an exclusive task alone: it waits for running tasks, later ones wait for it', async () => {
    const { exclusiveScheduler } = await import('../../web/src/grading/schedule.js');
    const schedule = exclusiveScheduler();
    const log = [];
    let active = 0;
    const task = (name, ms) => async () => {
      active += 1;
      log.push(`${name} starts with ${active} running`);
      await new Promise((r) => setTimeout(r, ms));
      active -= 1;
    };
    await Promise.all([
      schedule(false, task('a', 30)),
      schedule(false, task('b', 30)),
      schedule(true, task('timed', 10)),
      schedule(false, task('c', 5)),
    ]);
    assert.deepEqual(log, ['a starts with 1 running', 'b starts with 2 running', 'timed starts with 1 running', 'c starts with 1 running']);
  });
});

describe('outputs', () => {
  it('puts the id in the chosen Canvas column and keeps a student\'s text from running as a formula', async () => {
    const { canvasGradebookCsv, exercisesCsv, feedbackFileName } = await import('../../web/src/grading/outputs.js');
    const s = await fakeSubmission('f1');
    s.student.name = '=HYPERLINK("http://x","y")';
    const graded = await gradeClass([{ name: 'f1.json', text: JSON.stringify(s) }], deps());
    const login = canvasGradebookCsv(graded, { idColumn: 'sis-login-id' }).split('\r\n');
    assert.equal(login[0], 'Student,ID,SIS User ID,SIS Login ID,Section,perflab: Ch1,perflab: Ch2');
    assert.equal(login[1], '    Points Possible,,,,,20,15');
    assert.equal(login[2], `"'=HYPERLINK(""http://x"",""y"")",,,f1,,20,15`);
    assert.throws(() => canvasGradebookCsv(graded, { idColumn: 'email' }), /idColumn must be one of/);
    assert.match(exercisesCsv(graded).split('\r\n')[0], /^student_id,student_name,file,in_gradebook,total,max_total,self_reported_points,flags,ch1\.number,ch1\.pick,ch2\.double$/);
    const used = new Set();
    assert.equal(feedbackFileName({ id: '../Etc/Passwd' }, used), 'etc_passwd.md');
    assert.equal(feedbackFileName({ id: '..etc passwd' }, used), 'etc_passwd-2.md');
  });
});
