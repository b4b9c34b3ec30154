// The LMS files tools/grade.mjs reads besides the submissions (web/src/grading/roster.js):
// CSV as the LMSs write it (quoted fields with commas and quotes, a BOM, CRLF), the three
// roster exports told apart by their headers, matching ids exactly or in another case or
// with spaces (said), Canvas's bulk-download names with its LATE marker, and the
// submissions CSV. Pure: no wasm, no grading.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { canvasDownloadName, latenessOf, looseId, matchRoster, parseCsv, readRoster, readSubmissionTimes } from '../../web/src/grading/roster.js';

test('parseCsv reads quoted fields, doubled quotes, line breaks in quotes, a BOM and CRLF', () => {
  const text = '\ufeffStudent,ID\r\n"Lovelace, Ada","1,001"\r\n"Say ""hi""","a\r\nb"\r\nplain,\r\n';
  assert.deepEqual(parseCsv(text), [['Student', 'ID'], ['Lovelace, Ada', '1,001'], ['Say "hi"', 'a\r\nb'], ['plain', '']]);
  assert.deepEqual(parseCsv('a,b\nc,d'), [['a', 'b'], ['c', 'd']]);
  assert.throws(() => parseCsv('a,"b\n'), /the CSV ends inside a quoted field \(row 1\)/);
});

const CANVAS = '\ufeffStudent,ID,SIS User ID,SIS Login ID,Section,Week 1 (123)\r\n' +
  '    Points Possible,,,,,20\r\n' +
  '"Lovelace, Ada",1001,s001,ada,Sec A,\r\n' +
  '"Hopper, Grace",1002,S002,grace,Sec A,\r\n' +
  '"Student, Test",1999,,,Sec A,\r\n' +
  '"Turing, Alan",1003,s 003,alan,Sec B,\r\n';

test('a Canvas gradebook export is read without its points row and test student', () => {
  const r = readRoster(CANVAS);
  assert.equal(r.format, 'canvas');
  assert.equal(r.idColumn, 'SIS User ID');
  assert.deepEqual(r.students.map((s) => [s.row, s.name, s.id, s.cells.ID]), [[3, 'Lovelace, Ada', 's001', '1001'], [4, 'Hopper, Grace', 'S002', '1002'], [6, 'Turing, Alan', 's 003', '1003']]);
  assert.equal(readRoster(CANVAS, { idColumn: 'SIS Login ID' }).students[0].id, 'ada');
  assert.throws(() => readRoster(CANVAS, { idColumn: 'Email' }), /the canvas roster has no column "Email"; its columns: Student, ID, SIS User ID/);
});

test('Moodle and Gradescope exports are told apart by their headers; anything else is refused', () => {
  const moodle = readRoster('First name,Last name,ID number,Institution,Department,Email address\nAda,Lovelace,s001,,,ada@example.edu\n');
  assert.equal(moodle.format, 'moodle');
  assert.deepEqual(moodle.students.map((s) => [s.name, s.id]), [['Ada Lovelace', 's001']]);
  const gradescope = readRoster('First Name,Last Name,SID,Email,Role\nAda,Lovelace,s001,ada@example.edu,Student\nTA,One,,ta@example.edu,TA\n');
  assert.equal(gradescope.format, 'gradescope');
  assert.deepEqual(gradescope.students.map((s) => [s.name, s.id]), [['Ada Lovelace', 's001']]);
  assert.throws(() => readRoster('name,number\nx,1\n'), /none of the exports read: Canvas's gradebook/);
  assert.throws(() => readRoster(''), /the roster is empty/);
});

const student = (id, file = `${id}.json`) => ({ file, result: { student: { id, name: '' } } });

test('ids match exactly, else in another case or with spaces (said); the rest are listed', () => {
  assert.equal(looseId(' S 003 '), 's003');
  const roster = readRoster(CANVAS);
  const m = matchRoster(roster, [student('s001'), student('s002'), student('S003'), student('s099')]);
  assert.deepEqual(m.entries.map((e) => [e.roster.id, e.status, e.student?.file ?? null]), [['s001', 'submitted', 's001.json'], ['S002', 'id-differs', 's002.json'], ['s 003', 'id-differs', 'S003.json']]);
  assert.match(m.entries[1].note, /the file's id "s002" is the roster's "S002" in another case or with spaces; matched/);
  assert.deepEqual(m.unmatched.map((u) => [u.student.file, u.note]), [['s099.json', 'no roster row has the SIS User ID "s099"']]);
  const none = matchRoster(roster, [student('s001')]);
  assert.deepEqual(none.entries.map((e) => e.status), ['submitted', 'missing', 'missing']);
  // Two roster ids equal once case is ignored: the file matches neither, and says why.
  const twins = readRoster('Student,ID,SIS User ID,SIS Login ID,Section\nA,1,AB1,,\nB,2,ab1,,\n');
  const t = matchRoster(twins, [student('Ab1')]);
  assert.deepEqual(t.entries.map((e) => e.status), ['missing', 'missing']);
  assert.match(t.unmatched[0].note, /matches several roster ids once case and spaces are ignored/);
});

test("Canvas's bulk-download names carry its LATE marker; the submissions CSV its times", () => {
  assert.deepEqual(canvasDownloadName('class/lovelaceada_LATE_1001_55501_perflab-submission.json'), { late: true, user_id: '1001', attachment_id: '55501', original: 'perflab-submission.json' });
  assert.equal(canvasDownloadName('hoppergrace_1002_55502_perflab-submission-perf-s002.json').late, false);
  assert.equal(canvasDownloadName('perflab-submission-perf-2026-s001-2026-11-20.json'), null);
  // An anonymous assignment leaves the name out and names anon_<id>; a name may hold any word characters.
  assert.deepEqual(canvasDownloadName('LATE_anon_x7Yq_901_perflab.json'), { late: true, user_id: 'anon_x7Yq', attachment_id: '901', original: 'perflab.json' });
  assert.equal(canvasDownloadName('anon_x7Yq_901_perflab.json').late, false);
  assert.deepEqual(canvasDownloadName('müllerjörg_LATE_1003_901_perflab_2.json'), { late: true, user_id: '1003', attachment_id: '901', original: 'perflab_2.json' });
  const times = readSubmissionTimes('student_id,submitted_at,assignment\r\nS001,2026-11-11T05:00:00Z,week-2\r\ns001,2026-11-10T12:00:00Z,\r\ns002,2026-11-12T00:00:00Z,\r\n');
  assert.deepEqual(latenessOf(student('s001'), { times, assignments: ['week-1', 'week-2'] }), { submitted_at: { 'week-1': '2026-11-10T12:00:00Z', 'week-2': '2026-11-11T05:00:00Z' } });
  assert.deepEqual(latenessOf(student('s002'), { times }), { submitted_at: '2026-11-12T00:00:00Z' });
  // No time for this student: Canvas's marker from the file's name, else nothing.
  assert.deepEqual(latenessOf(student('s003', 'turingalan_LATE_1003_1_x.json'), { times }), { submitted_at: null, late: true });
  assert.deepEqual(latenessOf(student('s004'), { times }), { submitted_at: null });
  assert.throws(() => readSubmissionTimes('id,when\n'), /needs the columns student_id and submitted_at/);
});
