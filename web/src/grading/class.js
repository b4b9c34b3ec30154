// Grades a class: many submission files, each read (read.js) and re-graded (regrade.js),
// then the checks that need the whole class: the same file twice, several files for one
// student id, and code identical between students (normalized text, reported not judged).
// Every file ends up either graded or in `problems` with its reason; none is skipped.
// Runs in the page and in Node (no DOM). Not for: running code (deps.runCode) or output
// formats (csv.js).

import { normalizeCode } from './normalize-code.js';
import { readSubmission } from './read.js';
import { FLAGS, gradedChapters, regradeSubmission } from './regrade.js';

/** The Error a class grading rejects with when its AbortSignal fires. */
export class GradingCancelledError extends Error {
  constructor() {
    super('Grading was cancelled; the files graded so far are kept.');
    this.name = 'GradingCancelledError';
  }
}

// A cheap content fingerprint (FNV-1a over UTF-16 code units, two seeds): equal texts are
// found without keeping a map of whole files.
function fingerprint(text) {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `${a.toString(16)}-${b.toString(16)}-${text.length}`;
}

// As core compares ids (courseSeed): trimmed, ASCII letters lower-cased.
const normalizedId = (id) => String(id).trim().replace(/[A-Z]/g, (c) => c.toLowerCase());
const byExportTime = (a, b) => String(b.exported_at ?? '').localeCompare(String(a.exported_at ?? ''));

/**
 * @param {Array<{name: string, text: string}>} files
 * @param {{lab, runCode, course?, validate?}} deps as regradeSubmission's, plus the format's
 *        validator for read.js
 * @param {{onProgress?: Function, signal?: AbortSignal, concurrency?: number}} [options]
 *        onProgress({done, total, file}) after each file
 * @returns {Promise<{students, problems, flags, chapters, exercises, bank_version, partial}>}
 *   students: [{file, result, in_gradebook}] (result: regradeSubmission's), sorted by id;
 *   problems: [{file, student_id, kind, reason, graded}]; flags: the class-level flags
 *   [{code, reason, files, exercise?}]. With a signal that fires, resolves with what was
 *   graded so far and partial: true.
 */
export async function gradeClass(files, deps, { onProgress = () => {}, signal, concurrency = 1 } = {}) {
  const problems = [];
  const toGrade = [];
  const seen = new Map(); // fingerprint -> first file name
  for (const file of files) {
    const name = String(file?.name ?? '(unnamed)');
    const text = typeof file?.text === 'string' ? file.text : '';
    const print = fingerprint(text);
    if (text.trim() !== '' && seen.has(print)) {
      problems.push({ file: name, student_id: '', kind: 'duplicate', reason: `the same file as ${seen.get(print)}; graded once, under that name`, graded: false });
      continue;
    }
    seen.set(print, name);
    const read = await readSubmission(text, { jsonTextProblem: deps.lab.jsonTextProblem, ...(deps.validate ? { validate: deps.validate } : {}) });
    if (read.problem) problems.push({ file: name, student_id: '', ...read.problem, graded: false });
    else toGrade.push({ file: name, submission: read.submission });
  }

  const students = [];
  let done = files.length - toGrade.length;
  let partial = false;
  onProgress({ done, total: files.length, file: null });
  let next = 0;
  const worker = async () => {
    while (next < toGrade.length) {
      if (signal?.aborted) {
        partial = true;
        return;
      }
      const item = toGrade[next++];
      try {
        const result = await regradeSubmission(item.submission, { ...deps, signal });
        students.push({ file: item.file, submission: item.submission, result, in_gradebook: true });
      } catch (e) {
        if (signal?.aborted) {
          partial = true;
          return; // the file in flight is left ungraded, not half graded
        }
        problems.push({ file: item.file, student_id: item.submission.student?.id ?? '', kind: 'ungradable', reason: `re-grading failed: ${e?.message ?? e}`, graded: false });
      }
      done += 1;
      onProgress({ done, total: files.length, file: item.file });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, toGrade.length)) }, worker));
  if (signal?.aborted) partial = true;
  // A cancelled grading still accounts for every file.
  const accounted = new Set([...students.map((s) => s.file), ...problems.map((p) => p.file)]);
  for (const item of toGrade) {
    if (!accounted.has(item.file)) {
      problems.push({ file: item.file, student_id: item.submission.student?.id ?? '', kind: 'not-graded', reason: 'grading was cancelled before this file was graded', graded: false });
    }
  }

  students.sort((a, b) => normalizedId(a.result.student.id).localeCompare(normalizedId(b.result.student.id)) || a.file.localeCompare(b.file));
  const [bank, version] = await Promise.all([deps.lab.exerciseBank(), deps.lab.exerciseBankVersion()]);
  const starters = new Map(bank.map((e) => [e.id, normalizeCode(e.starter_code ?? '')]));
  const flags = [...duplicateStudents(students, problems), ...identicalCode(students, starters)];
  for (const s of students) {
    for (const f of s.result.flags) {
      if (f.code === FLAGS.SCORE_DIFFERS) {
        problems.push({ file: s.file, student_id: s.result.student.id, kind: 'tampered', reason: `graded from the answers, not the claimed score: ${f.reason}`, graded: true });
      }
    }
  }

  const chapters = gradedChapters(bank, deps.course);
  return {
    students,
    problems,
    flags,
    chapters,
    exercises: bank.filter((e) => chapters.includes(e.chapter)).map(({ id, chapter, title, kind, points }) => ({ id, chapter, title, kind, points })),
    bank_version: version,
    partial,
  };
}

