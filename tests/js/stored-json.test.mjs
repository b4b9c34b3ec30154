// Protects the one reader and writer of versioned JSON records in localStorage (state/stored-json.js)
// that the machine probe, the builder's spec and the regression baseline share: every way a
// record can be unusable reads as nothing saved, never as an exception, and a refused write is
// handed back as an Error, not thrown.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readStoredJson, writeStoredJson } from '../../web/src/state/stored-json.js';

const memory = (data = {}) => ({ getItem: (k) => (k in data ? data[k] : null), setItem: (k, v) => { data[k] = v; }, data });
const hasText = (r) => typeof r.text === 'string';

test('a record of the version and shape asked for is read back as saved', () => {
  const storage = memory();
  assert.equal(writeStoredJson(storage, 'k', 2, { text: 'x' }), null);
  assert.equal(storage.data.k, '{"version":2,"text":"x"}');
  assert.deepEqual(readStoredJson(storage, 'k', 2, hasText), { version: 2, text: 'x' });
});

test('nothing saved, blocked storage, another version, not JSON or the wrong shape read as null', () => {
  assert.equal(readStoredJson(memory(), 'k', 1, hasText), null);
  assert.equal(readStoredJson(undefined, 'k', 1, hasText), null);
  assert.equal(readStoredJson({ getItem: () => { throw new Error('blocked'); } }, 'k', 1, hasText), null);
  assert.equal(readStoredJson(memory({ k: '{"version":1,"text":"x"}' }), 'k', 2, hasText), null);
  assert.equal(readStoredJson(memory({ k: '{"version":1,' }), 'k', 1, hasText), null);
  assert.equal(readStoredJson(memory({ k: 'null' }), 'k', 1, hasText), null);
  assert.equal(readStoredJson(memory({ k: '{"version":1,"text":3}' }), 'k', 1, hasText), null);
});

test('a refused write is returned as an Error, and no storage at all says so', () => {
  const full = { setItem: () => { throw new Error('QuotaExceededError'); } };
  assert.equal(writeStoredJson(full, 'k', 1, {}).message, 'QuotaExceededError');
  assert.match(writeStoredJson(null, 'k', 1, {}).message, /localStorage is off/);
});
