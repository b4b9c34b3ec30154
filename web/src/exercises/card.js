// One exercise card: the student's seeded variant (from the lab worker), the control for its
// kind (numeric.js, choice.js, code.js), the evidence note and gate for experiment-backed
// ones (evidence.js), the grade of the last attempt, the hints unlocked so far and, once
// solved, the grader's reference. Each attempt is graded by core and counted in the progress
// store. Not for: deciding correctness (core's grader) or the chapter's list (engine.js).

import { latestResult } from '../experiments/results.js';
import { currentCourse } from '../identity/course.js';
import { labOf } from '../lab/client.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { choiceControls } from './choice.js';
import { codeControls } from './code.js';
import { verdictMark } from './controls.js';
import { evidenceNote, gateOnEvidence } from './evidence.js';
import {
  answerWithEvidence,
  choiceAnswer,
  choiceTry,
  formatPoints,
  modeState,
  nextHintText,
  promptRuns,
  recordAttempt,
  unlockedHintCount,
} from './logic.js';
import { numericControls } from './numeric.js';
import { formatCount } from '../ui/format.js';

const KIND_LABELS = { numeric: 'Numeric answer', choice: 'Multiple choice', code: 'JavaScript' };
const kindLabel = (ex) =>
  ex.parts?.length ? `Numeric answer in ${ex.parts.length} parts` : (KIND_LABELS[ex.kind] ?? ex.kind);

/** The control builder of each exercise kind: ({ex, variant, entry, ids, grade, ...}) -> element. */
const CONTROLS = { numeric: numericControls, choice: choiceControls, code: codeControls };

function promptNode(text) {
  return h(
    'p',
    { class: 'pl-ex-prompt' },
    promptRuns(text).map((run) => (run.code ? h('code', { text: run.text }) : run.text)),
  );
}

/**
 * One exercise: its variant, the control for its kind, the result of the last attempt, the
 * hints unlocked so far and, once solved, the grader's reference. Returns {element, ready, destroy}.
 */