// Several files for one student id: all are graded and flagged; the gradebook keeps the
// latest export (problems.csv says which files it left out).
function duplicateStudents(students, problems) {
  const byId = new Map();
  for (const s of students) {
    const id = normalizedId(s.result.student.id);
    if (!byId.has(id)) byId.set(id, []);
    byId.get(id).push(s);
  }
  const flags = [];
  for (const [id, group] of byId) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => byExportTime(a.submission, b.submission));
    const names = group.map((s) => s.file);
    const reason = `${group.length} files for student id ${JSON.stringify(id)}: ${names.join(', ')}; the gradebook takes ${ordered[0].file} (exported last)`;
    flags.push({ code: FLAGS.DUPLICATE_STUDENT, reason, files: names });
    for (const s of group) s.result.flags.push({ code: FLAGS.DUPLICATE_STUDENT, reason });
    for (const s of ordered.slice(1)) {
      s.in_gradebook = false;
      problems.push({ file: s.file, student_id: s.result.student.id, kind: 'duplicate-student', reason: `another file for this student id was exported later (${ordered[0].file}); this one is graded but left out of the gradebook`, graded: true });
    }
  }
  return flags;
}

// Code exercises whose normalized best code is the same for students of different ids. The
// starter code and empty code are left out (unchanged starter code is not a match).
function identicalCode(students, starters) {
  const flags = [];
  const groups = new Map(); // exercise id + normalized code -> students
  for (const s of students) {
    for (const e of s.result.exercises) {
      if (e.kind !== 'code' || typeof e.code !== 'string') continue;
      const text = normalizeCode(e.code);
      if (text === '') continue;
      const key = `${e.id}\u0000${text}`;
      if (!groups.has(key)) groups.set(key, { exercise: e.id, text, members: [] });
      groups.get(key).members.push(s);
    }
  }
  for (const { exercise, text, members } of groups.values()) {
    const ids = [...new Set(members.map((s) => normalizedId(s.result.student.id)))];
    if (ids.length < 2) continue;
    if (starters.get(exercise) === text) continue;
    const reason = `${exercise}: the same code (comments and whitespace aside) from ${ids.length} students: ${ids.join(', ')}; reported, not judged`;
    flags.push({ code: FLAGS.IDENTICAL_CODE, exercise, reason, files: members.map((s) => s.file) });
    for (const s of members) s.result.flags.push({ code: FLAGS.IDENTICAL_CODE, exercise, reason });
  }
  return flags;
}
