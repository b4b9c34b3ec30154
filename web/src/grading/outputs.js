// The files a class grading produces, written the same way by tools/grade.mjs and the
// page's instructor view: the Canvas gradebook CSV, a CSV with one column per exercise,
// problems.csv, flags.csv and one feedback file per student. Pure text; the caller saves it.
//
// The Canvas layout follows Canvas's own gradebook export, which its import reads back
// (instructure/canvas-lms, lib/gradebook_exporter.rb): the header "Student", "ID",
// "SIS User ID", "SIS Login ID", "Section", then one column per assignment; the second row
// starts with "    Points Possible" (four spaces, as Canvas writes it) and gives each
// assignment's points under its column, the identity cells empty. Canvas matches a row to a
// student by ID, SIS User ID or SIS Login ID (one suffices; Ohio State's Canvas guide,
// "Import a CSV file to Carmen Grades"), and a column whose title is not an existing
// assignment creates one. The student id typed in the page goes in SIS User ID unless
// `idColumn` says otherwise; Canvas's internal ID is unknown here and stays empty.
// Not for: grading (class.js) or saving files (the CLI writes them, the page downloads them).

import { csvField } from '../experiments/csv.js';
import { formatCount, formatPoints as formatScore } from '../ui/format.js';
import { isAttempted } from './summary.js';

/** Canvas's identity columns, in Canvas's order. */
export const CANVAS_IDENTITY_COLUMNS = Object.freeze(['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section']);
/** The first cell of Canvas's second row, exactly as Canvas's export writes it. */
export const CANVAS_POINTS_POSSIBLE = '    Points Possible';
/** Which identity column carries the student id: the option values and their columns. */
export const CANVAS_ID_COLUMNS = Object.freeze({ 'sis-user-id': 'SIS User ID', 'sis-login-id': 'SIS Login ID', id: 'ID' });

/** A score as Canvas shows one (ui/format.js's rule: at most two decimals, no trailing zeros); no number, an empty cell. */
export const formatPoints = (x) => (Number.isFinite(x) ? formatScore(x) : '');

