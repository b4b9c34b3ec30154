// The intervals experiment (benchmarking-intervals): one large reference run of a kernel
// (sampleKernel), then core's intervalCoverage draws many small samples of each size from it
// and reports, per size and method (z, t, bootstrap), the mean width of the 95% intervals and
// how often they contained the reference run's median. Charts of both against n.
// Not for: any statistic (core) or drawing (charts/).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { createTable } from '../../ui/table.js';
import { formatInt, formatPercent, formatSig } from '../../ui/format.js';
import { kernelControl, kernelText, sizeControl } from './samples-common.js';
import { joinCalls } from './distribution-data.js';
import {
  CSV_COLUMNS,
  DEFAULT_KERNEL,
  DEFAULT_N,
  ID,
  METHODS,
  SIZES_CONTROL,
  TABLE_COLUMNS,
  coverageOf,
  intervalsPoints,
  longRows,
} from './intervals-data.js';

const ms = (v) => `${formatSig(v)} ms`;
// A number of core's full plan as the texts quote it ("1,000"), "…" until it arrives.
const full = (info, pick) => (info ? formatInt(pick(info.fullPlan)) : '…');

const COVERAGE_COLUMNS = [
  { key: 'n', label: 'n', format: 'int' },
  ...METHODS.flatMap((m) => [
    { label: `${m.key} width`, unit: 'ms', format: (r) => formatSig(r[m.key].mean_width) },
    {
      label: `${m.key} coverage`,
      format: (r) => `${formatPercent(r[m.key].coverage)} (${(100 * r[m.key].coverage_interval.low).toFixed(1)}–${formatPercent(r[m.key].coverage_interval.high)})`,
    },
  ]),
];

/**
 * Core's coverage report in sentences and a table; every number and every "fell short" is
 * core's (each row's sentence judges a coverage by its Monte Carlo interval, not by < 95%).
 */
export function renderIntervals(a, { h }) {
  const first = a.rows[0];
  const last = a.rows.at(-1);
  const nodes = [
    h('p', {
      'data-role': 'reference',
      text:
        `Reference: ${formatInt(a.reference_n)} samples of the ${kernelText(a.kernel)}, median ${ms(a.reference_median)}. ` +
        `For each n, core drew ${formatInt(a.trials)} small samples of n values from it (with replacement, seed ` +
        `${a.seed}), computed each one’s three 95% intervals (the bootstrap with ${formatInt(a.bootstrap_resamples)} ` +
        'resamples) and counted how often each contained the reference median.',
    }),
    ...(a.rows.length > 1 ? [first, last] : [first]).map((row) => h('p', { 'data-role': 'coverage', text: row.sentence })),
  ];
  // z and t bound the mean: when their coverage of the median falls as n grows, say why;
  // only when core found it short at the largest n and the two Monte Carlo intervals do not
  // overlap, so that noise of the trials is never explained as a trend.
  const fading = ['z', 't'].filter(
    (m) => a.rows.length > 1 && last[m].finding === 'short' && last[m].coverage_interval.high < first[m].coverage_interval.low,
  );
  if (fading.length > 0) {
    nodes.push(
      h('p', {
        'data-role': 'mean-not-median',
        text:
          `${fading.join(' and ')} contained the median less often at n = ${last.n} than at n = ${first.n}: they are ` +
          'intervals of the mean and narrow around it as n grows, so when the mean and the median differ, as they do ' +
          'in a skewed sample, they miss the median more often with more samples, not less.',
      }),
    );
  }
  const table = createTable(COVERAGE_COLUMNS, {
    rows: a.rows,
    caption:
      'Mean width of the 95% intervals and the share of trials containing the reference median, with its ' +
      'Monte Carlo 95% interval (Wilson’s, over the trials)',
    role: 'coverage',
  });
  nodes.push(h('div', { class: 'table-wrap' }, table.element));
  return nodes;
}

