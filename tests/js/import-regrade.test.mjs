// Protects the page's import (web/src/exercises/import-regrade.js): a file is re-graded with
// the grading module before it is kept, so a forged solved entry (wrong answer, solved: true,
// best_score 10) ends at 0 with a sentence saying so, honest entries keep their scores, a
// seed that is not the student id's is replaced by the right one, and a course page refuses
// files of another course or of practice mode. Also course.json's fetch: absent, found,
// malformed. Core is the fake of grading-fake-lab.mjs; the browser test uses the real one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fetchCourseJson } from '../../web/src/identity/course.js';
import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { identityProblem, regradeImport } from '../../web/src/exercises/import-regrade.js';
import { COURSE, fakeLab, fakeRunCode, fakeSubmission, rightNumber } from './grading-fake-lab.mjs';

const deps = () => ({ lab: fakeLab(), runCode: fakeRunCode });

test('an honest file keeps every score and says nothing changed', async () => {
  const file = await fakeSubmission('s1');
  const { progress, changes } = await regradeImport(file, { deps: deps(), course: COURSE });
  assert.deepEqual(changes, []);
  assert.deepEqual(
    Object.fromEntries(Object.entries(progress.exercises).map(([id, e]) => [id, [e.solved, e.best_score]])),
    { 'ch1.number': [true, 10], 'ch1.pick': [true, 10], 'ch2.double': [true, 15] },
  );
});

test('a forged solved entry ends at 0 points, and the change is named', async () => {
  const file = await fakeSubmission('s1', { wrong: ['ch1.number'] });
  file.exercises['ch1.number'] = { ...file.exercises['ch1.number'], solved: true, best_score: 10 };
  const { progress, changes } = await regradeImport(file, { deps: deps(), course: COURSE });
  assert.deepEqual([progress.exercises['ch1.number'].solved, progress.exercises['ch1.number'].best_score], [false, 0]);
  assert.deepEqual(changes, ['1 entry re-graded lower: A number (10 → 0)', 'solved flag dropped on A number (the saved answer does not grade as correct)']);
  // Code is re-run: a wrong function claiming full points is graded from what it returns.
  const code = await fakeSubmission('s2', { wrong: ['ch2.double'], claim: { 'ch2.double': 15 } });
  code.exercises['ch2.double'].solved = true;
  const regraded = await regradeImport(code, { deps: deps(), course: COURSE });
  assert.ok(regraded.progress.exercises['ch2.double'].best_score < 15);
  assert.match(regraded.changes[0], /^1 entry re-graded lower: Double it \(15 → /);
});

test('importing an export does not reveal a sealed answer’s verdict', async () => {
  const file = await fakeSubmission('s1');
  // As the page saves a sealed answer: kept, never judged (the answer itself is right).
  file.exercises['ch1.number'] = { ...file.exercises['ch1.number'], solved: false, best_score: 0, mode: 'sealed' };
  const course = { ...COURSE, modes: { exercises: { 'ch1.number': 'sealed', 'ch1.pick': 'practice', 'ch2.double': 'practice' }, assessed_tries: 3 } };
  const { progress, changes } = await regradeImport(file, { deps: deps(), course });
  assert.deepEqual(changes, []);
  assert.deepEqual([progress.exercises['ch1.number'].solved, progress.exercises['ch1.number'].best_score], [false, 0]);
  assert.deepEqual(progress.exercises['ch1.number'].best_answer, file.exercises['ch1.number'].best_answer);
});

test('a seed that is not the student id’s is replaced by the right one, and said', async () => {
  const lab = fakeLab();
  const { seed } = await lab.courseSeed(COURSE, 's3');
  const file = await fakeSubmission('s3', { seed: seed + 1 });
  const { progress, changes } = await regradeImport(file, { deps: { lab, runCode: fakeRunCode }, course: COURSE });
  assert.equal(progress.seed, seed);
  assert.ok(changes.some((c) => c.startsWith("the file's seed was not its student id's")));
  // Its answers were right for the wrong seed: re-graded for the right one.
  assert.equal(progress.exercises['ch1.number'].best_score, rightNumber(seed) === rightNumber(seed + 1) ? 10 : 0);
});

test('practice mode re-grades with the file’s own seed; a course page refuses other courses and practice files', async () => {
  const file = await fakeSubmission('s4');
  const practice = { ...file, course: null, student: null };
  const { progress, changes } = await regradeImport(practice, { deps: deps(), course: null });
  assert.equal(progress.seed, file.seed);
  assert.deepEqual(changes, []);
  assert.equal(identityProblem(file, null), null);
  assert.equal(identityProblem(file, COURSE), null);
  assert.match(identityProblem(practice, COURSE), /^this file is from practice mode \(no course\), and this page is the course "Test course" \(perf-test\)/);
  assert.match(identityProblem({ ...file, course: { ...file.course, id: 'other' } }, COURSE), /^this file is for the course "other"/);
});

const response = (status, body, type = 'application/json') => ({
  status,
  ok: status >= 200 && status < 300,
  headers: { get: (k) => (k.toLowerCase() === 'content-type' ? type : null) },
  text: async () => body,
});

test('course.json: absent (404, 204, a host’s HTML page), found, or an error sentence', async () => {
  const seen = [];
  const fetchOf = (res) => async (url, init) => (seen.push([url, init.headers.Accept]), typeof res === 'function' ? res() : res);
  assert.deepEqual(await fetchCourseJson(fetchOf(response(404, 'Not found', 'text/plain'))), { status: 'absent' });
  assert.deepEqual(await fetchCourseJson(fetchOf(response(204, ''))), { status: 'absent' });
  assert.deepEqual(await fetchCourseJson(fetchOf(response(200, '<!doctype html><p>app', 'text/html'))), { status: 'absent' });
  const { module } = await loadNodeLab();
  const jsonTextProblem = (t) => module.jsonTextProblem(t);
  assert.deepEqual(await fetchCourseJson(fetchOf(response(200, '{"id": "c"}')), { jsonTextProblem }), { status: 'found', course: { id: 'c' } });
  assert.deepEqual(seen[0], ['course.json', 'application/json'], 'relative to the page, asking for JSON');
  // Core says why, with the place (the lab's jsonTextProblem), not the engine's wording.
  const broken = await fetchCourseJson(fetchOf(response(200, '{"id": }')), { jsonTextProblem });
  assert.match(broken.message, /^course\.json is not valid JSON: parse error at line 1, column 8: /);
  assert.doesNotMatch(broken.message, /Unexpected token|in JSON at position|\(.*is not valid JSON/);
  assert.deepEqual(await fetchCourseJson(fetchOf(response(500, 'oops', 'text/plain'))), {
    status: 'error',
    message: 'course.json could not be loaded: the server answered HTTP 500',
  });
  assert.deepEqual(await fetchCourseJson(fetchOf(() => Promise.reject(new TypeError('Failed to fetch')))), {
    status: 'error',
    message: 'course.json could not be fetched (Failed to fetch)',
  });
});
