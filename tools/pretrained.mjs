// The page's pretrained baseline: `perflab train --zoo fashion_mlp` with core's baseline recipe
// (about 40 s natively), then `perflab evaluate --json`, cached in build/pretrained so that a
// build of an unchanged tree does not train again. tools/lab build runs it after the native
// build; vite.config.js's page-data plugin copies the result beside the data (docs/DATA.md).
//
//   node tools/pretrained.mjs [--cli PATH] [--cache DIR] [--data DIR]
//
// The cache key is the sha256 of what decides the weights: the CLI binary's bytes (core's
// trainer, kernels, zoo spec and baseline recipe are all compiled into it), the command's
// arguments, and the data files' bytes. Training is deterministic, so any binary with the
// same bytes would write the same model; a change anywhere in core relinks the binary and
// trains again (once), an unrelated page or test change does not.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEFAULT_CLI = path.join(repoRoot, 'build/native/tools/perflab');
export const DEFAULT_CACHE = path.join(repoRoot, 'build/pretrained');
export const DEFAULT_DATA = '/usr/share/datasets/fashion-mnist';
const ZOO = 'fashion_mlp';
const DATA_FILES = ['train-images-idx3-ubyte.gz', 'train-labels-idx1-ubyte.gz', 't10k-images-idx3-ubyte.gz', 't10k-labels-idx1-ubyte.gz'];
export const MODEL_FILE = `${ZOO}.perflab`;
export const EVALUATION_FILE = `${ZOO}.evaluation.json`;

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The cache key: sha256 over the binary's, the arguments' and the data's bytes. */
export function cacheKey({ cli, data, args }) {
  const h = createHash('sha256');
  h.update(`perflab-pretrained 1\n${sha256(readFileSync(cli))}\n${JSON.stringify(args)}\n`);
  for (const f of DATA_FILES) h.update(`${f} ${sha256(readFileSync(path.join(data, f)))}\n`);
  return h.digest('hex');
}

/** Trains and evaluates unless the cache holds this key; returns {trained, key, dir}. */
export function ensurePretrained({ cli = DEFAULT_CLI, cache = DEFAULT_CACHE, data = DEFAULT_DATA, log = console.log } = {}) {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: build the native CLI first (cmake --build --preset native --target perflab)`);
  const args = ['train', '--zoo', ZOO, '--data', data];
  const key = cacheKey({ cli, data, args });
  const keyFile = path.join(cache, 'key.txt');
  const have = [MODEL_FILE, EVALUATION_FILE].every((f) => existsSync(path.join(cache, f)));
  if (have && existsSync(keyFile) && readFileSync(keyFile, 'utf8').trim() === key) {
    log(`pretrained ${ZOO}: up to date (${cache}, key ${key.slice(0, 12)})`);
    return { trained: false, key, dir: cache };
  }
  log(`pretrained ${ZOO}: training with core's baseline recipe (key ${key.slice(0, 12)}; about 40 s)`);
  mkdirSync(cache, { recursive: true });
  rmSync(keyFile, { force: true });
  const tmp = path.join(cache, `${MODEL_FILE}.tmp`);
  // Progress goes to stderr, inherited; the summary on stdout is dropped.
  execFileSync(cli, [...args, '--out', tmp], { stdio: ['ignore', 'ignore', 'inherit'] });
  const evaluation = execFileSync(cli, ['evaluate', tmp, '--data', data, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  JSON.parse(evaluation); // refuse to cache anything but JSON
  renameSync(tmp, path.join(cache, MODEL_FILE));
  writeFileSync(path.join(cache, EVALUATION_FILE), evaluation);
  writeFileSync(keyFile, `${key}\n`); // last: a key names a complete pair
  return { trained: true, key, dir: cache };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
  };
  try {
    ensurePretrained({ cli: option('--cli', DEFAULT_CLI), cache: option('--cache', DEFAULT_CACHE), data: option('--data', DEFAULT_DATA) });
  } catch (e) {
    console.error(`tools/pretrained.mjs: ${e.message}`);
    process.exit(1);
  }
}
