// The sparsity sweep (optimization-sparsity): a pruned Linear layer's weight as CSR against the
// dense packed matmul, at each density of core's plan, both timed on the same inputs by core
// (measureSparseLinear, verified first), and core's crossover (sparseCrossover). Not for:
// measuring, verifying or finding the crossover (core), or drawing (the framework's charts).

import { declaredSweep, labOf } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { CSV_COLUMNS, SPARSITY_ID, TABLE_COLUMNS, shapeLabel, shapeValue, sparsityPoints, sparsitySentences, withPercent } from './sparsity-data.js';

const WHERE = `${SPARSITY_ID}-run`;

export const sparsityExperiment = {
  id: SPARSITY_ID,
  title: 'Experiment: when do zeros pay?',
  explanation: [
    'Core builds a Linear layer’s weight with random values, sets a seeded random part of them to zero so that the ' +
      'density (the fraction kept) is exact, and stores the kept ones as CSR. Each point checks the sparse product ' +
      'against the dense one, then times the sparse kernel and the dense packed matmul on the same inputs.',
    'Above 1× the sparse kernel is faster. The sentence under Run says where the line crosses 1× on this machine, ' +
      'and the table says how many bytes each kernel reads.',
  ],
  quickNote: ({ info }) =>
    info?.plan && `Quick mode (?quick=1): densities ${formatList(info.plan.densities.map((d) => `${Math.round(100 * d)}%`))} only, small budgets.`,
  controls: [
    {
      id: 'variant',
      type: 'select',
      label: 'Sparse kernel',
      options: async ({ bridge }) =>
        (await labOf(bridge).sparseVariants({ where: WHERE })).map((v) => ({ value: v.name, label: v.name, title: v.description })),
      default: 'batched',
    },
    {
      id: 'shape',
      type: 'select',
      label: 'Layer',
      options: async ({ bridge, quick }) => (await experimentPlans(bridge, SPARSITY_ID, quick)).plan.shapes.map((s) => ({ value: shapeValue(s), label: shapeLabel(s) })),
      default: '784x256@64',
    },
  ],
  init: ({ bridge, quick }) => experimentPlans(bridge, SPARSITY_ID, quick),
  plan: (values, ctx) => sparsityPoints(values, ctx.info),
  measure: declaredSweep('measureSparseLinear'),
  pointLabel: (p) => `density ${Math.round(100 * p.density)}%`,
  derive: withPercent,
  analyze: async (rows, { lab, signal, where }) => ({
    crossover: await lab.sparseCrossover(rows.map((r) => ({ density: r.density, speedup: r.speedup })), { signal, where }),
    sentences: sparsitySentences(rows),
  }),
  renderAnalysis: (a, { h }) => [
    h('p', { 'data-role': 'crossover', class: 'result-note', text: `Crossover: ${a.crossover.sentence}.` }),
    ...a.sentences.map((text) => h('p', { 'data-role': 'sparsity-sentence', text })),
  ],
  columns: TABLE_COLUMNS,
  tableCaption: 'One row per density: both kernels timed on the same inputs; dense ÷ sparse above 1 means the sparse kernel is faster.',
  csv: { filename: 'perflab-optimization-sparsity.csv', columns: CSV_COLUMNS },
  charts: [
    {
      type: 'line',
      title: 'Speed of the sparse kernel against the dense one, by density',
      options: {
        x: 'density_percent',
        y: 'speedup',
        series: 'variant',
        xType: 'log',
        yType: 'log',
        xLabel: 'Density: weights kept (%, log scale) →',
        yLabel: '↑ dense time ÷ sparse time (log scale)',
        yReferences: [{ y: 1, label: 'as fast as dense' }],
        ariaLabel: 'The dense kernel’s time divided by the sparse kernel’s, against the percentage of weights kept',
        emptyText: 'Press Run to measure.',
      },
    },
  ],
};
