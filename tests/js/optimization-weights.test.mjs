// Protects the pure half of the Optimization chapter's "Look at the weights" block
// (web/src/chapters/optimization/weights-data.js): core's bins become adjacent bars whose last
// edge is the maximum, the rules sit at ± the median magnitude, the table prints core's
// figures, and the sentence beside the chart reads the same figures it shows. The
// distribution is hand-written in core's shape (optimize/weights.hpp's to_json).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { WEIGHT_COLUMNS, medianRules, tensorsOf, weightBins, weightSentence } from '../../web/src/chapters/optimization/weights-data.js';

const stats = (name, over = {}) => ({
  name,
  layer_type: 'Linear',
  layer: 0,
  shape: [2, 2],
  count: 4,
  mean: 0.37625,
  std: 1.0821,
  min: -1,
  max: 2,
  magnitude_percentiles: [10, 20, 30, 40, 50, 60, 70, 80, 90].map((percentile) => ({ percentile, value: percentile / 100 })),
  fraction_below: [
    { threshold: 0.001, fraction: 0 },
    { threshold: 0.01, fraction: 0.25 },
    { threshold: 0.1, fraction: 0.5 },
  ],
  histogram: { low: -1, bin_width: 1, counts: [1, 2, 1] },
  ...over,
});
const DISTRIBUTION = {
  model: 'two',
  tensors: [stats('0.weight'), stats('2.weight', { layer: 2, shape: [1, 2] })],
  all: stats('all', { layer_type: '', shape: [6], count: 6, max: 2.5, histogram: { low: -1, bin_width: 3.5 / 3, counts: [1, 4, 1] } }),
};

test('weights: the tensors to pick are every weight tensor, then all of them', () => {
  assert.deepEqual(tensorsOf(DISTRIBUTION).map((t) => t.name), ['0.weight', '2.weight', 'all']);
});

test('weights: core’s bins are adjacent bars, the last edge the maximum itself; equal weights are one bar', () => {
  assert.deepEqual(weightBins(DISTRIBUTION.tensors[0]), [
    { x0: -1, x1: 0, count: 1 },
    { x0: 0, x1: 1, count: 2 },
    { x0: 1, x1: 2, count: 1 },
  ]);
  const all = weightBins(DISTRIBUTION.all);
  assert.equal(all[2].x1, 2.5);
  assert.equal(all[1].x1, all[2].x0);
  assert.deepEqual(weightBins(stats('x', { min: 0.25, max: 0.25, histogram: { low: 0.25, bin_width: 0, counts: [4, 0, 0] } })), [{ x0: 0.25, x1: 0.25, count: 4 }]);
});

test('weights: the rules sit at ± the median magnitude', () => {
  assert.deepEqual(medianRules(DISTRIBUTION.tensors[0]), [
    { x: -0.5, label: '−0.500' },
    { x: 0.5, label: '+0.500' },
  ]);
});

test('weights: the table prints core’s figures, one row per tensor and one for all', () => {
  const cells = Object.fromEntries(WEIGHT_COLUMNS.map((c) => [headerText(c), cellText(c, DISTRIBUTION.tensors[1])]));
  assert.deepEqual(cells, {
    tensor: '2.weight',
    shape: '1×2',
    count: '4',
    mean: '0.376',
    std: '1.08',
    min: '-1.00',
    max: '2.00',
    '|w| p10': '0.100',
    '|w| p50': '0.500',
    '|w| p90': '0.900',
    '<0.001': '0.0%',
    '<0.01': '25.0%',
    '<0.1': '50.0%',
  });
  assert.equal(cellText(WEIGHT_COLUMNS[1], DISTRIBUTION.all), '—');
});

test('weights: the sentence reads the figures the chart and table show', () => {
  assert.equal(
    weightSentence(DISTRIBUTION.tensors[0], 'two'),
    'In 0.weight (Linear #0), half of the 4 weights have a magnitude below 0.500 (between the dashed lines), 25.0% are below 0.01 and 50.0% below 0.1. ' +
      'Pruning this tensor to 50% sparsity by magnitude would zero every weight between the lines: the smallest go first.',
  );
  assert.match(weightSentence(DISTRIBUTION.all, 'two'), /^In all weight tensors of two together, half of the 6 weights .* Global magnitude pruning to 50% sparsity/);
});
