// What the CLI tests of training and of the Optimization transforms share: training a small
// MLP and a small CNN on the first training images (each file trains its own, so the two run
// side by side), evaluating and exporting them, and the independent NumPy forward pass over an
// export (tests/cli/numpy_forward.py, Debian's python3-numpy, no perflab code).
// Not a test file itself: only *.test.mjs are run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { perflab } from './cli.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
export const DATA = '/usr/share/datasets/fashion-mnist';

/** Accuracy from the NumPy forward pass over an export folder. */
export function numpyAccuracy(exportDir) {
  const r = spawnSync('/usr/bin/python3', [path.join(here, 'numpy_forward.py'), exportDir, DATA],
    { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** Trains, evaluates (JSON) and exports one model into dir; returns what each gave. */
export function trainEvaluateExport(dir, name, source, extra) {
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

export const TINY_CNN = {
  name: 'tiny_cnn', input: [32, 1, 28, 28],
  layers: [
    { type: 'Conv2d', in_channels: 1, out_channels: 4, kernel: 5, stride: 2, padding: 1 },
    { type: 'ReLU' }, { type: 'MaxPool2d', kernel: 3, stride: 2 },
    { type: 'Flatten' }, { type: 'Linear', in: 144, out: 10 },
  ],
};
export const CNN_ARGS = ['--train-samples', '1000', '--epochs', '3', '--lr', '0.01', '--seed', '5'];

/**
 * fashion_mlp on 2,000 images for 2 epochs and TINY_CNN (its spec file written into dir) by
 * CNN_ARGS, each trained, evaluated and exported.
 */
export function trainSmallModels(dir) {
  const mlp = trainEvaluateExport(dir, 'mlp', ['--zoo', 'fashion_mlp'], ['--train-samples', '2000', '--epochs', '2']);
  const cnnSpec = path.join(dir, 'tiny_cnn.json');
  writeFileSync(cnnSpec, JSON.stringify(TINY_CNN));
  const cnn = trainEvaluateExport(dir, 'cnn', [cnnSpec], CNN_ARGS);
  return { mlp, cnn, cnnSpec };
}
