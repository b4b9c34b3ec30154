// Protects the Optimization chapter through the native CLI, the instructor's re-grader: it
// lists the chapter's exercises, and a stable meanCrossEntropy (the reference solution in
// tests/js/grading-generate.mjs) run by the page's sandbox runner on the hidden tests core
// draws is graded full marks by `perflab grade`, the same C++ the page's wasm runs; a wrong
// number is answered without a direction.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { SOLUTIONS } from '../js/grading-generate.mjs';
import { perflab } from './cli.mjs';

const bank = JSON.parse(perflab('exercises').stdout).filter((e) => e.chapter === 'optimization');

test('perflab exercises lists the Optimization chapter', () => {
  // The chapter's first four; the later ones are checked by their own test files.
  assert.deepEqual(bank.map((e) => e.id).slice(0, 4), [
    'optimization.optimizer-state',
    'optimization.cross-entropy',
    'optimization.confusion',
    'optimization.training-steps',
  ]);
});

test('perflab grade scores a stable meanCrossEntropy full marks on core\'s hidden tests', () => {
  const id = 'optimization.cross-entropy';
  for (const seed of [1, 42]) {
    const variant = JSON.parse(perflab('variant', id, String(seed)).stdout);
    const results = runStudentTests({ code: SOLUTIONS[id], functionName: 'meanCrossEntropy', tests: variant.tests });
    const r = perflab('grade', id, String(seed), JSON.stringify({ results }));
    const grade = JSON.parse(r.stdout);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 15);
  }
});

test('perflab grade answers a wrong number right or wrong only', () => {
  const r = perflab('grade', 'optimization.training-steps', '5', JSON.stringify({ values: [1, 1, 1, 1] }));
  const grade = JSON.parse(r.stdout);
  assert.equal(grade.correct, false);
  for (const part of grade.parts) assert.match(part.feedback, /^Not correct: the answer must be/);
});
