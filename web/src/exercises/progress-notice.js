// The notice about progress this browser could not read or save, in the header banner where
// the student looks on load (the progress panel sits below a chapter's exercises, thousands
// of pixels down, while the top shows the points): what was kept aside and under which key,
// Download of the text as it was, Restore of what unreadable entries still hold (re-graded
// by core through the import's path, regradeImport, so that no score is taken from the
// damaged text), and Export when new progress cannot be saved (a full storage). Not for: reading or keeping progress (state/progress-store.js) or
// export and import (progress-panel.js).

import { currentCourse } from '../identity/course.js';
import { STORAGE_KEY, salvageProgress } from '../state/progress-store.js';
import { submissionFileName } from '../state/submission.js';
import { hideBanner, showBanner } from '../ui/banner.js';
import { h } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';

/**
 * The unreadable entries of a saved copy's `text` that Restore can bring back into `store`:
 * `[{id, repaired}]`, only when the copy drew the store's variants (the same seed) and only
 * for ids the store holds no entry for (work done since is never overwritten).
 */
export function restorableEntries(store, text) {
  const { progress: copy, unreadable } = salvageProgress(text);
  if (!copy || copy.seed !== store.seed) return [];
  return unreadable.filter((u) => u.repaired && !Object.hasOwn(store.progress.exercises, u.id));
}

/**
 * Re-grades what the unreadable entries of `text` still hold (their answers and code, with
 * core's scores, never the copy's) and adds them to `store`. Resolves with
 * `{added, changes}` (the ids added, what the re-grade changed in words); rejects with an
 * Error saying why nothing was restored.
 */
export async function restoreUnreadable({ store, bridge, text }) {
  if (!store || typeof store.restoreEntries !== 'function') throw new TypeError('restoreUnreadable: store must be a progress store');
  if (!bridge) throw new TypeError('restoreUnreadable: the lab bridge is needed to re-grade');
  if (typeof text !== 'string') throw new TypeError(`restoreUnreadable: text must be the saved copy's text, got ${typeof text}`);
  const entries = restorableEntries(store, text);
  if (entries.length === 0) throw new Error('nothing in this copy can be restored here (no readable answer or code, other variants, or already restored)');
  const { progress: copy } = salvageProgress(text);
  // The re-grading (core, the sandbox) loads only when a student asks for it.
  const { identityProblem, pageGradingDeps, regradeImport } = await import('./import-regrade.js');
  const course = currentCourse();
  const mismatch = identityProblem(copy, course);
  if (mismatch) throw new Error(mismatch);
  const submission = { ...copy, exercises: Object.fromEntries(entries.map((u) => [u.id, u.repaired])) };
  const outcome = await regradeImport(submission, { deps: pageGradingDeps(bridge), course });
  if (outcome.progress.seed !== store.seed) {
    throw new Error(`core re-grades this copy with seed ${outcome.progress.seed}, and your variants now come from seed ${store.seed}`);
  }
  return { added: store.restoreEntries(outcome.progress.exercises), changes: outcome.changes };
}

/**
 * Shows the store's notice in `banner` (the header's [data-role="progress-notice"]) and keeps
 * it current. `bridge` re-grades a Restore; without one only Download is offered.
 */
export function mountProgressNotice(banner, { store, bridge = null }) {
  if (!(banner instanceof Element)) throw new TypeError('mountProgressNotice: banner must be an element of the page');
  if (!store || typeof store.subscribe !== 'function') throw new TypeError('mountProgressNotice: store must be a progress store');
  const status = h('p', { role: 'status', dataset: { role: 'restore-status' } });
  let restoring = false;

  const restore = async () => {
    if (restoring) return;
    restoring = true;
    status.className = '';
    status.textContent = 'Re-grading the unreadable entries with core (code is run again)…';
    render();
    try {
      const { added, changes } = await restoreUnreadable({ store, bridge, text: store.corrupt.text });
      status.className = 'ok';
      status.textContent =
        `Restored ${added.join(', ')}: the answers and code they still held, re-graded by core` +
        `${changes.length ? ` (${changes.join('; ')})` : ''}. The copy stays under "${store.corrupt.key}".`;
    } catch (err) {
      status.className = 'error';
      status.textContent = `Nothing was restored: ${err.message}. Your progress is unchanged.`;
    } finally {
      restoring = false;
      render();
    }
  };

  // The same file as the progress panel's Export, offered here when saving fails: the panel
  // sits below a chapter's exercises, and a student who cannot save needs it now.
  const exportProgress = async () => {
    try {
      const { submissionExtras } = await import('../identity/export.js');
      const submission = store.exportSubmission(await submissionExtras(bridge));
      const name = submissionFileName(submission);
      downloadText(name, `${JSON.stringify(submission, null, 2)}\n`, 'application/json');
      status.className = 'ok';
      status.textContent = `Exported ${name}. Import restores it here or in another browser.`;
    } catch (err) {
      status.className = 'error';
      status.textContent = `Export failed: ${err.message}`;
    }
    render();
  };

  const render = () => {
    if (!store.notice) {
      hideBanner(banner);
      return;
    }
    const corrupt = store.corrupt;
    // Restore writes the saved progress, so it is offered only once the copy is safe elsewhere.
    const canRestore = Boolean(bridge && corrupt?.entries && corrupt.key !== STORAGE_KEY && restorableEntries(store, corrupt.text).length);
    showBanner(
      banner,
      [
        h('p', { text: store.notice }),
        canRestore
          ? h('p', { text: 'Restore brings back the answers and code those entries still hold, re-graded by core; a count that cannot be read starts again from what the answers imply.' })
          : null,
        h(
          'div',
          { class: 'pl-notice-actions' },
          corrupt
            ? h('button', {
                type: 'button',
                text: 'Download the saved copy',
                dataset: { role: 'download-unreadable' },
                onclick: () => downloadText('perflab-progress-unreadable.json', corrupt.text, 'application/json'),
              })
            : null,
          canRestore || restoring
            ? h('button', { type: 'button', text: 'Restore the unreadable entries', dataset: { role: 'restore-unreadable' }, disabled: restoring, onclick: restore })
            : null,
          store.cannotSave
            ? h('button', { type: 'button', text: 'Export progress', dataset: { role: 'notice-export' }, onclick: exportProgress })
            : null,
          h('button', {
            type: 'button',
            text: 'Dismiss',
            onclick: () => {
              store.dismissNotice();
              shown = null;
              render();
            },
          }),
        ),
        status.textContent ? status : null,
      ],
      'warn',
    );
  };

  // Every saved keystroke of a code draft is an update: re-render (and re-announce the alert)
  // only when the notice changed or the update touched an entry Restore would bring back.
  let shown = store.notice;
  const unsubscribe = store.subscribe((_progress, { reason, id }) => {
    const touched = reason !== 'update' || store.corrupt?.entries?.includes(id);
    if (store.notice === shown && !touched) return;
    shown = store.notice;
    render();
  });
  render();
  return {
    destroy() {
      unsubscribe();
      hideBanner(banner);
    },
  };
}
