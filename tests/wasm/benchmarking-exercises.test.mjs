// The Benchmarking chapter's exercises through the wasm grader the page runs, in both Node
// builds: reference JavaScript solutions (tests/js/benchmarking-solutions.mjs) run by the
// page's sandbox runner on core's hidden tests score full marks, a wrong one does not; and the
// experiment-backed exercises are graded from raw samples sent as the page sends its rows
// (arrays of times cross the binding; a NaN arrives as null and is reported by row and index).
// Which answers are right is core's business (tests/core/test_exercises_benchmarking.cpp).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import {
  BOOTSTRAP,
  BOOTSTRAP_MEAN,
  CLASSIFY,
  CLASSIFY_BY_SLOPE,
  SCHEDULE,
  generatorOf,
} from '../js/benchmarking-solutions.mjs';
import { BUILDS, loadPerflab, loadPerflabGrade } from './perflab_module.mjs';

// The grading module grades; the main module's compareSamples gives one test its expected figures.
const modules = await Promise.all(BUILDS.map(loadPerflabGrade));
const mainModules = await Promise.all(BUILDS.map(loadPerflab));

const median = (values) => {
  const s = [...values].sort((x, y) => x - y);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

// An A/A or A/B row as the page's runAB sweep point produces it (the page's comparison is
// deliberately wrong apart from its seed: core recomputes it from a_ms and b_ms).
const abRow = (a_ms, b_ms, seed, mode = 'interleaved') => ({
  op: 'matmul', variant_a: 'simd', variant_b: 'simd', n: 64, mode, a_ms, b_ms,
  comparison: { seed, verdict: { name: 'slower', sentence: 'not read' }, ratio: 99 },
});
const SAME = [10, 11, 12, 13, 14, 15];
const SLOW = [20, 21, 22, 23, 24, 25];

for (const [b, build] of BUILDS.entries()) {
  describe(`Benchmarking exercises in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const bank = m.exerciseBank().filter((e) => e.chapter === 'benchmarking');
    const exercise = (id) => bank.find((e) => e.id === id);

    // bootstrapCI and interleavedSchedule come with the starter code's mulberry32.
    const gradeCode = (id, seed, solution, generator = true) => {
      const code = generator ? `${solution}\n${generatorOf(exercise(id).starter_code)}` : solution;
      const { tests } = m.exerciseVariant(id, seed);
      const results = runStudentTests({ code, functionName: exercise(id).function_name, tests });
      return m.gradeExercise(id, seed, { results });
    };

    it('holds fourteen exercises, 180 points, the capstone worth 20', () => {
      assert.equal(bank.length, 14);
      assert.equal(bank.reduce((sum, e) => sum + e.points, 0), 180);
      assert.equal(exercise('benchmarking.ab-capstone').points, 20);
      assert.deepEqual(
        bank.filter((e) => e.evidence).map((e) => e.evidence.experiment),
        ['benchmarking-aa', 'benchmarking-complexity', 'benchmarking-ab'],
      );
    });

    it('grades the reference solutions of the code exercises full marks', () => {
      for (const seed of [0, 3, 42]) {
        for (const [id, solution, generator] of [
          ['benchmarking.bootstrap-ci', BOOTSTRAP, true],
          ['benchmarking.interleaved-schedule', SCHEDULE, true],
          ['benchmarking.classify-complexity', CLASSIFY, false],
        ]) {
          const graded = gradeCode(id, seed, solution, generator);
          assert.equal(graded.correct, true, `${id} seed ${seed}: ${JSON.stringify(graded.tests)}`);
          assert.equal(graded.score, graded.max_score);
        }
      }
      assert.equal(gradeCode('benchmarking.bootstrap-ci', 3, BOOTSTRAP_MEAN).correct, false);
      assert.equal(gradeCode('benchmarking.classify-complexity', 3, CLASSIFY_BY_SLOPE, false).correct, false);
    });

    it('counts the A/A rows whose recomputed p is below alpha and whose interval excludes 1, not the page verdicts', () => {
      const evidence = { experiment: 'benchmarking-aa', rows: [abRow(SAME, SAME, 1), abRow(SLOW, SAME, 2)] };
      assert.equal(m.gradeExercise('benchmarking.aa-false-positives', 4, { values: [1, 1], evidence }).correct, true);
      assert.equal(m.gradeExercise('benchmarking.aa-false-positives', 4, { values: [2, 2], evidence }).correct, false);
    });

    it('grades the capstone from the interleaved row\'s rounds: paired ratios, B\'s wins, the rounds A ran first', () => {
      const a = [12.1, 12.3, 12.5, 12.6, 12.9, 12.4, 12.7, 12.2];
      const bMs = [9.8, 10.1, 10.0, 9.9, 13.0, 10.05, 9.95, 10.3];
      const a_first = mainModules[b].abRoundOrder('interleaved', 8, 77);
      const rows = [abRow(bMs, a, 3, 'sequential'), { ...abRow(a, bMs, 77), a_first }];
      const led = a_first.flatMap((first, r) => (first ? [r] : []));
      const values = [median(a.map((x, r) => x / bMs[r])), 7, median(led.map((r) => a[r])) / median(led.map((r) => bMs[r]))];
      const evidence = { experiment: 'benchmarking-ab', rows };
      assert.equal(m.gradeExercise('benchmarking.ab-capstone', 1, { values, evidence }).correct, true);
      // Every round counted as a win for B (round 5 is A's): that part alone is wrong.
      const miscounted = m.gradeExercise('benchmarking.ab-capstone', 1, { values: [values[0], 8, values[2]], evidence });
      assert.deepEqual(miscounted.parts.map((p) => p.correct), [true, false, true]);
    });

    it('gives the naive matmul\'s local slopes between its smallest and its largest sizes', () => {
      const row = (n, ms) => ({ op: 'matmul', variant: 'naive', n, samples_ms: [ms, ms * 0.9, ms * 2] });
      const rows = [row(16, 1), row(32, 8), row(64, 64), { op: 'gelu', variant: 'fused-simd', n: 1024, samples_ms: [1, 1, 1] }];
      const evidence = { experiment: 'benchmarking-complexity', rows };
      assert.equal(m.gradeExercise('benchmarking.complexity-slope', 1, { values: [3, 3], evidence }).correct, true);
      assert.equal(m.gradeExercise('benchmarking.complexity-slope', 1, { values: [2, 3], evidence }).correct, false);
    });

    it('reports a NaN sample by row and index, and says what to run when a mode is missing', () => {
      const nan = { experiment: 'benchmarking-aa', rows: [abRow([1, 2, NaN, 4, 5], SAME, 1)] };
      assert.throws(() => m.gradeExercise('benchmarking.aa-false-positives', 1, { values: [0, 0], evidence: nan }), {
        message: 'answer.evidence.rows[0].a_ms[2] must be a finite number >= 0, got null; run the A/A experiment again',
      });
      const sequentialOnly = { experiment: 'benchmarking-ab', rows: [abRow(SAME, SAME, 1, 'sequential')] };
      assert.throws(() => m.gradeExercise('benchmarking.ab-capstone', 1, { values: [1, 1, 1], evidence: sequentialOnly }), {
        message: 'your run of the A/B experiment has no row with mode interleaved (it has sequential); run the A/B experiment with the interleaved mode first',
      });
    });
  });
}
