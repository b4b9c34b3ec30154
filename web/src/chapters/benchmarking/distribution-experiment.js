// The distribution experiment (benchmarking-distribution): core's plan of samples (1,000) of
// one kernel in one run (sampleKernel), summarized by core (summarizeSample), shown as a histogram with a box
// plot (mean against median, Tukey's outliers apart) and core's summary as a table; the CSV
// holds every raw sample. Not for: any statistic (core) or drawing (DistributionChart).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { DistributionChart } from '../../charts/distribution-chart.js';
import { createTable } from '../../ui/table.js';
import { formatCount, formatInt, formatSig } from '../../ui/format.js';
import { kernelControl, kernelText, sizeControl } from './samples-common.js';
import {
  CSV_COLUMNS,
  DEFAULT_KERNEL,
  DEFAULT_N,
  ID,
  SUMMARY_SPLIT,
  TABLE_COLUMNS,
  chartData,
  distributionPoints,
  joinCalls,
  zoomData,
  summaryRows,
} from './distribution-data.js';

const ms = (v) => `${formatSig(v)} ms`;
// A Timer option of core's full plan as the texts quote it ("1,000"), "…" until it arrives.
const full = (info, key) => (info ? formatInt(info.fullPlan.options[key]) : '…');

const SUMMARY_COLUMNS = [
  { key: 'statistic', label: 'statistic', format: 'text', rowHeader: true },
  {
    label: 'value',
    format: (r) => (r.count !== undefined ? formatInt(r.count) : r.value !== undefined ? ms(r.value) : `${formatSig(r.low)} – ${ms(r.high)}`),
  },
];

/** Core's summary in sentences and a table; every number is core's or the row's. */
export function renderDistribution(a, { h }) {
  const s = a.summary;
  const k = a.kernel;
  const where = s.mean > s.median ? 'above' : s.mean < s.median ? 'below' : 'on';
  const nodes = [
    h('p', {
      'data-role': 'sample-note',
      text:
        `${formatInt(s.n)} samples of the ${kernelText(k)}. Each sample is the time per call of a batch of ` +
        `${formatCount(k.inner_iterations, 'call')} (the timer's batching for this ` +
        `clock's ${ms(k.resolution_ms)} resolution), so the histogram shows batches, not single calls.`,
    }),
    h('p', {
      'data-role': 'centre',
      text:
        `Median ${ms(s.median)}, mean ${ms(s.mean)}: the mean lies ${where} the median` +
        (where === 'above' ? ', pulled toward the slow tail.' : '.'),
    }),
    h('p', {
      'data-role': 'outliers',
      text:
        `${formatInt(s.outliers.length)} of ${formatInt(s.n)} samples lie beyond Tukey's fences ` +
        `(${ms(s.lower_fence)} and ${ms(s.upper_fence)}); they are drawn in red and kept in the summary. ` +
        `MAD ${ms(s.mad)} against a standard deviation of ${ms(s.std)}.`,
    }),
  ];
  if (k.warning) {
    nodes.push(
      h('p', {
        class: 'warning',
        'data-role': 'timer-warning',
        text: `The timer’s own check, made on the samples inside its fences as its usual summary does: ${k.warning}`,
      }),
    );
  }
  if (s.warning) nodes.push(h('p', { class: 'warning', 'data-role': 'summary-warning', text: `Summary: ${s.warning}` }));
  // Two tables side by side: where the sample lies and how it spreads, then its tails and intervals.
  const rows = summaryRows(s);
  const half = SUMMARY_SPLIT;
  const tables = [
    createTable(SUMMARY_COLUMNS, { rows: rows.slice(0, half), caption: 'Core’s summary: location and spread', role: 'summary' }),
    createTable(SUMMARY_COLUMNS, { rows: rows.slice(half), caption: 'Core’s summary: tails, fences and 95% intervals', role: 'summary' }),
  ];
  nodes.push(h('div', { class: 'summary-tables' }, tables.map((t) => h('div', { class: 'table-wrap' }, t.element))));
  return nodes;
}

export const distributionExperiment = {
  id: ID,
  // The numbers are core's plan (init's facts): "…" until it arrives.
  title: ({ info }) => `Experiment: the distribution of ${full(info, 'samples')} samples`,
  explanation: ({ info }) => [
    `One run of the lab’s timer over the chosen kernel: ${full(info, 'warmup')} untimed warmup ` +
      `calls, then ${full(info, 'samples')} samples, every one kept (the timer’s usual summary drops ` +
      'outliers; this one does not). The lab’s core summarizes them: percentiles, MAD, Tukey’s fences and the ' +
      'three 95% intervals of the next section.',
  ],
  quickNote: ({ info }) =>
    info && `Quick mode (?quick=1): ${info.plan.options.samples} samples instead of ${info.fullPlan.options.samples}. Remove it for the full run.`,
  controls: [
    kernelControl({ default: DEFAULT_KERNEL, hint: 'Core’s matmul and GELU variants; hover one for what it does.' }),
    sizeControl({ default: DEFAULT_N }),
  ],
  // Core's plan of the run (and the full one, which the texts quote).
  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),
  plan: distributionPoints,
  measure: declaredSweep('sampleKernel'),
  assemble: joinCalls,
  pointLabel: (p) => `${p.options.samples} samples of the ${kernelText(p)}`,

  async analyze(rows, { lab, signal, where }) {
    const row = rows[0];
    const summary = await lab.summarizeSample(row.samples_ms, undefined, { signal, where });
    const { op, variant, n, inner_iterations, resolution_ms, warning } = row;
    return { summary, kernel: { op, variant, n, inner_iterations, resolution_ms, warning } };
  },
  renderAnalysis: renderDistribution,

  columns: TABLE_COLUMNS,
  tableCaption: 'The run; core’s summary of its samples is above the chart, every sample is in the CSV.',
  csv: { filename: 'perflab-benchmarking-distribution.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: DistributionChart,
      name: 'distribution',
      title: 'Histogram and box plot of the samples',
      options: {
        unit: 'ms',
        xLabel: 'time per call (ms) →',
        yLabel: '↑ samples',
        box: true,
        ariaLabel: 'distribution of the samples of one kernel',
        emptyText: 'Press Run: the histogram appears once core has summarized the samples.',
      },
      data: (rows, ctx) => chartData(rows, ctx.analysis),
    },
    {
      type: DistributionChart,
      name: 'zoom',
      title: 'Zoomed in: the body of the samples, the slow tail left out (up to the 99th percentile or Tukey’s upper fence, whichever is lower)',
      options: {
        unit: 'ms',
        xLabel: 'time per call (ms) →',
        yLabel: '↑ samples',
        height: 260,
        ariaLabel: 'distribution of the samples without the slow tail',
        emptyText: 'Press Run: the zoomed histogram appears with the full one.',
      },
      data: (rows, ctx) => zoomData(rows, ctx.analysis),
    },
  ],
};
