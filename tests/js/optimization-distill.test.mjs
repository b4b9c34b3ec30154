// Protects the pure half of the Optimization chapter's distillation section
// (web/src/chapters/optimization/distill-data.js): both students' curve rows, the table pairing
// their epochs (an epoch only one finished is left out), the made model's name and lineage,
// and the sentences read from the accuracies: who is ahead and by how much (or a tie), the
// teacher's accuracy, and the one-seed caveat quoting the full plan's sizes and the bench's
// command, never a number the bench printed. Rows are hand-written; no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SEEDS_COMMAND, SERIES, curveRows, distillSentences, madeEntry, tableRows } from '../../web/src/chapters/optimization/distill-data.js';

const FULL = { train_images: 3000, recipe: { epochs: 20, seed: 1 } };

test('distill: one curve point per epoch and student, the table pairs the epochs both finished', () => {
  const d = [{ epoch: 1, accuracy: 0.8 }, { epoch: 2, accuracy: 0.82 }];
  const l = [{ epoch: 1, accuracy: 0.79 }];
  const rows = curveRows(d, l);
  assert.deepEqual(rows.map((r) => [r.series, r.epoch]), [[SERIES[0], 1], [SERIES[0], 2], [SERIES[1], 1]]);
  const table = tableRows(d, l);
  assert.equal(table.length, 1);
  assert.equal(table[0].epoch, 1);
  assert.ok(Math.abs(table[0].difference_points - 1) < 1e-9);
});

test('distill: the sentences say who is ahead, by how much, and what one seed can say', () => {
  const [ahead, caveat] = distillSentences({ distilled: 0.8312, labels: 0.8271, epochs: 20, seed: 1, teacher: 0.8985 }, FULL);
  assert.equal(
    ahead,
    'After 20 epochs on seed 1: distilled 83.12%, labels alone 82.71% on the test split: the distilled student is ahead by 0.41 points. The teacher itself reads 89.85%.',
  );
  assert.match(caveat, /^This is one seed\./);
  assert.match(caveat, /3,000 images and 20 epochs: this experiment’s full plan/);
  assert.ok(caveat.includes(SEEDS_COMMAND));
  assert.doesNotMatch(caveat, /\+0\.\d|interval [+-]?\d/, 'no number the bench printed');
  const [behind] = distillSentences({ distilled: 0.7, labels: 0.72, epochs: 1, seed: 3, teacher: 0.9 }, FULL);
  assert.match(behind, /^After 1 epoch on seed 3: .*the student trained on the labels alone is ahead by 2 points\./);
  const [tie] = distillSentences({ distilled: 0.7, labels: 0.7, epochs: 2, seed: 1, teacher: 0.9 }, FULL);
  assert.match(tie, /the two students tie/);
});

test('distill: the made model names its student, teacher, T, α and epochs', () => {
  assert.deepEqual(madeEntry({ studentName: 'mlp_32', teacherName: 'fashion_mlp (pretrained)', temperature: 1, alpha: 0.9, epochs: 3 }), {
    name: 'mlp_32 distilled from fashion_mlp (pretrained) (T 1, α 0.9, 3 epochs)',
    lineage: ['distill into mlp_32 (T 1, α 0.9)'],
  });
});
