// The student's progress: a versioned JSON object kept in localStorage (the seed that picks
// their exercise variants, and per exercise the attempts, solved state, best score with the
// answer and code that earned it, last answer and code draft), its validation, migration, export and import. The answer shapes
// follow core's grader ({value}, {values}, {choice}, {results}).
// Pure validation/migration functions plus a store that takes its storage as an argument, so
// node:test covers all of it. Not for: grading or rendering (exercises/engine.js does that).

export const PROGRESS_VERSION = 1;
export const STORAGE_KEY = 'perflab.progress.v1';
/** Unreadable entries are moved here (plus a timestamp), never deleted. */
export const CORRUPT_KEY_PREFIX = 'perflab.progress.corrupt.';

const MAX_SEED = 0xffffffff;
// The deepest nesting of arrays and objects a progress file may have. A valid file nests
// about 8 levels (exercises → entry → last_answer → results → rows); the bound keeps
// structuredClone and the validators, which recurse, far from the JS stack's end.
export const MAX_PROGRESS_DEPTH = 32;
const TOP_LEVEL_FIELDS = ['version', 'seed', 'exercises', 'exported_at'];
const ENTRY_FIELDS = ['attempts', 'solved', 'best_score', 'last_answer', 'code'];
// What earned best_score: the answer core graded then and, for a code exercise, the code that
// produced it, kept beside the last answer and the draft (which may be worse, or an endless
// loop). Optional, so progress saved before they existed still reads.
const BEST_FIELDS = ['best_answer', 'best_code'];
const ANSWER_FIELDS = ['value', 'values', 'choice', 'results'];

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const describe = (v) => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return `${typeof v === 'object' ? 'an object' : `a ${typeof v}`}`;
};

/** A fresh progress object for a student with this seed. */
export function emptyProgress(seed) {
  return { version: PROGRESS_VERSION, seed, exercises: {} };
}

/** The state of an exercise nobody has tried yet. */
export function emptyEntry() {
  return { attempts: 0, solved: false, best_score: 0, last_answer: null, code: null };
}

/** A random unsigned 32-bit seed from the platform's cryptographic generator. */
export function randomSeed(cryptoImpl = globalThis.crypto) {
  return cryptoImpl.getRandomValues(new Uint32Array(1))[0];
}

/**
 * Every problem with `obj` as a current-version progress object, as sentences naming the
 * field, what it holds and what is allowed. An empty list means valid.
 */
export function validateProgress(obj) {
  if (!isObject(obj)) return [`progress must be a JSON object, got ${describe(obj)}`];
  const problems = [];
  for (const key of Object.keys(obj)) {
    if (!TOP_LEVEL_FIELDS.includes(key)) {
      problems.push(`unknown field "${key}" (allowed: ${TOP_LEVEL_FIELDS.join(', ')})`);
    }
  }
  if (!('version' in obj)) problems.push('"version" is missing');
  else if (obj.version !== PROGRESS_VERSION) {
    problems.push(`"version" is ${describe(obj.version)}, this page reads version ${PROGRESS_VERSION}`);
  }
  if (!('seed' in obj)) problems.push('"seed" is missing');
  else if (!Number.isInteger(obj.seed) || obj.seed < 0 || obj.seed > MAX_SEED) {
    problems.push(`"seed" is ${describe(obj.seed)}, it must be an integer from 0 to ${MAX_SEED}`);
  }
  if ('exported_at' in obj && typeof obj.exported_at !== 'string') {
    problems.push(`"exported_at" is ${describe(obj.exported_at)}, it must be a string`);
  }
  if (!('exercises' in obj)) problems.push('"exercises" is missing');
  else if (!isObject(obj.exercises)) {
    problems.push(`"exercises" is ${describe(obj.exercises)}, it must be an object keyed by exercise id`);
  } else {
    for (const [id, entry] of Object.entries(obj.exercises)) {
      problems.push(...entryProblems(id, entry));
    }
  }
  return problems;
}

function entryProblems(id, entry) {
  const at = `exercises["${id}"]`;
  if (id.trim() === '') return [`${at}: an exercise id must not be empty`];
  if (!isObject(entry)) return [`${at} is ${describe(entry)}, it must be an object`];
  const problems = [];
  for (const key of Object.keys(entry)) {
    if (!ENTRY_FIELDS.includes(key) && !BEST_FIELDS.includes(key)) {
      problems.push(`${at}: unknown field "${key}" (allowed: ${[...ENTRY_FIELDS, ...BEST_FIELDS].join(', ')})`);
    }
  }
  for (const key of ENTRY_FIELDS) {
    if (!(key in entry)) problems.push(`${at}: "${key}" is missing`);
  }
  const { attempts, solved, best_score: best, last_answer: answer, code } = entry;
  if ('attempts' in entry && !(Number.isInteger(attempts) && attempts >= 0)) {
    problems.push(`${at}.attempts is ${describe(attempts)}, it must be a whole number ≥ 0`);
  }
  if ('solved' in entry && typeof solved !== 'boolean') {
    problems.push(`${at}.solved is ${describe(solved)}, it must be true or false`);
  }
  if ('best_score' in entry && !(Number.isFinite(best) && best >= 0)) {
    problems.push(`${at}.best_score is ${describe(best)}, it must be a number ≥ 0`);
  }
  if ('code' in entry && code !== null && typeof code !== 'string') {
    problems.push(`${at}.code is ${describe(code)}, it must be a string or null`);
  }
  if ('last_answer' in entry && answer !== null) problems.push(...answerProblems(`${at}.last_answer`, answer));
  if ('best_answer' in entry && entry.best_answer !== null) {
    problems.push(...answerProblems(`${at}.best_answer`, entry.best_answer));
  }
  if ('best_code' in entry && entry.best_code !== null && typeof entry.best_code !== 'string') {
    problems.push(`${at}.best_code is ${describe(entry.best_code)}, it must be a string or null`);
  }
  if (Number.isInteger(attempts) && solved === true && attempts === 0) {
    problems.push(`${at} is solved with 0 attempts; solving takes at least one attempt`);
  }
  return problems;
}

