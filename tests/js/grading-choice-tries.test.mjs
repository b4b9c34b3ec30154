// Choice exercises against the real core (the wasm build's Node module): a choice answer's
// points rest on the try its file names, which only the student's page counted, so each try
// draws a new variant and the answer must be right for the variant of the try it claims.
// The tampers of issue 25 (the try rewritten to 1, deleted, or the right text of a later
// try mapped back onto try 1) gain nothing on average over many students, honest generated
// submissions re-grade to what their tries earned, and the outputs mark those points as
// self-reported; hints and graded tries change no points.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';

import { regradeSubmission } from '../../web/src/grading/index.js';
import { exercisesCsv, feedbackText } from '../../web/src/grading/outputs.js';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateSubmission } from './grading-generate.mjs';

const CHAPTERS = ['profiling', 'acceleration', 'benchmarking', 'optimization'];
const COURSE_JSON = { id: 'perf-choice', title: 'Choice tries', salt: 'choice-tries-salt', chapters: CHAPTERS };
const STUDENTS = ['s01', 's02', 's03', 's04', 's05', 's06', 's07', 's08'];
let lab;
let course;
let choices; // the bank's choice exercises not graded from a run

before(async () => {
  ({ lab } = await loadNodeLab());
  course = await lab.courseFromJson(COURSE_JSON);
  choices = (await lab.exerciseBank()).filter((e) => e.kind === 'choice' && !e.evidence);
});

// No code is run: the submissions here hold choice answers only.
const noCode = async () => {
  throw new Error('no code exercise is answered in these submissions');
};

// The right choice of try t's variant, found as a student clicking through would.
async function rightOn(id, seed, t) {
  const { choices: shown } = await lab.choiceVariant(id, seed, t);
  for (let choice = 0; choice < shown.length; choice++) {
    if ((await lab.gradeExercise(id, seed, { choice, attempt: t })).correct) return { choice, text: shown[choice] };
  }
  throw new Error(`${id}: no right choice on try ${t}`);
}

// A submission file holding one answer per exercise id.
async function submissionOf(studentId, answers) {
  const { seed } = await lab.courseSeed(course, studentId);
  const exercises = {};
  for (const [id, best_answer] of Object.entries(answers)) {
    exercises[id] = { attempts: best_answer.attempt ?? 1, solved: true, best_score: 0, best_answer, best_code: null, last_answer: best_answer, code: null, hints_used: 1 };
  }
  return {
    format: 'perflab-submission', version: 2,
    course: { id: course.id, title: course.title, chapters: CHAPTERS },
    student: { id: studentId, name: studentId }, seed,
    bank_version: await lab.exerciseBankVersion(), page_version: null, machine: null, exported_at: null,
    exercises,
  };
}

const scoreOf = (result, id) => result.exercises.find((e) => e.id === id).score;

