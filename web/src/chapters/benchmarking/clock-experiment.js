// The clock experiment (benchmarking-clock): a few-microsecond kernel sampled with fixed
// batches of 1 to 1024 calls per sample (sampleKernel, inner_iterations) on this page's clock
// and on one coarsened to a chosen tick (clock_tick_ms). Core takes each row's median
// (summarizeSample) and its change against the reference, the largest batch on this page's
// clock (compareSamples); the chart draws the error against the batch size on log axes.
// Not for: any statistic (core) or drawing (charts/).

import { declaredSweep, labOf } from '../../lab/client.js';
import { createTable } from '../../ui/table.js';
import { formatInt, formatPercent, formatSig } from '../../ui/format.js';
import { experimentPlans } from '../../experiments/plans.js';
import { kernelControl, kernelText, sizeControl } from './samples-common.js';
import {
  CSV_COLUMNS,
  DEFAULT_KERNEL,
  DEFAULT_N,
  ID,
  TABLE_COLUMNS,
  TICK_CONTROL,
  PAGE_LABEL,
  ZERO_NOTE,
  clockLabel,
  coarseLabel,
  clockOf,
  clockPoints,
  errorRows,
  referenceRow,
} from './clock-data.js';

const ms = (v) => `${formatSig(v)} ms`;
// A median of 0 has no ratio: it is off by exactly −100% (every reading rounded to 0).
const ZERO_CHANGE = -1;

const ERROR_COLUMNS = [
  { key: 'label', label: 'clock', format: 'text' },
  { key: 'inner_iterations', label: 'calls per sample k', format: 'int' },
  { key: 'median', label: 'median per call', unit: 'ms', format: 'sig' },
  { label: 'middle half of the readings', unit: 'ms', format: (r) => `${formatSig(r.p25)} – ${formatSig(r.p75)}` },
  { label: 'error against the reference', format: (r) => (r.reference ? 'reference' : formatPercent(r.change)) },
];

const at = (rows, label, k) => rows.find((r) => r.label === label && r.inner_iterations === k);

/** Core's medians and errors in sentences and a table. */
export function renderClock(a, { h }) {
  const ref = a.rows.find((r) => r.reference);
  const labels = [...new Set(a.rows.map((r) => r.label))];
  const smallest = Math.min(...a.rows.map((r) => r.inner_iterations));
  const largest = Math.max(...a.rows.map((r) => r.inner_iterations));
  const nodes = [
    h('p', {
      'data-role': 'reference',
      text:
        `Reference: the median of ${formatInt(ref.inner_iterations)}-call batches on this page’s clock ` +
        `(resolution ${ms(a.resolution_ms)}): ${ms(ref.median)} per call of the ${kernelText(a.kernel)}.`,
    }),
  ];
  const describe = (k) =>
    labels
      .map((label) => at(a.rows, label, k))
      .filter(Boolean)
      .map((r) => `${r.label}: ${ms(r.median)} (${r.reference ? 'the reference' : `error ${formatPercent(r.change)}`})`)
      .join('; ');
  nodes.push(h('p', { 'data-role': 'single', text: `One call per sample (k = ${smallest}): ${describe(smallest)}.` }));
  nodes.push(h('p', { 'data-role': 'batched', text: `${formatInt(largest)} calls per sample: ${describe(largest)}.` }));
  nodes.push(
    h(
      'details',
      {},
      h('summary', { text: 'Every batch size: core’s median and its error' }),
      createTable(ERROR_COLUMNS, { rows: a.rows, role: 'errors' }).element,
    ),
  );
  return nodes;
}

