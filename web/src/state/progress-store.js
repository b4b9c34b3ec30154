// The student's progress: a versioned JSON object kept in localStorage (the course and student
// when the deployment has a course.json, the seed that picks their exercise variants, and per
// exercise the attempts, solved state, best score with the answer and code that earned it,
// last answer, code draft and hints used) and the Olympics entries, export and import. Its format is the submission
// file's (submission.js; docs/SUBMISSION.md) without the fields written at export time.
// A store that takes its storage as an argument, so node:test covers all of it. Not for:
// grading or rendering (exercises/engine.js), re-grading an import (web/src/grading/).

import {
  ENTRY_FIELDS,
  MAX_SUBMISSION_DEPTH,
  MIGRATIONS,
  SUBMISSION_FORMAT,
  SUBMISSION_VERSION,
  buildSubmission,
  emptyEntry,
  entryProblems,
  isObject,
  jsonTextDepth,
  migrateSubmission,
  parseSubmission,
  submissionFileName,
  validateSubmission,
} from './submission.js';
import { formatCount } from '../ui/format.js';

export { emptyEntry, jsonTextDepth, MAX_SUBMISSION_DEPTH as MAX_PROGRESS_DEPTH } from './submission.js';

export const PROGRESS_VERSION = SUBMISSION_VERSION;
// The key predates version 2; a version 1 entry under it is migrated when read.
export const STORAGE_KEY = 'perflab.progress.v1';
/** Unreadable entries are moved here (plus a timestamp), never deleted. */
export const CORRUPT_KEY_PREFIX = 'perflab.progress.corrupt.';
/** Progress replaced by another identity (a changed student id) is kept here (plus a timestamp). */
export const ASIDE_KEY_PREFIX = 'perflab.progress.aside.';

/** A fresh progress object: practice mode (no course, no student) unless given. */
export function emptyProgress(seed, { course = null, student = null } = {}) {
  return { format: SUBMISSION_FORMAT, version: PROGRESS_VERSION, course, student, seed, exercises: {} };
}

/** A random unsigned 32-bit seed from the platform's cryptographic generator. */
export function randomSeed(cryptoImpl = globalThis.crypto) {
  return cryptoImpl.getRandomValues(new Uint32Array(1))[0];
}

/**
 * Every problem with `obj` as kept progress (a submission whose export-time fields may be
 * missing), as sentences naming the field. An empty list means valid.
 */
export function validateProgress(obj) {
  return validateSubmission(obj, { complete: false });
}

/** Brings saved progress or a file to the current version and validates it: {progress, problems}. */
export function migrateProgress(obj, options = {}) {
  const { submission, problems } = migrateSubmission(obj, { complete: false, ...options });
  return { progress: submission, problems };
}

/** Parses, migrates and validates a JSON text (a localStorage entry, an exported file). */
export function parseProgress(text) {
  const { submission, problems } = parseSubmission(text, { complete: false });
  return { progress: submission, problems };
}

/**
 * Reads saved progress entry by entry, so that one bad entry does not cost the student every
 * other one: `{progress, problems, unreadable}`. A text that parses whole gives its progress
 * and `unreadable: []`. When only some exercise entries are malformed, `progress` holds the
 * others and `unreadable` lists `{id, problems, repaired}` for each bad one (`repaired`: see
 * repairEntry). Text that is not JSON, or whose top level (format, version, seed, course,
 * student) is malformed, gives a null progress and `unreadable: null`: without a readable
 * seed no entry can be told apart from another student's variant.
 */
export function salvageProgress(text) {
  const whole = parseProgress(text);
  if (whole.progress) return { ...whole, unreadable: [] };
  const none = { ...whole, unreadable: null };
  // parseProgress refused too deep a text before parsing it; so does this.
  if (typeof text !== 'string' || jsonTextDepth(text) > MAX_SUBMISSION_DEPTH) return none;
  let obj;
  try {
    obj = JSON.parse(text);
  } catch {
    return none;
  }
  if (!isObject(obj) || !isObject(obj.exercises)) return none;
  const top = migrateProgress({ ...obj, exercises: {} });
  if (!top.progress) return none;
  const readable = [];
  const unreadable = [];
  for (const [id, raw] of Object.entries(obj.exercises)) {
    // Object.fromEntries defines the key, so an id such as "__proto__" stays an entry.
    const one = migrateProgress({ ...obj, exercises: Object.fromEntries([[id, raw]]) });
    if (one.progress) readable.push([id, one.progress.exercises[id]]);
    else unreadable.push({ id, problems: one.problems, repaired: repairEntry(id, migratedEntry(obj, id, raw)) });
  }
  const progress = { ...top.progress, exercises: Object.fromEntries(readable) };
  // Each part is valid on its own, so the whole is; checked anyway, as the store trusts it.
  if (validateProgress(progress).length) return none;
  return { progress, problems: whole.problems, unreadable };
}

