// The Gradescope autograder (tools/gradescope/): bundle.mjs writes the zip with setup.sh and
// run_autograder at its root (executable) and what they need under them; the zip unpacked
// into a temporary folder standing in for /autograder, run.mjs re-grades a generated upload
// and writes results/results.json with the fields Gradescope documents (score, output,
// stdout_visibility, tests[{name, score, max_score, status, output, visibility}]): the
// score is the assignment's weighted points after the late policy, computed here from the
// tests' points and the time in submission_metadata.json. No real Gradescope.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { unzipSync } from 'fflate';

import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { generateSubmission } from '../js/grading-generate.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(path.join(tmpdir(), 'perflab-gradescope-'));
const WEEK1 = ['profiling.count-linear-flops', 'profiling.count-conv2d-flops', 'profiling.median'];
const COURSE = {
  id: 'perf-gs', title: 'Gradescope test', salt: 'gs-salt', chapters: ['profiling'],
  assignments: [{ id: 'week-1', name: 'Week 1', exercises: WEEK1, weights: { 'profiling.median': 3 }, points: 30, due: '2026-11-10T23:59:00-05:00' }],
  late_policy: { kind: 'per-day', penalty_per_day: 0.25, floor: 0.5 },
};
// Gradescope's documented values (Autograder Specifications).
const VISIBILITY = ['hidden', 'after_due_date', 'after_published', 'visible'];
const node = (args, options = {}) => spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 300_000, ...options });

// The external attributes of each entry in a zip's central directory (the Unix mode in the high 16 bits).
function zipModes(bytes) {
  const modes = {};
  const view = Buffer.from(bytes);
  for (let i = view.length - 22; i >= 0; i--) {
    if (view.readUInt32LE(i) !== 0x06054b50) continue;
    let at = view.readUInt32LE(i + 16);
    for (let n = view.readUInt16LE(i + 10); n > 0; n--) {
      const nameLength = view.readUInt16LE(at + 28);
      const name = view.toString('utf8', at + 46, at + 46 + nameLength);
      modes[name] = view.readUInt32LE(at + 38) >>> 16;
      at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
    }
    break;
  }
  return modes;
}

let autograder;
let upload;
before(async () => {
  writeFileSync(path.join(dir, 'course.json'), JSON.stringify(COURSE));
  const zip = path.join(dir, 'autograder.zip');
  const built = node([path.join(repoRoot, 'tools', 'gradescope', 'bundle.mjs'), '--course', path.join(dir, 'course.json'), '--assignment', 'week-1', '--out', zip]);
  assert.equal(built.status, 0, built.stderr);
  const bytes = readFileSync(zip);
  const entries = unzipSync(bytes);
  autograder = path.join(dir, 'autograder');
  for (const [name, data] of Object.entries(entries)) {
    mkdirSync(path.dirname(path.join(autograder, 'source', name)), { recursive: true });
    writeFileSync(path.join(autograder, 'source', name), data);
  }
  const modes = zipModes(bytes);
  assert.equal(modes['setup.sh'] & 0o777, 0o755);
  assert.equal(modes.run_autograder & 0o777, 0o755);
  const { lab } = await loadNodeLab();
  upload = await generateSubmission(lab, await lab.courseFromJson(COURSE), 's001', { skill: 0.7, fast: true });
});

// One Gradescope run: the upload and the metadata in a fresh /autograder stand-in, the bundle's own files.
function runAutograder(files, metadata) {
  for (const sub of ['submission', 'results']) rmSync(path.join(autograder, sub), { recursive: true, force: true });
  mkdirSync(path.join(autograder, 'submission'), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(autograder, 'submission', name), text);
  writeFileSync(path.join(autograder, 'submission_metadata.json'), JSON.stringify(metadata));
  const env = { ...process.env };
  delete env.PERFLAB_WASM_DIR; // the bundle's own grading module
  const r = node(['tools/gradescope/run.mjs', '--root', autograder], { cwd: path.join(autograder, 'source'), env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(readFileSync(path.join(autograder, 'results', 'results.json'), 'utf8'));
}

test('the zip holds setup.sh and run_autograder at its root and runs from its own files', () => {
  const names = Object.keys(unzipSync(readFileSync(path.join(dir, 'autograder.zip'))));
  for (const name of ['setup.sh', 'run_autograder', 'perflab-gradescope.json', 'tools/gradescope/run.mjs', 'build/wasm/web/perflab_grade_simd.mjs', 'build/wasm/web/perflab_grade_simd.wasm', 'tools/wasm-node.mjs', 'node_modules/acorn/package.json', 'web/src/lab/sandbox-runner.js']) assert.ok(names.includes(name), name);
  assert.ok(!names.some((n) => n.startsWith('tests/') || n.startsWith('core/')), 'only what the autograder runs');
});

test('results.json has the documented fields; the score is the weighted assignment after the late policy', () => {
  const user = { email: 'ada@example.edu', sid: 's001', name: 'Ada' };
  // Two days and a minute after the due date: three started days, 75% off, floored at 50%.
  const results = runAutograder({ 'perflab-submission.json': JSON.stringify(upload) }, { created_at: '2026-11-13T05:00:00.123456+00:00', users: [user], assignment: { due_date: '2026-11-10T23:59:00-05:00' } });
  assert.equal(typeof results.score, 'number');
  assert.equal(typeof results.output, 'string');
  assert.ok(VISIBILITY.includes(results.stdout_visibility));
  assert.deepEqual(results.tests.map((t) => t.name.match(/\(([^)]+)\)$/)[1]), WEEK1);
  for (const t of results.tests) {
    assert.deepEqual(Object.keys(t).sort(), ['max_score', 'name', 'output', 'score', 'status', 'visibility']);
    assert.ok(Number.isFinite(t.score) && t.score >= 0 && t.score <= t.max_score, t.name);
    assert.ok(['passed', 'failed'].includes(t.status));
    assert.ok(VISIBILITY.includes(t.visibility));
  }
  const weight = (t) => (t.name.includes('profiling.median') ? 3 : 1);
  const raw = (30 * results.tests.reduce((s, t) => s + weight(t) * t.score, 0)) / results.tests.reduce((s, t) => s + weight(t) * t.max_score, 0);
  assert.ok(raw > 0, 'the generated upload earns some points');
  assert.ok(Math.abs(results.score - 0.5 * raw) < 1e-9, `${results.score} is not half of ${raw}`);
  assert.match(results.output, /3 started days late; 25% off per started day, keeping at least 50%: 50% of/);
  assert.doesNotMatch(results.output, /Note: the file is for student id/);
});

test('a file of another student is noted; an upload that is not a submission scores 0 with the reason', () => {
  const other = runAutograder({ 'perflab-submission.json': JSON.stringify(upload) }, { created_at: '2026-11-10T12:00:00-05:00', users: [{ email: 'bob@example.edu', sid: 's002', name: 'Bob' }] });
  assert.match(other.output, /Note: the file is for student id "s001", which is not the SID or email Gradescope has for the submitter/);
  assert.match(other.output, /on time/);
  const none = runAutograder({ 'answers.txt': 'my answers\n' }, { created_at: '2026-11-10T12:00:00-05:00', users: [{ sid: 's001' }] });
  assert.equal(none.score, 0);
  assert.deepEqual(none.tests, []);
  assert.match(none.output, /^Not graded: no gradable perflab submission file was uploaded/);
  assert.match(none.output, /answers\.txt: the file is not JSON/);
});
