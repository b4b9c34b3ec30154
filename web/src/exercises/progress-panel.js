// The progress panel: Export of the student's progress as the submission file they hand in,
// Import of such a file (re-graded by core before anything is kept, with what changed said),
// what the browser keeps and under which seed, any notice about unreadable or unsaved
// progress, and the copies kept aside (a changed student id, an unreadable save) to download
// or restore. Not for: the file's format (state/submission.js), re-grading
// (import-regrade.js, web/src/grading/) or the exercises themselves (engine.js, card.js).

import { currentCourse } from '../identity/course.js';
import { submissionExtras } from '../identity/export.js';
import { getProgressStore } from '../state/progress-store.js';
import { parseSubmission, submissionFileName } from '../state/submission.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';
import { identityProblem, pageGradingDeps, regradeImport } from './import-regrade.js';

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * Export / import of the student's progress, and any notice about unreadable or unsaved
 * progress. mountExercises places one under each chapter's exercises; a shell that wants a
 * single panel elsewhere can call this itself. `onChange(progress)` hears successful imports.
 */
export function mountProgressPanel(container, { store = getProgressStore(), bridge, onChange } = {}) {
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
  const asideList = h('div', { class: 'pl-progress-aside', dataset: { role: 'kept-aside' } });

  const renderExplanation = () => {
    const who = store.student ? `${store.student.id} in ${store.course?.title ?? 'the course'}, ` : '';
    explanation.textContent =
      `Saved in this browser as you work (${who}your exercise variants come from seed ${store.seed}). ` +
      'Export saves the file you hand in; Import brings one back here or in another browser, re-graded.';
  };
  const renderAside = () => {
    const kept = store.keptAside().filter((k) => k.kind === 'aside');
    asideList.hidden = kept.length === 0;
    setChildren(asideList,
      kept.length ? h('h4', { text: 'Earlier work kept in this browser' }) : null,
      kept.length
        ? h('ul', {}, kept.map((k) => {
            let label = k.when;
            try {
              const p = JSON.parse(k.text);
              label = `${p.student ? `${p.student.id}, ` : 'practice mode, '}seed ${p.seed}, ${Object.keys(p.exercises ?? {}).length} exercises (set aside ${k.when})`;
            } catch {
              // The label falls back to the time; Download still gives the text.
            }
            return h('li', {},
              `${label} `,
              h('button', { type: 'button', text: 'Download', onclick: () => downloadText(`perflab-kept-${k.when.slice(0, 10)}.json`, k.text, 'application/json') }),
              ' ',
              h('button', { type: 'button', text: 'Restore', dataset: { role: 'restore-aside' }, onclick: () => importFrom(`the copy set aside ${k.when}`, k.text) }),
            );
          }))
        : null,
    );
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

  exportButton.addEventListener('click', async () => {
    exportButton.disabled = true;
    try {
      const submission = store.exportSubmission(await submissionExtras(bridge));
      downloadText(submissionFileName(submission), `${JSON.stringify(submission, null, 2)}\n`, 'application/json');
      message.className = 'pl-progress-message';
      message.textContent = `Exported ${submissionFileName(submission)}. Hand it in, or keep it: Import restores it here or in another browser.`;
    } catch (err) {
      message.className = 'pl-progress-message error';
      message.textContent = `Export failed: ${err.message}`;
    } finally {
      exportButton.disabled = false;
    }
  });
  importButton.addEventListener('click', () => fileInput.click());

  // Parse, check the identity, re-grade with core, then keep: any failure before the last
  // step changes nothing.
  let importing = false;
  async function importFrom(name, text) {
    if (importing) return;
    const refuse = (problems) => {
      message.className = 'pl-progress-message error';
      setChildren(message,
        h('strong', { text: `Import refused: ${name} ` }),
        problems.length === 1 ? `${problems[0]}.` : h('ul', {}, problems.slice(0, 8).map((p) => h('li', { text: p }))),
        problems.length > 8 ? h('p', { text: `…and ${problems.length - 8} more problems.` }) : null,
        h('p', { text: 'Your progress is unchanged.' }),
      );
    };
    const { submission, problems, migratedFrom } = parseSubmission(text, { complete: false });
    if (!submission) return refuse(problems);
    const mismatch = identityProblem(submission, currentCourse());
    if (mismatch) return refuse([mismatch]);
    importing = true;
    importButton.disabled = true;
    message.className = 'pl-progress-message';
    message.textContent = `Re-grading ${name} with core (code is run again)…`;
    let outcome;
    try {
      outcome = await regradeImport(submission, { deps: pageGradingDeps(bridge), course: currentCourse() });
    } catch (err) {
      return refuse([`it could not be re-graded (${err.message})`]);
    } finally {
      importing = false;
      importButton.disabled = false;
    }
    const { asideKey } = store.replace(outcome.progress);
    const count = Object.keys(store.progress.exercises).length;
    message.className = 'pl-progress-message ok';
    setChildren(message,
      `Imported ${name}: ${count} ${count === 1 ? 'exercise' : 'exercises'} with saved work, seed ${store.seed}, every answer re-graded by core`,
      migratedFrom ? ` (a version ${migratedFrom} file, read as practice mode)` : '',
      '. ',
      outcome.changes.length
        ? h('ul', { dataset: { role: 'import-changes' } }, outcome.changes.map((c) => h('li', { text: `${c[0].toUpperCase()}${c.slice(1)}.` })))
        : h('span', { dataset: { role: 'import-changes' }, text: 'Every score in the file re-graded as claimed.' }),
      asideKey ? h('p', { text: `The work it replaced was kept aside in this browser under "${asideKey}".` }) : null,
    );
    onChange?.(store.progress);
  }

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    fileInput.value = '';
    if (!file) return;
    if (file.size > MAX_IMPORT_BYTES) {
      importRefusal(file.name, `the file is ${(file.size / 1e6).toFixed(1)} MB; a progress file is at most ${MAX_IMPORT_BYTES / 1e6} MB`);
      return;
    }
    let text;
    try {
      text = await file.text();
    } catch (err) {
      importRefusal(file.name, `the file could not be read (${err.message})`);
      return;
    }
    await importFrom(file.name, text);
  });
  const importRefusal = (name, problem) => {
    message.className = 'pl-progress-message error';
    setChildren(message, h('strong', { text: `Import refused: ${name} ` }), `${problem}.`, h('p', { text: 'Your progress is unchanged.' }));
  };

  const unsubscribe = store.subscribe(() => {
    renderExplanation();
    renderNotice();
    renderAside();
  });
  renderExplanation();
  renderNotice();
  renderAside();
  container.append(
    h(
      'div',
      { class: 'pl-progress', role: 'region', 'aria-labelledby': headingId },
      h('h3', { id: headingId, text: 'Your progress' }),
      explanation,
      h('div', { class: 'pl-ex-row' }, exportButton, importButton, fileInput),
      message,
      notice,
      asideList,
    ),
  );
  return {
    destroy() {
      unsubscribe();
      container.replaceChildren();
    },
  };
}
