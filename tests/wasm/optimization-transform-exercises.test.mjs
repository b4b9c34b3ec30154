// The Optimization chapter's exercises on its transforms through the wasm grader the page runs,
// in both Node builds: the reference quantizeInt8 and csrMatVec (optimization-transform-
// solutions.mjs) run by the page's sandbox runner on core's hidden tests pass them, halves
// rounded up and a row loop one entry too long do not, and no failed test shows the expected
// value; the timed CSR test reports both medians against the dense loop (its speed is not
// asserted); the numeric exercises answer right or wrong only, the choices are shuffled per
// seed; and the sparsity-line exercise grades from the rows it is sent. Which answers are
// right is core's business (tests/core/test_exercises_optimization_transforms.cpp).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { TRANSFORM_MISTAKES, TRANSFORM_SOLUTIONS } from '../js/optimization-transform-solutions.mjs';
import { BUILDS, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));

const INT8 = 'optimization.quantize-int8';
const CSR = 'optimization.csr-matvec';
const LINE = 'optimization.my-sparse-line';

// A sweep's rows as the page keeps them (the fields the exercise reads), crossing 1× between
// 10% and 15%.
const SWEEP = [0.05, 0.1, 0.15, 0.3].map((density, i) => ({ variant: 'batched', batch: 64, in: 784, out: 256, density, speedup: [2.6, 1.3, 0.8, 0.4][i] }));

for (const [b, build] of BUILDS.entries()) {
  describe(`Optimization transform exercises in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const bank = m.exerciseBank().filter((e) => e.chapter === 'optimization');
    const exercise = (id) => bank.find((e) => e.id === id);
    const run = (id, seed, code, only) => {
      const { tests } = m.exerciseVariant(id, seed);
      const picked = only ? tests.filter(only) : tests;
      return { tests, results: runStudentTests({ code, functionName: exercise(id).function_name, tests: picked }) };
    };

    it('grades the reference quantizeInt8 full marks and halves rounded up wrong, without showing the answer', () => {
      for (const seed of [0, 7, 2026]) {
        const { results } = run(INT8, seed, TRANSFORM_SOLUTIONS[INT8]);
        const right = m.gradeExercise(INT8, seed, { results });
        assert.equal(right.correct, true, JSON.stringify(right.tests));
        assert.equal(right.score, exercise(INT8).points);
      }
      const wrong = m.gradeExercise(INT8, 7, { results: run(INT8, 7, TRANSFORM_MISTAKES[INT8]).results });
      assert.equal(wrong.correct, false);
      const failed = wrong.tests.filter((t) => !t.passed);
      // Only the values halfway between two codes (a hidden test, named by its number).
      assert.deepEqual(failed.map((t) => wrong.tests.indexOf(t)), [4]);
      assert.deepEqual(failed.map((t) => t.name), ['hidden test 3']);
      for (const t of failed) assert.doesNotMatch(t.message, /expected/);
    });

    it('passes the reference csrMatVec through every hidden test and times it against the dense loop', () => {
      const { tests, results } = run(CSR, 3, TRANSFORM_SOLUTIONS[CSR]);
      const graded = m.gradeExercise(CSR, 3, { results });
      const timed = tests.findIndex((t) => t.benchmark);
      assert.equal(timed, tests.length - 1);
      assert.equal(tests[timed].benchmark.reference, 'dense-matvec');
      for (const [i, t] of graded.tests.entries()) if (i !== timed) assert.equal(t.passed, true, t.message);
      // Its speed is the machine's business; its form is the grader's.
      assert.match(graded.tests[timed].message, /: yours [\d.e+-]+ ms, the dense loop [\d.e+-]+ ms \(medians of 5 interleaved rounds at N = \d+; each round: yours .* ms\): (only )?[\d.]+× as fast/);
    });

    it('fails a row loop that runs one entry too far, in the hidden tests and in the timed one', () => {
      const { results } = run(CSR, 3, TRANSFORM_MISTAKES[CSR]);
      const graded = m.gradeExercise(CSR, 3, { results });
      assert.equal(graded.correct, false);
      assert.ok(graded.tests.filter((t) => !t.passed).length >= 3, JSON.stringify(graded.tests));
      assert.match(graded.tests.at(-1).message, /your result differs from the dense loop's/);
      for (const t of graded.tests) assert.doesNotMatch(t.message, /expected/);
    });

    it('answers a wrong number without a direction, and draws other variants for other seeds', () => {
      const mine = bank.filter((e) => e.id !== LINE && e.kind === 'numeric' && [
        'optimization.activation-range', 'optimization.int8-bytes', 'optimization.csr-bytes',
        'optimization.distillation-loss', 'optimization.kv-cache', 'optimization.structured-prune',
      ].includes(e.id));
      assert.ok(mine.length >= 5, mine.map((e) => e.id).join());
      for (const e of mine) {
        const answer = e.parts.length ? { values: e.parts.map(() => 1e9) } : { value: 1e9 };
        const graded = m.gradeExercise(e.id, 3, answer);
        assert.equal(graded.correct, false);
        const feedback = e.parts.length ? graded.parts.map((p) => p.feedback) : [graded.feedback];
        for (const f of feedback) assert.match(f, /^Not correct: the answer must be/, e.id);
        const prompts = new Set([1, 2, 3, 4, 5, 6].map((seed) => m.exerciseVariant(e.id, seed).prompt));
        assert.ok(prompts.size >= 4, `${e.id}: ${prompts.size} distinct prompts of 6`);
      }
    });

    it('shows the choice exercises with four choices and two statements that change from try to try', () => {
      for (const id of ['optimization.sparse-slower', 'optimization.per-channel-scales']) {
        assert.ok(exercise(id).choices.length >= 4, id);
        const statements = new Set([1, 2, 3].map((t) => m.choiceVariant(id, 6, t).params.statement_1));
        assert.equal(statements.size, 3, `${id}: try 1, 2 and 3 open with different statements`);
      }
    });

    it('grades the sparsity-line exercise from the rows sent, and says what to run when they never cross', () => {
      assert.equal(exercise(LINE).evidence.experiment, 'optimization-sparsity');
      // The rows bracketing 1×: (10%, 1.3) and (15%, 0.8); the line reaches 0.5 at 18%.
      const d = 100 * (0.1 + (0.15 - 0.1) * (1.3 - 0.5) / (1.3 - 0.8));
      const evidence = { experiment: 'optimization-sparsity', rows: SWEEP };
      assert.equal(m.gradeExercise(LINE, 1, { value: d, evidence }).correct, true);
      assert.equal(m.gradeExercise(LINE, 1, { value: 12.5, evidence }).correct, false);
      const faster = SWEEP.map((r) => ({ ...r, speedup: r.speedup + 2 }));
      assert.throws(() => m.gradeExercise(LINE, 1, { value: d, evidence: { experiment: 'optimization-sparsity', rows: faster } }),
        /no crossover \(sparse was faster at every density measured.*run it again at batch 64/);
    });
  });
}
