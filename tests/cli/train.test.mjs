// `perflab train`, `evaluate`, `export`, `weights` and `prune` end to end on Fashion-MNIST (Debian's package):
// small models trained on the first training images for a few epochs learn (test accuracy
// far above the 10% of chance), the evaluation's confusion matrix agrees with its accuracy,
// and an independent NumPy forward pass over `export --npy` (tests/cli/numpy_forward.py,
// Debian's python3-numpy, no perflab code) gets exactly `evaluate`'s accuracy on the same
// 10,000 test images; NumPy recomputes `weights`' figures from the same export
// (tests/cli/numpy_weights.py). Also: training is deterministic through the CLI, and bad files
// and usage exit 2 with a sentence. Timings are never asserted.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('train');
const here = path.dirname(fileURLToPath(import.meta.url));
const DATA = '/usr/share/datasets/fashion-mnist';

/** Accuracy from the NumPy forward pass over an export folder. */
function numpyAccuracy(exportDir) {
  const r = spawnSync('/usr/bin/python3', [path.join(here, 'numpy_forward.py'), exportDir, DATA],
    { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Trains, evaluates (JSON) and exports one model; returns what each gave. */
function trainEvaluateExport(name, source, extra) {
  const model = path.join(dir, `${name}.plm`);
  const trained = perflab('train', ...source, ...extra, '--out', model);
  assert.equal(trained.status, 0, trained.stderr);
  const evaluated = perflab('evaluate', model, '--json');
  assert.equal(evaluated.status, 0, evaluated.stderr);
  const npy = path.join(dir, `${name}-npy`);
  const exported = perflab('export', model, '--npy', npy);
  assert.equal(exported.status, 0, exported.stderr);
  return { model, trained, evaluation: JSON.parse(evaluated.stdout), npy };
}

const mlp = trainEvaluateExport('mlp', ['--zoo', 'fashion_mlp'],
  ['--train-samples', '2000', '--epochs', '2']);

const TINY_CNN = {
  name: 'tiny_cnn', input: [32, 1, 28, 28],
  layers: [
    { type: 'Conv2d', in_channels: 1, out_channels: 4, kernel: 5, stride: 2, padding: 1 },
    { type: 'ReLU' }, { type: 'MaxPool2d', kernel: 3, stride: 2 },
    { type: 'Flatten' }, { type: 'Linear', in: 144, out: 10 },
  ],
};
const cnnSpec = path.join(dir, 'tiny_cnn.json');
writeFileSync(cnnSpec, JSON.stringify(TINY_CNN));
const CNN_ARGS = ['--train-samples', '1000', '--epochs', '3', '--lr', '0.01', '--seed', '5'];
const cnn = trainEvaluateExport('cnn', [cnnSpec], CNN_ARGS);

test('train reports progress on stderr and a summary naming the test accuracy', () => {
  const { stderr, stdout } = mlp.trained;
  assert.match(stderr, /fashion_mlp on 2000 Fashion-MNIST images \(200 held out for validation\), 2 epochs/);
  assert.match(stderr, /step \d+ of \d+ \(epoch 1\)/);
  assert.match(stderr, /epoch 2: train loss [\d.]+, accuracy [\d.]+%; validation loss/);
  const pct = (100 * mlp.evaluation.accuracy).toFixed(2);
  assert.match(stdout, new RegExp(`trained 2 epochs on 1800 images; test accuracy ${pct}%`));
});

test('a small MLP and a small CNN learn: test accuracy far above chance', () => {
  // Chance is 10%; these subsets reach about 79% (MLP) and 66% (CNN) at these seeds.
  assert.ok(mlp.evaluation.accuracy > 0.6, `MLP ${mlp.evaluation.accuracy}`);
  assert.ok(cnn.evaluation.accuracy > 0.4, `CNN ${cnn.evaluation.accuracy}`);
});

test('evaluate --json: accuracy, n, per_class, confusion and parameter_bytes agree', () => {
  const e = mlp.evaluation;
  assert.equal(e.n, 10000);
  assert.equal(e.per_class.length, 10);
  assert.equal(e.confusion.length, 10);
  const all = e.confusion.flat().reduce((a, b) => a + b, 0);
  const diagonal = e.confusion.reduce((a, row, i) => a + row[i], 0);
  assert.equal(all, e.n);
  assert.equal(diagonal, e.correct);
  assert.equal(e.accuracy, e.correct / e.n);
  e.confusion.forEach((row, i) => {
    assert.equal(e.per_class[i], row[i] / row.reduce((a, b) => a + b, 0));
  });
  assert.equal(e.parameter_bytes, (784 * 256 + 256 + 256 * 128 + 128 + 128 * 10 + 10) * 4);
  assert.equal(e.training.test_accuracy, e.accuracy);
  assert.equal(e.training.train_samples, 1800);
  assert.equal(e.training.epochs, 2);
  assert.equal(e.class_names[9], 'Ankle boot');
});

test('an independent NumPy forward pass over the export gets evaluate\'s accuracy and first wrong images exactly', () => {
  for (const { npy, evaluation } of [mlp, cnn]) {
    const np = numpyAccuracy(npy);
    assert.equal(np.n, evaluation.n);
    assert.equal(np.correct, evaluation.correct);
    assert.equal(np.accuracy, evaluation.accuracy);
    // The same first 100 wrong images, each with the same wrong class.
    assert.deepEqual(np.misclassified, evaluation.misclassified.map((m) => [m.index, m.predicted]));
    assert.equal(np.same_as_numpy_save, true, 'every .npy file is what numpy.save writes');
  }
});

test('weights --json: every weight tensor\'s figures are NumPy\'s over the exported weights', () => {
  const r = perflab('weights', mlp.model, '--json');
  assert.equal(r.status, 0, r.stderr);
  const ours = JSON.parse(r.stdout);
  const np = spawnSync('/usr/bin/python3', [path.join(here, 'numpy_weights.py'), mlp.npy], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(np.status, 0, np.stderr);
  const theirs = JSON.parse(np.stdout);
  assert.equal(ours.model, 'fashion_mlp');
  assert.deepEqual(ours.tensors.map((t) => t.name), ['0.weight', '2.weight', '4.weight']);
  assert.deepEqual(ours.tensors.map((t) => t.shape), [[784, 256], [256, 128], [128, 10]]);
  const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-9 + 1e-6 * Math.abs(b), `${what}: ${a} against NumPy's ${b}`);
  for (const [o, t] of [...ours.tensors.map((x, i) => [x, theirs.tensors[i]]), [ours.all, theirs.all]]) {
    assert.equal(o.name, t.name);
    assert.equal(o.count, t.count);
    for (const k of ['mean', 'std', 'min', 'max']) close(o[k], t[k], `${o.name} ${k}`);
    o.magnitude_percentiles.forEach((p, i) => close(p.value, t.magnitude_percentiles[i], `${o.name} p${p.percentile}`));
    o.fraction_below.forEach((f, i) => assert.equal(f.fraction, t.fraction_below[i], `${o.name} below ${f.threshold}`));
    // A value on a bin's edge may fall either side of it in the two float computations.
    assert.equal(o.histogram.counts.reduce((a, b) => a + b, 0), o.count);
    o.histogram.counts.forEach((c, i) => assert.ok(Math.abs(c - t.histogram[i]) <= 1, `${o.name} bin ${i}: ${c} against ${t.histogram[i]}`));
  }
  assert.equal(ours.all.count, 784 * 256 + 256 * 128 + 128 * 10);
});

test('weights prints a table a student can read, and refuses bad usage', () => {
  const r = perflab('weights', mlp.model);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^weights of model fashion_mlp \(.*mlp\.plm\): 234752 in 3 weight tensors \(biases and norms left out\)/);
  const lines = r.stdout.split('\n');
  assert.match(lines.find((l) => l.startsWith('tensor')), /count +mean +std +min +max +\|w\| p10 +\|w\| p50 +\|w\| p90 +<0\.001 +<0\.01 +<0\.1/);
  for (const name of ['0.weight', '2.weight', '4.weight', 'all']) assert.ok(lines.some((l) => l.startsWith(`${name} `)), name);
  const refused = (args, pattern) => {
    const x = perflab(...args);
    assert.equal(x.status, 2, x.stdout);
    assert.match(x.stderr, pattern);
  };
  refused(['weights'], /weights needs MODEL/);
  refused(['weights', mlp.model, '--csv'], /unknown option '--csv' for weights; the option is --json/);
  refused(['weights', mlp.model, cnn.model], /weights takes one MODEL/);
  refused(['weights', cnnSpec], /is not a perflab model file/);
});

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

test('the export lists every layer in order with its parameter files and shapes', () => {
  const manifest = JSON.parse(readFileSync(path.join(cnn.npy, 'manifest.json'), 'utf8'));
  assert.deepEqual(manifest.layers.map((l) => l.type), TINY_CNN.layers.map((l) => l.type));
  assert.deepEqual(manifest.layers[0].parameters.weight.shape, [4, 1, 5, 5]);
  assert.deepEqual(manifest.layers[4].parameters.bias.shape, [10]);
  assert.deepEqual(manifest.input, [1, 28, 28]);
  assert.equal(manifest.preprocessing.scale, Math.fround(1 / 255));
  for (const l of manifest.layers) {
    for (const p of Object.values(l.parameters)) assert.ok(existsSync(path.join(cnn.npy, p.file)));
  }
});

test('the same spec, recipe and data give the same model file, byte for byte', () => {
  const again = path.join(dir, 'cnn-again.plm');
  const r = perflab('train', cnnSpec, ...CNN_ARGS, '--out', again);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(readFileSync(again).equals(readFileSync(cnn.model)));
});

test('evaluate prints a readable report', () => {
  const r = perflab('evaluate', mlp.model);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /test accuracy [\d.]+% \(\d+ of 10000 images right\)/);
  assert.match(r.stdout, /Ankle boot/);
  assert.match(r.stdout, /confusion matrix \(rows: true class, columns: predicted class\)/);
});

test('foreign, cut and missing model files and bad usage exit 2 with a sentence', () => {
  const refused = (args, pattern) => {
    const r = perflab(...args);
    assert.equal(r.status, 2, r.stdout);
    assert.match(r.stderr, pattern);
  };
  refused(['evaluate', cnnSpec], /is not a perflab model file: it starts with 7B 22/);
  const cut = path.join(dir, 'cut.plm');
  const bytes = readFileSync(cnn.model);
  writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
  refused(['evaluate', cut], /model file '.*cut\.plm' is cut short/);
  const flipped = path.join(dir, 'flipped.plm');
  const changed = Buffer.from(bytes);
  changed[changed.length - 30] ^= 1;
  writeFileSync(flipped, changed);
  refused(['export', flipped, '--npy', path.join(dir, 'never')], /is corrupt: its checksum/);
  refused(['evaluate', path.join(dir, 'missing.plm')], /cannot read model file/);
  refused(['evaluate', dir], /is a directory/);
  refused(['evaluate', cnn.model, '--data', path.join(dir, 'no-data')], /dataset-fashion-mnist/);
  refused(['export', cnn.model], /export needs MODEL and --npy DIR/);
  refused(['train', '--zoo', 'fashion_mlp'], /train needs --out MODEL/);
  refused(['train', '--zoo', 'fashion_mlp', cnnSpec, '--out', 'x'], /either SPEC.json or --zoo/);
  refused(['train', '--zoo', 'fashion_mlp', '--optimizer', 'rmsprop', '--out', 'x'], /rmsprop/);
  refused(['train', '--zoo', 'fashion_mlp', '--colour', '--out', 'x'], /unknown option '--colour'/);
  refused(['train', '--zoo', 'fashion_mlp', '--train-samples', '0', '--out', 'x'],
    /--train-samples must be at least 1, got 0/);
});

test('perflab --help lists train, evaluate, export and weights', () => {
  const r = perflab('--help');
  assert.equal(r.status, 0);
  for (const cmd of ['perflab train --zoo NAME --out MODEL', 'perflab evaluate MODEL',
    'perflab export MODEL --npy DIR', 'perflab weights MODEL [--json]', 'perflab prune MODEL --sparsity S --out MODEL [--global | --structured]',
    'perflab distill TEACHER (--student SPEC.json | --zoo NAME) --out MODEL',
    'perflab quantize MODEL --int8 --out MODEL']) {
    assert.ok(r.stdout.includes(cmd), cmd);
  }
});
