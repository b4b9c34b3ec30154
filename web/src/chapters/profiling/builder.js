// The Profiling chapter's model builder: a CodeMirror JSON editor holding a model spec
// (saved in localStorage), a zoo picker and an MLP-widths field that load specs from core,
// and Profile / Cancel, which run core's profileModel in the lab worker and print the
// totals (beside the original course's estimates), the per-layer table and the top
// operations. Not for: counting or timing anything (core), or pure helpers (builder-data.js).

import { json } from '@codemirror/lang-json';
import { createCodeEditor } from '../../code-editor.js';
import { BarChart } from '../../charts/bar-chart.js';
import { h } from '../../ui/dom.js';
import { formatElapsed } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { labOf } from '../../lab/client.js';
import { MEASURE_LONGER, MEASURE_LONGER_CONTROLS } from '../../experiments/model.js';
import { machineProbeStore, probeTime } from '../../state/machine-probe.js';
import { probeLine } from '../../ui/probe-line.js';
import {
  DEFAULT_SPEC_TEXT,
  LAYER_CAPTION,
  LAYER_COLUMNS,
  formatSpec,
  layerReferenceRows,
  passesText,
  parseBatch,
  parseWidths,
  profileOptions,
  readSavedSpec,
  saveSpec,
  staleResultsText,
  topOperationBars,
  topOperationColumns,
  totalsRows,
  zooNoteText,
} from './builder-data.js';

const SAVE_DELAY_MS = 400;
const LAYER_REFERENCE_COLUMNS = [
  { key: 'type', label: 'type', format: 'text' },
  { key: 'fields', label: 'fields (= default when optional)', format: 'text' },
];

// The totals: a row header, the lab's figure (with its note) and the original course's
// estimate, grouped; a figure that needs a second look is a warned row.
const TOTALS_COLUMNS = [
  { label: '', rowHeader: true, format: (r) => r.label },
  {
    label: 'counted or measured by this lab',
    cell: (r) => [
      h('span', { text: r.value, 'data-quantity': r.quantity, 'data-label': r.quantity ? r.label : undefined, 'data-probe-at': r.probeAt ?? undefined }),
      r.note ? h('span', { class: 'cell-note', text: r.note }) : null,
    ],
  },
  { label: 'the original course’s estimate', className: 'estimate', format: (r) => r.estimate ?? '' },
];

function totalsTable(profile, judged) {
  const table = createTable(TOTALS_COLUMNS, { className: 'totals', role: 'totals', rowClass: (r) => (r.warn ? 'warn' : undefined) });
  table.setGroups(totalsRows(profile, judged));
  return table.element;
}

/** A bottleneck verdict and the probe it was judged against, for totalsRows. */
const judgedBy = (reason, entry) => ({ reason, probeTime: probeTime(entry.measured_at_ms), probeAt: String(entry.measured_at_ms) });

/**
 * @param {HTMLElement} container
 * @param {{bridge: {call: Function}, quick?: boolean, storage?: Storage}} ctx
 */
