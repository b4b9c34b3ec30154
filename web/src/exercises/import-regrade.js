// An imported file is re-graded before it is kept: core grades every entry's best answer for
// the file's seed (the seed its student id gives in a course), code is re-run in the page's
// sandbox, and only what grades is kept: best scores and solved flags come from the re-grade,
// never from the file. The grading itself is web/src/grading's regradeSubmission, the same
// one the instructor's tools use. Not for: reading the file (state/submission.js) or the
// panel's DOM (progress-panel.js).

import { regradeSubmission } from '../grading/regrade.js';
import { workerGradingLab } from '../grading/lab.js';
import { runInSandbox } from '../lab/sandbox.js';
import { formatPoints } from './logic.js';
import { formatCount } from '../ui/format.js';

const SCORE_EPSILON = 1e-6;

/**
 * Whether a file may be imported on this page at all: in course mode only a submission of
 * the same course (with its student); in practice mode any. Returns a sentence or null.
 */
export function identityProblem(submission, course) {
  if (!course) return null;
  if (!submission.course) {
    return `this file is from practice mode (no course), and this page is the course "${course.title}" (${course.id}): its variants are not yours here`;
  }
  if (submission.course.id !== course.id) {
    return `this file is for the course ${JSON.stringify(submission.course.id)}, and this page is the course "${course.title}" (${course.id})`;
  }
  return null;
}

/**
 * The page's lab and code runner for regradeSubmission: core through the lab worker, code
 * through a fresh sandbox worker per run, as the code card runs it.
 */
export function pageGradingDeps(bridge) {
  return {
    lab: workerGradingLab(bridge, { where: 'progress-import' }),
    runCode: async ({ code, functionName, tests, timeLimitMs }) =>
      (await runInSandbox({ code, functionName, tests, timeLimitMs })).results,
  };
}

/**
 * Re-grades `submission` and returns `{progress, changes, report}`: the progress to keep
 * (every entry's best_score and solved from core's re-grade, the seed the re-grade used) and
 * the sentences saying what changed. `course` is this page's course (null in practice mode);
 * an exercise it seals keeps no verdict (best_score 0, not solved) and no sentence, as on its card.
 */
export async function regradeImport(submission, { deps, course = null }) {
  // Every chapter is on the page, so every entry is re-graded (the course's chapter list
  // decides what a teacher grades, not what a student may keep).
  // chapters left out means all of them, to core and to regradeSubmission alike.
  const allChapters = (c) => (c ? { id: c.id, title: c.title, ...('salt' in c ? { salt: c.salt } : {}) } : null);
  const report = await regradeSubmission(
    { ...submission, course: allChapters(submission.course) },
    { ...deps, course: allChapters(course) },
  );
  const graded = new Map(report.exercises.map((row) => [row.id, row]));
  const lower = [];
  const higher = [];
  const droppedSolved = [];
  const unknown = [];
  const exercises = {};
  for (const [id, entry] of Object.entries(submission.exercises)) {
    const row = graded.get(id);
    const title = row?.title ?? id;
    const score = row ? row.score : 0;
    const solved = row ? row.correct === true : false;
    if (!row) unknown.push(id);
    if (row && course?.modes?.exercises?.[id] === 'sealed') {
      // A sealed answer's verdict waits for the teacher: importing an export must not show it.
      exercises[id] = { ...entry, best_score: 0, solved: false };
      continue;
    }
    if (entry.best_score > score + SCORE_EPSILON) lower.push(`${title} (${formatPoints(entry.best_score)} → ${formatPoints(score)})`);
    else if (score > entry.best_score + SCORE_EPSILON) higher.push(`${title} (${formatPoints(entry.best_score)} → ${formatPoints(score)})`);
    if (entry.solved && !solved) droppedSolved.push(title);
    exercises[id] = { ...entry, best_score: score, solved };
  }
  const changes = [];
  const list = (items) => items.join(', ');
  if (lower.length) changes.push(`${formatCount(lower.length, 'entry', 'entries')} re-graded lower: ${list(lower)}`);
  if (higher.length) changes.push(`${formatCount(higher.length, 'entry', 'entries')} re-graded higher: ${list(higher)}`);
  if (droppedSolved.length) {
    changes.push(`solved flag dropped on ${list(droppedSolved)} (the saved answer does not grade as correct)`);
  }
  if (unknown.length) changes.push(`${list(unknown)}: not in this page's exercise bank, kept with 0 points`);
  for (const flag of report.flags) {
    if (flag.code === 'seed-mismatch') changes.push(`the file's seed was not its student id's: ${flag.reason}`);
    if (flag.code === 'bank-version' && submission.bank_version) changes.push(flag.reason);
  }
  const progress = { ...submission, seed: report.seed, exercises };
  return { progress, changes, report };
}
