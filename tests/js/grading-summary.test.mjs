// Protects what the instructor view says about a graded class (grading/summary.js) and the
// feedback files students get (grading/outputs.js, grading/zip.js). First on a hand-made
// gradeClass result whose numbers can be checked by eye (exercises ordered hardest first by
// the mean fraction of points, ties by id; the band counts, not attempted apart from failed;
// core's mean stood in for by the arithmetic mean, the real one is tested in tests/wasm),
// then over the real re-grade (the wasm build's core, the command line's code runner) of
// generated submissions: wrong values grouped within the exercise's tolerance, one roofline
// point per student from their own run, and the feedback zip (no path of the grading
// machine, only the exercises attempted).

import assert from 'node:assert/strict';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { strFromU8, unzipSync } from 'fflate';

import { gradeClass } from '../../web/src/grading/class.js';
import { classOutputs } from '../../web/src/grading/outputs.js';
import { classRoofline, commonWrongValues, distributionRows, exerciseDistributions } from '../../web/src/grading/summary.js';
import { zipTextFiles } from '../../web/src/grading/zip.js';
import { analyticsCsv, wrongValueCount, wrongValueText } from '../../web/src/grading/analytics-files.js';
import { createCodeRunner } from '../../tools/grading/code-runner.mjs';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateSubmission } from './grading-generate.mjs';

const EXERCISES = [
  { id: 'ch1.bandwidth', chapter: 'ch1', title: 'Bandwidth', kind: 'numeric', points: 10 },
  { id: 'ch1.bound', chapter: 'ch1', title: 'Which bound', kind: 'choice', points: 5 },
  { id: 'ch2.fuse', chapter: 'ch2', title: 'Fuse it', kind: 'code', points: 20 },
  { id: 'ch2.ridge', chapter: 'ch2', title: 'The ridge', kind: 'numeric', points: 4 },
];

// Rows as regradeSubmission writes them; only the fields summary.js reads.
const numeric = (id, score, max, extra = {}) => ({ id, kind: 'numeric', score, max_score: max, correct: score === max, answer: { value: 1 }, feedback: 'ok', ...extra });
const choice = (id, score, max, text) => ({ id, kind: 'choice', score, max_score: max, correct: score === max, answer: { choice: 0 }, answer_text: text });
const code = (id, score, max, failed = [], extra = {}) => ({
  id,
  kind: 'code',
  score,
  max_score: max,
  correct: score === max,
  code: 'function f() {}',
  tests: [{ name: 'small', passed: true }, ...failed.map((name) => ({ name, passed: false }))],
  feedback: 'some tests fail',
  ...extra,
});
const probe = (peak, bandwidth) => ({ probe: { peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth } });

function student(id, rows, { machine, in_gradebook = true, file = `${id}.json` } = {}) {
  return { file, in_gradebook, submission: { student: { id }, machine }, result: { student: { id }, exercises: rows } };
}