export function mountBuilder(container, { bridge, quick = false, storage = globalThis.localStorage }) {
  const zooSelect = h('select', { id: 'builder-zoo' }, h('option', { value: '', text: 'loading the zoo…' }));
  zooSelect.disabled = true;
  const loadZoo = h('button', { type: 'button', 'data-action': 'load-zoo', text: 'Load into editor' });
  loadZoo.disabled = true;
  const widthsInput = h('input', { id: 'builder-widths', type: 'text', value: '784, 256, 128, 10', size: 22, spellcheck: 'false' });
  const mlpBatch = h('input', { id: 'builder-mlp-batch', type: 'number', value: '64', min: '1', max: '4096', class: 'number' });
  const buildMlp = h('button', { type: 'button', 'data-action': 'build-mlp', text: 'Build MLP' });
  const pickerError = h('p', { class: 'error', role: 'alert', 'data-role': 'picker-error' });
  pickerError.hidden = true;
  const zooNote = h('p', { class: 'hint', 'data-role': 'zoo-description' });

  const editorHost = h('div', { class: 'builder-editor', 'data-role': 'editor', id: 'builder-editor' });
  const specError = h('p', { class: 'error spec-error', role: 'alert', 'data-role': 'spec-error', id: 'builder-spec-error' });
  specError.hidden = true;
  const saveNote = h('p', { class: 'hint', 'data-role': 'save-note', text: 'Your spec is kept in this browser, so a reload keeps it.' });
  // The layer types and fields, from the table core's parser checks specs against.
  const referenceBody = h('div', { 'data-role': 'layer-reference' }, h('p', { class: 'hint', text: 'Loading the layer types…' }));
  const reference = h(
    'details',
    { class: 'layer-reference' },
    h('summary', { text: 'Layer types and the fields each takes' }),
    h('p', {
      class: 'hint',
      html: 'Each layer is an object with its <code>type</code> and these fields; <code>input</code> is the shape with the batch first, e.g. <code>[64, 784]</code>. The list is core’s own, the one its errors quote.',
    }),
    referenceBody,
  );

  const batchInput = h('input', { id: 'builder-batch', type: 'text', inputmode: 'numeric', size: 6, placeholder: 'spec’s', 'aria-describedby': 'builder-batch-error' });
  const batchError = h('span', { class: 'field-error', id: 'builder-batch-error', 'data-role': 'field-error' });
  batchError.hidden = true;
  // The experiments' Measure longer, the remedy core's timer warnings name.
  const longerSelect = h(
    'select',
    { id: 'builder-measure-longer' },
    ...MEASURE_LONGER.options.map((o) => h('option', { value: o.value, text: o.label, title: o.title })),
  );
  longerSelect.value = MEASURE_LONGER.default;
  const profileButton = h('button', { type: 'button', class: 'primary', 'data-action': 'profile', text: 'Profile' });
  const cancelButton = h('button', { type: 'button', 'data-action': 'cancel-profile', text: 'Cancel' });
  cancelButton.disabled = true;
  const status = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': 'profile-status', text: 'Not profiled yet.' });

  // The page's machine probe: the roofs the bottleneck verdict is judged against.
  const probes = machineProbeStore(bridge);
  const probeBox = probeLine(probes, { where: 'builder-reprobe' });

  const results = h('div', { class: 'builder-results', 'data-role': 'results' });
  // Over results a failed profile left standing: they are of the previous model.
  const staleNote = h('p', { class: 'note warn', role: 'status', 'data-role': 'stale-results', hidden: true });
  results.hidden = true;
  const chartBox = h('div', { class: 'chart', 'data-role': 'top-ops-chart' });

  const section = h(
    'section',
    { class: 'builder', 'data-role': 'builder', 'aria-labelledby': 'builder-title', 'data-state': 'idle' },
    h('h3', { id: 'builder-title', text: 'Model builder: profile a model' }),
    h('p', {
      html:
        'Write a model spec (JSON: an <code>input</code> shape with the batch first, then <code>layers</code>), ' +
        'or start from the zoo or an MLP, and press <b>Profile</b>. Core counts parameters and FLOPs, ' +
        'runs the model on this CPU to time it, and watches the allocator to measure memory.',
    }),
    h(
      'div',
      { class: 'controls builder-pickers' },
      h('span', { class: 'field' }, h('label', { for: 'builder-zoo', text: 'Zoo model ' }), zooSelect),
      loadZoo,
    ),
    zooNote,
    h(
      'div',
      { class: 'controls builder-pickers' },
      h('span', { class: 'field' }, h('label', { for: 'builder-widths', text: 'Or an MLP with layer widths ' }), widthsInput),
      h('span', { class: 'field' }, h('label', { for: 'builder-mlp-batch', text: 'at batch ' }), mlpBatch),
      buildMlp,
    ),
    pickerError,
    h('label', { class: 'editor-label', for: 'builder-editor', id: 'builder-editor-label', text: 'Model spec (JSON)' }),
    editorHost,
    specError,
    saveNote,
    reference,
    h(
      'div',
      { class: 'controls' },
      h('span', { class: 'field' }, h('label', { for: 'builder-batch', text: 'Batch ' }), batchInput, batchError),
      h('span', { class: 'field', 'data-control': 'measure-longer' }, h('label', { for: 'builder-measure-longer', text: `${MEASURE_LONGER.label} ` }), longerSelect),
      profileButton,
      cancelButton,
      status,
    ),
    probeBox,
    results,
  );
  container.append(section);

  // ---- the editor, saved shortly after typing stops ----
  const editor = createCodeEditor({
    parent: editorHost,
    doc: readSavedSpec(storage) ?? DEFAULT_SPEC_TEXT,
    language: json(),
    onRun: () => profile(),
    onSave: (text) => {
      describeZoo();
      const problem = saveSpec(storage, text);
      saveNote.textContent = problem ?? 'Your spec is kept in this browser, so a reload keeps it.';
      saveNote.classList.toggle('warn', Boolean(problem));
    },
    saveDelayMs: SAVE_DELAY_MS,
    labelledBy: 'builder-editor-label',
    describedBy: 'builder-spec-error',
    minHeight: '12rem',
  });
  // One transaction, so Ctrl+Z brings the student's own spec back.
  const setEditorText = (text) => editor.setText(text);

  function showPickerError(err) {
    pickerError.textContent = err ? `Error: ${err.message ?? err}` : '';
    pickerError.hidden = !err;
  }

  // ---- the zoo and the MLP builder: specs come from core ----
  let zoo = [];
  const describeZoo = () => {
    const entry = zoo.find((m) => m.name === zooSelect.value);
    zooNote.textContent = zooNoteText(entry, editor.text());
  };
  labOf(bridge)
    .zooModels({ where: 'builder-zoo' })
    .then((models) => {
      zoo = models;
      zooSelect.replaceChildren(...models.map((m) => h('option', { value: m.name, text: m.name })));
      zooSelect.value = models.some((m) => m.name === 'mlp_784') ? 'mlp_784' : models[0]?.name ?? '';
      zooSelect.disabled = false;
      loadZoo.disabled = false;
      describeZoo();
      section.dataset.zoo = 'ready';
    })
    .catch((err) => {
      zooSelect.replaceChildren(h('option', { value: '', text: 'zoo unavailable' }));
      showPickerError(err);
    });
  zooSelect.addEventListener('change', describeZoo);
  labOf(bridge)
    .layerTypes({ where: 'builder-layer-types' })
    .then((types) => {
      referenceBody.replaceChildren(h('div', { class: 'table-wrap' }, createTable(LAYER_REFERENCE_COLUMNS, { rows: layerReferenceRows(types) }).element));
    })
    .catch((err) => {
      referenceBody.replaceChildren(h('p', { class: 'error', role: 'alert', text: `Error: the layer types could not be read (${err.message}).` }));
    });
  loadZoo.addEventListener('click', () => {
    const entry = zoo.find((m) => m.name === zooSelect.value);
    if (!entry) return;
    showPickerError(null);
    setEditorText(formatSpec(entry.spec));
  });
  buildMlp.addEventListener('click', async () => {
    const parsed = parseWidths(widthsInput.value);
    const batch = parseBatch(mlpBatch.value);
    const problem = parsed.problem ?? batch.problem ?? (batch.batch === null ? 'MLP batch: enter an integer from 1 to 4096' : null);
    if (problem) {
      showPickerError(new Error(problem));
      return;
    }
    showPickerError(null);
    try {
      const spec = await labOf(bridge).mlpSpec(parsed.widths, batch.batch, { where: 'builder-mlp' });
      setEditorText(formatSpec(spec));
    } catch (err) {
      showPickerError(err);
    }
  });

  // ---- Profile and Cancel ----
  let controller = null;
  let ticker = null;
  let chart = null;

  function setBusy(busy) {
    profileButton.disabled = busy;
    cancelButton.disabled = !busy;
    buildMlp.disabled = busy;
    loadZoo.disabled = busy || zoo.length === 0;
    section.dataset.state = busy ? 'running' : 'idle';
  }

  function showSpecError(err) {
    specError.textContent = err ? `Error: ${err.message}` : '';
    specError.hidden = !err;
    editorHost.classList.toggle('invalid', Boolean(err));
  }

  // The profile on screen and the verdict in force: a Re-probe judges it again (core's
  // rooflinePoint, the same sentence as the profile's) against the new roofs.
  let shown = null;
  const totalsBox = h('div', { class: 'table-wrap', 'data-role': 'totals-box' });
  function showTotals() {
    totalsBox.replaceChildren(totalsTable(shown.profile, shown.judged));
  }
  const unsubscribe = probes.subscribe(async (entry) => {
    if (!shown || shown.judged.probeAt === String(entry.measured_at_ms)) return;
    const p = shown.profile;
    const { peak_gflops_per_s, bandwidth_gb_per_s } = entry.probe;
    try {
      const placed = await labOf(bridge).rooflinePoint(
        { name: p.name, flops: p.flops_breakdown.total, bytes: p.bytes_moved, measured_gflops_per_s: p.gflops_per_s_all },
        { peak_gflops_per_s, bandwidth_gb_per_s },
        { where: 'builder-reprobe' },
      );
      if (shown?.profile !== p) return;
      shown.judged = judgedBy(placed.verdict, entry);
      showTotals();
    } catch (err) {
      showSpecError(err);
    }
  });

  function showResults(p, judged) {
    const bars = topOperationBars(p);
    const ops = p.top_operations ?? [];
    const passes = passesText(p);
    chart?.destroy();
    shown = { profile: p, judged };
    showTotals();
    results.replaceChildren(
      staleNote,
      h('h4', { text: `Profile of ${p.name} at batch ${p.batch_size}` }),
      totalsBox,
      h('h4', { text: 'Per layer' }),
      h(
        'div',
        { class: 'table-wrap', 'data-role': 'layers' },
        createTable(LAYER_COLUMNS, { rows: p.layers, caption: LAYER_CAPTION }).element,
      ),
      h('h4', { text: 'Top operations' }),
      h('p', {
        class: 'hint',
        text:
          `Where the time went while a ProfilerContext recorded ${passes} of the whole model (forward and ` +
          `backward): milliseconds per layer and pass${p.top_operations_passes > 1 ? `, summed over the ${p.top_operations_passes} passes` : ''}, ` +
          'longest first (the first ten in the chart).',
      }),
      chartBox,
      h('div', { class: 'table-wrap', 'data-role': 'top-ops' }, createTable(topOperationColumns(p), { rows: ops }).element),
    );
    chart = new BarChart(chartBox, {
      x: 'layer',
      y: 'total_ms',
      series: 'pass',
      seriesDomain: ['forward', 'backward'],
      xDomain: [...new Set(bars.map((b) => b.layer))],
      xLabel: 'Layer',
      yLabel: `↑ Total time over ${passes} (ms)`,
      ariaLabel: 'Top operations: total milliseconds per layer, forward and backward',
      emptyText: 'No operations recorded.',
      height: 280,
    });
    chart.update(bars);
    results.hidden = false;
  }

  async function profile() {
    if (controller) return;
    editor.flush();
    const batch = parseBatch(batchInput.value);
    batchError.textContent = batch.problem ?? '';
    batchError.hidden = !batch.problem;
    if (batch.problem) {
      status.textContent = 'Fix the batch, then Profile.';
      return;
    }
    showSpecError(null);
    controller = new AbortController();
    setBusy(true);
    const started = performance.now();
    const tick = () => {
      status.textContent = `Profiling: counting, timing the model, each layer and the backward pass · ${formatElapsed(performance.now() - started)}`;
    };
    tick();
    ticker = setInterval(tick, 250);
    try {
      const lab = labOf(bridge);
      const factor = longerSelect.value;
      // Scaling core's defaults needs them; quick mode scales its own small budgets.
      const defaults = factor !== '1' && !quick ? await lab.profileTimerDefaults({ signal: controller.signal, where: 'builder-profile' }) : null;
      // The page's probe (measured now if none was): the verdict names the roofs it used.
      const entry = await probes.current({ where: 'builder-probe' }).catch((err) => {
        throw Object.assign(new Error(err.message), { probeFailed: true });
      });
      const { peak_gflops_per_s, bandwidth_gb_per_s } = entry.probe;
      // Core's timer warnings name the builder's Measure longer as their remedy.
      const options = {
        ...profileOptions({ quick, batch: batch.batch, factor, defaults }),
        machine: { peak_gflops_per_s, bandwidth_gb_per_s },
        controls: MEASURE_LONGER_CONTROLS,
      };
      const p = await lab.profileModel(editor.text(), options, {
        signal: controller.signal,
        where: 'builder-profile',
      });
      showResults(p, judgedBy(p.bottleneck.reason, entry));
      staleNote.hidden = true;
      results.dataset.stale = 'false';
      status.textContent = `Done in ${formatElapsed(performance.now() - started)}.`;
      section.dataset.profiled = p.name;
    } catch (err) {
      if (err.cancelled) {
        status.textContent = 'Cancelled; the previous profile (if any) is still shown.';
      } else if (err.probeFailed) {
        // Not the spec's fault: the roofs the verdict needs could not be measured.
        status.textContent = `This machine could not be probed (${err.message}); press Re-probe, then Profile.`;
      } else {
        status.textContent = 'The spec could not be profiled: see the error under the editor.';
        showSpecError(err);
        if (shown) {
          staleNote.textContent = staleResultsText(shown.profile);
          staleNote.hidden = false;
          results.dataset.stale = 'true';
        }
      }
    } finally {
      clearInterval(ticker);
      controller = null;
      setBusy(false);
    }
  }

  profileButton.addEventListener('click', profile);
  cancelButton.addEventListener('click', () => {
    status.textContent = 'Cancelling…';
    cancelButton.disabled = true;
    controller?.abort();
  });

  return {
    element: section,
    view: editor.view,
    profile,
    destroy() {
      controller?.abort();
      clearInterval(ticker);
      probeBox.destroy();
      unsubscribe();
      chart?.destroy();
      editor.destroy();
      section.remove();
    },
  };
}
