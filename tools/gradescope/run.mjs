#!/usr/bin/env node
// Gradescope's autograder entry (run_autograder runs it in /autograder): re-grades the
// student's uploaded perflab submission file with the course bundled beside it
// (perflab-gradescope.json, written by bundle.mjs), through the same grading module as
// tools/grade.mjs, and writes results/results.json in Gradescope's documented format
// (gradescope-autograders.readthedocs.io, "Autograder Specifications": score, output,
// tests[{name, score, max_score, status, output, visibility}], extra_data). Lateness comes
// from the time Gradescope recorded (submission_metadata.json's created_at) against
// course.json's due date and late policy, never from the file. Usage:
//   node tools/gradescope/run.mjs [--root DIR]   (default /autograder; a test points it elsewhere)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { collectFiles } from '../grade.mjs';
import { createCodeRunner } from '../grading/code-runner.mjs';
import { loadNodeLab } from '../grading/node-lab.mjs';
import { scoreAssignments } from '../../web/src/grading/assignments.js';
import { gradeClass } from '../../web/src/grading/class.js';
import { newHiddenKey } from '../../web/src/grading/hidden-key.js';
import { formatPoints } from '../../web/src/grading/outputs.js';
import { looseId } from '../../web/src/grading/roster.js';

const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundle's settings file, beside tools/ in /autograder/source. */
export const CONFIG_FILE = 'perflab-gradescope.json';

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/**
 * The results.json object for the submission in `root` (Gradescope's /autograder layout:
 * submission/, submission_metadata.json, results/). The course and the assignment graded come
 * from `config` ({course, assignment: id | null}).
 */
export async function autograde(root, config, { lab, runCode }) {
  const course = await lab.courseFromJson(config.course);
  const metadataFile = path.join(root, 'submission_metadata.json');
  const metadata = existsSync(metadataFile) ? readJson(metadataFile) : {};
  const { files, problems } = collectFiles([path.join(root, 'submission')]);
  const graded = await gradeClass(files, { lab, runCode, course, hiddenKey: newHiddenKey(), choiceTexts: false }, { concurrency: 2 });
  graded.problems.unshift(...problems);
  const shown = (file) => path.relative(path.join(root, 'submission'), file);
  const notes = graded.problems.filter((p) => !p.graded).map((p) => `${shown(p.file)}: ${p.reason}`);

  // The file graded: the one whose student id is a submitter's SID or email, else the only one.
  const users = Array.isArray(metadata.users) ? metadata.users : [];
  const submitters = new Set(users.flatMap((u) => [u?.sid, u?.email]).filter((x) => typeof x === 'string' && x.trim()).map(looseId));
  const candidates = graded.students.filter((s) => s.in_gradebook);
  const mine = candidates.filter((s) => submitters.has(looseId(s.result.student.id)));
  const entry = mine.length === 1 ? mine[0] : candidates.length === 1 ? candidates[0] : null;
  if (!entry) {
    const why = candidates.length ? `${candidates.length} submission files for different students (${candidates.map((s) => s.result.student.id).join(', ')}): upload only your own` : 'no gradable perflab submission file was uploaded: export it from the course page ("Export progress") and upload that .json file';
    return { score: 0, output: [`Not graded: ${why}.`, ...notes].join('\n'), stdout_visibility: 'hidden', tests: [] };
  }
  const lateness = typeof metadata.created_at === 'string' ? { submitted_at: metadata.created_at } : { submitted_at: null };
  await scoreAssignments(graded, { lab, course, lateness: () => lateness });

  const { result } = entry;
  const assignments = entry.assignments.assignments;
  const chosen = config.assignment ? assignments.find((a) => a.id === config.assignment) : null;
  if (config.assignment && !chosen) throw new Error(`${CONFIG_FILE} names the assignment ${JSON.stringify(config.assignment)}, which the course does not have`);
  const ids = chosen ? new Set(graded.assignments.find((a) => a.id === chosen.id).exercises.map((e) => e.id)) : null;
  const exercises = result.exercises.filter((e) => !ids || ids.has(e.id));
  const tests = exercises.map((e) => ({
    name: `${e.title} (${e.id})`,
    score: e.score,
    max_score: e.max_score,
    status: e.score >= e.max_score - 1e-9 ? 'passed' : 'failed',
    output: [e.feedback, ...(e.tests ?? []).filter((t) => !t.passed).map((t) => `- ${t.message}`)].join('\n'),
    visibility: 'visible',
  }));
  const score = chosen ? chosen.score : entry.assignments.total.score;
  const lines = [];
  lines.push(`Re-graded from ${shown(entry.file)} (student ${result.student.id}) with the exercise bank ${graded.bank_version}; the scores the file claims were not used.`);
  for (const a of chosen ? [chosen] : assignments) {
    lines.push(`${a.name}: ${formatPoints(a.score)} of ${formatPoints(a.points_possible)}${a.kept_fraction < 1 ? ` (${formatPoints(a.raw_score)} before the late policy)` : ''}; ${a.note}.`);
  }
  if (submitters.size && !submitters.has(looseId(result.student.id))) {
    lines.push(`Note: the file is for student id ${JSON.stringify(result.student.id)}, which is not the SID or email Gradescope has for the submitter; the instructor will check it.`);
  }
  for (const f of result.flags) lines.push(`Note (${f.code}): ${f.reason}`);
  lines.push(...notes);
  return {
    score,
    output: lines.join('\n'),
    stdout_visibility: 'hidden',
    tests,
    extra_data: { student_id: result.student.id, seed: result.seed, bank_version: graded.bank_version, assignment: chosen?.id ?? null, flags: result.flags.map((f) => f.code) },
  };
}

/** Runs the autograder in `root`; resolves the exit status (results.json is written either way). */
export async function main(argv, { stderr = process.stderr } = {}) {
  const at = argv.indexOf('--root');
  const root = at >= 0 ? argv[at + 1] : '/autograder';
  const resultsFile = path.join(root, 'results', 'results.json');
  mkdirSync(path.dirname(resultsFile), { recursive: true });
  let results;
  let status = 0;
  let runner = null;
  try {
    const config = readJson(path.join(sourceRoot, CONFIG_FILE));
    const { lab } = await loadNodeLab();
    runner = createCodeRunner({ workers: 2 });
    results = await autograde(root, config, { lab, runCode: runner.runCode });
  } catch (e) {
    // The student sees that grading failed, not a stack; the instructor sees it in stdout.
    stderr.write(`perflab autograder: ${e?.stack ?? e}\n`);
    results = { score: 0, output: `The autograder failed: ${e?.message ?? e}. Tell your instructor.`, stdout_visibility: 'hidden', tests: [] };
    status = 1;
  } finally {
    await runner?.close();
  }
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  return status;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  });
}
