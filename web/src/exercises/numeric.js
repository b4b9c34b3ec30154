// The numeric answer controls: one box with its unit and tolerance, or one labelled box per
// part (its unit, points and tolerance beside it, and once graded that part's feedback under
// it). The answer is {value} or {values: [...]}, one number per part; every box must hold a
// number before anything is graded. Not for: parsing rules (logic.js) or grading (core).

import { h, nextId, setChildren } from '../ui/dom.js';
import { formatPoints, parseNumberInput, parsePartInputs, toleranceSentence } from './logic.js';
import { gradeOnSubmit, submitButton, verdictMark } from './controls.js';

function numberInput(id, describedBy, dataset) {
  const input = h('input', {
    id,
    type: 'text',
    inputmode: 'decimal',
    autocomplete: 'off',
    spellcheck: 'false',
    class: 'pl-ex-number',
    'aria-describedby': describedBy,
    dataset,
  });
  input.addEventListener('input', () => input.removeAttribute('aria-invalid'));
  return input;
}

/** The controls of a numeric exercise: single-valued, or in parts when `ex.parts` has any. */
export function numericControls(ctx) {
  return ctx.ex.parts?.length ? partsControls(ctx) : singleControls(ctx);
}

function singleControls({ ex, entry, ids, grade, showGrade, showError, clearError }) {
  const inputId = nextId('pl-ex-input');
  const input = numberInput(inputId, `${ids.note} ${ids.error}`, { role: 'answer' });
  if (entry.last_answer && 'value' in entry.last_answer) input.value = String(entry.last_answer.value);
  const submit = submitButton();
  const form = h(
    'form',
    { class: 'pl-ex-form', novalidate: true },
    h('label', { for: inputId, text: 'Your answer' }),
    h('div', { class: 'pl-ex-row' }, input, ex.unit ? h('span', { class: 'pl-ex-unit', text: ex.unit }) : null, submit),
    h('p', { class: 'hint', id: ids.note, text: toleranceSentence(ex.tolerance) }),
  );
  const read = () => {
    const parsed = parseNumberInput(input.value);
    if (!parsed.problem) return { value: parsed.value };
    input.setAttribute('aria-invalid', 'true');
    showError(parsed.problem);
    input.focus();
    return null;
  };
  gradeOnSubmit(form, submit, { read, grade, show: (graded) => showGrade(graded), showError, clearError });
  return form;
}

function partsControls({ ex, entry, grade, showGrade, showError, clearError, ids }) {
  const saved = Array.isArray(entry.last_answer?.values) ? entry.last_answer.values : [];
  const rows = ex.parts.map((part, index) => {
    const inputId = nextId('pl-ex-input');
    const noteId = nextId('pl-ex-part-note');
    const feedbackId = nextId('pl-ex-part-feedback');
    const input = numberInput(inputId, `${noteId} ${feedbackId} ${ids.error}`, { role: 'answer', part: String(index) });
    if (Number.isFinite(saved[index])) input.value = String(saved[index]);
    const feedback = h('p', { class: 'pl-ex-part-feedback', id: feedbackId, dataset: { role: 'part-feedback' }, hidden: true });
    const element = h(
      'div',
      { class: 'pl-ex-part', dataset: { part: String(index) } },
      h('label', { for: inputId }, part.label, h('span', { class: 'pl-ex-part-points', text: ` · ${formatPoints(part.points)} points` })),
      h('div', { class: 'pl-ex-row' }, input, part.unit ? h('span', { class: 'pl-ex-unit', text: part.unit }) : null),
      h('p', { class: 'hint', id: noteId, text: toleranceSentence(part.tolerance) }),
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
        verdictMark(p.correct, p.correct ? 'Right: ' : 'Wrong: '),
        `${p.feedback} `,
        h('span', { class: 'pl-ex-attempt-points', text: `(${formatPoints(p.score)} / ${formatPoints(p.max_score)} points)` }),
      );
    });
  };

  const submit = submitButton();
  const form = h(
    'form',
    { class: 'pl-ex-form pl-ex-parts', novalidate: true },
    rows.map((r) => r.element),
    h('div', { class: 'pl-ex-row' }, submit),
  );
  const read = () => {
    const parsed = parsePartInputs(
      rows.map((r) => r.input.value),
      ex.parts.map((p) => p.label),
    );
    if (!parsed.problems) return { values: parsed.values };
    for (const { index } of parsed.problems) rows[index].input.setAttribute('aria-invalid', 'true');
    showError(parsed.problems.map((p) => p.problem).join(' '));
    rows[parsed.problems[0].index].input.focus();
    return null;
  };
  const show = (graded) => {
    showParts(graded);
    showGrade(graded);
  };
  gradeOnSubmit(form, submit, { read, grade, show, showError, clearError });
  return form;
}
