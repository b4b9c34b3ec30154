// The A/A experiment (benchmarking-aa), declared for the experiment framework: one kernel
// compared with itself by core's runAB, interleaved, R times with distinct seeds; each
// repeat's p-value against alpha and its ratio with the interval, and how many repeats found
// a difference that is not there, against what chance alone gives.
// Not for: running, timing or any statistic (the framework runs, core measures and judges).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { AA_COLUMNS, AA_CONTROLS, AA_CSV_COLUMNS, CALL_DOMAIN, ID, aaPoints, aaSentences, aaTally, pValueChart, ratioChart } from './aa-data.js';

export const aaExperiment = {
  id: ID,
  // Its runs are sized by their own controls (rounds, repeats, the suite's timer), not by
  // a point's samples: Measure longer would have nothing to scale.
  measureLonger: false,
  title: 'Experiment: A/A, a kernel against itself',
  explanation: [
    'A and B below are the same kernel at the same size, so any difference the comparison reports is noise. ' +
      'Each repeat is a whole interleaved A/B run by core (its own seed, batched as in the A/B experiment) with ' +
      'core’s Mann-Whitney p-value, ratio of medians and verdict.',
    'Count the repeats whose verdict calls B faster or slower (coloured so in both charts): that is how often ' +
      'core’s verdict cries wolf on this machine when nothing differs, and what the exercise below counts. A p ' +
      'below the dashed α line is not enough for that call: the verdict also needs the ratio’s interval to ' +
      'exclude 1 and the ratio to lie beyond the grey noise-threshold lines of the ratio chart.',
  ],
  quickNote: ({ info }) =>
    info && `Quick mode (?quick=1): at most ${info.plan.max_repeats} repeats of ${info.plan.rounds} rounds each. Remove it for R repeats of the full length.`,
  // Core's plan of the rounds and the most repeats.
  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),
  controls: AA_CONTROLS,
  plan: aaPoints,
  measure: declaredSweep('runAB'),
  pointLabel: (p) => `repeat ${p.repeat}: ${p.variant_a} against itself (seed ${p.options.seed})`,
  // Core judged every repeat; the analysis counts its verdicts and p-values.
  analyze: async (rows) => aaTally(rows),
  renderAnalysis: (tally, { h }) =>
    h(
      'div',
      { class: 'compare-summary', 'data-role': 'aa-summary' },
      ...aaSentences(tally).map((text) => h('p', { text })),
    ),
  columns: AA_COLUMNS,
  tableCaption: 'One row per repeat, every number core’s. The ratio is median A / median B with its bootstrap interval.',
  csv: { filename: 'perflab-benchmarking-aa.csv', columns: AA_CSV_COLUMNS },
  charts: [
    {
      type: 'scatter',
      name: 'p-values',
      title: 'Each repeat’s p-value, coloured by core’s verdict (dashed: α; a verdict of a difference needs p below it, and more)',
      options: {
        x: 'repeat',
        y: 'p_value',
        series: 'call',
        seriesDomain: CALL_DOMAIN,
        xType: 'point', // repeats are whole numbers: one tick each
        yType: 'linear',
        yDomain: [0, 1],
        xLabel: 'Repeat →',
        yLabel: '↑ Mann-Whitney p-value',
        ariaLabel: 'Mann-Whitney p-value of each A/A repeat, coloured by core’s verdict, with the significance level as a dashed line',
        emptyText: 'Press Run to measure.',
        height: 280,
      },
      data: pValueChart,
    },
    {
      type: 'scatter',
      name: 'ratios',
      title: 'Each repeat’s ratio of medians A/B with its interval (dashed: 1, no difference; grey: core’s noise threshold)',
      options: {
        x: 'repeat',
        y: 'ratio',
        series: 'call',
        seriesDomain: CALL_DOMAIN,
        xType: 'point',
        yType: 'log', // a ratio of 2 and one of 1/2 lie equally far from 1
        xLabel: 'Repeat →',
        yLabel: '↑ Ratio of medians A/B (×, log scale)',
        ariaLabel: 'Ratio of medians of each A/A repeat with its bootstrap interval, coloured by core’s verdict, the line at 1 and the noise threshold on both sides',
        emptyText: 'Press Run to measure.',
        height: 280,
      },
      data: ratioChart,
    },
  ],
};
