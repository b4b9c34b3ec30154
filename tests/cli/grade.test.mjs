// tools/grade.mjs end to end: a generated class folder (honest and tampered submissions, a
// duplicate, an empty, a truncated, a non-JSON and a wrong-version file, in a subfolder too)
// graded with a course.json; every output is written, every bad file is in problems.csv with
// its kind, and bad usage exits 2 with the reason. Needs the wasm build (build/wasm, or
// PERFLAB_WASM_DIR), not the native perflab binary.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';

import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateClass } from '../js/grading-generate.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gradeScript = path.join(repoRoot, 'tools', 'grade.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'perflab-grade-'));
const classDir = path.join(dir, 'class');
const courseFile = path.join(dir, 'course.json');
const COURSE = { id: 'perf-cli', title: 'CLI test', salt: 'cli-salt', chapters: ['profiling', 'benchmarking'] };

const grade = (...args) => {
  const r = spawnSync(process.execPath, [gradeScript, ...args], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const csvRows = (text) => text.trimEnd().split('\r\n').map((line) => line.split(','));

before(async () => {
  const { lab } = await loadNodeLab();
  const files = await generateClass(lab, COURSE, 4, { skill: 0.8 });
  mkdirSync(path.join(classDir, 'late'), { recursive: true });
  for (const f of files) writeFileSync(path.join(classDir, f.name), f.text);
  const s001 = JSON.parse(files[0].text);
  // s002 in a subfolder, exported again later: a duplicate id.
  writeFileSync(path.join(classDir, 'late', 's002-resubmitted.json'), files[1].text.replace('"exported_at": "2026-11-20', '"exported_at": "2026-11-22'));
  // A tampered file: every exercise claims full points.
  const forged = structuredClone(s001);
  forged.student = { id: 's099', name: 'Forger' };
  forged.seed = (await lab.courseSeed(await lab.courseFromJson(COURSE), 's099')).seed;
  const bank = await lab.exerciseBank();
  for (const [id, e] of Object.entries(forged.exercises)) e.best_score = bank.find((x) => x.id === id).points;
  writeFileSync(path.join(classDir, 's099.json'), JSON.stringify(forged));
  writeFileSync(path.join(classDir, 's001-copy.json'), files[0].text);
  writeFileSync(path.join(classDir, 'empty.json'), '');
  writeFileSync(path.join(classDir, 'truncated.json'), files[2].text.slice(0, 400));
  writeFileSync(path.join(classDir, 'notes.txt'), 'answers attached\n');
  writeFileSync(path.join(classDir, 'v1.json'), JSON.stringify({ ...s001, version: 7 }));
  writeFileSync(courseFile, JSON.stringify(COURSE));
});

test('grades a class folder into every output, each bad file in problems.csv', () => {
  const out = path.join(dir, 'out');
  const r = grade(classDir, '--out', out, '--course', courseFile, '--workers', '2', '--quiet', '--hidden-key', 'cli-key.1');
  assert.equal(r.status, 0, r.stderr);
  // The grading key of the hidden code tests, said and written, so the gradebook can be reproduced.
  assert.match(r.stdout, /hidden tests drawn with the grading key cli-key\.1; --hidden-key cli-key\.1 reproduces this gradebook/);
  const run = JSON.parse(readFileSync(path.join(out, 'grading-run.json'), 'utf8'));
  assert.equal(run.hidden_key, 'cli-key.1');
  assert.equal(run.course_id, 'perf-cli');
  assert.match(run.bank_version, /^bank-[0-9a-f]{16}$/);
  assert.match(r.stdout, /6 files graded \(5 students in the gradebook\), 5 not graded/);
  for (const name of ['gradebook-canvas.csv', 'exercises.csv', 'problems.csv', 'flags.csv']) assert.ok(existsSync(path.join(out, name)), name);
  assert.deepEqual(readdirSync(path.join(out, 'feedback')).sort(), ['s001.md', 's002-2.md', 's002.md', 's003.md', 's004.md', 's099.md']);

  const problems = csvRows(readFileSync(path.join(out, 'problems.csv'), 'utf8'));
  assert.deepEqual(problems[0], ['file', 'student_id', 'kind', 'graded', 'reason']);
  const kinds = Object.fromEntries(problems.slice(1).map((p) => [path.basename(p[0]), [p[2], p[3]]]));
  // The same bytes twice: graded once, under the shorter name, whatever the order; the other reported.
  assert.deepEqual(kinds['s001-copy.json'], ['duplicate', 'no']);
  assert.equal(kinds['s001.json'], undefined);
  assert.deepEqual(kinds['empty.json'], ['empty', 'no']);
  assert.deepEqual(kinds['truncated.json'], ['truncated', 'no']);
  assert.deepEqual(kinds['notes.txt'], ['non-json', 'no']);
  // core's reason with the place ("answers" is no JSON value), not the engine's wording.
  const notes = readFileSync(path.join(out, 'problems.csv'), 'utf8').split('\r\n').find((l) => l.includes('notes.txt'));
  assert.match(notes, /the file is not JSON: parse error at line 1, column 1: /);
  assert.doesNotMatch(notes, /Unexpected token|in JSON at position|is not valid JSON/);
  assert.deepEqual(kinds['v1.json'], ['wrong-version', 'no']);
  assert.deepEqual(kinds['s099.json'], ['tampered', 'yes']);
  assert.equal(kinds['s002.json'][0], 'duplicate-student');

  const book = csvRows(readFileSync(path.join(out, 'gradebook-canvas.csv'), 'utf8'));
  assert.deepEqual(book[0], ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'perflab: Profiling', 'perflab: Benchmarking']);
  assert.equal(book[1][0], '    Points Possible');
  assert.deepEqual(book.slice(2).map((row) => row[2]).sort(), ['s001', 's002', 's003', 's004', 's099']);

  const exercises = csvRows(readFileSync(path.join(out, 'exercises.csv'), 'utf8'));
  const bankIds = exercises[0].slice(exercises[0].indexOf('flags') + 1);
  assert.ok(bankIds.length > 20 && bankIds.every((id) => /^(profiling|benchmarking)\./.test(id)), bankIds.join());
  const forged = exercises.find((row) => row[0] === 's099');
  assert.match(forged[exercises[0].indexOf('flags')], /score-differs/);

  const flags = readFileSync(path.join(out, 'flags.csv'), 'utf8');
  assert.match(flags, /duplicate-student/);
  assert.match(flags, /s099\.json,s099,score-differs,/);
  const feedback = readFileSync(path.join(out, 'feedback', 's001.md'), 'utf8');
  assert.match(feedback, /^# Student s001 \(s001\)/);
  assert.match(feedback, /Hints used: \d+\. Graded tries: \d+\./);
  // Only the exercises attempted, and one line for the rest (the generated files leave some run-backed ones unanswered).
  assert.match(feedback, /\nNot attempted: \d+ exercises? \(0 points each\): (profiling|benchmarking)\./);

  // The class analytics, as the instructor view shows them: one row per exercise, hardest first.
  const analytics = csvRows(readFileSync(path.join(out, 'analytics.csv'), 'utf8'));
  assert.deepEqual(analytics[0].slice(0, 7), ['exercise', 'title', 'points', 'students', 'attempted', 'not_attempted', 'failed']);
  assert.deepEqual(analytics.slice(1).map((row) => row[0]).sort(), [...bankIds].sort());
  assert.match(readFileSync(path.join(out, 'analytics.md'), 'utf8'), /^# Class analytics\n\n5 students in the gradebook\./);
  assert.equal(readFileSync(path.join(out, 'roofline.csv'), 'utf8').split('\r\n')[0], 'student_id,roofs_from,peak_gflops_per_s,bandwidth_gb_per_s,kernel,intensity,gflops_per_s,fraction_of_attainable');
});

test('files re-graded on the main thread give the same outputs as on the grading threads', () => {
  // The first test graded on the default pool of grading threads (two on a 2-core machine).
  const pooled = path.join(dir, 'out');
  assert.ok(existsSync(path.join(pooled, 'exercises.csv')), 'the first test wrote its outputs');
  const out = path.join(dir, 'out-one-thread');
  const r = grade(classDir, '--out', out, '--course', courseFile, '--workers', '2', '--quiet', '--hidden-key', 'cli-key.1', '--grading-threads', '1');
  assert.equal(r.status, 0, r.stderr);
  for (const name of ['gradebook-canvas.csv', 'exercises.csv', 'flags.csv', 'problems.csv', 'assignments.csv', 'analytics.csv']) {
    assert.equal(readFileSync(path.join(out, name), 'utf8'), readFileSync(path.join(pooled, name), 'utf8'), name);
  }
});

test('bad usage exits 2 with the reason', () => {
  const cases = [
    [[], /no submission files or folders given/],
    [[classDir], /--out DIR is required/],
    [[classDir, '--out', path.join(dir, 'o2'), '--bogus'], /unknown option --bogus/],
    [[path.join(dir, 'missing'), '--out', path.join(dir, 'o3')], /does not exist/],
    [[classDir, '--out', path.join(dir, 'o4'), '--canvas-id', 'email'], /--canvas-id must be one of/],
    [[classDir, '--out', path.join(dir, 'o8'), '--grading-threads', '0'], /--grading-threads must be an integer from 1 to 16/],
    // core's rule for a grading key, in core's words
    [[classDir, '--out', path.join(dir, 'o7'), '--hidden-key', 'a/b'], /--hidden-key: hidden_key must be empty \(the student's own tests\) or 1 to 64 letters/],
  ];
  for (const [args, message] of cases) {
    const r = grade(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
  }
  writeFileSync(path.join(dir, 'bad-course.json'), JSON.stringify({ id: 'x' }));
  const r = grade(classDir, '--out', path.join(dir, 'o5'), '--course', path.join(dir, 'bad-course.json'));
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--course .*bad-course\.json: /);
  // Text that is not JSON: core's reason with the place, as the page words it, not the engine's.
  writeFileSync(path.join(dir, 'broken-course.json'), '{"id": }');
  const broken = grade(classDir, '--out', path.join(dir, 'o6'), '--course', path.join(dir, 'broken-course.json'));
  assert.equal(broken.status, 2);
  assert.match(broken.stderr, /--course .*broken-course\.json is not JSON: parse error at line 1, column 8: /);
  assert.doesNotMatch(broken.stderr, /Unexpected token|in JSON at position|is not valid JSON/);
});
