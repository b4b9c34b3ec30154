// The submission file in and out: reading a handed-in or stored text (its depth, the JSON, the
// migration of older versions, then the checks), assembling an export and naming it. Pure
// functions without DOM or storage, so the page, the teacher's re-grading (web/src/grading/) and
// node:test share one reading. What a valid version 2 file holds, field by field, is
// submission-fields.js, re-exported here so callers import the format from one place.
// Not for: grading (core's grader, through the re-grade) or keeping progress (progress-store.js).

import {
  ENTRY_FIELDS,
  MAX_SUBMISSION_DEPTH,
  OPTIONAL_ENTRY_FIELDS,
  SUBMISSION_FORMAT,
  SUBMISSION_VERSION,
  describe,
  emptyEntry,
  isObject,
  validateSubmission,
} from './submission-fields.js';

export {
  ENTRY_FIELDS,
  EXPORT_FIELDS,
  OPTIONAL_ENTRY_FIELDS,
  MAX_SEED,
  MAX_SUBMISSION_DEPTH,
  OPTIONAL_TOP_LEVEL_FIELDS,
  SUBMISSION_FORMAT,
  SUBMISSION_VERSION,
  TOP_LEVEL_FIELDS,
  answerProblems,
  describe,
  emptyEntry,
  entryProblems,
  isObject,
  olympicsProblems,
  validateSubmission,
} from './submission-fields.js';

/**
 * Version 1 (the export before course identity: {version: 1, seed, exercises, exported_at?})
 * to version 2: no course and no student (practice mode), bank and page version and machine
 * unknown (null). An entry without best_answer (saved before it existed) offers its last
 * answer and draft for re-grading instead; hints_used becomes the failed tries, the most
 * hints the page could have unlocked.
 */
export function migrateV1(v1) {
  const exercises = {};
  for (const [id, e] of Object.entries(isObject(v1.exercises) ? v1.exercises : {})) {
    if (!isObject(e)) {
      exercises[id] = e; // validation names it
      continue;
    }
    const hasBest = 'best_answer' in e;
    const attempts = Number.isInteger(e.attempts) ? e.attempts : 0;
    exercises[id] = {
      attempts: e.attempts,
      solved: e.solved,
      best_score: e.best_score,
      best_answer: hasBest ? e.best_answer : (e.last_answer ?? null),
      best_code: hasBest ? (e.best_code ?? null) : (e.code ?? null),
      last_answer: e.last_answer ?? null,
      code: e.code ?? null,
      hints_used: Math.max(0, attempts - (e.solved === true ? 1 : 0)),
      ...Object.fromEntries(Object.entries(e).filter(([k]) => !ENTRY_FIELDS.includes(k))), // named by validation
    };
  }
  const { version: _v, seed, exercises: _e, exported_at: exportedAt, ...unknown } = v1;
  return {
    format: SUBMISSION_FORMAT,
    version: 2,
    course: null,
    student: null,
    seed,
    bank_version: null,
    page_version: null,
    machine: null,
    exported_at: exportedAt ?? null,
    exercises,
    ...unknown, // named by validation
  };
}

/** Steps that turn version n into version n + 1, keyed by n. */
export const MIGRATIONS = Object.freeze({ 1: migrateV1 });

/**
 * Brings `obj` to the current version with `migrations`, then validates it. Returns
 * `{submission, problems, migratedFrom}`; `submission` is null when there are problems
 * (`migratedFrom` is the file's version when it was older). Never mutates `obj`.
 */