describe('choice answers re-graded by the try their file names', () => {
  it('a later try\'s answer sent as try 1 (rewritten, deleted, or its text mapped back) gains nothing on average', async () => {
    // Each student got every choice exercise wrong on try 1 and right on try 2 (half the
    // points). Before each try drew its own variant, all three tampers earned full points.
    let honest = 0;
    const tampered = { rewritten: 0, deleted: 0, mapped: 0 };
    for (const studentId of STUDENTS) {
      const { seed } = await lab.courseSeed(course, studentId);
      const answers = { honest: {}, rewritten: {}, deleted: {}, mapped: {} };
      for (const e of choices) {
        const second = await rightOn(e.id, seed, 2);
        answers.honest[e.id] = { choice: second.choice, attempt: 2 };
        answers.rewritten[e.id] = { choice: second.choice, attempt: 1 };
        answers.deleted[e.id] = { choice: second.choice };
        // Try 2's feedback said "Correct: <text>": pick the same text among try 1's choices.
        const { choices: first } = await lab.choiceVariant(e.id, seed, 1);
        const same = first.indexOf(second.text);
        answers.mapped[e.id] = { choice: same >= 0 ? same : second.choice, attempt: 1 };
      }
      const results = {};
      for (const [name, set] of Object.entries(answers)) {
        results[name] = await regradeSubmission(await submissionOf(studentId, set), { lab, course, runCode: noCode, choiceTexts: false });
      }
      for (const e of choices) {
        assert.equal(scoreOf(results.honest, e.id), e.points / 2, `${e.id}: right on try 2 earns half`);
        honest += scoreOf(results.honest, e.id);
        for (const name of Object.keys(tampered)) tampered[name] += scoreOf(results[name], e.id);
      }
    }
    for (const [name, total] of Object.entries(tampered)) {
      assert.ok(total < honest, `${name}: ${total} points from tampering against ${honest} honest ones over ${STUDENTS.length} students`);
    }
  });

  it('a try that is not a try number is graded as try 1, and said so', async () => {
    const e = choices[0];
    const { seed } = await lab.courseSeed(course, 's01');
    const first = await rightOn(e.id, seed, 1);
    for (const attempt of ['2', 0, 1.5, 5000, null]) {
      const result = await regradeSubmission(await submissionOf('s01', { [e.id]: { choice: first.choice, attempt } }), { lab, course, runCode: noCode });
      const row = result.exercises.find((x) => x.id === e.id);
      assert.equal(row.score, e.points, `attempt ${JSON.stringify(attempt)}`);
      assert.equal(row.try, 1);
      assert.equal(row.answer_text, first.text);
      assert.match(row.feedback, /\(its try .* is not a try number, so it was graded as try 1\)$/);
    }
  });

  it('honest generated submissions get what their tries earned, unflagged, and the outputs mark those points', async () => {
    for (const studentId of ['gen-1', 'gen-2', 'gen-3']) {
      const generated = await generateSubmission(lab, { ...COURSE_JSON }, studentId, { skill: 0.8, fast: true });
      // Only the choice answers: nothing else is re-graded here.
      for (const [id, entry] of Object.entries(generated.exercises)) {
        if (!choices.some((e) => e.id === id)) delete generated.exercises[id];
      }
      const result = await regradeSubmission(generated, { lab, course, runCode: noCode });
      assert.deepEqual(result.flags, [], studentId);
      let onTheirWord = 0;
      for (const [id, entry] of Object.entries(generated.exercises)) {
        const row = result.exercises.find((x) => x.id === id);
        assert.ok(Math.abs(row.score - entry.best_score) < 1e-9, `${studentId} ${id}: ${row.score} vs ${entry.best_score}`);
        assert.equal(row.try, entry.best_answer.attempt);
        assert.equal(row.self_reported_points, row.score);
        onTheirWord += row.score;
      }
      assert.ok(onTheirWord > 0);
      const graded = { bank_version: result.bank_version, exercises: await lab.exerciseBank(), students: [{ file: `${studentId}.json`, in_gradebook: true, result }], problems: [] };
      const [header, row] = exercisesCsv(graded).split('\r\n');
      const column = header.split(',').indexOf('self_reported_points');
      assert.ok(column > 0);
      assert.equal(Number(row.split(',')[column]), Math.round(onTheirWord * 100) / 100);
      const feedback = feedbackText(graded.students[0], graded);
      assert.match(feedback, /rest on the try numbers your file gives for choice exercises \(self-reported/);
      assert.match(feedback, /Self-reported: these [\d.]+ points rest on the try your file names \(try [12]\)/);
      assert.match(feedback, /Hints used: \d+\. Graded tries: \d+\. Both self-reported; they change no points\./);
    }
  });

  it('hints used and graded tries change no points', async () => {
    const { seed } = await lab.courseSeed(course, 's02');
    const answers = {};
    for (const e of choices) answers[e.id] = { choice: (await rightOn(e.id, seed, 1)).choice, attempt: 1 };
    const plain = await submissionOf('s02', answers);
    const other = structuredClone(plain);
    for (const entry of Object.values(other.exercises)) Object.assign(entry, { hints_used: 7, attempts: 40 });
    const a = await regradeSubmission(plain, { lab, course, runCode: noCode });
    const b = await regradeSubmission(other, { lab, course, runCode: noCode });
    assert.deepEqual(b.exercises.map((e) => e.score), a.exercises.map((e) => e.score));
    assert.ok(a.total.score > 0);
  });
});
