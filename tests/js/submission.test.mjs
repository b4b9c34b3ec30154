// Protects the submission file (web/src/state/submission.js, docs/SUBMISSION.md): what a
// version 2 file must hold, field by field, with the sentence for each kind of malformed
// value; that a version 1 export still reads (migrated: practice mode, best answer offered
// from the last one); that evidence rows and a choice's attempt are kept in answers; and that
// an export is assembled in the documented order with every field.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { readJsonText } from '../../web/src/lab/json-text.js';
import {
  ENTRY_FIELDS,
  OPTIONAL_ENTRY_FIELDS,
  OPTIONAL_TOP_LEVEL_FIELDS,
  SUBMISSION_FORMAT,
  TOP_LEVEL_FIELDS,
  buildSubmission,
  emptyEntry,
  migrateSubmission,
  parseSubmission,
  submissionFileName,
  validateSubmission,
} from '../../web/src/state/submission.js';

const entry = (over = {}) => ({ ...emptyEntry(), attempts: 1, ...over });
const valid = () => ({
  format: SUBMISSION_FORMAT,
  version: 2,
  course: { id: 'perf-2026-fall', title: 'ML Systems, fall 2026', chapters: ['profiling', 'acceleration'] },
  student: { id: 'S123', name: 'Ada Lovelace' },
  seed: 3661337344,
  bank_version: 'bank-0123456789abcdef',
  page_version: '0.1.0+abc1234',
  machine: {
    build: 'simd',
    simd: true,
    cores: 2,
    timer_resolution_ms: 0.005,
    cross_origin_isolated: true,
    user_agent: 'Mozilla/5.0',
    probe: { peak_gflops_per_s: 180.2, bandwidth_gb_per_s: 52, measured_at: '2026-11-26T03:00:00.000Z' },
    engine: { flavour: 'fma', max_threads: 2 },
  },
  exported_at: '2026-11-26T04:00:00.000Z',
  exercises: {
    'profiling.linear-params': entry({ attempts: 2, solved: true, best_score: 10, best_answer: { value: 200960 }, last_answer: { value: 200960 }, hints_used: 1 }),
    'profiling.flops-batch': entry({ best_answer: { choice: 1, attempt: 1 }, last_answer: { choice: 1, attempt: 1 } }),
    'profiling.linear-flops': entry({ best_score: 5, best_answer: { values: [1, 2, 3] }, last_answer: { values: [1, 2, 3] } }),
    'profiling.median': entry({
      best_answer: { results: [{ value: 2 }, { error: 'TypeError: x' }, { timeout: true }] },
      best_code: 'function median(xs) { return 2; }',
      last_answer: { results: [{ timeout: true }] },
      code: 'while (true) {}',
    }),
    'profiling.batch-throughput': entry({
      best_answer: { value: 3.1, evidence: { experiment: 'batch-size', rows: [{ batch: 1, median_ms: 2 }, { batch: 32, median_ms: 20 }] } },
    }),
  },
});

test('a complete version 2 submission has no problems, and practice mode has neither course nor student', () => {
  assert.deepEqual(validateSubmission(valid()), []);
  assert.deepEqual(validateSubmission({ ...valid(), course: null, student: null }), []);
  assert.deepEqual(validateSubmission({ ...valid(), bank_version: null, page_version: null, machine: null, exported_at: null }), []);
});

test('every top-level field is required in a file; kept progress may lack the export-time ones', () => {
  for (const key of TOP_LEVEL_FIELDS) {
    const s = valid();
    delete s[key];
    assert.ok(validateSubmission(s).includes(`"${key}" is missing`), key);
  }
  const kept = valid();
  for (const key of ['bank_version', 'page_version', 'machine', 'exported_at']) delete kept[key];
  assert.deepEqual(validateSubmission(kept, { complete: false }), []);
});

