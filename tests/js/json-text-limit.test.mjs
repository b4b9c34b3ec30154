// Protects the page's size check on JSON files (lab/json-text-limit.js): a file over core's
// limit is refused by its size alone, with a sentence naming the file, its size, the limit
// and what to load instead; a file at the limit passes; bad arguments are refused with what
// was expected. The limit is core's (jsonTextLimits), passed in; tests/wasm/memory.test.mjs
// checks that binding against what core reads and refuses.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { oversizeFileProblem } from '../../web/src/lab/json-text-limit.js';

const MAX = 16777216; // core's kMaxJsonTextBytes, as jsonTextLimits gives it

const REMEDY = 'Load the file that perflab bench --json --samples wrote.';

test('a file at the limit or under it passes', () => {
  assert.equal(oversizeFileProblem({ name: 'base.json', size: 0 }, REMEDY, MAX), null);
  assert.equal(oversizeFileProblem({ name: 'base.json', size: 16777216 }, REMEDY, MAX), null);
});

test('one byte over the limit is refused with the name, both sizes and the remedy', () => {
  assert.equal(
    oversizeFileProblem({ name: 'big.json', size: 16777217 }, REMEDY, MAX),
    'big.json is 16.0 MiB (16,777,217 bytes); the lab reads JSON files of at most 16.0 MiB (16,777,216 bytes). ' +
      'Load the file that perflab bench --json --samples wrote.',
  );
  assert.match(oversizeFileProblem({ name: 'movie.mp4', size: 3 * 1024 ** 3 }, REMEDY, MAX), /^movie\.mp4 is 3\.00 GiB \(3,221,225,472 bytes\);/);
});

test('arguments that are not a file and a remedy are refused with what was expected', () => {
  assert.throws(() => oversizeFileProblem(null, REMEDY, MAX), /^TypeError: file must be a File \(an object with name and size\), got null$/);
  assert.throws(() => oversizeFileProblem({ size: 1 }, REMEDY, MAX), /^TypeError: file\.name must be a string, got undefined$/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: -1 }, REMEDY, MAX), /^RangeError: file\.size must be a whole number of bytes \(0 or more\), got -1$/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: 1.5 }, REMEDY, MAX), /file\.size must be a whole number/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: 1 }, '', MAX), /^TypeError: remedy must be a sentence saying what to load instead$/);
  assert.throws(() => oversizeFileProblem({ name: 'a', size: 1 }, REMEDY), /^RangeError: maxBytes must be core's limit, a positive whole number of bytes, got undefined$/);
});
