#!/usr/bin/env node
// Re-grades a class's submission files on the command line, with core's grader in wasm and
// the students' code in worker threads (tools/grading/), through the same grading module as
// the page's instructor view (web/src/grading/). Usage: see USAGE below.
// Exit status: 0 graded (the outputs are written; unreadable files are in problems.csv and
// flags in flags.csv), 2 bad usage (an unknown option, no input, no --out, a path that does
// not exist, a course.json or a --hidden-key core refuses), 1 the grader could not start (no wasm build).
import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { CANVAS_ID_COLUMNS, MISSING_RULES, MOODLE_ID_COLUMNS, classOutputs } from '../web/src/grading/outputs.js';
import { assignmentCourse, scoreAssignments } from '../web/src/grading/assignments.js';
import { latenessOf, matchRoster, readRoster, readSubmissionTimes } from '../web/src/grading/roster.js';
import { gradeClass } from '../web/src/grading/class.js';
import { createCodeRunner } from './grading/code-runner.mjs';
import { createGradingPool } from './grading/grade-pool.mjs';
import { loadNodeLab, loadNodeMean } from './grading/node-lab.mjs';
import { analyticsFiles } from '../web/src/grading/analytics-files.js';
import { classAnalytics } from '../web/src/grading/summary.js';
import { readJsonText } from '../web/src/lab/json-text.js';
import { checkOlympicsEntries, leaderboardSummary, olympicsEntriesOf, trainImagesOf } from '../web/src/grading/olympics.js';
import { createOlympicsPool, leaderboardInputsProblem } from './grading/olympics-pool.mjs';
import { DEFAULT_CACHE, DEFAULT_DATA, MODEL_FILE } from './pretrained.mjs';
import { checkHiddenKey, gradingRunJson, newHiddenKey } from '../web/src/grading/hidden-key.js';

export const USAGE = `usage: node tools/grade.mjs SUBMISSIONS_OR_DIRS... --out DIR [options]

Re-grades perflab submission files (the page's progress export, version 2) from their
answers: numeric and choice answers for the seed each student id gives, code re-run with
each exercise's time limit on its public tests and on hidden tests drawn afresh (see
--hidden-key), evidence-backed answers against the rows they came with. The
score a file claims is never used, only compared.

  SUBMISSIONS_OR_DIRS   files, or folders read recursively (every file in them)
  --out DIR             where the outputs go (created if missing; files are overwritten):
                          gradebook-canvas.csv  Canvas gradebook import, one column per
                                                assignment (course.json's, else per chapter)
                          gradebook-moodle.csv  Moodle grade import, the same columns
                          assignments.csv       per student and assignment: points before and
                                                after the late policy, lateness and why
                          roster.csv            with --roster: who submitted, who did not,
                                                ids typed differently, files matching no one
                          exercises.csv         one row per file, one column per exercise
                          problems.csv          files not graded (or not as claimed), and why
                          flags.csv             every flag with its reason
                          feedback/<id>.md      per graded file: the exercises attempted
                                                (score, feedback, flags), a line for the rest
                          analytics.md, analytics.csv  per exercise: attempted, not attempted,
                                                failed, mean, the common wrong values
                          roofline.csv          the class roofline: per student their roofs
                                                and fastest measured kernel (their own run)
                          grading-run.json      the grading key and bank version of this run
                          leaderboard.csv, leaderboard.md, leaderboard.json  with --leaderboard
  --course FILE         the course.json the page was deployed with (its salt derives each
                        student's seed); without it each file's own seed is used, unchecked
  --canvas-id COLUMN    which Canvas column holds the student id: sis-user-id (default),
                        sis-login-id or id
  --hidden-key K        the grading key code exercises' hidden tests are drawn with: fresh
                        inputs the students' pages never showed (their public example tests
                        stay as shown). Without it each run draws a random key; either way
                        the key is written to grading-run.json, and grading again with it
                        reproduces the gradebook (the instructor view takes the same key).
                        1 to 64 letters, digits, '.', '_' or '-'; keep it from students
  --roster FILE         the LMS's roster export: Canvas's gradebook CSV, Moodle's grade
                        export or Gradescope's roster; the gradebooks then hold every
                        rostered student in its order and spelling
  --roster-id COLUMN    the roster column matched to the submissions' student ids (default:
                        SIS User ID for Canvas, ID number for Moodle, SID for Gradescope);
                        an id in another case or with spaces still matches, and is said
  --missing RULE        a rostered student without a submission: empty (default: no grade
                        written) or zero
  --submissions FILE    when the LMS recorded each submission: a CSV with student_id,
                        submitted_at (ISO 8601 with an offset) and optionally assignment;
                        course.json's late policy is applied to it. Without it, a file named
                        by Canvas's bulk download (<name>[_LATE]_<user>_<attachment>_<file>)
                        is late when Canvas marked it so (counted as 1 day); the student's
                        clock and the file's exported_at are never used
  --per-exercise        one gradebook column per exercise too (re-graded points, before any
                        late policy)
  --moodle-id FIELD     the identifier gradebook-moodle.csv's first column holds: idnumber
                        (default), email or username (the import maps it to that field)
  --workers N           worker threads for students' code (default: the number of cores)
  --grading-threads N   threads that re-grade files with core, each its own grading module
                        (default: the number of cores, at most 4; 1 grades on the main thread)
  --leaderboard         re-check every Olympics entry of the files the gradebook keeps, as
                        core's checker does (each model rebuilt from its pipeline, accuracy
                        and size recomputed on the test split, the timing's evidence checked;
                        latency is the student's own measurement, marked self-reported) and
                        rank them per event: leaderboard.csv, leaderboard.md (ties, refusals
                        with their reasons, flags, the Pareto frontier), leaderboard.json.
                        Entries sharing a lineage are rebuilt once; lineages are spread over
                        --grading-threads threads
  --baseline FILE       the baseline model file entries are rebuilt from (default
                        build/pretrained/fashion_mlp.perflab, what node tools/pretrained.mjs
                        writes); with --leaderboard
  --data DIR            the Fashion-MNIST .gz files (default ${DEFAULT_DATA}); with
                        --leaderboard
  --quiet               no progress on stderr

exit status: 0 graded, 2 bad usage, a bad course.json or --hidden-key, 1 the grader could not start`;