// last_answer is exactly the answer object core graded ({value}, {values} for a multi-part
// numeric exercise, {choice} or {results}), so an exported file can be re-graded by the
// native CLI with grade_exercise(id, seed, answer).
function answerProblems(at, answer) {
  if (!isObject(answer)) {
    return [`${at} is ${describe(answer)}, it must be null, {value}, {values}, {choice} or {results}`];
  }
  const keys = Object.keys(answer);
  if (keys.length !== 1 || !ANSWER_FIELDS.includes(keys[0])) {
    return [`${at} has fields {${keys.join(', ')}}, it must have exactly one of ${ANSWER_FIELDS.join(', ')}`];
  }
  const [key] = keys;
  const v = answer[key];
  if (key === 'value' && !Number.isFinite(v)) return [`${at}.value is ${describe(v)}, it must be a finite number`];
  if (key === 'values') {
    if (!Array.isArray(v) || v.length === 0) {
      return [`${at}.values is ${describe(v)}, it must be a non-empty array of finite numbers, one per part`];
    }
    return v.flatMap((x, i) => (Number.isFinite(x) ? [] : [`${at}.values[${i}] is ${describe(x)}, it must be a finite number`]));
  }
  if (key === 'choice' && !(Number.isInteger(v) && v >= 0)) {
    return [`${at}.choice is ${describe(v)}, it must be a choice index (a whole number ≥ 0)`];
  }
  if (key === 'results') {
    if (!Array.isArray(v)) return [`${at}.results is ${describe(v)}, it must be an array with one entry per test`];
    return v.flatMap((r, i) => testResultProblems(`${at}.results[${i}]`, r));
  }
  return [];
}

function testResultProblems(at, r) {
  const allowed = 'it must be {value}, {error: "text"} or {timeout: true}';
  if (!isObject(r) || Object.keys(r).length !== 1) return [`${at} is ${describe(r)}, ${allowed}`];
  if ('value' in r) return [];
  if ('error' in r) return typeof r.error === 'string' ? [] : [`${at}.error is ${describe(r.error)}, it must be a string`];
  if ('timeout' in r) return r.timeout === true ? [] : [`${at}.timeout is ${describe(r.timeout)}, it must be true`];
  return [`${at} has the field "${Object.keys(r)[0]}", ${allowed}`];
}

/**
 * Steps that turn version n into version n + 1, keyed by n. Empty while version 1 is the only
 * one; a future format adds `1: (p) => ({...p, version: 2, ...})` here and bumps
 * PROGRESS_VERSION, and old saves and exported files keep loading.
 */
export const MIGRATIONS = Object.freeze({});

/**
 * Brings `obj` to `targetVersion` with `migrations`, then validates it.
 * Returns `{progress, problems}`; `progress` is null when there are problems. Never mutates `obj`.
 */
