// Loop-based vs vectorized Linear (acceleration-linear-loops), measured with the Profiler:
// the same layer, its matmul run by nested loops or by the packed SIMD kernel.
// Not for: running, drawing or timing.

import { declaredSweep } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { experimentPlans } from '../../experiments/plans.js';
import { countWord } from '../../ui/format.js';
import {
  CONTROLS,
  CSV_COLUMNS,
  TABLE_COLUMNS,
  VARIANTS,
  layerName,
  linearPoints,
  withLayerName,
} from './linear-loops-data.js';

export const linearLoopsExperiment = {
  id: 'acceleration-linear-loops',
  title: 'Experiment: a Linear layer, loops vs vectorized',
  explanation:
    'A Linear layer is one matrix product plus a bias: <code>y = x·Wᵀ + b</code>, ' +
    '2·batch·in·out FLOPs. The Profiler times the layer with its product computed by ' +
    '<code>naive</code> (three nested loops, as you would write them) and by ' +
    '<code>packed</code> (the SIMD micro-kernel). Same layer, same numbers out.',
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): ${countWord(info.plan.shapes.length)} small layers, small budgets.`,
  controls: [...CONTROLS, buildControl()],

  // Core's plan: the layer shapes and Timer options.
  init: ({ bridge, quick }) => experimentPlans(bridge, 'acceleration-linear-loops', quick),

  plan: linearPoints,
  measure: declaredSweep('measureLinear'),
  pointLabel: (p) => `${layerName(p)}, batch ${p.batch}, ${p.variant}`,
  derive: withLayerName,

  columns: TABLE_COLUMNS,
  tableCaption: 'Each layer profiled with both matmul variants; times are per forward call.',
  csv: { filename: 'perflab-acceleration-linear-loops.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'bar',
      options: {
        x: 'layer',
        y: 'gflops_per_s',
        series: 'variant',
        seriesDomain: [...VARIANTS],
        xLabel: 'Layer (in → out features)',
        yLabel: '↑ Throughput (GFLOP/s)',
        ariaLabel: 'Linear layer throughput in GFLOP/s, naive loops beside the packed SIMD kernel',
        emptyText: 'Press Run to measure.',
        height: 300,
      },
    },
  ],
};
