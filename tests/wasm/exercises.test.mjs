// The exercise bindings round-trip through JSON in both Node builds: the bank hides the
// answers, a variant is the same for the same seed, right answers computed here from the
// variant's parameters grade as correct, wrong ones do not, and malformed answers are Errors.
// Which answers are right is core's business (tests/core); this file checks the plumbing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));

const median = (values) => {
  const s = [...values].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

for (const [b, build] of BUILDS.entries()) {
  describe(`exercises in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const bank = m.exerciseBank();

    it('lists the bank without answers', () => {
      assert.ok(bank.length >= 1);
      for (const exercise of bank) {
        assert.equal(typeof exercise.id, 'string');
        assert.ok(['numeric', 'choice', 'code'].includes(exercise.kind), exercise.kind);
        for (const key of ['answer', 'expected', 'expected_value', 'correct_choice', 'solution']) {
          assert.ok(!(key in exercise), `${exercise.id} exposes ${key}`);
        }
      }
    });

    it('draws the same variant for the same seed, at both ends of the seed range', () => {
      for (const { id, kind } of bank) {
        for (const seed of [0, 1, 12345, 2 ** 32 - 1]) {
          const v = m.exerciseVariant(id, seed);
          assert.deepEqual(m.exerciseVariant(id, seed), v);
          assert.equal(v.id, id);
          assert.equal(v.seed, seed);
          assert.equal(typeof v.prompt, 'string');
          assert.equal(typeof v.params, 'object');
          if (kind === 'choice') assert.ok(Array.isArray(v.choices) && v.choices.length >= 2);
          if (kind === 'code') assert.ok(Array.isArray(v.tests) && v.tests.length >= 1);
        }
      }
      // Parameters depend on the seed (for an exercise that has any).
      const params = new Set([1, 2, 3, 4, 5].map(
        (seed) => JSON.stringify(m.exerciseVariant('profiling.linear-params', seed).params)));
      assert.ok(params.size > 1);
    });

    it('grades a numeric answer computed from the variant', () => {
      const id = 'profiling.linear-params';
      const { params } = m.exerciseVariant(id, 42);
      const right = params.in * params.out + params.out; // weights + bias
      const graded = m.gradeExercise(id, 42, { value: right });
      assert.deepEqual(Object.keys(graded).sort(),
                       ['correct', 'feedback', 'max_score', 'score', 'tests']);
      assert.equal(graded.correct, true);
      assert.equal(graded.score, graded.max_score);
      const wrong = m.gradeExercise(id, 42, { value: right * 2 });
      assert.equal(wrong.correct, false);
      assert.equal(wrong.score, 0);
      assert.equal(typeof wrong.feedback, 'string');
    });

    it('grades exactly one choice of a choice exercise as correct', () => {
      // Experiment-backed choices are graded from a run's rows: here a machine with ridge 4.
      const rows = [{ op: 'matmul', n: 64, peak_gflops_per_s: 48, bandwidth_gb_per_s: 12 }];
      for (const { id, evidence } of bank.filter((e) => e.kind === 'choice')) {
        const { choices } = m.exerciseVariant(id, 9);
        const extra = evidence ? { evidence: { experiment: evidence.experiment, rows } } : {};
        const correct = choices.map((_, choice) => m.gradeExercise(id, 9, { choice, ...extra }).correct);
        assert.equal(correct.filter(Boolean).length, 1, `${id}: ${correct}`);
      }
    });

    it('grades code results per test, with partial credit', () => {
      const id = 'profiling.median';
      const { tests } = m.exerciseVariant(id, 5);
      const results = tests.map((t) => ({ value: median(t.args[0]) }));
      const all = m.gradeExercise(id, 5, { results });
      assert.equal(all.correct, true);
      assert.equal(all.score, all.max_score);
      assert.equal(all.tests.length, tests.length);
      assert.ok(all.tests.every((t) => t.passed));

      results[0] = { error: 'TypeError: times.sort is not a function' };
      results[1] = { timeout: true };
      const some = m.gradeExercise(id, 5, { results });
      assert.equal(some.correct, false);
      assert.ok(some.score > 0 && some.score < some.max_score, `score ${some.score}`);
      assert.deepEqual(some.tests.map((t) => t.passed).slice(0, 2), [false, false]);
    });

    it('rejects malformed answers with clear Errors', () => {
      const cases = [
        ['profiling.linear-params', {}, 'answer.value is missing; it must be a finite number'],
        ['profiling.linear-params', { value: '12' },
         'answer.value must be a finite number, got "12"'],
        ['profiling.linear-params', 5, 'answer must be an object like {"value": 42}, got 5'],
        ['profiling.linear-params', () => 1,
         'answer must be a JSON value such as an object, got a function'],
        ['profiling.median', { results: [] }, `answer.results must have ${
          m.exerciseVariant('profiling.median', 3).tests.length} entries, one per test, got 0`],
      ];
      for (const [id, answer, message] of cases) {
        assert.throws(() => m.gradeExercise(id, 3, answer), { message });
      }
    });
  });
}

// Experiment-backed answers cross the binding with their rows; a NaN a measurement produced
// arrives as null and is reported by core with the row and field.
for (const [b, build] of BUILDS.entries()) {
  describe(`experiment-backed exercises in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const rows = [
      { batch_size: 1, samples_per_s: 400 },
      { batch_size: 32, samples_per_s: 1300 },
    ];
    it('grades from the rows sent with the answer', () => {
      const evidence = { experiment: 'profiling-batch-size', rows };
      assert.equal(m.gradeExercise('profiling.batch-throughput', 1, { value: 3.25, evidence }).correct, true);
      assert.equal(m.gradeExercise('profiling.batch-throughput', 1, { value: 2, evidence }).correct, false);
    });
    it('reports a non-finite measurement by row and field, and stays usable', () => {
      const evidence = { experiment: 'profiling-batch-size', rows: [rows[0], { batch_size: 32, samples_per_s: NaN }] };
      assert.throws(
        () => m.gradeExercise('profiling.batch-throughput', 1, { value: 3, evidence }),
        { message: 'answer.evidence.rows[1].samples_per_s must be a finite number above 0, got null; run the batch-size experiment again' },
      );
      assert.equal(m.exerciseVariant('profiling.batch-throughput', 1).id, 'profiling.batch-throughput');
    });
  });
}
