// Protects the student's saved progress: what counts as a valid progress object (and the
// message for each kind of malformed one), that import refuses bad files without changing
// anything, that exports round-trip, that corrupt saved progress is kept aside rather than
// destroyed (one bad entry costs only itself: the readable ones load, the bad ones can be
// repaired for a re-graded restore), that the version-migration hook runs its steps in
// order, that a version 1 save still loads, that a new identity (another seed) keeps the
// earlier progress aside, and that a full storage still loads what it holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CORRUPT_KEY_PREFIX,
  PROGRESS_VERSION,
  STORAGE_KEY,
  createProgressStore,
  ASIDE_KEY_PREFIX,
  emptyEntry,
  emptyProgress,
  exportFileName,
  migrateProgress,
  parseProgress,
  repairEntry,
  safeLocalStorage,
  salvageProgress,
  validateProgress,
} from '../../web/src/state/progress-store.js';

class MemoryStorage {
  constructor(entries = {}) {
    this.map = new Map(Object.entries(entries));
  }
  getItem(k) {
    return this.map.has(k) ? this.map.get(k) : null;
  }
  setItem(k, v) {
    this.map.set(k, String(v));
  }
  removeItem(k) {
    this.map.delete(k);
  }
}

const fixedNow = () => new Date('2025-01-02T03:04:05.000Z');
const entry = (over = {}) => ({ ...emptyEntry(), attempts: 1, ...over });
const drop = (key) => {
  const v = valid();
  delete v[key];
  return v;
};
const valid = () => ({
  format: 'perflab-submission',
  version: PROGRESS_VERSION,
  course: null,
  student: null,
  seed: 123456789,
  exercises: {
    'profiling.linear-params': entry({ attempts: 2, solved: true, best_score: 10, last_answer: { value: 200960 } }),
    'profiling.roofline-bound': entry({ last_answer: { choice: 1 } }),
    'profiling.linear-flops': entry({ best_score: 5, last_answer: { values: [200704, 1.2845056e7, 0.5] } }),
    'profiling.median': entry({
      last_answer: { results: [{ value: 2 }, { value: [1, 'a'] }, { error: 'TypeError: x' }, { timeout: true }] },
      code: 'function median(xs) { return 0; }',
    }),
  },
});

test('a well-formed progress object has no problems', () => {
  assert.deepEqual(validateProgress(valid()), []);
  assert.deepEqual(validateProgress(emptyProgress(0)), []);
  assert.deepEqual(validateProgress({ ...emptyProgress(0xffffffff), exported_at: '2025-01-01T00:00:00Z' }), []);
  assert.deepEqual(validateProgress(emptyProgress(5, { course: { id: 'c', title: 'C', chapters: ['profiling'] }, student: { id: 's1', name: 'A' } })), []);
});

