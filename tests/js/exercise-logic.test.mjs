// Protects the exercise engine's pure decisions: how a typed number is read, when hints
// unlock, how one graded attempt changes the saved state, the chapter score summary, the
// tolerance sentence and prompt code runs. Grading itself is core's and tested there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  chapterSummary,
  formatPoints,
  nextHintText,
  parseNumberInput,
  parsePartInputs,
  promptRuns,
  recordAttempt,
  choiceAnswer,
  choiceTry,
  toleranceSentence,
  unlockedHintCount,
} from '../../web/src/exercises/logic.js';

test('plain, grouped and scientific numbers are read', () => {
  const cases = {
    '12544': 12544,
    ' 12544 ': 12544,
    '12,544': 12544,
    '1,234,567': 1234567,
    '12 544': 12544,
    '12_544': 12544,
    '1.25e4': 12500,
    '1.25E+4': 12500,
    '-0.5': -0.5,
    '.5': 0.5,
    '3.': 3,
    '+7': 7,
    '1,234.5': 1234.5,
  };
  for (const [text, value] of Object.entries(cases)) {
    assert.deepEqual(parseNumberInput(text), { value }, text);
  }
});

test('text that is not a number gets a sentence, not NaN', () => {
  assert.deepEqual(parseNumberInput(''), { problem: 'Type a number first.' });
  assert.deepEqual(parseNumberInput('   '), { problem: 'Type a number first.' });
  assert.deepEqual(parseNumberInput(null), { problem: 'Type a number first.' });
  for (const text of ['abc', '12k', '1,2', '12,54', '1.2.3', 'e5', '0x10', 'Infinity', 'NaN', '1,,234']) {
    const { value, problem } = parseNumberInput(text);
    assert.equal(value, undefined, text);
    assert.equal(problem, `"${text}" is not a number. Type digits, e.g. 12544, 12,544 or 1.25e4.`);
  }
  assert.deepEqual(parseNumberInput('1e999'), { problem: '"1e999" is too large to be a number here.' });
});

test('the boxes of a multi-part answer are read together, and every bad box is named', () => {
  const labels = ['FLOPs per sample', 'FLOPs per batch', 'Minimum latency'];
  assert.deepEqual(parsePartInputs(['200,704', '1.28e7', ' 0.5 '], labels), { values: [200704, 12800000, 0.5] });
  assert.deepEqual(parsePartInputs(['1', '', 'fast'], labels), {
    problems: [
      { index: 1, problem: 'FLOPs per batch: Type a number first.' },
      { index: 2, problem: 'Minimum latency: "fast" is not a number. Type digits, e.g. 12544, 12,544 or 1.25e4.' },
    ],
  });
  // A label the exercise did not give falls back to the part's number.
  assert.deepEqual(parsePartInputs(['x'], []), {
    problems: [{ index: 0, problem: 'Part 1: "x" is not a number. Type digits, e.g. 12544, 12,544 or 1.25e4.' }],
  });
});

test('hint k unlocks after k unsuccessful attempts, all of them once solved', () => {
  assert.equal(unlockedHintCount({ hintCount: 2, attempts: 0, solved: false }), 0);
  assert.equal(unlockedHintCount({ hintCount: 2, attempts: 1, solved: false }), 1);
  assert.equal(unlockedHintCount({ hintCount: 2, attempts: 2, solved: false }), 2);
  assert.equal(unlockedHintCount({ hintCount: 2, attempts: 5, solved: false }), 2);
  assert.equal(unlockedHintCount({ hintCount: 3, attempts: 1, solved: true }), 3);
  assert.equal(unlockedHintCount({ hintCount: 0, attempts: 4, solved: false }), 0);
});

