// Protects the page's size check on JSON files (lab/json-text-limit.js): a file over core's
// limit is refused by its size alone, with a sentence naming the file, its size, the limit
// and what to load instead; a file at the limit passes; bad arguments are refused with what
// was expected. That the limit is core's own is checked in tests/wasm/memory.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MAX_JSON_TEXT_BYTES, oversizeFileProblem } from '../../web/src/lab/json-text-limit.js';

const REMEDY = 'Load the file that perflab bench --json --samples wrote.';

test('the limit is 16 MiB', () => {
  assert.equal(MAX_JSON_TEXT_BYTES, 16777216);
});

test('a file at the limit or under it passes', () => {
  assert.equal(oversizeFileProblem({ name: 'base.json', size: 0 }, REMEDY), null);
  assert.equal(oversizeFileProblem({ name: 'base.json', size: 16777216 }, REMEDY), null);
});

test('one byte over the limit is refused with the name, both sizes and the remedy', () => {
  assert.equal(
    oversizeFileProblem({ name: 'big.json', size: 16777217 }, REMEDY),
    'big.json is 16.0 MiB (16,777,217 bytes); the lab reads JSON files of at most 16.0 MiB (16,777,216 bytes). ' +
      'Load the file that perflab bench --json --samples wrote.',
  );
  assert.match(oversizeFileProblem({ name: 'movie.mp4', size: 3 * 1024 ** 3 }, REMEDY), /^movie\.mp4 is 3\.00 GiB \(3,221,225,472 bytes\);/);
});

test('arguments that are not a file and a remedy are refused with what was expected', () => {
  assert.throws(() => oversizeFileProblem(null, REMEDY), /^TypeError: file must be a File \(an object with name and size\), got null$/);
  assert.throws(() => oversizeFileProblem({ size: 1 }, REMEDY), /^TypeError: file\.name must be a string, got undefined$/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: -1 }, REMEDY), /^RangeError: file\.size must be a whole number of bytes \(0 or more\), got -1$/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: 1.5 }, REMEDY), /file\.size must be a whole number/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: 1 }, ''), /^TypeError: remedy must be a sentence saying what to load instead$/);
});