// One entry of an older version's file brought to the current version, unvalidated, so that
// repairEntry reads the same fields a valid entry would have.
function migratedEntry(obj, id, raw) {
  let current = { ...obj, exercises: Object.fromEntries([[id, raw]]) };
  while (Number.isInteger(current.version) && current.version < SUBMISSION_VERSION && MIGRATIONS[current.version]) {
    current = MIGRATIONS[current.version](current);
  }
  return current?.exercises?.[id];
}

/**
 * What can be restored of an unreadable entry: every field that is valid on its own; a count
 * that is not starts at the least the readable fields imply (a saved answer took an attempt,
 * a hint followed a failed one). best_score and solved are the file's claim, which only the
 * re-grade replaces (the page restores through regradeImport). Null when the entry is not an
 * object or holds no answer, code or attempt worth restoring.
 */
export function repairEntry(id, entry) {
  if (typeof id !== 'string' || !isObject(entry)) return null;
  // A huge attempt count lets each other field be judged alone (hints_used ≤ attempts, no
  // solved entry with 0 attempts); attempts is judged with every other field empty.
  const judgedWith = { ...emptyEntry(), attempts: Number.MAX_SAFE_INTEGER };
  const repaired = emptyEntry();
  for (const key of ENTRY_FIELDS) {
    if (!(key in entry)) continue;
    const probe = key === 'attempts' ? emptyEntry() : judgedWith;
    if (entryProblems(id, { ...probe, [key]: entry[key] }).length === 0) repaired[key] = entry[key];
  }
  const answered = repaired.best_answer !== null || repaired.last_answer !== null || repaired.solved;
  repaired.attempts = Math.max(repaired.attempts, repaired.hints_used, answered ? 1 : 0);
  const worth = repaired.attempts > 0 || repaired.code !== null || repaired.best_code !== null;
  return worth && entryProblems(id, repaired).length === 0 ? repaired : null;
}

/** What is kept of a submission: everything but the fields written at export time. */
export function keptProgress(submission) {
  const { bank_version: _b, page_version: _p, machine: _m, exported_at: _e, ...rest } = submission;
  return rest;
}

