// The experiment framework's DOM half: `mountExperiment(container, spec, {bridge})` turns a
// declarative spec (controls, plan, measure, columns, charts, CSV) into a section with Run,
// Cancel, a progress bar and line, an error beside Run, charts, a table and Download CSV,
// drawing what the run (runner.js, through the lab worker) says as it goes and when it ends.
// docs/EXPERIMENTS.md describes the spec. Not for: the run's phases (runner.js), any pure
// logic (model.js, csv.js), the section's elements (view.js), the control fields
// (controls.js) or the table and the download (ui/).

import './experiment.css';
import { loadPlot } from '../charts/plot-lib.js';
import { labOf } from '../lab/client.js';
import { h } from '../ui/dom.js';
import { downloadText } from '../ui/download.js';
import { controlField } from './controls.js';
import { toCsv } from './csv.js';
import { controlDefaults, experimentControls, hasLateOptions, isQuick, loadOptions, readControls, resolve, specProblems } from './model.js';
import { publishResult } from './results.js';
import { initFacts, startRun } from './runner.js';
import { CHART_TYPES, experimentView } from './view.js';

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

  const { section, runButton, cancelButton, progress, status, errorBox, resultNote, measureHint, infoSlot, analysisBox, table, csvButton, chartBlocks, refreshTexts } =
    experimentView(spec, { fields, quick, domId });
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

  // A note, hint or error: its text, hidden when there is none.
  const say = (box, text) => {
    box.textContent = text ?? '';
    box.hidden = !text;
  };
  const showError = (err) => say(errorBox, err && `Error: ${err.message}`);
  const showNote = (text) => say(resultNote, text);

  function refreshChartOptions(ctx) {
    refreshTexts(ctx); // a spec's texts may quote init's facts (core's plan)
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

  // init's facts changed (a new machine probe): later Runs plan with them; charts showing
  // rows keep the facts those rows were measured with.
  const ensureInfo = initFacts(spec, { bridge, slot: infoSlot, quick, h }, (info) => {
    lastCtx = { ...lastCtx, info };
    if (!current && shown.rows.length === 0) refreshChartOptions(lastCtx);
  });
  ensureInfo()
    .then((info) => {
      lastCtx = { ...lastCtx, info };
      refreshChartOptions(lastCtx);
    })
    .catch((err) => {
      if (!current) showError(err);
    });

  const stopTicker = () => (clearInterval(ticker), (ticker = null));

  function setRunning(running) {
    runButton.disabled = running || !optionsReady();
    for (const f of fields) f.input.disabled = running || !f.ready() || Boolean(f.ignored());
    cancelButton.disabled = !running;
    csvButton.disabled = running || shown.rows.length === 0;
    section.dataset.state = running ? 'running' : 'idle';
  }

  const tick = () => (status.textContent = current.statusText());
  // What the runner (runner.js) says while it runs, drawn as it comes.
  function onEvent(type, detail) {
    if (type === 'status') status.textContent = detail;
    else if (type === 'note') showNote(detail);
    else if (type === 'measured') stopTicker();
    else if (type === 'rows') show(detail);
    else if (type === 'planned') {
      lastCtx = detail;
      refreshChartOptions(detail);
      show({ rows: current.state.rows, build: null, ctx: detail });
      tick();
      ticker = setInterval(tick, 250);
    } else if (type === 'row') {
      // Pieces that core assembles into rows (spec.assemble) reach the charts, not the table.
      if (!spec.assemble) table.appendRow(detail);
      drawCharts(current.state.rows, current.state.ctx);
    } else if (type === 'progress') {
      progress.value = detail;
      if (ticker) tick();
    }
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
    say(measureHint, null);
    const previous = shown;
    progress.value = 0;
    current = startRun(spec, {
      bridge,
      values,
      quick,
      where: spec.where ?? domId('run'),
      // Observable Plot with the machine info, so the run's charts draw as rows arrive.
      loadInfo: () => Promise.all([ensureInfo(), loadPlot()]).then(([info]) => info),
      // A complete run is published (results.js) and handed to onResult.
      publish: (result) => {
        lastResult = publishResult(result);
        onResult?.(lastResult.rows, lastResult);
        return lastResult;
      },
      onEvent,
    });
    setRunning(true);
    try {
      const outcome = await current.done;
      stopTicker();
      if (outcome.show) show(outcome.show);
      if (outcome.note) showNote(outcome.note);
      say(measureHint, outcome.hint);
      if (!outcome.ok && !outcome.note && outcome.measured === 0 && previous.rows.length > 0) {
        // Nothing new was measured: keep the last result on screen rather than an empty chart.
        refreshChartOptions(previous.ctx);
        show(previous);
        const build = previous.build ? `, ${previous.build} build` : '';
        const why = outcome.cancelled ? 'cancelled' : 'stopped by an error';
        showNote(`The new run was ${why} before its first point; still showing the previous result (${previous.rows.length} points${build}).`);
      }
      status.textContent = outcome.status;
      if (!outcome.ok && !outcome.cancelled) showError(outcome.error);
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
    current.cancel();
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
      current?.cancel();
      stopTicker();
      for (const b of chartBlocks) b.chart.destroy();
      section.remove();
    },
  };
}