// Larger files are reported, not read: a submission is a few hundred kB at most.
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

class UsageError extends Error {}

export function parseArgs(argv) {
  const options = { inputs: [], out: null, course: null, canvasId: 'sis-user-id', hiddenKey: null, workers: null, quiet: false, roster: null, rosterId: null, missing: 'empty', submissions: null, perExercise: false, moodleId: 'idnumber', leaderboard: false, baseline: null, data: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--out') options.out = value();
    else if (arg === '--course') options.course = value();
    else if (arg === '--canvas-id') {
      options.canvasId = value();
      if (!Object.hasOwn(CANVAS_ID_COLUMNS, options.canvasId)) throw new UsageError(`--canvas-id must be one of ${Object.keys(CANVAS_ID_COLUMNS).join(', ')}, got ${JSON.stringify(options.canvasId)}`);
    } else if (arg === '--hidden-key') options.hiddenKey = value();
    else if (arg === '--roster') options.roster = value();
    else if (arg === '--roster-id') options.rosterId = value();
    else if (arg === '--submissions') options.submissions = value();
    else if (arg === '--per-exercise') options.perExercise = true;
    else if (arg === '--leaderboard') options.leaderboard = true;
    else if (arg === '--baseline') options.baseline = value();
    else if (arg === '--data') options.data = value();
    else if (arg === '--missing') {
      options.missing = value();
      if (!MISSING_RULES.includes(options.missing)) throw new UsageError(`--missing must be one of ${MISSING_RULES.join(', ')}, got ${JSON.stringify(options.missing)}`);
    } else if (arg === '--moodle-id') {
      options.moodleId = value();
      if (!Object.hasOwn(MOODLE_ID_COLUMNS, options.moodleId)) throw new UsageError(`--moodle-id must be one of ${Object.keys(MOODLE_ID_COLUMNS).join(', ')}, got ${JSON.stringify(options.moodleId)}`);
    }
    else if (arg === '--workers') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError('--workers must be an integer from 1 to 64');
      options.workers = n;
    } else if (arg === '--grading-threads') {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1 || n > 16) throw new UsageError('--grading-threads must be an integer from 1 to 16');
      options.gradingThreads = n;
    } else if (arg === '--quiet') options.quiet = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else options.inputs.push(arg);
  }
  if (options.help) return options;
  if (!options.inputs.length) throw new UsageError('no submission files or folders given');
  if (!options.out) throw new UsageError('--out DIR is required');
  if (!options.leaderboard && (options.baseline || options.data)) throw new UsageError(`${options.baseline ? '--baseline' : '--data'} needs --leaderboard`);
  if (options.leaderboard) {
    options.baseline ??= path.join(DEFAULT_CACHE, MODEL_FILE);
    options.data ??= DEFAULT_DATA;
    const problem = leaderboardInputsProblem(options);
    if (problem) throw new UsageError(`--leaderboard: ${problem}`);
  }
  return options;
}