test('the next-hint sentence names the hint, and disappears when none is left', () => {
  assert.equal(nextHintText({ hintCount: 2, attempts: 0, solved: false }), 'Hint 1 of 2 unlocks after your next unsuccessful attempt.');
  assert.equal(nextHintText({ hintCount: 2, attempts: 1, solved: false }), 'Hint 2 of 2 unlocks after your next unsuccessful attempt.');
  assert.equal(nextHintText({ hintCount: 2, attempts: 2, solved: false }), null);
  assert.equal(nextHintText({ hintCount: 2, attempts: 1, solved: true }), null);
  assert.equal(nextHintText({ hintCount: 0, attempts: 0, solved: false }), null);
});

test('an attempt counts, keeps the best score and stays solved after a worse retry', () => {
  const fresh = { attempts: 0, solved: false, best_score: 0, last_answer: null, code: 'x' };
  const wrong = recordAttempt(fresh, { correct: false, score: 0 }, { value: 1 });
  assert.deepEqual(wrong, { attempts: 1, solved: false, best_score: 0, last_answer: { value: 1 }, code: 'x', hints_used: 1 });
  const partial = recordAttempt(wrong, { correct: false, score: 6 }, { code: 'a' });
  assert.equal(partial.best_score, 6);
  const right = recordAttempt(partial, { correct: true, score: 10 }, { value: 2 });
  assert.deepEqual([right.attempts, right.solved, right.best_score], [3, true, 10]);
  const worse = recordAttempt(right, { correct: false, score: 0 }, { value: 3 });
  assert.deepEqual([worse.attempts, worse.solved, worse.best_score, worse.last_answer], [4, true, 10, { value: 3 }]);
  assert.equal(recordAttempt(fresh, { correct: false }, null).best_score, 0);
});

test('the answer and code that earned the best score are kept beside a worse last attempt', () => {
  const fresh = { attempts: 0, solved: false, best_score: 0, last_answer: null, code: null };
  const good = { results: [{ value: 3 }] };
  const solved = recordAttempt(fresh, { correct: true, score: 15 }, good, 'function f(x) { return 3; }');
  assert.deepEqual([solved.best_answer, solved.best_code], [good, 'function f(x) { return 3; }']);
  // An endless loop afterwards times out: the last answer changes, the scoring one does not.
  const loop = { results: [{ timeout: true }] };
  const after = recordAttempt({ ...solved, code: 'while (true) {}' }, { correct: false, score: 0 }, loop, 'while (true) {}');
  assert.deepEqual(after.last_answer, loop);
  assert.equal(after.code, 'while (true) {}');
  assert.deepEqual([after.best_score, after.best_answer, after.best_code], [15, good, 'function f(x) { return 3; }']);
  // A numeric exercise has no code: the scoring answer alone.
  const numeric = recordAttempt(fresh, { correct: true, score: 10 }, { value: 2 });
  assert.deepEqual([numeric.best_answer, numeric.best_code], [{ value: 2 }, null]);
  // A failed first attempt scores nothing and keeps no scoring answer.
  assert.equal('best_answer' in recordAttempt(fresh, { correct: false, score: 0 }, { value: 1 }), false);
});

test('hints used count the failed tries before solving, up to the hint count', () => {
  let e = { attempts: 0, solved: false, best_score: 0, last_answer: null, code: null, hints_used: 0 };
  for (let i = 0; i < 3; ++i) e = recordAttempt(e, { correct: false, score: 0 }, { value: i }, null, { hintCount: 2 });
  assert.deepEqual([e.attempts, e.hints_used], [3, 2]);
  e = recordAttempt(e, { correct: true, score: 10 }, { value: 9 }, null, { hintCount: 2 });
  assert.equal(e.hints_used, 2);
  const solvedFirst = recordAttempt({ ...e, attempts: 0, solved: false, hints_used: 0 }, { correct: true, score: 10 }, { value: 9 }, null, { hintCount: 2 });
  const afterSolving = recordAttempt(solvedFirst, { correct: false, score: 0 }, { value: 1 }, null, { hintCount: 2 });
  assert.deepEqual([solvedFirst.hints_used, afterSolving.hints_used], [0, 0], 'tries after solving unlock nothing new');
});

