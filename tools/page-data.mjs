// The Fashion-MNIST files the page fetches on demand, and their manifest (docs/DATA.md,
// "The page"). Written under the page's output folder by vite.config.js's plugin after each
// page build, so the deployable folder is self-contained; index.html never references them.
//
//   node tools/page-data.mjs --out DIR [--source DIR] [--pretrained DIR]
//
// DIR/fashion-mnist/ receives:
//   t10k-*-ubyte.gzip, train-*-ubyte.gzip   Debian's .gz files, byte for byte (the test split,
//                                       and the full training split, fetched only when the student asks)
//   train-12k-*-ubyte.gzip              the training subset: the first SUBSET_COUNT images and
//                                       labels, IDX re-headed with the smaller count, gzip'd by
//                                       Node's zlib (level 6, no name, no time: same input, same bytes)
//   fashion_mlp.perflab, fashion_mlp.evaluation.json   the pretrained baseline, copied from
//                                       the cache tools/pretrained.mjs fills (when there is one)
// The extension is .gzip, not .gz: static servers (vite preview's sirv, Apache's AddEncoding)
// send a .gz file with Content-Encoding: gzip, and the browser would hand the page inflated
// bytes on one host and gzip on another. Under .gzip every host sends the gzip bytes and the
// page inflates them with DecompressionStream.
//   manifest.json                       every file with its bytes and sha256, the counts, and
//                                       the bytes the page fetches before its first training or
//                                       evaluation (first_use_bytes), against FIRST_USE_BUDGET_BYTES
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

export const DEFAULT_SOURCE = '/usr/share/datasets/fashion-mnist';
export const DATA_SUBDIR = 'fashion-mnist';
export const SUBSET_COUNT = 12000;
export const FIRST_USE_BUDGET_BYTES = 12_000_000;
export const MANIFEST_FORMAT = 1;
const GZIP_LEVEL = 6;
export const SOURCE_FILES = {
  test: { images: 't10k-images-idx3-ubyte.gz', labels: 't10k-labels-idx1-ubyte.gz', count: 10000 },
  train: { images: 'train-images-idx3-ubyte.gz', labels: 'train-labels-idx1-ubyte.gz', count: 60000 },
};
const SUBSET_FILES = { images: 'train-12k-images-idx3-ubyte.gzip', labels: 'train-12k-labels-idx1-ubyte.gzip' };
// Debian's name with .gzip for .gz (see above).
const servedName = (debianName) => debianName.replace(/\.gz$/, '.gzip');
const PRETRAINED_FILES = { model: 'fashion_mlp.perflab', evaluation: 'fashion_mlp.evaluation.json' };

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** An IDX file's header: magic, dims; throws a sentence when the bytes are not IDX of unsigned bytes. */
export function idxHeader(bytes, what) {
  if (bytes.length < 8 || bytes[0] !== 0 || bytes[1] !== 0 || bytes[2] !== 0x08) {
    throw new Error(`${what} is not an IDX file of unsigned bytes (it must start 00 00 08)`);
  }
  const rank = bytes[3];
  if (bytes.length < 4 + 4 * rank) throw new Error(`${what}'s IDX header is truncated`);
  const dims = [];
  for (let i = 0; i < rank; i++) dims.push(bytes.readUInt32BE(4 + 4 * i));
  const size = dims.reduce((a, b) => a * b, 1);
  if (bytes.length !== 4 + 4 * rank + size) {
    throw new Error(`${what} holds ${bytes.length} bytes, its header says ${4 + 4 * rank + size}`);
  }
  return { magic: bytes.readUInt32BE(0), dims, dataOffset: 4 + 4 * rank };
}

/** The first `count` rows of an inflated IDX file, re-headed with that count. */
export function firstRows(bytes, count, what) {
  const { dims, dataOffset } = idxHeader(bytes, what);
  if (count < 1 || count > dims[0]) throw new Error(`${what} has ${dims[0]} rows; asked for the first ${count}`);
  const rowBytes = dims.slice(1).reduce((a, b) => a * b, 1);
  const out = Buffer.concat([bytes.subarray(0, dataOffset), bytes.subarray(dataOffset, dataOffset + count * rowBytes)]);
  out.writeUInt32BE(count, 4);
  return out;
}

function entry(dir, file, fields) {
  const bytes = readFileSync(path.join(dir, file));
  return { file, ...fields, bytes: bytes.length, sha256: sha256(bytes) };
}