/** The file name an export is saved under: course, student and date, so exports do not collide. */
export function exportFileName(date = new Date(), progress = null) {
  return submissionFileName(progress, date);
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

  // Why the last save failed (a full storage, a blocked one), or null while saves work.
  let cannotSave = null;
  const persist = () => {
    if (!storage) return;
    try {
      storage.setItem(STORAGE_KEY, JSON.stringify(progress));
      cannotSave = null;
    } catch (e) {
      cannotSave = saveProblem(e);
      notice = `Your progress could not be saved in this browser (${cannotSave}); use Export to keep a copy.`;
    }
  };

  // Load once: valid → use it. Some entries unreadable → use the others (same seed, so the
  // same variants and the points they earned), and keep the whole raw text aside under
  // another key, bad entries included. Nothing readable (not JSON, a malformed top level) →
  // keep the raw text aside and start fresh. Never destroy what we cannot read: the student
  // may still recover it (restoreEntries, or the text downloaded).
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
    const { progress: loaded, problems, unreadable } = salvageProgress(raw);
    if (loaded && unreadable.length === 0) progress = loaded;
    else {
      const entries = loaded ? unreadable.map((u) => u.id) : null;
      const key = `${CORRUPT_KEY_PREFIX}${now().toISOString()}`;
      const what = loaded ? unreadableSentence(unreadable, Object.keys(loaded.exercises).length) : `Your saved progress could not be read (${problems.join('; ')}).`;
      try {
        storage.setItem(key, raw);
        mayOverwrite = true;
        corrupt = { key, text: raw, problems, entries };
        notice = loaded
          ? `${what} The saved progress as it was, unreadable ${entries.length === 1 ? 'entry' : 'entries'} included, is kept unchanged in this browser's storage under "${key}".`
          : `${what} It was kept unchanged in this browser's storage under "${key}", and a fresh start was made (new exercise variants, no points yet).`;
      } catch {
        corrupt = { key: STORAGE_KEY, text: raw, problems, entries };
        notice = `${what} It could not be set aside; download it before you continue, or it is replaced by your next answer.`;
      }
      if (loaded) {
        progress = loaded;
        // The readable part replaces the saved text only once that text is safe elsewhere.
        if (mayOverwrite) persist();
      }
    }
  }
  if (!progress) {
    progress = emptyProgress(typeof seed === 'function' ? seed() : seed);
    if (mayOverwrite) persist();
  } else if (!notice && storage) {
    // Saved progress loaded, nothing written yet: a full storage still reads, so the student
    // keeps their seed and work, but is told now that new work will not be kept here.
    const why = writeProblem(storage);
    if (why) {
      cannotSave = why;
      notice =
        `Your saved progress was loaded, but new progress cannot be saved in this browser (${why}). ` +
        "Use Export to keep a copy of your work, or free space in this site's storage and reload.";
    }
  }

  // Keeps the current progress under ASIDE_KEY_PREFIX + time when it holds any work.
  const keepAside = () => {
    if (Object.keys(progress.exercises).length === 0) return { asideKey: null, aside: null };
    const aside = progress;
    let asideKey = `${ASIDE_KEY_PREFIX}${now().toISOString()}`;
    try {
      if (!storage) throw new Error('this browser does not let the page save');
      storage.setItem(asideKey, JSON.stringify(aside));
    } catch (e) {
      notice = `Your earlier progress could not be kept in this browser (${e.message}); export it before you continue.`;
      asideKey = null;
    }
    return { asideKey, aside };
  };

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
    /** {id, title, chapters} in course mode, else null (practice mode). */
    get course() {
      return progress.course;
    },
    /** {id, name} in course mode, else null. */
    get student() {
      return progress.student;
    },
    get notice() {
      return notice;
    },
    /** Why progress cannot be saved in this browser now (a sentence's part), or null. */
    get cannotSave() {
      return cannotSave;
    },
    dismissNotice() {
      notice = null;
    },
    /**
     * `{key, text, problems, entries}` of unreadable saved progress found at load, else null:
     * `key` where its text is kept, `entries` the exercise ids that could not be read (the
     * others were loaded), or null when nothing could be read.
     */
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
    /** Replaces the Olympics entries (progress.olympics.entries; checked as a submission's) and saves. */
    setOlympicsEntries(entries) {
      const next = { ...progress, olympics: { entries } };
      const problems = validateProgress(next);
      if (problems.length) throw new TypeError(`Olympics entries refused: ${problems.join('; ')}`);
      progress = next;
      persist();
      emit({ reason: 'update', id: null });
    },
    /**
     * The submission object of an export: the kept progress with `extra`'s bankVersion,
     * pageVersion, machine and hintsUsed (submission.js buildSubmission), dated now.
     */
    exportSubmission(extra = {}) {
      return buildSubmission(progress, { ...extra, exportedAt: now().toISOString() });
    },
    /** The text of an export file. */
    exportText(extra = {}) {
      return `${JSON.stringify(this.exportSubmission(extra), null, 2)}\n`;
    },
    /**
     * Replaces the progress with an exported file's text when it is valid; otherwise changes
     * nothing. Returns `{ok, problems}`. The page re-grades before it replaces (replace()).
     */
    importText(text) {
      const { progress: loaded, problems } = parseProgress(text);
      if (!loaded) return { ok: false, problems };
      this.replace(loaded);
      return { ok: true, problems: [] };
    },
    /**
     * Replaces the whole progress with a valid (already checked) submission or progress
     * object. When it draws other variants (another seed) and the current progress holds
     * work, that work is first kept aside (ASIDE_KEY_PREFIX + time). Returns `{asideKey, aside}`.
     */
    replace(next) {
      const kept = keptProgress(next);
      const problems = validateProgress(kept);
      if (problems.length) throw new TypeError(`progress replace refused: ${problems.join('; ')}`);
      const setAside = kept.seed !== progress.seed ? keepAside() : { asideKey: null, aside: null };
      progress = structuredClone(kept);
      persist();
      emit({ reason: 'replace' });
      return setAside;
    },
    /**
     * Adds entries brought back from a copy set aside (already re-graded: the page restores
     * through regradeImport), each only when this progress holds no entry for its id, so a
     * restore never overwrites work done since. Returns the ids added.
     */
    restoreEntries(entries) {
      if (!isObject(entries)) throw new TypeError(`restoreEntries: entries must be an object keyed by exercise id, got ${entries === null ? 'null' : typeof entries}`);
      const fresh = Object.entries(entries).filter(([id]) => !Object.hasOwn(progress.exercises, id));
      if (fresh.length === 0) return [];
      const next = { ...progress, exercises: { ...progress.exercises, ...Object.fromEntries(fresh) } };
      const problems = validateProgress(next);
      if (problems.length) throw new TypeError(`progress restore refused: ${problems.join('; ')}`);
      progress = next;
      persist();
      emit({ reason: 'replace' });
      return fresh.map(([id]) => id);
    },
    /**
     * Sets who is working: `{course, student, seed}` (null course and student: practice
     * mode). The same seed keeps every exercise; another seed draws other variants, so the
     * progress so far is first kept aside in this browser (ASIDE_KEY_PREFIX + time) when it
     * holds any work, and the student starts fresh. Returns `{asideKey, aside}` (the key and
     * the progress set aside, or nulls).
     */
    setIdentity({ course = null, student = null, seed }) {
      const same = seed === progress.seed;
      const next = same ? { ...progress, course, student } : emptyProgress(seed, { course, student });
      const problems = validateProgress(next);
      if (problems.length) throw new TypeError(`identity refused: ${problems.join('; ')}`);
      const { asideKey, aside } = same ? { asideKey: null, aside: null } : keepAside();
      progress = next;
      persist();
      emit({ reason: same ? 'identity' : 'replace' });
      return { asideKey, aside };
    },
    /** Progress kept aside in this browser (set aside or unreadable): [{key, text, when, kind}], newest first. */
    keptAside() {
      if (!storage || typeof storage.length !== 'number') return [];
      const found = [];
      for (let i = 0; i < storage.length; ++i) {
        const key = storage.key(i);
        for (const [prefix, kind] of [[ASIDE_KEY_PREFIX, 'aside'], [CORRUPT_KEY_PREFIX, 'unreadable']]) {
          if (key?.startsWith(prefix)) found.push({ key, kind, when: key.slice(prefix.length), text: storage.getItem(key) });
        }
      }
      return found.sort((a, b) => b.when.localeCompare(a.when));
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}

