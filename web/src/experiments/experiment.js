// The experiment framework's DOM half: `mountExperiment(container, spec, {bridge})` turns a
// declarative spec (controls, plan, measure, columns, charts, CSV) into a section with Run,
// Cancel, a progress bar and line, an error beside Run, charts, a table and Download CSV,
// running the plan through the lab worker. docs/EXPERIMENTS.md describes the spec.
// Not for: measuring (the lab worker and core), any pure logic (model.js, csv.js), the
// control fields (controls.js) or the table and the download (ui/).

import './experiment.css';
import { BarChart } from '../charts/bar-chart.js';
import { LineChart } from '../charts/line-chart.js';
import { loadPlot } from '../charts/plot-lib.js';
import { ScatterChart } from '../charts/scatter-chart.js';
import { labOf } from '../lab/client.js';
import { cancelledError } from '../lab/protocol.js';
import { h } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';
import { formatCount } from '../ui/format.js';
import { createTable } from '../ui/table.js';
import { controlField } from './controls.js';
import { toCsv } from './csv.js';
import {
  MEASURE_LONGER_ID,
  controlDefaults,
  doneText,
  experimentControls,
  hasLateOptions,
  isQuick,
  labelOf,
  loadOptions,
  measureLongerHint,
  measureOf,
  planPoints,
  progressText,
  readControls,
  resolve,
  scalePoints,
  specProblems,
  withMeasureLongerControls,
} from './model.js';
import { publishResult } from './results.js';

/** Chart `type` names a spec may use; a spec may also pass a class with the same API. */
export const CHART_TYPES = Object.freeze({ line: LineChart, bar: BarChart, scatter: ScatterChart });

// A string (or each string of an array) is HTML written by us, so formulas can use <code>.
function explanationNodes(explanation) {
  if (explanation === undefined || explanation === null) return [];
  if (typeof explanation === 'function') return explanationNodes(explanation());
  if (explanation instanceof Node) return [explanation];
  if (Array.isArray(explanation)) return explanation.flatMap(explanationNodes);
  return [h('p', { html: String(explanation) })];
}

/**
 * @param {HTMLElement} container the experiment appends its section here
 * @param {object} spec see docs/EXPERIMENTS.md
 * @param {object} ctx
 * @param {{call: Function}} ctx.bridge the lab bridge
 * @param {string} [ctx.search] the page's location.search (`?quick=1` shrinks the plan)
 * @param {(rows: object[], result: object) => void} [ctx.onResult] after every complete run
 * @returns {{element: HTMLElement, run: () => Promise<void>, cancel: () => void,
 *            getRows: () => object[], getResult: () => object|null, destroy: () => void}}
 */
