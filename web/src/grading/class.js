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
const compare = (x, y) => (x < y ? -1 : x > y ? 1 : 0);
const exportMs = (s) => {
  const t = Date.parse(s.submission.exported_at ?? '');
  return Number.isFinite(t) ? t : -Infinity;
};
// File names in the order they win a tie: the shortest first (copies get longer names: "copy
// of", " (1)"), then code-point order.
const byName = (a, b) => a.length - b.length || compare(a, b);
// Which of one student's files the gradebook keeps, first: the latest exported_at (a missing or
// unreadable one counts as earliest), then byName, then the content fingerprint: a total
// order, so the same files in any order give the same choice. The date is the student's word,
// but each file is graded from its own contents: a forged date only picks one of the
// student's own files, as uploading that file alone would.
export const KEEPS_LATEST = 'the file with the latest exported_at, ties broken by the shorter file name, then code-point order, then content';
const latestFirst = (a, b) => compare(exportMs(b), exportMs(a)) || byName(a.file, b.file) || compare(a.print, b.print);

/**
 * @param {Array<{name: string, text: string}>} files
 * @param {{lab, runCode, course?, validate?, regrade?}} deps as regradeSubmission's, plus the format's
 *        validator for read.js, and regrade (regradeSubmission's signature, default
 *        regradeSubmission itself) to re-grade elsewhere, e.g. on other threads
 * @param {{onProgress?: Function, signal?: AbortSignal, concurrency?: number}} [options]
 *        onProgress({done, total, file}) after each file
 * @returns {Promise<{students, problems, flags, chapters, exercises, bank_version, hidden_key, partial}>}
 *   students: [{file, result, in_gradebook}] (result: regradeSubmission's), sorted by id;
 *   problems: [{file, student_id, kind, reason, graded}]; flags: the class-level flags
 *   [{code, reason, files, exercise?}]. With a signal that fires, resolves with what was
 *   graded so far and partial: true.
 */
export async function gradeClass(files, deps, { onProgress = () => {}, signal, concurrency = 1 } = {}) {
  const problems = [];
  const toGrade = [];
  // The same text under several names is graded once, under the name byName puts first,
  // whatever order the files come in.
  const entries = files.map((file) => {
    const text = typeof file?.text === 'string' ? file.text : '';
    return { name: String(file?.name ?? '(unnamed)'), text, print: fingerprint(text) };
  });
  const keeper = new Map(); // fingerprint -> the name it is graded under
  for (const { name, text, print } of entries) {
    if (text.trim() !== '' && (!keeper.has(print) || byName(name, keeper.get(print)) < 0)) keeper.set(print, name);
  }
  const kept = new Set();
  for (const { name, text, print } of entries) {
    if (text.trim() !== '' && (keeper.get(print) !== name || kept.has(print))) {
      problems.push({ file: name, student_id: '', kind: 'duplicate', reason: `the same file as ${keeper.get(print)}; graded once, under that name`, graded: false });
      continue;
    }
    kept.add(print);
    const read = await readSubmission(text, { jsonTextProblem: deps.lab.jsonTextProblem, ...(deps.validate ? { validate: deps.validate } : {}) });
    if (read.problem) problems.push({ file: name, student_id: '', ...read.problem, graded: false });
    else toGrade.push({ file: name, submission: read.submission, print });
  }

  // The command line re-grades on several threads (tools/grading/grade-pool.mjs) through
  // deps.regrade, which takes regradeSubmission's arguments and gives its result.
  const regrade = deps.regrade ?? regradeSubmission;
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
        const result = await regrade(item.submission, { ...deps, signal });
        students.push({ file: item.file, submission: item.submission, print: item.print, result, in_gradebook: true });
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
  const flags = [...duplicateStudents(students, problems), ...identicalCode(students, starters), ...copiedEvidence(students)];
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
    hidden_key: deps.hiddenKey ?? null, // the grading key of the hidden code tests (regrade.js)
    partial,
  };
}

