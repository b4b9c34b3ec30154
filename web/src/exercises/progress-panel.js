// The progress panel: Export of the student's progress as the submission file they hand in,
// Import of such a file (re-graded by core before anything is kept, with what changed said),
// what the browser keeps and under which seed, and the copies kept aside (a changed student
// id, an unreadable save) to download or restore. Not for: the notice about unreadable or
// unsaved progress (progress-notice.js, at the top of the page), the file's format
// (state/submission.js), re-grading (import-regrade.js, web/src/grading/) or the exercises
// themselves (engine.js, card.js).

import { currentCourse } from '../identity/course.js';
import { readJsonText } from '../lab/json-text.js';
import { labOf } from '../lab/client.js';
import { submissionExtras } from '../identity/export.js';
import { getProgressStore } from '../state/progress-store.js';
import { parseSubmission, submissionFileName } from '../state/submission.js';
import { h, nextId, setChildren } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';
import { identityProblem, pageGradingDeps, regradeImport } from './import-regrade.js';
import { restorableEntries, restoreUnreadable } from './progress-notice.js';
import { formatCount } from '../ui/format.js';

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

/**
 * Export / import of the student's progress and the copies kept aside. mountExercises
 * places one under each chapter's exercises; a shell that wants a single panel elsewhere can
 * call this itself. `onChange(progress)` hears successful imports.
 */
export function mountProgressPanel(container, { store = getProgressStore(), bridge, onChange } = {}) {
  const headingId = nextId('pl-progress-heading');
  const message = h('p', { class: 'pl-progress-message', role: 'status', dataset: { role: 'progress-message' } });
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
    const kept = store.keptAside();
    asideList.hidden = kept.length === 0;
    setChildren(asideList,
      kept.length ? h('h4', { text: 'Earlier work kept in this browser' }) : null,
      kept.length ? h('ul', {}, kept.map((k) => (k.kind === 'aside' ? asideItem(k) : unreadableItem(k)))) : null,
    );
  };
  const asideItem = (k) => {
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
  };
  // A save this page could not read (whole, or some entries): Download always, and Restore of
  // what its unreadable entries still hold while they are missing here, re-graded by core.
  const unreadableItem = (k) => {
    const restorable = bridge ? restorableEntries(store, k.text) : [];
    return h('li', { dataset: { role: 'kept-unreadable' } },
      `A save this page could not read (kept ${k.when}${restorable.length ? `; ${restorable.map((u) => u.id).join(', ')} can be restored` : ''}) `,
      h('button', { type: 'button', text: 'Download', onclick: () => downloadText(`perflab-unreadable-${k.when.slice(0, 10)}.json`, k.text, 'application/json') }),
      restorable.length ? ' ' : null,
      restorable.length
        ? h('button', { type: 'button', text: 'Restore', dataset: { role: 'restore-unreadable' }, onclick: () => restoreFrom(`the save kept ${k.when}`, k.text) })
        : null,
    );
  };
  const restoreFrom = async (name, text) => {
    if (importing) return;
    importing = true;
    message.className = 'pl-progress-message';
    message.textContent = `Re-grading what ${name} still holds with core (code is run again)…`;
    try {
      const { added, changes } = await restoreUnreadable({ store, bridge, text });
      message.className = 'pl-progress-message ok';
      message.textContent = `Restored ${added.join(', ')} from ${name}, re-graded by core${changes.length ? ` (${changes.join('; ')})` : ''}.`;
    } catch (err) {
      message.className = 'pl-progress-message error';
      message.textContent = `Nothing was restored from ${name}: ${err.message}. Your progress is unchanged.`;
    } finally {
      importing = false;
    }
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
    // Text that is not JSON is refused with core's reason, naming the place.
    importing = true;
    let json;
    try {
      if (bridge) json = await readJsonText(text, (t) => labOf(bridge).jsonTextProblem(t, { where: 'progress-import' }));
    } catch (err) {
      return refuse([`it could not be read (${err.message})`]);
    } finally {
      importing = false;
    }
    const { submission, problems, migratedFrom } = parseSubmission(text, { complete: false, json });
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
      `Imported ${name}: ${formatCount(count, 'exercise')} with saved work, seed ${store.seed}, every answer re-graded by core`,
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
    renderAside();
  });
  renderExplanation();
  renderAside();
  container.append(
    h(
      'div',
      { class: 'pl-progress', role: 'region', 'aria-labelledby': headingId },
      h('h3', { id: headingId, text: 'Your progress' }),
      explanation,
      h('div', { class: 'pl-ex-row' }, exportButton, importButton, fileInput),
      message,
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
