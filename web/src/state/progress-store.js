// The student's progress: a versioned JSON object kept in localStorage (the course and student
// when the deployment has a course.json, the seed that picks their exercise variants, and per
// exercise the attempts, solved state, best score with the answer and code that earned it,
// last answer, code draft and hints used), export and import. Its format is the submission
// file's (submission.js; docs/SUBMISSION.md) without the fields written at export time.
// A store that takes its storage as an argument, so node:test covers all of it. Not for:
// grading or rendering (exercises/engine.js), re-grading an import (web/src/grading/).

import {
  SUBMISSION_FORMAT,
  SUBMISSION_VERSION,
  buildSubmission,
  emptyEntry,
  entryProblems,
  migrateSubmission,
  parseSubmission,
  submissionFileName,
  validateSubmission,
} from './submission.js';

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
