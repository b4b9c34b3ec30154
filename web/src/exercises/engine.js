// The exercise engine: renders a chapter's exercises from core's bank (numeric with one or
// several parts, multiple choice, JavaScript code, and experiment-backed ones answered from the
// student's own latest run, whose rows go to core with the answer), gets each student's seeded variant and
// every grade from the lab worker, runs student code in a fresh sandbox worker per run, and
// keeps attempts, best scores, answers and code drafts in the progress store. Also the
// chapter's score summary and the progress panel (export / import). Not for: deciding
// correctness (core's grader does, identically to the native CLI) or computing any expected
// answer here.

import { javascript } from '@codemirror/lang-javascript';
import { createCodeEditor } from '../code-editor.js';
import { exportFileName, getProgressStore } from '../state/progress-store.js';
import { SandboxStoppedError, runInSandbox } from '../lab/sandbox.js';
import { latestResult, subscribeResults } from '../experiments/results.js';
import {
  answerWithEvidence,
  chapterSummary,
  evidenceState,
  formatPoints,
  formatSeconds,
  nextHintText,
  parseNumberInput,
  parsePartInputs,
  promptRuns,
  recordAttempt,
  toleranceSentence,
  unlockedHintCount,
} from './logic.js';
import './exercises.css';

const DRAFT_SAVE_DELAY_MS = 400;
const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
const KIND_LABELS = { numeric: 'Numeric answer', choice: 'Multiple choice', code: 'JavaScript' };
const kindLabel = (ex) =>
  ex.parts?.length ? `Numeric answer in ${ex.parts.length} parts` : (KIND_LABELS[ex.kind] ?? ex.kind);

/** Builds an element: `el('p', {class: 'x', dataset: {role: 'y'}}, 'text', child)`. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  node.append(...present(children));
  return node;
}

const present = (children) => children.flat().filter((c) => c !== null && c !== undefined && c !== false);

/** replaceChildren that skips null/undefined/false, so conditional children can be inline. */
function setChildren(node, ...children) {
  node.replaceChildren(...present(children));
  return node;
}

let uid = 0;
const nextId = (prefix) => `${prefix}-${++uid}`;

// The bank is the same for every chapter: ask the worker once per bridge, but forget a
// failed request so that Retry asks again.
const banks = new WeakMap();
function loadBank(bridge) {
  if (!banks.has(bridge)) {
    const loading = bridge.call('exerciseBank', {}, { where: 'exercises' });
    loading.catch(() => banks.delete(bridge));
    banks.set(bridge, loading);
  }
  return banks.get(bridge);
}

function promptNode(text) {
  return el(
    'p',
    { class: 'pl-ex-prompt' },
    promptRuns(text).map((run) => (run.code ? el('code', { text: run.text }) : run.text)),
  );
}

