// Text files as one zip archive (fflate), for a download that holds many files: the
// instructor view's feedback, one file per student. The same bytes for the same files (a
// fixed date on every entry), so downloading twice gives the same archive.
// Not for: saving it (ui/download.js) or choosing the files (outputs.js).

import { strToU8, zipSync } from 'fflate';

// Zip stores local times from 1980 on; a fixed one keeps the archive reproducible.
const ENTRY_DATE = new Date(2000, 0, 1);

/**
 * @param {Record<string, string>} files relative path ("feedback/ada.md") -> text (UTF-8)
 * @returns {Uint8Array} the zip archive
 */
export function zipTextFiles(files) {
  if (files === null || typeof files !== 'object' || Array.isArray(files)) throw new TypeError('zipTextFiles: files must be an object {path: text}');
  const entries = {};
  for (const [path, text] of Object.entries(files)) {
    if (path === '' || path.startsWith('/') || /^[A-Za-z]:/.test(path) || path.includes('\\') || path.split('/').some((p) => p === '' || p === '.' || p === '..')) {
      throw new Error(`zipTextFiles: ${JSON.stringify(path)} is not a relative path of names joined by "/" (no "", ".", ".." or "\\" parts)`);
    }
    if (typeof text !== 'string') throw new TypeError(`zipTextFiles: the text of ${path} must be a string, got ${typeof text}`);
    entries[path] = [strToU8(text), { mtime: ENTRY_DATE }];
  }
  if (!Object.keys(entries).length) throw new Error('zipTextFiles: there are no files to put in the archive');
  return zipSync(entries, { level: 6 });
}
