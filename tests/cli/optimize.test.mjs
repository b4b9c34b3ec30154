// `perflab prune` (magnitude, per layer and global, and structured), `distill` and `quantize
// --int8` end to end on Fashion-MNIST, on a small fashion_mlp and a small CNN trained here
// (tests/cli/trained.mjs): the numbers each prints agree with `evaluate` and `weights` on its
// result, the lineage is in the file, and an independent NumPy pass over each result's export
// (float, shrunk and int8) gets the same predictions. Bad usage exits 2 with a sentence and
// writes nothing. Timings are never asserted.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';
import { numpyAccuracy, trainSmallModels } from './trained.mjs';

const dir = scratchDir('optimize');
const { mlp, cnn, cnnSpec } = trainSmallModels(dir);

test('prune: half of each weight tensor zeroed, accuracy before and after, the lineage in the file', () => {
  const out = path.join(dir, 'mlp-pruned.plm');
  const r = perflab('prune', mlp.model, '--sparsity', '0.5', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^pruned fashion_mlp \(.*mlp\.plm\) by magnitude, each weight tensor alike: 117376 of 234752 weights are zero now \(50\.00%\)/);
  for (const [name, n] of [['0.weight', 784 * 256], ['2.weight', 256 * 128], ['4.weight', 128 * 10]]) {
    assert.match(r.stdout, new RegExp(`^${name.replace('.', '\\.')} +${n} +${n / 2} +50\\.00% `, 'm'));
  }
  const before = (100 * mlp.evaluation.accuracy).toFixed(2);
  const after = JSON.parse(perflab('evaluate', out, '--json').stdout);
  assert.match(r.stdout, new RegExp(`test accuracy ${before}% before, ${(100 * after.accuracy).toFixed(2)}% after pruning`));
  assert.equal(after.training.test_accuracy, after.accuracy);
  assert.deepEqual(after.training.lineage, [{ transform: 'prune', method: 'magnitude', scope: 'layer', sparsity: 0.5, achieved: 0.5, finetune_epochs: 0 }]);
  // Half of each tensor's magnitudes are zero now: below every threshold.
  const w = JSON.parse(perflab('weights', out, '--json').stdout);
  for (const t of w.tensors) assert.equal(t.fraction_below[0].fraction, 0.5, t.name);
});

test('prune --global with fine-tuning keeps the zeros and records the epochs', () => {
  const out = path.join(dir, 'mlp-global.plm');
  const r = perflab('prune', mlp.model, '--sparsity', '0.9', '--global', '--finetune', '1', '--train-samples', '600', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /by magnitude, one threshold over all weight tensors: 211277 of 234752 weights are zero now \(90\.00%\)/);
  assert.match(r.stderr, /fine-tuning fashion_mlp for 1 epoch on 600 images \(60 held out\)/);
  const tuned = JSON.parse(perflab('evaluate', out, '--json').stdout);
  assert.match(r.stdout, new RegExp(`test accuracy ${(100 * tuned.accuracy).toFixed(2)}% after 1 epoch of fine-tuning \\(sparsity kept: 90\\.00%\\)`));
  assert.deepEqual(tuned.training.lineage.map((l) => [l.scope, l.finetune_epochs]), [['global', 1]]);
  const w = JSON.parse(perflab('weights', out, '--json').stdout);
  assert.equal(w.all.fraction_below[0].fraction, 211277 / 234752);
  // One threshold: the layers lose different fractions.
  const fractions = w.tensors.map((t) => t.fraction_below[0].fraction);
  assert.ok(new Set(fractions).size > 1, fractions.join(', '));
});