export function migrateSubmission(obj, { complete = true, migrations = MIGRATIONS, targetVersion = SUBMISSION_VERSION } = {}) {
  const refuse = (problems) => ({ submission: null, problems, migratedFrom: null });
  if (!isObject(obj)) return refuse([`a submission must be a JSON object, got ${describe(obj)}`]);
  if (!('version' in obj)) return refuse(['"version" is missing: this is not a perflab submission or progress file']);
  if (!Number.isInteger(obj.version) || obj.version < 1) {
    return refuse([`"version" is ${describe(obj.version)}, it must be a whole number ≥ 1`]);
  }
  if (obj.version > targetVersion) {
    return refuse([`this file is version ${obj.version}, from a newer perflab; this page reads up to version ${targetVersion}`]);
  }
  if (obj.version >= 2 && 'format' in obj && obj.format !== SUBMISSION_FORMAT) {
    return refuse([`"format" is ${describe(obj.format)}, it must be "${SUBMISSION_FORMAT}"`]);
  }
  const from = obj.version;
  let current = structuredClone(obj);
  while (current.version < targetVersion) {
    const step = migrations[current.version];
    if (typeof step !== 'function') return refuse([`no migration from version ${current.version} to ${current.version + 1}`]);
    const before = current.version;
    current = step(current);
    if (!isObject(current) || current.version !== before + 1) {
      return refuse([`the migration from version ${before} did not produce version ${before + 1}`]);
    }
  }
  const problems = targetVersion === SUBMISSION_VERSION ? validateSubmission(current, { complete }) : [];
  if (problems.length) return refuse(problems);
  return { submission: current, problems: [], migratedFrom: from < targetVersion ? from : null };
}

/** How deeply `text` nests arrays and objects (brackets inside strings do not count). */
export function jsonTextDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; ++i) {
    const c = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') deepest = Math.max(deepest, ++depth);
    else if ((c === ']' || c === '}') && depth > 0) --depth;
  }
  return deepest;
}

/**
 * Parses, migrates and validates a JSON text (a handed-in file, a localStorage entry).
 * `options.json` is the text already read by lab/json-text.js's readJsonText (`{value}` or
 * `{reason}`: core's sentence with the place), for a caller that can ask the lab; without it
 * the text is parsed here and a refusal names no place.
 */
export function parseSubmission(text, options = {}) {
  if (typeof text !== 'string') return { submission: null, problems: ['the file is not text'], migratedFrom: null };
  const depth = jsonTextDepth(text);
  if (depth > MAX_SUBMISSION_DEPTH) {
    return {
      submission: null,
      problems: [`the file is nested ${depth} levels deep; a submission has at most ${MAX_SUBMISSION_DEPTH}`],
      migratedFrom: null,
    };
  }
  const { json, ...migrateOptions } = options;
  let read = json;
  if (read === undefined) {
    try {
      read = { value: JSON.parse(text) };
    } catch {
      read = { reason: null };
    }
  }
  if ('reason' in read) return { submission: null, problems: [read.reason ? `not valid JSON: ${read.reason}` : 'not valid JSON'], migratedFrom: null };
  return migrateSubmission(read.value, migrateOptions);
}

/**
 * The export: the kept progress ({course, student, seed, exercises, olympics?}) with what is
 * known at export time, fields in the documented order (olympics last, when kept). Every entry is completed with emptyEntry's
 * fields, and `hintsUsed(id, entry)` may correct hints_used (the page caps it by the
 * exercise's hint count).
 */
export function buildSubmission(progress, { bankVersion, pageVersion, machine, exportedAt, hintsUsed } = {}) {
  const exercises = {};
  for (const [id, e] of Object.entries(progress.exercises ?? {})) {
    const entry = { ...emptyEntry(), ...e };
    const ordered = Object.fromEntries(ENTRY_FIELDS.map((k) => [k, entry[k]]));
    for (const k of OPTIONAL_ENTRY_FIELDS) if (k in entry) ordered[k] = entry[k];
    if (hintsUsed) ordered.hints_used = hintsUsed(id, ordered);
    exercises[id] = ordered;
  }
  return {
    format: SUBMISSION_FORMAT,
    version: SUBMISSION_VERSION,
    course: progress.course ?? null,
    student: progress.student ?? null,
    seed: progress.seed,
    bank_version: bankVersion ?? null,
    page_version: pageVersion ?? null,
    machine: machine ?? null,
    exported_at: exportedAt ?? null,
    exercises,
    ...(progress.olympics ? { olympics: structuredClone(progress.olympics) } : {}),
  };
}

/** The file name an export is saved under: the student id (if any) and the date. */
export function submissionFileName(submission, date = new Date()) {
  const who = submission?.student?.id ? `-${submission.student.id.replace(/[^A-Za-z0-9._-]+/g, '_')}` : '';
  const course = submission?.course?.id ? `-${submission.course.id}` : '';
  return `perflab-submission${course}${who}-${date.toISOString().slice(0, 10)}.json`;
}
