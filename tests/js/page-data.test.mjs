// Protects tools/page-data.mjs and tools/pretrained.mjs, the Fashion-MNIST files and the
// pretrained baseline the page build writes under web/dist/data/fashion-mnist (docs/DATA.md,
// "The page"): the subset is the first rows of Debian's files as IDX, the other files are
// Debian's bytes, the manifest names every file with its bytes and sha256, the script writes
// the same bytes twice, the page fetches at most 12 MB before its first training or evaluation,
// core's reader (the native CLI) reads the served test split, and the baseline's cache trains
// again only when its key changes. Needs Debian's dataset-fashion-mnist and, for the budget and
// the CLI check, the pretrained baseline tools/lab build leaves in build/pretrained.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import {
  DATA_SUBDIR,
  DEFAULT_SOURCE,
  FIRST_USE_BUDGET_BYTES,
  SUBSET_COUNT,
  writePageData,
} from '../../tools/page-data.mjs';
import { EVALUATION_FILE, MODEL_FILE, cacheKey, ensurePretrained } from '../../tools/pretrained.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pretrainedDir = path.join(repoRoot, 'build/pretrained');
const cliPath = process.env.PERFLAB_CLI || path.join(repoRoot, 'build/native/tools/perflab');
// Each run writes about 37 MB per folder: removed at the end.
const scratchDirs = [];
const scratch = (name) => {
  const d = mkdtempSync(path.join(tmpdir(), `perflab-${name}-`));
  scratchDirs.push(d);
  return d;
};
after(() => {
  for (const d of scratchDirs) rmSync(d, { recursive: true, force: true });
});
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const needPretrained = () =>
  assert.ok(
    existsSync(path.join(pretrainedDir, MODEL_FILE)),
    `${pretrainedDir}/${MODEL_FILE} is missing: tools/lab build trains the pretrained baseline`,
  );

// One run with the pretrained baseline (when built) and one without, shared by the tests.
const withModel = scratch('page-data-a');
const manifest = writePageData({ outDir: withModel, pretrainedDir });
const dir = path.join(withModel, DATA_SUBDIR);
const fileOf = (split, kind) => manifest.files.find((f) => f.split === split && f.kind === kind);
const read = (f) => readFileSync(path.join(dir, f.file));
const debian = (name) => readFileSync(path.join(DEFAULT_SOURCE, name));

function parseIdx(bytes) {
  assert.equal(bytes.readUInt16BE(0), 0, 'IDX starts with two zero bytes');
  const magic = bytes.readUInt32BE(0);
  const rank = bytes[3];
  const dims = Array.from({ length: rank }, (_, i) => bytes.readUInt32BE(4 + 4 * i));
  const data = bytes.subarray(4 + 4 * rank);
  assert.equal(data.length, dims.reduce((a, b) => a * b, 1), 'the data fills the header\'s dimensions exactly');
  return { magic, dims, data };
}

test('the training subset is the first rows of Debian\'s training files, as gzip\'d IDX', () => {
  const images = parseIdx(gunzipSync(read(fileOf('train_subset', 'images'))));
  const labels = parseIdx(gunzipSync(read(fileOf('train_subset', 'labels'))));
  assert.equal(images.magic, 0x00000803);
  assert.equal(labels.magic, 0x00000801);
  assert.deepEqual(images.dims, [SUBSET_COUNT, 28, 28]);
  assert.deepEqual(labels.dims, [SUBSET_COUNT]);
  assert.ok(labels.data.every((l) => l < 10), 'every label is below 10');
  const classes = new Set(labels.data);
  assert.equal(classes.size, 10, 'all ten classes are in the subset');
  const fullImages = parseIdx(gunzipSync(debian('train-images-idx3-ubyte.gz')));
  const fullLabels = parseIdx(gunzipSync(debian('train-labels-idx1-ubyte.gz')));
  assert.ok(images.data.equals(fullImages.data.subarray(0, SUBSET_COUNT * 784)), 'the first images, unchanged');
  assert.ok(labels.data.equals(fullLabels.data.subarray(0, SUBSET_COUNT)), 'the first labels, unchanged');
  assert.equal(manifest.train_subset.count, SUBSET_COUNT);
});

test('the test split and the full training split are Debian\'s files byte for byte', () => {
  for (const [split, kind, name] of [
    ['test', 'images', 't10k-images-idx3-ubyte.gz'],
    ['test', 'labels', 't10k-labels-idx1-ubyte.gz'],
    ['train', 'images', 'train-images-idx3-ubyte.gz'],
    ['train', 'labels', 'train-labels-idx1-ubyte.gz'],
  ]) {
    const f = fileOf(split, kind);
    assert.ok(f, `${split} ${kind} is in the manifest`);
    assert.ok(read(f).equals(debian(name)), `${f.file} equals ${name}`);
    // .gzip, not .gz: a server would send a .gz with Content-Encoding: gzip (tools/page-data.mjs).
    assert.match(f.file, /\.gzip$/);
    assert.equal(f.count, split === 'test' ? 10000 : 60000);
  }
});

