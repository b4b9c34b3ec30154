// The training-memory experiment (profiling-training-memory): what one training step holds,
// by component and optimizer, as stacked bars.
// Not for: planning, reshaping or columns (training-memory-data.js) or measuring (core).

import { declaredSweep } from '../../lab/client.js';
import { formatSig } from '../../ui/format.js';
import { zooControl, zooInit } from './common.js';
import { COMPONENTS, DEFAULT_BATCHES, MEMORY_COLUMNS, MEMORY_CSV, memoryBars, memoryPoints } from './training-memory-data.js';

export const trainingMemoryExperiment = {
  id: 'profiling-training-memory',
  title: 'Experiment: memory of a training step',
  explanation: [
    'Inference holds the parameters and, briefly, the layer outputs. Training holds much more: every layer keeps ' +
      'its input for the backward pass, each parameter gets a gradient of the same size, and the optimizer keeps ' +
      'state: none for SGD, one velocity for momentum, two moments for Adam and AdamW. With Adam that is ' +
      '<code>4 × parameter bytes</code> before a single activation. The activations segment is the peak the ' +
      'tracking allocator measured during one forward and backward pass.',
  ],
  quickNote: 'Quick mode (?quick=1): the same counts and one measured step per batch; nothing is timed.',
  measureLonger: false, // bytes measured by the allocator, nothing timed
  controls: [
    zooControl(),
    { id: 'batches', type: 'numbers', label: 'Batch sizes', default: [...DEFAULT_BATCHES], min: 1, max: 1024, integer: true, maxCount: 4, example: '1, 32' },
  ],
  init: zooInit,
  plan: memoryPoints,
  measure: declaredSweep('memoryBreakdown'),
  columns: MEMORY_COLUMNS,
  tableCaption: 'One row per batch. Totals = parameters + gradients + optimizer state + the measured step peak.',
  csv: { filename: 'perflab-profiling-training-memory.csv', columns: MEMORY_CSV },
  charts: [
    {
      type: 'bar',
      title: 'One training step, by component and optimizer',
      options: {
        x: 'category',
        y: 'mib',
        series: 'component',
        seriesDomain: [...COMPONENTS],
        mode: 'stacked',
        xLabel: 'Optimizer and batch',
        yLabel: '↑ Memory (MiB)',
        valueFormat: (v) => `${formatSig(v)} MiB`,
        ariaLabel: 'Stacked memory of one training step per optimizer: parameters, activations, gradients, optimizer state',
        emptyText: 'Press Run to measure.',
        height: 320,
      },
      data: memoryBars,
    },
  ],
};
