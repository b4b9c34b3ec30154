// The deployment's course.json: fetched next to the page, read by core (courseFromJson),
// and the course the page runs in for this visit (null in practice mode), which the progress
// panel needs to re-grade an import. A missing file (404; 204 from this project's servers; or
// a host's HTML page answering for it) means practice mode; an unreadable one is an error sentence, and practice mode.
// Not for: the student's identity (identity.js) or checking the course's fields (core does).

import { readJsonText } from '../lab/json-text.js';

let current = null;

/** The course this visit runs in ({id, title, salt, chapters}, from core), or null (practice mode). */
export function currentCourse() {
  return current;
}

/** Sets the course of this visit (identity.js, once course.json has been read). */
export function setCurrentCourse(course) {
  current = course ?? null;
}

/**
 * Fetches course.json relative to the page. Returns {status: 'absent'} (no file: practice
 * mode), {status: 'found', course: <parsed JSON>} or {status: 'error', message}; text that is
 * not JSON is refused with core's reason (`jsonTextProblem`, the lab's binding), naming the place.
 */
export async function fetchCourseJson(fetchImpl = globalThis.fetch, { jsonTextProblem, url = 'course.json' } = {}) {
  let res;
  try {
    res = await fetchImpl(url, { headers: { Accept: 'application/json' }, cache: 'no-cache' });
  } catch (e) {
    return { status: 'error', message: `course.json could not be fetched (${e.message})` };
  }
  // 404 from a static host; 204 from tools/lab serve and the dev server when none is set.
  if (res.status === 404 || res.status === 204) return { status: 'absent' };
  if (!res.ok) return { status: 'error', message: `course.json could not be loaded: the server answered HTTP ${res.status}` };
  let text;
  try {
    text = await res.text();
  } catch (e) {
    return { status: 'error', message: `course.json could not be read (${e.message})` };
  }
  // Hosts that answer every path with their page (single-page fallbacks, custom 404 pages
  // served with 200) have no course.json either.
  if (/text\/html/i.test(res.headers.get('content-type') ?? '') || /^\s*</.test(text)) return { status: 'absent' };
  const read = await readJsonText(text, jsonTextProblem);
  if ('reason' in read) return { status: 'error', message: `course.json is not valid JSON: ${read.reason}` };
  return { status: 'found', course: read.value };
}