/**
 * Every file under the inputs as {name, text} (name relative to the input it came from,
 * prefixed by it), plus read failures as problems. A path that does not exist is a usage error.
 * Each folder is read once: a link back to a folder already read (a loop, or a second way to
 * the same folder) is a problem, not followed, so links that loop cannot make the walk endless.
 */
export function collectFiles(inputs) {
  const files = [];
  const problems = [];
  const foldersRead = new Map(); // "dev:ino" of each folder read -> the path it was read by
  const visit = (full, shown) => {
    let stat;
    try {
      stat = lstatSync(full);
    } catch (e) {
      problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: `could not be read: ${e.message}`, graded: false });
      return;
    }
    if (stat.isSymbolicLink()) {
      try {
        stat = statSync(full);
      } catch (e) {
        problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: `a broken link: ${e.message}`, graded: false });
        return;
      }
    }
    if (stat.isDirectory()) {
      const key = `${stat.dev}:${stat.ino}`;
      if (foldersRead.has(key)) {
        problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: `a link to the folder ${foldersRead.get(key)}, which is read once; not followed again`, graded: false });
        return;
      }
      foldersRead.set(key, shown);
      let entries;
      try {
        entries = readdirSync(full).sort();
      } catch (e) {
        problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: `the folder could not be listed: ${e.message}`, graded: false });
        return;
      }
      for (const entry of entries) visit(path.join(full, entry), path.join(shown, entry));
      return;
    }
    if (!stat.isFile()) {
      problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: 'not a regular file', graded: false });
      return;
    }
    if (stat.size > MAX_FILE_BYTES) {
      problems.push({ file: shown, student_id: '', kind: 'too-large', reason: `${stat.size} bytes, over the ${MAX_FILE_BYTES}-byte limit for a submission`, graded: false });
      return;
    }
    try {
      files.push({ name: shown, text: readFileSync(full, 'utf8') });
    } catch (e) {
      problems.push({ file: shown, student_id: '', kind: 'unreadable', reason: `could not be read: ${e.message}`, graded: false });
    }
  };
  for (const input of inputs) {
    try {
      statSync(input);
    } catch {
      throw new UsageError(`${input} does not exist`);
    }
    visit(input, input);
  }
  return { files, problems };
}

async function readCourse(file, lab) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--course ${file} could not be read: ${e.message}`);
  }
  const read = await readJsonText(text, lab.jsonTextProblem);
  if ('reason' in read) throw new UsageError(`--course ${file} is not JSON: ${read.reason}`);
  try {
    return await lab.courseFromJson(read.value);
  } catch (e) {
    throw new UsageError(`--course ${file}: ${e.message}`);
  }
}

/**
 * The roster and the submission times, read before grading so that a file the grader cannot
 * use stops it at once (UsageError); each submission time is checked by core against the
 * course's assignments.
 */
async function readLmsFiles(options, { lab, course }) {
  const read = (file, what) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`${what} ${file} could not be read: ${e.message}`);
    }
  };
  const out = { roster: null, times: null, assignmentIds: [] };
  if (options.roster) {
    try {
      out.roster = readRoster(read(options.roster, '--roster'), { idColumn: options.rosterId });
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`--roster ${options.roster}: ${e.message}`);
    }
  } else if (options.rosterId) throw new UsageError('--roster-id needs --roster');
  if (options.submissions) {
    const where = `--submissions ${options.submissions}`;
    try {
      out.times = readSubmissionTimes(read(options.submissions, '--submissions'));
    } catch (e) {
      if (e instanceof UsageError) throw e;
      throw new UsageError(`${where}: ${e.message}`);
    }
    // Without a course.json every chapter is graded (gradedChapters), one assignment each.
    const chapters = course?.chapters ?? [...new Set((await lab.exerciseBank()).map((e) => e.chapter))];
    const c = assignmentCourse(course, { chapters });
    out.assignmentIds = (await lab.courseAssignments(c)).map((a) => a.id);
    for (const [id, t] of out.times) {
      for (const [assignment, at] of Object.entries(t.by)) {
        if (!out.assignmentIds.includes(assignment)) throw new UsageError(`${where}: student ${id} names the assignment ${JSON.stringify(assignment)}; the course's assignments are ${out.assignmentIds.join(', ')}`);
        if (at !== null) await checkTime(lab, c, at, `${where}: student ${id}, ${assignment}`);
      }
      if (t.at !== null) await checkTime(lab, c, t.at, `${where}: student ${id}`);
    }
  }
  return out;
}

