// The model-scaling experiment (profiling-model-scaling): widen an MLP's hidden layers and
// watch parameters and FLOPs grow with width², then whether time follows (GFLOP/s).
// Not for: planning or columns (scaling-data.js) or measuring (core, via the lab worker).

import { declaredSweep } from '../../lab/client.js';
import { DEFAULT_HIDDEN, INPUT_WIDTH, OUTPUT_WIDTH, SCALING_COLUMNS, SCALING_CSV, scalingPoints, withHidden } from './scaling-data.js';
import { planInit } from './common.js';
import { toLong } from '../../charts/shape.js';

// The planned widths as the log axis's ticks and domain, so the frame does not jump.
const xAxis = (points) => {
  const widths = (points ?? []).map((p) => p.widths[1]);
  return widths.length ? { xTicks: widths, xDomain: [widths[0], widths[widths.length - 1]] } : {};
};

const line = (y, yLabel, ariaLabel, extra = {}) => ({
  type: 'line',
  options: ({ points }) => ({
    ...xAxis(points),
    x: 'hidden',
    y,
    series: 'series',
    xType: 'log',
    yType: 'log',
    xLabel: 'Hidden width (log scale) →',
    yLabel,
    ariaLabel,
    emptyText: 'Press Run to measure.',
    height: 260,
    ...extra,
  }),
});

export const scalingExperiment = {
  id: 'profiling-model-scaling',
  title: 'Experiment: model scaling',
  explanation: [
    `An MLP ${INPUT_WIDTH} → <i>h</i> → … → ${OUTPUT_WIDTH}, built by core for each hidden width <i>h</i>. ` +
      'With two hidden layers the middle Linear holds <code>h·h + h</code> parameters, so doubling <i>h</i> ' +
      'roughly quadruples parameters and FLOPs once <i>h</i> is large. Does the time quadruple too? ' +
      'GFLOP/s = FLOPs per batch / median time tells you whether bigger layers use the CPU better.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): only the ${info.plan.max_points} smallest widths, with small time budgets.`,
  init: planInit('profiling-model-scaling'),
  controls: [
    { id: 'hidden', type: 'numbers', label: 'Hidden widths', default: [...DEFAULT_HIDDEN], min: 1, max: 4096, integer: true, maxCount: 12, example: '64, 128, 256' },
    { id: 'depth', type: 'number', label: 'Hidden layers', default: 2, min: 1, max: 4, integer: true },
    { id: 'batch', type: 'number', label: 'Batch', default: 32, min: 1, max: 512, integer: true },
  ],
  plan: scalingPoints,
  measure: declaredSweep('measureMlpForwardPoint'),
  derive: withHidden,
  columns: SCALING_COLUMNS,
  tableCaption: 'One MLP per row, timed at the chosen batch. FLOPs are matmul FLOPs (2 per multiply-accumulate).',
  csv: { filename: 'perflab-profiling-model-scaling.csv', columns: SCALING_CSV },
  charts: [
    {
      ...line('value', '↑ Count (log scale)', 'Parameters and FLOPs per sample against hidden width, log-log'),
      title: 'Counted: parameters and FLOPs per sample',
      data: (rows) => toLong(rows, { fields: [{ key: 'parameters' }, { key: 'flops_per_sample', label: 'FLOPs per sample' }], keep: ['hidden'] }),
    },
    {
      ...line('value', '↑ Median forward latency (ms, log scale)', 'Median forward latency against hidden width, log-log'),
      title: 'Measured: forward latency',
      data: (rows) => toLong(rows, { fields: [{ key: 'latency.median_ms', label: 'median latency' }], keep: ['hidden'] }),
    },
    {
      ...line('value', '↑ Throughput (GFLOP/s)', 'Achieved GFLOP/s against hidden width', { yType: 'linear' }),
      title: 'Measured: GFLOP/s',
      data: (rows) => toLong(rows, { fields: [{ key: 'gflops_per_s', label: 'GFLOP/s' }], keep: ['hidden'] }),
    },
  ],
};
