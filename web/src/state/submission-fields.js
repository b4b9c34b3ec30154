// What a version 2 submission file is ("perflab-submission"; docs/SUBMISSION.md): its fields in
// the order an export writes them, the limits core shares, and the checks that name each
// problem in a sentence. Pure, without DOM or storage. Not for: reading a file's text,
// migrating an older version or assembling an export (submission.js, which re-exports this).

export const SUBMISSION_FORMAT = 'perflab-submission';
export const SUBMISSION_VERSION = 2;

export const MAX_SEED = 0xffffffff;
// The deepest nesting of arrays and objects a file may have. A valid file nests about 9
// levels (exercises → entry → best_answer → evidence → rows → row → value); the bound keeps
// structuredClone and the validators, which recurse, far from the JS stack's end.
export const MAX_SUBMISSION_DEPTH = 32;

/** Fields of a version 2 file, in the order an export writes them. */
export const TOP_LEVEL_FIELDS = Object.freeze([
  'format',
  'version',
  'course',
  'student',
  'seed',
  'bank_version',
  'page_version',
  'machine',
  'exported_at',
  'exercises',
]);
/**
 * Optional top-level fields, written after `exercises` when present: `olympics`, the Olympics
 * entries ({entries: [entry, ...]}, core's format, which core checks field by field).
 */
export const OPTIONAL_TOP_LEVEL_FIELDS = Object.freeze(['olympics']);
/** Written at export time only; progress kept in a browser may lack them. */
export const EXPORT_FIELDS = Object.freeze(['bank_version', 'page_version', 'machine', 'exported_at']);
/** Fields of one exercise's entry, all required in a version 2 file. */
export const ENTRY_FIELDS = Object.freeze([
  'attempts',
  'solved',
  'best_score',
  'best_answer',
  'best_code',
  'last_answer',
  'code',
  'hints_used',
]);
/**
 * Optional fields of an entry: `mode`, the course's answer mode the latest answer was given
 * under (core's answer modes, core/include/perflab/grading/answer_modes.hpp); absent in
 * practice mode without a course and in files from before modes.
 */
export const OPTIONAL_ENTRY_FIELDS = Object.freeze(['mode']);
const ANSWER_MODES = ['practice', 'assessed', 'sealed'];
const ANSWER_KINDS = ['value', 'values', 'choice', 'results'];
const COURSE_FIELDS = ['id', 'title', 'chapters'];
const STUDENT_FIELDS = ['id', 'name'];
const MACHINE_FIELDS = ['build', 'simd', 'cores', 'timer_resolution_ms', 'cross_origin_isolated', 'user_agent', 'probe', 'engine'];
const ENGINE_FIELDS = ['flavour', 'max_threads'];
const PROBE_FIELDS = ['peak_gflops_per_s', 'bandwidth_gb_per_s', 'measured_at'];
// core's limits (core/include/perflab/grading/course.hpp): ids a course and a student may have.
const COURSE_ID = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_STUDENT_ID_LENGTH = 100;
const MAX_TEXT_LENGTH = 200;
const BANK_VERSION = /^bank-[0-9a-f]{16}$/;

export const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
export const describe = (v) => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return `${typeof v === 'object' ? 'an object' : `a ${typeof v}`}`;
};
const unknownFields = (at, obj, allowed) =>
  Object.keys(obj)
    .filter((k) => !allowed.includes(k))
    .map((k) => `${at}unknown field "${k}" (allowed: ${allowed.join(', ')})`);

/** The state of an exercise nobody has tried yet. */
export function emptyEntry() {
  return {
    attempts: 0,
    solved: false,
    best_score: 0,
    best_answer: null,
    best_code: null,
    last_answer: null,
    code: null,
    hints_used: 0,
  };
}

/**
 * Every problem with `obj` as a version 2 submission, as sentences naming the field, what it
 * holds and what is allowed; an empty list means valid. `complete: false` reads progress kept
 * in a browser, which may lack the fields written at export time (EXPORT_FIELDS).
 */
