// The instructor view's Olympics section, shown after a re-grade: how many entries the class's
// files hold, and a button that re-checks them all in the lab worker (core rebuilds each
// entry's model from its pipeline, evaluates it on the test split and ranks the class), with
// a progress bar and Cancel; then the leaderboard (olympics-board.js). The data and the
// baseline are the Optimization chapter's (its data store: the manifest's Fashion-MNIST files
// and the pretrained model file, fetched on first use). Not for: checking or ranking (core,
// through grading/olympics.js), drawing the board (olympics-board.js).

import { createDataStore } from '../chapters/optimization/data.js';
import { olympicsEntriesOf, recheckOlympics, trainImagesOf, workerOlympicsLab } from '../grading/olympics.js';
import { labOf } from '../lab/client.js';
import { h, setChildren } from '../ui/dom.js';
import { formatBytes, formatCount } from '../ui/format.js';
import { showBoard } from './olympics-board.js';

const WHERE = 'instructor-olympics';

/**
 * Mounts the section into `box` for one re-graded class (class.js's gradeClass result).
 * @param {HTMLElement} box
 * @param {{bridge: object, graded: object}} deps
 * @returns {{destroy: () => void}}
 */
export function mountOlympics(box, { bridge, graded }) {
  const lab = labOf(bridge);
  const items = olympicsEntriesOf(graded); // the gradebook's file of each student
  const count = items.length;
  const studentCount = new Set(items.map((i) => i.student)).size;
  let charts = [];
  let controller = null;
  if (!count) {
    setChildren(box, h('p', { 'data-role': 'olympics-none' }, 'No graded file holds an Olympics entry (the Optimization chapter’s last section).'));
    return { destroy() {} };
  }
  const runButton = h('button', { type: 'button', class: 'primary', 'data-role': 'olympics-run' }, 'Re-check and rank');
  const cancelButton = h('button', { type: 'button', 'data-role': 'olympics-cancel', disabled: true }, 'Cancel');
  const progress = h('progress', { max: '1', value: '0', 'aria-label': 'Olympics re-check progress', 'data-role': 'olympics-progress' });
  const status = h('p', { class: 'status', 'data-role': 'olympics-status', 'aria-live': 'polite' });
  const error = h('p', { class: 'note error', 'data-role': 'olympics-error', role: 'alert', hidden: true });
  const results = h('div', { 'data-role': 'olympics-results' });
  setChildren(
    box,
    h('p', { 'data-role': 'olympics-count' }, `${formatCount(count, 'entry', 'entries')} from ${formatCount(studentCount, 'student')}. Re-checking rebuilds each entry’s model from its pipeline (the baseline, pruned, fine-tuned and quantized as the student’s page did it; entries that share a lineage are rebuilt once), evaluates it on the test split, checks every event’s constraints and the timing’s evidence, and ranks the class. It fetches the Fashion-MNIST files and the baseline model first. The same ranking on the command line: `, h('code', {}, 'node tools/grade.mjs SUBMISSIONS… --out DIR --leaderboard'), '.'),
    h('div', { class: 'controls' }, runButton, cancelButton, progress, status),
    error,
    results,
  );

  const showError = (message) => {
    error.textContent = message ?? '';
    error.hidden = !message;
  };
  const data = createDataStore(bridge, {
    progress: (state) => {
      if (!state || !controller || controller.signal.aborted) return;
      progress.value = state.total ? state.received / state.total : 0;
      status.textContent = `Fetching ${state.what}: ${formatBytes(state.received)} of ${formatBytes(state.total)}…`;
    },
  });

  cancelButton.addEventListener('click', () => {
    if (!controller) return;
    controller.abort();
    // The checks stop between lineages: the one being rebuilt finishes first.
    status.textContent = 'Cancelling…';
  });
  runButton.addEventListener('click', async () => {
    controller = new AbortController();
    const { signal } = controller;
    runButton.disabled = true;
    cancelButton.disabled = false;
    showError(null);
    progress.value = 0;
    const held = [];
    const opts = { where: WHERE };
    // A fetch stops being waited for at Cancel (the data store keeps what arrives for next time).
    const orCancel = (promise) =>
      new Promise((resolve, reject) => {
        if (signal.aborted) reject(new DOMException('cancelled', 'AbortError'));
        signal.addEventListener('abort', () => reject(new DOMException('cancelled', 'AbortError')), { once: true });
        promise.then(resolve, reject);
      });
    try {
      const core = workerOlympicsLab(bridge, { where: WHERE });
      const pretrained = await orCancel(data.pretrained());
      if (!pretrained) throw new Error('this page was built without the pretrained baseline (build/pretrained/fashion_mlp.perflab): build it with tools/lab build');
      const test = await orCancel(data.testSplit());
      const train = await orCancel(data.trainSplit(trainImagesOf(items)));
      const { model } = await lab.loadModelFile(pretrained.bytes, opts);
      held.push(model);
      status.textContent = `Re-checking ${formatCount(count, 'entry', 'entries')}…`;
      progress.value = 0;
      // One "student" per entry, with its file's facts (export time, machine) for the evidence checks.
      const students = items.map(({ entry, ...file }) => ({ ...file, entries: [entry] }));
      const { board, files, problems } = await recheckOlympics(students, {
        lab: core,
        model,
        train: train.dataset,
        test: test.dataset,
        signal,
        onProgress: ({ done, total }) => {
          progress.value = total ? done / total : 1;
          status.textContent = `Re-checked ${done} of ${formatCount(total, 'entry', 'entries')}…`;
        },
      });
      for (const chart of charts) chart.destroy();
      charts = showBoard(results, board, files);
      // Entries whose check call itself failed (core refuses a malformed entry in the board).
      if (problems.length) {
        results.prepend(h('div', { class: 'note error', 'data-role': 'olympics-problems' }, `${formatCount(problems.length, 'entry', 'entries')} could not be checked and are left out:`,
          h('ul', {}, problems.map((p) => h('li', {}, `${p.student}’s ${p.entry}: ${p.reason}`)))));
      }
      progress.value = 1;
      status.textContent = problems.length
        ? `Re-checked ${count - problems.length} of ${formatCount(count, 'entry', 'entries')}; ${problems.length} could not be checked (listed below).`
        : `Re-checked and ranked ${formatCount(count, 'entry', 'entries')} from ${formatCount(studentCount, 'student')}.`;
    } catch (e) {
      if (signal.aborted) status.textContent = 'Cancelled; nothing ranked.';
      else {
        showError(`The Olympics re-check stopped: ${e.message}`);
        status.textContent = '';
      }
    } finally {
      for (const id of held) await lab.dropModel(id, opts).catch(() => {}); // gone already after a restart
      controller = null;
      runButton.disabled = false;
      cancelButton.disabled = true;
    }
  });

  return {
    destroy() {
      controller?.abort();
      for (const chart of charts) chart.destroy();
    },
  };
}
