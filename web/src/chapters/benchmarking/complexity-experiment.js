// The complexity experiment (benchmarking-complexity): raw samples of naive and packed matmul
// and of fused SIMD GELU over a range of sizes (sampleKernel), each row's median from core
// (summarizeSample), then core's complexity fits per kernel (fitComplexity): ranked classes
// and the log-log slope with its interval, drawn on log-log axes with each kernel's best curve.
// Not for: any statistic or fit (core) or drawing (FitChart).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { FitChart } from '../../charts/fit-chart.js';
import { createTable } from '../../ui/table.js';
import { formatInt } from '../../ui/format.js';
import { kernelText } from './samples-common.js';
import { CSV_COLUMNS, ID, TABLE_COLUMNS, complexityPoints, fitChartData, kernelGroups } from './complexity-data.js';

const FIT_COLUMNS = [
  { key: 'rank', label: 'rank', format: 'int' },
  { key: 'complexity', label: 'class', format: 'text', rowHeader: true },
  { key: 'coefficient', label: 'c (ms per g(n))', format: 'sci' },
  { key: 'normalized_rms', label: 'normalized RMS', format: 'percent' },
];

const MEDIAN_COLUMNS = [
  { key: 'kernel', label: 'kernel', format: 'text' },
  { key: 'n', label: 'n', format: 'int' },
  { key: 'median', label: 'median', unit: 'ms', format: 'sig' },
];

/**
 * One kernel's fit in a sentence: core's conclusion (a class only when its RMS ranking and the
 * log-log slope agree on one; else that they disagree, or are too close to tell), then the
 * fit's R² and the sizes it covers.
 */
export function fitSentence(k) {
  return (
    `${k.name} — ${k.conclusion} R² = ${k.power_law.r_squared.toFixed(3)}, over n = ${formatInt(k.sizes[0])} … ` +
    `${formatInt(k.sizes.at(-1))}.`
  );
}

export function renderComplexity(a, { h }) {
  const nodes = [];
  for (const k of a.kernels) {
    nodes.push(h('p', { 'data-role': 'fit', 'data-kernel': k.name, text: fitSentence(k) }));
    if (k.warning) nodes.push(h('p', { class: 'warning', text: `${k.name}: ${k.warning}` }));
  }
  nodes.push(
    h(
      'div',
      { class: 'summary-tables fit-tables' },
      a.kernels.map((k) => {
        const rows = k.fits.map((f, i) => ({ rank: i + 1, ...f }));
        return h('div', { class: 'table-wrap' }, createTable(FIT_COLUMNS, { rows, caption: `Ranked fits: ${k.name}`, role: 'fits' }).element);
      }),
    ),
  );
  const medians = a.kernels.flatMap((k) => k.sizes.map((n, i) => ({ kernel: k.name, n, median: k.medians[i] })));
  nodes.push(
    h('details', {}, h('summary', { text: 'Medians by size (core’s summary of each row)' }), createTable(MEDIAN_COLUMNS, { rows: medians, role: 'medians' }).element),
  );
  return nodes;
}

const sizesText = ({ kernels }) => kernels.map((k) => `${k.variant} ${k.op === 'gelu' ? 'GELU' : k.op} n = ${k.sizes[0]}…${k.sizes.at(-1)}`).join(', ');

export const complexityExperiment = {
  id: ID,
  title: 'Experiment: how time grows with size',
  // The sizes and samples are core's plan (init's facts): "…" until it arrives.
  explanation: ({ info }) => [
    `Raw samples of three kernels over a range of sizes (${info ? sizesText(info.fullPlan) : '…'}; n is N for a matmul, ` +
      `elements for GELU), ${info?.fullPlan.options.samples ?? '…'} samples per size. The lab’s core takes the median of ` +
      'each size’s samples, fits every class to each kernel’s medians, and fits the log-log slope. The chart ' +
      'draws each kernel’s medians and its best-fitting curve; the tables rank all six classes.',
    'Core names a class only when the two fits agree: the class ranked first by RMS must be the only one whose ' +
      'own slope over these sizes lies in the measured slope’s 95% interval. Otherwise it says that the fits ' +
      'disagree, or that they are too close to tell, and the chart marks that curve “RMS only”.',
  ],
  quickNote: ({ info }) =>
    info &&
    `Quick mode (?quick=1): ${sizesText(info.plan)}, ${info.plan.options.samples} samples per size. Three sizes make a wide slope interval; remove it for the full sweep.`,
  // Core's plan of the sweep (and the full one, which the texts quote).
  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),
  plan: complexityPoints,
  measure: declaredSweep('sampleKernel'),
  pointLabel: (p) => kernelText(p),

  async analyze(rows, { lab, signal, where }) {
    const kernels = [];
    for (const group of kernelGroups(rows)) {
      const medians = [];
      for (const row of group.rows) medians.push((await lab.summarizeSample(row.samples_ms, undefined, { signal, where })).median);
      const sizes = group.rows.map((r) => r.n);
      const report = await lab.fitComplexity(sizes, medians, { signal, where });
      kernels.push({ op: group.op, variant: group.variant, name: group.name, sizes, medians, ...report });
    }
    return { kernels };
  },
  renderAnalysis: renderComplexity,

  columns: TABLE_COLUMNS,
  tableCaption: 'Every size measured; core’s medians and fits are above the chart, every sample is in the CSV.',
  csv: { filename: 'perflab-benchmarking-complexity.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: FitChart,
      name: 'fit',
      title: 'Median time per call against size, log-log, with each kernel’s best fit by RMS',
      options: {
        xLabel: 'size n (N for matmul, elements for GELU; log scale) →',
        yLabel: '↑ median time per call (ms, log scale)',
        ariaLabel: 'median time per call against size on log-log axes, with fitted complexity curves',
        emptyText: 'Press Run: the medians and fitted curves appear once core has analysed the sweep.',
      },
      data: (rows, ctx) => fitChartData(ctx.analysis),
    },
  ],
};
