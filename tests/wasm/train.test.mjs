// Training in core through the page's bindings (the training module, perflab_train_simd and
// perflab_train_scalar), on the real Fashion-MNIST files Debian's dataset-fashion-mnist installs
// (inflated here with Node's zlib, as the page's worker inflates them with
// DecompressionStream): a small model learns from a tiny fixed
// subset (loss falls, accuracy well above chance), training in chunks gives the same weights
// bit for bit as one long call, a cancel keeps the epochs done, a model file round-trips, and
// bad inputs (a truncated IDX file, an unknown id, sizes that do not match) are sentences
// after which the module still works. Timings are never asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { cancelledError } from '../../web/src/lab/protocol.js';
import { runSweep } from '../../web/src/lab/sweep.js';
import { BUILDS, fashionMnistFiles, loadPerflabTrain, messageOf } from './perflab_module.mjs';

const data = fashionMnistFiles();
const modules = await Promise.all(BUILDS.map(loadPerflabTrain));

// A small MLP: seconds to train on a thousand images.
const SPEC = {
  name: 'small_mlp', input: [32, 784],
  layers: [{ type: 'Linear', in: 784, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }],
};
// 900 training images, 100 held out: 29 steps an epoch at batch 32.
const RECIPE = { epochs: 2, batch: 32, validation_samples: 100, learning_rate: 0.003, seed: 7 };
const TRAIN_IMAGES = 1000;
const TEST_IMAGES = 500;

function loadSplits(Module) {
  const train = Module.loadFashionMnist(data.trainImages, data.trainLabels, 'train', TRAIN_IMAGES);
  const test = Module.loadFashionMnist(data.testImages, data.testLabels, 'test', TEST_IMAGES);
  return { train: train.dataset, test: test.dataset };
}

