// `perflab train`, `evaluate`, `export` and `weights` end to end on Fashion-MNIST (Debian's package):
// small models trained on the first training images for a few epochs learn (test accuracy
// far above the 10% of chance), the evaluation's confusion matrix agrees with its accuracy,
// and an independent NumPy forward pass over `export --npy` (tests/cli/numpy_forward.py,
// Debian's python3-numpy, no perflab code) gets exactly `evaluate`'s accuracy on the same
// 10,000 test images; NumPy recomputes `weights`' figures from the same export
// (tests/cli/numpy_weights.py). Also: training is deterministic through the CLI, and bad files
// and usage exit 2 with a sentence. Timings are never asserted. The Optimization transforms
// (prune, distill, quantize) are optimize.test.mjs's.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';
import { CNN_ARGS, TINY_CNN, numpyAccuracy, trainSmallModels } from './trained.mjs';

const dir = scratchDir('train');
const here = path.dirname(fileURLToPath(import.meta.url));
const { mlp, cnn, cnnSpec } = trainSmallModels(dir);

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
  // The small CNN: the report's form is the same for any model, and its pass over the 10,000
  // test images costs a tenth of the MLP's (7 s under the sanitizers).
  const r = perflab('evaluate', cnn.model);
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
