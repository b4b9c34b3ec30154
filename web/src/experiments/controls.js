// One experiment control as a labelled field: its input (select, number, list of numbers or
// checkbox), its hint and the complaint shown beside it when Run finds its value invalid; a
// select whose options come later (from core) shows "loading…" until `setOptions`, or the
// failure and a Try again button. experiment.js places the fields and loads the options. Not for: parsing or checking values (model.js does).

import { h } from '../ui/dom.js';
import { hasLateOptions, pickOption, rawOf } from './model.js';

/**
 * @param {object} control a spec's control (docs/EXPERIMENTS.md)
 * @param {(suffix: string) => string} domId the experiment's id prefixer
 * @returns {{control: object, input: HTMLElement, field: HTMLElement, hint: HTMLElement|null,
 *            raw: () => string|boolean, set: (value: any) => void, showProblem: (problem: string|null) => void,
 *            ready: () => boolean, setOptions: (options: object[]) => void, showLoadFailure: (err: Error) => void,
 *            retryButton: HTMLElement|null}}
 *          `control` is the spec's, with its options once they arrived
 */
export function controlField(control, domId) {
  const id = domId(control.id);
  const hintId = control.hint ? `${id}-note` : undefined;
  const errorId = `${id}-error`;
  const late = hasLateOptions(control);
  const optionNodes = (options) =>
    options.map((o) => h('option', { value: String(o.value), text: o.label, title: o.title }));
  let input;
  if (late) {
    input = h('select', { id, 'data-options': 'loading' }, h('option', { value: '', text: 'loading…' }));
    input.disabled = true;
  } else if (control.type === 'select') {
    input = h('select', { id }, ...optionNodes(control.options));
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
  // Why the control is off while the others' values make it irrelevant (control.ignoredWhen).
  const ignoredId = `${id}-ignored`;
  const ignoredEl = h('span', { class: 'field-note', id: ignoredId, 'data-role': 'ignored-reason' });
  ignoredEl.hidden = true;
  if (control.ignoredWhen) input.setAttribute('aria-describedby', `${input.getAttribute('aria-describedby')} ${ignoredId}`);
  const retryButton = late ? h('button', { type: 'button', 'data-action': 'retry-options', text: 'Try again' }) : null;
  if (retryButton) retryButton.hidden = true;
  const labelText = control.unit ? `${control.label} (${control.unit})` : control.label;
  const label = h('label', { for: id, text: control.type === 'checkbox' ? ` ${labelText}` : `${labelText} ` });
  const field =
    control.type === 'checkbox'
      ? h('span', { class: 'field', 'data-control': control.id }, input, label, errorEl, ignoredEl)
      : h('span', { class: 'field', 'data-control': control.id }, label, input, errorEl, ignoredEl, retryButton);
  const hint = hintId ? h('p', { class: 'hint', id: hintId, text: control.hint }) : null;

  // A value given before the options exist (the default, a saved one) waits here.
  let pending = control.default;
  let loaded = !late;
  let ignored = null;
  const entry = {
    control,
    input,
    field,
    hint,
    retryButton,
    raw: () => (control.type === 'checkbox' ? input.checked : input.value),
    set(value) {
      if (!loaded) pending = value;
      else if (control.type === 'checkbox') input.checked = rawOf(control, value);
      else input.value = rawOf(control, value);
    },
    /** Whether the control has its options (always, unless they come later). */
    ready: () => loaded,
    /** Why the run ignores this control now (control.ignoredWhen), or null. */
    ignored: () => ignored,
    /**
     * Off, with the reason beside it, while `reason` says the run ignores the control; on again
     * (once its options are in) when it is null.
     */
    showIgnored(reason) {
      ignored = reason ?? null;
      ignoredEl.textContent = ignored ?? '';
      ignoredEl.hidden = !ignored;
      input.disabled = Boolean(ignored) || !loaded;
    },
    /** Fills a late select with checked options (model.js checkOptions), keeping the wanted value. */
    setOptions(options) {
      entry.control = { ...control, options };
      input.replaceChildren(...optionNodes(options));
      input.value = pickOption(options, pending, control.default);
      input.disabled = Boolean(ignored);
      input.dataset.options = 'ready';
      loaded = true;
      if (retryButton) retryButton.hidden = true;
      entry.showProblem(null);
    },
    /** Loading the options failed: say why beside the control and offer to try again. */
    showLoadFailure(err) {
      input.replaceChildren(h('option', { value: '', text: 'not loaded' }));
      input.dataset.options = 'failed';
      entry.showProblem(err?.message ?? String(err));
      if (retryButton) retryButton.hidden = false;
    },
    /** Loading (again): the disabled "loading…" state. */
    showLoading() {
      input.replaceChildren(h('option', { value: '', text: 'loading…' }));
      input.disabled = true;
      input.dataset.options = 'loading';
      if (retryButton) retryButton.hidden = true;
      entry.showProblem(null);
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
