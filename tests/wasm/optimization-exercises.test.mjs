// The Optimization chapter's exercises through the wasm grader the page runs, in both Node
// builds: a stable meanCrossEntropy (tests/js/grading-generate.mjs's reference solution) run
// by the page's sandbox runner on core's hidden tests scores full marks, the textbook formula
// (overflowing on huge logits) and a sum over the rows do not, and no failed test shows the
// expected value; the numeric exercises answer right or wrong only, never "Too high"; and the
// variants differ between seeds. Which answers are right is core's business
// (tests/core/test_exercises_optimization.cpp).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { SOLUTIONS } from '../js/grading-generate.mjs';
import { BUILDS, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));

const STABLE = SOLUTIONS['optimization.cross-entropy'];
const NAIVE = `function meanCrossEntropy(logits, labels) {
  let total = 0;
  logits.forEach((row, i) => {
    const sum = row.reduce((s, x) => s + Math.exp(x), 0);
    total -= Math.log(Math.exp(row[labels[i]]) / sum);
  });
  return total / logits.length;
}`;
const SUMMED = STABLE.replace('return total / logits.length;', 'return total;');

for (const [b, build] of BUILDS.entries()) {
  describe(`Optimization exercises in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const bank = m.exerciseBank().filter((e) => e.chapter === 'optimization');
    const exercise = (id) => bank.find((e) => e.id === id);
    const gradeCode = (seed, code) => {
      const id = 'optimization.cross-entropy';
      const { tests } = m.exerciseVariant(id, seed);
      const results = runStudentTests({ code, functionName: exercise(id).function_name, tests });
      return m.gradeExercise(id, seed, { results });
    };

    it('opens with four exercises, and every exercise\'s scoring says the feedback hides the answer', () => {
      // The chapter's later exercises are checked by their own test files.
      assert.deepEqual(bank.map((e) => e.id).slice(0, 4), [
        'optimization.optimizer-state',
        'optimization.cross-entropy',
        'optimization.confusion',
        'optimization.training-steps',
      ]);
      // A choice's feedback is right or wrong by nature; its scoring speaks of tries instead.
      for (const e of bank.filter((x) => x.kind !== 'choice')) assert.match(e.scoring, /not which way a number is off|not the value expected/, e.id);
    });

    it('grades a stable meanCrossEntropy full marks and the naive formula or a sum wrong', () => {
      for (const seed of [0, 7, 2026]) {
        const right = gradeCode(seed, STABLE);
        assert.equal(right.correct, true, JSON.stringify(right.tests));
        assert.equal(right.score, 15);
      }
      const naive = gradeCode(7, NAIVE);
      assert.equal(naive.correct, false);
      const failed = naive.tests.filter((t) => !t.passed);
      // The huge logits (a hidden test: named by its number, its message the property only).
      assert.equal(naive.tests[3].passed, false, JSON.stringify(failed));
      assert.match(naive.tests[3].message, /^hidden test 2: failed: /);
      assert.doesNotMatch(naive.tests[3].message, /called as|\d{3}/);
      for (const t of failed) assert.doesNotMatch(t.message, /expected/);
      assert.equal(gradeCode(7, SUMMED).correct, false);
    });

    it('answers a wrong number without a direction, and draws other numbers for other seeds', () => {
      // Experiment-backed ones grade from a run's rows (their own test files send them).
      for (const e of bank.filter((x) => x.kind === 'numeric' && !x.evidence?.experiment)) {
        const graded = m.gradeExercise(e.id, 3, e.parts.length ? { values: e.parts.map(() => 1e9) } : { value: 1e9 });
        assert.equal(graded.correct, false);
        const feedback = e.parts.length ? graded.parts.map((p) => p.feedback) : [graded.feedback];
        for (const f of feedback) assert.match(f, /^Not correct: the answer must be/, e.id);
        const prompts = new Set([1, 2, 3, 4, 5].map((seed) => m.exerciseVariant(e.id, seed).prompt));
        assert.ok(prompts.size >= 4, `${e.id}: ${prompts.size} distinct prompts of 5`);
      }
    });
  });
}
