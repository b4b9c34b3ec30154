// The exercise engine's decisions that need no DOM: reading a typed number (or one per part of
// a multi-part answer), which hints are unlocked, how a grade changes an exercise's saved
// state, a chapter's score summary, and the tolerance sentence. Pure functions, covered by
// node:test (tests/js/exercise-logic.test.mjs).
// Not for: deciding whether an answer is right (core's grader does that, identically to the CLI).

import { formatCount, formatPoints } from '../ui/format.js';

/**
 * Reads what a student typed into a numeric answer: "12544", "12,544", "12 544", "1.25e4",
 * "-0.5". Returns `{value}` or `{problem}` (a sentence for beside the input).
 */
export function parseNumberInput(text) {
  const trimmed = String(text ?? '').trim();
  if (trimmed === '') return { problem: 'Type a number first.' };
  // Thousands separators (comma, space, thin space, underscore) are common when copying
  // large counts; a comma followed by other than three digits is more likely a decimal comma.
  const grouped = /^[+-]?\d{1,3}([,\s\u202f_]\d{3})+(\.\d+)?([eE][+-]?\d+)?$/;
  const plain = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
  let normalized = trimmed;
  if (grouped.test(trimmed)) normalized = trimmed.replace(/[,\s\u202f_]/g, '');
  else if (!plain.test(trimmed)) {
    return { problem: `"${trimmed}" is not a number. Type digits, e.g. 12544, 12,544 or 1.25e4.` };
  }
  const value = Number(normalized);
  if (!Number.isFinite(value)) return { problem: `"${trimmed}" is too large to be a number here.` };
  return { value };
}

/**
 * Reads the answer boxes of a multi-part numeric exercise, one text per part. Returns
 * `{values}` when every box holds a number, else `{problems: [{index, problem}]}` with one
 * sentence per box that does not, each naming the part ("FLOPs per batch: Type a number first.").
 */
export function parsePartInputs(texts, labels) {
  const values = [];
  const problems = [];
  texts.forEach((text, index) => {
    const parsed = parseNumberInput(text);
    if (parsed.problem) problems.push({ index, problem: `${labels[index] ?? `Part ${index + 1}`}: ${parsed.problem}` });
    else values.push(parsed.value);
  });
  return problems.length ? { problems } : { values };
}

/**
 * How many of an exercise's hints the student sees: hint k (1-based) unlocks after k failed
 * attempts, and all of them once the exercise is solved (the grader's reference is shown then
 * too, so hiding hints would hide nothing). Before solving every attempt was a failed one.
 */
export function unlockedHintCount({ hintCount, attempts, solved }) {
  if (solved) return hintCount;
  return Math.max(0, Math.min(hintCount, attempts));
}

/** A sentence on when the next hint appears, or null when there is none left to unlock. */
export function nextHintText({ hintCount, attempts, solved }) {
  const unlocked = unlockedHintCount({ hintCount, attempts, solved });
  if (solved || unlocked >= hintCount) return null;
  return `Hint ${unlocked + 1} of ${hintCount} unlocks after your next unsuccessful attempt.`;
}

/**
 * The saved state after one graded attempt: attempts + 1, solved once correct (and staying
 * solved), the best score kept with the answer (and, for code, the code) that earned it, the
 * answer remembered for the next visit, and the hints used: each failed try before the
 * exercise is solved unlocks one more, up to `hintCount`. A later, worse attempt replaces
 * only the last answer: an export carries what scored, not an endless loop typed afterwards.
 * `answer` is exactly what core graded (with a choice's attempt and any evidence rows), so a
 * teacher can grade it again.
 * @param {string|null} [code] the code that was run, for a code exercise
 * @param {{hintCount?: number}} [options] how many hints the exercise has (no cap when absent)
 */
export function recordAttempt(entry, grade, answer, code = null, { hintCount = Infinity, mode } = {}) {
  const score = Number.isFinite(grade.score) ? grade.score : 0;
  // A sealed answer has no verdict here: the latest one is what the re-grade grades.
  const better = mode === 'sealed' || score > entry.best_score || (grade.correct === true && !entry.solved);
  const failedBeforeSolving = !entry.solved && grade.correct !== true;
  const hintsUsed = entry.hints_used ?? 0;
  return {
    ...entry,
    attempts: entry.attempts + 1,
    solved: entry.solved || grade.correct === true,
    best_score: Math.max(entry.best_score, score),
    last_answer: answer,
    hints_used: failedBeforeSolving ? Math.min(hintCount, hintsUsed + 1) : hintsUsed,
    ...(better ? { best_answer: answer, best_code: code } : {}),
    // In a course, the mode the answer was given under (docs/SUBMISSION.md); practice mode
    // without a course writes none.
    ...(mode ? { mode } : {}),
  };
}

/**
 * What a card says and allows under the course's answer mode (core's course.json "modes";
 * null without a course): `{locked, line}`. assessed: "Try k of N" until N graded tries are
 * used, then locked (the count is this page's own, kept in the browser: the page enforces
 * the cap, a re-grade can only flag a count above it); sealed: the answer is recorded, never
 * judged here; practice: nothing to say.
 */