const xAxis = (ctx) => {
  const sizes = [...(ctx?.values?.sizes ?? SIZES_CONTROL.default)].sort((x, y) => x - y);
  return {
    x: 'n',
    series: 'method',
    seriesDomain: METHODS.map((m) => m.label),
    xType: 'log',
    xTicks: sizes,
    xLabel: 'small-sample size n (log scale) →',
  };
};

export const intervalsExperiment = {
  id: ID,
  title: 'Experiment: interval width and coverage against n',
  // The numbers are core's plan (init's facts): "…" until it arrives.
  explanation: ({ info }) => [
    `A reference run of ${full(info, (p) => p.options.samples)} samples of the chosen kernel stands in for the ` +
      'truth: its median is what the small samples try to pin down. The lab’s core then draws small samples ' +
      `of each size from it, ${full(info, (p) => p.coverage.trials)} per size, and computes the z, t and bootstrap ` +
      'intervals of each, as the section above defines them.',
    'Width shows how precise an interval claims to be; coverage shows whether that claim is honest. A 95% ' +
      'interval should contain the reference median in about 95% of the trials.',
    `A coverage counted over ${full(info, (p) => p.coverage.trials)} trials is itself a sample: 94% of 100 trials is ` +
      'what an honest 95% interval often gives. So core puts a Monte Carlo interval on each coverage and says ' +
      'an interval fell short only when that whole interval lies below 95%; otherwise the difference is within ' +
      'the noise of that many trials.',
  ],
  quickNote: ({ info }) => {
    if (!info) return null;
    const { options, coverage } = info.plan;
    return (
      `Quick mode (?quick=1): a ${options.samples}-sample reference and ${coverage.trials} trials per size ` +
      `(bootstrap ${coverage.bootstrap_resamples} resamples), so each coverage is a count out of ${coverage.trials}. Remove it for the full run.`
    );
  },
  controls: [
    kernelControl({ default: DEFAULT_KERNEL, hint: 'The kernel of the reference run.' }),
    sizeControl({ default: DEFAULT_N }),
    SIZES_CONTROL,
  ],
  // Core's plan of the run and the trials (and the full one, which the texts quote).
  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),
  plan: intervalsPoints,
  measure: declaredSweep('sampleKernel'),
  assemble: joinCalls,
  pointLabel: (p) => `a reference run of ${p.options.samples} samples of the ${kernelText(p)}`,

  async analyze(rows, { lab, values, info, signal, where }) {
    const row = rows[0];
    const report = await lab.intervalCoverage(row.samples_ms, values.sizes, coverageOf(info), { signal, where });
    return { ...report, kernel: { op: row.op, variant: row.variant, n: row.n } };
  },
  renderAnalysis: renderIntervals,

  columns: TABLE_COLUMNS,
  tableCaption: 'The reference run; core’s coverage table is above the charts, every sample is in the CSV.',
  csv: { filename: 'perflab-benchmarking-intervals.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      name: 'width',
      title: 'Mean width of the 95% intervals against n',
      options: (ctx) => ({
        ...xAxis(ctx),
        y: 'width_ms',
        yType: 'log',
        yLabel: '↑ mean interval width (ms, log scale)',
        ariaLabel: 'mean width of the z, t and bootstrap intervals against the small-sample size n',
        emptyText: 'Press Run: the widths appear once core has drawn the small samples.',
      }),
      data: (rows, ctx) => longRows(ctx.analysis),
    },
    {
      type: 'line',
      name: 'coverage',
      title: 'Coverage of the reference median against n',
      options: (ctx) => ({
        ...xAxis(ctx),
        y: 'coverage',
        yDomain: [0, 1],
        yReferences: [{ y: 0.95, label: '95% promised' }],
        yLabel: '↑ share of trials containing the reference median (1 = all)',
        ariaLabel: 'share of the z, t and bootstrap intervals containing the reference median against n',
        emptyText: 'Press Run: the coverage appears once core has drawn the small samples.',
      }),
      data: (rows, ctx) => longRows(ctx.analysis),
    },
  ],
};