test('a choice answer carries which try it is, counting the graded tries before it', () => {
  assert.deepEqual(choiceAnswer(1, { attempts: 0 }), { choice: 1, attempt: 1 });
  assert.deepEqual(choiceAnswer(0, { attempts: 1 }), { choice: 0, attempt: 2 });
});

test('a choice card shows the next try\'s variant, and the solving try\'s once solved', () => {
  assert.equal(choiceTry({ attempts: 0, solved: false, best_answer: null }), 1);
  assert.equal(choiceTry({ attempts: 2, solved: false, best_answer: { choice: 1, attempt: 2 } }), 3);
  // Solved on try 2, then submitted once more: the card keeps try 2's variant.
  assert.equal(choiceTry({ attempts: 3, solved: true, best_answer: { choice: 1, attempt: 2 } }), 2);
  // A best answer without a valid try (an old save) counts on from the graded tries.
  assert.equal(choiceTry({ attempts: 3, solved: true, best_answer: { choice: 1, attempt: 'x' } }), 4);
  assert.equal(choiceTry({ attempts: 5000, solved: false, best_answer: null }), 1000);
  assert.deepEqual(choiceAnswer(2, { attempts: 4, solved: true, best_answer: { choice: 2, attempt: 1 } }), { choice: 2, attempt: 1 });
});

test('the chapter summary adds best scores against points and counts solved exercises', () => {
  const exercises = [
    { id: 'a', points: 10 },
    { id: 'b', points: 5 },
    { id: 'c', points: 20 },
  ];
  const entries = {
    a: { best_score: 10, solved: true },
    b: { best_score: 2.5, solved: false },
    c: { best_score: 0, solved: false },
  };
  assert.deepEqual(chapterSummary(exercises, (id) => entries[id]), { earned: 12.5, possible: 35, solved: 1, total: 3 });
  assert.deepEqual(chapterSummary([{ id: 'a', points: 10 }], () => ({ best_score: 50, solved: true })), {
    earned: 10,
    possible: 10,
    solved: 1,
    total: 1,
  });
  assert.deepEqual(chapterSummary([], () => null), { earned: 0, possible: 0, solved: 0, total: 0 });
});

test('points show partial credit to two decimals, as the gradebook writes them', () => {
  assert.equal(formatPoints(10), '10');
  assert.equal(formatPoints(2.5), '2.5');
  // A quarter of 15 points read "3.8 / 15": a score the grader never gave.
  assert.equal(formatPoints(3.75), '3.75');
  assert.equal(formatPoints(10 / 3), '3.33');
  assert.equal(formatPoints(NaN), '—');
});

test('the tolerance sentence uses core wording and falls back to rel/abs', () => {
  assert.equal(toleranceSentence({ rel: 0, abs: 0.5, text: 'exact (within 0.5)' }), 'The answer must be exact (within 0.5).');
  assert.equal(toleranceSentence({ rel: 0.01, abs: 0.5, text: 'within 1% or 0.5' }), 'The answer must be within 1% or 0.5.');
  assert.equal(toleranceSentence({ rel: 0.02, abs: 0 }), 'The answer must be within 2%.');
  assert.equal(toleranceSentence({ rel: 0.01, abs: 3 }), 'The answer must be within 1% or 3.');
  assert.equal(toleranceSentence({ rel: 0, abs: 0 }), 'The answer must be exact.');
  assert.equal(toleranceSentence(undefined), 'The answer must be exact.');
});

test('prompt backticks become code runs, and an unmatched one stays text', () => {
  assert.deepEqual(promptRuns('Call `median(xs)` now'), [
    { code: false, text: 'Call ' },
    { code: true, text: 'median(xs)' },
    { code: false, text: ' now' },
  ]);
  assert.deepEqual(promptRuns('`a`'), [{ code: true, text: 'a' }]);
  assert.deepEqual(promptRuns('costs 5` more'), [
    { code: false, text: 'costs 5' },
    { code: false, text: '` more' },
  ]);
  assert.deepEqual(promptRuns('plain'), [{ code: false, text: 'plain' }]);
});
