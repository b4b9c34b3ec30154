// The lab worker's gzip step (web/src/lab/inflate.js): the page hands over Fashion-MNIST's
// .gz files as fetched, and the worker inflates them with DecompressionStream before core
// reads the IDX bytes. Checked against Node's zlib on Debian's real files; bytes that are not
// gzip pass through; corrupt gzip is a sentence naming the argument; the declarations that
// inflate name only their own arguments.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { test } from 'node:test';

import { API, CALL } from '../../web/src/lab/api.js';
import { inflateArguments, inflateIfGzip, isGzip } from '../../web/src/lab/inflate.js';

const LABELS = '/usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz';

test('inflates a real Fashion-MNIST file to what zlib gives', async () => {
  const gz = new Uint8Array(readFileSync(LABELS));
  assert.ok(isGzip(gz));
  const inflated = await inflateIfGzip(gz, 'labels');
  assert.deepEqual(inflated, new Uint8Array(gunzipSync(gz)));
  // IDX labels: magic 0x00000801, then 10,000.
  assert.deepEqual([...inflated.subarray(0, 8)], [0, 0, 8, 1, 0, 0, 0x27, 0x10]);
});

test('passes bytes that are not gzip through unchanged', async () => {
  const raw = new Uint8Array([0, 0, 8, 1, 0, 0, 0, 0]);
  assert.equal(await inflateIfGzip(raw, 'labels'), raw);
  assert.equal(await inflateIfGzip(undefined, 'labels'), undefined);
  assert.equal(isGzip(new Uint8Array([0x1f])), false);
});

test('refuses corrupt gzip with a sentence naming the argument', async () => {
  const gz = new Uint8Array(gzipSync(Buffer.from('perflab'.repeat(100))));
  await assert.rejects(inflateIfGzip(gz.subarray(0, gz.length - 12), 'images'), /^Error: images starts like gzip but does not inflate/);
});

test('inflates only the arguments named, and declarations name their own arguments', async () => {
  const gz = new Uint8Array(gzipSync(Buffer.from([1, 2, 3])));
  const out = await inflateArguments({ images: gz, labels: gz, split: 'test' }, ['images']);
  assert.deepEqual(out.images, new Uint8Array([1, 2, 3]));
  assert.equal(out.labels, gz);
  assert.equal(out.split, 'test');
  const inflating = Object.entries(API).filter(([, e]) => e.inflates);
  assert.ok(inflating.length > 0);
  for (const [name, entry] of inflating) {
    assert.equal(entry.type, CALL, name);
    for (const a of entry.inflates) assert.ok(entry.args.includes(a), `${name} inflates ${a}, not an argument`);
  }
});