test('each malformed shape is reported with the field and what is allowed', () => {
  const cases = [
    [null, 'a submission must be a JSON object, got null'],
    [[1, 2], 'a submission must be a JSON object, got an array'],
    ['text', 'a submission must be a JSON object, got the string "text"'],
    [drop('version'), '"version" is missing'],
    [{ ...valid(), version: 1 }, '"version" is the number 1, this page reads version 2'],
    [{ ...valid(), version: '1' }, '"version" is the string "1", this page reads version 2'],
    [drop('seed'), '"seed" is missing'],
    [{ ...valid(), seed: -1 }, '"seed" is the number -1, it must be an integer from 0 to 4294967295'],
    [{ ...valid(), seed: 2 ** 32 }, '"seed" is the number 4294967296, it must be an integer from 0 to 4294967295'],
    [{ ...valid(), seed: 1.5 }, '"seed" is the number 1.5, it must be an integer from 0 to 4294967295'],
    [{ ...valid(), seed: '7' }, '"seed" is the string "7", it must be an integer from 0 to 4294967295'],
    [drop('exercises'), '"exercises" is missing'],
    [{ ...valid(), exercises: [] }, '"exercises" is an array, it must be an object keyed by exercise id'],
    [{ ...valid(), extra: 1 }, 'unknown field "extra" (allowed: format, version, course, student, seed, bank_version, page_version, machine, exported_at, exercises, olympics)'],
    [{ ...valid(), exported_at: 5 }, '"exported_at" is the number 5, it must be an ISO time such as "2026-11-26T03:00:00.000Z", or null when unknown'],
    [{ ...valid(), exercises: { a: 3 } }, 'exercises["a"] is the number 3, it must be an object'],
    [{ ...valid(), exercises: { '': entry() } }, 'exercises[""]: an exercise id must not be empty'],
    [{ ...valid(), exercises: { a: entry({ attempts: -1 }) } }, 'exercises["a"].attempts is the number -1, it must be a whole number ≥ 0'],
    [{ ...valid(), exercises: { a: entry({ attempts: '2' }) } }, 'exercises["a"].attempts is the string "2", it must be a whole number ≥ 0'],
    [{ ...valid(), exercises: { a: entry({ solved: 'yes' }) } }, 'exercises["a"].solved is the string "yes", it must be true or false'],
    [{ ...valid(), exercises: { a: entry({ best_score: null }) } }, 'exercises["a"].best_score is null, it must be a number ≥ 0'],
    [{ ...valid(), exercises: { a: entry({ best_score: -3 }) } }, 'exercises["a"].best_score is the number -3, it must be a number ≥ 0'],
    [{ ...valid(), exercises: { a: entry({ code: 42 }) } }, 'exercises["a"].code is the number 42, it must be a string or null'],
    [{ ...valid(), exercises: { a: entry({ last_answer: 5 }) } }, 'exercises["a"].last_answer is the number 5, it must be null or {value}, {values}, {choice, attempt} or {results}, each with an optional evidence'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { value: 1, choice: 2 } }) } }, 'exercises["a"].last_answer has fields {value, choice}, it must be {value}, {values}, {choice, attempt} or {results}, each with an optional evidence'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { value: '12' } }) } }, 'exercises["a"].last_answer.value is the string "12", it must be a finite number'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { values: 3 } }) } }, 'exercises["a"].last_answer.values is the number 3, it must be a non-empty array of finite numbers, one per part'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { values: [] } }) } }, 'exercises["a"].last_answer.values is an array, it must be a non-empty array of finite numbers, one per part'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { values: [1, '2'] } }) } }, 'exercises["a"].last_answer.values[1] is the string "2", it must be a finite number'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { values: [null, 2] } }) } }, 'exercises["a"].last_answer.values[0] is null, it must be a finite number'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { value: 1, values: [1] } }) } }, 'exercises["a"].last_answer has fields {value, values}, it must be {value}, {values}, {choice, attempt} or {results}, each with an optional evidence'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { choice: 1.5 } }) } }, 'exercises["a"].last_answer.choice is the number 1.5, it must be a choice index (a whole number ≥ 0)'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { code: 'x' } }) } }, 'exercises["a"].last_answer has fields {code}, it must be {value}, {values}, {choice, attempt} or {results}, each with an optional evidence'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { results: {} } }) } }, 'exercises["a"].last_answer.results is an object, it must be an array with one entry per test'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { results: [{ value: 1, error: 'x' }] } }) } }, 'exercises["a"].last_answer.results[0] is an object, it must be {value}, {error: "text"} or {timeout: true}'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { results: [{ error: 3 }] } }) } }, 'exercises["a"].last_answer.results[0].error is the number 3, it must be a string'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { results: [{ timeout: 'yes' }] } }) } }, 'exercises["a"].last_answer.results[0].timeout is the string "yes", it must be true'],
    [{ ...valid(), exercises: { a: entry({ last_answer: { results: [{ passed: true }] } }) } }, 'exercises["a"].last_answer.results[0] has the field "passed", it must be {value}, {error: "text"} or {timeout: true}'],
    [{ ...valid(), exercises: { a: entry({ attempts: 0, solved: true }) } }, 'exercises["a"] is solved with 0 attempts; solving takes at least one attempt'],
    [{ ...valid(), exercises: { a: { ...entry(), hints: 2 } } }, 'exercises["a"]: unknown field "hints" (allowed: attempts, solved, best_score, best_answer, best_code, last_answer, code, hints_used, mode)'],
    [{ ...valid(), exercises: { a: { ...entry(), best_answer: { value: 'x' } } } }, 'exercises["a"].best_answer.value is the string "x", it must be a finite number'],
    [{ ...valid(), exercises: { a: { ...entry(), best_code: 7 } } }, 'exercises["a"].best_code is the number 7, it must be a string or null'],
  ];
  for (const [obj, message] of cases) {
    assert.deepEqual(validateProgress(obj), [message], JSON.stringify(obj));
  }
});

