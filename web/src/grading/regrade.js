// Re-grades one submission file from what it carries, never from what it claims: numeric and
// choice answers are graded by core for the seed the student id gives (courseSeed), code is
// re-run (deps.runCode: the page's sandbox worker, or a worker thread on the command line)
// on the variant's tests with the exercise's time limit and its results graded by core,
// and an experiment-backed answer is graded by core against the rows it came with. The
// page's own score (best_score) is only compared: a difference is a flag with its reason.
// Runs in the page and in Node (no DOM). Not for: reading files (read.js), class-level
// checks such as duplicates (class.js) or writing CSV (csv.js).

import { formatPoints } from '../ui/format.js';

/** Flag codes, each reported with a sentence saying why. */
export const FLAGS = Object.freeze({
  SCORE_DIFFERS: 'score-differs', // the file's claimed score differs from the re-grade
  SEED_MISMATCH: 'seed-mismatch', // the file's seed is not the one the student id gives
  BANK_VERSION: 'bank-version', // exported with another exercise bank; re-graded with this one
  COURSE_MISMATCH: 'course-mismatch', // the file names another course than the one graded
  NO_COURSE: 'no-course', // no course.json given: the file's own seed was used, unchecked
  DUPLICATE_STUDENT: 'duplicate-student', // several files for one student id (class.js)
  IDENTICAL_CODE: 'identical-code', // same normalized code as another student (class.js)
  UNGRADED_ANSWERS: 'ungraded-answers', // answers for exercises this bank or course does not grade
  MODE_MISMATCH: 'mode-mismatch', // answered under another answer mode than the course sets
  TRIES_OVER_CAP: 'tries-over-cap', // an assessed exercise claims more graded tries than the course allows
  // Forensic checks on measured evidence (core's evidenceForensics; they flag, never change a score):
  EVIDENCE_OFF_GRID: 'evidence-off-grid', // raw samples that are not whole ticks of the recorded clock
  EVIDENCE_UNTIMED: 'evidence-untimed', // samples or rates without the timer facts a run records
  EVIDENCE_ABOVE_ROOF: 'evidence-above-roof', // a rate over 2× the student's own probed roof
  EVIDENCE_INCONSISTENT: 'evidence-inconsistent', // stored figures that do not follow from the row's samples
  EVIDENCE_CHRONOLOGY: 'evidence-chronology', // probe, runs and export dated out of order
  COPIED_SAMPLES: 'copied-samples', // the same raw samples (or the same after a scale) as another student (class.js)
  COPIED_PROBE: 'copied-probe', // the same machine probe as another student (class.js)
});