export function validateSubmission(obj, { complete = true } = {}) {
  if (!isObject(obj)) return [`a submission must be a JSON object, got ${describe(obj)}`];
  const problems = unknownFields('', obj, [...TOP_LEVEL_FIELDS, ...OPTIONAL_TOP_LEVEL_FIELDS]);
  for (const key of TOP_LEVEL_FIELDS) {
    if (!(key in obj) && (complete || !EXPORT_FIELDS.includes(key))) problems.push(`"${key}" is missing`);
  }
  if ('format' in obj && obj.format !== SUBMISSION_FORMAT) {
    problems.push(`"format" is ${describe(obj.format)}, it must be "${SUBMISSION_FORMAT}"`);
  }
  if ('version' in obj && obj.version !== SUBMISSION_VERSION) {
    problems.push(`"version" is ${describe(obj.version)}, this page reads version ${SUBMISSION_VERSION}`);
  }
  if ('seed' in obj && !(Number.isInteger(obj.seed) && obj.seed >= 0 && obj.seed <= MAX_SEED)) {
    problems.push(`"seed" is ${describe(obj.seed)}, it must be an integer from 0 to ${MAX_SEED}`);
  }
  if ('course' in obj) problems.push(...courseProblems(obj.course));
  if ('student' in obj) problems.push(...studentProblems(obj.student));
  if (isObject(obj.course) && obj.student === null) {
    problems.push('"student" is null but "course" is set: a course submission names its student');
  }
  if (obj.course === null && isObject(obj.student)) {
    problems.push('"student" is set but "course" is null: a student belongs to a course (practice mode has neither)');
  }
  if ('bank_version' in obj && obj.bank_version !== null && !(typeof obj.bank_version === 'string' && BANK_VERSION.test(obj.bank_version))) {
    problems.push(`"bank_version" is ${describe(obj.bank_version)}, it must be "bank-" and 16 hex digits (core's exerciseBankVersion), or null when unknown`);
  }
  if ('page_version' in obj && obj.page_version !== null && !(typeof obj.page_version === 'string' && obj.page_version.length <= MAX_TEXT_LENGTH)) {
    problems.push(`"page_version" is ${describe(obj.page_version)}, it must be a string such as "0.1.0+abc1234", or null when unknown`);
  }
  if ('machine' in obj && obj.machine !== null) problems.push(...machineProblems(obj.machine));
  if ('exported_at' in obj && obj.exported_at !== null && !isIsoTime(obj.exported_at)) {
    problems.push(`"exported_at" is ${describe(obj.exported_at)}, it must be an ISO time such as "2026-11-26T03:00:00.000Z", or null when unknown`);
  }
  if ('exercises' in obj) {
    if (!isObject(obj.exercises)) {
      problems.push(`"exercises" is ${describe(obj.exercises)}, it must be an object keyed by exercise id`);
    } else {
      for (const [id, entry] of Object.entries(obj.exercises)) problems.push(...entryProblems(id, entry));
    }
  }
  if ('olympics' in obj) problems.push(...olympicsProblems(obj.olympics));
  return problems;
}

/**
 * The page's checks of `olympics`: {entries}, each entry an object with its own id. What an
 * entry holds (events, pipeline, timing, ...) is core's to check (the grader's olympicsCheck
 * names each field), so a file with a malformed entry is still read and that entry refused there.
 */
export function olympicsProblems(olympics) {
  const shape = 'it must be {entries: [entry, ...]}';
  if (!isObject(olympics)) return [`"olympics" is ${describe(olympics)}, ${shape}`];
  const problems = unknownFields('olympics: ', olympics, ['entries']);
  if (!Array.isArray(olympics.entries)) return [...problems, `olympics.entries is ${describe(olympics.entries)}, ${shape}`];
  const seen = new Set();
  olympics.entries.forEach((e, i) => {
    const at = `olympics.entries[${i}]`;
    if (!isObject(e)) problems.push(`${at} is ${describe(e)}, it must be an entry object`);
    else if (!('id' in e)) problems.push(`${at}: "id" is missing, each entry needs its own id`);
    else if (!(typeof e.id === 'string' && e.id !== '' && e.id.length <= MAX_TEXT_LENGTH)) {
      problems.push(`${at}.id is ${describe(e.id)}, it must be a non-empty string of at most ${MAX_TEXT_LENGTH} characters`);
    } else if (seen.has(e.id)) problems.push(`${at}.id is "${e.id}", which an earlier entry has; each entry needs its own id`);
    else seen.add(e.id);
  });
  return problems;
}

