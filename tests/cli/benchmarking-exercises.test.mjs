// Protects the Benchmarking chapter's code exercises end to end: reference JavaScript
// solutions, written from the prompts with the starter code's own mulberry32, run through the
// page's sandbox runner (runStudentTests) on the hidden tests core draws, and core's grader
// (the native CLI, the same C++ the page's wasm runs) scores them full marks for several
// seeds; so core's expected values, computed in C++ with its copy of mulberry32 and its
// statistics, are what a correct JavaScript solution returns. Wrong solutions score less.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { perflab } from './cli.mjs';

const SEEDS = [0, 1, 7, 42, 2026];

const bank = JSON.parse(perflab('exercises').stdout);
const exercise = (id) => bank.find((e) => e.id === id);

/** The starter code's mulberry32, unchanged (everything from its comment on). */
function generatorOf(id) {
  const starter = exercise(id).starter_code;
  const at = starter.indexOf('// A small seeded generator');
  assert.ok(at > 0, `${id}'s starter code gives mulberry32`);
  return starter.slice(at);
}

const BOOTSTRAP = `
function bootstrapCI(xs, seed) {
  const rng = mulberry32(seed);
  const median = (v) => {
    const s = [...v].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
  };
  const medians = [];
  for (let r = 0; r < 1000; r++) {
    const resample = [];
    for (let i = 0; i < xs.length; i++) resample.push(xs[Math.floor(rng() * xs.length)]);
    medians.push(median(resample));
  }
  medians.sort((a, b) => a - b);
  const percentile = (p) => {
    const h = (medians.length - 1) * p / 100;
    const k = Math.floor(h);
    return k + 1 < medians.length ? medians[k] + (h - k) * (medians[k + 1] - medians[k]) : medians[k];
  };
  return [percentile(2.5), percentile(97.5)];
}`;

const SCHEDULE = `
function interleavedSchedule(rounds, seed) {
  const rng = mulberry32(seed);
  const out = [];
  for (let r = 0; r < rounds / 2; r++) out.push(['A', 'B']);
  for (let r = 0; r < rounds / 2; r++) out.push(['B', 'A']);
  for (let i = rounds - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}`;

const CLASSIFY = `
function classify(sizes, times) {
  const classes = [
    ['1', () => 1], ['log n', (n) => Math.log2(n)], ['n', (n) => n],
    ['n log n', (n) => n * Math.log2(n)], ['n^2', (n) => n * n], ['n^3', (n) => n * n * n],
  ];
  let best = null;
  for (const [name, g] of classes) {
    let tg = 0, gg = 0;
    sizes.forEach((n, i) => { tg += times[i] * g(n); gg += g(n) * g(n); });
    const c = tg / gg;
    let ss = 0;
    sizes.forEach((n, i) => { ss += (times[i] - c * g(n)) ** 2; });
    const rms = Math.sqrt(ss / sizes.length);
    if (!best || rms < best.rms) best = { name, rms };
  }
  return best.name;
}`;

/** Runs `code` on the variant's hidden tests in the sandbox runner and grades the results. */
function gradeCode(id, seed, code) {
  const variant = JSON.parse(perflab('variant', id, String(seed)).stdout);
  const results = runStudentTests({ code, functionName: exercise(id).function_name, tests: variant.tests });
  const r = perflab('grade', id, String(seed), JSON.stringify({ results }));
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return { variant, results, grade: JSON.parse(r.stdout) };
}

test('a correct bootstrapCI scores full marks on core\'s tests for every seed', () => {
  const code = BOOTSTRAP + '\n' + generatorOf('benchmarking.bootstrap-ci');
  for (const seed of SEEDS) {
    const { grade } = gradeCode('benchmarking.bootstrap-ci', seed, code);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 15);
  }
});

test('bootstrapCI with another generator or the mean of each resample is graded wrong', () => {
  const generator = generatorOf('benchmarking.bootstrap-ci');
  const unseeded = BOOTSTRAP.replace('const rng = mulberry32(seed);', 'const rng = Math.random;');
  const { grade } = gradeCode('benchmarking.bootstrap-ci', 1, unseeded + '\n' + generator);
  assert.equal(grade.correct, false);
  const mean = BOOTSTRAP.replace('medians.push(median(resample));',
    'medians.push(resample.reduce((a, b) => a + b, 0) / resample.length);');
  const graded = gradeCode('benchmarking.bootstrap-ci', 1, mean + '\n' + generator).grade;
  assert.equal(graded.correct, false);
  assert.match(graded.tests.find((t) => !t.passed).message, /expected \[.*\], got \[/);
});

test('a correct interleavedSchedule scores full marks, and its schedules are balanced', () => {
  const code = SCHEDULE + '\n' + generatorOf('benchmarking.interleaved-schedule');
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
  const alternating = `function interleavedSchedule(rounds) {
    return Array.from({ length: rounds }, (_, r) => (r % 2 ? ['B', 'A'] : ['A', 'B']));
  }`;
  const { grade } = gradeCode('benchmarking.interleaved-schedule', 3, alternating);
  assert.equal(grade.correct, false);
  assert.ok(grade.score < 10);
});

test('a least-squares classify agrees with core\'s fit_complexity on every drawn data set', () => {
  for (const seed of SEEDS) {
    const { grade, results } = gradeCode('benchmarking.classify-complexity', seed, CLASSIFY);
    assert.equal(grade.correct, true, JSON.stringify(grade.tests));
    assert.equal(grade.score, 15);
    assert.deepEqual(results.map((r) => r.value).sort(), ['1', 'log n', 'n', 'n log n', 'n^2', 'n^3']);
  }
});

test('classify by the log-log slope alone misses classes with logarithms', () => {
  // Rounds the power-law exponent: right for 1, n, n^2 and n^3, never for log n or n log n.
  const bySlope = `function classify(sizes, times) {
    const xs = sizes.map(Math.log), ys = times.map(Math.log);
    const mx = xs.reduce((a, b) => a + b) / xs.length, my = ys.reduce((a, b) => a + b) / ys.length;
    let sxy = 0, sxx = 0;
    xs.forEach((x, i) => { sxy += (x - mx) * (ys[i] - my); sxx += (x - mx) ** 2; });
    return ['1', 'n', 'n^2', 'n^3'][Math.min(3, Math.max(0, Math.round(sxy / sxx)))];
  }`;
  const { grade } = gradeCode('benchmarking.classify-complexity', 5, bySlope);
  assert.equal(grade.correct, false);
  assert.ok(grade.score <= 10, JSON.stringify(grade.tests));
});