// A cell a spreadsheet would read as a formula (=, +, -, @ first) gets an apostrophe, so
// opening a CSV never runs a student's text.
function safeText(value) {
  const text = String(value ?? '');
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

const line = (cells) => cells.map(csvField).join(',');
const toText = (rows) => `${rows.map(line).join('\r\n')}\r\n`;

/** "perflab: Profiling": the gradebook column of a chapter. */
export const chapterColumn = (chapter) => `perflab: ${chapter.charAt(0).toUpperCase()}${chapter.slice(1)}`;

const gradebookStudents = (graded) => graded.students.filter((s) => s.in_gradebook);

/** What an empty gradebook cell is for a rostered student without a submission: the option values. */
export const MISSING_RULES = Object.freeze(['empty', 'zero']);

// The gradebook's columns: one per assignment (core's courseAssignments, scoreAssignments in
// assignments.js; before it ran, one per graded chapter with its points), then with
// perExercise one per exercise: {title, points, value(entry)}, value in points or null.
function gradebookColumns(graded, { perExercise = false } = {}) {
  let columns;
  if (Array.isArray(graded.assignments)) {
    columns = graded.assignments.map((a, i) => ({ title: a.name, points: a.points_possible, value: (s) => s.assignments?.assignments[i]?.score ?? 0 }));
  } else {
    const possible = Object.fromEntries(graded.chapters.map((c) => [c, 0]));
    for (const e of graded.exercises) possible[e.chapter] += e.points;
    columns = graded.chapters.map((c) => ({ title: chapterColumn(c), points: possible[c], value: (s) => s.result.chapters[c]?.score ?? 0 }));
  }
  if (perExercise) {
    for (const e of graded.exercises) {
      columns.push({ title: `perflab: ${e.id}`, points: e.points, value: (s) => s.result.exercises.find((x) => x.id === e.id)?.score ?? 0 });
    }
  }
  return columns;
}

// The gradebook's rows: with a roster (graded.roster, roster.js's matchRoster) every rostered
// student in the roster's order, with the roster's spelling, a student without a submission
// getting empty cells or 0 (`missing`); without one, every student in the gradebook.
function gradebookRows(graded, { missing = 'empty' } = {}) {
  if (!MISSING_RULES.includes(missing)) throw new Error(`missing must be one of ${MISSING_RULES.join(', ')}, got ${JSON.stringify(missing)}`);
  if (!graded.roster) return gradebookStudents(graded).map((s) => ({ name: s.result.student.name || s.result.student.id, id: s.result.student.id.trim(), cells: null, entry: s }));
  return graded.roster.match.entries.map((m) => ({ name: m.roster.name || m.roster.id, id: m.roster.id, cells: graded.roster.roster.format === 'canvas' ? m.roster.cells : null, entry: m.student, missing }));
}

const cellOf = (row, column) => {
  if (row.entry) return formatPoints(column.value(row.entry));
  return row.missing === 'zero' ? '0' : '';
};

/**
 * The gradebook CSV for Canvas: one row per student (the latest file of each id, or every
 * rostered student), one column per assignment with its points possible.
 * @param {object} graded gradeClass's result (with scoreAssignments's and a roster's fields)
 * @param {{idColumn?: 'sis-user-id'|'sis-login-id'|'id', perExercise?: boolean, missing?: 'empty'|'zero'}} [options]
 */
export function canvasGradebookCsv(graded, { idColumn = 'sis-user-id', perExercise = false, missing = 'empty' } = {}) {
  const idHeader = CANVAS_ID_COLUMNS[idColumn];
  if (!idHeader) throw new Error(`idColumn must be one of ${Object.keys(CANVAS_ID_COLUMNS).join(', ')}, got ${JSON.stringify(idColumn)}`);
  const columns = gradebookColumns(graded, { perExercise });
  const rows = [
    [...CANVAS_IDENTITY_COLUMNS, ...columns.map((c) => safeText(c.title))],
    [CANVAS_POINTS_POSSIBLE, '', '', '', '', ...columns.map((c) => formatPoints(c.points))],
  ];
  for (const row of gradebookRows(graded, { missing })) {
    const identity = Object.fromEntries(CANVAS_IDENTITY_COLUMNS.map((c) => [c, row.cells?.[c] ?? '']));
    identity.Student = row.cells ? row.cells.Student : row.name;
    if (!row.cells) identity[idHeader] = row.id;
    rows.push([...CANVAS_IDENTITY_COLUMNS.map((c) => safeText(identity[c])), ...columns.map((c) => cellOf(row, c))]);
  }
  return toText(rows);
}

/** Moodle's user identifiers a grade import maps a column to: the option values and their column titles. */
export const MOODLE_ID_COLUMNS = Object.freeze({ idnumber: 'ID number', email: 'Email address', username: 'Username' });

/**
 * The gradebook CSV for Moodle's grade import (Grades > Import > CSV file): the identifier
 * column first (mapped in the import to the user's ID number, email address or username),
 * the name, then one column per assignment (each mapped to a grade item, or a new one);
 * one row per student, no points row (Moodle would read it as a user).
 * @param {{moodleId?: 'idnumber'|'email'|'username', perExercise?: boolean, missing?: 'empty'|'zero'}} [options]
 */
export function moodleGradebookCsv(graded, { moodleId = 'idnumber', perExercise = false, missing = 'empty' } = {}) {
  const idHeader = MOODLE_ID_COLUMNS[moodleId];
  if (!idHeader) throw new Error(`moodleId must be one of ${Object.keys(MOODLE_ID_COLUMNS).join(', ')}, got ${JSON.stringify(moodleId)}`);
  const columns = gradebookColumns(graded, { perExercise });
  const rows = [[idHeader, 'Full name', ...columns.map((c) => safeText(c.title))]];
  for (const row of gradebookRows(graded, { missing })) rows.push([safeText(row.id), safeText(row.name), ...columns.map((c) => cellOf(row, c))]);
  return toText(rows);
}

/** The roster against the submissions: who submitted (and under which spelling), who did not, which files match no one. */
export function rosterCsv(graded) {
  const rows = [['roster_row', 'name', 'roster_id', 'status', 'file', 'submitted_id', 'note']];
  if (!graded.roster) return toText(rows);
  for (const m of graded.roster.match.entries) {
    rows.push([m.roster.row, safeText(m.roster.name), safeText(m.roster.id), m.status, safeText(m.student?.file ?? ''), safeText(m.student?.result.student.id ?? ''), safeText(m.note)]);
  }
  for (const u of graded.roster.match.unmatched) rows.push(['', safeText(u.student.result.student.name), '', 'not-in-roster', safeText(u.student.file), safeText(u.student.result.student.id), safeText(u.note)]);
  return toText(rows);
}

/** Per student and assignment: the points before and after the late policy, and why (core's note). */
export function assignmentsCsv(graded) {
  const rows = [['student_id', 'file', 'assignment', 'points_possible', 'raw_score', 'score', 'due', 'submitted_at', 'late', 'days_late', 'kept_fraction', 'note']];
  const yesNo = (x) => (x === true ? 'yes' : x === false ? 'no' : '');
  for (const s of gradebookStudents(graded)) {
    for (const a of s.assignments?.assignments ?? []) {
      rows.push([safeText(s.result.student.id), safeText(s.file), safeText(a.name), formatPoints(a.points_possible), formatPoints(a.raw_score), formatPoints(a.score), a.due ?? '', typeof a.submitted_at === 'string' ? a.submitted_at : '', yesNo(a.late), a.days_late ?? '', formatPoints(a.kept_fraction), safeText(a.note)]);
    }
  }
  return toText(rows);
}

/** The points of a re-graded file that rest on the student's word: choice answers' tries. */
export const selfReportedPoints = (result) => result.exercises.reduce((sum, e) => sum + (e.self_reported_points ?? 0), 0);

/**
 * One row per graded file: totals, the points that rest on self-reported try numbers
 * (self_reported_points), the flags, then one column per exercise (its re-graded points).
 */
export function exercisesCsv(graded) {
  const ids = graded.exercises.map((e) => e.id);
  const rows = [['student_id', 'student_name', 'file', 'in_gradebook', 'total', 'max_total', 'self_reported_points', 'flags', ...ids]];
  for (const s of graded.students) {
    const { student, total, exercises, flags } = s.result;
    const byId = Object.fromEntries(exercises.map((e) => [e.id, e]));
    rows.push([
      safeText(student.id), safeText(student.name), safeText(s.file), s.in_gradebook ? 'yes' : 'no',
      formatPoints(total.score), formatPoints(total.max_score), formatPoints(selfReportedPoints(s.result)), [...new Set(flags.map((f) => f.code))].join(';'),
      ...ids.map((id) => formatPoints(byId[id]?.score ?? 0)),
    ]);
  }
  return toText(rows);
}

/** Every file that could not be read or graded as it claims, and why. */
export function problemsCsv(graded) {
  const rows = [['file', 'student_id', 'kind', 'graded', 'reason']];
  for (const p of graded.problems) rows.push([safeText(p.file), safeText(p.student_id ?? ''), p.kind, p.graded ? 'yes' : 'no', safeText(p.reason)]);
  return toText(rows);
}

/** Every flag of every graded file, with its reason. */
export function flagsCsv(graded) {
  const rows = [['file', 'student_id', 'flag', 'exercise', 'reason']];
  for (const s of graded.students) {
    for (const f of s.result.flags) rows.push([safeText(s.file), safeText(s.result.student.id), f.code, f.exercise ?? '', safeText(f.reason)]);
  }
  return toText(rows);
}

/** A file name for a student's feedback: the id with anything unsafe replaced. */
export function feedbackFileName(student, used = new Set()) {
  const base = String(student.id).trim().toLowerCase().replace(/[^a-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 80) || 'student';
  let name = `${base}.md`;
  for (let k = 2; used.has(name); k++) name = `${base}-${k}.md`;
  used.add(name);
  return name;
}

// The feedback files go to students: a path of the grading machine (an absolute file name the
// command line was given, a home folder in an error) becomes its last part.
const PATH_PATTERNS = [
  /file:\/\/[^\s'"`()<>,;]+/g, // a file URL
  /\b[A-Za-z]:\\[^\s'"`()<>,;]*/g, // C:\Users\...
  /~\/[^\s'"`()<>,;]*/g, // ~/...
  /(?<![\w.:/\\-])\/(?:[^\s/'"`()<>,;]+\/)+[^\s/'"`()<>,;]*/g, // /home/x/...: two parts or more
];
const lastPart = (path) => path.split(/[\\/]/).filter(Boolean).at(-1) ?? '';

/** `text` with every absolute path (and each of `names`, the graded files' names) cut to its last part. */
export function withoutPaths(text, names = []) {
  let out = String(text);
  for (const name of [...names].sort((a, b) => b.length - a.length)) if (/[\\/]/.test(name)) out = out.split(name).join(lastPart(name));
  for (const pattern of PATH_PATTERNS) out = out.replace(pattern, lastPart);
  return out;
}

/**
 * The feedback a student reads: totals and the notes that concern the whole file, then each
 * exercise the file holds an answer for (isAttempted) with its re-graded score, the
 * re-grade's feedback and the flags about it, and one line naming the others. No path of
 * the grading machine (withoutPaths).
 */
export function feedbackText(entry, graded) {
  const { student, total, chapters, exercises, flags } = entry.result;
  const out = [];
  out.push(`# ${student.name || student.id} (${student.id})`, '');
  out.push(`Re-graded from ${entry.file} with the exercise bank ${graded.bank_version}.`, '');
  out.push(`Total: ${formatPoints(total.score)} of ${formatPoints(total.max_score)} points.`, '');
  const onYourWord = selfReportedPoints(entry.result);
  if (onYourWord > 0) out.push(`Of these, ${formatPoints(onYourWord)} rest on the try numbers your file gives for choice exercises (self-reported: the re-grade checks that each answer is right for that try's variant, not how many tries came before).`, '');
  for (const [c, t] of Object.entries(chapters)) out.push(`- ${chapterColumn(c)}: ${formatPoints(t.score)} of ${formatPoints(t.max_score)}`);
  out.push('');
  if (entry.assignments) {
    // What the gradebook holds: each assignment's points after the course's late policy, and why.
    out.push('## Assignments', '');
    for (const a of entry.assignments.assignments) {
      out.push(`- ${a.name}: ${formatPoints(a.score)} of ${formatPoints(a.points_possible)}${a.kept_fraction < 1 ? ` (${formatPoints(a.raw_score)} before the late policy)` : ''}; ${a.note}.`);
    }
    out.push('');
  }
  const attempted = exercises.filter(isAttempted);
  const rest = exercises.filter((e) => !isAttempted(e));
  // A flag about an exercise not attempted (a score claimed with no answer) is said up here.
  const shown = new Set(attempted.map((e) => e.id));
  const general = flags.filter((f) => !shown.has(f.exercise));
  if (general.length) {
    out.push('## Notes from the re-grade', '');
    for (const f of general) out.push(`- ${f.code}: ${f.reason}`);
    out.push('');
  }
  out.push('## Exercises you attempted', '');
  if (!attempted.length) out.push('None: the file holds no answer for the exercises graded here.', '');
  for (const e of attempted) {
    out.push(`### ${e.title} (${e.id})`, '');
    out.push(`Score: ${formatPoints(e.score)} of ${formatPoints(e.max_score)}${e.claimed_score !== null && Math.abs(e.claimed_score - e.score) > 1e-6 ? ` (the page showed ${formatPoints(e.claimed_score)})` : ''}. Hints used: ${e.hints_used}. Graded tries: ${e.attempts}. Both self-reported; they change no points.`, '');
    if (e.kind === 'choice' && Number.isInteger(e.try)) out.push(`Self-reported: ${e.self_reported_points > 0 ? `these ${formatPoints(e.self_reported_points)} points rest` : 'the score rests'} on the try your file names (try ${e.try}); the re-grade checked the answer against that try's variant.`, '');
    out.push(e.feedback, '');
    for (const t of e.tests ?? []) if (!t.passed) out.push(`- ${t.message}`);
    if ((e.tests ?? []).some((t) => !t.passed)) out.push('');
    const own = flags.filter((f) => f.exercise === e.id);
    if (own.length) {
      out.push('Notes from the re-grade:', '');
      for (const f of own) out.push(`- ${f.code}: ${f.reason}`);
      out.push('');
    }
  }
  if (rest.length) out.push(`Not attempted: ${formatCount(rest.length, 'exercise')} (0 points each): ${rest.map((e) => e.id).join(', ')}.`);
  const names = [...graded.students.map((s) => s.file), ...(graded.problems ?? []).map((p) => p.file)];
  return `${withoutPaths(out.join('\n'), names).trimEnd()}\n`;
}

/** Every output, as {path: text}: what the CLI writes into --out and the page offers. */
export function classOutputs(graded, options = {}) {
  const files = {
    'gradebook-canvas.csv': canvasGradebookCsv(graded, options),
    'gradebook-moodle.csv': moodleGradebookCsv(graded, options),
    ...(graded.assignments ? { 'assignments.csv': assignmentsCsv(graded) } : {}),
    ...(graded.roster ? { 'roster.csv': rosterCsv(graded) } : {}),
    'exercises.csv': exercisesCsv(graded),
    'problems.csv': problemsCsv(graded),
    'flags.csv': flagsCsv(graded),
  };
  const used = new Set();
  for (const s of graded.students) files[`feedback/${feedbackFileName(s.result.student, used)}`] = feedbackText(s, graded);
  return files;
}
