// Re-grading at class scale: generates a class of submissions from the real bank (the test
// helper tests/js/grading-generate.mjs in its fast mode: code from reference solutions for
// about 70% of the exercises, numeric answers guessed, so the class is partly wrong, as real
// ones are), then times the command a teacher runs, `node tools/grade.mjs DIR --out OUT
// --course course.json`, end to end: reading, core's grading, every student's code re-run
// in the worker pool, and the outputs written. The timed exercises (those whose variant holds
// a timed test: acceleration.matmul-loop-order times N = 512 matmuls against the naive loop,
// optimization.csr-matvec the CSR product at n = 2048 against the dense one; each alone on
// the machine, so its measurement is the student's code and not the grader's load) are
// measured apart, on a few submissions, because they cost about a second each.
// Usage: node bench/regrade.mjs [--count 500] [--timed 3] [--workers N] [--keep DIR]
// Prints the seconds, the rate and the figure against the 60 s goal for 500 on 2 cores.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadNodeLab } from '../tools/grading/node-lab.mjs';
import { generateSubmission, seeded } from '../tests/js/grading-generate.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const COURSE = { id: 'perf-bench', title: 'Re-grading benchmark', salt: 'bench-salt' };
const GOAL_S = 60;

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const n = Number(process.argv[i + 1]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} takes a whole number, got ${process.argv[i + 1]}`);
  return n;
}

async function writeClass(lab, dir, count, { timed }) {
  mkdirSync(dir, { recursive: true });
  for (let i = 1; i <= count; i++) {
    const id = `s${String(i).padStart(4, '0')}`;
    const submission = await generateSubmission(lab, COURSE, id, { fast: true, timed, random: seeded(i * 2654435761) });
    writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(submission));
  }
}

function gradeCommand(dir, out, courseFile, workers) {
  const args = [path.join(repoRoot, 'tools', 'grade.mjs'), dir, '--out', out, '--course', courseFile, '--quiet'];
  if (workers) args.push('--workers', String(workers));
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`tools/grade.mjs exited ${r.status}: ${r.stderr}`);
  const cpu = /\(([\d.]+) s of CPU\)/.exec(r.stdout);
  return { seconds, cpu: cpu ? Number(cpu[1]) : null, summary: r.stdout.split('\n')[0] };
}

const count = option('--count', 500);
const timedCount = option('--timed', 3);
const workers = option('--workers', 0);
const keepAt = process.argv.indexOf('--keep');
const root = keepAt > 0 ? process.argv[keepAt + 1] : mkdtempSync(path.join(os.tmpdir(), 'perflab-regrade-'));
const { lab } = await loadNodeLab();
const courseFile = path.join(root, 'course.json');
mkdirSync(root, { recursive: true });
writeFileSync(courseFile, JSON.stringify(COURSE));

console.log(`machine: ${os.cpus().length} logical cores (${os.cpus()[0]?.model ?? 'unknown'}), node ${process.version}, bank ${await lab.exerciseBankVersion()}`);
let t = performance.now();
await writeClass(lab, path.join(root, 'class'), count, { timed: 0 });
console.log(`generated ${count} submissions in ${((performance.now() - t) / 1000).toFixed(1)} s (not timed below)`);
const load0 = os.loadavg()[0].toFixed(2);
const main = gradeCommand(path.join(root, 'class'), path.join(root, 'out'), courseFile, workers);
console.log(`re-graded ${count} submissions (no timed exercise) in ${main.seconds.toFixed(1)} s: ${(1000 * main.seconds / count).toFixed(0)} ms each; goal for 500 on 2 cores: < ${GOAL_S} s`);
console.log(`  the grader's own CPU time: ${main.cpu} s (its threads together); load average before and after: ${load0} / ${os.loadavg()[0].toFixed(2)} (other processes slow the wall time)`);
console.log(`  ${main.summary}`);

if (timedCount > 0) {
  t = performance.now();
  await writeClass(lab, path.join(root, 'timed'), timedCount, { timed: 1 });
  const timed = gradeCommand(path.join(root, 'timed'), path.join(root, 'out-timed'), courseFile, workers);
  console.log(`re-graded ${timedCount} submissions that answered every timed exercise in ${timed.seconds.toFixed(1)} s: ${(timed.seconds / timedCount).toFixed(1)} s each (the timed tests run alone, one after another)`);
}
if (keepAt < 0) rmSync(root, { recursive: true, force: true });
