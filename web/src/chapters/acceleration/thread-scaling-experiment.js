// The thread-scaling experiment (acceleration-thread-scaling): the kernel engine's packed
// matmul or fused GELU at core's planned size on 1, 2, … threads; core's analysis gives each
// count's speedup, efficiency and Karp-Flatt serial fraction and the Amdahl fit the chart
// draws beside the ideal line. The engine's facts (flavours, threads, why) are asked at Run,
// so merely showing the chapter never downloads the engine.
// Not for: running, drawing or timing (experiments/, the lab worker, the engine and core do).

import { experimentPlans } from '../../experiments/plans.js';
import { declaredSweep } from '../../lab/client.js';
import { sizeName } from './cache-sweep-data.js';
import {
  CSV_COLUMNS,
  EVERY,
  FASTEST,
  KERNELS,
  LISTED,
  SERIES,
  TABLE_COLUMNS,
  chosenFlavour,
  scalingInput,
  scalingPoints,
  scalingSentences,
  sizeText,
  speedupSeries,
  threadCounts,
  threadsText,
  withScaling,
} from './thread-scaling-data.js';

const ID = 'acceleration-thread-scaling';

// Core's analysis of the rows, or null when one thread count cannot give a speedup.
const analyzeRows = (rows, { lab, signal, where }) =>
  rows.length < 2 ? null : lab.analyzeScaling(scalingInput(rows), { signal, where });

export const threadScalingExperiment = {
  id: ID,
  title: 'Experiment: thread scaling, matmul against GELU',
  explanation: ({ info }) => {
    const plan = info?.plan;
    const sizes = plan
      ? `the ${sizeText('matmul', plan)} or the ${sizeText('gelu', plan)} (${sizeName(8 * plan.gelu_elements)} read and written per call)`
      : 'the packed matmul or the fused GELU at core’s planned size';
    return [
      `Each run measures one kernel, ${sizes}, on every thread count you choose, in the kernel engine: ` +
        'the work is split into one band per thread as the section describes, and each result is ' +
        'checked against core’s reference before it is timed.',
      'After the run, core computes each count’s speedup (time on 1 thread ÷ time on p threads), its ' +
        'efficiency (speedup ÷ p) and its Karp-Flatt serial fraction, and fits Amdahl’s law through ' +
        'every point: the chart draws the measured speedups, the ideal line and the fitted curve. Run ' +
        'the matmul, then GELU, and compare the two fits.',
    ];
  },
  quickNote: ({ info }) =>
    info?.plan && `Quick mode (?quick=1): the ${sizeText('matmul', info.plan)} and the ${sizeText('gelu', info.plan)} (which may fit in cache), small time budgets.`,
  controls: [
    {
      id: 'kernel',
      type: 'select',
      label: 'Kernel',
      default: 'matmul',
      options: Object.entries(KERNELS).map(([value, k]) => ({ value, label: k.label })),
    },
    {
      id: 'flavour',
      type: 'select',
      label: 'Flavour',
      default: FASTEST,
      options: [
        { value: FASTEST, label: 'the fastest this browser runs' },
        { value: 'fma', label: 'fma (relaxed SIMD fused multiply-add)' },
        { value: 'simd', label: 'simd (multiply, then add)' },
      ],
    },
    {
      id: 'threads',
      type: 'select',
      label: 'Thread counts',
      default: EVERY,
      options: [
        { value: EVERY, label: 'every count from 1 to all this page may use' },
        { value: LISTED, label: 'the counts listed beside' },
      ],
    },
    {
      id: 'thread-list',
      type: 'numbers',
      label: 'Listed counts',
      default: [1, 2],
      min: 1,
      integer: true,
      maxCount: 16,
      example: '1, 2, 4',
      hint: '1 is always measured: every speedup is against it',
      ignoredWhen: (raws) => (raws.threads === LISTED ? null : 'used when Thread counts is “the counts listed beside”'),
    },
  ],

  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),

  // The engine's facts (loading it at the first Run): which flavours and how many threads, and
  // why; a flavour it cannot run stops here with that reason.
  async prepare(values, { lab, signal, where, status }) {
    status('Loading the kernel engine…');
    const facts = await lab.engineFacts({ signal, where });
    chosenFlavour(values.flavour, facts);
    return facts;
  },
  plan: scalingPoints,
  measure: ({ values }) => declaredSweep(KERNELS[values.kernel]?.fn ?? KERNELS.matmul.fn),
  pointLabel: (p) => `${p.flavour} ${KERNELS[p.kernel]?.label ?? p.kernel} on ${threadsText(p.threads)}`,
  // Core's speedup, efficiency and Karp-Flatt fraction of each row (analyzeScaling).
  async assemble(rows, ctx) {
    return withScaling(rows, await analyzeRows(rows, ctx));
  },
  async analyze(rows, ctx) {
    const { values, prepared: facts } = ctx;
    return {
      kernel: values.kernel,
      flavour: rows[0]?.flavour ?? chosenFlavour(values.flavour, facts),
      facts,
      dropped: threadCounts(values, facts).dropped,
      scaling: await analyzeRows(rows, ctx),
    };
  },
  renderAnalysis: (analysis, { h }) =>
    scalingSentences(analysis).map(({ role, text }) => h('p', { 'data-role': `scaling-${role}`, text })),

  columns: TABLE_COLUMNS,
  tableCaption:
    'Speedup = median on 1 thread ÷ median on this many; efficiency = speedup ÷ threads; Karp-Flatt = ' +
    '(1/speedup − 1/threads) ÷ (1 − 1/threads), the serial fraction this one point implies. All three are core’s.',
  csv: { filename: 'perflab-acceleration-thread-scaling.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      title: 'Speedup against threads',
      // One tick per measured thread count (none before a Run plans them).
      options: ({ points }) => ({
        x: 'threads',
        y: 'speedup',
        series: 'series',
        seriesDomain: [SERIES.measured, SERIES.ideal, SERIES.fit],
        ...(points?.length ? { xTicks: points.map((p) => p.threads) } : {}),
        xFormat: (t) => String(t),
        xLabel: 'Threads →',
        yLabel: '↑ Speedup over 1 thread (×)',
        ariaLabel: 'Measured speedup against the number of threads, with the ideal line and the fitted Amdahl curve',
        emptyText: 'Press Run to measure; the speedups appear once core has analysed the run.',
        height: 320,
      }),
      data: (rows) => speedupSeries(rows),
    },
  ],
};
