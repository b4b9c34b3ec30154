// Protects the pure half of the Optimization chapter's structured-pruning section
// (web/src/chapters/optimization/structured-data.js) and the chunk planner the sections that
// train share (chunked-training.js): no chunk crosses an epoch's end when the caller evaluates
// per epoch, the layer and size rows are core's report, the curve starts at the pruned model,
// a latency row is core's A/B answer, and every sentence says what its numbers say (a loss
// and a recovery, a gain, a speedup against the FLOP ratio or none). Rows are hand-written
// in core's answers' shapes; no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planChunks } from '../../web/src/chapters/optimization/chunked-training.js';
import {
  CURVE_SERIES,
  accuracyDomain,
  accuracySentences,
  curveRows,
  evidenceRows,
  latencyRow,
  latencySentences,
  layerRows,
  madeEntry,
  sizeRows,
} from '../../web/src/chapters/optimization/structured-data.js';

test('chunks: never past the total, and with stopAtEpochs never past the epoch’s end', () => {
  assert.deepEqual(planChunks({ done: 0, total: 100, stepsPerEpoch: 30, chunk: 7, chunks: 5, stopAtEpochs: false }), [7, 7, 7, 7, 7]);
  assert.deepEqual(planChunks({ done: 0, total: 100, stepsPerEpoch: 30, chunk: 7, chunks: 5, stopAtEpochs: true }), [7, 7, 7, 7, 2]);
  assert.deepEqual(planChunks({ done: 28, total: 100, stepsPerEpoch: 30, chunk: 7, chunks: 5, stopAtEpochs: true }), [2]);
  assert.deepEqual(planChunks({ done: 30, total: 100, stepsPerEpoch: 30, chunk: 50, chunks: 1, stopAtEpochs: true }), [30]);
  assert.deepEqual(planChunks({ done: 95, total: 100, stepsPerEpoch: 30, chunk: 50, chunks: 3, stopAtEpochs: true }), [5]);
  assert.deepEqual(planChunks({ done: 95, total: 100, stepsPerEpoch: 30, chunk: 2, chunks: 9, stopAtEpochs: false }), [2, 2, 1]);
});

const REPORT = {
  fraction: 0.5,
  parameters_before: 235146,
  parameters_after: 109386,
  flops_before: 469504,
  flops_after: 218112,
  layers: [
    { layer: 0, type: 'Linear', before: 256, after: 128 },
    { layer: 2, type: 'Linear', before: 128, after: 64 },
  ],
};

test('structured: the layer and size rows are core’s report', () => {
  assert.deepEqual(layerRows(REPORT), [
    { layer: 'layers[0] Linear', before: 256, after: 128, kept: 0.5 },
    { layer: 'layers[2] Linear', before: 128, after: 64, kept: 0.5 },
  ]);
  const sizes = sizeRows(REPORT, 4 * 235146, 4 * 109386);
  assert.deepEqual(sizes.map((r) => r.what), ['parameters', 'parameter bytes', 'forward FLOPs per image (core’s total)']);
  assert.equal(sizes[1].after, 437544);
  assert.equal(sizes[2].ratio, 218112 / 469504);
  assert.throws(() => layerRows({}), /no layers/);
});

test('structured: the curve starts at the pruned model, epoch 0', () => {
  const rows = curveRows(0.78, [{ epoch: 1, accuracy: 0.86 }, { epoch: 2, accuracy: 0.87 }]);
  assert.deepEqual(rows.map((r) => [r.epoch, r.accuracy]), [[0, 0.78], [1, 0.86], [2, 0.87]]);
  assert.ok(rows.every((r) => r.series === CURVE_SERIES));
});

