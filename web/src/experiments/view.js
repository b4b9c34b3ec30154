// The experiment section's elements, built once from a spec: title, explanation, the
// machine-info slot, the quick-mode note, controls with Run, Cancel, progress and status,
// the error, notes, analysis, charts, table and Download CSV. experiment.js fills them from
// the runner's state. Not for: behaviour (experiment.js), the run (runner.js).

import { BarChart } from '../charts/bar-chart.js';
import { LineChart } from '../charts/line-chart.js';
import { ScatterChart } from '../charts/scatter-chart.js';
import { h } from '../ui/dom.js';
import { createTable } from '../ui/table.js';

/** Chart `type` names a spec may use; a spec may also pass a class with the same API. */
export const CHART_TYPES = Object.freeze({ line: LineChart, bar: BarChart, scatter: ScatterChart });

// A string (or each string of an array) is HTML written by us, so formulas can use <code>.
// A function is given {quick, info} (info null until init's facts arrive, e.g. core's plan).
function explanationNodes(explanation, ctx) {
  if (explanation === undefined || explanation === null) return [];
  if (typeof explanation === 'function') return explanationNodes(explanation(ctx), ctx);
  if (explanation instanceof Node) return [explanation];
  if (Array.isArray(explanation)) return explanation.flatMap((e) => explanationNodes(e, ctx));
  return [h('p', { html: String(explanation) })];
}

/**
 * @param {object} spec a checked spec
 * @param {{fields: object[], quick: boolean, domId: (suffix: string) => string}} o
 * @returns {object} the section and its parts (buttons, boxes, table, chartBlocks)
 */
export function experimentView(spec, { fields, quick, domId }) {
  const runButton = h('button', { type: 'button', class: 'primary', 'data-action': 'run', text: 'Run' });
  runButton.disabled = !fields.every((f) => f.ready());
  const cancelButton = h('button', { type: 'button', 'data-action': 'cancel', text: 'Cancel' });
  cancelButton.disabled = true;
  const progress = h('progress', { max: '1', value: '0', 'aria-label': 'sweep progress', 'data-role': 'progress' });
  const status = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': 'status', text: 'Not run yet.' });
  const errorBox = h('p', { class: 'error', role: 'alert', 'data-role': 'error' });
  errorBox.hidden = true;
  const resultNote = h('p', { class: 'result-note', 'data-role': 'result-note' });
  resultNote.hidden = true;
  // After a run whose rows carry timer warnings: points at Measure longer.
  const measureHint = h('p', { class: 'note', 'data-role': 'measure-hint', 'aria-live': 'polite' });
  measureHint.hidden = true;
  const infoSlot = h('div', { class: 'experiment-info', 'data-role': 'info' });
  // What core concluded from the rows (spec.analyze, rendered by spec.renderAnalysis).
  const analysisBox = h('div', { class: 'experiment-analysis', 'data-role': 'analysis', 'aria-live': 'polite' });
  analysisBox.hidden = true;
  const table = createTable(spec.columns, { caption: typeof spec.tableCaption === 'function' ? ' ' : spec.tableCaption, role: 'table' });
  const csvButton = h('button', { type: 'button', 'data-action': 'csv', text: 'Download CSV' });
  csvButton.disabled = true;

  // The texts a spec may give as functions of {quick, info} (numbers of core's plan), drawn
  // now with info null and again by refreshTexts(ctx) when init's facts arrive.
  const textOf = (text, ctx) => (typeof text === 'function' ? text(ctx) : text);
  let explanation = explanationNodes(spec.explanation, { quick, info: null });
  const quickNote = quick ? h('p', { class: 'note', 'data-role': 'quick-note' }) : null;
  const caption = typeof spec.tableCaption === 'function' ? table.element.querySelector('caption') : null;
  const heading = h('h3', { id: domId('title') });
  function refreshTexts(ctx) {
    const at = { quick, info: ctx?.info ?? null };
    heading.textContent = textOf(spec.title, at);
    if (quickNote) {
      quickNote.textContent =
        textOf(spec.quickNote, at) ??
        'Quick mode (?quick=1 in the address): fewer points and smaller time budgets, so the ' +
          'numbers are noisier. Remove it for the full sweep.';
    }
    if (caption) caption.textContent = spec.tableCaption(at) ?? '';
    // The explanation's paragraphs sit right above the info slot.
    if (typeof spec.explanation === 'function' && infoSlot.parentNode) {
      for (const node of explanation) node.remove();
      explanation = explanationNodes(spec.explanation, at);
      infoSlot.before(...explanation);
    }
  }
  refreshTexts(null);

  const chartBlocks = (spec.charts ?? []).map((cs, i) => {
    const box = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': cs.name ?? String(i) });
    return { cs, box, title: cs.title ? h('h4', { class: 'chart-title', text: cs.title }) : null };
  });

  const section = h(
    'section',
    { class: 'experiment', 'aria-labelledby': domId('title'), 'data-experiment': spec.id, 'data-state': 'idle' },
    heading,
    ...explanation,
    infoSlot,
    quickNote ?? '',
    h('div', { class: 'controls' }, ...fields.map((f) => f.field), runButton, cancelButton, progress, status),
    ...fields.map((f) => f.hint).filter(Boolean),
    errorBox,
    resultNote,
    measureHint,
    analysisBox,
    ...chartBlocks.flatMap((b) => [b.title, b.box].filter(Boolean)),
    h('div', { class: 'table-wrap' }, table.element),
    h('div', { class: 'actions' }, csvButton),
  );
  return {
    section,
    runButton,
    cancelButton,
    progress,
    status,
    errorBox,
    resultNote,
    measureHint,
    infoSlot,
    analysisBox,
    table,
    csvButton,
    chartBlocks,
    refreshTexts,
  };
}
