// One experiment control as a labelled field: its input (select, number, list of numbers or
// checkbox), its hint and the complaint shown beside it when Run finds its value invalid.
// experiment.js places the fields. Not for: parsing or checking values (model.js does).

import { h } from '../ui/dom.js';
import { rawOf } from './model.js';

/**
 * @param {object} control a spec's control (docs/EXPERIMENTS.md)
 * @param {(suffix: string) => string} domId the experiment's id prefixer
 * @returns {{control: object, input: HTMLElement, field: HTMLElement, hint: HTMLElement|null,
 *            raw: () => string|boolean, set: (value: any) => void, showProblem: (problem: string|null) => void}}
 */
export function controlField(control, domId) {
  const id = domId(control.id);
  const hintId = control.hint ? `${id}-note` : undefined;
  const errorId = `${id}-error`;
  let input;
  if (control.type === 'select') {
    input = h('select', { id }, ...control.options.map((o) => h('option', { value: String(o.value), text: o.label })));
  } else if (control.type === 'number') {
    input = h('input', {
      id,
      type: 'number',
      inputmode: control.integer ? 'numeric' : 'decimal',
      min: control.min,
      max: control.max,
      step: control.step ?? (control.integer ? 1 : 'any'),
      class: 'number',
    });
  } else if (control.type === 'numbers') {
    input = h('input', { id, type: 'text', spellcheck: 'false', autocomplete: 'off', size: control.size ?? 24 });
  } else {
    input = h('input', { id, type: 'checkbox' });
  }
  input.setAttribute('aria-describedby', [hintId, errorId].filter(Boolean).join(' '));
  const errorEl = h('span', { class: 'field-error', id: errorId, 'data-role': 'field-error' });
  errorEl.hidden = true;
  const labelText = control.unit ? `${control.label} (${control.unit})` : control.label;
  const label = h('label', { for: id, text: control.type === 'checkbox' ? ` ${labelText}` : `${labelText} ` });
  const field =
    control.type === 'checkbox'
      ? h('span', { class: 'field', 'data-control': control.id }, input, label, errorEl)
      : h('span', { class: 'field', 'data-control': control.id }, label, input, errorEl);
  const hint = hintId ? h('p', { class: 'hint', id: hintId, text: control.hint }) : null;

  const entry = {
    control,
    input,
    field,
    hint,
    raw: () => (control.type === 'checkbox' ? input.checked : input.value),
    set(value) {
      if (control.type === 'checkbox') input.checked = rawOf(control, value);
      else input.value = rawOf(control, value);
    },
    showProblem(problem) {
      errorEl.textContent = problem ?? '';
      errorEl.hidden = !problem;
      if (problem) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    },
  };
  entry.set(control.default);
  // Editing a field clears its complaint; the next Run checks it again.
  input.addEventListener(control.type === 'checkbox' || control.type === 'select' ? 'change' : 'input', () =>
    entry.showProblem(null),
  );
  return entry;
}