async function checkTime(lab, course, at, where) {
  try {
    await lab.assignmentScores(course, { scores: {}, submitted_at: at });
  } catch (e) {
    throw new UsageError(`${where}: ${e.message}`);
  }
}

/**
 * The Olympics leaderboard of the graded class (web/src/grading/olympics.js) on `threads`
 * threads (tools/grading/olympics-pool.mjs): {files, summary, seconds, pipelines, stats}.
 * Entries whose check call failed are added to graded.problems (problems.csv).
 */
export async function olympicsLeaderboard(graded, { baseline, data, quiet }, { threads, stderr = process.stderr }) {
  const started = performance.now();
  const items = olympicsEntriesOf(graded);
  const pool = await createOlympicsPool({ threads: Math.max(1, Math.min(threads, items.length)), baseline, data, trainImages: trainImagesOf(items) });
  try {
    const progress = quiet || !stderr.isTTY ? () => {} : ({ done, total }) => stderr.write(`\rchecked ${done} of ${total} Olympics entries`);
    const checked = await checkOlympicsEntries(items, { checkers: pool.checkers, onProgress: progress });
    if (!quiet && stderr.isTTY) stderr.write('\n');
    for (const p of checked.problems) {
      graded.problems.push({ file: p.file, student_id: p.student, kind: 'olympics-unchecked', reason: `Olympics entry ${p.entry}: ${p.reason}`, graded: true });
    }
    const { files } = await pool.leaderboard(checked.rows);
    return { files, summary: leaderboardSummary(checked), seconds: (performance.now() - started) / 1000, pipelines: checked.pipelines, stats: pool.stats() };
  } finally {
    await pool.close();
  }
}