// Several files for one student id: all are graded and flagged; the gradebook keeps one by
// latestFirst (problems.csv says which files it left out and why).
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
    const ordered = [...group].sort(latestFirst);
    const names = ordered.map((s) => s.file);
    const reason = `${group.length} files for student id ${JSON.stringify(id)}: ${names.join(', ')}; the gradebook takes ${ordered[0].file} (${KEEPS_LATEST})`;
    flags.push({ code: FLAGS.DUPLICATE_STUDENT, reason, files: names });
    for (const s of group) s.result.flags.push({ code: FLAGS.DUPLICATE_STUDENT, reason });
    for (const s of ordered.slice(1)) {
      s.in_gradebook = false;
      problems.push({ file: s.file, student_id: s.result.student.id, kind: 'duplicate-student', reason: `the gradebook keeps ${ordered[0].file} for this student id (${KEEPS_LATEST}); this one is graded but left out of the gradebook`, graded: true });
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

// Measured evidence shared between students of different ids: the same machine probe (the same
// measured_at, or the same peak and bandwidth to the last digit), and the same raw samples of
// one experiment, or the same after a scale (every sample of the run divided by the run's
// median, to COPY_DIGITS significant digits). Runs with fewer than MIN_COPY_SAMPLES samples or
// fewer than 4 distinct values are left out: short or flat runs can agree by chance. Reported,
// not judged.
const MIN_COPY_SAMPLES = 16;
const COPY_DIGITS = 3;
const SAMPLE_FIELDS = ['a_ms', 'b_ms', 'samples_ms'];

function scaledSamples(evidence) {
  const values = [];
  for (const row of Array.isArray(evidence?.rows) ? evidence.rows : []) {
    for (const key of SAMPLE_FIELDS) if (Array.isArray(row?.[key])) values.push(...row[key].filter(Number.isFinite));
  }
  if (values.length < MIN_COPY_SAMPLES) return null;
  const sorted = [...values].sort((x, y) => x - y);
  const median = sorted[sorted.length >> 1];
  if (!(median > 0)) return null;
  const scaled = values.map((v) => (v / median).toPrecision(COPY_DIGITS));
  return new Set(scaled).size < 4 ? null : scaled.join(',');
}

function copiedEvidence(students) {
  const groups = new Map(); // kind + key -> {code, what, exercise?, members}
  const add = (code, key, what, s, exercise) => {
    if (!groups.has(key)) groups.set(key, { code, what, exercise, members: [] });
    groups.get(key).members.push(s);
  };
  for (const s of students) {
    const probe = s.submission.machine?.probe;
    if (probe && (probe.measured_at || (probe.peak_gflops_per_s && probe.bandwidth_gb_per_s))) {
      const what = `the same machine probe (measured_at ${probe.measured_at ?? 'unknown'}, peak ${probe.peak_gflops_per_s} GFLOP/s, bandwidth ${probe.bandwidth_gb_per_s} GB/s)`;
      if (probe.measured_at) add(FLAGS.COPIED_PROBE, `probe-at\u0000${probe.measured_at}`, what, s);
      if (probe.peak_gflops_per_s && probe.bandwidth_gb_per_s) add(FLAGS.COPIED_PROBE, `probe-roofs\u0000${probe.peak_gflops_per_s}/${probe.bandwidth_gb_per_s}`, what, s);
    }
    const seen = new Set(); // one run per experiment and student, whichever exercises carry it
    for (const [id, entry] of Object.entries(s.submission.exercises ?? {})) {
      const evidence = entry?.best_answer?.evidence;
      const key = evidence ? scaledSamples(evidence) : null;
      if (key === null || seen.has(`${evidence.experiment}\u0000${key}`)) continue;
      seen.add(`${evidence.experiment}\u0000${key}`);
      add(FLAGS.COPIED_SAMPLES, `samples\u0000${evidence.experiment}\u0000${key}`, `the same raw samples of ${evidence.experiment} (equal to ${COPY_DIGITS} significant digits after dividing by the run's median)`, s, id);
    }
  }
  const flags = [];
  const reported = new Set();
  for (const { code, what, exercise, members } of groups.values()) {
    const ids = [...new Set(members.map((s) => normalizedId(s.result.student.id)))].sort();
    if (ids.length < 2) continue;
    const reason = `${what} in the files of ${ids.length} students: ${ids.join(', ')}; reported, not judged`;
    if (reported.has(reason)) continue; // a probe matched by its time and by its figures
    reported.add(reason);
    const flag = { code, reason, files: members.map((s) => s.file), ...(exercise ? { exercise } : {}) };
    flags.push(flag);
    for (const s of members) s.result.flags.push({ code, reason, ...(exercise ? { exercise } : {}) });
  }
  return flags;
}