// Fractions per exercise (gradebook students s1..s4; s4-old is left out of the gradebook):
//   ch1.bandwidth 1, 0.5, 0, 0.5  -> mean 0.5
//   ch1.bound     1, 0,   0, 1    -> mean 0.5   (ties ch1.bandwidth; id breaks it)
//   ch2.fuse      0.25, 0, 0.5, 0.25 -> mean 0.25 (hardest)
//   ch2.ridge     1, 1, 1, 1      -> mean 1
const graded = {
  exercises: EXERCISES,
  students: [
    student('s1', [numeric('ch1.bandwidth', 10, 10), choice('ch1.bound', 5, 5, 'memory'), code('ch2.fuse', 5, 20, ['large', 'edge']), numeric('ch2.ridge', 4, 4)], {
      machine: { ...probe(40, 20), cores: 8, build: 'simd' },
    }),
    student('s2', [numeric('ch1.bandwidth', 5, 10, { feedback: 'too low by 2x' }), choice('ch1.bound', 0, 5, 'compute'), code('ch2.fuse', 0, 20, ['large', 'edge']), numeric('ch2.ridge', 4, 4)], {
      machine: { probe: { peak_gflops_per_s: 30 } }, // no bandwidth: no point
    }),
    student('s3', [numeric('ch1.bandwidth', 0, 10, { error: 'not a number', feedback: 'The answer could not be graded: not a number' }), choice('ch1.bound', 0, 5, 'compute'), code('ch2.fuse', 10, 20, ['large']), numeric('ch2.ridge', 4, 4)], {
      machine: { ...probe(12, 6) }, // no cores or build: null
    }),
    student('s4', [numeric('ch1.bandwidth', 5, 10, { feedback: 'too low by 2x' }), choice('ch1.bound', 5, 5, 'memory'), code('ch2.fuse', 5, 20, ['edge']), numeric('ch2.ridge', 4, 4)], {
      machine: { ...probe(0, 10) }, // a failed probe (zero peak): no point
    }),
    // An older file of s4: graded, but not in the gradebook, so it counts nowhere.
    student('s4', [numeric('ch1.bandwidth', 0, 10, { feedback: 'way off' }), choice('ch1.bound', 0, 5, 'latency'), code('ch2.fuse', 0, 20, ['zero']), numeric('ch2.ridge', 0, 4, { feedback: 'way off' })], {
      machine: { ...probe(99, 9) },
      in_gradebook: false,
      file: 's4-old.json',
    }),
  ],
};

const mean = async (values) => values.reduce((a, b) => a + b, 0) / values.length;

describe('exerciseDistributions', () => {
  it('orders exercises by mean fraction of points, lowest first, ties by id', async () => {
    const d = await exerciseDistributions(graded, mean);
    assert.deepEqual(d.map((e) => [e.id, e.mean]), [['ch2.fuse', 0.25], ['ch1.bandwidth', 0.5], ['ch1.bound', 0.5], ['ch2.ridge', 1]]);
  });

  it('takes the mean of fractions of each exercise’s points, not of raw points', async () => {
    const seen = [];
    await exerciseDistributions(graded, async (v) => (seen.push(v), mean(v)));
    assert.deepEqual(seen[0], [1, 0.5, 0, 0.5]);
    assert.deepEqual(seen[2], [0.25, 0, 0.5, 0.25]);
  });

  it('counts each gradebook student in one band: no, part or full points', async () => {
    const d = await exerciseDistributions(graded, mean);
    const counts = Object.fromEntries(d.map((e) => [e.id, e.counts]));
    assert.deepEqual(counts['ch1.bandwidth'], { 'not attempted': 0, 'no points': 1, 'part of the points': 2, 'full points': 1 });
    assert.deepEqual(counts['ch2.fuse'], { 'not attempted': 0, 'no points': 1, 'part of the points': 3, 'full points': 0 });
    assert.deepEqual(counts['ch2.ridge'], { 'not attempted': 0, 'no points': 0, 'part of the points': 0, 'full points': 4 });
    const rows = distributionRows(d);
    assert.equal(rows.length, 4 * 4);
    assert.deepEqual(rows[1], { exercise: 'ch2.fuse', title: 'Fuse it', band: 'no points', students: 1 });
  });

  it('with no gradebook student, gives no means and orders by id', async () => {
    const d = await exerciseDistributions({ ...graded, students: graded.students.map((s) => ({ ...s, in_gradebook: false })) }, mean);
    assert.deepEqual(d.map((e) => [e.id, e.mean, e.fractions.length]), [['ch1.bandwidth', null, 0], ['ch1.bound', null, 0], ['ch2.fuse', null, 0], ['ch2.ridge', null, 0]]);
  });
});