function download(fileName, text) {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = el('a', { href: url, download: fileName, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Mounts the chapter's exercises into `container` (the shell's `<section class="exercises">`):
 * a heading with the chapter's score summary, one card per exercise, and the progress panel
 * (pass `progressPanel: false` when the shell places its own with mountProgressPanel).
 * Returns `{ready, destroy}`; `ready` settles when every card has loaded or shown its error.
 */
export function mountExercises(container, { bridge, chapter, store = getProgressStore(), progressPanel = true }) {
  container.classList.add('pl-exercises');
  container.dataset.chapter = chapter;
  const headingId = nextId('pl-ex-heading');
  container.setAttribute('aria-labelledby', headingId);

  const summary = el('div', { class: 'pl-ex-summary', dataset: { role: 'summary' }, role: 'status' });
  const status = el('p', { class: 'status', dataset: { role: 'exercises-status' }, text: 'Loading exercises…' });
  const list = el('div', { class: 'pl-ex-list' });
  const panelHost = el('div', { class: 'pl-ex-panel-host' });
  setChildren(container,
    el('div', { class: 'pl-ex-head' }, el('h2', { id: headingId, text: 'Exercises' }), summary),
    status,
    list,
    panelHost,
  );

  let exercises = [];
  let cards = [];
  let destroyed = false;
  let panel = null;

  let shownSummary = '';
  const renderSummary = () => {
    const s = chapterSummary(exercises, (id) => store.entry(id));
    // The summary is a live region: touch it only when a number changed, not on every
    // saved keystroke of a code draft.
    const key = JSON.stringify(s);
    if (key === shownSummary) return;
    shownSummary = key;
    summary.dataset.earned = String(s.earned);
    summary.dataset.possible = String(s.possible);
    setChildren(summary,
      el('span', { class: 'pl-ex-summary-points' }, el('strong', { text: formatPoints(s.earned) }), ` / ${s.possible} points`),
      el('span', { class: 'pl-ex-summary-solved', text: `${s.solved} of ${s.total} solved` }),
      el('progress', { max: String(s.possible || 1), value: String(s.earned), 'aria-label': `${formatPoints(s.earned)} of ${s.possible} points earned in this chapter` }),
    );
  };

  const renderCards = () => {
    // Only an import rebuilds cards, and a pending draft belongs to the progress it replaced.
    for (const card of cards) card.destroy({ saveDraft: false });
    cards = exercises.map((ex) => createCard(ex, { bridge, store }));
    setChildren(list, ...cards.map((c) => c.element));
    renderSummary();
    return Promise.all(cards.map((c) => c.ready));
  };

  const unsubscribe = store.subscribe((_progress, detail) => {
    if (destroyed) return;
    // An import may bring another seed and other answers: rebuild every card from the store.
    if (detail.reason === 'replace') renderCards();
    else renderSummary();
  });

  const load = async () => {
    status.hidden = false;
    status.className = 'status';
    status.textContent = 'Loading exercises…';
    let bank;
    try {
      bank = await loadBank(bridge);
    } catch (err) {
      if (destroyed) return;
      status.className = 'error';
      setChildren(status,
        `The exercises could not be loaded: ${err.message} `,
        el('button', { type: 'button', text: 'Try again', onclick: () => load() }),
      );
      return;
    }
    if (destroyed) return;
    exercises = bank.filter((ex) => ex.chapter === chapter);
    if (exercises.length === 0) {
      // Not every chapter has exercises yet; an empty block would only be noise.
      container.hidden = true;
      return;
    }
    status.hidden = true;
    if (progressPanel && !panel) panel = mountProgressPanel(panelHost, { store });
    await renderCards();
  };

  const ready = load();
  return {
    ready,
    destroy() {
      destroyed = true;
      unsubscribe();
      panel?.destroy();
      for (const card of cards) card.destroy();
      container.replaceChildren();
    },
  };
}

/**
 * One exercise: its variant, the control for its kind, the result of the last attempt, the
 * hints unlocked so far and, once solved, the grader's reference. Returns {element, ready, destroy}.
 */
function createCard(ex, { bridge, store }) {
  const where = `exercise:${ex.id}`;
  const seed = store.seed;
  let alive = true;
  const ids = { title: nextId('pl-ex-title'), error: nextId('pl-ex-error'), note: nextId('pl-ex-note') };
  const cleanups = [];

  const statusLine = el('p', { class: 'pl-ex-status', dataset: { role: 'status' } });
  const body = el('div', { class: 'pl-ex-body' }, el('p', { class: 'status', text: 'Loading your variant…' }));
  const error = el('p', { class: 'error', id: ids.error, role: 'alert', dataset: { role: 'error' }, hidden: true });
  const result = el('div', { class: 'pl-ex-result', dataset: { role: 'result' }, 'aria-live': 'polite' });
  const hints = el('div', { class: 'pl-ex-hints', dataset: { role: 'hints' } });
  const reference = el(
    'div',
    { class: 'pl-ex-reference', dataset: { role: 'reference' }, hidden: true },
    el('h4', { text: 'How it is graded' }),
    el('p', { text: ex.grader_reference }),
  );
  const element = el(
    'article',
    {
      class: 'pl-ex',
      id: `exercise-${ex.id}`,
      'aria-labelledby': ids.title,
      dataset: { exerciseId: ex.id, kind: ex.kind, seed: String(seed) },
    },
    el(
      'header',
      { class: 'pl-ex-header' },
      el('h3', { id: ids.title, text: ex.title }),
      el('span', { class: 'pl-ex-kind', text: `${kindLabel(ex)} · ${ex.points} points` }),
    ),
    statusLine,
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
    const attempts = `${entry.attempts} ${entry.attempts === 1 ? 'attempt' : 'attempts'}`;
    const score = `${formatPoints(Math.min(entry.best_score, ex.points))} / ${ex.points} points`;
    setChildren(statusLine,
      entry.solved
        ? el('span', { class: 'pl-ex-badge solved', text: 'Solved' })
        : el('span', { class: 'pl-ex-badge', text: entry.attempts ? 'Not solved yet' : 'Not attempted' }),
      entry.attempts ? ` Best ${score} · ${attempts}` : ` ${ex.points} points available`,
    );

    const hintCount = ex.hints.length;
    const state = { hintCount, attempts: entry.attempts, solved: entry.solved };
    const unlocked = unlockedHintCount(state);
    const next = nextHintText(state);
    hints.hidden = hintCount === 0;
    setChildren(hints,
      el('h4', { text: `Hints (${unlocked} of ${hintCount})` }),
      unlocked ? el('ol', {}, ex.hints.slice(0, unlocked).map((h) => el('li', { text: h }))) : null,
      next ? el('p', { class: 'hint', text: next }) : null,
    );
    reference.hidden = !entry.solved;
  };

  // One graded attempt: ask core, then count it. A failure to grade is shown beside the
  // control and counts nothing (the student did nothing wrong).
  const grade = async (answer, savedAnswer) => {
    const sent = answerWithEvidence(answer, ex.evidence, ex.evidence ? latestResult(ex.evidence.experiment) : null);
    const graded = await bridge.call('gradeExercise', { id: ex.id, seed, answer: sent }, { where });
    // An import rebuilt the cards meanwhile: this grade belongs to the replaced progress.
    if (!alive) throw new Error('your progress was replaced by an import while this answer was graded; submit it again');
    store.update(ex.id, recordAttempt(store.entry(ex.id), graded, savedAnswer));
    refresh();
    return graded;
  };

  const showGrade = (graded, extra = []) => {
    const attemptPoints = `${formatPoints(graded.score)} / ${formatPoints(graded.max_score)} points for this attempt`;
    result.dataset.correct = String(graded.correct);
    setChildren(result,
      el(
        'p',
        { class: `pl-ex-feedback ${graded.correct ? 'correct' : 'incorrect'}`, dataset: { role: 'feedback' } },
        // core's feedback may already open with the verdict ("Correct: compute-bound.").
        /^(correct|not correct)\b/i.test(graded.feedback)
          ? null
          : el('strong', { text: graded.correct ? 'Correct. ' : 'Not yet. ' }),
        graded.feedback,
        el('span', { class: 'pl-ex-attempt-points', text: ` (${attemptPoints})` }),
      ),
      graded.tests?.length
        ? el(
            'ul',
            { class: 'pl-ex-tests', 'aria-label': 'Test results' },
            graded.tests.map((t) =>
              el(
                'li',
                { class: t.passed ? 'pass' : 'fail', dataset: { passed: String(t.passed) } },
                el('span', { class: 'pl-ex-mark', 'aria-hidden': 'true', text: t.passed ? '✓' : '✗' }),
                el('span', { class: 'sr-only', text: t.passed ? 'Passed: ' : 'Failed: ' }),
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
    const builders = {
      numeric: ex.parts?.length ? numericPartsControls : numericControls,
      choice: choiceControls,
      code: codeControls,
    };
    const build = builders[ex.kind];
    if (!build) {
      setChildren(body, el('p', { class: 'error', text: `This page cannot show exercises of kind "${ex.kind}".` }));
      return;
    }
    const ctx = { ex, variant, entry, ids, grade, showGrade, showError, clearError, store, cleanups };
    const controls = build(ctx);
    if (ex.evidence) gateOnEvidence(ex, controls, cleanups);
    setChildren(body, promptNode(variant.prompt), controls);
  };

  const loadVariant = async () => {
    clearError();
    try {
      const variant = await bridge.call('exerciseVariant', { id: ex.id, seed }, { where });
      buildControls(variant);
    } catch (err) {
      setChildren(body,
        el(
          'p',
          { class: 'error', role: 'alert' },
          `Your variant of this exercise could not be loaded: ${err.message} `,
          el('button', { type: 'button', text: 'Try again', onclick: () => loadVariant() }),
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

// ---- experiment-backed ---------------------------------------------------------------------

// "Answer from your own run of <experiment>" with a link to the experiment's heading in this
// chapter and whether a run is there yet, kept current as runs finish.
function evidenceNote(ex, cleanups) {
  const { experiment } = ex.evidence;
  const link = el('a', { dataset: { role: 'evidence-link' } });
  const status = el('span', { class: 'pl-ex-evidence-status', dataset: { role: 'evidence-status' } });
  const note = el(
    'p',
    { class: 'note pl-ex-evidence', dataset: { role: 'evidence' } },
    'Answer from your own run of ',
    link,
    '. ',
    status,
  );
  const render = () => {
    const heading = document.getElementById(`${experiment}-title`);
    const state = evidenceState(ex.evidence, latestResult(experiment), heading?.textContent || undefined);
    link.textContent = state.title;
    link.href = `#${state.anchor}`;
    status.textContent = state.status;
    note.dataset.ready = String(state.ready);
  };
  // The chapters route by the URL hash: scroll to the experiment instead of navigating away.
  link.addEventListener('click', (event) => {
    const heading = document.getElementById(`${experiment}-title`);
    if (!heading) return;
    event.preventDefault();
    heading.scrollIntoView({ behavior: 'smooth', block: 'start' });
  });
  render();
  // The experiment may mount after the exercises: read its title again once the page settles.
  requestAnimationFrame(render);
  cleanups.push(subscribeResults(render, { id: experiment }));
  return note;
}

// Submit stays disabled until the experiment has a finished run on this page.
function gateOnEvidence(ex, controls, cleanups) {
  const submit = controls.querySelector('button[type="submit"]');
  if (!submit) return;
  const update = () => {
    const ready = latestResult(ex.evidence.experiment) !== null;
    if (submit.textContent === 'Grading…') return;
    submit.disabled = !ready;
    submit.title = ready ? '' : `Run ${ex.evidence.title} first: this answer is graded from your run`;
  };
  update();
  cleanups.push(subscribeResults(update, { id: ex.evidence.experiment }));
}

// ---- numeric ---------------------------------------------------------------------------

function numericControls({ ex, entry, ids, grade, showGrade, showError, clearError }) {
  const inputId = nextId('pl-ex-input');
  const input = el('input', {
    id: inputId,
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'pl-ex-number',
    'aria-describedby': `${ids.note} ${ids.error}`,
    dataset: { role: 'answer' },
  });
  if (entry.last_answer && 'value' in entry.last_answer) input.value = String(entry.last_answer.value);
  const submit = el('button', { type: 'submit', class: 'primary', text: 'Submit' });
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));

  const form = el(
    'form',
    { class: 'pl-ex-form', novalidate: true },
    el('label', { for: inputId, text: 'Your answer' }),
    el('div', { class: 'pl-ex-row' }, input, ex.unit ? el('span', { class: 'pl-ex-unit', text: ex.unit }) : null, submit),
    el('p', { class: 'hint', id: ids.note, text: toleranceSentence(ex.tolerance) }),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError();
    const parsed = parseNumberInput(input.value);
    if (parsed.problem) {
      input.setAttribute('aria-invalid', 'true');
      showError(parsed.problem);
      input.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Grading…';
    try {
      const answer = { value: parsed.value };
      showGrade(await grade(answer, answer));
    } catch (err) {
      showError(`Your answer could not be graded: ${err.message}`);
    } finally {
      submit.disabled = false;
      submit.textContent = 'Submit';
    }
  });
  return form;
}

// ---- multi-part numeric ----------------------------------------------------------------

// One labelled box per part (its unit, points and tolerance beside it) and, once graded, that
// part's feedback under it; the answer is {values: [...]}, one number per part, and every box
// must hold a number before anything is graded.
function numericPartsControls({ ex, entry, grade, showGrade, showError, clearError, ids }) {
  const saved = Array.isArray(entry.last_answer?.values) ? entry.last_answer.values : [];
  const rows = ex.parts.map((part, index) => {
    const inputId = nextId('pl-ex-input');
    const noteId = nextId('pl-ex-part-note');
    const feedbackId = nextId('pl-ex-part-feedback');
    const input = el('input', {
      id: inputId,
      type: 'text',
      inputmode: 'decimal',
      autocomplete: 'off',
      spellcheck: 'false',
      class: 'pl-ex-number',
      'aria-describedby': `${noteId} ${feedbackId} ${ids.error}`,
      dataset: { role: 'answer', part: String(index) },
    });
    if (Number.isFinite(saved[index])) input.value = String(saved[index]);
    input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
    const feedback = el('p', { class: 'pl-ex-part-feedback', id: feedbackId, dataset: { role: 'part-feedback' }, hidden: true });
    const element = el(
      'div',
      { class: 'pl-ex-part', dataset: { part: String(index) } },
      el('label', { for: inputId }, part.label, el('span', { class: 'pl-ex-part-points', text: ` · ${formatPoints(part.points)} points` })),
      el('div', { class: 'pl-ex-row' }, input, part.unit ? el('span', { class: 'pl-ex-unit', text: part.unit }) : null),
      el('p', { class: 'hint', id: noteId, text: toleranceSentence(part.tolerance) }),
      feedback,
    );
    return { input, feedback, element };
  });

  const showParts = (graded) => {
    rows.forEach(({ feedback, element }, index) => {
      const p = graded.parts?.[index];
      feedback.hidden = !p;
      if (!p) return;
      element.dataset.correct = String(p.correct);
      feedback.className = `pl-ex-part-feedback ${p.correct ? 'correct' : 'incorrect'}`;
      setChildren(feedback,
        el('span', { class: 'pl-ex-mark', 'aria-hidden': 'true', text: p.correct ? '✓' : '✗' }),
        el('span', { class: 'sr-only', text: p.correct ? 'Right: ' : 'Wrong: ' }),
        `${p.feedback} `,
        el('span', { class: 'pl-ex-attempt-points', text: `(${formatPoints(p.score)} / ${formatPoints(p.max_score)} points)` }),
      );
    });
  };

  const submit = el('button', { type: 'submit', class: 'primary', text: 'Submit' });
  const form = el(
    'form',
    { class: 'pl-ex-form pl-ex-parts', novalidate: true },
    rows.map((r) => r.element),
    el('div', { class: 'pl-ex-row' }, submit),
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError();
    const parsed = parsePartInputs(
      rows.map((r) => r.input.value),
      ex.parts.map((p) => p.label),
    );
    if (parsed.problems) {
      for (const { index } of parsed.problems) rows[index].input.setAttribute('aria-invalid', 'true');
      showError(parsed.problems.map((p) => p.problem).join(' '));
      rows[parsed.problems[0].index].input.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Grading…';
    try {
      const answer = { values: parsed.values };
      const graded = await grade(answer, answer);
      showParts(graded);
      showGrade(graded);
    } catch (err) {
      showError(`Your answer could not be graded: ${err.message}`);
    } finally {
      submit.disabled = false;
      submit.textContent = 'Submit';
    }
  });
  return form;
}

// ---- multiple choice -------------------------------------------------------------------

function choiceControls({ ex, variant, entry, ids, grade, showGrade, showError, clearError }) {
  const name = nextId('pl-ex-choice');
  const choices = variant.choices ?? ex.choices ?? [];
  const chosen = entry.last_answer && 'choice' in entry.last_answer ? entry.last_answer.choice : null;
  const radios = choices.map((text, index) =>
    el('input', { type: 'radio', name, value: String(index), id: `${name}-${index}`, checked: index === chosen }),
  );
  const submit = el('button', { type: 'submit', class: 'primary', text: 'Submit' });
  const form = el(
    'form',
    { class: 'pl-ex-form', novalidate: true },
    el(
      'fieldset',
      { class: 'pl-ex-choices', 'aria-describedby': ids.error },
      el('legend', { text: 'Your answer' }),
      choices.map((text, index) => el('label', { for: `${name}-${index}`, class: 'pl-ex-choice' }, radios[index], ` ${text}`)),
    ),
    el('div', { class: 'pl-ex-row' }, submit),
  );
  form.addEventListener('change', clearError);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError();
    const picked = radios.findIndex((r) => r.checked);
    if (picked < 0) {
      showError('Pick one of the answers first.');
      radios[0]?.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = 'Grading…';
    try {
      const answer = { choice: picked };
      showGrade(await grade(answer, answer));
    } catch (err) {
      showError(`Your answer could not be graded: ${err.message}`);
    } finally {
      submit.disabled = false;
      submit.textContent = 'Submit';
    }
  });
  return form;
}

// ---- JavaScript code -------------------------------------------------------------------


function codeControls({ ex, variant, entry, ids, grade, showGrade, showError, clearError, store, cleanups }) {
  const labelId = nextId('pl-ex-editor-label');
  const tests = variant.tests ?? [];
  const initial = entry.code ?? ex.starter_code ?? '';

  // Drafts are saved shortly after typing stops, and at once when the page is left
  // (createCodeEditor's onSave).
  const saveDraft = (code) => {
    if (store.entry(ex.id).code === code) return;
    try {
      store.update(ex.id, { code });
    } catch (err) {
      showError(`Your code could not be saved: ${err.message}`);
    }
  };

  const run = el('button', { type: 'button', class: 'primary', text: 'Run tests', dataset: { role: 'run' } });
  const stop = el('button', { type: 'button', text: 'Stop', dataset: { role: 'stop' }, hidden: true });
  const reset = el('button', {
    type: 'button',
    text: 'Reset to starter code',
    title: 'Replaces your code with the starter code; Ctrl+Z brings yours back.',
  });
  const runStatus = el('span', { class: 'status', role: 'status', dataset: { role: 'run-status' } });
  const editorHost = el('div', { class: 'pl-ex-editor', dataset: { role: 'editor' } });

  let controller = null;
  const setRunning = (text) => {
    const busy = text !== null;
    run.disabled = busy;
    reset.disabled = busy;
    stop.hidden = !busy || text === 'Grading…';
    runStatus.textContent = busy ? text : '';
  };

  const runTests = async () => {
    if (controller) return;
    clearError();
    editor.flush();
    const code = editor.text();
    controller = new AbortController();
    setRunning(`Running ${tests.length} tests (stopped after ${formatSeconds(ex.time_limit_ms)})…`);
    let outcome;
    try {
      outcome = await runInSandbox({
        code,
        functionName: ex.function_name,
        tests,
        timeLimitMs: ex.time_limit_ms,
        signal: controller.signal,
      });
    } catch (err) {
      controller = null;
      setRunning(null);
      if (err instanceof SandboxStoppedError) runStatus.textContent = 'Stopped. Nothing was graded and no attempt was counted.';
      else showError(err.message);
      return;
    }
    setRunning('Grading…');
    try {
      const answer = { results: outcome.results };
      const graded = await grade(answer, answer);
      const extra = [];
      if (outcome.timed_out) {
        extra.push(
          el('p', {
            class: 'note warn pl-ex-timeout',
            dataset: { role: 'timeout' },
            text: `Your code was still running after ${formatSeconds(ex.time_limit_ms)} and was stopped (an endless loop?). Tests that had not finished count as timed out.`,
          }),
        );
      }
      if (outcome.logs.length) {
        extra.push(
          el(
            'details',
            { class: 'pl-ex-console' },
            el('summary', { text: `Console output (${outcome.logs.length} ${outcome.logs.length === 1 ? 'line' : 'lines'})` }),
            el('pre', { text: outcome.logs.join('\n') }),
          ),
        );
      }
      showGrade(graded, extra);
      setRunning(null);
    } catch (err) {
      setRunning(null);
      showError(`Your code ran, but the results could not be graded: ${err.message}`);
    } finally {
      controller = null;
    }
  };

  const editor = createCodeEditor({
    parent: editorHost,
    doc: initial,
    language: javascript(),
    onRun: runTests,
    onSave: saveDraft,
    saveDelayMs: DRAFT_SAVE_DELAY_MS,
    labelledBy: labelId,
    describedBy: `${ids.note} ${ids.error}`,
  });

  run.addEventListener('click', runTests);
  stop.addEventListener('click', () => controller?.abort());
  reset.addEventListener('click', () => {
    editor.setText(ex.starter_code ?? '');
    editor.view.focus();
  });
  cleanups.push(({ saveDraft: keep }) => {
    controller?.abort();
    editor.destroy({ save: keep });
  });

  const testNames = tests.map((t) => t.name).join(', ');
  return el(
    'div',
    { class: 'pl-ex-form' },
    el('p', { class: 'pl-ex-label', id: labelId, text: `Your code: define ${ex.function_name}(…) in JavaScript` }),
    editorHost,
    el('div', { class: 'pl-ex-row' }, run, stop, reset, runStatus),
    el('p', {
      class: 'hint',
      id: ids.note,
      text: `Runs in a separate worker on ${tests.length} tests (${testNames}) and is stopped after ${formatSeconds(ex.time_limit_ms)}. Ctrl+Enter runs the tests.`,
    }),
  );
}

// ---- progress panel ----------------------------------------------------------------------

/**
 * Export / import of the student's progress, and any notice about unreadable or unsaved
 * progress. mountExercises places one under each chapter's exercises; a shell that wants a
 * single panel elsewhere can call this itself. `onChange(progress)` hears successful imports.
 */
export function mountProgressPanel(container, { store = getProgressStore(), onChange } = {}) {
  const headingId = nextId('pl-progress-heading');
  const message = el('p', { class: 'pl-progress-message', role: 'status', dataset: { role: 'progress-message' } });
  const notice = el('div', { class: 'note warn pl-progress-notice', role: 'alert', dataset: { role: 'progress-notice' }, hidden: true });
  const fileInput = el('input', {
    type: 'file',
    accept: '.json,application/json',
    hidden: true,
    'aria-label': 'Progress file to import',
    dataset: { role: 'import-file' },
  });
  const exportButton = el('button', { type: 'button', text: 'Export progress', dataset: { role: 'export' } });
  const importButton = el('button', { type: 'button', text: 'Import progress…', dataset: { role: 'import' } });
  const explanation = el('p', { class: 'hint' });

  const renderExplanation = () => {
    explanation.textContent =
      `Saved in this browser as you work (your exercise variants come from seed ${store.seed}). ` +
      'Export a copy to keep it, to hand it in, or to continue in another browser.';
  };
  const renderNotice = () => {
    notice.hidden = !store.notice;
    if (!store.notice) return;
    const corrupt = store.corrupt;
    setChildren(notice,
      el('p', { text: store.notice }),
      el(
        'div',
        { class: 'pl-ex-row' },
        corrupt
          ? el('button', {
              type: 'button',
              text: 'Download the unreadable copy',
              onclick: () => download('perflab-progress-unreadable.json', corrupt.text),
            })
          : null,
        el('button', {
          type: 'button',
          text: 'Dismiss',
          onclick: () => {
            store.dismissNotice();
            renderNotice();
          },
        }),
      ),
    );
  };

  exportButton.addEventListener('click', () => {
    try {
      download(exportFileName(), store.exportText());
      message.className = 'pl-progress-message';
      message.textContent = 'Exported. Keep the file; Import restores it here or in another browser.';
    } catch (err) {
      message.className = 'pl-progress-message error';
      message.textContent = `Export failed: ${err.message}`;
    }
  });
  importButton.addEventListener('click', () => fileInput.click());
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    if (!file) return;
    const refuse = (problems) => {
      message.className = 'pl-progress-message error';
      setChildren(message,
        el('strong', { text: `Import refused: ${file.name} ` }),
        problems.length === 1 ? `${problems[0]}.` : el('ul', {}, problems.slice(0, 8).map((p) => el('li', { text: p }))),
        problems.length > 8 ? el('p', { text: `…and ${problems.length - 8} more problems.` }) : null,
        el('p', { text: 'Your progress is unchanged.' }),
      );
    };
    if (file.size > MAX_IMPORT_BYTES) {
      refuse([`the file is ${(file.size / 1e6).toFixed(1)} MB; a progress file is a few kilobytes`]);
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (err) {
      refuse([`the file could not be read (${err.message})`]);
      return;
    }
    const { ok, problems } = store.importText(text);
    if (!ok) {
      refuse(problems);
      return;
    }
    const count = Object.keys(store.progress.exercises).length;
    message.className = 'pl-progress-message ok';
    message.textContent = `Imported ${file.name}: ${count} ${count === 1 ? 'exercise' : 'exercises'} with saved work, seed ${store.seed}.`;
    onChange?.(store.progress);
  });

  const unsubscribe = store.subscribe(() => {
    renderExplanation();
    renderNotice();
  });
  renderExplanation();
  renderNotice();
  container.append(
    el(
      'div',
      { class: 'pl-progress', role: 'region', 'aria-labelledby': headingId },
      el('h3', { id: headingId, text: 'Your progress' }),
      explanation,
      el('div', { class: 'pl-ex-row' }, exportButton, importButton, fileInput),
      message,
      notice,
    ),
  );
  return {
    destroy() {
      unsubscribe();
      container.replaceChildren();
    },
  };
}