test('a missing entry field is named', () => {
  const { code: _drop, ...noCode } = entry();
  assert.deepEqual(validateProgress({ ...valid(), exercises: { a: noCode } }), ['exercises["a"]: "code" is missing']);
});

test('several problems are all reported, not just the first', () => {
  const problems = validateProgress({ ...valid(), version: 3, seed: 'x', exercises: { a: entry({ attempts: -1, solved: 1 }) } });
  assert.equal(problems.length, 4);
});

test('parseProgress refuses text that is not JSON and says so, without the engine’s wording', () => {
  const { progress, problems } = parseProgress('{"version": 1,');
  assert.equal(progress, null);
  assert.deepEqual(problems, ['not valid JSON']);
});

test('parseProgress refuses text nested too deeply before anything recurses on it', () => {
  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  const { progress, problems } = parseProgress(`{"version": 1, "seed": 1, "exercises": {}, "x": ${deep(10000)}}`);
  assert.equal(progress, null);
  assert.deepEqual(problems, ['the file is nested 10001 levels deep; a submission has at most 32']);
  // Brackets inside strings are text, not nesting.
  const code = '['.repeat(100);
  const ok = parseProgress(JSON.stringify({ ...valid(), exercises: { a: entry({ code }) } }));
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.progress.exercises.a.code, code);
});

test('parseProgress refuses a file from a newer perflab', () => {
  const { progress, problems } = parseProgress(JSON.stringify({ ...valid(), version: 9 }));
  assert.equal(progress, null);
  assert.deepEqual(problems, ['this file is version 9, from a newer perflab; this page reads up to version 2']);
});

test('parseProgress refuses JSON that is not a progress file', () => {
  const { problems } = parseProgress(JSON.stringify({ name: 'mlp', layers: [] }));
  assert.deepEqual(problems, ['"version" is missing: this is not a perflab submission or progress file']);
});

test('the migration hook applies each step in order and validates the result', () => {
  const seen = [];
  const migrations = {
    1: (p) => (seen.push(1), { ...p, version: 2, renamed: p.old }),
    2: (p) => (seen.push(2), { ...p, version: 3 }),
  };
  const { progress, problems } = migrateProgress({ version: 1, old: 'x' }, { migrations, targetVersion: 3 });
  assert.deepEqual(problems, []);
  assert.deepEqual(seen, [1, 2]);
  assert.deepEqual(progress, { version: 3, old: 'x', renamed: 'x' });
});

test('the migration hook reports a missing or broken step', () => {
  assert.deepEqual(migrateProgress({ version: 1 }, { migrations: {}, targetVersion: 2 }).problems, [
    'no migration from version 1 to 2',
  ]);
  assert.deepEqual(migrateProgress({ version: 1 }, { migrations: { 1: (p) => p }, targetVersion: 2 }).problems, [
    'the migration from version 1 did not produce version 2',
  ]);
});

