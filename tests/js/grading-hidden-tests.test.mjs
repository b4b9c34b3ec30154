// Hidden tests of code exercises against the real core (the wasm grading module, loaded as
// tools/grade.mjs loads it) and the command line's code runner. Code that looks its answers up
// by the arguments the student's page showed (the seed argument of bootstrapCI, keyed to the
// values a page's feedback printed or an honest run returned) scores nothing on a re-grade's
// hidden tests, which core draws afresh from a grading key; no hidden test's feedback (core's
// result, the feedback file) holds its expected value or its arguments; every honest
// reference solution keeps full marks on a re-grade with a random key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { regradeSubmission } from '../../web/src/grading/regrade.js';
import { feedbackText } from '../../web/src/grading/outputs.js';
import { newHiddenKey } from '../../web/src/grading/hidden-key.js';
import { runStudentTests } from '../../web/src/lab/sandbox-runner.js';
import { createCodeRunner } from '../../tools/grading/code-runner.mjs';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { BOOTSTRAP, generatorOf } from './benchmarking-solutions.mjs';
import { solutionOf } from './grading-generate.mjs';

const BOOTSTRAP_ID = 'benchmarking.bootstrap-ci';
const SEED = 662269381;
const KEY = newHiddenKey();
let lab;
let bank;
let runner;

before(async () => {
  ({ lab } = await loadNodeLab());
  bank = await lab.exerciseBank();
  runner = createCodeRunner({ workers: 1 });
});
after(() => runner?.close());

const exercise = (id) => bank.find((e) => e.id === id);

// The code's results on `tests`, run in this process as the page's sandbox runs them. A timed
// test gets a stand-in timing that passes (its rule and its forging have tests of their own),
// so these tests stay fast and say nothing about speed.
function resultsOf(code, ex, tests) {
  const plain = tests.filter((t) => !t.benchmark);
  const ran = runStudentTests({ code, functionName: ex.function_name, tests: plain });
  let k = 0;
  return tests.map((t) => (t.benchmark
    ? { value: { student_ms: Array(t.benchmark.rounds).fill(1), reference_ms: Array(t.benchmark.rounds).fill(2), max_abs_difference: 0 } }
    : ran[k++]));
}

// A submission holding only `code` for the exercise, graded with the file's own seed.
const submissionWith = (id, code) => ({
  format: 'perflab-submission', version: 2, course: null, student: { id: 's1', name: 'Student One' }, seed: SEED,
  bank_version: null, page_version: null, machine: null, exported_at: null,
  exercises: { [id]: { attempts: 1, solved: true, best_score: exercise(id).points, best_answer: null, best_code: code, last_answer: null, code, hints_used: 0 } },
});

// A lookup table keyed by bootstrapCI's seed argument, as a student would paste it.
const lookupCode = (table) => `const TABLE = ${JSON.stringify(table)};
function bootstrapCI(xs, seed) {
  return TABLE[seed] ?? [0, 0];
}`;

