// The attention-scaling experiment (profiling-attention): self-attention's FLOPs and memory
// against sequence length, the O(T²) term drawn apart from the projections, log axes.
// Not for: planning or columns (attention-data.js) or counting (core's attention_scaling).

import { declaredSweep } from '../../lab/client.js';
import { planInit } from './common.js';
import { ATTENTION_COLUMNS, ATTENTION_CSV, DEFAULT_SEQ_LENGTHS, attentionPoints, byteSeries, flopSeries, headsProblem } from './attention-data.js';

// The planned lengths as the log axis's ticks and domain.
const xAxis = (points) => {
  const t = (points ?? []).map((p) => p.seq_len);
  return t.length ? { xTicks: t, xDomain: [t[0], t[t.length - 1]] } : {};
};

const common = {
  x: 'seq_len',
  y: 'value',
  series: 'series',
  xType: 'log',
  yType: 'log',
  xLabel: 'Sequence length T (log scale) →',
  emptyText: 'Press Run to count.',
  height: 280,
};

export const attentionExperiment = {
  id: 'profiling-attention',
  title: 'Experiment: attention scaling with sequence length',
  explanation: [
    'Self-attention over T tokens of width D: the four projections cost <code>8·T·D²</code> FLOPs (linear in T); ' +
      'the scores <code>Q·Kᵀ</code> and the weighted sum <code>P·V</code> cost <code>2·T²·D</code> each, and the ' +
      'heads·T×T score matrix has to be held in memory. On a log-log plot a linear term is a line of slope 1 and ' +
      'a quadratic one a line of slope 2: find where they cross (T = 2·D) and past which length the quadratic ' +
      'term dominates.',
  ],
  quickNote: ({ info }) =>
    info?.plan && `Quick mode (?quick=1): lengths up to ${info.plan.max_seq_len}. These are counts, so quick mode changes no number.`,
  init: planInit('profiling-attention'),
  measureLonger: false, // counts, nothing timed
  controls: [
    { id: 'd-model', type: 'number', label: 'd_model', default: 128, min: 1, max: 8192, integer: true },
    { id: 'heads', type: 'number', label: 'Heads', default: 4, min: 1, max: 128, integer: true, validate: headsProblem },
    { id: 'seq-lengths', type: 'numbers', label: 'Sequence lengths', default: [...DEFAULT_SEQ_LENGTHS], min: 1, max: 65536, integer: true, maxCount: 16, example: '64, 256, 1024' },
  ],
  plan: attentionPoints,
  measure: declaredSweep('attentionPoint'),
  columns: ATTENTION_COLUMNS,
  tableCaption: 'Counted per sequence (batch 1) by core; matmul FLOPs at 2 per multiply-accumulate, the softmax apart.',
  csv: { filename: 'perflab-profiling-attention.csv', columns: ATTENTION_CSV },
  charts: [
    {
      type: 'line',
      title: 'FLOPs: projections (∝ T) against the quadratic term (∝ T²)',
      options: ({ points }) => ({ ...common, ...xAxis(points), yLabel: '↑ FLOPs per sequence (log scale)', ariaLabel: 'Attention FLOPs against sequence length: projections and the quadratic term, log-log' }),
      data: flopSeries,
    },
    {
      type: 'line',
      title: 'Memory: the score matrix grows with T²',
      options: ({ points }) => ({ ...common, ...xAxis(points), yFormat: 'bytes', yLabel: '↑ Memory (bytes, log scale)', ariaLabel: 'Attention memory against sequence length: weights, Q K V, score matrix, log-log' }),
      data: byteSeries,
    },
  ],
};
