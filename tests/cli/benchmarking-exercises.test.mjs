// Protects the Benchmarking chapter's code exercises end to end: reference JavaScript
// solutions (tests/js/benchmarking-solutions.mjs, with the starter code's own mulberry32) run
// through the page's sandbox runner (runStudentTests) on the hidden tests core draws, and
// core's grader (the native CLI, the same C++ the page's wasm runs) scores them full marks for
// several seeds; so core's expected values, computed in C++ with its copy of mulberry32 and
// its statistics, are what a correct JavaScript solution returns. Wrong solutions score less.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import {
  BOOTSTRAP,
  BOOTSTRAP_MEAN,
  BOOTSTRAP_UNSEEDED,
  CLASSIFY,
  CLASSIFY_BY_SLOPE,
  SCHEDULE,
  SCHEDULE_ALTERNATING,
  generatorOf,
} from '../js/benchmarking-solutions.mjs';
import { perflab } from './cli.mjs';

const SEEDS = [0, 1, 7, 42, 2026];

const bank = JSON.parse(perflab('exercises').stdout);
const exercise = (id) => bank.find((e) => e.id === id);
const withGenerator = (id, code) => `${code}\n${generatorOf(exercise(id).starter_code)}`;

/** Runs `code` on the variant's hidden tests in the sandbox runner and grades the results. */
function gradeCode(id, seed, code) {
  const variant = JSON.parse(perflab('variant', id, String(seed)).stdout);
  const results = runStudentTests({ code, functionName: exercise(id).function_name, tests: variant.tests });
  const r = perflab('grade', id, String(seed), JSON.stringify({ results }));
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { variant, results, grade: JSON.parse(r.stdout) };
}

test("a correct bootstrapCI scores full marks on core's tests for every seed", () => {
  const code = withGenerator('benchmarking.bootstrap-ci', BOOTSTRAP);
  for (const seed of SEEDS) {
    const { grade } = gradeCode('benchmarking.bootstrap-ci', seed, code);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 15);
  }
});

test('bootstrapCI with another generator or the mean of each resample is graded wrong', () => {
  const unseeded = gradeCode('benchmarking.bootstrap-ci', 1, withGenerator('benchmarking.bootstrap-ci', BOOTSTRAP_UNSEEDED));
  assert.equal(unseeded.grade.correct, false);
  const mean = gradeCode('benchmarking.bootstrap-ci', 1, withGenerator('benchmarking.bootstrap-ci', BOOTSTRAP_MEAN));
  assert.equal(mean.grade.correct, false);
  assert.match(mean.grade.tests.find((t) => !t.passed).message, /expected \[.*\], got \[/);
});

test('a correct interleavedSchedule scores full marks, and its schedules are balanced', () => {
  const code = withGenerator('benchmarking.interleaved-schedule', SCHEDULE);
  for (const seed of SEEDS) {
    const { grade, results, variant } = gradeCode('benchmarking.interleaved-schedule', seed, code);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 10);
    results.forEach(({ value }, i) => {
      assert.equal(value.length, variant.tests[i].args[0]);
      assert.equal(value.filter((round) => round[0] === 'A').length * 2, value.length);
    });
  }
});

test('an alternating schedule, balanced but not shuffled, is graded wrong', () => {
  const { grade } = gradeCode('benchmarking.interleaved-schedule', 3, SCHEDULE_ALTERNATING);
  assert.equal(grade.correct, false);
  assert.ok(grade.score < 10);
});

test("a least-squares classify agrees with core's fit_complexity on every drawn data set", () => {
  for (const seed of SEEDS) {
    const { grade, results } = gradeCode('benchmarking.classify-complexity', seed, CLASSIFY);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 15);
    assert.deepEqual(results.map((r) => r.value).sort(), ['1', 'log n', 'n', 'n log n', 'n^2', 'n^3']);
  }
});

test('classify by the log-log slope alone misses classes with logarithms', () => {
  const { grade } = gradeCode('benchmarking.classify-complexity', 5, CLASSIFY_BY_SLOPE);
  assert.equal(grade.correct, false);
  assert.ok(grade.score <= 10, JSON.stringify(grade.tests));
});

test('perflab grade --mode words the feedback as the course page does', () => {
  const wrong = JSON.stringify({ value: 1e6 });
  const practice = perflab('grade', 'benchmarking.percentile', '3', wrong);
  assert.equal(practice.status, 1);
  assert.match(JSON.parse(practice.stdout).feedback, /^Too high/);
  const assessed = perflab('grade', 'benchmarking.percentile', '3', wrong, '--mode', 'assessed');
  assert.equal(assessed.status, 1);
  assert.match(JSON.parse(assessed.stdout).feedback, /^Not correct: the answer must be within/);
  const sealed = perflab('grade', 'benchmarking.percentile', '3', wrong, '--mode', 'sealed');
  assert.equal(sealed.status, 0, 'a sealed answer is recorded, not wrong');
  assert.deepEqual([JSON.parse(sealed.stdout).correct, JSON.parse(sealed.stdout).score], [null, null]);
  const bad = perflab('grade', 'benchmarking.percentile', '3', wrong, '--mode', 'quiz');
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--mode is "quiz"; the modes are "practice", "assessed" or "sealed"/);
});
