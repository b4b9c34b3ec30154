// The longest JSON text core reads, for the page's file inputs that hand a file's text to
// core (the CLI comparison, the regression baseline): a larger file is refused by its size
// before it is read, so a wrong pick (a video, a disk image) never fills the tab's memory
// only to be refused by core afterwards. Pure (no DOM).
// Not for: pasted text (core refuses it with its own message) or submissions (grading/).

import { formatBytes, formatInt } from '../ui/format.js';

/**
 * Why `file` is too large for core to read, as a sentence naming the file, its size, the limit
 * and `remedy` (what to load instead); null when it is within the limit. `maxBytes` is core's
 * (the jsonTextLimits binding's max_bytes): the page does not restate it.
 * @param {{name: string, size: number}} file a File (or anything with its name and size)
 * @param {string} remedy a sentence saying what to do, e.g. "Load what perflab bench --json
 *        --samples wrote."
 */
export function oversizeFileProblem(file, remedy, maxBytes) {
  if (!file || typeof file !== 'object') throw new TypeError(`file must be a File (an object with name and size), got ${file === null ? 'null' : typeof file}`);
  if (typeof file.name !== 'string') throw new TypeError(`file.name must be a string, got ${typeof file.name}`);
  if (!Number.isSafeInteger(file.size) || file.size < 0) throw new RangeError(`file.size must be a whole number of bytes (0 or more), got ${String(file.size)}`);
  if (typeof remedy !== 'string' || remedy.trim() === '') throw new TypeError('remedy must be a sentence saying what to load instead');
  if (!Number.isSafeInteger(maxBytes) || maxBytes <= 0) throw new RangeError(`maxBytes must be core's limit, a positive whole number of bytes, got ${String(maxBytes)}`);
  if (file.size <= maxBytes) return null;
  return (
    `${file.name} is ${formatBytes(file.size)} (${formatInt(file.size)} bytes); the lab reads JSON files of at most ` +
    `${formatBytes(maxBytes)} (${formatInt(maxBytes)} bytes). ${remedy}`
  );
}
