// The CLI comparison (acceleration-cli): the student pastes or loads the JSON that
// `perflab roofline --json` or `perflab bench --json` printed natively; core's cliReport
// validates and normalizes it, and the page shows the native rows beside its own latest
// rows of the matching experiment, as a table, a chart per metric (page against native,
// log-log, with the diagonal page = native) and a CSV of the comparison rows. Bad input gets
// core's message; the textarea keeps it. A file larger than core reads is refused unread.
// Not for: checking the JSON (core does) or measuring (the experiments above do).

import { ScatterChart } from '../../charts/scatter-chart.js';
import { toCsv } from '../../experiments/csv.js';
import { h } from '../../ui/dom.js';
import { downloadText } from '../../ui/download.js';
import { formatSig } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { latestResult, publishResult, subscribeResults } from '../../experiments/results.js';
import { labOf } from '../../lab/client.js';
import { oversizeFileProblem } from '../../lab/json-text-limit.js';
import {
  CSV_COLUMNS,
  MACHINE_FIELDS,
  METRIC_AXIS,
  PAGE_SOURCES,
  SOURCE_NAMES,
  TABLE_COLUMNS,
  chartFrame,
  chartPoints,
  compareRows,
} from './cli-data.js';
import { machineProbe } from './machine.js';

export const CLI_ID = 'acceleration-cli';

const machineValue = (probe, field) => {
  const v = probe?.[field.key];
  if (v === undefined || v === null) return '—';
  return typeof v === 'number' ? `${formatSig(v)}${field.unit ? ` ${field.unit}` : ''}` : String(v);
};

