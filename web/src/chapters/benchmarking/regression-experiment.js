// The regression experiment (benchmarking-regression): the kernels `perflab bench` times
// (core's benchPlan), each sampled by core's sampleKernel, compared by core's compareRuns with
// a baseline kept in this browser: a run saved here, or a loaded `perflab bench --json`
// file. A panel above the controls saves, loads and forgets the baseline; the
// analysis box shows core's compare table with its verdicts and sentences.
// `regressionSpec(state)` is the spec (state: `regressionState`, shared with regression-mount.js,
// which hands it each complete run). Not for: timing, comparing or judging (core).

import { declaredSweep, labOf } from '../../lab/client.js';
import { oversizeFileProblem } from '../../lab/json-text-limit.js';
import { formatSig } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import {
  REGRESSION_COLUMNS,
  REGRESSION_CSV_COLUMNS,
  THRESHOLD_CONTROL,
  baselineStore,
  browserBaseline,
  changeRows,
  compareColumns,
  fileBaseline,
  parseBaselineFile,
  regressionPoints,
  regressionSentence,
  runOf,
  sampleRows,
} from './regression-data.js';

export const REGRESSION_ID = 'benchmarking-regression';
const WHERE = `${REGRESSION_ID}-run`;

/**
 * What the spec and its mount share: the baseline store and the last complete run (for Save).
 * @param {Storage|null} storage localStorage, or a stand-in
 */
export function regressionState(storage, now = () => Date.now()) {
  const store = baselineStore(storage);
  const listeners = new Set();
  let lastRun = null;
  return {
    store,
    now,
    get lastRun() {
      return lastRun;
    },
    setLastRun(rows, build) {
      lastRun = { rows, build };
      for (const fn of listeners) fn();
    },
    onChange(fn) {
      listeners.add(fn);
    },
  };
}

// When the baseline was kept, as a time of day (a date too when it is not today's).
function keptAt(ms, now) {
  const at = new Date(ms);
  const today = at.toDateString() === new Date(now).toDateString();
  return today ? `at ${at.toLocaleTimeString()}` : `on ${at.toLocaleString()}`;
}

/** The baseline panel: what the baseline is, Save / Forget, and the file loader with its message. */
function baselinePanel(h, state, lab) {
  const status = h('p', { 'data-role': 'baseline' });
  const save = h('button', { type: 'button', 'data-action': 'save-baseline', text: 'Save this run as baseline' });
  const forget = h('button', { type: 'button', 'data-action': 'forget-baseline', text: 'Forget the baseline' });
  const fileId = `${REGRESSION_ID}-baseline-file`;
  const file = h('input', { id: fileId, type: 'file', accept: '.json,application/json', 'aria-describedby': `${fileId}-error` });
  const problem = h('span', { class: 'field-error', id: `${fileId}-error`, 'data-role': 'baseline-error' });
  problem.hidden = true;
  const note = h('span', { class: 'hint', 'data-role': 'baseline-note' });

  const say = (text, isProblem) => {
    problem.textContent = isProblem ? text : '';
    problem.hidden = !isProblem;
    note.textContent = isProblem ? '' : (text ?? '');
  };
  const refresh = () => {
    const b = state.store.get();
    status.textContent = b
      ? `Baseline: ${b.label}, kept ${keptAt(b.saved_at_ms, state.now())}. Run to compare this browser against it.`
      : 'No baseline yet: run, save the run as the baseline, then run again; or load a perflab bench --json file.';
    save.disabled = !state.lastRun;
    forget.disabled = !b;
  };

  save.addEventListener('click', () => {
    const run = state.lastRun;
    if (!run) return;
    try {
      state.store.set(browserBaseline(run.rows, run.build, state.now()));
      say('Saved. Run again to compare against it.');
    } catch (err) {
      say(err.message, true);
    }
    refresh();
  });
  forget.addEventListener('click', () => {
    state.store.clear();
    say('Forgotten.');
    refresh();
  });
  file.addEventListener('change', async () => {
    const chosen = file.files?.[0];
    if (!chosen) return;
    say('Reading…');
    try {
      // Refused by its size before it is read (core's limit); the previous baseline stays.
      const { max_bytes } = await lab.jsonTextLimits({ where: `${REGRESSION_ID}-baseline-file` });
      const tooLarge = oversizeFileProblem(chosen, 'Load the file that perflab bench --json wrote.', max_bytes);
      if (tooLarge) {
        say(`${chosen.name} was not loaded: ${tooLarge}`, true);
        file.value = '';
        return;
      }
      const doc = await parseBaselineFile(chosen.name, await chosen.text(), (text) =>
        lab.jsonTextProblem(text, { where: `${REGRESSION_ID}-baseline-file` }),
      );
      // Core reads it the way compareRuns will, and says what is wrong with it if anything.
      await lab.compareRuns(doc, doc, undefined, { where: `${REGRESSION_ID}-baseline-file` });
      state.store.set(fileBaseline(chosen.name, doc, state.now()));
      say(`Loaded ${chosen.name}. Run to compare this browser against it.`);
    } catch (err) {
      // The previous baseline stays.
      say(`${chosen.name} was not loaded: ${err.message.replace(/^(baseline|base): /, '')}`, true);
    } finally {
      file.value = '';
      refresh();
    }
  });
  state.onChange(refresh);
  refresh();
  return h(
    'div',
    { class: 'compare-summary', 'data-role': 'baseline-panel' },
    status,
    h(
      'div',
      { class: 'field' },
      save,
      forget,
      h('label', { for: fileId, text: 'Load a perflab bench --json file ' }),
      file,
      problem,
      note,
    ),
  );
}