const isIsoTime = (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v) && !Number.isNaN(Date.parse(v));

function courseProblems(course) {
  if (course === null) return [];
  if (!isObject(course)) return [`"course" is ${describe(course)}, it must be {id, title, chapters} or null (practice mode)`];
  const problems = unknownFields('course: ', course, COURSE_FIELDS);
  if (!(typeof course.id === 'string' && COURSE_ID.test(course.id))) {
    problems.push(`course.id is ${describe(course.id)}, it must be 1 to 64 letters, digits, '.', '_' or '-'`);
  }
  if (!(typeof course.title === 'string' && course.title.length <= MAX_TEXT_LENGTH)) {
    problems.push(`course.title is ${describe(course.title)}, it must be a string of at most ${MAX_TEXT_LENGTH} characters`);
  }
  if (!Array.isArray(course.chapters) || !course.chapters.every((c) => typeof c === 'string' && c !== '')) {
    problems.push(`course.chapters is ${describe(course.chapters)}, it must be an array of chapter names`);
  }
  return problems;
}

function studentProblems(student) {
  if (student === null) return [];
  if (!isObject(student)) return [`"student" is ${describe(student)}, it must be {id, name} or null (practice mode)`];
  const problems = unknownFields('student: ', student, STUDENT_FIELDS);
  if (!(typeof student.id === 'string' && student.id.trim() !== '' && student.id.length <= MAX_STUDENT_ID_LENGTH)) {
    problems.push(`student.id is ${describe(student.id)}, it must be a non-empty string of at most ${MAX_STUDENT_ID_LENGTH} characters`);
  }
  if (!(typeof student.name === 'string' && student.name.length <= MAX_TEXT_LENGTH)) {
    problems.push(`student.name is ${describe(student.name)}, it must be a string of at most ${MAX_TEXT_LENGTH} characters`);
  }
  return problems;
}

function machineProblems(machine) {
  if (!isObject(machine)) return [`"machine" is ${describe(machine)}, it must be an object or null`];
  const problems = unknownFields('machine: ', machine, MACHINE_FIELDS);
  const { build, simd, cores, timer_resolution_ms: timer, cross_origin_isolated: isolated, user_agent: ua, probe } = machine;
  if ('build' in machine && !['simd', 'scalar', null].includes(build)) {
    problems.push(`machine.build is ${describe(build)}, it must be "simd", "scalar" or null`);
  }
  if ('simd' in machine && ![true, false, null].includes(simd)) problems.push(`machine.simd is ${describe(simd)}, it must be true, false or null`);
  if ('cores' in machine && cores !== null && !(Number.isInteger(cores) && cores >= 1)) {
    problems.push(`machine.cores is ${describe(cores)}, it must be a whole number ≥ 1 or null`);
  }
  if ('timer_resolution_ms' in machine && timer !== null && !(Number.isFinite(timer) && timer >= 0)) {
    problems.push(`machine.timer_resolution_ms is ${describe(timer)}, it must be a number ≥ 0 or null`);
  }
  if ('cross_origin_isolated' in machine && ![true, false, null].includes(isolated)) {
    problems.push(`machine.cross_origin_isolated is ${describe(isolated)}, it must be true, false or null`);
  }
  if ('user_agent' in machine && ua !== null && !(typeof ua === 'string' && ua.length <= 1000)) {
    problems.push(`machine.user_agent is ${describe(ua)}, it must be a string or null`);
  }
  if ('engine' in machine && machine.engine !== null) {
    const { engine } = machine;
    if (!isObject(engine)) problems.push(`machine.engine is ${describe(engine)}, it must be {flavour, max_threads} or null`);
    else {
      problems.push(...unknownFields('machine.engine: ', engine, ENGINE_FIELDS));
      if (!['fma', 'simd'].includes(engine.flavour)) problems.push(`machine.engine.flavour is ${describe(engine.flavour)}, it must be "fma" or "simd"`);
      if (!(Number.isInteger(engine.max_threads) && engine.max_threads >= 1)) {
        problems.push(`machine.engine.max_threads is ${describe(engine.max_threads)}, it must be a whole number ≥ 1`);
      }
    }
  }
  if ('probe' in machine && probe !== null) {
    if (!isObject(probe)) problems.push(`machine.probe is ${describe(probe)}, it must be {peak_gflops_per_s, bandwidth_gb_per_s, measured_at} or null`);
    else {
      problems.push(...unknownFields('machine.probe: ', probe, PROBE_FIELDS));
      for (const k of ['peak_gflops_per_s', 'bandwidth_gb_per_s']) {
        if (!(Number.isFinite(probe[k]) && probe[k] > 0)) problems.push(`machine.probe.${k} is ${describe(probe[k])}, it must be a number > 0`);
      }
      if ('measured_at' in probe && probe.measured_at !== null && !isIsoTime(probe.measured_at)) {
        problems.push(`machine.probe.measured_at is ${describe(probe.measured_at)}, it must be an ISO time or null`);
      }
    }
  }
  return problems;
}

