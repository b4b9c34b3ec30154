// The LMS's own files a class grading reads besides the submissions: a roster (Canvas's
// gradebook export, Moodle's grade export, Gradescope's roster export), a submissions CSV
// with the times the LMS recorded, and the late marker in Canvas's bulk-download file names.
// Each is matched to the graded students by id: exactly, or with another case or with spaces
// (matched, and said). Pure; runs in the page and in Node. Not for: deciding lateness or
// points (core: assignmentScores) or writing the gradebook (outputs.js).

/** RFC 4180 text to rows of cells: quoted fields (commas, quotes, line breaks inside), a BOM, CRLF or LF. */
export function parseCsv(text) {
  if (typeof text !== 'string') throw new TypeError(`parseCsv: the text must be a string, got ${typeof text}`);
  const s = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i += 1;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' || c === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      if (c === '\r' && s[i + 1] === '\n') i += 1;
    } else field += c;
    i += 1;
  }
  if (quoted) throw new Error(`the CSV ends inside a quoted field (row ${rows.length + 1}): a quote is not closed`);
  if (field !== '' || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => !(r.length === 1 && r[0].trim() === ''));
}

/** An id as matched loosely: every space removed, ASCII letters lower-cased. */
export const looseId = (id) => String(id ?? '').replace(/\s+/g, '').replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * The roster formats read, each told apart by its header, and the column matched by default.
 * Canvas: the gradebook export (instructure/canvas-lms lib/gradebook_exporter.rb), rows after
 * "    Points Possible" are students but Canvas's own "Student, Test". Moodle: the grade
 * export ("First name", "Last name", "ID number", "Email address", ...). Gradescope: the
 * course roster export ("First Name", "Last Name", "SID", "Email", "Role"; only students).
 */
export const ROSTER_FORMATS = Object.freeze({
  canvas: { test: (h) => h.includes('Student') && h.includes('SIS User ID'), idColumn: 'SIS User ID' },
  moodle: { test: (h) => h.includes('ID number') && h.includes('Email address'), idColumn: 'ID number' },
  gradescope: { test: (h) => h.includes('SID') && h.includes('Email'), idColumn: 'SID' },
});

const nameOf = (format, cell) => {
  if (format === 'canvas') return cell('Student');
  const first = cell('First name') || cell('First Name');
  const last = cell('Last name') || cell('Last Name');
  return [first, last].filter(Boolean).join(' ') || cell('Full Name') || cell('Name');
};

/**
 * Reads a roster export. `idColumn` names the column matched against the submissions' student
 * ids (default: the format's). Returns {format, idColumn, header, students: [{row, name, id,
 * cells}]} in the file's order; throws an Error saying what is wrong and what is read.
 */
export function readRoster(text, { idColumn = null } = {}) {
  const rows = parseCsv(text);
  if (!rows.length) throw new Error('the roster is empty');
  const header = rows[0].map((h) => h.trim());
  const format = Object.keys(ROSTER_FORMATS).find((k) => ROSTER_FORMATS[k].test(header));
  if (!format) {
    throw new Error(`the roster's header (${header.slice(0, 6).join(', ')}) is none of the exports read: Canvas's gradebook (Student, ID, SIS User ID, SIS Login ID, Section, ...), Moodle's grade export (First name, Last name, ID number, ..., Email address) or Gradescope's roster (First Name, Last Name, SID, Email, ...)`);
  }
  const column = idColumn ?? ROSTER_FORMATS[format].idColumn;
  const at = header.indexOf(column);
  if (at < 0) throw new Error(`the ${format} roster has no column ${JSON.stringify(column)}; its columns: ${header.join(', ')}`);
  const students = [];
  const roleAt = header.indexOf('Role');
  rows.slice(1).forEach((cells, k) => {
    const cell = (name) => {
      const i = header.indexOf(name);
      return i < 0 ? '' : String(cells[i] ?? '').trim();
    };
    const first = String(cells[0] ?? '');
    if (format === 'canvas' && (/^\s*Points Possible\s*$/.test(first) || first.startsWith('    ') || first.trim() === 'Student, Test')) return;
    if (format === 'gradescope' && roleAt >= 0 && cell('Role') && !/^student$/i.test(cell('Role'))) return;
    students.push({ row: k + 2, name: nameOf(format, cell), id: String(cells[at] ?? '').trim(), cells: Object.fromEntries(header.map((h, i) => [h, String(cells[i] ?? '')])) });
  });
  return { format, idColumn: column, header, students };
}

/**
 * Matches the gradebook's students (gradeClass's, in_gradebook) to a roster: exactly, else
 * by looseId (another case, spaces), else not at all. A loose key shared by two roster rows
 * matches neither (said). Returns {entries: [{roster, student|null, status, note}] in the
 * roster's order, unmatched: [{student, note}]}; status is "submitted", "id-differs" (matched,
 * with the id as typed in the note) or "missing".
 */
