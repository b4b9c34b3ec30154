// Protects the Optimization chapter's reshaping of core's training answers (train-data.js):
// the recipe JSON the controls give (an empty field leaves core's baseline value), which
// control core's recipe error names, one chart point per epoch and series, whole-epoch axis
// ticks, the time per step
// as core's sums over core's steps, and a sentence about the backward/forward ratio that
// says what the numbers say. Hand-made records, values computable by hand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { controlOfError, epochRows, epochTicks, recipeOf, ruleSentence, stepRow, stepSplit } from '../../web/src/chapters/optimization/train-data.js';

const record = (epoch, over = {}) => ({
  epoch,
  steps: 10,
  samples: 640,
  learning_rate: 0.001,
  train_loss: 1 / epoch,
  train_accuracy: 0.5 + epoch / 10,
  validation_loss: 1.1 / epoch,
  validation_accuracy: 0.45 + epoch / 10,
  data_ms: 1,
  forward_ms: 20,
  loss_ms: 2,
  backward_ms: 30,
  optimizer_ms: 7,
  samples_per_s: 9000,
  ...over,
});

test('an epoch axis is ticked at whole epochs, every 1, 2, 5, 10, ... so at most ten', () => {
  assert.deepEqual(epochTicks(1, 1), [1]);
  assert.deepEqual(epochTicks(1, 10), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.deepEqual(epochTicks(1, 15), [2, 4, 6, 8, 10, 12, 14]);
  assert.deepEqual(epochTicks(1, 25), [5, 10, 15, 20, 25]);
  assert.deepEqual(epochTicks(1, 1000), [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
  assert.deepEqual(epochTicks(0, 2.5), [0, 1, 2], 'fractional data (the batch loss) still gets whole ticks');
  assert.deepEqual(epochTicks(0, 0.4), [0]);
  assert.deepEqual(epochTicks(1, 0), [], 'no epoch yet');
});

test('the controls give core a recipe; an empty field keeps the baseline value', () => {
  assert.deepEqual(recipeOf({ epochs: '3', batch: ' 64 ', learning_rate: '0.01', optimizer: 'sgd', validation_samples: '' }), {
    epochs: 3,
    batch: 64,
    learning_rate: 0.01,
    optimizer: 'sgd',
  });
  // Not a number reaches core as NaN, which it refuses naming the field.
  assert.ok(Number.isNaN(recipeOf({ batch: 'x' }).batch));
});

test('core’s recipe errors are shown beside the control they name', () => {
  assert.equal(controlOfError('recipe batch must be from 1 to 4096, got 0'), 'batch');
  assert.equal(controlOfError('recipe.epochs must be a number'), 'epochs');
  assert.equal(controlOfError('recipe validation_samples 700 must be below the 600 images'), 'validation_samples');
  assert.equal(controlOfError('optimizer "rmsprop" is not known; the optimizers are sgd, adam'), 'optimizer');
  assert.equal(controlOfError('recipe schedule "x" is not known'), null);
  assert.equal(controlOfError('no model has id 7'), null);
});

test('one chart point per epoch and series; no validation series without validation images', () => {
  const rows = epochRows([record(1), record(2)]);
  assert.equal(rows.loss.length, 4);
  assert.deepEqual(rows.accuracy.map((r) => [r.epoch, r.series]), [
    [1, 'train (epoch mean)'],
    [1, 'validation'],
    [2, 'train (epoch mean)'],
    [2, 'validation'],
  ]);
  assert.equal(epochRows([record(1, { validation_loss: null, validation_accuracy: null })]).loss.length, 1);
  assert.deepEqual(stepRow({ steps_done: 15, loss: 0.7 }, 10), { epoch: 1.5, value: 0.7, series: 'batch loss', step: 15 });
  assert.equal(stepRow({ steps_done: 0, loss: null }, 10), null);
});

test('the time per step is core’s sums over core’s steps; the sentence agrees with the ratio', () => {
  const split = stepSplit([record(1), record(2)]);
  assert.equal(split.steps, 20);
  assert.deepEqual(split.rows.map((r) => [r.part, r.ms_per_step]), [
    ['forward', 2],
    ['backward (with the loss)', 3.2],
    ['optimizer step', 0.7],
    ['building the batch', 0.1],
  ]);
  assert.equal(split.backward_over_forward, 1.6);
  assert.match(ruleSentence(split), /^Measured over 20 steps: the backward pass \(with the loss\) took 1\.6× the forward pass’s time, below the rule’s 2×/);
  assert.match(ruleSentence(split), /The optimizer step took 11\.7% of a step\.$/);
  assert.match(ruleSentence(stepSplit([record(1, { backward_ms: 38 })])), /took 2\.0× the forward pass’s time, close to the rule’s 2×/);
  assert.match(ruleSentence(stepSplit([record(1, { backward_ms: 58 })])), /took 3\.0× .*, above the rule’s 2×/);
  assert.equal(stepSplit([]), null);
  assert.match(ruleSentence(null), /not measured/);
});

test('the chapter’s sections are a chapter, and every {{number}} they quote is one facts.js gives', async () => {
  const { chapterProblems } = await import('../../web/src/chapters/chapter-model.js');
  const { INTRO, SECTIONS } = await import('../../web/src/chapters/optimization/explanations.js');
  const { factTexts, linearWidths } = await import('../../web/src/chapters/optimization/facts.js');
  const chapter = { id: 'optimization', title: 'Optimization', heading: 'H', intro: INTRO, sections: SECTIONS, slots: Object.fromEntries(SECTIONS.flatMap((s) => s.slots ?? []).map((name) => [name, () => ({})])) };
  assert.deepEqual(chapterProblems(chapter), []);
  const file = (split, kind, count, bytes) => ({ split, kind, count, bytes, rows: 28, cols: 28 });
  const manifest = {
    files: [
      file('test', 'images', 10000, 4422079), file('test', 'labels', 10000, 5125),
      file('train_subset', 'images', 12000, 5282086), file('train_subset', 'labels', 12000, 5733),
      file('train', 'images', 60000, 26421856), file('train', 'labels', 60000, 29491),
    ],
    first_use_bytes: 10670823,
  };
  const recipe = { optimizer: { name: 'adam' }, learning_rate: 0.001, schedule: 'cosine', batch: 64, epochs: 15, validation_samples: 5000 };
  const spec = { name: 'fashion_mlp', layers: [{ type: 'Linear', in: 784, out: 256 }, { type: 'ReLU' }, { type: 'Linear', in: 256, out: 10 }] };
  const texts = factTexts({ manifest, recipe, spec, distill: { temperature: 1, alpha: 0.9 } });
  const quoted = SECTIONS.flatMap((s) => [...s.paragraphs, s.formula ?? '', s.run ?? '']).join('\n').match(/\{\{([a-z0-9_]+)\}\}/g).map((m) => m.slice(2, -2));
  for (const name of quoted) assert.ok(Object.hasOwn(texts, name), `{{${name}}} is quoted but facts.js does not give it`);
  assert.equal(linearWidths(spec), '784-256-10');
  assert.equal(texts.first_use_mb, '10.7 MB');
  assert.equal(texts.full_train_mb, '26.5 MB');
  assert.equal(texts.subset_count, '12,000');
});