/** Every problem with one exercise's entry (`id` its key), as sentences naming the field. */
export function entryProblems(id, entry) {
  const at = `exercises["${id}"]`;
  if (id.trim() === '') return [`${at}: an exercise id must not be empty`];
  if (!isObject(entry)) return [`${at} is ${describe(entry)}, it must be an object`];
  const problems = unknownFields(`${at}: `, entry, [...ENTRY_FIELDS, ...OPTIONAL_ENTRY_FIELDS]);
  if ('mode' in entry && !ANSWER_MODES.includes(entry.mode)) {
    problems.push(`${at}.mode is ${describe(entry.mode)}, it must be ${ANSWER_MODES.map((m) => `"${m}"`).join(', ')} (the course's answer mode)`);
  }
  for (const key of ENTRY_FIELDS) {
    if (!(key in entry)) problems.push(`${at}: "${key}" is missing`);
  }
  const { attempts, solved, best_score: best, hints_used: hints } = entry;
  if ('attempts' in entry && !(Number.isInteger(attempts) && attempts >= 0)) {
    problems.push(`${at}.attempts is ${describe(attempts)}, it must be a whole number ≥ 0`);
  }
  if ('solved' in entry && typeof solved !== 'boolean') {
    problems.push(`${at}.solved is ${describe(solved)}, it must be true or false`);
  }
  if ('best_score' in entry && !(Number.isFinite(best) && best >= 0)) {
    problems.push(`${at}.best_score is ${describe(best)}, it must be a number ≥ 0`);
  }
  if ('hints_used' in entry && !(Number.isInteger(hints) && hints >= 0)) {
    problems.push(`${at}.hints_used is ${describe(hints)}, it must be a whole number ≥ 0`);
  }
  for (const key of ['code', 'best_code']) {
    if (key in entry && entry[key] !== null && typeof entry[key] !== 'string') {
      problems.push(`${at}.${key} is ${describe(entry[key])}, it must be a string or null`);
    }
  }
  for (const key of ['last_answer', 'best_answer']) {
    if (key in entry && entry[key] !== null) problems.push(...answerProblems(`${at}.${key}`, entry[key]));
  }
  if (Number.isInteger(attempts) && solved === true && attempts === 0) {
    problems.push(`${at} is solved with 0 attempts; solving takes at least one attempt`);
  }
  if (Number.isInteger(attempts) && attempts >= 0 && Number.isInteger(hints) && hints > attempts) {
    problems.push(`${at}.hints_used is ${hints} with ${attempts} attempts; a hint unlocks only after a failed attempt`);
  }
  return problems;
}