export function mountExperiment(container, spec, { bridge, search = location.search, onResult } = {}) {
  const problems = specProblems(spec, { chartTypes: Object.keys(CHART_TYPES) });
  if (problems.length) throw new TypeError(`experiment spec "${spec?.id}": ${problems.join('; ')}`);
  const quick = isQuick(search);
  const domId = (suffix) => `${spec.id}-${suffix}`;
  // The spec's controls, then the framework's Measure longer (model.js MEASURE_LONGER).
  const controls = experimentControls(spec);
  const fields = controls.map((c) => controlField(c, domId));
  // A control the others make irrelevant (its `ignoredWhen(raw values)` gives the reason) is
  // off, with the reason beside it, until they change; idle only (a run disables every field).
  const refreshIgnored = () => {
    if (section?.dataset.state === 'running') return;
    const raws = Object.fromEntries(fields.map((f) => [f.control.id, f.raw()]));
    for (const f of fields) if (f.control.ignoredWhen) f.showIgnored(f.control.ignoredWhen(raws));
  };
  for (const f of fields) f.input.addEventListener(f.control.type === 'checkbox' || f.control.type === 'select' ? 'change' : 'input', () => refreshIgnored());

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
  const table = createTable(spec.columns, { caption: spec.tableCaption, role: 'table' });
  const csvButton = h('button', { type: 'button', 'data-action': 'csv', text: 'Download CSV' });
  csvButton.disabled = true;

  const chartBlocks = (spec.charts ?? []).map((cs, i) => {
    const box = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': cs.name ?? String(i) });
    return { cs, box, title: cs.title ? h('h4', { class: 'chart-title', text: cs.title }) : null };
  });

  const section = h(
    'section',
    { class: 'experiment', 'aria-labelledby': domId('title'), 'data-experiment': spec.id, 'data-state': 'idle' },
    h('h3', { id: domId('title'), text: spec.title }),
    ...explanationNodes(spec.explanation),
    infoSlot,
    quick
      ? h('p', {
          class: 'note',
          'data-role': 'quick-note',
          text:
            spec.quickNote ??
            'Quick mode (?quick=1 in the address): fewer points and smaller time budgets, so the ' +
              'numbers are noisier. Remove it for the full sweep.',
        })
      : '',
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
  container.append(section);
  refreshIgnored();

  // The context plans and chart options are computed from; `info` is what spec.init returned.
  let lastCtx = { values: controlDefaults(controls), quick, info: null, points: null };
  for (const b of chartBlocks) {
    const Chart = typeof b.cs.type === 'function' ? b.cs.type : CHART_TYPES[b.cs.type];
    b.chart = new Chart(b.box, resolve(b.cs.options, lastCtx) ?? {});
  }

  let shown = { rows: [], build: null, ctx: lastCtx }; // what the table, charts and CSV show
  let lastResult = null; // the last complete run, as published
  let current = null; // the run under way
  let ticker = null;

  function showError(err) {
    errorBox.textContent = err ? `Error: ${err.message}` : '';
    errorBox.hidden = !err;
  }

  function showNote(text) {
    resultNote.textContent = text ?? '';
    resultNote.hidden = !text;
  }

  function showMeasureHint(rows, values) {
    const text = rows ? measureLongerHint(rows, values?.[MEASURE_LONGER_ID], { hasControl: spec.measureLonger !== false }) : null;
    measureHint.textContent = text ?? '';
    measureHint.hidden = !text;
  }

  function refreshChartOptions(ctx) {
    for (const b of chartBlocks) {
      if (typeof b.cs.options === 'function') b.chart.setOptions(b.cs.options(ctx));
    }
  }

  function drawCharts(rows, ctx) {
    for (const b of chartBlocks) b.chart.update(b.cs.data ? b.cs.data(rows, ctx) : rows);
  }

  function showAnalysis(analysis) {
    const nodes = analysis != null && spec.renderAnalysis ? spec.renderAnalysis(analysis, { h, bridge }) : null;
    analysisBox.replaceChildren(...[nodes ?? []].flat().filter(Boolean));
    analysisBox.hidden = analysisBox.childNodes.length === 0;
  }

  function show(next) {
    shown = next;
    table.setRows(next.rows);
    drawCharts(next.rows, next.ctx);
    showAnalysis(next.ctx.analysis);
  }

  // Selects whose options come from core: "loading…" until they arrive, Run disabled until
  // every field has its options; a failure is shown beside its control with Try again.
  const optionsReady = () => fields.every((f) => f.ready());
  function loadFieldOptions(f) {
    f.showLoading();
    return loadOptions(f.control, { lab: labOf(bridge), bridge, quick }).then(
      (options) => {
        f.setOptions(options);
        refreshIgnored();
        if (!current) setRunning(false);
      },
      (err) => f.showLoadFailure(err),
    );
  }
  for (const f of fields) {
    if (!hasLateOptions(f.control)) continue;
    f.retryButton.addEventListener('click', () => loadFieldOptions(f));
    loadFieldOptions(f);
  }

  let infoPromise = null;
  // init's facts changed (a new machine probe): later Runs plan with them; charts showing
  // rows keep the facts those rows were measured with.
  function updateInfo(info) {
    infoPromise = Promise.resolve(info);
    lastCtx = { ...lastCtx, info };
    if (!current && shown.rows.length === 0) refreshChartOptions(lastCtx);
  }
  function ensureInfo() {
    if (!spec.init) return Promise.resolve(null);
    if (!infoPromise) {
      infoPromise = Promise.resolve().then(() => spec.init({ bridge, slot: infoSlot, quick, h, update: updateInfo }));
      // A failed init must not stick: the next Run tries again.
      infoPromise.catch(() => (infoPromise = null));
    }
    return infoPromise;
  }
  ensureInfo()
    .then((info) => {
      lastCtx = { ...lastCtx, info };
      refreshChartOptions(lastCtx);
    })
    .catch((err) => {
      if (!current) showError(err);
    });

  function renderStatus() {
    if (!current) return;
    status.textContent = progressText({
      started: current.started,
      done: current.done,
      total: current.total,
      label: labelOf(spec, current.points[current.done]),
      elapsed_ms: performance.now() - current.startedAt,
    });
  }

  function stopTicker() {
    clearInterval(ticker);
    ticker = null;
  }

  function setRunning(running) {
    runButton.disabled = running || !optionsReady();
    for (const f of fields) f.input.disabled = running || !f.ready() || Boolean(f.ignored());
    cancelButton.disabled = !running;
    csvButton.disabled = running || shown.rows.length === 0;
    section.dataset.state = running ? 'running' : 'idle';
  }

  function onProgress(fraction, detail) {
    if (!current) return;
    current.started = true;
    progress.value = fraction;
    if (Number.isInteger(detail?.total)) current.total = detail.total;
    if (detail?.row) {
      const row = spec.derive ? spec.derive(detail.row, current.ctx) : detail.row;
      current.rows.push(row);
      // Pieces that core assembles into rows (spec.assemble) reach the charts, not the table.
      if (!spec.assemble) table.appendRow(row);
      drawCharts(current.rows, current.ctx);
    }
    current.done = Number.isInteger(detail?.done) ? detail.done : current.rows.length;
    if (ticker) renderStatus();
  }

  async function run() {
    if (current || !optionsReady()) return;
    const { values, problems: fieldProblems } = readControls(
      fields.map((f) => f.control),
      Object.fromEntries(fields.map((f) => [f.control.id, f.raw()])),
    );
    for (const f of fields) f.showProblem(fieldProblems[f.control.id]);
    if (Object.keys(fieldProblems).length > 0) {
      status.textContent = 'Fix the setting marked in red, then Run.';
      fields.find((f) => fieldProblems[f.control.id])?.input.focus();
      return;
    }
    showError(null);
    showNote(null);
    showMeasureHint(null);
    const controller = new AbortController();
    const previous = shown;
    current = {
      controller,
      values,
      rows: [],
      points: [],
      total: null,
      done: 0,
      started: false,
      startedAt: performance.now(),
    };
    setRunning(true);
    progress.value = 0;
    status.textContent = 'Starting the lab worker…';
    try {
      // Cancel must not wait for a slow init (the first one loads the wasm build).
      const aborted = new Promise((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(cancelledError()), { once: true }),
      );
      aborted.catch(() => {});
      // Observable Plot with the machine info, so the run's charts draw as rows arrive.
      const [info] = await Promise.race([Promise.all([ensureInfo(), loadPlot()]), aborted]);
      const ctx = { values, quick, info, points: null, analysis: null, prepared: null };
      const hookCtx = () => ({
        lab: labOf(bridge),
        bridge,
        values,
        quick,
        info,
        prepared: ctx.prepared,
        signal: controller.signal,
        where: spec.where ?? domId('run'),
      });
      current.hookCtx = hookCtx;
      if (spec.prepare) {
        // What the plan needs from core at each run (a seeded order, a calibration).
        status.textContent = 'Preparing the run in the lab’s core…';
        ctx.prepared = await Promise.race([spec.prepare(values, hookCtx()), aborted]);
      }
      // Measure longer scales the planned points' timer options (samples, time budget).
      const factor = values[MEASURE_LONGER_ID] ?? '1';
      // Core's timer warnings name Measure longer only where the experiment has it.
      const scaled = scalePoints(planPoints(spec, values, ctx), factor);
      ctx.points = spec.measureLonger === false ? scaled : scaled.map(withMeasureLongerControls);
      if (factor !== '1' && ctx.points.every((p) => !Number.isFinite(p.options?.samples) && !Number.isFinite(p.options?.max_total_ms))) {
        showNote('Measure longer has nothing to scale here: these points take no timer samples.');
      }
      Object.assign(current, { ctx, points: ctx.points, total: ctx.points.length });
      lastCtx = ctx;
      refreshChartOptions(ctx);
      show({ rows: current.rows, build: null, ctx });
      renderStatus();
      ticker = setInterval(renderStatus, 250);

      const m = measureOf(spec, ctx);
      const payload = m.payload ? m.payload(values, ctx.points, ctx) : { points: ctx.points, build: values.build };
      const result = await bridge.call(m.fn, payload, {
        signal: controller.signal,
        where: spec.where ?? domId('run'),
        onProgress,
      });
      stopTicker();
      // The result is authoritative: redraw from it rather than trusting the progress stream.
      let rows = result.rows.map((r) => (spec.derive ? spec.derive(r, ctx) : r));
      if (spec.assemble) {
        status.textContent = `Assembling ${rows.length} measurements in the lab’s core…`;
        current.assembling = true;
        rows = await spec.assemble(rows, hookCtx());
        current.assembling = false;
      }
      show({ rows, build: result.build ?? null, ctx });
      if (spec.analyze) {
        // Core's conclusions from the rows (a verdict, a fit, a report): the rows stay on
        // screen if this fails or is cancelled, and only an analysed run is a result.
        status.textContent = `Analysing ${rows.length} rows in the lab’s core…`;
        current.analysing = true;
        ctx.analysis = await spec.analyze(rows, {
          lab: labOf(bridge),
          values,
          quick,
          info,
          build: result.build ?? null,
          signal: controller.signal,
          where: spec.where ?? domId('run'),
        });
        show({ rows, build: result.build ?? null, ctx });
      }
      progress.value = 1;
      showMeasureHint(rows, values);
      const seconds = ((performance.now() - current.startedAt) / 1000).toFixed(1);
      // What was measured: the timed calls, or the points (an assembled run shows fewer rows
      // than it measured points, so the measured rows are counted).
      status.textContent = doneText(result.rows, { seconds, build: result.build });
      // A sweep that found its limit (sweep.js `ended`) is a result, with the reason beside it.
      if (result.ended) {
        showNote(
          `The sweep ended at ${result.ended.label} (${result.ended.done} of ${result.ended.total} points measured): ${result.ended.message}`,
        );
      }
      lastResult = publishResult({ id: spec.id, rows, build: result.build, values, analysis: ctx.analysis });
      onResult?.(lastResult.rows, lastResult);
    } catch (err) {
      stopTicker();
      const measured = current.rows.length;
      const why = err.cancelled ? 'cancelled' : 'stopped by an error';
      if (current.analysing) {
        showNote(
          `All ${measured} points were measured, but the analysis was ${why}: the table and the CSV hold the measured points; Run again for the analysis.`,
        );
      } else if (measured > 0) {
        showMeasureHint(current.rows, current.values);
        let held = 'these points only';
        if (spec.assemble) {
          // Pieces are not rows: the table and the CSV hold what core assembles from the ones
          // measured so far (a fresh signal: the run's is aborted), or nothing.
          let rows = [];
          if (current.assembling) {
            held = `nothing: assembling them was ${why}`;
          } else {
            try {
              rows = await spec.assemble(current.rows, { ...current.hookCtx(), signal: undefined });
              // An assemble that keeps the rows as they are (nothing to pair) leaves the note as it was.
              if (rows !== current.rows) held = `the ${formatCount(rows.length, 'row')} core assembled from them`;
            } catch (assembleErr) {
              rows = [];
              held = `nothing: core could not assemble them (${assembleErr.message})`;
            }
          }
          show({ rows, build: null, ctx: current.ctx });
        }
        showNote(`Partial result: ${measured} of ${current.total} points, ${why}. The table and the CSV hold ${held}.`);
      } else if (previous.rows.length > 0) {
        // Nothing new was measured: keep the last result on screen rather than an empty chart.
        refreshChartOptions(previous.ctx);
        show(previous);
        const build = previous.build ? `, ${previous.build} build` : '';
        showNote(
          `The new run was ${why} before its first point; still showing the previous result (${previous.rows.length} points${build}).`,
        );
      }
      if (err.cancelled) {
        status.textContent = current.analysing
          ? `Cancelled during the analysis, after all ${measured} points.`
          : `Cancelled after ${measured} of ${current.total ?? '?'} points.`;
      } else {
        status.textContent = 'Stopped by an error.';
        showError(err);
      }
    } finally {
      current = null;
      setRunning(false);
    }
  }

  function cancel() {
    if (!current) return;
    stopTicker();
    status.textContent = 'Cancelling…';
    cancelButton.disabled = true;
    current.controller.abort();
  }

  runButton.addEventListener('click', run);
  cancelButton.addEventListener('click', cancel);
  csvButton.addEventListener('click', () =>
    downloadText(resolve(spec.csv.filename, lastCtx), toCsv(shown.rows, spec.csv.columns), 'text/csv'),
  );

  return {
    element: section,
    run,
    cancel,
    /** Rows of the last complete run (what exercises grade against); [] before one finishes. */
    getRows: () => (lastResult ? [...lastResult.rows] : []),
    /** The last complete run as published: {id, rows, build, values, analysis, finished_at_ms}, or null. */
    getResult: () => lastResult,
    destroy() {
      current?.controller.abort();
      stopTicker();
      for (const b of chartBlocks) b.chart.destroy();
      section.remove();
    },
  };
}
