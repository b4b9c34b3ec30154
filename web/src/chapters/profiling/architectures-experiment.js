// The architecture-comparison experiment (profiling-architectures): MLP, CNN and
// transformer at similar parameter counts, and how differently they spend FLOPs and time.
// Not for: planning or columns (architectures-data.js) or measuring (core).

import { declaredSweep } from '../../lab/client.js';
import { ARCHITECTURE_COLUMNS, ARCHITECTURE_CSV, architecturePoints, withFamily } from './architectures-data.js';
import { planInit } from './common.js';

export const architecturesExperiment = {
  id: 'profiling-architectures',
  title: 'Experiment: architecture comparison',
  explanation: [
    'Parameters say how much a model stores; FLOPs say how much it computes. A Linear layer uses each weight ' +
      'once per sample; a convolution reuses each kernel weight at every output position (H_out·W_out times), ' +
      'and a transformer reuses its projections at every token. So models with a similar parameter count can ' +
      'differ in FLOPs per sample by orders of magnitude. cnn_wide is defined on this page (two convolutions ' +
      'and two Linear layers) to sit near the MLP’s count; cnn_28 is the zoo’s small CNN.',
  ],
  quickNote: 'Quick mode (?quick=1): the same four models with small time budgets.',
  controls: [{ id: 'batch', type: 'number', label: 'Batch', default: 16, min: 1, max: 256, integer: true }],
  init: planInit('profiling-architectures', { zoo: true }),
  plan: architecturePoints,
  measure: declaredSweep('measureForwardPoint'),
  derive: withFamily,
  columns: ARCHITECTURE_COLUMNS,
  tableCaption: 'All four at the same batch. A transformer “sample” is one sequence of 64 tokens.',
  csv: { filename: 'perflab-profiling-architectures.csv', columns: ARCHITECTURE_CSV },
  charts: [
    {
      type: 'scatter',
      title: 'Parameters against FLOPs per sample (counted)',
      options: {
        x: 'parameters',
        y: 'flops_per_sample',
        series: 'family',
        label: 'name',
        // Fixed so the labels of the extreme points stay inside the frame (the four models
        // span about 9k to 240k parameters and 0.5M to 30M FLOPs per sample).
        xDomain: [3000, 1e6],
        yDomain: [1e5, 1e8],
        xLabel: 'Parameters (log scale) →',
        yLabel: '↑ FLOPs per sample (log scale)',
        ariaLabel: 'Parameters against FLOPs per sample for each architecture, log-log',
        emptyText: 'Press Run to measure.',
        height: 300,
      },
    },
    {
      type: 'bar',
      title: 'Time per sample (measured)',
      options: {
        x: 'name',
        y: 'ms_per_sample',
        xLabel: 'Model',
        yLabel: '↑ Median time per sample (ms)',
        ariaLabel: 'Median forward time per sample for each architecture',
        emptyText: 'Press Run to measure.',
        height: 260,
      },
    },
  ],
};
