// The native CLI's `compliance` subcommand end to end, with three samples a task (quick): one
// row per task with the listed shapes and targets, each verdict the one its own median and
// target give, the four MLPerf tasks' accuracy "not measured" with the missing data named, and
// the Fashion-MNIST row's accuracy exactly `perflab evaluate`'s for the model file given (a
// fashion_mlp trained on 600 real images) on the same data: the first 500 test images, written
// as a data folder of their own so the evaluations stay short under the sanitizers. Markdown
// has every section; a file or folder named on the command line that cannot be read, or an
// unknown option, exits 2. Timings are never asserted. Run by ctest with PERFLAB_CLI set to
// the built binary.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('compliance');
const IMAGES = 500;
// The test split's first IMAGES images and labels, as IDX files under the package's names
// (the reader inflates only what starts with gzip's magic): the header's count set to IMAGES.
const data = path.join(dir, 'data');
mkdirSync(data);
for (const [name, header, each] of [['t10k-images-idx3-ubyte.gz', 16, 28 * 28], ['t10k-labels-idx1-ubyte.gz', 8, 1]]) {
  const idx = gunzipSync(readFileSync(path.join('/usr/share/datasets/fashion-mnist', name)));
  const part = Buffer.from(idx.subarray(0, header + IMAGES * each));
  part.writeUInt32BE(IMAGES, 4);
  writeFileSync(path.join(data, name), part);
}
const model = path.join(dir, 'mlp.perflab');
const trained = perflab('train', '--zoo', 'fashion_mlp', '--train-samples', '600', '--epochs', '1', '--out', model);
assert.equal(trained.status, 0, trained.stderr);
const evaluated = perflab('evaluate', model, '--data', data, '--json');
assert.equal(evaluated.status, 0, evaluated.stderr);
const evaluation = JSON.parse(evaluated.stdout);

test('compliance --json: one row per task, verdicts from the medians, accuracy only where measured', () => {
  const r = perflab('compliance', '--json', '--baseline', model, '--data', data, '--samples', '3');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.kind, 'compliance');
  assert.equal(report.batch, 1);
  assert.equal(report.options.samples, 3);
  assert.deepEqual(report.rows.map((x) => [x.task, x.listed_input, x.target_ms]), [
    ['keyword-spotting', [1, 16000], 100], ['visual-wake-words', [1, 96, 96, 3], 200],
    ['anomaly-detection', [1, 640], 50], ['image-classification', [1, 32, 32, 3], 150],
    ['fashion-mnist', [1, 28, 28, 1], 150]]);
  assert.deepEqual(report.rows.map((x) => x.input),
    [[1, 16000], [1, 3, 96, 96], [1, 640], [1, 3, 32, 32], [1, 784]]);
  for (const row of report.rows) {
    assert.equal(row.latency.samples + row.latency.outliers, 3, row.task);
    assert.equal(row.verdict, row.latency_ms <= row.target_ms ? 'pass' : 'fail', row.task);
    assert.ok(row.latency_interval_ms[0] <= row.latency_ms && row.latency_ms <= row.latency_interval_ms[1], row.task);
  }
  for (const row of report.rows.slice(0, 4)) {
    assert.equal(row.accuracy, null, row.task);
    assert.ok(row.accuracy_note.startsWith(`not measured: the lab has no ${row.dataset} data`), row.accuracy_note);
  }
  const fashion = report.rows[4];
  assert.equal(fashion.model, 'mlp.perflab');
  assert.equal(fashion.accuracy, evaluation.accuracy);
  assert.equal(fashion.accuracy_images, IMAGES);
  assert.equal(evaluation.n, IMAGES);
  assert.equal(report.summary.accuracy_measured, 1);
  assert.equal(report.summary.passed + report.summary.failed, 5);
  assert.equal(report.summary.passed, report.rows.filter((x) => x.verdict === 'pass').length);
});

test('compliance (Markdown): every section, one table row per task', () => {
  const r = perflab('compliance', '--baseline', model, '--data', data, '--samples', '3');
  assert.equal(r.status, 0, r.stderr);
  const md = r.stdout;
  assert.match(md, /^# Compliance report \(MLPerf Tiny style\)\n/);
  for (const heading of ['## System', '## Tasks', '## Accuracy', '## Models', '## Notes']) {
    assert.ok(md.includes(`\n${heading}\n`), heading);
  }
  assert.match(md, /\n\| Keyword spotting \| \(1, 16000\) \| \(1, 16000\) \| kws_mlp_16000 \| 100 ms \| /);
  assert.match(md, /\n\| Visual wake words \| \(1, 96, 96, 3\) \| \(1, 3, 96, 96\) \| vww_cnn_96 \| 200 ms \| /);
  const percent = `${(100 * evaluation.accuracy).toFixed(2)}%`;
  assert.ok(md.includes(`| mlp.perflab | 150 ms | `) && md.includes(` | ${percent} | none |`), percent);
});

test('compliance refuses unreadable inputs and unknown options with exit 2', () => {
  const missing = perflab('compliance', '--baseline', path.join(dir, 'none.perflab'));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /none\.perflab/);
  const empty = path.join(dir, 'empty');
  mkdirSync(empty);
  const noData = perflab('compliance', '--baseline', model, '--data', empty);
  assert.equal(noData.status, 2);
  assert.match(noData.stderr, /empty/);
  assert.equal(noData.stdout, '');
  const unknown = perflab('compliance', '--csv');
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /unknown argument '--csv' for compliance; the options are --json, --markdown/);
});