test('each malformed top-level value is named with what is allowed', () => {
  const cases = [
    [{ format: 'other' }, '"format" is the string "other", it must be "perflab-submission"'],
    [{ version: 3 }, '"version" is the number 3, this page reads version 2'],
    [{ seed: -1 }, '"seed" is the number -1, it must be an integer from 0 to 4294967295'],
    [{ seed: 2 ** 32 }, '"seed" is the number 4294967296, it must be an integer from 0 to 4294967295'],
    [{ course: 'c' }, '"course" is the string "c", it must be {id, title, chapters} or null (practice mode)'],
    [{ course: { id: 'has space', title: 't', chapters: [] } }, "course.id is the string \"has space\", it must be 1 to 64 letters, digits, '.', '_' or '-'"],
    [{ course: { id: 'c', title: 5, chapters: [] } }, 'course.title is the number 5, it must be a string of at most 200 characters'],
    [{ course: { id: 'c', title: 't', chapters: 'all' } }, 'course.chapters is the string "all", it must be an array of chapter names'],
    [{ course: { id: 'c', title: 't', chapters: [], salt: 'x' } }, 'course: unknown field "salt" (allowed: id, title, chapters)'],
    [{ student: { id: ' ', name: 'A' } }, 'student.id is the string " ", it must be a non-empty string of at most 100 characters'],
    [{ student: { id: 's', name: null } }, 'student.name is null, it must be a string of at most 200 characters'],
    [{ student: null }, '"student" is null but "course" is set: a course submission names its student'],
    [{ course: null }, '"student" is set but "course" is null: a student belongs to a course (practice mode has neither)'],
    [{ bank_version: 'v1' }, '"bank_version" is the string "v1", it must be "bank-" and 16 hex digits (core\'s exerciseBankVersion), or null when unknown'],
    [{ page_version: 12 }, '"page_version" is the number 12, it must be a string such as "0.1.0+abc1234", or null when unknown'],
    [{ machine: [] }, '"machine" is an array, it must be an object or null'],
    [{ machine: { build: 'avx' } }, 'machine.build is the string "avx", it must be "simd", "scalar" or null'],
    [{ machine: { cores: 0 } }, 'machine.cores is the number 0, it must be a whole number ≥ 1 or null'],
    [{ machine: { probe: { peak_gflops_per_s: 0, bandwidth_gb_per_s: 1 } } }, 'machine.probe.peak_gflops_per_s is the number 0, it must be a number > 0'],
    [{ machine: { gpu: 'x' } }, 'machine: unknown field "gpu" (allowed: build, simd, cores, timer_resolution_ms, cross_origin_isolated, user_agent, probe, engine)'],
    [{ machine: { engine: { flavour: 'avx', max_threads: 2 } } }, 'machine.engine.flavour is the string "avx", it must be "fma" or "simd"'],
    [{ machine: { engine: { flavour: 'simd', max_threads: 0 } } }, 'machine.engine.max_threads is the number 0, it must be a whole number ≥ 1'],
    [{ machine: { engine: 'fma' } }, 'machine.engine is the string "fma", it must be {flavour, max_threads} or null'],
    [{ exported_at: 'yesterday' }, '"exported_at" is the string "yesterday", it must be an ISO time such as "2026-11-26T03:00:00.000Z", or null when unknown'],
    [{ exercises: [] }, '"exercises" is an array, it must be an object keyed by exercise id'],
    [{ extra: 1 }, `unknown field "extra" (allowed: ${[...TOP_LEVEL_FIELDS, ...OPTIONAL_TOP_LEVEL_FIELDS].join(', ')})`],
    [{ olympics: [] }, '"olympics" is an array, it must be {entries: [entry, ...]}'],
    [{ olympics: { entries: {} } }, 'olympics.entries is an object, it must be {entries: [entry, ...]}'],
    [{ olympics: { entries: [], board: 1 } }, 'olympics: unknown field "board" (allowed: entries)'],
    [{ olympics: { entries: [7] } }, 'olympics.entries[0] is the number 7, it must be an entry object'],
    [{ olympics: { entries: [{ name: 'x' }] } }, 'olympics.entries[0]: "id" is missing, each entry needs its own id'],
    [{ olympics: { entries: [{ id: '' }] } }, 'olympics.entries[0].id is the string "", it must be a non-empty string of at most 200 characters'],
    [{ olympics: { entries: [{ id: 'entry-1' }, { id: 'entry-1' }] } }, 'olympics.entries[1].id is "entry-1", which an earlier entry has; each entry needs its own id'],
  ];
  for (const [over, message] of cases) {
    assert.ok(validateSubmission({ ...valid(), ...over }).includes(message), `${JSON.stringify(over)}: ${JSON.stringify(validateSubmission({ ...valid(), ...over }))}`);
  }
});