test('structured: the accuracy sentences say the loss, the recovery and the gap', () => {
  const [cut, tuned] = accuracySentences({ baseline: 0.9, pruned: 0.78, tuned: [{ epoch: 1, accuracy: 0.87 }, { epoch: 2, accuracy: 0.885 }] });
  assert.equal(cut, 'Pruning alone took the test accuracy from 90.00% to 78.00%, 12 points lower.');
  assert.equal(tuned, 'After 2 epochs of fine-tuning it reads 88.50% (87.5% of what pruning lost won back), 1.5 points below the baseline.');
  const [, best] = accuracySentences({ baseline: 0.9, pruned: 0.8, tuned: [{ epoch: 1, accuracy: 0.91 }, { epoch: 2, accuracy: 0.905 }] });
  assert.match(best, /0\.5 points above the baseline\. The best epoch was 1 \(91\.00%\)\.$/);
  const [kept] = accuracySentences({ baseline: 0.9, pruned: 0.9, tuned: [] });
  assert.match(kept, /left the test accuracy at 90\.00%/);
});

const ab = (batch, a, b, verdict, ratio) => ({
  batch,
  flops_per_sample_a: 469504,
  flops_per_sample_b: 218112,
  a_ms: [a, a, a],
  b_ms: [b, b, b],
  comparison: { median_a: a, median_b: b, ratio, ratio_interval: { low: ratio * 0.95, high: ratio * 1.05 }, verdict: { name: verdict, word: verdict === 'no_difference' ? 'no clear difference' : verdict } },
});

test('structured: a latency row is core’s A/B, and its sentence compares the speedup with the FLOP ratio', () => {
  const rows = [latencyRow(ab(1, 0.1, 0.05, 'faster', 2)), latencyRow(ab(64, 2, 1.6, 'faster', 1.25)), latencyRow(ab(64, 1, 1, 'no_difference', 1))];
  assert.equal(rows[0].flop_ratio, 469504 / 218112);
  assert.equal(rows[0].rounds, 3);
  const [close, short, none] = latencySentences(rows);
  assert.match(close, /^At batch 1: the pruned forward ran 2\.00× as fast as the baseline’s .*, about what the 2\.15× fewer FLOPs predict\.$/);
  assert.match(short, /58\.1% of what the 2\.15× fewer FLOPs predict/);
  assert.match(none, /no clear difference/);
  assert.doesNotMatch(none, /predict/);
  // 2.5× against 2.15× fewer FLOPs, but the interval 1.7–2.9× holds 2.15: no "more than".
  const wide = ab(1, 0.1, 0.04, 'faster', 2.5);
  wide.comparison.ratio_interval = { low: 1.7, high: 2.9 };
  const [inside] = latencySentences([latencyRow(wide)]);
  assert.doesNotMatch(inside, /more than/);
  assert.match(inside, /; the speedup’s interval \(1\.70–2\.90×\) holds the 2\.15× fewer FLOPs, so this run cannot tell it from what they predict\.$/);
  const [above] = latencySentences([latencyRow(ab(1, 0.1, 0.04, 'faster', 2.5))]);
  assert.match(above, /, more than the 2\.15× fewer FLOPs alone predict\.$/);
});

test('structured: the made model’s name and lineage', () => {
  assert.deepEqual(madeEntry(0.5, 2), {
    name: 'structured pruning, 50% of hidden units removed, fine-tuned 2 epochs',
    lineage: ['structured prune 50%', 'fine-tune 2 epochs'],
  });
  assert.deepEqual(madeEntry(0.25, 0).lineage, ['structured prune 25%']);
});

test('structured: the exercise’s rows are the pruned model’s Linear layers, in order', () => {
  const spec = {
    layers: [{ type: 'Linear', in: 784, out: 128 }, { type: 'ReLU' }, { type: 'Linear', in: 128, out: 64 }, { type: 'ReLU' }, { type: 'Linear', in: 64, out: 10 }],
  };
  assert.deepEqual(evidenceRows(spec), [
    { linear: 0, in: 784, out: 128 },
    { linear: 1, in: 128, out: 64 },
    { linear: 2, in: 64, out: 10 },
  ]);
});

test('structured: the accuracy axis spans the values with a margin, within 0-100%', () => {
  assert.deepEqual(accuracyDomain([0.783, 0.885, 0.898]), [0.76, 0.92]);
  assert.deepEqual(accuracyDomain([0.01, 0.995]), [0, 1]);
  assert.deepEqual(accuracyDomain([NaN]), [0, 1]);
});