test('the manifest lists every file written with its bytes and sha256, and nothing else', () => {
  const listed = manifest.files.map((f) => f.file).sort();
  const present = readdirSync(dir).filter((f) => f !== 'manifest.json').sort();
  assert.deepEqual(listed, present);
  for (const f of manifest.files) {
    const bytes = read(f);
    assert.equal(f.bytes, bytes.length, `${f.file}'s size`);
    assert.equal(f.sha256, sha256(bytes), `${f.file}'s sha256`);
  }
  assert.deepEqual(JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')), manifest);
  assert.equal(manifest.first_use_bytes, manifest.files.filter((f) => f.first_use).reduce((s, f) => s + f.bytes, 0));
  assert.equal(fileOf('train', 'images').first_use, false, 'the full training split waits for the student');
});

test('the script writes the same bytes from the same input', () => {
  const other = scratch('page-data-b');
  const again = writePageData({ outDir: other, pretrainedDir });
  assert.deepEqual(again, manifest);
  for (const f of [...manifest.files.map((x) => x.file), 'manifest.json']) {
    assert.ok(readFileSync(path.join(other, DATA_SUBDIR, f)).equals(readFileSync(path.join(dir, f))), f);
  }
});

test('at most 12 MB go over the wire before the first training or evaluation', () => {
  needPretrained();
  assert.ok(manifest.pretrained, 'the manifest names the pretrained baseline');
  const firstUse = manifest.files.filter((f) => f.first_use);
  const kinds = firstUse.map((f) => `${f.split} ${f.kind}`).sort();
  assert.deepEqual(kinds, ['null model', 'test evaluation', 'test images', 'test labels', 'train_subset images', 'train_subset labels']);
  const manifestBytes = readFileSync(path.join(dir, 'manifest.json')).length;
  const total = manifest.first_use_bytes + manifestBytes;
  assert.ok(total <= FIRST_USE_BUDGET_BYTES, `${total} bytes before the first training or evaluation, budget ${FIRST_USE_BUDGET_BYTES}`);
  assert.equal(FIRST_USE_BUDGET_BYTES, 12_000_000);
});

test('core\'s reader (the native CLI) reads the served test split and finds the cached evaluation', () => {
  needPretrained();
  assert.ok(existsSync(cliPath), `${cliPath} is missing: build the native CLI`);
  // The CLI looks for Debian's names; link them to the served .gzip files.
  const data = scratch('page-data-served');
  for (const name of ['t10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz']) {
    symlinkSync(path.join(dir, name.replace(/\.gz$/, '.gzip')), path.join(data, name));
  }
  const r = spawnSync(cliPath, ['evaluate', path.join(dir, MODEL_FILE), '--data', data, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const served = JSON.parse(readFileSync(path.join(dir, EVALUATION_FILE), 'utf8'));
  const now = JSON.parse(r.stdout);
  assert.equal(now.n, 10000);
  assert.equal(now.accuracy, served.accuracy);
  assert.deepEqual(now.confusion, served.confusion);
  assert.equal(manifest.pretrained.test_accuracy, served.accuracy);
});

test('the pretrained cache trains once per key: again when the binary changes, not when nothing did', () => {
  // A stand-in CLI that counts its training runs and writes a model and an evaluation.
  const work = scratch('pretrained-cache');
  const count = path.join(work, 'runs');
  const cli = path.join(work, 'fake-perflab');
  const script = (tag) =>
    `#!/bin/sh\n# ${tag}\nif [ "$1" = train ]; then echo x >> ${count}; while [ "$1" != --out ]; do shift; done; echo model > "$2";\n` +
    `else echo '{"accuracy": 0.5}'; fi\n`;
  writeFileSync(cli, script('one'));
  chmodSync(cli, 0o755);
  const cache = path.join(work, 'cache');
  mkdirSync(cache);
  const runs = () => (existsSync(count) ? readFileSync(count, 'utf8').split('\n').filter(Boolean).length : 0);
  const opts = { cli, cache, log: () => {} };
  assert.equal(ensurePretrained(opts).trained, true);
  assert.equal(ensurePretrained(opts).trained, false, 'an unchanged binary and data: no training');
  assert.equal(runs(), 1);
  const before = cacheKey({ cli, data: DEFAULT_SOURCE, args: [] });
  writeFileSync(cli, script('two'));
  assert.notEqual(cacheKey({ cli, data: DEFAULT_SOURCE, args: [] }), before);
  assert.equal(ensurePretrained(opts).trained, true, 'another binary: trained again');
  assert.equal(runs(), 2);
  assert.equal(readFileSync(path.join(cache, EVALUATION_FILE), 'utf8').trim(), '{"accuracy": 0.5}');
});

test('the page build wrote the same data under its output folder, and nothing the page loads names it', () => {
  // vite.config.js's perflab-page-data plugin; PERFLAB_DIST_DIR as the browser tests read it.
  const dist = path.resolve(repoRoot, process.env.PERFLAB_DIST_DIR || 'web/dist');
  const built = path.join(dist, 'data', DATA_SUBDIR, 'manifest.json');
  assert.ok(existsSync(built), `${built} is missing: the page build (npx vite build) writes it`);
  const theirs = JSON.parse(readFileSync(built, 'utf8'));
  assert.deepEqual(theirs.files.filter((f) => f.kind !== 'model' && f.kind !== 'evaluation'),
    manifest.files.filter((f) => f.kind !== 'model' && f.kind !== 'evaluation'));
  for (const f of theirs.files) {
    assert.equal(sha256(readFileSync(path.join(dist, 'data', DATA_SUBDIR, f.file))), f.sha256, f.file);
  }
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  assert.doesNotMatch(html, /fashion-mnist|\.gzip/);
});
