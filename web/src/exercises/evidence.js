// Experiment-backed exercises: the note saying which experiment of the chapter the answer
// comes from (a link to it, and whether a finished run is there yet), and the gate that keeps
// Submit disabled until there is one. Both follow runs as they finish (results.js). Not for:
// attaching the run's rows to the answer (logic.js) or judging them (core).

import { latestResult, subscribeResults } from '../experiments/results.js';
import { h } from '../ui/dom.js';
import { evidenceState } from './logic.js';

// "Answer from your own run of <experiment>" with a link to the experiment's heading in this
// chapter and whether a run is there yet, kept current as runs finish.
export function evidenceNote(ex, cleanups) {
  const { experiment } = ex.evidence;
  const link = h('a', { dataset: { role: 'evidence-link' } });
  const status = h('span', { class: 'pl-ex-evidence-status', dataset: { role: 'evidence-status' } });
  const note = h(
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
export function gateOnEvidence(ex, controls, cleanups) {
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