export function migrateProgress(obj, { migrations = MIGRATIONS, targetVersion = PROGRESS_VERSION } = {}) {
  if (!isObject(obj)) return { progress: null, problems: [`progress must be a JSON object, got ${describe(obj)}`] };
  let current = structuredClone(obj);
  if (!('version' in current)) {
    return { progress: null, problems: ['"version" is missing: this is not a perflab progress file'] };
  }
  if (!Number.isInteger(current.version) || current.version < 1) {
    return { progress: null, problems: [`"version" is ${describe(current.version)}, it must be a whole number ≥ 1`] };
  }
  if (current.version > targetVersion) {
    return {
      progress: null,
      problems: [`this file is progress version ${current.version}, from a newer perflab; this page reads up to version ${targetVersion}`],
    };
  }
  while (current.version < targetVersion) {
    const step = migrations[current.version];
    if (typeof step !== 'function') {
      return { progress: null, problems: [`no migration from progress version ${current.version} to ${current.version + 1}`] };
    }
    const from = current.version;
    current = step(current);
    if (!isObject(current) || current.version !== from + 1) {
      return { progress: null, problems: [`the migration from version ${from} did not produce version ${from + 1}`] };
    }
  }
  const problems = targetVersion === PROGRESS_VERSION ? validateProgress(current) : [];
  return problems.length ? { progress: null, problems } : { progress: current, problems: [] };
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

/** Parses and migrates a JSON text (an exported file, a localStorage entry). */
export function parseProgress(text) {
  const depth = typeof text === 'string' ? jsonTextDepth(text) : 0;
  if (depth > MAX_PROGRESS_DEPTH) {
    return {
      progress: null,
      problems: [`the file is nested ${depth} levels deep; a progress file has at most ${MAX_PROGRESS_DEPTH}`],
    };
  }
  let obj;
  try {
    obj = JSON.parse(text);
  } catch (e) {
    return { progress: null, problems: [`not valid JSON (${e.message})`] };
  }
  return migrateProgress(obj);
}

/** The file name an export is saved under, dated so several exports do not collide. */
export function exportFileName(date = new Date()) {
  return `perflab-progress-${date.toISOString().slice(0, 10)}.json`;
}

/**
 * The store: one progress object, persisted to `storage` (localStorage in the page, a Map
 * wrapper in tests) after every change. Listeners hear `(progress, {reason, id})` with reason
 * 'update' (one exercise changed) or 'replace' (an import: re-render everything).
 * `notice` is a sentence for the student when something about storage went wrong, or null.
 */
export function createProgressStore({ storage = safeLocalStorage(), seed = randomSeed, now = () => new Date() } = {}) {
  let progress = null;
  let notice = null;
  const listeners = new Set();

  const persist = () => {
    if (!storage) return;
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(progress));
    } catch (e) {
      notice = `Your progress could not be saved in this browser (${e.message}); use Export to keep a copy.`;
    }
  };

  // Load once: valid → use it; corrupt → keep the raw text aside under another key (never
  // destroy what we cannot read: the student may still recover it), start fresh.
  let raw = null;
  let corrupt = null;
  try {
    raw = storage ? storage.getItem(STORAGE_KEY) : null;
  } catch (e) {
    notice = `Saved progress could not be read (${e.message}); this session starts fresh.`;
  }
  if (!storage) notice = 'This browser does not let the page save progress; use Export before you leave.';
  let mayOverwrite = raw === null;
  if (raw !== null) {
    const { progress: loaded, problems } = parseProgress(raw);
    if (loaded) progress = loaded;
    else {
      const key = `${CORRUPT_KEY_PREFIX}${now().toISOString()}`;
      try {
        storage.setItem(key, raw);
        mayOverwrite = true;
        corrupt = { key, text: raw, problems };
        notice = `Your saved progress could not be read (${problems.join('; ')}). It was kept unchanged in this browser's storage under "${key}", and a fresh start was made.`;
      } catch {
        corrupt = { key: STORAGE_KEY, text: raw, problems };
        notice = `Your saved progress could not be read (${problems.join('; ')}) and could not be set aside; download it before you continue, or it is replaced by your next answer.`;
      }
    }
  }
  if (!progress) {
    progress = emptyProgress(typeof seed === 'function' ? seed() : seed);
    if (mayOverwrite) persist();
  }

  const emit = (detail) => {
    for (const fn of listeners) fn(progress, detail);
  };

  return {
    /** The whole progress object (read-only by convention). */
    get progress() {
      return progress;
    },
    get seed() {
      return progress.seed;
    },
    get notice() {
      return notice;
    },
    dismissNotice() {
      notice = null;
    },
    /** `{key, text, problems}` of an unreadable saved entry found at load, else null. */
    get corrupt() {
      return corrupt;
    },
    /** One exercise's state; a fresh entry when it was never tried. */
    entry(id) {
      return { ...emptyEntry(), ...progress.exercises[id] };
    },
    /** Merges `patch` into one exercise's entry and saves. */
    update(id, patch) {
      const next = { ...this.entry(id), ...patch };
      const problems = entryProblems(id, next);
      if (problems.length) throw new TypeError(`progress update refused: ${problems.join('; ')}`);
      progress = { ...progress, exercises: { ...progress.exercises, [id]: next } };
      persist();
      emit({ reason: 'update', id });
      return next;
    },
    /** The text of an export file. */
    exportText() {
      return `${JSON.stringify({ ...progress, exported_at: now().toISOString() }, null, 2)}\n`;
    },
    /**
     * Replaces the progress with an exported file's text when it is valid; otherwise changes
     * nothing. Returns `{ok, problems}`.
     */
    importText(text) {
      const { progress: loaded, problems } = parseProgress(text);
      if (!loaded) return { ok: false, problems };
      const { exported_at: _ignored, ...rest } = loaded;
      progress = rest;
      persist();
      emit({ reason: 'replace' });
      return { ok: true, problems: [] };
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

/** localStorage when the page may use it, else null (private modes can throw on access). */
export function safeLocalStorage() {
  try {
    const s = globalThis.localStorage;
    if (!s) return null;
    const probe = `${STORAGE_KEY}.probe`;
    s.setItem(probe, '1');
    s.removeItem(probe);
    return s;
  } catch {
    return null;
  }
}

let shared = null;
/** The page's one store, created on first use so every chapter shares it. */
export function getProgressStore() {
  shared ??= createProgressStore();
  return shared;
}