/**
 * Writes the data files and manifest.json into outDir/fashion-mnist; returns the manifest.
 * pretrainedDir: the folder holding fashion_mlp.perflab and its evaluation JSON (and key.txt),
 * or null; when the files are not there the manifest's pretrained is null.
 */
export function writePageData({ outDir, source = DEFAULT_SOURCE, pretrainedDir = null }) {
  for (const split of Object.values(SOURCE_FILES)) {
    for (const f of [split.images, split.labels]) {
      if (!existsSync(path.join(source, f))) {
        throw new Error(`${path.join(source, f)} is missing: install Debian's dataset-fashion-mnist (tools/lab build does)`);
      }
    }
  }
  const dir = path.join(outDir, DATA_SUBDIR);
  mkdirSync(dir, { recursive: true });
  for (const split of Object.values(SOURCE_FILES)) {
    copyFileSync(path.join(source, split.images), path.join(dir, servedName(split.images)));
    copyFileSync(path.join(source, split.labels), path.join(dir, servedName(split.labels)));
  }
  for (const kind of ['images', 'labels']) {
    const full = gunzipSync(readFileSync(path.join(source, SOURCE_FILES.train[kind])));
    const subset = firstRows(full, SUBSET_COUNT, SOURCE_FILES.train[kind]);
    writeFileSync(path.join(dir, SUBSET_FILES[kind]), gzipSync(subset, { level: GZIP_LEVEL }));
  }

  const files = [];
  const split = (name, names, count, firstUse) => {
    files.push(entry(dir, names.images, { split: name, kind: 'images', count, rows: 28, cols: 28, gzip: true, first_use: firstUse }));
    files.push(entry(dir, names.labels, { split: name, kind: 'labels', count, gzip: true, first_use: firstUse }));
  };
  const served = (names) => ({ images: servedName(names.images), labels: servedName(names.labels) });
  split('test', served(SOURCE_FILES.test), SOURCE_FILES.test.count, true);
  split('train_subset', SUBSET_FILES, SUBSET_COUNT, true);
  split('train', served(SOURCE_FILES.train), SOURCE_FILES.train.count, false);

  let pretrained = null;
  const have = pretrainedDir && Object.values(PRETRAINED_FILES).every((f) => existsSync(path.join(pretrainedDir, f)));
  if (have) {
    for (const f of Object.values(PRETRAINED_FILES)) copyFileSync(path.join(pretrainedDir, f), path.join(dir, f));
    const evaluation = JSON.parse(readFileSync(path.join(dir, PRETRAINED_FILES.evaluation), 'utf8'));
    files.push(entry(dir, PRETRAINED_FILES.model, { split: null, kind: 'model', gzip: false, first_use: true }));
    files.push(entry(dir, PRETRAINED_FILES.evaluation, { split: 'test', kind: 'evaluation', gzip: false, first_use: true }));
    const keyFile = path.join(pretrainedDir, 'key.txt');
    pretrained = {
      zoo: 'fashion_mlp',
      model: PRETRAINED_FILES.model,
      evaluation: PRETRAINED_FILES.evaluation,
      test_accuracy: evaluation.accuracy,
      cache_key: existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : null,
    };
  }

  const manifest = {
    format: MANIFEST_FORMAT,
    source: `Debian's dataset-fashion-mnist (${DEFAULT_SOURCE}), MIT licence, Zalando SE`,
    train_subset: { count: SUBSET_COUNT, rule: `the first ${SUBSET_COUNT} images and labels of the training split` },
    files,
    pretrained,
    // The files the page fetches before its first training or evaluation; manifest.json
    // (a few KB, fetched first) is not among them: tests/js/page-data.test.mjs adds it.
    first_use_bytes: files.filter((f) => f.first_use).reduce((s, f) => s + f.bytes, 0),
    first_use_budget_bytes: FIRST_USE_BUDGET_BYTES,
  };
  writeFileSync(path.join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
  };
  const outDir = option('--out', null);
  if (!outDir) {
    console.error('usage: node tools/page-data.mjs --out DIR [--source DIR] [--pretrained DIR]');
    process.exit(2);
  }
  try {
    const m = writePageData({ outDir, source: option('--source', DEFAULT_SOURCE), pretrainedDir: option('--pretrained', null) });
    console.log(`${path.join(outDir, DATA_SUBDIR)}: ${m.files.length} files, ${m.first_use_bytes} bytes before the first training or evaluation`);
  } catch (e) {
    console.error(`tools/page-data.mjs: ${e.message}`);
    process.exit(1);
  }
}