export const clockExperiment = {
  id: ID,
  title: 'Experiment: one call per sample against batches',
  // The numbers are core's plan (init's facts): "…" until it arrives.
  explanation: ({ info }) => [
    'A kernel of a few microseconds, sampled with a fixed number of calls per sample, k = 1, 2, 4 … ' +
      `${info ? formatInt(info.fullPlan.batches.at(-1)) : '…'} (no calibration), ${info?.fullPlan.options.samples ?? '…'} samples each: once on this ` +
      'page’s clock and once on a clock whose every reading is rounded down to a coarser tick, as a browser that ' +
      'is not cross-origin isolated does. Each sample’s time is divided by k.',
    'The lab’s core takes each median and compares it with the reference, the median of the largest batch on ' +
      'this page’s clock. The chart shows how far each median is from it: a zero reading is off by 100%.',
  ],
  quickNote: ({ info }) => info && `Quick mode (?quick=1): k = ${info.plan.batches.join(', ')} and ${info.plan.options.samples} samples each.`,
  controls: [
    kernelControl({ default: DEFAULT_KERNEL, hint: 'A kernel of a few microseconds makes the point; a long one hides it.' }),
    sizeControl({ default: DEFAULT_N }),
    TICK_CONTROL,
  ],

  // The clock's resolution, and core's plan of the sweep (and the full one, for the quick note).
  async init({ bridge, slot, h, quick }) {
    const [resolution_ms, plans] = await Promise.all([
      labOf(bridge).timerResolutionMs({ where: `${ID}-run` }),
      experimentPlans(bridge, ID, quick),
    ]);
    slot.replaceChildren(h('p', { 'data-role': 'resolution', text: `This page’s clock resolution: ${ms(resolution_ms)}.` }));
    return { resolution_ms, ...plans };
  },
  plan: clockPoints,
  measure: declaredSweep('sampleKernel'),
  pointLabel: (p) => `k = ${p.options.inner_iterations} on ${p.clock === 'page' ? 'this page’s clock' : `a ${p.options.clock_tick_ms} ms clock`}`,

  async analyze(rows, { lab, info, signal, where }) {
    const reference = referenceRow(rows);
    if (!reference) throw new Error('no row was measured on this page’s clock, so there is no reference');
    const summaries = [];
    for (const r of rows) summaries.push(await lab.summarizeSample(r.samples_ms, undefined, { signal, where }));
    const refSummary = summaries[rows.indexOf(reference)];
    if (!(refSummary.median > 0)) {
      throw new Error(`the reference median is 0: ${formatInt(reference.inner_iterations)} calls are shorter than a tick; choose a larger n`);
    }
    const out = [];
    for (const [i, r] of rows.entries()) {
      const s = summaries[i];
      const isRef = r === reference;
      let change = 0;
      if (!isRef) {
        change = s.median > 0
          ? (await lab.compareSamples(reference.samples_ms, r.samples_ms, { bootstrap_resamples: 100 }, { signal, where })).change
          : ZERO_CHANGE;
      }
      out.push({
        label: clockLabel(r),
        clock: r.clock,
        inner_iterations: r.inner_iterations,
        median: s.median,
        p25: s.p25,
        p75: s.p75,
        change,
        reference: isRef,
      });
    }
    return { rows: out, resolution_ms: info?.resolution_ms ?? reference.resolution_ms, kernel: { op: reference.op, variant: reference.variant, n: reference.n } };
  },
  renderAnalysis: renderClock,

  columns: TABLE_COLUMNS,
  tableCaption: 'Every batch size on both clocks; core’s medians and errors are above the chart, every sample is in the CSV.',
  csv: { filename: 'perflab-benchmarking-clock.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      name: 'error',
      title: 'Error of the median per call against the batch size',
      options: ({ values, info }) => ({
        x: 'k',
        y: 'error',
        series: 'clock',
        seriesDomain: [PAGE_LABEL, coarseLabel(values?.tick ?? TICK_CONTROL.default)],
        xType: 'log',
        xBase: 2,
        xTicks: info ? [...clockOf(info).batches] : undefined,
        yType: 'log',
        xLabel: 'calls per sample k (log scale) →',
        yLabel: '↑ |median − reference| / reference (1 = 100%, log scale)',
        zeroNote: ZERO_NOTE,
        ariaLabel: 'relative error of the median per call against the batch size, one line per clock',
        emptyText: 'Press Run: the errors appear once core has compared every median with the reference.',
      }),
      data: (rows, ctx) => errorRows(ctx.analysis),
    },
  ],
};
