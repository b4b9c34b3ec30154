// What a chapter declaration must hold before the chapter shell (shell.js) mounts it, as
// sentences naming what was wrong and what is allowed. Pure (no DOM), so Node tests check a
// chapter's data without a page. Not for: writing the chapter (shell.js).

const ID_PATTERN = /^[a-z][a-z0-9-]*$/;
const isMount = (run) => typeof run === 'function';
const isSpec = (run) => typeof run === 'object' && run !== null && typeof run.id === 'string';

/**
 * @param {object} chapter see shell.js's defineChapter
 * @returns {string[]} every problem, empty when the chapter can be mounted
 */
export function chapterProblems(chapter) {
  if (typeof chapter !== 'object' || chapter === null) return ['a chapter must be an object'];
  const out = [];
  const name = typeof chapter.id === 'string' ? `chapter "${chapter.id}"` : 'a chapter';
  if (typeof chapter.id !== 'string' || !ID_PATTERN.test(chapter.id)) {
    out.push(`${name}: id must be lower-case letters, digits and dashes, got ${JSON.stringify(chapter.id)}`);
  }
  for (const key of ['title', 'heading']) {
    if (typeof chapter[key] !== 'string' || !chapter[key]) out.push(`${name}: ${key} must be a non-empty string`);
  }
  if (!Array.isArray(chapter.intro) || chapter.intro.some((p) => typeof p !== 'string')) {
    out.push(`${name}: intro must be a list of paragraphs (strings)`);
  }
  if (!Array.isArray(chapter.sections) || chapter.sections.length === 0) {
    return [...out, `${name}: sections must be a non-empty list`];
  }
  const seen = new Set();
  for (const s of chapter.sections) {
    const where = `${name} section ${JSON.stringify(s?.id)}`;
    if (typeof s?.id !== 'string' || !ID_PATTERN.test(s.id)) out.push(`${where}: id must be lower-case letters, digits and dashes`);
    else if (seen.has(s.id)) out.push(`${where}: id is used by an earlier section; each section needs its own`);
    seen.add(s?.id);
    if (typeof s?.title !== 'string' || !s.title) out.push(`${where}: title must be a non-empty string`);
    if (!Array.isArray(s?.paragraphs)) out.push(`${where}: paragraphs must be a list of strings (HTML)`);
    for (const key of ['formula', 'run']) {
      if (s?.[key] !== undefined && typeof s[key] !== 'string') out.push(`${where}: ${key}, if given, must be a string`);
    }
    for (const slot of s?.slots ?? []) {
      const run = chapter.slots?.[slot];
      if (!isMount(run) && !isSpec(run)) out.push(`${where}: slot "${slot}" is not in the chapter's slots (an experiment spec or a mount function)`);
    }
    for (const run of s?.mounts ?? []) {
      if (!isMount(run) && !isSpec(run)) out.push(`${where}: mounts must hold experiment specs or mount functions, got ${typeof run}`);
    }
  }
  if (chapter.facts !== undefined && typeof chapter.facts !== 'function') {
    out.push(`${name}: facts, if given, must be a function of the lab returning the placeholders' texts`);
  }
  return out;
}

/** Throws the chapter's problems as one sentence. */
export function checkChapter(chapter) {
  const problems = chapterProblems(chapter);
  if (problems.length) throw new Error(`the chapter cannot be mounted: ${problems.join('; ')}`);
  return chapter;
}

/** The id of the element a chapter's slot `name` mounts into. */
export const slotId = (chapterId, name) => `${chapterId}-${name}-slot`;