/** Runs the command; resolves the exit status. */
export async function main(argv, { stdout = process.stdout, stderr = process.stderr } = {}) {
  let options;
  try {
    options = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`grade: ${e.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options.help) {
    stdout.write(`${USAGE}\n`);
    return 0;
  }
  let collected;
  try {
    collected = collectFiles(options.inputs);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`grade: ${e.message}\n`);
    return 2;
  }
  let lab;
  try {
    ({ lab } = await loadNodeLab());
  } catch (e) {
    stderr.write(`grade: the grader could not start: ${e.message}\n`);
    return 1;
  }
  let course = null;
  if (options.course) {
    try {
      course = await readCourse(options.course, lab);
    } catch (e) {
      if (!(e instanceof UsageError)) throw e;
      stderr.write(`grade: ${e.message}\n`);
      return 2;
    }
  }

  const hiddenKey = options.hiddenKey ?? newHiddenKey();
  try {
    await checkHiddenKey(lab, hiddenKey);
  } catch (e) {
    stderr.write(`grade: --hidden-key: ${e.message}\n`);
    return 2;
  }

  let lms;
  try {
    lms = await readLmsFiles(options, { lab, course });
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    stderr.write(`grade: ${e.message}\n`);
    return 2;
  }

  const runner = createCodeRunner(options.workers ? { workers: options.workers } : {});
  // core's grading of a file takes about 110 ms of a thread: with more than one core, files are
  // re-graded on as many threads (each its own grading module), the code runs stay the runner's.
  const gradingThreads = options.gradingThreads ?? Math.min(4, os.availableParallelism?.() ?? os.cpus().length);
  const pool = gradingThreads > 1 ? createGradingPool({ threads: gradingThreads, runCode: runner.runCode }) : null;
  const started = performance.now();
  const cpuStart = process.cpuUsage(); // this process, worker threads included
  let graded;
  try {
    const progress = options.quiet || !stderr.isTTY ? () => {} : ({ done, total }) => stderr.write(`\rgraded ${done} of ${total} files`);
    // choiceTexts: reading each chosen choice's text costs a variant per choice exercise and
    // student; analytics.csv names a wrong choice by its place in that student's order.
    graded = await gradeClass(collected.files, { lab, runCode: runner.runCode, course, hiddenKey, choiceTexts: false, ...(pool ? { regrade: pool.regrade } : {}) }, {
      concurrency: Math.max(2, gradingThreads * 2, (options.workers ?? 2) * 2),
      onProgress: progress,
    });
    if (!options.quiet && stderr.isTTY) stderr.write('\n');
  } finally {
    await pool?.close();
    await runner.close();
  }
  graded.problems.unshift(...collected.problems);
  await scoreAssignments(graded, { lab, course, lateness: (entry) => latenessOf(entry, { times: lms.times, assignments: lms.assignmentIds }) });
  if (lms.roster) graded.roster = { roster: lms.roster, match: matchRoster(lms.roster, graded.students.filter((s) => s.in_gradebook)) };
  let olympics = null;
  if (options.leaderboard) {
    try {
      olympics = await olympicsLeaderboard(graded, options, { threads: gradingThreads, stderr });
    } catch (e) {
      stderr.write(`grade: the Olympics leaderboard could not be made: ${e.message}\n`);
      return 1;
    }
  }

  const outputs = { ...classOutputs(graded, { idColumn: options.canvasId, perExercise: options.perExercise, missing: options.missing, moodleId: options.moodleId }), 'grading-run.json': gradingRunJson(graded, { course }), ...olympics?.files };
  // The class analytics, as the instructor view shows them (core's mean orders the exercises).
  const analytics = await classAnalytics(graded, { meanOf: await loadNodeMean(), bank: await lab.exerciseBank(), variantOf: lab.exerciseVariant });
  Object.assign(outputs, analyticsFiles(analytics));
  mkdirSync(path.join(options.out, 'feedback'), { recursive: true });
  for (const [name, text] of Object.entries(outputs)) writeFileSync(path.join(options.out, name), text);

  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const notGraded = graded.problems.filter((p) => !p.graded).length;
  const flagged = graded.students.filter((s) => s.result.flags.length).length;
  stdout.write(`${graded.students.length} files graded (${graded.students.filter((s) => s.in_gradebook).length} students in the gradebook), ${notGraded} not graded, ${flagged} flagged, in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU)\n`);
  stdout.write(`wrote ${Object.keys(outputs).length} files to ${options.out}: gradebook-canvas.csv, gradebook-moodle.csv, assignments.csv, ${graded.roster ? 'roster.csv, ' : ''}exercises.csv, problems.csv, flags.csv, grading-run.json, analytics.md, analytics.csv, roofline.csv, ${olympics ? 'leaderboard.csv, leaderboard.md, leaderboard.json, ' : ''}feedback/\n`);
  stdout.write(`hidden tests drawn with the grading key ${hiddenKey}; --hidden-key ${hiddenKey} reproduces this gradebook\n`);
  if (graded.roster) {
    const { entries, unmatched } = graded.roster.match;
    const count = (status) => entries.filter((m) => m.status === status).length;
    stdout.write(`roster: ${entries.length} students, ${count('submitted') + count('id-differs')} submitted (${count('id-differs')} with the id typed in another case or with spaces), ${count('missing')} did not submit, ${unmatched.length} files match no one: see roster.csv\n`);
  }
  if (olympics) {
    const threadSeconds = (key) => olympics.stats.reduce((sum, t) => sum + t[key], 0).toFixed(1);
    stdout.write(`leaderboard: ${olympics.summary}, in ${olympics.seconds.toFixed(1)} s (${olympics.stats.length} thread${olympics.stats.length === 1 ? '' : 's'}: ${threadSeconds('open_s')} s loading the baseline and data, ${threadSeconds('check_s')} s checking)\n`);
  }
  if (notGraded) stdout.write(`see ${path.join(options.out, 'problems.csv')} for the ${notGraded} files not graded\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then((status) => {
    process.exitCode = status;
  }, (e) => {
    process.stderr.write(`grade: ${e?.stack ?? e}\n`);
    process.exitCode = 1;
  });
}