test('every entry field is required and checked', () => {
  for (const key of ENTRY_FIELDS) {
    const e = entry();
    delete e[key];
    assert.deepEqual(validateSubmission({ ...valid(), exercises: { x: e } }), [`exercises["x"]: "${key}" is missing`]);
  }
  const cases = [
    [{ attempts: 1.5 }, 'exercises["x"].attempts is the number 1.5, it must be a whole number ≥ 0'],
    [{ solved: 'yes' }, 'exercises["x"].solved is the string "yes", it must be true or false'],
    [{ best_score: -1 }, 'exercises["x"].best_score is the number -1, it must be a number ≥ 0'],
    [{ hints_used: -1 }, 'exercises["x"].hints_used is the number -1, it must be a whole number ≥ 0'],
    [{ hints_used: 2 }, 'exercises["x"].hints_used is 2 with 1 attempts; a hint unlocks only after a failed attempt'],
    [{ code: 5 }, 'exercises["x"].code is the number 5, it must be a string or null'],
    [{ best_code: [] }, 'exercises["x"].best_code is an array, it must be a string or null'],
    [{ attempts: 0, solved: true }, 'exercises["x"] is solved with 0 attempts; solving takes at least one attempt'],
    [{ grade: 10 }, `exercises["x"]: unknown field "grade" (allowed: ${[...ENTRY_FIELDS, ...OPTIONAL_ENTRY_FIELDS].join(', ')})`],
    [{ mode: 'quiz' }, 'exercises["x"].mode is the string "quiz", it must be "practice", "assessed", "sealed" (the course\'s answer mode)'],
  ];
  for (const [over, message] of cases) {
    assert.deepEqual(validateSubmission({ ...valid(), exercises: { x: entry(over) } }), [message], JSON.stringify(over));
  }
});

test('answers are exactly what core graded: one kind, a choice’s attempt, evidence rows', () => {
  const check = (answer) => validateSubmission({ ...valid(), exercises: { x: entry({ best_answer: answer }) } });
  assert.deepEqual(check({ choice: 0, attempt: 3 }), []);
  assert.deepEqual(check({ values: [1], evidence: { experiment: 'e', rows: [] } }), []);
  assert.deepEqual(check({ results: [{ value: { student_ms: [1], reference_ms: [2], max_abs_difference: 0 } }] }), []);
  const at = 'exercises["x"].best_answer';
  const shapes = '{value}, {values}, {choice, attempt} or {results}, each with an optional evidence';
  assert.deepEqual(check({ value: 1, choice: 2 }), [`${at} has fields {value, choice}, it must be ${shapes}`]);
  assert.deepEqual(check({ value: 1, attempt: 2 }), [`${at} has fields {value, attempt}, it must be ${shapes}`]);
  assert.deepEqual(check({ evidence: { experiment: 'e', rows: [] } }), [`${at} has fields {evidence}, it must be ${shapes}`]);
  assert.deepEqual(check(7), [`${at} is the number 7, it must be null or ${shapes}`]);
  assert.deepEqual(check({ value: 'NaN' }), [`${at}.value is the string "NaN", it must be a finite number`]);
  assert.deepEqual(check({ values: [] }), [`${at}.values is an array, it must be a non-empty array of finite numbers, one per part`]);
  assert.deepEqual(check({ values: [1, null] }), [`${at}.values[1] is null, it must be a finite number`]);
  assert.deepEqual(check({ choice: -1 }), [`${at}.choice is the number -1, it must be a choice index (a whole number ≥ 0)`]);
  assert.deepEqual(check({ choice: 1, attempt: 0 }), [`${at}.attempt is the number 0, it must be which try this was (a whole number ≥ 1)`]);
  assert.deepEqual(check({ results: {} }), [`${at}.results is an object, it must be an array with one entry per test`]);
  assert.deepEqual(check({ results: [{ value: 1, forged: true }] }), [
    `${at}.results[0] is an object, it must be {value}, {error: "text"} or {timeout: true}`,
  ]);
  assert.deepEqual(check({ results: [{ timeout: 1 }] }), [`${at}.results[0].timeout is the number 1, it must be true`]);
  assert.deepEqual(check({ value: 1, evidence: { experiment: '', rows: [1] } }), [
    `${at}.evidence.experiment is the string "", it must be the experiment's id`,
    `${at}.evidence.rows is an array, it must be an array of the run's rows (objects)`,
  ]);
  assert.deepEqual(check({ value: 1, evidence: { experiment: 'e', rows: [], summary: 'x' } }), [
    `${at}.evidence: unknown field "summary" (allowed: experiment, rows, finished_at)`,
  ]);
  assert.deepEqual(check({ value: 1, evidence: { experiment: 'e', rows: [], finished_at: '2026-11-20T10:05:00.000Z' } }), []);
  assert.deepEqual(check({ value: 1, evidence: { experiment: 'e', rows: [], finished_at: 'yesterday' } }), [
    `${at}.evidence.finished_at is the string "yesterday", it must be the ISO time the run finished`,
  ]);
});

