// Int8 models in the page's session table (the training module, both Node builds), against
// the native CLI: a small MLP trained through the bindings is quantized by `perflab quantize`
// and by quantizeHeldModel with the same calibration images; the CLI's int8 file loads into
// the table, keeps its quantization (parameter bytes, model info) and evaluates to the
// accuracy `perflab evaluate` printed for it; the table's own int8 model evaluates to the
// same; an int8 model refuses training and a second quantization; a timing chunk of held
// models and the Pareto frontier come back in their shapes. Timings are never asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

import { BUILDS, fashionMnistFiles, loadPerflabTrain, messageOf } from './perflab_module.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeCli = process.env.PERFLAB_CLI ?? path.join(repoRoot, 'build', 'native', 'tools', 'perflab');
const data = fashionMnistFiles();
const modules = await Promise.all(BUILDS.map(loadPerflabTrain));

const SPEC = {
  name: 'small_mlp', input: [32, 784],
  layers: [{ type: 'Linear', in: 784, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }],
};
const RECIPE = { epochs: 1, batch: 32, validation_samples: 50, learning_rate: 0.003, seed: 3 };
const TRAIN_IMAGES = 400;
const CALIBRATION = 100;

function cli(...args) {
  const r = spawnSync(nativeCli, args, { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `perflab ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

for (const [b, Module] of BUILDS.map((b, i) => [b, modules[i]])) {
  describe(`int8 models in the session table (${b.flavour} build)`, () => {
    it('evaluate an int8 model file to the CLI’s accuracy, and quantize to the same', (t) => {
      if (!process.env.PERFLAB_CLI && !existsSync(nativeCli)) return t.skip(`no native CLI at ${nativeCli} (set PERFLAB_CLI)`);
      const train = Module.loadFashionMnist(data.trainImages, data.trainLabels, 'train', TRAIN_IMAGES).dataset;
      const test = Module.loadFashionMnist(data.testImages, data.testLabels, 'test', undefined).dataset;
      const model = Module.createModel(SPEC).model;
      Module.startTraining(model, train, RECIPE);
      while (!Module.trainSteps(model, 100).finished);
      const dir = mkdtempSync(path.join(tmpdir(), 'perflab-quantize-'));
      const floatFile = path.join(dir, 'float.plm');
      const int8File = path.join(dir, 'int8.plm');
      writeFileSync(floatFile, Module.modelFileBytes(model));
      cli('quantize', floatFile, '--int8', '--calibrate', String(CALIBRATION), '--calibration', 'percentile', '--out', int8File);
      const native = JSON.parse(cli('evaluate', int8File, '--json'));

      // The CLI's file, held and evaluated in wasm: the int8 forward, the stored bytes.
      const loaded = Module.loadModelFile(new Uint8Array(readFileSync(int8File))).model;
      const info = Module.modelInfo(loaded);
      assert.equal(info.quantization.calibration.method, 'percentile');
      assert.equal(info.parameter_bytes, 784 * 32 + 32 * 10 + (32 + 10) * 8);
      const e = Module.evaluateModel(loaded, test, 0);
      assert.equal(e.n, native.n);
      assert.equal(e.parameter_bytes, native.parameter_bytes);
      // The int8 sums are exact; the float steps around them may round differently in wasm,
      // which can flip an image whose two top logits tie to the last bit: at most 2 of 10,000.
      assert.ok(Math.abs(e.correct - native.correct) <= 2, `wasm ${e.correct} correct, CLI ${native.correct}`);

      // The table quantizes the same model on the same first training images.
      const q = Module.quantizeHeldModel(model, train, test, CALIBRATION, 'percentile', 64);
      assert.equal(q.parameter_bytes, info.parameter_bytes);
      assert.equal(q.layer_errors.length, 3);
      assert.deepEqual(q.lineage.at(-1), { transform: 'quantize', scheme: 'int8', calibration: 'percentile', calibration_images: CALIBRATION });
      const mine = Module.evaluateModel(q.model, test, 0);
      assert.ok(Math.abs(mine.correct - native.correct) <= 2, `table ${mine.correct} correct, CLI ${native.correct}`);
      // Its file reads back as int8.
      const again = Module.loadModelFile(Module.modelFileBytes(q.model)).model;
      assert.equal(Module.modelInfo(again).parameter_bytes, q.parameter_bytes);

      assert.match(messageOf(() => Module.quantizeHeldModel(q.model, train, test, CALIBRATION, 'minmax', 64)), /is int8 already; quantize the float model it came from/);
      assert.match(messageOf(() => Module.startTraining(q.model, train, RECIPE)), /is int8; train the float model it came from/);
      assert.match(messageOf(() => Module.quantizeHeldModel(model, train, test, CALIBRATION, 'median', 64)), /minmax/);

      // One timing chunk of three held models, and the frontier of hand-made points.
      const chunk = Module.timeHeldModels([model, q.model, loaded], test, 8, { warmup: 0, samples: 3, min_sample_ms: 0.2, max_total_ms: 200 });
      assert.deepEqual(chunk.models.map((m) => m.model), [model, q.model, loaded]);
      for (const m of chunk.models) assert.equal(m.per_call_ms.length, chunk.rounds);
      assert.match(messageOf(() => Module.timeHeldModels([model, model], test, 8, {})), /lists a model twice/);
      assert.deepEqual(Module.paretoFront([{ cost: 2, accuracy: 0.9 }, { cost: 1, accuracy: 0.8 }, { cost: 3, accuracy: 0.85 }]), [true, true, false]);
      assert.match(messageOf(() => Module.paretoFront([{ cost: 'fast', accuracy: 1 }])), /points\[0\] must be \{cost, accuracy\}/);
      for (const id of [model, q.model, loaded, again]) Module.dropModel(id);
      Module.dropDataset(train);
      Module.dropDataset(test);
    });
  });
}