// "2 saved exercise entries could not be read: a.b, c.d (the problems, each naming its
// entry); the other 5 were loaded." Long lists are cut: the notice must stay readable.
function unreadableSentence(unreadable, loadedCount) {
  const n = unreadable.length;
  const ids = unreadable.map((u) => u.id);
  const problems = unreadable.flatMap((u) => u.problems);
  const listed = `${ids.slice(0, 10).join(', ')}${n > 10 ? ` and ${n - 10} more` : ''}`;
  const why = `${problems.slice(0, 3).join('; ')}${problems.length > 3 ? `; and ${problems.length - 3} more problems` : ''}`;
  const others = loadedCount === 0 ? 'no other entry was saved' : `the other ${loadedCount} ${loadedCount === 1 ? 'was' : 'were'} loaded`;
  return `${formatCount(n, 'saved exercise entry', 'saved exercise entries')} could not be read: ${listed} (${why}); ${others}.`;
}

// A storage error as words: a full storage by its name in every browser (Chrome and Safari
// throw QuotaExceededError, Firefox NS_ERROR_DOM_QUOTA_REACHED), anything else by its message.
function saveProblem(e) {
  const name = e?.name ?? '';
  if (name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || e?.code === 22) {
    return "this browser's storage for the page is full";
  }
  return e instanceof Error ? e.message : String(e);
}

// Why a small write to `storage` fails (see saveProblem), or null when it succeeds.
function writeProblem(storage) {
  const probe = `${STORAGE_KEY}.probe`;
  try {
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return null;
  } catch (e) {
    return saveProblem(e);
  }
}

/**
 * localStorage when the page may read it, else null (private modes can throw on access).
 * A storage that reads but cannot be written (full) is returned: what it holds must still
 * load; each write reports its own failure.
 */
export function safeLocalStorage() {
  try {
    const s = globalThis.localStorage;
    if (!s) return null;
    s.getItem(STORAGE_KEY);
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