describe('hidden tests', () => {
  it('code that looks answers up by the arguments the page showed scores 0 on the re-grade\'s hidden tests', async () => {
    const ex = exercise(BOOTSTRAP_ID);
    const { tests } = await lab.exerciseVariant(BOOTSTRAP_ID, SEED);
    // 1. From the feedback: a first run, then every "expected [lo, hi] ... (called as bootstrapCI([...], seed))".
    const first = await lab.gradeExercise(BOOTSTRAP_ID, SEED, { results: resultsOf('function bootstrapCI() { return [0, 0]; }', ex, tests) });
    const fromFeedback = {};
    for (const t of first.tests) {
      const m = /expected (\[[^\]]*\]), got .*\(called as bootstrapCI\(.*, (\d+)\)\)$/.exec(t.message);
      if (m) fromFeedback[m[2]] = JSON.parse(m[1]);
    }
    // 2. From an honest run on the page's own arguments: right for every test the page has.
    const honest = resultsOf(BOOTSTRAP + generatorOf(ex.starter_code), ex, tests);
    const fromRun = Object.fromEntries(tests.map((t, i) => [t.args[1], honest[i].value]));
    const onPage = await lab.gradeExercise(BOOTSTRAP_ID, SEED, { results: resultsOf(lookupCode(fromRun), ex, tests) });
    assert.equal(onPage.score, ex.points, 'the table answers every test the page runs');
    // A re-grade on the page's own tests (what it ran before it had a key) gives it full marks.
    const sameTests = await regradeSubmission(submissionWith(BOOTSTRAP_ID, lookupCode(fromRun)), { lab, runCode: runner.runCode });
    assert.equal(sameTests.exercises.find((e) => e.id === BOOTSTRAP_ID).score, ex.points);
    // The page's feedback gave away the expected values of its public examples only.
    assert.deepEqual(Object.keys(fromFeedback).sort(), tests.filter((t) => !t.hidden).map((t) => String(t.args[1])).sort());

    for (const table of [fromFeedback, fromRun]) {
      const result = await regradeSubmission(submissionWith(BOOTSTRAP_ID, lookupCode(table)), { lab, runCode: runner.runCode, hiddenKey: KEY });
      const row = result.exercises.find((e) => e.id === BOOTSTRAP_ID);
      const hidden = row.tests.filter((t) => t.hidden);
      assert.ok(hidden.length >= 3, JSON.stringify(row.tests));
      assert.deepEqual(hidden.filter((t) => t.passed), [], 'no hidden test passes');
      const publicShare = (ex.points * (row.tests.length - hidden.length)) / row.tests.length;
      assert.ok(row.score <= publicShare + 1e-9 && row.score < ex.points, `${row.score} of ${ex.points}`);
      assert.ok(result.flags.some((f) => f.code === 'score-differs' && f.exercise === BOOTSTRAP_ID));
    }
  });

  it('no hidden test\'s feedback holds its expected value or its arguments (core\'s result, the feedback file)', async () => {
    const ex = exercise(BOOTSTRAP_ID);
    const keyed = await lab.exerciseVariant(BOOTSTRAP_ID, SEED, KEY);
    const right = resultsOf(BOOTSTRAP + generatorOf(ex.starter_code), ex, keyed.tests);
    // Wrong in each way the feedback names: order, length, tolerance, type, an error.
    const wrong = (code) => regradeSubmission(submissionWith(BOOTSTRAP_ID, code), { lab, runCode: runner.runCode, hiddenKey: KEY });
    const codes = [
      `${BOOTSTRAP.replace('function bootstrapCI(', 'function rightCI(')}${generatorOf(ex.starter_code)}\nfunction bootstrapCI(xs, seed) { return rightCI(xs, seed).reverse(); }`,
      'function bootstrapCI(xs, seed) { return [seed, seed, seed]; }',
      'function bootstrapCI(xs, seed) { return [xs[0] * 1.5, xs[1] * 1.5 + seed]; }',
      'function bootstrapCI(xs, seed) { return String(seed) + JSON.stringify(xs); }',
      'function bootstrapCI(xs, seed) { throw new Error("no"); }',
    ];
    // A hidden test's message has no number of its own but its index, a length and the
    // tolerance; the feedback file also shows public tests' calls, so there only texts that
    // cannot occur by chance are looked for: the seed argument and the expected pair as core
    // writes it.
    const secrets = [];
    const fileSecrets = [];
    keyed.tests.forEach((t, i) => {
      if (!t.hidden) return;
      secrets.push(String(t.args[1]), ...t.args[0].slice(0, 3).map(String), ...right[i].value.map(String));
      fileSecrets.push(String(t.args[1]), `[${right[i].value.join(', ')}]`);
    });
    assert.ok(secrets.length > 10);
    const properties = /^hidden test \d+: (passed$|failed: (wrong order: |wrong length: |outside the tolerance: .*\(within .*\)$|wrong type: |threw .+$))/;
    for (const code of codes) {
      const result = await wrong(code);
      const row = result.exercises.find((e) => e.id === BOOTSTRAP_ID);
      const text = feedbackText({ file: 'a.json', result }, { students: [{ file: 'a.json', result }], problems: [], bank_version: result.bank_version });
      for (const t of row.tests.filter((x) => x.hidden)) {
        assert.match(t.message, properties);
        assert.doesNotMatch(t.message, /expected \[|called as/);
        for (const s of secrets) assert.ok(!t.message.includes(s), `${t.message} holds ${s}`);
      }
      assert.ok(row.tests.some((t) => t.hidden && !t.passed), code);
      for (const s of fileSecrets) assert.ok(!text.includes(s), `the feedback file holds ${s}:\n${text}`);
    }
  });

  it('public example tests still show the expected value and the call', async () => {
    const ex = exercise(BOOTSTRAP_ID);
    const { tests } = await lab.exerciseVariant(BOOTSTRAP_ID, SEED, KEY);
    const graded = await lab.gradeExercise(BOOTSTRAP_ID, SEED, { results: resultsOf('function bootstrapCI() { return [0, 0]; }', ex, tests) }, KEY);
    const shown = graded.tests.filter((t) => !t.hidden);
    assert.ok(shown.length >= 1);
    for (const t of shown) assert.match(t.message, /expected \[.*\], got \[0, ?0\] \(called as bootstrapCI\(\[/);
  });

  it('the public tests are those the page showed; the hidden ones are drawn afresh from the key, the same for the same key', async () => {
    for (const ex of bank.filter((e) => e.kind === 'code')) {
      const page = await lab.exerciseVariant(ex.id, SEED);
      const keyed = await lab.exerciseVariant(ex.id, SEED, KEY);
      assert.deepEqual(await lab.exerciseVariant(ex.id, SEED, KEY), keyed, ex.id);
      assert.equal(keyed.tests.length, page.tests.length, ex.id);
      const shownArgs = new Set(page.tests.map((t) => JSON.stringify(t.args)));
      keyed.tests.forEach((t, i) => {
        assert.equal(t.hidden, page.tests[i].hidden, `${ex.id} test ${i}`);
        if (t.hidden) assert.ok(!shownArgs.has(JSON.stringify(t.args)), `${ex.id} hidden test ${i} repeats the page's arguments`);
        else assert.deepEqual(t, page.tests[i], `${ex.id} public test ${i}`);
      });
      assert.ok(keyed.tests.some((t) => t.hidden), `${ex.id} has hidden tests`);
    }
  });

  it('honest reference solutions keep full marks on a re-grade with a random key', async () => {
    for (const ex of bank.filter((e) => e.kind === 'code')) {
      const code = solutionOf(ex);
      assert.ok(code, `${ex.id} has a reference solution`);
      for (const key of [KEY, newHiddenKey()]) {
        const { tests } = await lab.exerciseVariant(ex.id, SEED, key);
        const graded = await lab.gradeExercise(ex.id, SEED, { results: resultsOf(code, ex, tests) }, key);
        assert.equal(graded.correct, true, `${ex.id} with key ${key}: ${JSON.stringify(graded.tests.filter((t) => !t.passed))}`);
      }
    }
  });

  it('a grading key outside core\'s alphabet is refused with core\'s sentence', async () => {
    await assert.rejects(lab.exerciseVariant(BOOTSTRAP_ID, SEED, 'a key'), /hidden_key must be empty .* or 1 to 64 letters, digits, '\.', '_' or '-', got "a key"/);
    await assert.rejects(lab.gradeExercise(BOOTSTRAP_ID, SEED, { results: [] }, 'x'.repeat(65)), /hidden_key must be/);
  });
});