test('migration never mutates the object it was given', () => {
  const old = { version: 1, list: [1] };
  migrateProgress(old, { migrations: { 1: (p) => (p.list.push(2), { ...p, version: 2 }) }, targetVersion: 2 });
  assert.deepEqual(old, { version: 1, list: [1] });
});

test('a first visit gets a fresh progress with the drawn seed, saved at once', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: () => 42 });
  assert.equal(store.seed, 42);
  assert.equal(store.notice, null);
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)), emptyProgress(42));
});

test('a reload reads the same seed and exercise state back', () => {
  const storage = new MemoryStorage();
  const first = createProgressStore({ storage, seed: () => 7 });
  first.update('a.b', { attempts: 2, last_answer: { value: 3.5 }, best_score: 4 });
  const second = createProgressStore({ storage, seed: () => 99 });
  assert.equal(second.seed, 7);
  assert.deepEqual(second.entry('a.b'), { ...emptyEntry(), attempts: 2, best_score: 4, last_answer: { value: 3.5 } });
  assert.deepEqual(second.entry('never.tried'), emptyEntry());
});

test('an update that would break the format is refused and changes nothing', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: () => 1 });
  const before = storage.getItem(STORAGE_KEY);
  assert.throws(() => store.update('x', { attempts: -1 }), {
    name: 'TypeError',
    message: 'progress update refused: exercises["x"].attempts is the number -1, it must be a whole number ≥ 0',
  });
  assert.equal(storage.getItem(STORAGE_KEY), before);
  assert.deepEqual(store.progress.exercises, {});
});

test('a corrupt saved entry is kept aside under another key and the student is told', () => {
  const storage = new MemoryStorage({ [STORAGE_KEY]: '{"version":1,"seed":"oops"' });
  const store = createProgressStore({ storage, seed: () => 5, now: fixedNow });
  const asideKey = `${CORRUPT_KEY_PREFIX}2025-01-02T03:04:05.000Z`;
  assert.equal(storage.getItem(asideKey), '{"version":1,"seed":"oops"');
  assert.equal(store.seed, 5);
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)), emptyProgress(5));
  assert.match(store.notice, /^Your saved progress could not be read \(not valid JSON/);
  assert.ok(store.notice.includes(asideKey));
  assert.equal(store.corrupt.key, asideKey);
  assert.equal(store.corrupt.text, '{"version":1,"seed":"oops"');
  assert.equal(store.corrupt.entries, null);
});

test('one bad entry in saved progress keeps the others: only its id is named, the whole text is kept aside', () => {
  const saved = valid();
  saved.exercises['profiling.roofline-bound'] = entry({ attempts: 'many', last_answer: { choice: 1 } });
  const bad = JSON.stringify(saved);
  const storage = new MemoryStorage({ [STORAGE_KEY]: bad });
  const store = createProgressStore({ storage, seed: () => 5, now: fixedNow });
  const asideKey = `${CORRUPT_KEY_PREFIX}2025-01-02T03:04:05.000Z`;
  // The same seed (the same variants) and every readable entry with its points.
  assert.equal(store.seed, 123456789);
  const { 'profiling.roofline-bound': _gone, ...others } = valid().exercises;
  assert.deepEqual(store.progress.exercises, others);
  assert.equal(store.entry('profiling.linear-params').best_score, 10);
  // The text as it was, bad entry included, is kept; the saved progress is the readable part.
  assert.equal(storage.getItem(asideKey), bad);
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)), store.progress);
  assert.deepEqual(store.corrupt, {
    key: asideKey,
    text: bad,
    problems: ['exercises["profiling.roofline-bound"].attempts is the string "many", it must be a whole number ≥ 0'],
    entries: ['profiling.roofline-bound'],
  });
  assert.equal(
    store.notice,
    '1 saved exercise entry could not be read: profiling.roofline-bound (exercises["profiling.roofline-bound"].attempts is the string "many", it must be a whole number ≥ 0); the other 3 were loaded. ' +
      `The saved progress as it was, unreadable entry included, is kept unchanged in this browser's storage under "${asideKey}".`,
  );
  // The next visit reads the repaired save without a notice; the copy stays aside.
  const again = createProgressStore({ storage, seed: () => 6, now: fixedNow });
  assert.equal(again.notice, null);
  assert.equal(again.seed, 123456789);
  assert.equal(storage.getItem(asideKey), bad);
});

