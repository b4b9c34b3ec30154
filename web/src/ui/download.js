// The page's one way to hand the student a file: the experiments' and the CLI comparison's
// Download CSV, the progress panel's export, and a trained model's file. Not for: making the
// text (csv.js and the progress store do) or the model file (core writes it).

import { h } from './dom.js';

// Revoking at once can cancel the download; the click is handled long before this.
const REVOKE_AFTER_MS = 10_000;

/**
 * Downloads `text` as a file named `fileName` through a temporary hidden link.
 * @param {string} fileName what the browser suggests saving it as
 * @param {string} text the file's contents
 * @param {string} type its MIME type, e.g. 'text/csv' or 'application/json'
 */
export function downloadText(fileName, text, type) {
  if (typeof fileName !== 'string' || fileName === '') throw new TypeError('downloadText: fileName must be a non-empty string');
  if (typeof text !== 'string') throw new TypeError(`downloadText: text must be a string, got ${typeof text}`);
  download(fileName, text, type, 'downloadText');
}

/**
 * Downloads `bytes` (a Uint8Array, e.g. a model file core wrote) as a file named `fileName`.
 * @param {string} fileName @param {Uint8Array} bytes @param {string} [type]
 */
export function downloadBytes(fileName, bytes, type = 'application/octet-stream') {
  if (!(bytes instanceof Uint8Array)) throw new TypeError('downloadBytes: bytes must be a Uint8Array');
  download(fileName, bytes, type, 'downloadBytes');
}

function download(fileName, contents, type, caller) {
  if (typeof fileName !== 'string' || fileName === '') throw new TypeError(`${caller}: fileName must be a non-empty string`);
  const url = URL.createObjectURL(new Blob([contents], { type }));
  const link = h('a', { href: url, download: fileName, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