export function matchRoster(roster, students) {
  const exact = new Map();
  const loose = new Map();
  for (const r of roster.students) {
    if (r.id === '') continue;
    if (!exact.has(r.id)) exact.set(r.id, r);
    const key = looseId(r.id);
    loose.set(key, loose.has(key) ? null : r);
  }
  const byRoster = new Map();
  const unmatched = [];
  for (const s of students) {
    const typed = String(s.result.student.id);
    let r = exact.get(typed) ?? null;
    let note = '';
    if (!r) {
      const key = looseId(typed);
      r = loose.get(key) ?? null;
      if (r) note = `the file's id ${JSON.stringify(typed)} is the roster's ${JSON.stringify(r.id)} in another case or with spaces; matched`;
      else if (loose.has(key)) note = `the file's id ${JSON.stringify(typed)} matches several roster ids once case and spaces are ignored; not matched`;
    }
    if (!r || byRoster.has(r)) {
      unmatched.push({ student: s, note: note || (r ? `a second file for the roster's ${JSON.stringify(r.id)}` : `no roster row has the ${roster.idColumn} ${JSON.stringify(typed)}`) });
      continue;
    }
    byRoster.set(r, { student: s, note });
  }
  const entries = roster.students.map((r) => {
    const m = byRoster.get(r);
    if (!m) return { roster: r, student: null, status: 'missing', note: r.id === '' ? `no ${roster.idColumn} in the roster` : 'no submission' };
    return { roster: r, student: m.student, status: m.note ? 'id-differs' : 'submitted', note: m.note };
  });
  return { entries, unmatched };
}

// Canvas's bulk download ("Download Submissions") names each uploaded file
// <name>[_LATE]_<user id>_<attachment id>_<the name uploaded> (instructure/canvas-lms,
// lib/content_zipper.rb: get_filename joins the sortable name, "LATE" when submission.late?,
// and the user id, an anonymous assignment leaving the name out and naming anon_<id>;
// add_upload_submission appends the attachment's id and name). The LATE is Canvas's own
// record of a submission after the due date; it carries no time.
const CANVAS_ANONYMOUS = /^()(LATE_)?(anon_[A-Za-z0-9]+)_(\d+)_(.+)$/s;
const CANVAS_NAMED = /^(.+?)(_LATE)?_(\d+)_(\d+)_(.+)$/su;

/** A file name from Canvas's bulk download: {late, user_id, attachment_id, original}, else null. */
export function canvasDownloadName(fileName) {
  const base = String(fileName).split(/[\\/]/).at(-1);
  const m = CANVAS_ANONYMOUS.exec(base) ?? CANVAS_NAMED.exec(base);
  return m ? { late: m[2] !== undefined, user_id: m[3], attachment_id: m[4], original: m[5] } : null;
}

/**
 * A submissions CSV: the times the LMS recorded. Columns student_id and submitted_at (ISO 8601
 * with an offset; core checks it), and optionally assignment (an assignment id of the course;
 * without it the time applies to every assignment). Returns Map(looseId -> {at: string|null,
 * by: {assignment: string}}).
 */
export function readSubmissionTimes(text) {
  const rows = parseCsv(text);
  if (!rows.length) throw new Error('the submissions CSV is empty');
  const header = rows[0].map((h) => h.trim());
  const idAt = header.indexOf('student_id');
  const timeAt = header.indexOf('submitted_at');
  const assignmentAt = header.indexOf('assignment');
  if (idAt < 0 || timeAt < 0) throw new Error(`the submissions CSV needs the columns student_id and submitted_at (and optionally assignment); its header: ${header.join(', ')}`);
  const times = new Map();
  rows.slice(1).forEach((cells, k) => {
    const id = String(cells[idAt] ?? '').trim();
    const at = String(cells[timeAt] ?? '').trim();
    if (id === '') throw new Error(`the submissions CSV's row ${k + 2} has no student_id`);
    const key = looseId(id);
    const entry = times.get(key) ?? { at: null, by: {} };
    const assignment = assignmentAt < 0 ? '' : String(cells[assignmentAt] ?? '').trim();
    if (assignment) entry.by[assignment] = at || null;
    else entry.at = at || null;
    times.set(key, entry);
  });
  return times;
}

/**
 * What assignmentScores takes about one student's lateness: the submission time from the
 * submissions CSV (per assignment where it names one; `assignments` are the course's ids),
 * else Canvas's late marker from the file's name, else nothing (no late policy applied).
 */
export function latenessOf(entry, { times = null, assignments = [] } = {}) {
  const t = times?.get(looseId(entry.result.student.id));
  if (t) {
    if (!Object.keys(t.by).length) return { submitted_at: t.at };
    return { submitted_at: Object.fromEntries(assignments.map((id) => [id, t.by[id] ?? t.at])) };
  }
  const canvas = canvasDownloadName(entry.file);
  if (canvas) return { submitted_at: null, late: canvas.late };
  return { submitted_at: null };
}
