// What the answer controls of every kind share: the Submit button, a submit that grades once
// (Grading… while core works, the reason beside the control when it cannot), and the ✓/✗
// mark with its words for screen readers. Not for: a kind's own inputs (numeric.js,
// choice.js, code.js) or the card around them (card.js).

import { h } from '../ui/dom.js';

export const submitButton = () => h('button', { type: 'submit', class: 'primary', text: 'Submit' });

/** ✓ or ✗ (hidden from screen readers) followed by `said` for them ("Passed: "). */
export const verdictMark = (ok, said) => [
  h('span', { class: 'pl-ex-mark', 'aria-hidden': 'true', text: ok ? '✓' : '✗' }),
  h('span', { class: 'sr-only', text: said }),
];

/**
 * On submit: `read()` returns the answer, or null after pointing at what is wrong; the
 * answer is graded (and saved as the last answer) and `show(graded)` displays the result.
 * A failure to grade is shown with `showError` and counts nothing.
 */
export function gradeOnSubmit(form, submit, { read, grade, show, showError, clearError }) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearError();
    const answer = read();
    if (answer === null) return;
    submit.disabled = true;
    submit.textContent = 'Grading…';
    try {
      show(await grade(answer));
    } catch (err) {
      showError(`Your answer could not be graded: ${err.message}`);
    } finally {
      submit.disabled = false;
      submit.textContent = 'Submit';
    }
  });
}