test('several bad entries, in a version 1 save too, are each named and the rest loaded', () => {
  const v1 = {
    version: 1,
    seed: 9,
    exercises: {
      good: { attempts: 1, solved: false, best_score: 0, last_answer: { value: 3 }, code: null },
      worse: { attempts: 1, solved: 'yes', best_score: 0, last_answer: null, code: null },
      worst: 'not an entry',
    },
  };
  const { progress, unreadable } = salvageProgress(JSON.stringify(v1));
  assert.equal(progress.seed, 9);
  assert.equal(progress.course, null);
  assert.deepEqual(Object.keys(progress.exercises), ['good']);
  assert.deepEqual(progress.exercises.good.best_answer, { value: 3 });
  assert.deepEqual(unreadable.map((u) => [u.id, u.problems]), [
    ['worse', ['exercises["worse"].solved is the string "yes", it must be true or false']],
    ['worst', ['exercises["worst"] is the string "not an entry", it must be an object']],
  ]);
  const store = createProgressStore({ storage: new MemoryStorage({ [STORAGE_KEY]: JSON.stringify(v1) }), seed: () => 5, now: fixedNow });
  assert.deepEqual(store.corrupt.entries, ['worse', 'worst']);
  assert.match(store.notice, /^2 saved exercise entries could not be read: worse, worst \(/);
  assert.match(store.notice, /the other 1 was loaded/);
});

test('a malformed top level still sets the whole save aside and starts fresh', () => {
  for (const bad of [
    JSON.stringify({ ...valid(), seed: 'oops' }),
    JSON.stringify({ ...valid(), exercises: [] }),
    JSON.stringify({ ...valid(), version: 9 }),
    JSON.stringify([valid()]),
  ]) {
    const storage = new MemoryStorage({ [STORAGE_KEY]: bad });
    const store = createProgressStore({ storage, seed: () => 5, now: fixedNow });
    assert.equal(store.seed, 5, bad);
    assert.deepEqual(store.progress.exercises, {});
    assert.equal(storage.getItem(`${CORRUPT_KEY_PREFIX}2025-01-02T03:04:05.000Z`), bad);
    assert.equal(store.corrupt.entries, null);
    assert.match(store.notice, /^Your saved progress could not be read \(.+\)\. It was kept unchanged .+, and a fresh start was made \(new exercise variants, no points yet\)\.$/);
  }
});

test('when a save with one bad entry cannot be set aside, the readable part loads but nothing is overwritten at load', () => {
  const saved = valid();
  saved.exercises.x = 7;
  const bad = JSON.stringify(saved);
  const storage = new MemoryStorage({ [STORAGE_KEY]: bad });
  storage.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  const store = createProgressStore({ storage, seed: () => 5, now: fixedNow });
  assert.equal(storage.map.get(STORAGE_KEY), bad);
  assert.equal(store.seed, 123456789);
  assert.deepEqual(store.corrupt.entries, ['x']);
  assert.equal(store.corrupt.key, STORAGE_KEY);
  assert.match(store.notice, /could not be set aside; download it before you continue/);
});

test('repairEntry keeps each field of a bad entry that is valid on its own; counts start at what the answers imply', () => {
  const bad = {
    attempts: 'two',
    solved: true,
    best_score: 999,
    best_answer: { value: 3 },
    best_code: 7,
    last_answer: { value: 'x' },
    code: 'function f() {}',
    hints_used: 1,
    extra: true,
  };
  assert.deepEqual(repairEntry('e', bad), {
    attempts: 1,
    solved: true,
    best_score: 999,
    best_answer: { value: 3 },
    best_code: null,
    last_answer: null,
    code: 'function f() {}',
    hints_used: 1,
  });
  assert.equal(repairEntry('e', { ...bad, hints_used: 3 }).attempts, 3);
  assert.equal(repairEntry('e', { ...bad, attempts: 4 }).attempts, 4);
  // Nothing worth restoring, or not an entry at all.
  assert.equal(repairEntry('e', { attempts: 'two', best_answer: 'x' }), null);
  assert.equal(repairEntry('e', 'text'), null);
  assert.equal(repairEntry('', { ...bad, attempts: 1 }), null);
});

test('restoreEntries adds entries only where the progress has none, saves, and re-renders', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: () => 1 });
  store.update('a', { attempts: 2, last_answer: { value: 1 } });
  const heard = [];
  store.subscribe((_p, d) => heard.push(d.reason));
  const added = store.restoreEntries({ a: entry({ attempts: 9 }), b: entry({ best_answer: { value: 2 } }) });
  assert.deepEqual(added, ['b']);
  assert.equal(store.entry('a').attempts, 2);
  assert.deepEqual(store.entry('b').best_answer, { value: 2 });
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)).exercises.b, entry({ best_answer: { value: 2 } }));
  assert.deepEqual(heard, ['replace']);
  assert.deepEqual(store.restoreEntries({ b: entry() }), []);
  assert.throws(() => store.restoreEntries({ c: entry({ attempts: -1 }) }), /progress restore refused: exercises\["c"\]\.attempts is the number -1/);
  assert.throws(() => store.restoreEntries(null), /restoreEntries: entries must be an object keyed by exercise id, got null/);
  assert.equal(store.entry('c').attempts, 0);
});