export function createCard(ex, { bridge, store, course = currentCourse() }) {
  const where = `exercise:${ex.id}`;
  // The course's answer mode for this exercise, as core read course.json (null: no course).
  const mode = course?.modes?.exercises?.[ex.id] ?? null;
  const tries = course?.modes?.assessed_tries;
  const lab = labOf(bridge);
  const seed = store.seed;
  let alive = true;
  const ids = { title: nextId('pl-ex-title'), error: nextId('pl-ex-error'), note: nextId('pl-ex-note') };
  const cleanups = [];

  const statusLine = h('p', { class: 'pl-ex-status', dataset: { role: 'status' } });
  const modeLine = h('p', { class: 'pl-ex-mode hint', dataset: { role: 'mode' }, hidden: true });
  const body = h('div', { class: 'pl-ex-body' }, h('p', { class: 'status', text: 'Loading your variant…' }));
  const error = h('p', { class: 'error', id: ids.error, role: 'alert', dataset: { role: 'error' }, hidden: true });
  const result = h('div', { class: 'pl-ex-result', dataset: { role: 'result' }, 'aria-live': 'polite' });
  const hints = h('div', { class: 'pl-ex-hints', dataset: { role: 'hints' } });
  const reference = h(
    'div',
    { class: 'pl-ex-reference', dataset: { role: 'reference' }, hidden: true },
    h('h4', { text: 'How it is graded' }),
    h('p', { text: ex.grader_reference }),
  );
  const element = h(
    'article',
    {
      class: 'pl-ex',
      id: `exercise-${ex.id}`,
      'aria-labelledby': ids.title,
      dataset: { exerciseId: ex.id, kind: ex.kind, seed: String(seed), ...(mode ? { mode } : {}) },
    },
    h(
      'header',
      { class: 'pl-ex-header' },
      h('h3', { id: ids.title, text: ex.title }),
      h('span', { class: 'pl-ex-kind', text: `${kindLabel(ex)} · ${ex.points} points` }),
    ),
    // core's sentence on how tries count (a choice's points fall with each wrong try).
    ex.scoring ? h('p', { class: 'pl-ex-scoring hint', dataset: { role: 'scoring' }, text: ex.scoring }) : null,
    statusLine,
    modeLine,
    ex.evidence ? evidenceNote(ex, cleanups) : null,
    body,
    error,
    result,
    hints,
    reference,
  );

  const showError = (message) => {
    error.textContent = message;
    error.hidden = false;
  };
  const clearError = () => {
    error.hidden = true;
    error.textContent = '';
  };

  // Everything that follows from the saved entry: status line, hints, reference, data-*.
  const refresh = () => {
    const entry = store.entry(ex.id);
    element.dataset.solved = String(entry.solved);
    element.dataset.attempts = String(entry.attempts);
    element.dataset.bestScore = String(entry.best_score);
    element.classList.toggle('solved', entry.solved);
    const attempts = formatCount(entry.attempts, 'attempt');
    const score = `${formatPoints(Math.min(entry.best_score, ex.points))} / ${ex.points} points`;
    setChildren(statusLine,
      mode === 'sealed'
        ? h('span', { class: 'pl-ex-badge', text: entry.attempts ? 'Answer recorded' : 'Not attempted' })
        : entry.solved
          ? h('span', { class: 'pl-ex-badge solved', text: 'Solved' })
          : h('span', { class: 'pl-ex-badge', text: entry.attempts ? 'Not solved yet' : 'Not attempted' }),
      entry.attempts && mode !== 'sealed' ? ` Best ${score} · ${attempts}` : ` ${ex.points} points available`,
    );
    const state = modeState({ mode, attempts: entry.attempts, tries });
    modeLine.hidden = state.line === null;
    modeLine.textContent = state.line ?? '';
    // A closed card cannot be used at all (its Submit and inputs are inert).
    body.inert = state.locked;
    element.dataset.locked = String(state.locked);

    const hintCount = ex.hints.length;
    const hintState = { hintCount, attempts: entry.attempts, solved: entry.solved };
    const unlocked = unlockedHintCount(hintState);
    const next = nextHintText(hintState);
    hints.hidden = hintCount === 0;
    setChildren(hints,
      h('h4', { text: `Hints (${unlocked} of ${hintCount})` }),
      unlocked ? h('ol', {}, ex.hints.slice(0, unlocked).map((hint) => h('li', { text: hint }))) : null,
      next ? h('p', { class: 'hint', text: next }) : null,
    );
    reference.hidden = !entry.solved;
  };

  // One graded attempt: ask core, then count it. A failure to grade is shown beside the
  // control and counts nothing (the student did nothing wrong). What core graded is what is
  // saved: a choice with the number of this try, an evidence-backed answer with its rows.
  const grade = async (answer, code = null) => {
    const entry = store.entry(ex.id);
    if (modeState({ mode, attempts: entry.attempts, tries }).locked) {
      throw new Error(`all ${tries} graded tries of this assessed exercise are used`);
    }
    // A sealed choice is never judged here, so every answer is a first try (the latest counts).
    const triedSoFar = mode === 'sealed' ? { ...entry, attempts: 0 } : entry;
    const tried = ex.kind === 'choice' && 'choice' in answer ? choiceAnswer(answer.choice, triedSoFar) : answer;
    const sent = answerWithEvidence(tried, ex.evidence, ex.evidence ? latestResult(ex.evidence.experiment) : null);
    // No grading key (the student's own tests); the course's mode words core's feedback.
    const graded = await lab.gradeExercise(ex.id, seed, sent, undefined, mode ?? undefined, { where });
    // An import rebuilt the cards meanwhile: this grade belongs to the replaced progress.
    if (!alive) throw new Error('your progress was replaced by an import while this answer was graded; submit it again');
    store.update(ex.id, recordAttempt(store.entry(ex.id), graded, sent, code, { hintCount: ex.hints.length, mode }));
    refresh();
    // After a wrong try a choice card shows the next try's variant (new figures or question).
    if (ex.kind === 'choice' && variantTry() !== shownTry) loadVariant();
    return graded;
  };

  const showGrade = (graded, extra = []) => {
    if (graded.mode === 'sealed') {
      // No verdict, no points: only that the answer is kept (core's sentence).
      delete result.dataset.correct;
      setChildren(result, h('p', { class: 'pl-ex-feedback recorded', dataset: { role: 'feedback' } }, graded.feedback));
      return;
    }
    const tryNumber = Number.isInteger(graded.attempt) ? `, try ${graded.attempt}` : '';
    const attemptPoints = `${formatPoints(graded.score)} / ${formatPoints(graded.max_score)} points for this attempt${tryNumber}`;
    result.dataset.correct = String(graded.correct);
    setChildren(result,
      h(
        'p',
        { class: `pl-ex-feedback ${graded.correct ? 'correct' : 'incorrect'}`, dataset: { role: 'feedback' } },
        // core's feedback may already open with the verdict ("Correct: compute-bound.").
        /^(correct|not correct)\b/i.test(graded.feedback)
          ? null
          : h('strong', { text: graded.correct ? 'Correct. ' : 'Not yet. ' }),
        graded.feedback,
        h('span', { class: 'pl-ex-attempt-points', dataset: { role: 'attempt-points', score: String(graded.score) }, text: ` (${attemptPoints})` }),
      ),
      graded.tests?.length
        ? h(
            'ul',
            { class: 'pl-ex-tests', 'aria-label': 'Test results' },
            graded.tests.map((t) =>
              h(
                'li',
                { class: t.passed ? 'pass' : 'fail', dataset: { passed: String(t.passed) } },
                verdictMark(t.passed, t.passed ? 'Passed: ' : 'Failed: '),
                t.message,
              ),
            ),
          )
        : null,
      ...extra,
    );
  };

  const buildControls = (variant) => {
    element.dataset.params = JSON.stringify(variant.params ?? {});
    const entry = store.entry(ex.id);
    const build = Object.hasOwn(CONTROLS, ex.kind) ? CONTROLS[ex.kind] : null;
    if (!build) {
      setChildren(body, h('p', { class: 'error', text: `This page cannot show exercises of kind "${ex.kind}".` }));
      return;
    }
    const ctx = { ex, variant, entry, ids, grade, showGrade, showError, clearError, store, cleanups };
    const controls = build(ctx);
    if (ex.evidence) gateOnEvidence(ex, controls, cleanups);
    setChildren(body, promptNode(variant.prompt), controls);
  };

  // The try whose variant a choice card shows (core draws one per try); a sealed card is never
  // judged here, so it stays on try 1.
  const variantTry = () => (mode === 'sealed' ? 1 : choiceTry(store.entry(ex.id)));
  let shownTry = null;
  const loadVariant = async () => {
    clearError();
    try {
      const tryNumber = ex.kind === 'choice' ? variantTry() : null;
      shownTry = tryNumber;
      const variant = tryNumber === null
        ? await lab.exerciseVariant(ex.id, seed, undefined, { where })
        : await lab.choiceVariant(ex.id, seed, tryNumber, { where });
      buildControls(variant);
    } catch (err) {
      setChildren(body,
        h(
          'p',
          { class: 'error', role: 'alert' },
          `Your variant of this exercise could not be loaded: ${err.message} `,
          h('button', { type: 'button', text: 'Try again', onclick: () => loadVariant() }),
        ),
      );
    }
  };

  refresh();
  const ready = loadVariant();
  return {
    element,
    ready,
    destroy({ saveDraft = true } = {}) {
      alive = false;
      for (const fn of cleanups) fn({ saveDraft });
    },
  };
}