/**
 * Problems with one answer: exactly the object core graded. One of {value}, {values} (a
 * multi-part numeric exercise), {choice, attempt?} or {results} (code), plus
 * `evidence: {experiment, rows}` for an exercise graded from the student's own run, so that
 * a teacher can re-grade it from the file alone (the native CLI's grade_exercise takes it as is).
 */
export function answerProblems(at, answer) {
  const shapes = '{value}, {values}, {choice, attempt} or {results}, each with an optional evidence';
  if (!isObject(answer)) return [`${at} is ${describe(answer)}, it must be null or ${shapes}`];
  const keys = Object.keys(answer);
  const kinds = keys.filter((k) => ANSWER_KINDS.includes(k));
  const others = keys.filter((k) => !ANSWER_KINDS.includes(k) && k !== 'evidence' && !(k === 'attempt' && kinds[0] === 'choice'));
  if (kinds.length !== 1 || others.length) {
    return [`${at} has fields {${keys.join(', ')}}, it must be ${shapes}`];
  }
  const problems = [];
  const [key] = kinds;
  const v = answer[key];
  if (key === 'value' && !Number.isFinite(v)) problems.push(`${at}.value is ${describe(v)}, it must be a finite number`);
  if (key === 'values') {
    if (!Array.isArray(v) || v.length === 0) {
      problems.push(`${at}.values is ${describe(v)}, it must be a non-empty array of finite numbers, one per part`);
    } else {
      v.forEach((x, i) => Number.isFinite(x) || problems.push(`${at}.values[${i}] is ${describe(x)}, it must be a finite number`));
    }
  }
  if (key === 'choice') {
    if (!(Number.isInteger(v) && v >= 0)) problems.push(`${at}.choice is ${describe(v)}, it must be a choice index (a whole number ≥ 0)`);
    if ('attempt' in answer && !(Number.isInteger(answer.attempt) && answer.attempt >= 1)) {
      problems.push(`${at}.attempt is ${describe(answer.attempt)}, it must be which try this was (a whole number ≥ 1)`);
    }
  }
  if (key === 'results') {
    if (!Array.isArray(v)) problems.push(`${at}.results is ${describe(v)}, it must be an array with one entry per test`);
    else v.forEach((r, i) => problems.push(...testResultProblems(`${at}.results[${i}]`, r)));
  }
  if ('evidence' in answer) problems.push(...evidenceProblems(`${at}.evidence`, answer.evidence));
  return problems;
}

function evidenceProblems(at, evidence) {
  if (!isObject(evidence)) return [`${at} is ${describe(evidence)}, it must be {experiment, rows, finished_at?}`];
  const problems = unknownFields(`${at}: `, evidence, ['experiment', 'rows', 'finished_at']);
  if ('finished_at' in evidence && !isIsoTime(evidence.finished_at)) {
    problems.push(`${at}.finished_at is ${describe(evidence.finished_at)}, it must be the ISO time the run finished`);
  }
  if (!(typeof evidence.experiment === 'string' && evidence.experiment !== '')) {
    problems.push(`${at}.experiment is ${describe(evidence.experiment)}, it must be the experiment's id`);
  }
  if (!Array.isArray(evidence.rows) || !evidence.rows.every(isObject)) {
    problems.push(`${at}.rows is ${describe(evidence.rows)}, it must be an array of the run's rows (objects)`);
  }
  return problems;
}

function testResultProblems(at, r) {
  const allowed = 'it must be {value}, {error: "text"} or {timeout: true}';
  if (!isObject(r) || Object.keys(r).length !== 1) return [`${at} is ${describe(r)}, ${allowed}`];
  if ('value' in r) return [];
  if ('error' in r) return typeof r.error === 'string' ? [] : [`${at}.error is ${describe(r.error)}, it must be a string`];
  if ('timeout' in r) return r.timeout === true ? [] : [`${at}.timeout is ${describe(r.timeout)}, it must be true`];
  return [`${at} has the field "${Object.keys(r)[0]}", ${allowed}`];
}
