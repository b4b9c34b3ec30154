#!/usr/bin/env node
// Builds the Gradescope autograder zip (`tools/lab gradescope`): setup.sh and run_autograder
// at the zip's root (as Gradescope requires), and under them what run.mjs needs in
// /autograder/source: the JavaScript it imports (followed from run.mjs and the code worker,
// relative imports and `new URL(..., import.meta.url)` alike), the packages they import
// (acorn), the wasm build's grading module (the page's perflab_grade_simd), and
// perflab-gradescope.json with the course and the assignment graded. Not for: grading (run.mjs).
// Usage: node tools/gradescope/bundle.mjs --course FILE [--assignment ID] --out FILE.zip
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { zipSync } from 'fflate';

import { defaultWasmDir, loadNodeLab } from '../grading/node-lab.mjs';
import { wasmModuleFiles } from '../wasm-node.mjs';
import { CONFIG_FILE } from './run.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const here = (p) => path.join(repoRoot, p);

export const USAGE = `usage: node tools/gradescope/bundle.mjs --course FILE [--assignment ID] --out FILE.zip

Writes the Gradescope autograder zip that re-grades a student's uploaded perflab submission
with this course. Gradescope's score is the assignment's points after the late policy (the
assignment course.json names with --assignment, else every assignment together); each
exercise is one test with its re-graded points. Set the Gradescope assignment's points to
the same total.`;

// The modules a file imports (import/export ... from, a bare import, a dynamic import) and
// the files it loads by URL (`new URL('./x', import.meta.url)`): statements only, not text
// in comments that shows an import.
const SPECIFIER = [
  /^(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\bnew URL\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*,\s*import\.meta\.url/g,
];

/** Every repository file the entries reach, and the packages they import by name. */
export function closure(entries) {
  const files = new Set();
  const packages = new Set();
  const visit = (file) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(here(file), 'utf8');
    for (const pattern of SPECIFIER) {
      for (const [, spec] of text.matchAll(pattern)) {
        if (spec.startsWith('.')) visit(path.posix.normalize(path.posix.join(path.posix.dirname(file), spec)));
        else if (!spec.startsWith('node:')) packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
      }
    }
  };
  for (const entry of entries) visit(entry);
  return { files: [...files].sort(), packages: [...packages].sort() };
}

const filesUnder = (dir) => readdirSync(here(dir)).flatMap((name) => {
  const rel = path.posix.join(dir, name);
  return statSync(here(rel)).isDirectory() ? filesUnder(rel) : [rel];
});

const EXECUTABLE = { os: 3, attrs: (0o100755 << 16) >>> 0 };

/** The zip's entries as {name: [bytes, attributes]}. */
export function bundleEntries({ courseText, assignment = null, wasmDir = defaultWasmDir() }) {
  const entries = {};
  const add = (name, bytes, attrs = { os: 3, attrs: (0o100644 << 16) >>> 0 }) => {
    entries[name] = [bytes, attrs];
  };
  add('setup.sh', readFileSync(here('tools/gradescope/setup.sh')), EXECUTABLE);
  add('run_autograder', readFileSync(here('tools/gradescope/run_autograder')), EXECUTABLE);
  const { files, packages } = closure(['tools/gradescope/run.mjs', 'tools/grading/code-worker.mjs', 'web/src/lab/sandbox-runner.js']);
  for (const file of files) add(file, readFileSync(here(file)));
  for (const name of packages) {
    const dir = `node_modules/${name}`;
    if (!existsSync(here(dir))) throw new Error(`the package ${name} is imported but not installed (npm ci)`);
    for (const file of filesUnder(dir)) add(file, readFileSync(here(file)));
  }
  for (const file of Object.values(wasmModuleFiles(wasmDir, 'perflab_grade_simd'))) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build the wasm grading module first (tools/lab build)`);
    add(`build/wasm/web/${path.basename(file)}`, readFileSync(file));
  }
  add(CONFIG_FILE, Buffer.from(`${JSON.stringify({ course: JSON.parse(courseText), assignment }, null, 2)}\n`));
  return entries;
}

export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const options = { course: null, assignment: null, out: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const key = { '--course': 'course', '--assignment': 'assignment', '--out': 'out' }[arg];
    if (arg === '--help' || arg === '-h') {
      stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (!key || i + 1 >= argv.length) {
      stderr.write(`gradescope: ${key ? `${arg} needs a value` : `unknown argument ${arg}`}\n\n${USAGE}\n`);
      return 2;
    }
    options[key] = argv[++i];
  }
  if (!options.course || !options.out) {
    stderr.write(`gradescope: --course FILE and --out FILE.zip are required\n\n${USAGE}\n`);
    return 2;
  }
  const { lab } = await loadNodeLab();
  let courseText;
  try {
    courseText = readFileSync(options.course, 'utf8');
    const course = await lab.courseFromJson(JSON.parse(courseText));
    const ids = (await lab.courseAssignments(course)).map((a) => a.id);
    if (options.assignment && !ids.includes(options.assignment)) throw new Error(`--assignment ${options.assignment} is not one of the course's assignments: ${ids.join(', ')}`);
  } catch (e) {
    stderr.write(`gradescope: --course ${options.course}: ${e.message}\n`);
    return 2;
  }
  const entries = bundleEntries({ courseText, assignment: options.assignment });
  const zip = zipSync(Object.fromEntries(Object.entries(entries).map(([name, [bytes, attrs]]) => [name, [bytes, attrs]])), { level: 6 });
  writeFileSync(options.out, zip);
  stdout.write(`wrote ${options.out} (${Object.keys(entries).length} files, ${(zip.length / 1e6).toFixed(1)} MB): upload it as the Gradescope assignment's autograder (Docker image: Ubuntu; setup.sh installs Node 20)\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  }, (e) => {
    process.stderr.write(`gradescope: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
