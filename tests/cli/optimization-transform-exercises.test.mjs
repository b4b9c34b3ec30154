// Protects the Optimization chapter's transform exercises through the native CLI, the
// instructor's re-grader: the reference quantizeInt8 (tests/js/optimization-transform-
// solutions.mjs) run by the page's sandbox runner on the hidden tests core draws is graded
// full marks by `perflab grade`, halves rounded up are not; the reference csrMatVec passes
// every untimed test and the same C++ judges its timed test against the dense loop (the speed
// itself is not asserted); and the sparsity-line exercise grades from the rows it is given.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { TRANSFORM_MISTAKES, TRANSFORM_SOLUTIONS } from '../js/optimization-transform-solutions.mjs';
import { perflab } from './cli.mjs';

const bank = JSON.parse(perflab('exercises').stdout).filter((e) => e.chapter === 'optimization');
const grade = (id, seed, answer) => JSON.parse(perflab('grade', id, String(seed), JSON.stringify(answer)).stdout);
const results = (id, seed, code) => {
  const variant = JSON.parse(perflab('variant', id, String(seed)).stdout);
  const functionName = bank.find((e) => e.id === id).function_name;
  return runStudentTests({ code, functionName, tests: variant.tests });
};

test('perflab grade scores the reference quantizeInt8 full marks and halves rounded up wrong', () => {
  const id = 'optimization.quantize-int8';
  for (const seed of [1, 42]) {
    const graded = grade(id, seed, { results: results(id, seed, TRANSFORM_SOLUTIONS[id]) });
    assert.equal(graded.correct, true, JSON.stringify(graded.tests));
    assert.equal(graded.score, bank.find((e) => e.id === id).points);
  }
  const wrong = grade(id, 42, { results: results(id, 42, TRANSFORM_MISTAKES[id]) });
  assert.equal(wrong.correct, false);
});

test('perflab grade passes the reference csrMatVec on every untimed test and judges the timed one', () => {
  const id = 'optimization.csr-matvec';
  const graded = grade(id, 9, { results: results(id, 9, TRANSFORM_SOLUTIONS[id]) });
  for (const t of graded.tests.slice(0, -1)) assert.equal(t.passed, true, t.message);
  assert.match(graded.tests.at(-1).message, /the dense loop [\d.e+-]+ ms \(medians of 5 interleaved rounds/);
  const wrong = grade(id, 9, { results: results(id, 9, TRANSFORM_MISTAKES[id]) });
  assert.equal(wrong.correct, false);
});

test('perflab grade reads the sparsity-line answer from the rows it is given', () => {
  const rows = [0.05, 0.2, 0.5, 1].map((density, i) => ({ batch: 64, in: 784, out: 256, density, speedup: [3, 1.5, 0.9, 0.45][i] }));
  const evidence = { experiment: 'optimization-sparsity', rows };
  const d = 100 * (0.2 + (0.5 - 0.2) * (1.5 - 0.5) / (1.5 - 0.9));
  assert.equal(grade('optimization.my-sparse-line', 4, { value: d, evidence }).correct, true);
  assert.equal(grade('optimization.my-sparse-line', 4, { value: 40, evidence }).correct, false);
});