describe('not attempted apart from failed', () => {
  it('counts a row with no answer (or blank code) as not attempted, a wrong answer as failed', async () => {
    const cls = {
      exercises: [EXERCISES[0], EXERCISES[2]],
      students: [
        student('a', [numeric('ch1.bandwidth', 0, 10, { answer: null }), code('ch2.fuse', 0, 20, [], { code: '  ' })]),
        student('b', [numeric('ch1.bandwidth', 0, 10), code('ch2.fuse', 20, 20)]),
        student('c', [numeric('ch1.bandwidth', 10, 10), code('ch2.fuse', 5, 20, ['edge'])]),
      ],
    };
    const d = Object.fromEntries((await exerciseDistributions(cls, mean)).map((e) => [e.id, e]));
    assert.deepEqual([d['ch1.bandwidth'].attempted, d['ch1.bandwidth'].failed, d['ch1.bandwidth'].not_attempted], [2, 1, 1]);
    assert.deepEqual(d['ch1.bandwidth'].counts, { 'not attempted': 1, 'no points': 1, 'part of the points': 0, 'full points': 1 });
    assert.deepEqual([d['ch2.fuse'].attempted, d['ch2.fuse'].failed, d['ch2.fuse'].not_attempted], [2, 1, 1]);
  });

  it('does not count a right choice found on a later try (part of the points) as failed', async () => {
    const cls = { exercises: [EXERCISES[1]], students: [student('a', [{ ...choice('ch1.bound', 2.5, 5, 'memory'), correct: true }]), student('b', [choice('ch1.bound', 0, 5, 'compute')])] };
    const [d] = await exerciseDistributions(cls, mean);
    assert.deepEqual([d.attempted, d.failed, d.counts['part of the points'], d.counts['no points']], [2, 1, 1, 1]);
  });
});

// ---- over the real re-grade ----------------------------------------------------------------

const COURSE = { id: 'perf-summary', title: 'Summary test', salt: 'summary-salt', chapters: ['profiling', 'acceleration'] };
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
let lab;
let runner;
let bank;
let real; // gradeClass's result
let files; // the files as graded: {name, submission}

// A roofline run as the page records it: the probe's roofs on every row, each kernel at its
// intensity with the rate and the fraction of attainable core computed.
const rooflineRun = (peak, bandwidth) => [
  { build: 'simd', op: 'add', n: 1048576, intensity: 1 / 12, gflops_per_s: (bandwidth / 12) * 0.8, peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth, fraction_of_attainable: 0.8 },
  { build: 'simd', op: 'matmul', variant: 'packed', n: 256, intensity: 256 / 6, gflops_per_s: peak * 0.6, peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth, fraction_of_attainable: 0.6 },
];

before(async () => {
  ({ lab } = await loadNodeLab());
  bank = await lab.exerciseBank();
  runner = createCodeRunner({ workers: 2 });
  const make = (id) => generateSubmission(lab, COURSE, id, { skill: 0.5, timed: 0 });
  const [ada, bob, cy] = [await make('ada'), await make('bob'), await make('cy')];
  // Wrong values of profiling.adam-memory (within 0.5%): 12.11 and 12.1100001 are one value, 12.2 another.
  ada.exercises['profiling.adam-memory'] = { ...ada.exercises['profiling.adam-memory'], best_answer: { value: 12.11 } };
  bob.exercises['profiling.adam-memory'] = { ...bob.exercises['profiling.adam-memory'], best_answer: { value: 12.1100001 } };
  cy.exercises['profiling.adam-memory'] = { ...cy.exercises['profiling.adam-memory'], best_answer: { value: 12.2 } };
  for (const s of [ada, bob, cy]) Object.assign(s.exercises['profiling.adam-memory'], { best_score: 0, solved: false });
  // ada and bob answer acceleration.my-ridge from the same run with the same wrong values (the
  // same question); cy has no roofline run: only the probe.
  for (const s of [ada, bob]) {
    s.exercises['acceleration.my-ridge'] = { attempts: 1, solved: false, best_score: 0, best_answer: { values: [1, 1], evidence: { experiment: 'acceleration-roofline', rows: rooflineRun(80, 20) } }, best_code: null, last_answer: null, code: null, hints_used: 0 };
  }
  bob.exercises['acceleration.my-ridge'].best_answer.evidence.rows = rooflineRun(80, 20);
  delete cy.exercises['acceleration.my-ridge'];
  delete cy.exercises['acceleration.my-roofline-classify'];
  // cy did not attempt profiling.linear-params; bob claims points he has not got on it.
  delete cy.exercises['profiling.linear-params'];
  const entry = bob.exercises['profiling.linear-params'];
  bob.exercises['profiling.linear-params'] = { ...entry, best_answer: { value: 3 }, best_score: 10, solved: true };
  // Files named as the command line names them when given absolute paths, one under the home
  // folder, and a second file of ada's (a duplicate id whose flag names both files).
  const later = { ...structuredClone(ada), exported_at: '2026-11-21T09:00:00.000Z' };
  files = [
    { name: path.join(tmpdir(), 'perflab-class', 'ada.json'), submission: ada },
    { name: path.join(homedir(), 'Downloads', 'perflab-class', 'late', 'ada.json'), submission: later },
    { name: path.join(homedir(), 'Downloads', 'perflab-class', 'bob.json'), submission: bob },
    { name: path.join(repoRoot, 'cy.json'), submission: cy },
  ];
  const course = await lab.courseFromJson(COURSE);
  real = await gradeClass(files.map((f) => ({ name: f.name, text: JSON.stringify(f.submission) })), { lab, runCode: runner.runCode, course }, { concurrency: 2 });
});
after(() => runner?.close());

