// The progress panel: Export and Import of the student's progress as a file, what the
// browser keeps and under which seed, and any notice about unreadable or unsaved progress
// (with the unreadable copy to download). Not for: checking an imported file (the progress
// store does) or the exercises themselves (engine.js, card.js).

import { exportFileName, getProgressStore } from '../state/progress-store.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * Export / import of the student's progress, and any notice about unreadable or unsaved
 * progress. mountExercises places one under each chapter's exercises; a shell that wants a
 * single panel elsewhere can call this itself. `onChange(progress)` hears successful imports.
 */
export function mountProgressPanel(container, { store = getProgressStore(), onChange } = {}) {
  const headingId = nextId('pl-progress-heading');
  const message = h('p', { class: 'pl-progress-message', role: 'status', dataset: { role: 'progress-message' } });
  const notice = h('div', { class: 'note warn pl-progress-notice', role: 'alert', dataset: { role: 'progress-notice' }, hidden: true });
  const fileInput = h('input', {
    type: 'file',
    accept: '.json,application/json',
    hidden: true,
    'aria-label': 'Progress file to import',
    dataset: { role: 'import-file' },
  });
  const exportButton = h('button', { type: 'button', text: 'Export progress', dataset: { role: 'export' } });
  const importButton = h('button', { type: 'button', text: 'Import progress…', dataset: { role: 'import' } });
  const explanation = h('p', { class: 'hint' });

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
      h('p', { text: store.notice }),
      h(
        'div',
        { class: 'pl-ex-row' },
        corrupt
          ? h('button', {
              type: 'button',
              text: 'Download the unreadable copy',
              onclick: () => downloadText('perflab-progress-unreadable.json', corrupt.text, 'application/json'),
            })
          : null,
        h('button', {
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
      downloadText(exportFileName(), store.exportText(), 'application/json');
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
        h('strong', { text: `Import refused: ${file.name} ` }),
        problems.length === 1 ? `${problems[0]}.` : h('ul', {}, problems.slice(0, 8).map((p) => h('li', { text: p }))),
        problems.length > 8 ? h('p', { text: `…and ${problems.length - 8} more problems.` }) : null,
        h('p', { text: 'Your progress is unchanged.' }),
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
    h(
      'div',
      { class: 'pl-progress', role: 'region', 'aria-labelledby': headingId },
      h('h3', { id: headingId, text: 'Your progress' }),
      explanation,
      h('div', { class: 'pl-ex-row' }, exportButton, importButton, fileInput),
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