// The error's message, for assertions on sentences.
for (const [b, Module] of BUILDS.map((b, i) => [b, modules[i]])) {
  describe(`training through the bindings (${b.flavour} build)`, () => {
    // The splits are read once per build (the training file is 47 MB inflated) and shared.
    let train;
    let test;
    before(() => ({ train, test } = loadSplits(Module)));
    after(() => {
      Module.dropDataset(train);
      Module.dropDataset(test);
    });

    it('reads the real splits and describes them', () => {
      const trainInfo = Module.datasetInfo(train);
      const testInfo = Module.datasetInfo(test);
      assert.equal(trainInfo.count, TRAIN_IMAGES);
      assert.equal(testInfo.count, TEST_IMAGES);
      assert.equal(trainInfo.rows, 28);
      assert.equal(trainInfo.cols, 28);
      assert.equal(trainInfo.split, 'train');
      assert.equal(trainInfo.class_names[9], 'Ankle boot');
      assert.equal(trainInfo.class_counts.reduce((s, c) => s + c, 0), TRAIN_IMAGES);
      assert.equal(testInfo.split, 'test');
      const dropped = Module.loadFashionMnist(data.testImages, data.testLabels, 'test', 10);
      assert.equal(dropped.count, 10);
      Module.dropDataset(dropped.dataset);
      assert.match(messageOf(() => Module.datasetInfo(dropped.dataset)), /^no data set has id \d+/);
    });

    it('learns: the loss falls and the accuracy ends far above chance', () => {
      const model = Module.createModel(SPEC).model;
      const untrained = Module.evaluateModel(model, test, 5);
      const plan = Module.startTraining(model, train, RECIPE);
      assert.equal(plan.train_samples, 900);
      assert.equal(plan.validation_samples, 100);
      assert.equal(plan.steps_per_epoch, Math.ceil(900 / 32));
      assert.equal(plan.steps_total, 2 * plan.steps_per_epoch);
      const chunk = Module.trainSteps(model, plan.steps_total);
      assert.equal(chunk.finished, true);
      assert.equal(chunk.steps_done, plan.steps_total);
      assert.equal(chunk.epochs.length, 2);
      const [e1, e2] = chunk.epochs;
      assert.ok(e2.train_loss < e1.train_loss, `train loss ${e1.train_loss} then ${e2.train_loss}`);
      assert.ok(e2.validation_accuracy > 0.5, `validation accuracy ${e2.validation_accuracy}`);
      const trained = Module.evaluateModel(model, test, 5);
      assert.equal(trained.n, TEST_IMAGES);
      assert.ok(trained.mean_loss < untrained.mean_loss - 0.5, `test loss ${untrained.mean_loss} then ${trained.mean_loss}`);
      // Chance is 0.1 over ten balanced classes.
      assert.ok(trained.accuracy > 0.6, `test accuracy ${trained.accuracy}`);
      assert.equal(trained.misclassified.length, 5);
      assert.equal(trained.misclassified_total, TEST_IMAGES - trained.correct);
      assert.deepEqual(Module.trainingResult(model).epochs.map((e) => e.epoch), [1, 2]);
      // The trained weights as the pruning section looks at them: the two weight tensors.
      const weights = Module.weightDistribution(model);
      assert.deepEqual(weights.tensors.map((t) => [t.name, t.count]), [['0.weight', 784 * 32], ['2.weight', 32 * 10]]);
      assert.equal(weights.all.count, 784 * 32 + 32 * 10);
      assert.equal(weights.all.histogram.counts.reduce((a, b) => a + b, 0), weights.all.count);
      const deciles = weights.all.magnitude_percentiles.map((p) => p.value);
      assert.deepEqual(deciles, [...deciles].sort((a, b) => a - b), 'the magnitude percentiles rise');
      assert.ok(weights.all.min < 0 && weights.all.max > 0);
      Module.dropModel(model);
    });

    it('trains in chunks to the same weights as one long call, bit for bit, and round-trips the model file', () => {
      const whole = Module.createModel(SPEC).model;
      const chunked = Module.createModel(SPEC).model;
      const { steps_total } = Module.startTraining(whole, train, RECIPE);
      Module.startTraining(chunked, train, RECIPE);
      Module.trainSteps(whole, steps_total);
      const seen = [];
      let chunk;
      do {
        chunk = Module.trainSteps(chunked, 7);
        seen.push(chunk.steps_done);
      } while (!chunk.finished);
      assert.equal(seen.at(-1), steps_total);
      assert.equal(seen[0], 7);
      const bytes = Module.modelFileBytes(whole);
      assert.ok(bytes instanceof Uint8Array);
      assert.deepEqual(Module.modelFileBytes(chunked), bytes);

      // The file's model evaluates exactly as the trained one, with its training facts.
      const evaluation = Module.evaluateModel(whole, test, 3);
      const loaded = Module.loadModelFile(bytes);
      assert.equal(loaded.training.epochs, 2);
      assert.equal(loaded.training.train_samples, 900);
      assert.equal(loaded.training.test_accuracy, null);
      assert.deepEqual(Module.evaluateModel(loaded.model, test, 3), evaluation);
      // After an evaluation on the test split, the file records its accuracy.
      const again = Module.loadModelFile(Module.modelFileBytes(whole));
      assert.equal(again.training.test_accuracy, evaluation.accuracy);
      for (const m of [whole, chunked, loaded.model, again.model]) Module.dropModel(m);
    });

    it('a cancel keeps the epochs done and their weights', () => {
      const cancelled = Module.createModel(SPEC).model;
      const oneEpoch = Module.createModel(SPEC).model;
      const { steps_per_epoch } = Module.startTraining(cancelled, train, RECIPE);
      Module.startTraining(oneEpoch, train, RECIPE);
      const chunk = Module.trainSteps(cancelled, steps_per_epoch + 5);
      assert.equal(chunk.epochs.length, 1);
      assert.equal(chunk.finished, false);
      const result = Module.cancelTraining(cancelled);
      assert.equal(result.cancelled, true);
      assert.equal(result.epochs.length, 1);
      assert.equal(Module.modelInfo(cancelled).trainer.finished, true);
      // Nothing more runs after a cancel.
      assert.equal(Module.trainSteps(cancelled, 10).steps_done, steps_per_epoch + 5);
      // The weights are the first epoch's: those of a run stopped exactly there.
      Module.trainSteps(oneEpoch, steps_per_epoch);
      assert.deepEqual(Module.modelFileBytes(cancelled), Module.modelFileBytes(oneEpoch));
      Module.dropModel(cancelled);
      Module.dropModel(oneEpoch);
    });

    it('trains as the worker does: a sweep of chunks, a row each, cancelled between chunks', async () => {
      const model = Module.createModel(SPEC).model;
      const { steps_per_epoch } = Module.startTraining(model, train, RECIPE);
      const points = Array.from({ length: 20 }, () => ({ model_id: model, steps: 4 }));
      const rows = [];
      // The worker's context: progress replies carry each chunk's row; the cancel arrives
      // once the first epoch is done (10 chunks of 4 steps, at 29 steps an epoch).
      const ctx = {
        progress: (fraction, detail) => detail.row && rows.push(detail.row),
        throwIfCancelled: () => {
          if (rows.length === 10) throw cancelledError();
        },
      };
      await assert.rejects(runSweep([[b.flavour, Module]], 'trainSteps', points, ctx, { yieldToEvents: async () => {} }),
        (err) => err.cancelled === true);
      assert.deepEqual(rows.map((r) => r.steps_done), [4, 8, 12, 16, 20, 24, 28, 32, 36, 40]);
      assert.ok(rows.every((r) => r.model_id === model && r.build === b.flavour && Number.isFinite(r.loss)));
      assert.deepEqual(rows.flatMap((r) => r.epochs.map((e) => e.epoch)), [1]);
      assert.equal(rows.findIndex((r) => r.epochs.length === 1), Math.floor(steps_per_epoch / 4));
      const result = Module.cancelTraining(model);
      assert.equal(result.cancelled, true);
      assert.equal(result.epochs.length, 1);
      Module.dropModel(model);
    });

    it('refuses bad inputs with sentences, and the module still works', () => {
      const truncated = data.testImages.subarray(0, 5000);
      assert.match(messageOf(() => Module.loadFashionMnist(truncated, data.testLabels, 'test', 0)), /test images/);
      // Images and labels of different splits: the counts do not match.
      assert.match(messageOf(() => Module.loadFashionMnist(data.testImages, data.trainLabels, 'test', 0)), /60000|60,000/);
      assert.match(messageOf(() => Module.loadFashionMnist([1, 2, 3], data.testLabels, 'test', 0)),
        /^images must be a Uint8Array of bytes, got \[1, 2, 3\]/);
      assert.match(messageOf(() => Module.loadFashionMnist(data.testImages, data.testLabels, 'validation', 0)), /validation/);
      assert.match(messageOf(() => Module.trainSteps(999, 1)), /^no model has id 999/);
      assert.match(messageOf(() => Module.evaluateModel(999, 1, 5)), /^no model has id 999/);
      assert.match(messageOf(() => Module.weightDistribution(999)), /^no model has id 999/);
      assert.match(messageOf(() => Module.loadModelFile(new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9]))),
        /is not a perflab model file/);

      assert.match(messageOf(() => Module.evaluateModel(1e6, test, 5)), /^no model has id 1000000/);
      // A model whose input is not the images' 784 pixels, and one with 4 outputs.
      const wide = Module.createModel({ name: 'wide', input: [8, 30], layers: [{ type: 'Linear', in: 30, out: 10 }] }).model;
      assert.match(messageOf(() => Module.startTraining(wide, train, RECIPE)), /input \(8, 30\) does not take/);
      assert.match(messageOf(() => Module.evaluateModel(wide, test, 5)), /does not take/);
      const four = Module.createModel({ name: 'four', input: [8, 784], layers: [{ type: 'Linear', in: 784, out: 4 }] }).model;
      assert.match(messageOf(() => Module.evaluateModel(four, test, 5)), /one logit per class/);
      assert.match(messageOf(() => Module.trainSteps(four, 1)), /not training/);
      assert.match(messageOf(() => Module.startTraining(four, 999, RECIPE)), /^no data set has id 999/);
      assert.match(messageOf(() => Module.startTraining(four, train, { epochs: 0 })), /epochs/);
      assert.match(messageOf(() => Module.startTraining(four, train, { validation_samples: TRAIN_IMAGES })), /validation_samples/);

      // Still works: a model trains and evaluates after every refusal above.
      const model = Module.createModel(SPEC).model;
      const plan = Module.startTraining(model, train, { ...RECIPE, epochs: 1 });
      assert.match(messageOf(() => Module.trainSteps(model, 0)), /^steps must be at least 1/);
      assert.equal(Module.trainSteps(model, plan.steps_total).finished, true);
      assert.ok(Module.evaluateModel(model, test, 0).accuracy > 0.3);
      for (const m of [wide, four, model]) Module.dropModel(m);
    });
  });
}