const rowOf = (id, exercise) => real.students.find((s) => s.in_gradebook && s.result.student.id === id).result.exercises.find((e) => e.id === exercise);

describe('class analytics over the real re-grade', () => {
  it('groups wrong values within the exercise\'s tolerance, with how many students and questions', async () => {
    for (const id of ['ada', 'bob', 'cy']) assert.equal(rowOf(id, 'profiling.adam-memory').correct, false, id);
    const wrong = await commonWrongValues(real, { bank, variantOf: lab.exerciseVariant, order: ['profiling.adam-memory', 'acceleration.my-ridge'] });
    const adam = wrong.find((w) => w.id === 'profiling.adam-memory');
    assert.equal(adam.wrong, 3);
    assert.deepEqual(adam.values, [
      { part: null, value: 12.11, test: null, students: 2, questions: 2 },
      { part: null, value: 12.2, test: null, students: 1, questions: 1 },
    ]);
    assert.equal(`${wrongValueText(adam.values[0])} (${wrongValueCount(adam.values[0])})`, '12.11 (2 students, 2 different questions)');
    // The same run and the same wrong values: one question; each part on its own.
    const ridge = wrong.find((w) => w.id === 'acceleration.my-ridge');
    const labels = bank.find((e) => e.id === 'acceleration.my-ridge').parts.map((p) => p.label);
    assert.deepEqual(ridge.values, labels.map((part) => ({ part, value: 1, test: null, students: 2, questions: 1 })));
    assert.equal(wrongValueCount(ridge.values[0]), '2 students, the same question');
  });

  it('counts a student with no answer as not attempted, apart from those who failed', async () => {
    const d = (await exerciseDistributions(real, mean)).find((e) => e.id === 'profiling.linear-params');
    assert.equal(d.not_attempted, 1); // cy
    assert.equal(d.attempted, 2);
    assert.ok(d.failed >= 1); // bob's forged answer at least
    assert.equal(d.counts['not attempted'], 1);
    const csv = analyticsCsv([d], []).split('\r\n');
    assert.deepEqual(csv[0].split(',').slice(3, 7), ['students', 'attempted', 'not_attempted', 'failed']);
    assert.deepEqual(csv[1].split(',').slice(3, 7), ['3', '2', '1', String(d.failed)]);
  });

  it('places one roofline point per student from their own run, the probe only for roofs', () => {
    const points = classRoofline(real);
    assert.deepEqual(points.map((p) => [p.student, p.roofs_from, p.kernel]), [['ada', 'roofline run', 'matmul packed N=256'], ['bob', 'roofline run', 'matmul packed N=256'], ['cy', 'probe', null]]);
    const ada = points[0];
    assert.deepEqual([ada.peak_gflops_per_s, ada.bandwidth_gb_per_s, ada.intensity, ada.gflops_per_s, ada.fraction_of_attainable], [80, 20, 256 / 6, 48, 0.6]);
    const cyProbe = files[3].submission.machine.probe;
    assert.deepEqual([points[2].peak_gflops_per_s, points[2].bandwidth_gb_per_s, points[2].intensity], [cyProbe.peak_gflops_per_s, cyProbe.bandwidth_gb_per_s, null]);
  });
});