test('when the corrupt entry cannot be set aside it is not overwritten at load', () => {
  const storage = new MemoryStorage({ [STORAGE_KEY]: 'garbage' });
  storage.setItem = () => {
    throw new Error('QuotaExceededError');
  };
  const store = createProgressStore({ storage, seed: () => 5, now: fixedNow });
  assert.equal(storage.map.get(STORAGE_KEY), 'garbage');
  assert.equal(store.corrupt.text, 'garbage');
  assert.match(store.notice, /could not be set aside/);
});

test('without storage the store still works in memory and says progress will not be kept', () => {
  const store = createProgressStore({ storage: null, seed: () => 8 });
  store.update('a', { attempts: 1 });
  assert.equal(store.entry('a').attempts, 1);
  assert.match(store.notice, /does not let the page save progress/);
});

test('export then import into another browser restores everything', () => {
  const a = createProgressStore({ storage: new MemoryStorage(), seed: () => 11, now: fixedNow });
  a.update('x', { attempts: 3, solved: true, best_score: 10, last_answer: { choice: 2 } });
  a.update('y', { code: 'function f() {}' });
  const text = a.exportText({ bankVersion: 'bank-0123456789abcdef' });
  assert.equal(JSON.parse(text).exported_at, '2025-01-02T03:04:05.000Z');
  assert.equal(JSON.parse(text).bank_version, 'bank-0123456789abcdef');

  const storageB = new MemoryStorage();
  const b = createProgressStore({ storage: storageB, seed: () => 22 });
  const heard = [];
  b.subscribe((_p, detail) => heard.push(detail.reason));
  assert.deepEqual(b.importText(text), { ok: true, problems: [] });
  assert.deepEqual(b.progress, a.progress);
  assert.deepEqual(JSON.parse(storageB.getItem(STORAGE_KEY)), a.progress);
  assert.deepEqual(heard, ['replace']);
});

