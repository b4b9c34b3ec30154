// One submission file read for grading: its text parsed and checked, or the reason it cannot
// be graded, as a problem the teacher sees in problems.csv ({kind, reason}). Kinds:
//   empty        the file holds nothing (or only whitespace)
//   truncated    JSON that stops before its end (an interrupted download or copy)
//   non-json     text that is not JSON at all
//   wrong-format JSON, but not a perflab submission (no "format": "perflab-submission")
//   wrong-version a submission of a version this grader does not read
//   invalid      a submission whose fields are malformed (each named)
//   no-student   a practice-mode or version 1 file: no student id to credit the grade to
// The field checks are the submission format's own (web/src/state/submission.js, the
// student side: docs/SUBMISSION.md), so a file the page would refuse to import is refused
// here with the same sentences.
// Pure. Not for: grading (regrade.js) or class-level checks (class.js).

import { readJsonText } from '../lab/json-text.js';
import { MAX_SUBMISSION_DEPTH, SUBMISSION_FORMAT, SUBMISSION_VERSION, jsonTextDepth, validateSubmission } from '../state/submission.js';

export { SUBMISSION_FORMAT, SUBMISSION_VERSION };

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A problem record for problems.csv. */
export const problem = (kind, reason) => ({ kind, reason });

// A text that opens a value and ends before closing it is "truncated", whatever else is wrong.
function looksTruncated(text) {
  const t = text.trimEnd();
  if (!/^[[{]/.test(t.trimStart())) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const c = t[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return inString || depth > 0;
}

/**
 * `{submission}` when `text` is a gradable submission, else `{problem: {kind, reason}}`.
 * `validate(obj)` returns the format's problems as sentences (default: the format's own
 * validateSubmission; basicProblems checks only the fields grading reads). Text that is not
 * JSON is refused with core's reason, naming the place: `jsonTextProblem` is the lab's
 * binding (the grading lab's jsonTextProblem).
 */
export async function readSubmission(text, { validate = validateSubmission, jsonTextProblem } = {}) {
  if (typeof text !== 'string' || text.trim() === '') {
    return { problem: problem('empty', 'the file is empty') };
  }
  const depth = jsonTextDepth(text);
  if (depth > MAX_SUBMISSION_DEPTH) {
    return { problem: problem('invalid', `the file is nested ${depth} levels deep; a submission has at most ${MAX_SUBMISSION_DEPTH}`) };
  }
  const read = await readJsonText(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, jsonTextProblem);
  if ('reason' in read) {
    if (looksTruncated(text)) {
      return { problem: problem('truncated', `the file ends before its JSON does (${text.length} characters; ${read.reason}): it was cut off, ask the student to export again`) };
    }
    return { problem: problem('non-json', `the file is not JSON: ${read.reason}`) };
  }
  const obj = read.value;
  if (!isObject(obj)) return { problem: problem('wrong-format', 'the file holds JSON but not an object: not a perflab submission') };
  if (obj.format !== SUBMISSION_FORMAT) {
    if (obj.format === undefined && obj.version === 1 && 'seed' in obj && 'exercises' in obj) {
      return { problem: problem('no-student', 'a version 1 progress export (before course identity): it names no student, so it cannot be credited; ask the student to export again from the course page') };
    }
    return { problem: problem('wrong-format', `"format" is ${JSON.stringify(obj.format) ?? 'missing'}, not "${SUBMISSION_FORMAT}": not a perflab submission`) };
  }
  if (obj.version !== SUBMISSION_VERSION) {
    return { problem: problem('wrong-version', `"version" is ${JSON.stringify(obj.version) ?? 'missing'}; this grader reads version ${SUBMISSION_VERSION}`) };
  }
  const problems = validate(obj);
  if (problems.length) return { problem: problem('invalid', problems.join('; ')) };
  if (!isObject(obj.student) || typeof obj.student.id !== 'string' || obj.student.id.trim() === '') {
    return { problem: problem('no-student', 'a practice-mode submission (no course, no student id): it cannot be credited to a student') };
  }
  return { submission: obj };
}

/** Only the fields grading reads, checked: for callers that accept more than the format. */
export function basicProblems(obj) {
  const out = [];
  if (!Number.isInteger(obj.seed) || obj.seed < 0 || obj.seed > 0xffffffff) out.push(`"seed" is ${JSON.stringify(obj.seed)}, it must be an integer from 0 to 4294967295`);
  if (!isObject(obj.exercises)) out.push('"exercises" must be an object keyed by exercise id');
  else {
    for (const [id, e] of Object.entries(obj.exercises)) {
      if (!isObject(e)) out.push(`exercises["${id}"] must be an object`);
      else {
        if (e.best_answer !== undefined && e.best_answer !== null && !isObject(e.best_answer)) out.push(`exercises["${id}"].best_answer must be an object or null`);
        if (e.best_code !== undefined && e.best_code !== null && typeof e.best_code !== 'string') out.push(`exercises["${id}"].best_code must be a string or null`);
      }
    }
  }
  if (obj.student !== null && obj.student !== undefined && !isObject(obj.student)) out.push('"student" must be an object or null');
  if (obj.course !== null && obj.course !== undefined && !isObject(obj.course)) out.push('"course" must be an object or null');
  return out;
}
