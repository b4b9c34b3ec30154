// The batch-size experiment (profiling-batch-size): one model at growing batches; latency
// per batch rises, time per sample falls, memory grows with the batch.
// Not for: planning or columns (batch-data.js) or measuring (core, via the lab worker).

import { declaredSweep } from '../../lab/client.js';
import { toLong } from '../../charts/shape.js';
import { BATCH_COLUMNS, BATCH_CSV, DEFAULT_BATCHES, batchPoints, quickNoteText } from './batch-data.js';
import { planInit, zooControl } from './common.js';

// The planned batches as the log axis's ticks and domain, so the frame does not jump.
const xAxis = (points) => {
  const batches = (points ?? []).map((p) => p.batch);
  return batches.length ? { xTicks: batches, xDomain: [batches[0], batches[batches.length - 1]] } : {};
};

const common = {
  x: 'batch_size',
  y: 'value',
  series: 'series',
  xType: 'log',
  xLabel: 'Batch size (log scale) →',
  emptyText: 'Press Run to measure.',
  height: 260,
};

export const batchExperiment = {
  id: 'profiling-batch-size',
  title: 'Experiment: batch-size effects',
  explanation: [
    'FLOPs per sample do not depend on the batch, yet the time per sample usually falls as the batch grows: ' +
      'the weights are read once per batch instead of once per sample, and matrix kernels get longer rows to ' +
      'work on. Memory goes the other way: every layer output is batch × features floats. ' +
      'Throughput = batch / median latency (samples/s).',
  ],
  quickNote: ({ info }) => info?.plan && quickNoteText(info.plan),
  controls: [
    zooControl(),
    { id: 'batches', type: 'numbers', label: 'Batch sizes', default: [...DEFAULT_BATCHES], min: 1, max: 1024, integer: true, maxCount: 16, example: '1, 8, 32' },
  ],
  init: planInit('profiling-batch-size', { zoo: true }),
  plan: batchPoints,
  measure: declaredSweep('measureForwardPoint'),
  columns: BATCH_COLUMNS,
  tableCaption: 'Batches 1 and 32 are always measured. Latency is per forward pass of the whole batch.',
  csv: { filename: 'perflab-profiling-batch-size.csv', columns: BATCH_CSV },
  charts: [
    {
      type: 'line',
      title: 'Latency per batch and per sample',
      options: ({ points }) => ({ ...common, ...xAxis(points), yType: 'log', yLabel: '↑ Time (ms, log scale)', ariaLabel: 'Median latency per batch and per sample against batch size' }),
      data: (rows) =>
        toLong(rows, {
          fields: [
            { key: 'latency.median_ms', label: 'per batch' },
            { key: 'ms_per_sample', label: 'per sample' },
          ],
          keep: ['batch_size'],
        }),
    },
    {
      type: 'line',
      title: 'Throughput',
      options: ({ points }) => ({ ...common, ...xAxis(points), yLabel: '↑ Throughput (samples/s)', ariaLabel: 'Throughput in samples per second against batch size' }),
      data: (rows) => toLong(rows, { fields: [{ key: 'samples_per_s', label: 'samples/s' }], keep: ['batch_size'] }),
    },
    {
      type: 'line',
      title: 'Memory',
      options: ({ points }) => ({ ...common, ...xAxis(points), yType: 'log', yFormat: 'bytes', yLabel: '↑ Memory (bytes, log scale)', ariaLabel: 'Activation bytes and measured peak bytes against batch size' }),
      data: (rows) =>
        toLong(rows, {
          fields: [
            { key: 'activation_bytes', label: 'activations (counted)' },
            { key: 'peak_bytes', label: 'peak (measured)' },
          ],
          keep: ['batch_size'],
        }),
    },
  ],
};
