// The forward-vs-backward experiment (profiling-forward-backward): the measured backward
// time of each model beside the rule "backward ≈ 2 × forward".
// Not for: planning or columns (backward-data.js) or measuring (core).

import { declaredSweep } from '../../lab/client.js';
import { BACKWARD_COLUMNS, BACKWARD_CSV, RATIO_SERIES, backwardPoints, ratioSeries } from './backward-data.js';
import { planInit } from './common.js';
import { countWord } from '../../ui/format.js';

export const backwardExperiment = {
  id: 'profiling-forward-backward',
  title: 'Experiment: forward vs backward',
  explanation: [
    'For <code>y = x·W</code> the backward pass can compute two products of the same size as the forward one: ' +
      '<code>dx = dy·Wᵀ</code> and <code>dW = xᵀ·dy</code>. Hence the original course’s estimate backward ≈ ' +
      '2 × forward, in FLOPs and in time.',
    'A training step needs no <code>dx</code> for the first layer (nothing before it reads it), so the lab’s ' +
      'backward skips it and core counts what is computed: every <code>dW</code>, and <code>dx</code> for every ' +
      'layer but the first. A single Linear layer therefore counts exactly 1 × its forward, and a deep model ' +
      'approaches 2 ×. (LayerNorm and attention compute their <code>dx</code> anyway: their weight gradients ' +
      'need it.) The table shows the count beside the 2 × estimate; the chart compares the measured time ratio ' +
      'with both (element-wise layers and memory traffic follow neither).',
    'Core times the two passes in one interleaved run: each round one forward (keeping every layer’s input ' +
      'for the backward, as training does), then one backward, so both medians come from the same minutes of ' +
      'the machine and their ratio is not skewed by it slowing down between two runs.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): ${countWord(info.plan.models.length)} small models with small time budgets.`,
  controls: [],
  init: planInit('profiling-forward-backward', { zoo: true }),
  plan: backwardPoints,
  measure: declaredSweep('measureBackwardPoint'),
  columns: BACKWARD_COLUMNS,
  tableCaption: 'Each model at its zoo batch. Forward times here keep the caches a backward pass needs.',
  csv: { filename: 'perflab-profiling-forward-backward.csv', columns: BACKWARD_CSV },
  charts: [
    {
      type: 'bar',
      title: 'Backward as a multiple of forward: measured time, counted FLOPs and the 2× estimate',
      options: {
        x: 'name',
        y: 'value',
        series: 'series',
        seriesDomain: RATIO_SERIES,
        xLabel: 'Model',
        yLabel: '↑ Backward / forward (×)',
        ariaLabel: 'Per model: measured backward / forward time, counted backward / forward FLOPs, and the estimate 2',
        emptyText: 'Press Run to measure.',
        height: 280,
      },
      data: ratioSeries,
    },
  ],
};
