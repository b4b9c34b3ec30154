// The forward-vs-backward experiment (profiling-forward-backward): the measured backward
// time of each model beside the rule "backward ≈ 2 × forward".
// Not for: planning or columns (backward-data.js) or measuring (core).

import { declaredSweep } from '../../lab/client.js';
import { BACKWARD_COLUMNS, BACKWARD_CSV, backwardPoints, ratioSeries } from './backward-data.js';
import { zooInit } from './common.js';

export const backwardExperiment = {
  id: 'profiling-forward-backward',
  title: 'Experiment: forward vs backward',
  explanation: [
    'For <code>y = x·W</code> the backward pass computes two products of the same size as the forward one: ' +
      '<code>dx = dy·Wᵀ</code> and <code>dW = xᵀ·dy</code>. Hence the rule of thumb backward ≈ 2 × forward, ' +
      'in FLOPs and in time. Core counts the backward FLOPs layer by layer and times the backward alone; ' +
      'compare the measured ratio with 2 (the first layer needs no <code>dx</code>, and element-wise layers ' +
      'and memory traffic do not follow the rule).',
  ],
  quickNote: 'Quick mode (?quick=1): three small models with small time budgets.',
  controls: [],
  init: zooInit,
  plan: backwardPoints,
  measure: declaredSweep('measureBackwardPoint'),
  columns: BACKWARD_COLUMNS,
  tableCaption: 'Each model at its zoo batch. Forward times here keep the caches a backward pass needs.',
  csv: { filename: 'perflab-profiling-forward-backward.csv', columns: BACKWARD_CSV },
  charts: [
    {
      type: 'bar',
      title: 'Backward time as a multiple of forward time: measured against the 2× rule',
      options: {
        x: 'name',
        y: 'value',
        series: 'series',
        seriesDomain: ['measured backward / forward', 'rule of thumb (2)'],
        xLabel: 'Model',
        yLabel: '↑ Backward time / forward time',
        ariaLabel: 'Measured ratio of backward to forward time per model, beside the rule of thumb 2',
        emptyText: 'Press Run to measure.',
        height: 280,
      },
      data: ratioSeries,
    },
  ],
};
