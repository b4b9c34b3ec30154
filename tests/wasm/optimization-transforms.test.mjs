// The session bindings of the Optimization chapter's structured pruning and distillation
// (wasm/bind_train.cpp: pruneStructured, startFinetuning, startDistillation, forwardAB), in
// both Node builds, on a tiny subset of the real Fashion-MNIST files: pruning a held model
// makes a new, smaller held model (its info shrinks, the source's does not) whose fine-tuning
// runs through trainSteps and lowers its test loss; a distillation session on a few hundred
// images lowers its loss epoch by epoch and differs from the labels-only twin; the forward A/B
// of two held models answers with core's comparison; bad arguments are sentences after which
// the module still works. Timings are never asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { BUILDS, fashionMnistFiles, loadPerflabTrain, messageOf } from './perflab_module.mjs';

const data = fashionMnistFiles();
const modules = await Promise.all(BUILDS.map(loadPerflabTrain));

const TEACHER = {
  name: 'teacher_mlp', input: [32, 784],
  layers: [{ type: 'Linear', in: 784, out: 64 }, { type: 'ReLU' }, { type: 'Linear', in: 64, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }],
};
const TRAIN_IMAGES = 600;
const TEST_IMAGES = 300;

for (const [b, Module] of BUILDS.map((b, i) => [b, modules[i]])) {
  describe(`structured pruning and distillation sessions (${b.flavour} build)`, () => {
    let train;
    let test;
    let teacher;
    before(() => {
      train = Module.loadFashionMnist(data.trainImages, data.trainLabels, 'train', TRAIN_IMAGES).dataset;
      test = Module.loadFashionMnist(data.testImages, data.testLabels, 'test', TEST_IMAGES).dataset;
      teacher = Module.createModel(TEACHER).model;
      const plan = Module.startTraining(teacher, train, { epochs: 3, batch: 32, validation_samples: 60, learning_rate: 0.003 });
      Module.trainSteps(teacher, plan.steps_total);
    });
    after(() => {
      Module.dropModel(teacher);
      Module.dropDataset(train);
      Module.dropDataset(test);
    });

    it('prunes a held model into a smaller one and fine-tunes it through trainSteps', () => {
      const before = Module.modelInfo(teacher);
      const pruned = Module.pruneStructured(teacher, 0.5);
      assert.notEqual(pruned.model, teacher);
      assert.equal(pruned.source, teacher);
      assert.deepEqual(pruned.report.layers.map((l) => [l.before, l.after]), [[64, 32], [32, 16]]);
      const count = 784 * 32 + 32 + 32 * 16 + 16 + 16 * 10 + 10;
      assert.equal(pruned.info.parameter_count, count);
      assert.equal(pruned.info.parameter_bytes, 4 * count);
      assert.equal(pruned.report.parameters_before, before.parameter_count);
      assert.equal(Module.modelInfo(teacher).parameter_count, before.parameter_count, 'the source is only read');
      assert.ok(pruned.report.flops_after < pruned.report.flops_before);

      const cut = Module.evaluateModel(pruned.model, test, 0);
      const start = Module.startFinetuning(pruned.model, train, 2);
      assert.equal(start.recipe.init, 'keep');
      assert.equal(start.recipe.learning_rate, 0.003);
      assert.equal(start.recipe.epochs, 2);
      const chunk = Module.trainSteps(pruned.model, start.steps_total);
      assert.equal(chunk.finished, true);
      assert.equal(chunk.epochs.length, 2);
      const tuned = Module.evaluateModel(pruned.model, test, 0);
      assert.ok(tuned.mean_loss < cut.mean_loss, `test loss ${cut.mean_loss} pruned, ${tuned.mean_loss} fine-tuned`);
      const file = Module.loadModelFile(Module.modelFileBytes(pruned.model));
      assert.equal(file.parameter_count, count);
      assert.equal(file.training.lineage.at(-1).method, 'structured');
      assert.equal(file.training.lineage.at(-1).finetune_epochs, 2);

      // Both forwards, timed interleaved by core: its comparison, a few rounds.
      const ab = Module.forwardAB(teacher, pruned.model, 4, { rounds: 3, warmup: 0, min_sample_ms: 0.2 });
      assert.equal(ab.batch, 4);
      assert.equal(ab.a_ms.length, 3);
      assert.equal(ab.flops_per_sample_a, pruned.report.flops_before);
      assert.equal(ab.flops_per_sample_b, pruned.report.flops_after);
      assert.equal(typeof ab.comparison.ratio, 'number');
      for (const id of [file.model, pruned.model]) Module.dropModel(id);
    });

    it('distils the teacher into a student whose loss falls, unlike its labels-only twin', () => {
      const STUDENT = { name: 'mlp_32', input: [64, 784], layers: [{ type: 'Linear', in: 784, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }] };
      const distilled = Module.createModel(STUDENT).model;
      const labels = Module.createModel(STUDENT).model;
      const recipe = { epochs: 3, batch: 32, validation_samples: 60, seed: 2 };
      const s = Module.startDistillation(distilled, teacher, train, recipe);
      const l = Module.startTraining(labels, train, recipe);
      assert.equal(s.steps_total, l.steps_total);
      assert.equal(s.temperature, 1, 'core’s default T');
      assert.equal(s.alpha, 0.9, 'core’s default α');
      assert.equal(s.teacher, 'teacher_mlp');
      const first = Module.trainSteps(distilled, 1).loss;
      const rest = Module.trainSteps(distilled, s.steps_total);
      assert.equal(rest.finished, true);
      const losses = Module.trainingResult(distilled).epochs.map((e) => e.train_loss);
      assert.equal(losses.length, 3);
      assert.ok(losses[2] < losses[0] && losses[0] < first, `first batch ${first}, epochs ${losses}`);
      Module.trainSteps(labels, l.steps_total);
      assert.notDeepEqual(Module.weightDistribution(distilled).all, Module.weightDistribution(labels).all);
      const evaluation = Module.evaluateModel(distilled, test, 0);
      assert.ok(evaluation.accuracy > 0.5, `distilled student ${evaluation.accuracy}`);
      const file = Module.loadModelFile(Module.modelFileBytes(distilled));
      assert.equal(file.training.lineage[0].transform, 'distill');
      assert.equal(file.training.lineage[0].epochs, 3);
      for (const id of [file.model, distilled, labels]) Module.dropModel(id);
    });

    it('refuses bad arguments with sentences, and keeps working', () => {
      const student = Module.createModel(TEACHER).model;
      assert.match(messageOf(() => Module.pruneStructured(teacher, 1)), /^fraction must be at least 0 and below 1/);
      assert.match(messageOf(() => Module.startFinetuning(student, train, 0)), /^fine-tuning needs at least 1 epoch, got 0/);
      assert.match(messageOf(() => Module.startDistillation(student, student, train, {})), /^distillation needs two models/);
      assert.match(messageOf(() => Module.startDistillation(student, teacher, train, { validation_samples: 60 }, 0, 0.5)), /temperature/);
      assert.match(messageOf(() => Module.forwardAB(teacher, student, 0, {})), /^batch must be 1 to 256, got 0/);
      assert.match(messageOf(() => Module.forwardAB(teacher, student, 2, { rounds: 3, sideways: 1 })), /sideways/);
      assert.match(messageOf(() => Module.pruneStructured(99999, 0.5)), /^no model has id 99999/);
      const quarter = Module.pruneStructured(student, 0.25);
      assert.equal(quarter.info.spec.layers[0].out, 48);
      Module.dropModel(quarter.model);
      Module.dropModel(student);
    });
  });
}
