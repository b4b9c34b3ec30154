// The pure half of the quantization section and the Pareto frontier (quantize-data.js): rows
// from core's answers (in the shapes quantizeHeldModel, evaluateModel and forwardAB give
// them), the sentences read from those rows (accuracy points, bytes ratio, the A/B verdict),
// and the frontier chart's series and dashed segments from core's flags.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import {
  chartRows,
  evidenceRows,
  frontierSegments,
  latencyRow,
  latencySentences,
  layerRows,
  layerSentence,
  madeEntry,
  quantizeSources,
  paretoRows,
  paretoSentences,
  summaryRow,
  summarySentences,
} from '../../web/src/chapters/optimization/quantize-data.js';

const Q = {
  model: 3,
  calibration: 'percentile',
  calibration_images: 1000,
  float_parameter_bytes: 1000,
  parameter_bytes: 260,
  layers: [{ layer: 0, input_range: [0, 1], input_scale: 1 / 255, input_zero_point: 0 }, { layer: 2, input_range: [0, 8], input_scale: 8 / 255, input_zero_point: 0 }],
  layer_errors: [
    { layer: 0, type: 'Linear', max_abs: 0.02, mean_abs: 0.004, float_max_abs: 4 },
    { layer: 1, type: 'ReLU', max_abs: 0.02, mean_abs: 0.002, float_max_abs: 4 },
    { layer: 2, type: 'Linear', max_abs: 0.1, mean_abs: 0.03, float_max_abs: 5 },
  ],
};

describe('the quantization rows and sentences', () => {
  it('reads accuracy points and the bytes ratio from the rows', () => {
    const row = summaryRow(Q, { accuracy: 0.8912, n: 10000 }, 0.8925);
    assert.equal(row.bytes_ratio, 0.26);
    assert.ok(Math.abs(row.points - -0.13) < 1e-9);
    const [sentence] = summarySentences([row]);
    assert.match(sentence, /percentile calibration on 1,000 training images/);
    assert.match(sentence, /0\.260× the float model’s bytes \(3\.85× smaller\)/);
    assert.match(sentence, /0\.13 points less test accuracy than the float model \(89\.12% against 89\.25%\)/);
    const same = summaryRow(Q, { accuracy: 0.9, n: 10 }, 0.9);
    assert.match(summarySentences([same])[0], /the same test accuracy/);
  });

  it('puts the calibrated range beside each Linear and names the worst layer', () => {
    const rows = layerRows(Q);
    assert.equal(rows.length, 3);
    assert.equal(rows[0].input_range, '[0, 1.00]');
    assert.equal(rows[1].input_range, 'float32');
    assert.ok(Number.isNaN(rows[1].input_zero_point));
    const s = layerSentence(rows);
    // 0.1 / 5 = 2% at the logits against 0.5% for the others.
    assert.match(s, /at layers\[2\] Linear \(0\.100 against 5\.00, 2\.0%\)/);
    assert.match(s, /move by 0\.0300 on average/);
  });

  it('says core’s verdict of each A/B in words', () => {
    const ab = (word, name, ratio) => ({ batch: 64, a_ms: [1, 1, 1], comparison: { median_a: 2, median_b: 2 / ratio, ratio, ratio_interval: { low: ratio * 0.9, high: ratio * 1.1 }, verdict: { name, word } } });
    const rows = [latencyRow(ab('faster', 'faster', 2), 'minmax'), latencyRow(ab('slower', 'slower', 0.5), 'percentile')];
    assert.equal(rows[0].b_ms, 1); // B, the int8 model's median
    const [s] = latencySentences(rows);
    assert.match(s, /^At batch 64, by core’s interleaved A\/B .*: with min\/max calibration it was 2\.00× as fast as the float model and with percentile calibration it was slower than the float model \(2\.00× its time\)\.$/);
  });

  it('publishes each Linear’s calibrated range for the exercise', () => {
    assert.deepEqual(evidenceRows(Q), [{ percentile: 1, linear: 0, lo: 0, hi: 1 }, { percentile: 1, linear: 1, lo: 0, hi: 8 }]);
  });

  it('names the made model by its calibration', () => {
    assert.deepEqual(madeEntry(Q), { key: 'int8-percentile', name: 'int8, percentile calibration', lineage: ['int8 (percentile calibration, 1,000 images)'] });
  });

  it('composes: an int8 model of a pruned one keeps the pruned one’s lineage and its own key', () => {
    const pruned = { key: 'structured-50', name: 'structured pruning, 50% of hidden units removed', baseline: false, lineage: ['structured prune 50%', 'fine-tune 2 epochs'] };
    assert.deepEqual(madeEntry(Q, pruned), {
      key: 'int8-percentile-of-structured-50',
      name: 'int8 (percentile) of structured pruning, 50% of hidden units removed',
      lineage: ['structured prune 50%', 'fine-tune 2 epochs', 'int8 (percentile calibration, 1,000 images)'],
    });
  });

  it('offers every float model to quantize, the baseline first, no int8 one', () => {
    const models = [
      { key: 'int8-minmax', info: { quantization: { layers: [] } } },
      { key: 'structured-50', info: { quantization: null } },
      { key: 'baseline', baseline: true },
    ];
    assert.deepEqual(quantizeSources(models).map((m) => m.key), ['baseline', 'structured-50']);
    assert.deepEqual(quantizeSources([]), []);
  });
});

describe('the Pareto frontier rows', () => {
  const models = [
    { key: 'baseline', name: 'base', baseline: true, evaluation: { accuracy: 0.89, parameter_bytes: 1000 } },
    { key: 'q', name: 'int8', baseline: false, evaluation: { accuracy: 0.889, parameter_bytes: 260 } },
    { key: 'p', name: 'pruned', baseline: false, evaluation: { accuracy: 0.85, parameter_bytes: 500 } },
  ];
  const rows = paretoRows(models, [2, 1, 1.5], [true, true, false], [true, true, false]);

  it('says what made each model', () => {
    const withLineage = paretoRows([models[0], { ...models[1], lineage: ['structured prune 50%', 'int8 (min/max calibration, 200 images)'] }], [2, 1], [true, true], [true, true]);
    assert.deepEqual(withLineage.map((r) => r.lineage), ['the baseline', 'baseline → structured prune 50% → int8 (min/max calibration, 200 images)']);
  });

  it('marks the baseline apart and each point by core’s flag', () => {
    assert.deepEqual(chartRows(rows, 'latency_ms').map((r) => [r.series, r.cost]), [['baseline', 2], ['on the frontier', 1], ['dominated', 1.5]]);
    assert.deepEqual(chartRows(rows, 'parameter_bytes').map((r) => r.cost), [1000, 260, 500]);
  });

  it('joins the frontier’s points in order of cost', () => {
    assert.deepEqual(frontierSegments(rows, 'latency_ms'), [{ x1: 1, y1: 0.889, x2: 2, y2: 0.89, dashed: true }]);
    assert.deepEqual(frontierSegments(rows.slice(0, 1), 'latency_ms'), []);
  });

  it('names the models on each frontier, and who dominates a dominated baseline', () => {
    const s = paretoSentences(rows);
    assert.equal(s[0], 'On the latency–accuracy frontier: base and int8.');
    const dominated = paretoRows(models, [2, 1, 1.5], [false, true, false], [true, true, false]);
    const rowsB = dominated.map((r, i) => (i === 1 ? { ...r, accuracy: 0.9 } : r));
    assert.match(paretoSentences(rowsB)[2], /The baseline is dominated on latency: int8 is at least as fast and as accurate\./);
    assert.deepEqual(paretoSentences([]), []);
  });
});