function renderComparison(analysis, { h }) {
  if (!analysis?.comparison) {
    return h(
      'p',
      { 'data-role': 'no-baseline' },
      'No baseline to compare with: save this run as the baseline (above), or load a perflab bench --json file, then Run again.',
    );
  }
  const c = analysis.comparison;
  const lists = [
    ['only in the baseline', c.only_in_base],
    ['only in this run', c.only_in_new],
  ].filter(([, names]) => names?.length);
  const table = createTable(compareColumns(c.alpha), {
    rows: c.rows,
    role: 'compare-table',
    caption: `Baseline: ${analysis.baseline.label}. Every number and sentence core’s (compareRuns, the code perflab compare runs).`,
    rowClass: (r) => (r.verdict === 'slower' ? 'warn' : undefined),
  });
  return [
    h(
      'div',
      { class: 'compare-summary', 'data-role': 'regression-summary', 'data-regression': String(c.regression) },
      h('p', { text: regressionSentence(c) }),
      ...lists.map(([what, names]) => h('p', { text: `Listed, not compared (${what}): ${names.join(', ')}.` })),
    ),
    h('div', { class: 'table-wrap' }, table.element),
  ];
}

/** The spec; `state` from regressionState. */
export function regressionSpec(state) {
  return {
    id: REGRESSION_ID,
    title: 'Experiment: a regression check against a baseline',
    explanation: [
      'The kernels below are the ones <code>perflab bench</code> times (every matmul variant at several N and every ' +
        'GELU variant), each sampled with the same timer. Save a run as the baseline, change something (another ' +
        'build, another tab busy, another day) and run again: core compares each benchmark with its baseline ' +
        'samples (Mann-Whitney test, ratio interval, noise threshold) exactly as <code>perflab compare</code> does.',
      'A file from <code>perflab bench --json</code> works as the baseline too: then the table compares ' +
        'the native command line with this browser.',
    ],
    quickNote: 'Quick mode (?quick=1): core’s quick bench plan (small sizes, few samples), so verdicts are rough.',
    controls: [THRESHOLD_CONTROL],

    async init({ bridge, slot, quick, h }) {
      const lab = labOf(bridge);
      const plan = await lab.benchPlan(quick, { where: WHERE });
      slot.replaceChildren(baselinePanel(h, state, lab));
      return plan;
    },
    plan: regressionPoints,
    measure: declaredSweep('sampleKernel'),

    // Core compares the baseline kept when the run ends with this run.
    analyze: async (rows, { lab, values, signal, where }) => {
      const baseline = state.store.get();
      if (!baseline) return { baseline: null, comparison: null };
      const comparison = await lab.compareRuns(baseline.data, runOf(rows), { threshold: values.threshold / 100 }, { where, signal });
      return { baseline: { label: baseline.label, source: baseline.source }, comparison };
    },
    renderAnalysis: renderComparison,

    columns: REGRESSION_COLUMNS,
    tableCaption: 'This run: every benchmark’s raw per-call samples are kept (and saved with a baseline); the comparison is above.',
    csv: { filename: 'perflab-benchmarking-regression.csv', columns: REGRESSION_CSV_COLUMNS },
    charts: [
      {
        type: 'bar',
        name: 'change',
        title: 'Change of each benchmark’s median against the baseline',
        options: ({ values }) => ({
          x: 'size',
          y: 'change_percent',
          series: 'kernel',
          xLabel: 'Size',
          yLabel: '↑ Change of the median (%; > 0: slower)',
          // The noise threshold core judges with, drawn where it lies: a change inside the two
          // lines is never called slower or faster.
          references:
            values?.threshold === undefined
              ? []
              : [
                  { y: values.threshold, label: `+${Number(formatSig(values.threshold))}% noise threshold` },
                  { y: -values.threshold, label: `−${Number(formatSig(values.threshold))}%` },
                ],
          ariaLabel: 'Relative change of each benchmark’s median against the baseline, in percent, grouped by size',
          emptyText: 'Run with a baseline to see the change of each benchmark.',
          height: 300,
        }),
        data: (rows, ctx) => changeRows(ctx.analysis?.comparison),
      },
      {
        type: 'scatter',
        name: 'samples',
        title: 'Every per-call sample of this run, in the order taken',
        options: {
          x: 'order',
          y: 'ms',
          series: 'kernel',
          xType: 'linear',
          xLabel: 'Sample, in the order taken (benchmark after benchmark, as in the table) →',
          yLabel: '↑ Time per call (ms, log scale)',
          ariaLabel: 'Every per-call sample of every benchmark of this run in the order taken, log time axis',
          emptyText: 'Press Run to measure.',
          height: 300,
        },
        data: (rows) => sampleRows(rows),
      },
    ],
  };
}
