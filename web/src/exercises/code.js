// The JavaScript code control: a CodeMirror editor holding the student's draft (saved
// shortly after typing stops), Run tests / Stop / Reset, and a run of the code in a fresh
// sandbox worker per run on the variant's tests, whose results go to core for the grade. A
// run stopped by the student counts nothing; a run past the time limit is graded with the
// unfinished tests timed out. Not for: grading (core) or the sandbox itself (lab/sandbox.js).

import { javascript } from '@codemirror/lang-javascript';
import { createCodeEditor } from '../code-editor.js';
import { SandboxStoppedError, runInSandbox } from '../lab/sandbox.js';
import { h, nextId } from '../ui/dom.js';
import { formatSeconds } from './logic.js';
import { formatCount } from '../ui/format.js';

const DRAFT_SAVE_DELAY_MS = 400;

/** The controls of a code exercise; the editor and any run under way stop with the card's cleanups. */
export function codeControls({ ex, variant, entry, ids, grade, showGrade, showError, clearError, store, cleanups }) {
  const labelId = nextId('pl-ex-editor-label');
  const tests = variant.tests ?? [];
  const initial = entry.code ?? ex.starter_code ?? '';

  // Drafts are saved shortly after typing stops, and at once when the page is left
  // (createCodeEditor's onSave).
  const saveDraft = (code) => {
    if (store.entry(ex.id).code === code) return;
    try {
      store.update(ex.id, { code });
    } catch (err) {
      showError(`Your code could not be saved: ${err.message}`);
    }
  };

  const run = h('button', { type: 'button', class: 'primary', text: 'Run tests', dataset: { role: 'run' } });
  const stop = h('button', { type: 'button', text: 'Stop', dataset: { role: 'stop' }, hidden: true });
  const reset = h('button', {
    type: 'button',
    text: 'Reset to starter code',
    title: 'Replaces your code with the starter code; Ctrl+Z brings yours back.',
  });
  const runStatus = h('span', { class: 'status', role: 'status', dataset: { role: 'run-status' } });
  const editorHost = h('div', { class: 'pl-ex-editor', dataset: { role: 'editor' } });

  let controller = null;
  const setRunning = (text) => {
    const busy = text !== null;
    run.disabled = busy;
    reset.disabled = busy;
    stop.hidden = !busy || text === 'Grading…';
    runStatus.textContent = busy ? text : '';
  };

  const runTests = async () => {
    if (controller) return;
    clearError();
    editor.flush();
    const code = editor.text();
    controller = new AbortController();
    setRunning(`Running ${tests.length} tests (stopped after ${formatSeconds(ex.time_limit_ms)})…`);
    let outcome;
    try {
      outcome = await runInSandbox({
        code,
        functionName: ex.function_name,
        tests,
        timeLimitMs: ex.time_limit_ms,
        signal: controller.signal,
      });
    } catch (err) {
      controller = null;
      setRunning(null);
      if (err instanceof SandboxStoppedError) runStatus.textContent = 'Stopped. Nothing was graded and no attempt was counted.';
      else showError(err.message);
      return;
    }
    setRunning('Grading…');
    try {
      const answer = { results: outcome.results };
      const graded = await grade(answer, code);
      const extra = [];
      if (outcome.timed_out) {
        extra.push(
          h('p', {
            class: 'note warn pl-ex-timeout',
            dataset: { role: 'timeout' },
            text: `Your code was still running after ${formatSeconds(ex.time_limit_ms)} and was stopped (an endless loop?). Tests that had not finished count as timed out.`,
          }),
        );
      }
      if (outcome.logs.length) {
        extra.push(
          h(
            'details',
            { class: 'pl-ex-console' },
            h('summary', { text: `Console output (${formatCount(outcome.logs.length, 'line')})` }),
            h('pre', { text: outcome.logs.join('\n') }),
          ),
        );
      }
      showGrade(graded, extra);
      setRunning(null);
    } catch (err) {
      setRunning(null);
      showError(`Your code ran, but the results could not be graded: ${err.message}`);
    } finally {
      controller = null;
    }
  };

  const editor = createCodeEditor({
    parent: editorHost,
    doc: initial,
    language: javascript(),
    onRun: runTests,
    onSave: saveDraft,
    saveDelayMs: DRAFT_SAVE_DELAY_MS,
    labelledBy: labelId,
    describedBy: `${ids.note} ${ids.error}`,
  });

  run.addEventListener('click', runTests);
  stop.addEventListener('click', () => controller?.abort());
  reset.addEventListener('click', () => {
    editor.setText(ex.starter_code ?? '');
    editor.view.focus();
  });
  cleanups.push(({ saveDraft: keep }) => {
    controller?.abort();
    editor.destroy({ save: keep });
  });

  // Public examples show the expected value and the call when they fail; hidden tests
  // (core marks them) say only what failed; a timed test shows its timings.
  const examples = tests.filter((t) => !t.hidden && !t.benchmark);
  const hidden = tests.filter((t) => t.hidden).length;
  const timed = tests.filter((t) => t.benchmark);
  const testList = [
    examples.length ? `${formatCount(examples.length, 'example')} (${examples.map((t) => t.name).join(', ')}), shown with the expected value when one fails` : null,
    hidden ? `${formatCount(hidden, 'hidden test')}, which say only what failed` : null,
    timed.length ? `${formatCount(timed.length, 'timed test')} (${timed.map((t) => t.name).join(', ')})` : null,
  ].filter(Boolean).join('; ');
  return h(
    'div',
    { class: 'pl-ex-form' },
    h('p', { class: 'pl-ex-label', id: labelId, text: `Your code: define ${ex.function_name}(…) in JavaScript` }),
    editorHost,
    h('div', { class: 'pl-ex-row' }, run, stop, reset, runStatus),
    h('p', {
      class: 'hint',
      id: ids.note,
      dataset: { role: 'test-list' },
      text: `Runs in a separate worker on ${tests.length} tests: ${testList}. A re-grade runs the hidden tests on new inputs. Stopped after ${formatSeconds(ex.time_limit_ms)}; Ctrl+Enter runs the tests.`,
    }),
  );
}