test('a malformed import is refused with the problems named and changes nothing', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: () => 3 });
  store.update('x', { attempts: 1 });
  const before = { progress: structuredClone(store.progress), saved: storage.getItem(STORAGE_KEY) };
  let heard = 0;
  store.subscribe(() => heard++);
  for (const text of ['not json', '[]', JSON.stringify({ ...valid(), version: 0 }), JSON.stringify({ ...valid(), seed: 'abc' })]) {
    const { ok, problems } = store.importText(text);
    assert.equal(ok, false);
    assert.ok(problems.length > 0);
  }
  assert.deepEqual(store.progress, before.progress);
  assert.equal(storage.getItem(STORAGE_KEY), before.saved);
  assert.equal(heard, 0);
});

test('Olympics entries are kept across a reload, checked before they replace the kept ones, and exported', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: 42, now: fixedNow });
  const heard = [];
  store.subscribe((_p, detail) => heard.push(detail.reason));
  store.setOlympicsEntries([{ id: 'entry-1', name: 'int8' }]);
  assert.deepEqual(heard, ['update']);
  assert.throws(() => store.setOlympicsEntries([{ id: 'entry-1' }, { id: 'entry-1' }]), /Olympics entries refused: olympics\.entries\[1\]\.id is "entry-1"/);
  const again = createProgressStore({ storage, seed: 1, now: fixedNow });
  assert.equal(again.seed, 42);
  assert.deepEqual(again.progress.olympics, { entries: [{ id: 'entry-1', name: 'int8' }] });
  assert.deepEqual(JSON.parse(again.exportText()).olympics.entries.map((e) => e.id), ['entry-1']);
  again.setOlympicsEntries([]);
  assert.deepEqual(createProgressStore({ storage, seed: 1 }).progress.olympics, { entries: [] });
});

test('listeners hear which exercise changed', () => {
  const store = createProgressStore({ storage: new MemoryStorage(), seed: () => 1 });
  const heard = [];
  const off = store.subscribe((_p, d) => heard.push(d));
  store.update('q', { attempts: 1 });
  off();
  store.update('q', { attempts: 2 });
  assert.deepEqual(heard, [{ reason: 'update', id: 'q' }]);
});

test('a failed save tells the student to export', () => {
  const storage = new MemoryStorage();
  const store = createProgressStore({ storage, seed: () => 1 });
  storage.setItem = () => {
    throw new Error('quota exceeded');
  };
  store.update('q', { attempts: 1 });
  assert.equal(store.entry('q').attempts, 1);
  assert.equal(store.notice, 'Your progress could not be saved in this browser (quota exceeded); use Export to keep a copy.');
});

// A storage that is full: it reads what it holds, and every write throws the browser's
// QuotaExceededError (a DOMException in browsers; an Error with that name here).
class FullStorage extends MemoryStorage {
  setItem() {
    const e = new Error("Failed to execute 'setItem' on 'Storage': Setting the value exceeded the quota.");
    e.name = 'QuotaExceededError';
    throw e;
  }
}

test('a full storage loads the saved progress, keeps its seed and says new progress cannot be saved', () => {
  const saved = valid();
  const storage = new FullStorage({ [STORAGE_KEY]: JSON.stringify(saved) });
  const store = createProgressStore({ storage, seed: () => 42, now: fixedNow });
  assert.equal(store.seed, saved.seed, 'the saved seed, not a new one');
  assert.deepEqual(store.progress.exercises, saved.exercises);
  assert.equal(store.cannotSave, "this browser's storage for the page is full");
  assert.equal(
    store.notice,
    "Your saved progress was loaded, but new progress cannot be saved in this browser (this browser's " +
      "storage for the page is full). Use Export to keep a copy of your work, or free space in this site's " +
      'storage and reload.',
  );
  // Work goes on in memory, the stored text is untouched, and an export carries both.
  store.update('profiling.roofline-bound', { attempts: 2, last_answer: { choice: 0 } });
  assert.equal(storage.getItem(STORAGE_KEY), JSON.stringify(saved));
  const exported = JSON.parse(store.exportText({ bankVersion: 'bank-0123456789abcdef' }));
  assert.equal(exported.seed, saved.seed);
  assert.equal(exported.exercises['profiling.roofline-bound'].attempts, 2);
  assert.equal(exported.exercises['profiling.linear-params'].best_score, 10);
});