export function modeState({ mode, attempts, tries }) {
  if (mode === 'assessed') {
    if (attempts >= tries) {
      return { locked: true, line: `Assessed: all ${formatCount(tries, 'graded try', 'graded tries')} are used, so this exercise is closed.` };
    }
    return { locked: false, line: `Assessed: each answer is marked right or wrong, nothing more. Try ${attempts + 1} of ${tries}.` };
  }
  if (mode === 'sealed') {
    return { locked: false, line: 'Sealed: your answer is recorded and graded when your teacher re-grades your export; this page shows no verdict. Your latest answer counts.' };
  }
  return { locked: false, line: null };
}

/** core's largest try number (grader.hpp kMaxChoiceAttempt). */
const MAX_CHOICE_TRY = 1000;

/**
 * Which try's variant a choice card shows and answers (core draws a new variant per try):
 * once solved, the try that solved it (its variant and answer stay on the card); before,
 * the try after the graded ones, 1 for the first.
 */
export function choiceTry(entry) {
  const solvedOn = entry.best_answer?.attempt;
  if (entry.solved && Number.isInteger(solvedOn) && solvedOn >= 1 && solvedOn <= MAX_CHOICE_TRY) return solvedOn;
  return Math.min(MAX_CHOICE_TRY, (entry.attempts ?? 0) + 1);
}

/**
 * The answer core grades for a choice exercise: the pick, an index into the choices of the
 * variant shown, and which try's variant that was (choiceTry), so that core grades it
 * against that variant and scores by tries.
 */
export function choiceAnswer(choice, entry) {
  return { choice, attempt: choiceTry(entry) };
}

/**
 * `{earned, possible, solved, total}` for a chapter: best scores against each exercise's
 * points. A best score above the points (an old save, a changed bank) counts as full points.
 */
export function chapterSummary(exercises, entryOf) {
  let earned = 0;
  let possible = 0;
  let solved = 0;
  for (const ex of exercises) {
    const entry = entryOf(ex.id);
    possible += ex.points;
    earned += Math.min(ex.points, entry.best_score);
    if (entry.solved) solved += 1;
  }
  return { earned, possible, solved, total: exercises.length };
}

/** Points for display: ui/format.js's one rule (3.75 -> "3.75", not "3.8"). */
export { formatPoints };

/**
 * "The answer must be within 1% or 0.5." from the exercise's tolerance. core's
 * `tolerance.text` is the wording (the same words its feedback uses); rel/abs only stand in
 * when it is missing.
 */
export function toleranceSentence(tolerance) {
  let text = tolerance?.text;
  if (!text) {
    const rel = tolerance?.rel > 0 ? `${+(tolerance.rel * 100).toPrecision(3)}%` : null;
    const abs = tolerance?.abs > 0 ? String(tolerance.abs) : null;
    text = rel || abs ? `within ${[rel, abs].filter(Boolean).join(' or ')}` : 'exact';
  }
  return `The answer must be ${text}.`;
}

/** Seconds for display: "2 s", "0.5 s". */
export function formatSeconds(ms) {
  return `${+(ms / 1000).toPrecision(3)} s`;
}

/**
 * Splits a prompt into text and `code` runs (backticks), so the page can render inline code
 * without ever treating the prompt as HTML.
 */
export function promptRuns(prompt) {
  const runs = [];
  const parts = String(prompt).split('`');
  // An odd number of backticks leaves the last one unmatched: keep it as plain text.
  const unmatched = parts.length % 2 === 0;
  parts.forEach((text, i) => {
    const last = i === parts.length - 1;
    if (unmatched && last) runs.push({ code: false, text: `\`${text}` });
    else if (text !== '') runs.push({ code: i % 2 === 1, text });
  });
  return runs;
}

/**
 * What an experiment-backed exercise's note says and whether its Submit is enabled, from the
 * exercise's `evidence` ({experiment, title, what}) and the latest published run of that
 * experiment (results.js latestResult, or null). `heading` is the experiment's heading on the
 * page when there is one (core's wording otherwise). Returns {ready, title, anchor, status}.
 */
export function evidenceState(evidence, result, heading) {
  // Headings read "Experiment: batch-size effects"; the note already says it is one.
  const title = heading ? heading.trim().replace(/^experiment:\s*/i, '') : evidence.title;
  const rows = result?.rows?.length ?? 0;
  const ready = rows > 0;
  const status = ready
    ? `Graded against your run (${formatCount(rows, 'row')}). Running it again replaces it.`
    : 'Submit unlocks once it has finished a run on this page.';
  return { ready, title, anchor: `${evidence.experiment}-title`, status };
}

/**
 * The answer core grades for an experiment-backed exercise: the student's answer plus the
 * rows of their latest run ({..., evidence: {experiment, rows, finished_at}}, finished_at the
 * run's ISO time). It is saved as graded, rows included, so that a teacher re-grades the answer
 * from the rows it was graded with (and checks the run's time against the probe and the export).
 */
export function answerWithEvidence(answer, evidence, result) {
  if (!evidence) return answer;
  const finished = Number.isFinite(result?.finished_at_ms) ? { finished_at: new Date(result.finished_at_ms).toISOString() } : {};
  return { ...answer, evidence: { experiment: evidence.experiment, rows: result ? [...result.rows] : [], ...finished } };
}