test('a version 1 export reads as practice mode, its last answer offered for re-grading', () => {
  const v1 = {
    version: 1,
    seed: 42,
    exported_at: '2025-01-02T03:04:05.000Z',
    exercises: {
      a: { attempts: 3, solved: true, best_score: 10, last_answer: { value: 2 }, code: null },
      b: { attempts: 2, solved: true, best_score: 15, last_answer: { results: [] }, code: 'while (true) {}', best_answer: { results: [{ value: 1 }] }, best_code: 'function f() { return 1; }' },
      c: { attempts: 0, solved: false, best_score: 0, last_answer: null, code: 'function g() {}' },
    },
  };
  const { submission, problems, migratedFrom } = migrateSubmission(v1);
  assert.deepEqual(problems, []);
  assert.equal(migratedFrom, 1);
  assert.deepEqual(submission, {
    format: SUBMISSION_FORMAT,
    version: 2,
    course: null,
    student: null,
    seed: 42,
    bank_version: null,
    page_version: null,
    machine: null,
    exported_at: '2025-01-02T03:04:05.000Z',
    exercises: {
      a: { attempts: 3, solved: true, best_score: 10, best_answer: { value: 2 }, best_code: null, last_answer: { value: 2 }, code: null, hints_used: 2 },
      b: { attempts: 2, solved: true, best_score: 15, best_answer: { results: [{ value: 1 }] }, best_code: 'function f() { return 1; }', last_answer: { results: [] }, code: 'while (true) {}', hints_used: 1 },
      c: { attempts: 0, solved: false, best_score: 0, best_answer: null, best_code: 'function g() {}', last_answer: null, code: 'function g() {}', hints_used: 0 },
    },
  });
  assert.deepEqual(v1.exercises.a, { attempts: 3, solved: true, best_score: 10, last_answer: { value: 2 }, code: null }, 'the input is not mutated');
});

test('a malformed version 1 file is still refused after migration, naming the v1 field', () => {
  const { submission, problems } = migrateSubmission({ version: 1, seed: 'x', exercises: { a: { attempts: -1, solved: false, best_score: 0, last_answer: null, code: null } }, extra: 1 });
  assert.equal(submission, null);
  assert.ok(problems.includes('"seed" is the string "x", it must be an integer from 0 to 4294967295'));
  assert.ok(problems.includes('exercises["a"].attempts is the number -1, it must be a whole number ≥ 0'));
  assert.ok(problems.some((p) => p.startsWith('unknown field "extra"')));
});