const SCORE_EPSILON = 1e-6;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The bank and its version, read once per lab (the page's lab goes through a worker).
const bankCache = new WeakMap();
async function bankOf(lab) {
  if (!bankCache.has(lab)) {
    bankCache.set(lab, Promise.all([lab.exerciseBank(), lab.exerciseBankVersion()])
      .then(([bank, version]) => ({ bank, version })));
  }
  return bankCache.get(lab);
}

/** The chapters a course grades, in the bank's order: course.chapters, else every chapter. */
export function gradedChapters(bank, course) {
  const all = [...new Set(bank.map((e) => e.chapter))];
  const wanted = Array.isArray(course?.chapters) && course.chapters.length ? course.chapters : all;
  return all.filter((c) => wanted.includes(c));
}

/**
 * The seed to grade with and the flags about it: the id's seed from the course when one is
 * given (a different seed in the file is flagged and not used), else the file's own seed.
 */
async function seedFor(submission, { lab, course }, flags) {
  const fileSeed = submission.seed;
  if (!course) {
    flags.push({ code: FLAGS.NO_COURSE, reason: `no course.json was given, so the file's own seed ${fileSeed} was used and could not be checked against the student id` });
    return fileSeed;
  }
  const fileCourse = isObject(submission.course) ? submission.course.id : null;
  if (fileCourse !== course.id) {
    flags.push({ code: FLAGS.COURSE_MISMATCH, reason: `the file names the course ${JSON.stringify(fileCourse)}, graded as ${JSON.stringify(course.id)}` });
  }
  const { seed, student_id: normalized } = await lab.courseSeed(course, submission.student.id);
  if (seed !== fileSeed) {
    flags.push({ code: FLAGS.SEED_MISMATCH, reason: `the file's seed ${fileSeed} is not the seed ${seed} that student id ${JSON.stringify(normalized)} gives in ${course.id}; graded with ${seed}` });
  }
  return seed;
}

// The mode core grades with in a re-grade: the course's (course.json "modes", as core read
// it); a sealed answer is graded now, right or wrong as in assessed mode. No course: practice.
const regradeMode = (mode) => (mode === 'sealed' ? 'assessed' : (mode ?? undefined));

async function gradeOne(exercise, entry, seed, deps, mode = null) {
  const { lab, runCode } = deps;
  if (exercise.kind === 'code') {
    const code = typeof entry?.best_code === 'string' ? entry.best_code : null;
    if (code === null || code.trim() === '') return { score: 0, correct: false, feedback: 'No code was submitted.', tests: [] };
    // A class re-grade's key draws fresh hidden tests (core); without one, the student's own.
    const key = deps.hiddenKey ?? undefined;
    const variant = await lab.exerciseVariant(exercise.id, seed, key);
    const results = await runCode({
      code,
      functionName: exercise.function_name,
      tests: variant.tests,
      timeLimitMs: exercise.time_limit_ms,
      exerciseId: exercise.id,
      seed,
    });
    return lab.gradeExercise(exercise.id, seed, { results }, key, regradeMode(mode));
  }
  const answer = entry?.best_answer;
  if (!isObject(answer)) return { score: 0, correct: false, feedback: 'No graded answer was submitted.', tests: [] };
  if (exercise.kind !== 'choice') return lab.gradeExercise(exercise.id, seed, answer, undefined, regradeMode(mode));
  const { sent, tryNumber, note } = choiceTryOf(answer);
  const graded = await lab.gradeExercise(exercise.id, seed, sent, undefined, regradeMode(mode));
  const row = { ...graded, try: tryNumber, feedback: note ? `${graded.feedback} (${note})` : graded.feedback };
  if (Number.isInteger(answer.choice) && deps.choiceTexts !== false) {
    // The choice as this student saw it: the variant of that try, in its order.
    const { choices } = await lab.choiceVariant(exercise.id, seed, tryNumber);
    return { ...row, answer_text: choices?.[answer.choice] ?? null };
  }
  return row;
}

// core's largest try number (grader.hpp kMaxChoiceAttempt).
const MAX_CHOICE_TRY = 1000;

/**
 * A choice answer's try, which only the student's page counted: core grades the answer
 * against that try's variant and scores it by the try. A missing try is try 1; one that is not
 * a try number (1 to 1000) is graded as try 1, the original variant, and said so.
 */
function choiceTryOf(answer) {
  const t = answer.attempt;
  if (Number.isInteger(t) && t >= 1 && t <= MAX_CHOICE_TRY) return { sent: answer, tryNumber: t, note: null };
  const { attempt, ...rest } = answer;
  const note = 'attempt' in answer ? `its try ${JSON.stringify(attempt) ?? String(attempt)} is not a try number, so it was graded as try 1` : null;
  return { sent: rest, tryNumber: 1, note };
}

// What the forensic checks read (the probe, the times, each answer's evidence): only that
// crosses into core, not the code and answers (a quarter of the time per file).
function measuredPart(submission) {
  const exercises = {};
  for (const [id, e] of Object.entries(isObject(submission.exercises) ? submission.exercises : {})) {
    if (isObject(e?.best_answer) && 'evidence' in e.best_answer) exercises[id] = { best_answer: { evidence: e.best_answer.evidence } };
  }
  return { exported_at: submission.exported_at ?? null, machine: submission.machine ?? null, exercises };
}

/**
 * Re-grades `submission` (a read submission file, see read.js).
 * @param {object} submission
 * @param {{lab: object, runCode: Function, course?: object|null, hiddenKey?: string, signal?: AbortSignal, choiceTexts?: boolean}} deps
 *        hiddenKey: the grading key core draws code exercises' hidden tests with (fresh
 *        inputs the student's page never showed; hidden-key.js); omitted, the student's own;
 *        signal: when it fires, a run that fails is not scored 0 but ends the re-grade;
 *        choiceTexts: false skips reading the text of each chosen choice (answer_text, for
 *        the instructor view's common wrong answers), one variant per choice exercise
 * @returns {Promise<{student, course_id, seed, bank_version, hidden_key, exercises, chapters, total, flags}>}
 */
export async function regradeSubmission(submission, deps) {
  const { lab, course = null } = deps;
  const { bank, version } = await bankOf(lab);
  const flags = [];
  const seed = await seedFor(submission, { lab, course }, flags);
  if (submission.bank_version !== version) {
    flags.push({ code: FLAGS.BANK_VERSION, reason: `exported with the exercise bank ${JSON.stringify(submission.bank_version ?? null)}; re-graded with the current bank ${version}, whose variants or grading may differ` });
  }

  const chapters = gradedChapters(bank, course ?? submission.course);
  const given = isObject(submission.exercises) ? submission.exercises : {};
  const exercises = [];
  for (const exercise of bank) {
    if (!chapters.includes(exercise.chapter)) continue;
    const entry = isObject(given[exercise.id]) ? given[exercise.id] : null;
    const mode = course?.modes?.exercises?.[exercise.id] ?? null;
    let graded;
    let error = null;
    try {
      graded = await gradeOne(exercise, entry, seed, deps, mode);
    } catch (e) {
      if (deps.signal?.aborted) throw e; // cancelled: this submission is not graded at all
      // core refused the answer as malformed (or the code could not be run): no points.
      error = e?.message ?? String(e);
      graded = { score: 0, correct: false, feedback: `The answer could not be graded: ${error}`, tests: [] };
    }
    const claimed = typeof entry?.best_score === 'number' ? entry.best_score : null;
    const row = {
      id: exercise.id,
      chapter: exercise.chapter,
      title: exercise.title,
      kind: exercise.kind,
      max_score: exercise.points,
      score: graded.score,
      correct: graded.correct,
      feedback: graded.feedback,
      claimed_score: claimed,
      attempts: Number.isInteger(entry?.attempts) ? entry.attempts : 0,
      hints_used: Number.isInteger(entry?.hints_used) ? entry.hints_used : 0,
      // A choice's points rest on the try the file names (the re-grade checks only that the
      // answer is right for that try's variant): the gradebook marks them.
      try: graded.try ?? null,
      self_reported_points: exercise.kind === 'choice' ? graded.score : 0,
      tests: graded.tests ?? [],
      parts: graded.parts ?? null,
      answer: exercise.kind === 'code' ? null : (entry?.best_answer ?? null),
      answer_text: graded.answer_text ?? null,
      code: exercise.kind === 'code' ? (entry?.best_code ?? null) : null,
      error,
    };
    exercises.push(row);
    const fileMode = entry?.mode ?? 'practice';
    if (mode !== null && row.attempts > 0 && fileMode !== mode) {
      flags.push({
        code: FLAGS.MODE_MISMATCH,
        exercise: exercise.id,
        reason: `${exercise.id}: answered in ${fileMode} mode, but the course sets ${mode} (course.json "modes"); graded as ${mode}${fileMode === 'practice' ? ', though practice feedback could have steered the answer' : ''}`,
      });
    }
    const tries = course?.modes?.assessed_tries;
    if (mode === 'assessed' && row.attempts > tries) {
      flags.push({
        code: FLAGS.TRIES_OVER_CAP,
        exercise: exercise.id,
        reason: `${exercise.id}: the file counts ${row.attempts} graded tries, over the course's ${tries}; graded all the same (the count is the student's page's own and cannot be checked)`,
      });
    }
    // A sealed answer's page never knew its score (0 claimed by design): nothing to compare.
    const sealed = mode === 'sealed' && fileMode === 'sealed';
    if (!sealed && claimed !== null && Math.abs(claimed - graded.score) > SCORE_EPSILON) {
      flags.push({
        code: FLAGS.SCORE_DIFFERS,
        exercise: exercise.id,
        reason: `${exercise.id}: the file claims ${formatPoints(claimed)} of ${exercise.points}, the re-grade gives ${formatPoints(graded.score)} (${graded.feedback})`,
      });
    }
  }

  // Measured evidence, checked by core over its numbers; each finding is a flag for the teacher.
  const gradedIds = new Set(exercises.map((e) => e.id));
  for (const f of await lab.evidenceForensics(measuredPart(submission))) {
    if (!f.exercise) flags.push({ code: f.code, reason: f.reason });
    else if (gradedIds.has(f.exercise)) flags.push(f);
  }

  const graded = new Set(exercises.map((e) => e.id));
  const known = new Set(bank.map((e) => e.id));
  const extra = Object.keys(given).filter((id) => !graded.has(id));
  if (extra.length) {
    const unknown = extra.filter((id) => !known.has(id));
    const outside = extra.filter((id) => known.has(id));
    const parts = [];
    if (unknown.length) parts.push(`not in the current exercise bank: ${unknown.join(', ')}`);
    if (outside.length) parts.push(`in chapters the course does not grade: ${outside.join(', ')}`);
    flags.push({ code: FLAGS.UNGRADED_ANSWERS, reason: `the file has answers that count for nothing here, ${parts.join('; ')}` });
  }

  const chapterTotals = {};
  for (const c of chapters) chapterTotals[c] = { score: 0, max_score: 0 };
  for (const e of exercises) {
    chapterTotals[e.chapter].score += e.score;
    chapterTotals[e.chapter].max_score += e.max_score;
  }
  const total = { score: 0, max_score: 0 };
  for (const t of Object.values(chapterTotals)) {
    total.score += t.score;
    total.max_score += t.max_score;
  }
  return {
    student: isObject(submission.student) ? { id: submission.student.id, name: submission.student.name ?? '' } : null,
    course_id: course?.id ?? (isObject(submission.course) ? submission.course.id : null),
    seed,
    bank_version: version,
    hidden_key: deps.hiddenKey ?? null,
    exercises,
    chapters: chapterTotals,
    total,
    flags,
  };
}
