// Protects what the instructor view says about a graded class (grading/summary.js), on a
// hand-made gradeClass result whose numbers can be checked by eye: exercises ordered hardest
// first by the mean fraction of points (ties by id), the band counts, the common wrong
// answers with their tallies and order, and one machine point per gradebook student.
// Core's mean is stood in for by the arithmetic mean; the real one is tested in tests/wasm.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { classMachines, commonWrongAnswers, distributionRows, exerciseDistributions } from '../../web/src/grading/summary.js';

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
    assert.deepEqual(counts['ch1.bandwidth'], { 'no points': 1, 'part of the points': 2, 'full points': 1 });
    assert.deepEqual(counts['ch2.fuse'], { 'no points': 1, 'part of the points': 3, 'full points': 0 });
    assert.deepEqual(counts['ch2.ridge'], { 'no points': 0, 'part of the points': 0, 'full points': 4 });
    const rows = distributionRows(d);
    assert.equal(rows.length, 4 * 3);
    assert.deepEqual(rows[0], { exercise: 'ch2.fuse', title: 'Fuse it', band: 'no points', students: 1 });
  });

  it('with no gradebook student, gives no means and orders by id', async () => {
    const d = await exerciseDistributions({ ...graded, students: graded.students.map((s) => ({ ...s, in_gradebook: false })) }, mean);
    assert.deepEqual(d.map((e) => [e.id, e.mean, e.fractions.length]), [['ch1.bandwidth', null, 0], ['ch1.bound', null, 0], ['ch2.fuse', null, 0], ['ch2.ridge', null, 0]]);
  });
});

describe('commonWrongAnswers', () => {
  it('tallies what wrong answers had, most common first, ties by text, in the given order', () => {
    const wrong = commonWrongAnswers(graded, ['ch2.fuse', 'ch1.bandwidth', 'ch1.bound', 'ch2.ridge']);
    assert.deepEqual(wrong, [
      {
        id: 'ch2.fuse',
        title: 'Fuse it',
        wrong: 4,
        answers: [
          { text: 'fails the test “edge”', students: 3 },
          { text: 'fails the test “large”', students: 3 },
        ],
      },
      {
        id: 'ch1.bandwidth',
        title: 'Bandwidth',
        wrong: 3,
        answers: [
          { text: 'too low by 2x', students: 2 },
          { text: 'the answer could not be graded', students: 1 },
        ],
      },
      { id: 'ch1.bound', title: 'Which bound', wrong: 2, answers: [{ text: 'chose “compute”', students: 2 }] },
      // ch2.ridge: every gradebook student is right, so it is not listed.
    ]);
  });

  it('keeps at most `limit` answers per exercise and skips exercises outside the order', () => {
    const wrong = commonWrongAnswers(graded, ['ch2.fuse'], { limit: 1 });
    assert.deepEqual(wrong, [{ id: 'ch2.fuse', title: 'Fuse it', wrong: 4, answers: [{ text: 'fails the test “edge”', students: 3 }] }]);
  });

  it('names each wrong part of a multi-part answer, and counts a student once per key', () => {
    const parts = [
      { label: 'peak', correct: false, feedback: 'too high' },
      { label: 'bandwidth', correct: true, feedback: 'ok' },
      { label: 'ridge', correct: false, feedback: 'too high' },
    ];
    const cls = {
      exercises: [EXERCISES[0]],
      students: [
        student('a', [numeric('ch1.bandwidth', 3, 10, { parts })]),
        student('b', [numeric('ch1.bandwidth', 0, 10, { parts: [parts[0], parts[0]] })]),
        // Not answered: nothing to say about it, and not counted as a wrong answer.
        student('c', [numeric('ch1.bandwidth', 0, 10, { answer: null })]),
      ],
    };
    assert.deepEqual(commonWrongAnswers(cls), [
      {
        id: 'ch1.bandwidth',
        title: 'Bandwidth',
        wrong: 2,
        answers: [
          { text: 'peak: too high', students: 2 },
          { text: 'ridge: too high', students: 1 },
        ],
      },
    ]);
  });
});

describe('classMachines', () => {
  it('gives one point per gradebook student with a whole probe, in class order', () => {
    assert.deepEqual(classMachines(graded), [
      { student: 's1', file: 's1.json', peak_gflops_per_s: 40, bandwidth_gb_per_s: 20, cores: 8, build: 'simd' },
      { student: 's3', file: 's3.json', peak_gflops_per_s: 12, bandwidth_gb_per_s: 6, cores: null, build: null },
    ]);
  });

  it('skips students whose file has no machine at all', () => {
    assert.deepEqual(classMachines({ exercises: [], students: [student('x', []), { ...student('y', []), submission: undefined }] }), []);
  });
});