test('a storage that has room says nothing and can save', () => {
  const store = createProgressStore({ storage: new MemoryStorage({ [STORAGE_KEY]: JSON.stringify(valid()) }), seed: () => 42 });
  assert.equal(store.notice, null);
  assert.equal(store.cannotSave, null);
});

test('safeLocalStorage hands back a full localStorage, so what it holds still loads', () => {
  const saved = valid();
  const full = new FullStorage({ [STORAGE_KEY]: JSON.stringify(saved) });
  const had = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { value: full, configurable: true });
  try {
    assert.equal(safeLocalStorage(), full);
    const store = createProgressStore({ seed: () => 42 });
    assert.equal(store.seed, saved.seed);
    assert.match(store.notice, /new progress cannot be saved/);
  } finally {
    if (had) Object.defineProperty(globalThis, 'localStorage', had);
    else delete globalThis.localStorage;
  }
});

test('the export file name carries the date', () => {
  assert.equal(exportFileName(fixedNow()), 'perflab-submission-2025-01-02.json');
});

test('a version 1 save in this browser loads, migrated to practice mode, seed and work kept', () => {
  const v1 = { version: 1, seed: 77, exercises: { a: { attempts: 2, solved: true, best_score: 10, last_answer: { value: 3 }, code: null } } };
  const storage = new MemoryStorage({ [STORAGE_KEY]: JSON.stringify(v1) });
  const store = createProgressStore({ storage, seed: () => 1 });
  assert.equal(store.notice, null);
  assert.equal(store.seed, 77);
  assert.equal(store.course, null);
  assert.deepEqual(store.entry('a'), { ...emptyEntry(), attempts: 2, solved: true, best_score: 10, best_answer: { value: 3 }, last_answer: { value: 3 }, hints_used: 1 });
});

test('a new identity with another seed keeps the earlier work aside and starts fresh; the same seed keeps it', () => {
  const storage = new MemoryStorage();
  storage.key = (i) => [...storage.map.keys()][i];
  Object.defineProperty(storage, 'length', { get: () => storage.map.size });
  const store = createProgressStore({ storage, seed: () => 9, now: fixedNow });
  const course = { id: 'c', title: 'C', chapters: ['profiling'] };
  // No work yet: nothing is set aside.
  assert.deepEqual(store.setIdentity({ course, student: { id: 's1', name: 'A' }, seed: 100 }), { asideKey: null, aside: null });
  store.update('x', { attempts: 1, last_answer: { value: 1 } });
  const heard = [];
  store.subscribe((_p, d) => heard.push(d.reason));
  // Same seed (a changed name): the work stays.
  store.setIdentity({ course, student: { id: 's1', name: 'Ada' }, seed: 100 });
  assert.equal(store.entry('x').attempts, 1);
  assert.equal(store.student.name, 'Ada');
  // Another id, another seed: the work is set aside, then a fresh start.
  const { asideKey, aside } = store.setIdentity({ course, student: { id: 's2', name: 'B' }, seed: 200 });
  assert.equal(asideKey, `${ASIDE_KEY_PREFIX}2025-01-02T03:04:05.000Z`);
  assert.equal(aside.seed, 100);
  assert.equal(JSON.parse(storage.getItem(asideKey)).exercises.x.attempts, 1);
  assert.deepEqual(store.progress.exercises, {});
  assert.equal(store.seed, 200);
  assert.deepEqual(heard, ['identity', 'replace']);
  assert.deepEqual(store.keptAside().map((k) => [k.key, k.kind]), [[asideKey, 'aside']]);
  assert.equal(JSON.parse(storage.getItem(STORAGE_KEY)).student.id, 's2');
});
