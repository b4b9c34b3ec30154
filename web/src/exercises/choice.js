// The multiple-choice control: one radio per choice of the variant of this try (core draws a
// new one after a wrong try; card.js loads it), the last answer checked again when it was
// given to this variant; the answer is {choice: index}. Not for: grading (core).

import { h, nextId } from '../ui/dom.js';
import { gradeOnSubmit, submitButton } from './controls.js';

/** The controls of a multiple-choice exercise, in the variant's order of choices. */
export function choiceControls({ ex, variant, entry, ids, grade, showGrade, showError, clearError }) {
  const name = nextId('pl-ex-choice');
  const choices = variant.choices ?? ex.choices ?? [];
  const last = entry.last_answer;
  const sameTry = last && 'choice' in last && (last.attempt ?? 1) === (variant.try ?? 1);
  const chosen = sameTry ? last.choice : null;
  const radios = choices.map((text, index) =>
    h('input', { type: 'radio', name, value: String(index), id: `${name}-${index}`, checked: index === chosen }),
  );
  const submit = submitButton();
  const form = h(
    'form',
    { class: 'pl-ex-form', novalidate: true },
    h(
      'fieldset',
      { class: 'pl-ex-choices', 'aria-describedby': ids.error },
      h('legend', { text: 'Your answer' }),
      choices.map((text, index) => h('label', { for: `${name}-${index}`, class: 'pl-ex-choice' }, radios[index], ` ${text}`)),
    ),
    h('div', { class: 'pl-ex-row' }, submit),
  );
  form.addEventListener('change', clearError);
  const read = () => {
    const picked = radios.findIndex((r) => r.checked);
    if (picked >= 0) return { choice: picked };
    showError('Pick one of the answers first.');
    radios[0]?.focus();
    return null;
  };
  gradeOnSubmit(form, submit, { read, grade, show: (graded) => showGrade(graded), showError, clearError });
  return form;
}
