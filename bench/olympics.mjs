// The Olympics leaderboard at class scale: generates a class of `--count` entries from the
// page's menu of pipelines (tools/olympics/make-class.mjs: honest, constraint-breaking and
// tampered entries), then times the command a teacher runs, `node tools/grade.mjs DIR --out
// OUT --leaderboard`, end to end: reading the files, every entry re-checked by core's checker
// (models rebuilt from their pipelines, each distinct lineage once thanks to the checker's
// cache and the lineage groups, evaluated on the 10,000 test images; timing evidence
// checked) on the grading threads, and the leaderboard ranked and written.
// Usage: node bench/olympics.mjs [--count 500] [--seed 1] [--threads N] [--keep DIR]
// Prints the seconds, the distinct pipelines and the seconds per rebuild, and the figure
// against the 60 s goal for 500 entries on 2 cores.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { makeClass } from '../tools/olympics/make-class.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const GOAL_S = 60;
const GOAL_ENTRIES = 500;

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} takes a whole number from 1, got ${process.argv[i + 1]}`);
  return n;
}

const count = option('--count', GOAL_ENTRIES);
const seed = option('--seed', 1);
const threads = option('--threads', 0);
const keepAt = process.argv.indexOf('--keep');
const root = keepAt > 0 ? process.argv[keepAt + 1] : mkdtempSync(path.join(os.tmpdir(), 'perflab-olympics-'));
const classDir = path.join(root, 'class');
const outDir = path.join(root, 'out');

console.log(`generating ${count} entries (the page's menu, seed ${seed}) in ${classDir}…`);
const key = await makeClass({ out: classDir, entries: count, seed, log: (line) => console.log(`  ${line}`) });
const kinds = {};
for (const e of key.entries) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
console.log(`  ${key.entries.length} entries of ${key.students} students, ${key.pipelines} distinct honest pipelines; ${Object.entries(kinds).map(([k, n]) => `${n} ${k}`).join(', ')}`);

const args = [path.join(repoRoot, 'tools', 'grade.mjs'), classDir, '--out', outDir, '--leaderboard', '--quiet'];
if (threads) args.push('--grading-threads', String(threads));
const started = performance.now();
const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
const seconds = (performance.now() - started) / 1000;
if (r.status !== 0) {
  console.error(`tools/grade.mjs exited ${r.status}: ${r.stderr}`);
  process.exit(1);
}
const line = r.stdout.split('\n').find((l) => l.startsWith('leaderboard: ')) ?? '';
const figures = /\((\d+) distinct pipelines rebuilt\).* in ([\d.]+) s \((\d+) threads?: ([\d.]+) s loading the baseline and data, ([\d.]+) s checking\)/.exec(line);
console.log(`tools/grade.mjs --leaderboard: ${seconds.toFixed(1)} s end to end (load ${os.loadavg()[0].toFixed(1)})`);
console.log(`  ${line}`);
if (figures) {
  const [, pipelines, boardSeconds, nThreads, openSeconds, checkSeconds] = figures.map(Number);
  console.log(`  ${pipelines} distinct pipelines: ${(checkSeconds / pipelines).toFixed(2)} s of thread time per rebuilt pipeline (checking every entry included), ${nThreads} threads each loading the baseline and data in ${(openSeconds / nThreads).toFixed(1)} s; the leaderboard part ${boardSeconds.toFixed(1)} s`);
}
const scaled = (seconds * GOAL_ENTRIES) / count;
if (count === GOAL_ENTRIES) console.log(`${count} entries in ${seconds.toFixed(1)} s: < ${GOAL_S} s: ${seconds < GOAL_S ? 'met' : 'NOT met'}`);
else console.log(`${count} entries in ${seconds.toFixed(1)} s; ${GOAL_ENTRIES} at this rate: ${scaled.toFixed(1)} s (rebuilds do not grow with entries once the menu is covered, so this overstates)`);
if (keepAt < 0) rmSync(root, { recursive: true, force: true });
else console.log(`kept ${root}`);