test('prune --structured shrinks the layers; the file evaluates, exports, and NumPy agrees', () => {
  const out = path.join(dir, 'mlp-shrunk.plm');
  const r = perflab('prune', mlp.model, '--sparsity', '0.5', '--structured', '--finetune', '1', '--train-samples', '600', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^pruned fashion_mlp \(.*mlp\.plm\) structurally: 50\.00% of the units of each prunable layer removed/);
  assert.match(r.stdout, /^layers\[0\] +Linear +256 +128 +units$/m);
  assert.match(r.stdout, /^layers\[2\] +Linear +128 +64 +units$/m);
  // 784·128 + 128 + 128·64 + 64 + 64·10 + 10 parameters are left of 235,146.
  assert.match(r.stdout, /parameters 235146 -> 109386 \(46\.52% of them\)/);
  assert.match(r.stderr, /fine-tuning fashion_mlp for 1 epoch on 600 images \(60 held out\), learning rate 0\.001\n/);
  const shrunk = JSON.parse(perflab('evaluate', out, '--json').stdout);
  assert.match(r.stdout, new RegExp(`test accuracy ${(100 * shrunk.accuracy).toFixed(2)}% after 1 epoch of fine-tuning\\n`));
  assert.deepEqual(shrunk.training.lineage, [{
    transform: 'prune', method: 'structured', criterion: 'l2 norm of incoming weights', fraction: 0.5,
    layers: [{ layer: 0, before: 256, after: 128 }, { layer: 2, before: 128, after: 64 }], finetune_epochs: 1,
  }]);
  const npy = path.join(dir, 'mlp-shrunk-npy');
  assert.equal(perflab('export', out, '--npy', npy).status, 0);
  const manifest = JSON.parse(readFileSync(path.join(npy, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.layers[0].parameters.weight.shape, [784, 128]);
  assert.deepEqual(manifest.layers[2].parameters.weight.shape, [128, 64]);
  const np = numpyAccuracy(npy);
  assert.equal(np.correct, shrunk.correct);
  // The CNN loses channels through pooling and Flatten: Linear's input shrinks by 36 per channel.
  const cnnOut = path.join(dir, 'cnn-shrunk.plm');
  const c = perflab('prune', cnn.model, '--sparsity', '0.5', '--structured', '--out', cnnOut);
  assert.equal(c.status, 0, c.stderr);
  assert.match(c.stdout, /^layers\[0\] +Conv2d +4 +2 +channels$/m);
  const cnnNpy = path.join(dir, 'cnn-shrunk-npy');
  assert.equal(perflab('export', cnnOut, '--npy', cnnNpy).status, 0);
  const cm = JSON.parse(readFileSync(path.join(cnnNpy, 'manifest.json'), 'utf8'));
  assert.deepEqual(cm.layers[4].parameters.weight.shape, [72, 10]);
  assert.equal(numpyAccuracy(cnnNpy).correct, JSON.parse(perflab('evaluate', cnnOut, '--json').stdout).correct);
});

test('distill: the student from the teacher and on the labels alone, same seed; the lineage names the teacher', () => {
  const student = path.join(dir, 'student.json');
  writeFileSync(student, JSON.stringify({
    name: 'mlp_16', input: [64, 784],
    layers: [{ type: 'Linear', in: 784, out: 16 }, { type: 'ReLU' }, { type: 'Linear', in: 16, out: 10 }],
  }));
  const out = path.join(dir, 'distilled.plm');
  const r = perflab('distill', mlp.model, '--student', student, '--temperature', '2', '--alpha', '0.5',
    '--epochs', '1', '--train-samples', '600', '--seed', '4', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^perflab distill: fashion_mlp \(235146 parameters, test accuracy [\d.]+%\) into mlp_16 \(12730 parameters\) on 600 Fashion-MNIST images \(60 held out\), temperature 2, alpha 0\.5, 1 epoch, seed 4$/m);
  const distilled = JSON.parse(perflab('evaluate', out, '--json').stdout);
  // The labels-only twin, trained by `perflab train` with the same recipe and seed.
  const twin = path.join(dir, 'labels-only.plm');
  assert.equal(perflab('train', student, '--epochs', '1', '--train-samples', '600', '--seed', '4', '--out', twin).status, 0);
  const alone = JSON.parse(perflab('evaluate', twin, '--json').stdout);
  const points = (100 * (distilled.accuracy - alone.accuracy));
  assert.match(r.stdout, new RegExp(`^distilled mlp_16 from fashion_mlp: test accuracy ${(100 * distilled.accuracy).toFixed(2)}% \\(${distilled.correct} of 10000\\); on the labels alone ${(100 * alone.accuracy).toFixed(2)}% \\(${alone.correct}\\); difference `, 'm'));
  assert.ok(r.stdout.includes(`difference ${points < 0 ? '' : '+'}${points.toFixed(2)} points`), r.stdout);
  assert.equal(distilled.training.test_accuracy, distilled.accuracy);
  assert.deepEqual(distilled.training.lineage, [{
    transform: 'distill', teacher: 'fashion_mlp', teacher_test_accuracy: mlp.evaluation.accuracy,
    temperature: 2, alpha: 0.5, epochs: 1,
  }]);
  const refused = (args, pattern) => {
    const x = perflab(...args);
    assert.equal(x.status, 2, x.stdout);
    assert.match(x.stderr, pattern);
  };
  const never = path.join(dir, 'never-distilled.plm');
  refused(['distill', mlp.model, '--out', never], /distill needs TEACHER, one of --student SPEC\.json or --zoo NAME, and --out MODEL/);
  refused(['distill', mlp.model, '--zoo', 'fashion_mlp', '--student', student, '--out', never], /distill needs TEACHER, one of --student/);
  refused(['distill', mlp.model, '--zoo', 'fashion_mlp', '--alpha', '2', '--train-samples', '100', '--out', never], /alpha must be between 0 and 1/);
  refused(['distill', mlp.model, '--zoo', 'fashion_mlp', '--temperature', '0', '--train-samples', '100', '--out', never], /temperature must be above 0 and at most 100/);
  refused(['distill', mlp.model, '--zoo', 'fashion_mlp', '--lesson', '--out', never], /unknown option '--lesson' for distill; the options are --student, --zoo, --temperature, --alpha, --out, --data/);
  refused(['distill', student, '--zoo', 'fashion_mlp', '--out', never], /is not a perflab model file/);
  assert.equal(existsSync(never), false, 'nothing written');
});

test('quantize --int8: a quarter of the bytes, each layer\'s error, and NumPy\'s int8 pass agrees exactly', () => {
  const out = path.join(dir, 'mlp-int8.plm');
  const r = perflab('quantize', mlp.model, '--int8', '--calibrate', '500', '--out', out);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^quantized fashion_mlp \(.*mlp\.plm\) to int8: per-channel symmetric weights, uint8 activations calibrated on 500 training images by minmax$/m);
  for (const [layer, type] of [[0, 'Linear'], [1, 'ReLU'], [2, 'Linear'], [3, 'ReLU'], [4, 'Linear']]) {
    assert.match(r.stdout, new RegExp(`^layers\\[${layer}\\] +${type} `, 'm'));
  }
  // 784·256 + 256·128 + 128·10 codes, and per output a float32 scale and bias: 234,752 + 8·394.
  assert.match(r.stdout, /^parameter bytes 940584 float32 -> 237904 int8 \(25\.29% of them\)$/m);
  const q = JSON.parse(perflab('evaluate', out, '--json').stdout);
  assert.equal(q.parameter_bytes, 237904);
  const before = (100 * mlp.evaluation.accuracy).toFixed(2);
  const points = 100 * (q.accuracy - mlp.evaluation.accuracy);
  assert.match(r.stdout, new RegExp(`^test accuracy ${before}% float32, ${(100 * q.accuracy).toFixed(2)}% int8 \\(${points < 0 ? '' : '\\+'}${points.toFixed(2)} points\\)$`, 'm'));
  assert.deepEqual(q.training.lineage, [{ transform: 'quantize', scheme: 'int8', calibration: 'minmax', calibration_images: 500 }]);
  assert.equal(q.training.test_accuracy, q.accuracy);
  // The export: int8 codes and their scales as arrays of their own, and an independent NumPy
  // pass of the int8 arithmetic gets the same predictions, image for image.
  const npy = path.join(dir, 'mlp-int8-npy');
  assert.equal(perflab('export', out, '--npy', npy).status, 0);
  const manifest = JSON.parse(readFileSync(path.join(npy, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.layers[0].parameters.weight_int8, { file: '0.weight_int8.npy', shape: [256, 784], dtype: '|i1' });
  assert.deepEqual(manifest.layers[2].parameters.weight_scale, { file: '2.weight_scale.npy', shape: [128], dtype: '<f4' });
  assert.deepEqual(manifest.layers[4].parameters.input_zero_point, { file: '4.input_zero_point.npy', shape: [1], dtype: '<i4' });
  assert.equal(manifest.quantization.calibration.images, 500);
  const np = numpyAccuracy(npy);
  assert.equal(np.correct, q.correct);
  assert.deepEqual(np.misclassified, q.misclassified.map((m) => [m.index, m.predicted]));
  assert.equal(np.same_as_numpy_save, true);
  // The percentile calibration clips the long tail of a hidden layer's ReLU outputs: the second
  // Linear's range is inside min/max's (the first's inputs are pixels, whose extremes, 0 and
  // 255, are common enough to be their own percentiles).
  const p = perflab('quantize', mlp.model, '--int8', '--calibrate', '500', '--calibration', 'percentile', '--out', path.join(dir, 'mlp-int8p.plm'));
  assert.equal(p.status, 0, p.stderr);
  const pnpy = path.join(dir, 'mlp-int8p-npy');
  assert.equal(perflab('export', path.join(dir, 'mlp-int8p.plm'), '--npy', pnpy).status, 0);
  const [lo, hi] = manifest.quantization.layers[1].input_range;
  const [plo, phi] = JSON.parse(readFileSync(path.join(pnpy, 'manifest.json'), 'utf8')).quantization.layers[1].input_range;
  assert.ok(plo >= lo && phi <= hi && (plo > lo || phi < hi), `${plo} ${phi} inside ${lo} ${hi}`);
  const refused = (args, pattern) => {
    const x = perflab(...args);
    assert.equal(x.status, 2, x.stdout);
    assert.match(x.stderr, pattern);
  };
  const never = path.join(dir, 'never-int8.plm');
  refused(['quantize', mlp.model, '--out', never], /quantize needs MODEL, --int8 \(the one scheme there is\) and --out MODEL/);
  refused(['quantize', out, '--int8', '--out', never], /is int8 already; quantize the float model it came from/);
  refused(['prune', out, '--sparsity', '0.5', '--out', never], /is int8; prune the float model it came from, then quantize/);
  refused(['quantize', mlp.model, '--int8', '--calibration', 'mean', '--out', never], /calibration must be "minmax" .* or "percentile"/);
  refused(['quantize', mlp.model, '--int8', '--calibrate', '0', '--out', never], /calibration images must be from 1 to the 60000 the data holds, got 0/);
  refused(['quantize', mlp.model, '--int4', '--out', never], /unknown option '--int4' for quantize; the options are --int8/);
  assert.equal(existsSync(never), false, 'nothing written');
});

test('prune refuses bad usage with a sentence', () => {
  const refused = (args, pattern) => {
    const x = perflab(...args);
    assert.equal(x.status, 2, x.stdout);
    assert.match(x.stderr, pattern);
  };
  const out = path.join(dir, 'never.plm');
  refused(['prune', mlp.model, '--out', out], /prune needs MODEL, --sparsity S and --out MODEL/);
  refused(['prune', mlp.model, '--sparsity', '1', '--out', out], /sparsity must be at least 0 and below 1 \(0\.5 zeroes half the weights\), got 1/);
  refused(['prune', mlp.model, '--sparsity', '0.5', '--train-samples', '10', '--out', out], /--train-samples sizes the fine-tuning; give --finetune EPOCHS too/);
  refused(['prune', mlp.model, '--sparsity', '0.5', '--frobnicate', '--out', out], /unknown option '--frobnicate' for prune; the options are --sparsity, --global, --structured/);
  refused(['prune', mlp.model, '--sparsity', '0.5', '--structured', '--global', '--out', out], /--global sets one threshold over single weights; --structured removes whole units/);
  refused(['prune', cnnSpec, '--sparsity', '0.5', '--structured', '--out', out], /is not a perflab model file/);
  assert.equal(existsSync(out), false, 'nothing written');
});