/** @returns {{element: HTMLElement, compare: () => Promise<void>, destroy: () => void}} */
export function mountCliComparison(container, { bridge }) {
  const id = (s) => `${CLI_ID}-${s}`;
  const textarea = h('textarea', {
    id: id('input'),
    rows: '8',
    spellcheck: 'false',
    placeholder: 'Paste the output of: perflab roofline --json   (or: perflab bench --json)',
    'aria-describedby': id('error'),
  });
  const fileInput = h('input', { id: id('file'), type: 'file', accept: '.json,application/json,text/plain' });
  const compareButton = h('button', { type: 'button', class: 'primary', 'data-action': 'compare', text: 'Compare' });
  const errorBox = h('p', { class: 'error', role: 'alert', id: id('error'), 'data-role': 'error' });
  errorBox.hidden = true;
  const status = h('span', {
    class: 'status',
    'aria-live': 'polite',
    'data-role': 'status',
    text: 'Nothing pasted yet.',
  });
  const machineBox = h('div', { 'data-role': 'machine' });
  const chartsBox = h('div', { class: 'charts', 'data-role': 'charts' });
  const csvButton = h('button', { type: 'button', 'data-action': 'csv', text: 'Download CSV' });
  csvButton.disabled = true;
  const table = createTable(TABLE_COLUMNS, {
    caption: 'Native rows (from the pasted JSON) beside this page’s latest rows of the same kernel.',
    role: 'table',
  });
  table.element.hidden = true;

  const section = h(
    'section',
    { class: 'experiment', 'aria-labelledby': id('title'), 'data-experiment': CLI_ID, 'data-state': 'idle' },
    h('h3', { id: id('title'), text: 'Compare with the native CLI' }),
    h('p', {
      html:
        'The same C++ runs natively in the <code>perflab</code> command. Build it (<code>tools/lab build</code>), ' +
        'run <code>perflab roofline --json &gt; roofline.json</code> (or <code>perflab bench --json</code>) on ' +
        'this machine, and paste the output here or load the file. Same kernels, same 128-bit ' +
        'vectors, but not the same machine instructions: the native build targets the baseline ' +
        'of its CPU family (SSE2 on x86-64), while the browser compiles the wasm for this very ' +
        'CPU (on x86-64 with AVX, forms that save a register copy or a shuffle per step) and ' +
        'adds a coarser clock. Expect the two within a few tens of percent, either one ahead, ' +
        'not different in kind.',
    }),
    h('label', { for: id('input'), text: 'perflab JSON output' }),
    textarea,
    h(
      'div',
      { class: 'controls' },
      h('span', { class: 'field' }, h('label', { for: id('file'), text: 'or load a file ' }), fileInput),
      compareButton,
      status,
    ),
    errorBox,
    machineBox,
    chartsBox,
    h('div', { class: 'table-wrap' }, table.element),
    h('div', { class: 'actions' }, csvButton),
  );
  container.append(section);

  let report = null; // the last report core accepted
  let shownRows = []; // the comparison rows on screen (the CSV's rows)
  const charts = new Map(); // metric -> {box, chart}

  // One chart per metric the rows carry (GFLOP/s; ns per element for bench GELU rows): a dot
  // per kernel with both figures, native on x, page on y; above the diagonal the page is
  // faster in GFLOP/s, below it in ns per element.
  function drawCharts(rows) {
    for (const [metric, axis] of Object.entries(METRIC_AXIS)) {
      const has = rows.some((r) => r.metric === metric);
      const entry = charts.get(metric);
      if (!has) {
        entry?.chart.destroy();
        entry?.block.remove();
        charts.delete(metric);
        continue;
      }
      const points = chartPoints(rows, metric);
      const frame = chartFrame(points);
      const options = {
        x: 'native_value',
        y: 'page_value',
        label: 'label',
        series: 'faster',
        seriesDomain: ['page as fast or faster', 'native faster'],
        xDomain: frame.domain,
        yDomain: frame.domain,
        references: frame.references,
        xLabel: `Native CLI (${axis.unit}, log scale) →`,
        yLabel: `↑ This page (${axis.unit}, log scale)`,
        ariaLabel: `This page's ${axis.unit} against the native CLI's, one dot per kernel, with the diagonal where they are equal`,
        emptyText: 'Run the matching experiment above to put the page’s figures beside the native ones.',
      };
      if (!entry) {
        const box = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': metric });
        const block = h(
          'div',
          { class: 'chart-block' },
          h('h4', { class: 'chart-title', text: `Page against native: ${axis.unit} (${axis.better} is faster)` }),
          box,
        );
        chartsBox.append(block);
        const chart = new ScatterChart(box, options);
        charts.set(metric, { block, chart });
        chart.update(points);
      } else {
        entry.chart.setOptions(options);
        entry.chart.update(points);
      }
    }
  }

  async function render() {
    if (!report) return;
    const sources = PAGE_SOURCES[report.kind] ?? [];
    const pageRows = sources.flatMap((sid) => latestResult(sid)?.rows ?? []);
    const rows = compareRows(report, pageRows);
    shownRows = rows;
    drawCharts(rows);
    csvButton.disabled = rows.length === 0;
    table.setRows(rows);
    table.element.hidden = false;
    const missing = sources.filter((sid) => !latestResult(sid)).map((sid) => SOURCE_NAMES[sid]);
    const hint = missing.length ? `; run ${missing.join(' and ')} above to fill the page column.` : '.';
    status.textContent = `${report.kind} report: ${report.rows.length} native rows${hint}`;
    publishResult({ id: CLI_ID, rows, values: { kind: report.kind } });

    if (report.machine) {
      let probe = null;
      try {
        probe = await machineProbe(bridge);
      } catch {
        // The page's column stays empty; the native figures still show.
      }
      machineBox.replaceChildren(
        createTable(
          [
            { label: 'figure', align: 'left', format: (f) => f.label },
            { label: 'native', format: (f) => machineValue(report.machine, f) },
            { label: 'page', format: (f) => machineValue(probe, f) },
          ],
          { rows: MACHINE_FIELDS, caption: 'This machine: native probe (pasted) and the page’s quick probe', role: 'machine-table' },
        ).element,
      );
    } else {
      machineBox.replaceChildren();
    }
  }

  async function compare() {
    const text = textarea.value;
    errorBox.hidden = true;
    if (text.trim() === '') {
      errorBox.textContent = 'Error: paste the JSON that perflab printed, or load its file, then Compare.';
      errorBox.hidden = false;
      return;
    }
    compareButton.disabled = true;
    section.dataset.state = 'running';
    status.textContent = 'Checking…';
    try {
      report = await labOf(bridge).cliReport(text, { where: id('compare') });
      await render();
    } catch (err) {
      // The textarea keeps what was pasted, so the student can fix it; the last good
      // comparison stays on screen.
      errorBox.textContent = `Error: ${err.message}`;
      errorBox.hidden = false;
      status.textContent = report ? 'Still showing the last report that was accepted.' : 'Nothing compared yet.';
    } finally {
      compareButton.disabled = false;
      section.dataset.state = 'idle';
    }
  }

  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (!file) return;
    const refuse = (message) => {
      fileInput.value = '';
      errorBox.textContent = `Error: ${message}`;
      errorBox.hidden = false;
      status.textContent = report ? 'Still showing the last report that was accepted.' : 'Nothing compared yet.';
    };
    // Refused by its size (core's limit) before it is read: a wrong pick would otherwise fill
    // the tab's memory and the textarea, replacing what the student had pasted.
    let text;
    try {
      const { max_bytes } = await labOf(bridge).jsonTextLimits({ where: id('compare') });
      const tooLarge = oversizeFileProblem(file, 'Load the file that perflab roofline --json or perflab bench --json wrote.', max_bytes);
      if (tooLarge) {
        refuse(tooLarge);
        return;
      }
      text = await file.text();
    } catch (err) {
      refuse(`${file.name} could not be read (${err.message})`);
      return;
    }
    textarea.value = text;
    await compare();
  });
  compareButton.addEventListener('click', compare);
  csvButton.addEventListener('click', () => downloadText(`perflab-${CLI_ID}.csv`, toCsv(shownRows, CSV_COLUMNS), 'text/csv'));
  // A page experiment finishing later fills the page column.
  const unsubscribe = subscribeResults((result) => {
    if (report && (PAGE_SOURCES[report.kind] ?? []).includes(result.id)) render();
  });

  return {
    element: section,
    compare,
    destroy() {
      unsubscribe();
      for (const { chart } of charts.values()) chart.destroy();
      section.remove();
    },
  };
}
