// One versioned JSON record in localStorage, read and written without throwing: storage that
// is blocked (private mode, a sandboxed frame), a record of another version, text that is not
// JSON or a record of the wrong shape all read as nothing saved, and the page starts fresh.
// Used by the machine probe, the model builder's spec and the regression baseline.
// Not for: the exercise progress (progress-store.js), which keeps unreadable text aside
// rather than ignoring it.

/**
 * The record saved under `key` when it is an object of `version` that `isValid` accepts; else
 * null. The record is returned as saved, `version` included.
 * @param {{getItem: (key: string) => string|null} | null | undefined} storage
 * @param {(record: object) => boolean} isValid the shape check beyond the version
 */
export function readStoredJson(storage, key, version, isValid) {
  let raw;
  try {
    raw = storage?.getItem(key);
  } catch {
    return null;
  }
  if (typeof raw !== 'string') return null;
  let saved;
  try {
    saved = JSON.parse(raw);
  } catch {
    return null;
  }
  const ok = saved !== null && typeof saved === 'object' && saved.version === version && isValid(saved);
  return ok ? saved : null;
}

/**
 * Saves `{version, ...fields}` under `key`. Returns null, or the Error the browser raised
 * (quota, blocked storage) for the caller to report or ignore.
 * @param {{setItem: (key: string, value: string) => void} | null | undefined} storage
 */
export function writeStoredJson(storage, key, version, fields) {
  if (!storage) return new Error('this browser does not let the page keep data (localStorage is off)');
  try {
    storage.setItem(key, JSON.stringify({ version, ...fields }));
    return null;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}
