// tools/grade.mjs with the LMS's own files: a Canvas roster export (BOM, CRLF, quoted names,
// its points row and test student), a submissions CSV of the times the LMS recorded, Canvas's
// bulk-download names with their LATE marker, and a course.json with two weighted
// assignments, due dates and a per-day late policy. The gradebooks (Canvas, Moodle) are
// checked against the documented columns, and every assignment score against the weights and
// the penalty computed here by hand from the per-exercise points. Needs the wasm build.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';

import { loadNodeLab } from '../../tools/grading/node-lab.mjs';
import { parseCsv } from '../../web/src/grading/roster.js';
import { generateSubmission } from '../js/grading-generate.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const gradeScript = path.join(repoRoot, 'tools', 'grade.mjs');
const dir = mkdtempSync(path.join(tmpdir(), 'perflab-grade-lms-'));
const classDir = path.join(dir, 'class');
const file = (name, text) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};
const grade = (...args) => {
  const r = spawnSync(process.execPath, [gradeScript, ...args], { encoding: 'utf8', timeout: 300_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};
const readCsv = (out, name) => parseCsv(readFileSync(path.join(out, name), 'utf8'));

// Week 1: three code exercises (re-run by the grader), the first counting twice, scaled to 20 points; week 2: the rest of
// the chapter at their own points. Due 23:59 New York time (UTC-5 in November).
const WEEK1 = ['profiling.count-linear-flops', 'profiling.count-conv2d-flops', 'profiling.median'];
const COURSE = {
  id: 'perf-lms', title: 'LMS test', salt: 'lms-salt', chapters: ['profiling'],
  assignments: [
    { id: 'week-1', name: 'Week 1: counting', exercises: WEEK1, weights: { 'profiling.count-linear-flops': 2 }, points: 20, due: '2026-11-10T23:59:00-05:00' },
    { id: 'week-2', name: 'Week 2, the rest', exercises: ['profiling'], due: '2026-11-17T23:59:00-05:00' },
  ],
  late_policy: { kind: 'per-day', penalty_per_day: 0.1, floor: 0.5 },
};
let bank;
let courseFile;
let rosterFile;
let timesFile;

before(async () => {
  const { lab } = await loadNodeLab();
  bank = await lab.exerciseBank();
  // "profiling" in week 2 would repeat week 1's exercises: week 2 is the chapter without them.
  COURSE.assignments[1].exercises = bank.filter((e) => e.chapter === 'profiling' && !WEEK1.includes(e.id)).map((e) => e.id);
  const course = await lab.courseFromJson(COURSE);
  mkdirSync(classDir, { recursive: true });
  const write = async (name, id) => writeFileSync(path.join(classDir, name), JSON.stringify(await generateSubmission(lab, course, id, { skill: 0.8, fast: true })));
  await write('s001.json', 's001');
  await write('hoppergrace_LATE_1002_55502_perflab-submission.json', 's002'); // Canvas marked it late
  await write('turingalan_1003_55503_perflab-submission.json', 'S003'); // typed in capitals
  await write('s099.json', 's099'); // on no roster
  courseFile = file('course.json', JSON.stringify(COURSE));
  rosterFile = file('roster.csv', '\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Old quiz (77)\r\n' +
    '    Points Possible,,,,,5\r\n' +
    '"Lovelace, Ada",1001,s001,ada,Sec A,4\r\n' +
    '"Hopper, Grace",1002,s002,grace,Sec A,5\r\n' +
    '"Student, Test",1999,,,Sec A,\r\n' +
    '"Turing, Alan",1003,s003,alan,Sec B,3\r\n' +
    '"Noether, Emmy",1004,s004,emmy,Sec B,\r\n');
  // s001: week 1 on time, week 2 two started days late; s003: one minute after week 2's due.
  timesFile = file('times.csv', 'student_id,submitted_at,assignment\r\ns001,2026-11-10T12:00:00-05:00,week-1\r\ns001,2026-11-19T05:00:00Z,week-2\r\nS003,2026-11-18T05:00:00Z,\r\n');
});

// An assignment's points by hand: the weighted per-exercise points of exercises.csv, scaled.
function byHand(exerciseRow, header, assignment) {
  let got = 0;
  let max = 0;
  for (const id of assignment.exercises) {
    const w = assignment.weights?.[id] ?? 1;
    got += w * Number(exerciseRow[header.indexOf(id)]);
    max += w * bank.find((e) => e.id === id).points;
  }
  return (got / max) * (assignment.points ?? max);
}
const close = (cell, expected) => assert.ok(Math.abs(Number(cell) - expected) <= 0.006, `${cell} is not ${expected}`);

test('a roster, LMS times and a late policy give one column per assignment for every rostered student', () => {
  const out = path.join(dir, 'out');
  const r = grade(classDir, '--out', out, '--course', courseFile, '--roster', rosterFile, '--submissions', timesFile, '--per-exercise', '--workers', '2', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /roster: 4 students, 3 submitted \(1 with the id typed in another case or with spaces\), 1 did not submit, 1 files match no one: see roster\.csv/);

  const exercises = readCsv(out, 'exercises.csv');
  const rowOf = (id) => exercises.find((row) => row[0] === id);
  const [w1, w2] = COURSE.assignments;
  const ids = bank.filter((e) => e.chapter === 'profiling').map((e) => e.id);

  const book = readCsv(out, 'gradebook-canvas.csv');
  assert.deepEqual(book[0], ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Week 1: counting', 'Week 2, the rest', ...ids.map((id) => `perflab: ${id}`)]);
  const w2Points = w2.exercises.reduce((sum, id) => sum + bank.find((e) => e.id === id).points, 0);
  assert.deepEqual(book[1].slice(0, 7), ['    Points Possible', '', '', '', '', '20', String(w2Points)]);
  // Every rostered student in the roster's order and spelling; the test student and s099 are not rows.
  assert.deepEqual(book.slice(2).map((row) => row.slice(0, 5)), [
    ['Lovelace, Ada', '1001', 's001', 'ada', 'Sec A'], ['Hopper, Grace', '1002', 's002', 'grace', 'Sec A'],
    ['Turing, Alan', '1003', 's003', 'alan', 'Sec B'], ['Noether, Emmy', '1004', 's004', 'emmy', 'Sec B']]);
  const [ada, grace, alan, emmy] = book.slice(2);
  // s001: week 1 on time, week 2 two days late (80% kept).
  close(ada[5], byHand(rowOf('s001'), exercises[0], w1));
  close(ada[6], 0.8 * byHand(rowOf('s001'), exercises[0], w2));
  // s002: Canvas's LATE marker without a time: one day (90% kept) on both.
  close(grace[5], 0.9 * byHand(rowOf('s002'), exercises[0], w1));
  close(grace[6], 0.9 * byHand(rowOf('s002'), exercises[0], w2));
  // S003: one minute after week 2's due (one day), eight started days after week 1's (the 50% floor).
  close(alan[5], 0.5 * byHand(rowOf('S003'), exercises[0], w1));
  close(alan[6], 0.9 * byHand(rowOf('S003'), exercises[0], w2));
  // Per-exercise columns: the re-graded points, no penalty.
  assert.deepEqual(ada.slice(7), ids.map((id) => rowOf('s001')[exercises[0].indexOf(id)]));
  // Did not submit: empty cells (the default rule).
  assert.deepEqual(emmy.slice(5), ids.map(() => '').concat(['', '']));

  const moodle = readCsv(out, 'gradebook-moodle.csv');
  assert.deepEqual(moodle[0].slice(0, 4), ['ID number', 'Full name', 'Week 1: counting', 'Week 2, the rest']);
  assert.deepEqual(moodle.slice(1).map((row) => row.slice(0, 4)), book.slice(2).map((row) => [row[2], row[0], row[5], row[6]]));

  const roster = readCsv(out, 'roster.csv');
  assert.deepEqual(roster[0], ['roster_row', 'name', 'roster_id', 'status', 'file', 'submitted_id', 'note']);
  assert.deepEqual(roster.slice(1).map((row) => [row[2], row[3], path.basename(row[4]), row[5]]), [
    ['s001', 'submitted', 's001.json', 's001'], ['s002', 'submitted', 'hoppergrace_LATE_1002_55502_perflab-submission.json', 's002'],
    ['s003', 'id-differs', 'turingalan_1003_55503_perflab-submission.json', 'S003'], ['s004', 'missing', '', ''], ['', 'not-in-roster', 's099.json', 's099']]);
  assert.match(roster[3][6], /the file's id "S003" is the roster's "s003" in another case or with spaces; matched/);

  const late = readCsv(out, 'assignments.csv');
  const grace2 = late.find((row) => row[0] === 's002' && row[2] === 'Week 2, the rest');
  assert.deepEqual(grace2.slice(8, 11), ['yes', '1', '0.9']);
  assert.match(grace2[11], /marked late by the LMS, which recorded no time: counted as 1 day late/);
  const feedback = readFileSync(path.join(out, 'feedback', 's001.md'), 'utf8');
  assert.match(feedback, /## Assignments\n\n- Week 1: counting: [\d.]+ of 20; submitted 2026-11-10T12:00:00-05:00 as the LMS recorded, due 2026-11-10T23:59:00-05:00: on time\.\n- Week 2, the rest: [\d.]+ of \d+ \([\d.]+ before the late policy\); .*2 started days late; 10% off per started day, keeping at least 50%: 80% of/);
});

test('--missing zero, a Moodle roster and its identifier; bad LMS files stop before grading', () => {
  const moodleRoster = file('moodle.csv', 'First name,Last name,ID number,Institution,Department,Email address\nAda,Lovelace,s001,,,ada@example.edu\nEmmy,Noether,s004,,,emmy@example.edu\n');
  const out = path.join(dir, 'out-moodle');
  const r = grade(path.join(classDir, 's001.json'), '--out', out, '--course', courseFile, '--roster', moodleRoster, '--missing', 'zero', '--moodle-id', 'email', '--quiet');
  assert.equal(r.status, 0, r.stderr);
  const moodle = readCsv(out, 'gradebook-moodle.csv');
  assert.deepEqual(moodle[0], ['Email address', 'Full name', 'Week 1: counting', 'Week 2, the rest']);
  assert.deepEqual(moodle.slice(1).map((row) => row.slice(0, 2)), [['s001', 'Ada Lovelace'], ['s004', 'Emmy Noether']]);
  assert.deepEqual(moodle[2].slice(2), ['0', '0']);
  // No submission time and no Canvas name: no late policy, and said so.
  assert.match(readFileSync(path.join(out, 'assignments.csv'), 'utf8'), /no submission time from the LMS: no late policy applied/);

  const cases = [
    [['--roster', path.join(dir, 'none.csv')], /--roster .*none\.csv could not be read/],
    [['--roster', file('bad-roster.csv', 'name,number\n')], /--roster .*bad-roster\.csv: the roster's header \(name, number\) is none of the exports read/],
    [['--roster-id', 'SID'], /--roster-id needs --roster/],
    [['--missing', 'half'], /--missing must be one of empty, zero, got "half"/],
    [['--moodle-id', 'sid'], /--moodle-id must be one of idnumber, email, username/],
    [['--submissions', file('bad-times.csv', 'student_id,submitted_at\ns001,2026-11-10 noon\n')], /--submissions .*bad-times\.csv: student s001: "submitted_at" must be an ISO 8601 date and time with an offset/],
    [['--submissions', file('bad-week.csv', 'student_id,submitted_at,assignment\ns001,2026-11-10T12:00:00Z,week-9\n')], /student s001 names the assignment "week-9"; the course's assignments are week-1, week-2/],
  ];
  for (const [args, message] of cases) {
    const bad = grade(classDir, '--out', path.join(dir, 'o-bad'), '--course', courseFile, ...args);
    assert.equal(bad.status, 2, `${args.join(' ')}: ${bad.stderr}`);
    assert.match(bad.stderr, message);
  }
  // A course file with a schedule core refuses: core's sentence.
  const badCourse = file('bad-course.json', JSON.stringify({ ...COURSE, late_policy: { kind: 'per-day', penalty_per_day: 2 } }));
  const refused = grade(classDir, '--out', path.join(dir, 'o-bad'), '--course', badCourse);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /"late_policy" "penalty_per_day" must be the fraction of the points a late submission loses per started day/);
});
