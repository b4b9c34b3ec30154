// Small pieces the chapter's blocks share: a block's frame, a byte count in megabytes, an error
// shown in its box (the blocks of "A model worth optimizing": model-section.js, train-view.js,
// evaluation-view.js), and the run frame of the experiments on the made models (Run, Cancel,
// progress, status, the data, the models a run holds in core, the error rules).
// Not for: anything a block computes.

import { labOf } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatPercent, formatSig } from '../../ui/format.js';
import { createDataStore } from './data.js';

/** Bytes as "1.23 MB". */
export const mbText = (bytes) => `${formatSig(bytes / 1e6)} MB`;

/** A made model as the sections' notes name it: "NAME, test accuracy 89.9%" (when evaluated). */
export const madeModelText = (m) => `${m.name}${m.evaluation ? `, test accuracy ${formatPercent(m.evaluation.accuracy)}` : ''}`;

/** The note of a section that needs the baseline before it can run; `role`: what the section does with it. */
export const needBaselineText = (role) => `Train or load the baseline first (“A model worth optimizing” above): ${role}.`;

/** One block of the section: a titled experiment box. */
export const block = (role, title, ...children) =>
  h('div', { class: 'experiment optimization-block', 'data-role': role }, h('h3', { text: title }), ...children);

/** Shows an error's message in its box (and in the console). */
export function showError(box, err) {
  console.warn(err);
  box.textContent = err?.message ?? String(err);
  box.hidden = false;
}

/** Whether an error says core lost its ids: the lab worker restarted (a cancelled call, a crash). */
export const isLabRestart = (err) => /^no (data set|model) has id/.test(err?.message ?? '');

/** Replaces a box's children by one result-note paragraph per sentence. */
export function showSentences(box, texts) {
  box.replaceChildren(...texts.map((text) => h('p', { class: 'result-note', text })));
}

/**
 * What every experiment on the made models shares (quantize-view.js, structured-view.js,
 * distill-view.js, pareto-view.js): Run and Cancel, a progress bar, a status line, the plan's
 * note and an error box (data-action run-<prefix> and cancel-<prefix>, data-role
 * <prefix>-progress, -status, -plan, -error); the chapter's data, whose fetches the status
 * line reports; one run at a time; the models the run holds in core, dropped before the next
 * run (or after this one, with dropAfterRun). After a run, however it ended: a run a Cancel
 * stopped by throwing says cancelledText; an error shows in the box (a lab restart's with the
 * data and held ids forgotten, and a sentence saying so); the buttons come back.
 * Cancel sets ctx.cancelled() (a chunked run stops between chunks and keeps what it finished);
 * with abortOnCancel it also aborts ctx.signal, which stops the call running.
 * @param {object} bridge the lab bridge
 * @param {{prefix: string, where: string, runText: string, progressLabel: string,
 *   abortOnCancel?: boolean, cancellingText?: string, cancelledText?: string,
 *   dropAfterRun?: boolean, ready?: () => boolean,
 *   run: (ctx: {signal: AbortSignal, cancelled: () => boolean, stopIfCancelled: () => void,
 *     hold: (id: number) => number, release: (id: number) => Promise<void>}) => Promise<void>}} o
 */
export function createRunFrame(bridge, o) {
  const lab = labOf(bridge);
  const runButton = h('button', { type: 'button', class: 'primary', 'data-action': `run-${o.prefix}`, text: o.runText, disabled: true });
  const cancelButton = h('button', { type: 'button', 'data-action': `cancel-${o.prefix}`, text: 'Cancel', disabled: true });
  const progress = h('progress', { max: '1', value: '0', 'aria-label': o.progressLabel, 'data-role': `${o.prefix}-progress` });
  const status = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': `${o.prefix}-status`, text: 'Not run yet.' });
  const planNote = h('p', { class: 'note', 'data-role': `${o.prefix}-plan`, hidden: true });
  const errorBox = h('p', { class: 'error', role: 'alert', 'data-role': `${o.prefix}-error`, hidden: true });
  const data = createDataStore(bridge, {
    progress(p) {
      if (p) status.textContent = `Fetching ${p.what}: ${mbText(p.received)} of ${mbText(p.total)}`;
    },
  });
  let planReady = false;
  let running = null; // {controller, cancelRequested}
  let held = []; // core's ids of the models the run holds

  const enable = () => {
    runButton.disabled = running !== null || !planReady || !(o.ready?.() ?? true);
  };
  const dropHeld = async () => {
    const ids = held;
    held = [];
    for (const id of ids) await lab.dropModel(id, { where: o.where }).catch(() => {});
  };

  async function run() {
    const controller = new AbortController();
    running = { controller, cancelRequested: false };
    const self = running;
    errorBox.hidden = true;
    progress.value = 0;
    status.textContent = 'Starting…';
    enable();
    cancelButton.disabled = false;
    const cancelled = () => self.cancelRequested;
    const ctx = {
      signal: controller.signal,
      cancelled,
      stopIfCancelled() {
        if (cancelled()) throw Object.assign(new Error('Cancelled.'), { cancelled: true });
      },
      hold(id) {
        held.push(id);
        return id;
      },
      async release(id) {
        held = held.filter((x) => x !== id);
        await lab.dropModel(id, { where: o.where });
      },
    };
    try {
      await dropHeld();
      await o.run(ctx);
    } catch (err) {
      if (err?.cancelled) {
        // The data store checks what core still holds before its next use; the held ids are
        // dropped (or found gone) at the next run.
        status.textContent = o.cancelledText ?? 'Cancelled.';
      } else {
        if (isLabRestart(err)) {
          data.forget();
          held = [];
          err.message += ' (the lab restarted, so its data and models are gone; Run loads them again)';
        }
        showError(errorBox, err);
        status.textContent = 'Stopped by an error.';
      }
    } finally {
      if (o.dropAfterRun) await dropHeld();
      running = null;
      cancelButton.disabled = true;
      enable();
    }
  }

  runButton.addEventListener('click', () => {
    if (!running) run();
  });
  cancelButton.addEventListener('click', () => {
    if (!running) return;
    running.cancelRequested = true;
    if (o.abortOnCancel) running.controller.abort();
    cancelButton.disabled = true;
    status.textContent = o.cancellingText ?? 'Cancelling after the current chunk…';
  });

  return {
    runButton,
    cancelButton,
    progress,
    status,
    planNote,
    errorBox,
    data,
    enable,
    /** The controls row: Run, Cancel, the progress bar and the status line. */
    controls: (...before) => h('div', { class: 'controls' }, ...before, runButton, cancelButton, progress, status),
    /** The plan's note, shown; Run may start once ready() allows. */
    showPlan(text) {
      planNote.textContent = text;
      planNote.hidden = false;
      planReady = true;
      enable();
    },
    /** Stops a run at its next chunk (the section is going away). */
    destroy() {
      if (!running) return;
      running.cancelRequested = true;
      if (o.abortOnCancel) running.controller.abort();
    },
  };
}