describe('the feedback zip', () => {
  let entries;
  before(() => {
    const feedback = Object.fromEntries(Object.entries(classOutputs(real)).filter(([k]) => k.startsWith('feedback/')));
    entries = Object.fromEntries(Object.entries(unzipSync(zipTextFiles(feedback))).map(([name, bytes]) => [name, strFromU8(bytes)]));
  });

  it('holds one Markdown file per graded file', () => {
    assert.deepEqual(Object.keys(entries).sort(), ['feedback/ada-2.md', 'feedback/ada.md', 'feedback/bob.md', 'feedback/cy.md']);
  });

  it('names no path of the grading machine: no absolute path, home or temporary folder', () => {
    const forbidden = [homedir(), tmpdir(), repoRoot, 'Downloads/', 'perflab-class/'];
    for (const [name, text] of Object.entries(entries)) {
      for (const f of forbidden) assert.ok(!text.includes(f), `${name} names ${f}`);
      assert.doesNotMatch(text, /(^|[\s(,])(\/[\w.-]+){2,}|[A-Za-z]:\\|~\//, name);
    }
    // The duplicate's note still says which file counts, by its name.
    assert.match(entries['feedback/ada.md'], /duplicate-student: 2 files for student id "ada": ada\.json, ada\.json; the gradebook takes ada\.json/);
    assert.match(entries['feedback/cy.md'], /Re-graded from cy\.json with the exercise bank/);
  });

  it('shows only the exercises attempted, each with its score, feedback and flags, and one line for the rest', () => {
    const cy = entries['feedback/cy.md'];
    const cyResult = real.students.find((s) => s.result.student.id === 'cy').result;
    const attempted = Object.keys(files[3].submission.exercises).filter((id) => cyResult.exercises.some((e) => e.id === id));
    const headed = [...cy.matchAll(/^### .* \(([a-z0-9.-]+)\)$/gm)].map((m) => m[1]);
    assert.deepEqual(headed.sort(), attempted.sort());
    assert.ok(!headed.includes('profiling.linear-params'));
    const rest = cyResult.exercises.map((e) => e.id).filter((id) => !attempted.includes(id));
    assert.ok(rest.length > 0);
    assert.ok(cy.includes(`Not attempted: ${rest.length} exercises (0 points each): ${rest.join(', ')}.`), cy.split('\n').at(-2));
    const section = (text, id) => text.slice(text.indexOf(`(${id})\n`), text.indexOf('\n### ', text.indexOf(`(${id})\n`)) >>> 0 || undefined);
    assert.match(section(cy, 'profiling.adam-memory'), /Score: 0 of \d+\..*\n\n(Too|Not)/);
    // bob's forged claim is noted under the exercise it concerns.
    assert.match(section(entries['feedback/bob.md'], 'profiling.linear-params'), /Score: 0 of 10 \(the page showed 10\)[\s\S]*Notes from the re-grade:\n\n- score-differs: profiling\.linear-params: the file claims 10 of 10/);
  });

  it('refuses a path that would leave the archive, and no files at all', () => {
    assert.throws(() => zipTextFiles({ '../x.md': 'x' }), /zipTextFiles: "\.\.\/x\.md" is not a relative path/);
    assert.throws(() => zipTextFiles({ '/x.md': 'x' }), /is not a relative path/);
    assert.throws(() => zipTextFiles({}), /there are no files/);
    assert.throws(() => zipTextFiles({ 'a.md': 1 }), /the text of a\.md must be a string, got number/);
  });
});
