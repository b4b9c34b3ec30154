// tools/grade.mjs --leaderboard end to end: a small generated class (tools/olympics/make-class.mjs,
// the test's menu: 600 training images, at most one fine-tuning epoch), one entry per file:
// honest entries, entries that break an event's constraint, and tampered ones (claimed
// accuracy raised, samples made up off the clock grid, a step out of range, another base's
// checksum), re-checked on two threads and ranked. Honest entries are ranked in every event
// they entered, unflagged; a broken constraint is refused with core's sentence; tampered
// entries are flagged or refused with the reason; ranks follow the interval rule; the three
// files are written. Needs the wasm build and build/pretrained/fashion_mlp.perflab.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';

import { makeClass } from '../../tools/olympics/make-class.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gradeScript = path.join(repoRoot, 'tools', 'grade.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'perflab-olympics-'));
const classDir = path.join(dir, 'class');
const outDir = path.join(dir, 'out');
const STUDENTS = 12;

let key;
let run;
let board;
before(async () => {
  key = await makeClass({ out: classDir, entries: STUDENTS, perStudent: 1, seed: 5, menu: 'small', threads: 1 });
  run = spawnSync(process.execPath, [gradeScript, classDir, '--out', outDir, '--leaderboard', '--grading-threads', '2', '--quiet'], { encoding: 'utf8', timeout: 300_000 });
  if (run.status === 0) board = JSON.parse(readFileSync(path.join(outDir, 'leaderboard.json'), 'utf8'));
});

const ofKind = (kind) => key.entries.filter((e) => e.kind === kind);
const rowsOf = (student) => board.events.flatMap((e) => e.rows.filter((r) => r.student === student).map((r) => ({ ...r, event: e.event })));
const refusedOf = (student) => board.refused.filter((r) => r.student === student);

test('the generated class holds every kind of entry, one per file', () => {
  assert.equal(key.students, STUDENTS);
  for (const kind of ['honest', 'breaks-constraint', 'claim-raised', 'off-grid', 'step-out-of-range', 'foreign-base']) {
    assert.ok(ofKind(kind).length >= 1, `no ${kind} entry`);
  }
});

test('grade.mjs --leaderboard writes the three files and says what it re-checked', () => {
  assert.equal(run.status, 0, run.stderr);
  const invalid = ofKind('step-out-of-range').length + ofKind('foreign-base').length;
  assert.match(run.stdout, new RegExp(`leaderboard: ${STUDENTS} Olympics entries of ${STUDENTS} students re-checked \\(\\d+ distinct pipelines rebuilt\\), ${invalid} invalid, \\d+ flagged`));
  assert.match(run.stdout, /leaderboard\.csv, leaderboard\.md, leaderboard\.json/);
  const csv = readFileSync(path.join(outDir, 'leaderboard.csv'), 'utf8').trimEnd().split(/\r?\n/);
  assert.equal(csv.length, 1 + board.events.reduce((n, e) => n + e.rows.length, 0), 'one CSV line per ranked row');
  const markdown = readFileSync(path.join(outDir, 'leaderboard.md'), 'utf8');
  for (const e of board.events) assert.ok(markdown.includes(e.name), `leaderboard.md lacks ${e.name}`);
  for (const r of board.refused) for (const reason of r.reasons) assert.ok(markdown.includes(reason), `leaderboard.md lacks the refusal ${reason}`);
});

test('honest entries are ranked in every event they entered, unflagged and never refused', () => {
  for (const e of ofKind('honest')) {
    const rows = rowsOf(e.student);
    assert.deepEqual(rows.map((r) => r.event).sort(), [...e.events].sort(), `${e.student} (${e.pipeline})`);
    for (const r of rows) {
      assert.equal(r.entry, e.entry);
      assert.deepEqual(r.flags, [], `${e.student} in ${r.event}`);
    }
    assert.deepEqual(refusedOf(e.student), []);
  }
});

test('an entry that breaks a constraint is refused from that event with the sentence, ranked in the others', () => {
  for (const e of ofKind('breaks-constraint')) {
    const refused = refusedOf(e.student);
    assert.deepEqual(refused.map((r) => r.event), [e.breaks], `${e.student} (${e.pipeline})`);
    assert.ok(refused[0].reasons.length >= 1);
    for (const reason of refused[0].reasons) assert.match(reason, new RegExp(`^${e.breaks} needs .*; this entry`));
    assert.deepEqual(rowsOf(e.student).map((r) => r.event).sort(), e.events.filter((x) => x !== e.breaks).sort());
  }
});

test('tampered entries: a raised claim and made-up samples are flagged, a bad step and a foreign base refused', () => {
  for (const e of ofKind('claim-raised')) {
    const rows = rowsOf(e.student);
    assert.ok(rows.length >= 1, `${e.student}: its rebuilt figures still qualify`);
    for (const r of rows) assert.ok(r.flags.includes('olympics-claim-differs'), `${e.student} in ${r.event}: ${r.flags}`);
  }
  for (const e of ofKind('off-grid')) {
    for (const r of rowsOf(e.student)) assert.ok(r.flags.includes('evidence-off-grid'), `${e.student} in ${r.event}: ${r.flags}`);
    assert.ok(rowsOf(e.student).length + refusedOf(e.student).length >= 1);
  }
  const invalid = (kind, pattern) => {
    for (const e of ofKind(kind)) {
      assert.deepEqual(rowsOf(e.student), [], `${e.student} is ranked`);
      const refused = refusedOf(e.student);
      assert.deepEqual(refused.map((r) => [r.entry, r.event]), [[e.entry, null]], `${e.student}: one refusal, for no event in particular`);
      assert.match(refused[0].reasons.join(' '), pattern);
    }
  };
  invalid('step-out-of-range', /finetune_epochs/);
  invalid('foreign-base', /checksum/);
});

test('ranks follow the rule: beaten only by a better interval (latency) or a better value (accuracy, bytes)', () => {
  for (const e of board.events) {
    const interval = e.metric === 'latency_ratio' || e.metric === 'all_around';
    const better = (a, b) => {
      if (interval) return e.direction === 'lower' ? a.score_interval[1] < b.score_interval[0] : a.score_interval[0] > b.score_interval[1];
      return e.direction === 'lower' ? a.score < b.score : a.score > b.score;
    };
    for (const row of e.rows) {
      const expected = 1 + e.rows.filter((other) => other !== row && better(other, row)).length;
      assert.equal(row.rank, expected, `${e.event}: ${row.student}`);
    }
    const ranks = e.rows.map((r) => r.rank);
    assert.deepEqual(ranks, [...ranks].sort((x, y) => x - y), `${e.event} rows sorted by rank`);
    assert.equal(new Set(e.rows.map((r) => r.student)).size, e.rows.length, `${e.event}: one row per student`);
  }
});

test('the Pareto frontier lists every valid entry, at least one on the front', () => {
  const valid = key.entries.filter((e) => e.kind !== 'step-out-of-range' && e.kind !== 'foreign-base');
  assert.equal(board.pareto.length, valid.length);
  assert.ok(board.pareto.some((p) => p.on_front));
});