test('parseSubmission refuses what is not a submission, each with a sentence', () => {
  const cases = [
    ['not json', /^not valid JSON/],
    ['[]', /^a submission must be a JSON object, got an array$/],
    ['{}', /^"version" is missing: this is not a perflab submission or progress file$/],
    ['{"version": 0}', /^"version" is the number 0, it must be a whole number ≥ 1$/],
    ['{"version": 9}', /^this file is version 9, from a newer perflab; this page reads up to version 2$/],
    ['{"version": 2, "format": "x"}', /^"format" is the string "x", it must be "perflab-submission"$/],
    [`{"version": 2, "x": ${'['.repeat(40)}${']'.repeat(40)}}`, /^the file is nested 41 levels deep; a submission has at most 32$/],
  ];
  for (const [text, pattern] of cases) {
    const { submission, problems } = parseSubmission(text);
    assert.equal(submission, null, text);
    assert.match(problems[0], pattern, text);
  }
  const { submission } = parseSubmission(JSON.stringify(valid()));
  assert.deepEqual(submission, valid());
});

test('parseSubmission refuses text that is not JSON with core’s reason and place, never the engine’s wording', async () => {
  const { module } = await loadNodeLab();
  const jsonTextProblem = (text) => module.jsonTextProblem(text);
  const text = '{"version": 2,\n "seed": }';
  const { submission, problems } = parseSubmission(text, { complete: false, json: await readJsonText(text, jsonTextProblem) });
  assert.equal(submission, null);
  assert.match(problems[0], /^not valid JSON: parse error at line 2, column 10: /);
  assert.doesNotMatch(problems[0], /Unexpected token|in JSON at position|\(.*is not valid JSON/);
  // Without the lab (a localStorage entry read at start-up): no place, and no engine wording either.
  assert.deepEqual(parseSubmission(text).problems, ['not valid JSON']);
  // JSON read by the lab goes on to the format's checks.
  const good = JSON.stringify(valid());
  assert.deepEqual(parseSubmission(good, { json: await readJsonText(good, jsonTextProblem) }).submission, valid());
});

test('an export carries every contract field in order, entries completed', () => {
  const progress = { format: SUBMISSION_FORMAT, version: 2, course: valid().course, student: valid().student, seed: 7, exercises: { a: { attempts: 2, solved: false, best_score: 0, last_answer: { value: 1 }, code: null, hints_used: 2 } } };
  const s = buildSubmission(progress, {
    bankVersion: 'bank-0123456789abcdef',
    pageVersion: '0.1.0+unknown',
    machine: { build: 'scalar', cores: 4, user_agent: 'UA', probe: null },
    exportedAt: '2026-11-26T04:00:00.000Z',
    hintsUsed: (id, e) => Math.min(1, e.hints_used),
  });
  assert.deepEqual(Object.keys(s), TOP_LEVEL_FIELDS);
  assert.deepEqual(Object.keys(s.exercises.a), ENTRY_FIELDS);
  assert.equal(s.exercises.a.hints_used, 1);
  assert.equal(s.exercises.a.best_answer, null);
  assert.deepEqual(validateSubmission(s), []);
  assert.equal(submissionFileName(s, new Date('2026-11-26T04:00:00Z')), 'perflab-submission-perf-2026-fall-S123-2026-11-26.json');
  assert.equal(submissionFileName({ ...s, course: null, student: null }, new Date('2026-11-26T04:00:00Z')), 'perflab-submission-2026-11-26.json');
});

test('kept Olympics entries are exported last, as kept, and read back', () => {
  const entries = [{ id: 'entry-1', name: 'int8', events: ['latency-sprint'] }];
  const progress = { format: SUBMISSION_FORMAT, version: 2, course: null, student: null, seed: 7, exercises: {}, olympics: { entries } };
  const s = buildSubmission(progress, { exportedAt: '2026-11-26T04:00:00.000Z' });
  assert.deepEqual(Object.keys(s), [...TOP_LEVEL_FIELDS, 'olympics']);
  assert.deepEqual(s.olympics, { entries });
  assert.notEqual(s.olympics.entries, entries, 'the export is a copy');
  assert.deepEqual(validateSubmission(s), []);
  assert.deepEqual(parseSubmission(JSON.stringify(s)).submission.olympics, { entries });
});
