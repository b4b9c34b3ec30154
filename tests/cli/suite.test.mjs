// The native CLI's `suite` subcommand end to end: a suite file of a zoo model, a spec and a
// kernel prints core's report as JSON (counted values checked by hand), Markdown (every
// section, the energy figure only under its label) and CSV (one row per point); bad usage
// and malformed files exit 2 naming the file and the field, with nothing on stdout. A suite
// naming model files (two tiny MLPs trained on 600 real images) measures their accuracy on
// Fashion-MNIST's test split, exactly `perflab evaluate`'s, and the pair's retention; zoo
// models stay "not measured: random weights". Timings are never asserted. Run by ctest with
// PERFLAB_CLI set to the built binary.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('suite');


function writeSuite(name, value) {
  const file = path.join(dir, name);
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
  return file;
}

// Tiny budgets: quick; the numbers that are checked are counted, not timed.
const OPTIONS = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 50 };
const SUITE = {
  name: 'two models',
  models: ['linear_128_64', { name: 'tiny', input: [4, 8], layers: [{ type: 'Linear', in: 8, out: 3 }] }],
  kernels: [{ op: 'gelu', variant: 'fused-simd', n: 4096 }],
  metrics: ['latency_ms', 'peak_memory_bytes', 'parameters'],
  options: OPTIONS,
};
const good = writeSuite('good.json', SUITE);

test('suite --json: the report with system facts, counted values and recommendations', () => {
  const r = perflab('suite', good, '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.kind, 'suite');
  assert.equal(report.name, 'two models');
  for (const key of ['version', 'build', 'simd_backend', 'timer_resolution_ms', 'clock']) {
    assert.ok(key in report.system, key);
  }
  assert.deepEqual(report.models.map((m) => m.name), ['linear_128_64', 'tiny']);
  assert.equal(report.models[0].parameters, 128 * 64 + 64);
  assert.equal(report.models[1].parameters, 8 * 3 + 3);
  assert.equal(report.models[0].source, 'zoo');
  assert.equal(report.kernels.length, 1);
  assert.equal(report.kernels[0].op, 'gelu');
  const params = report.summary.find((s) => s.metric.name === 'parameters');
  assert.equal(params.best, 'tiny');
  assert.deepEqual(report.recommendations.map((x) => x.use),
    ['latency-critical', 'memory-constrained', 'accuracy-preserving', 'balanced']);
  assert.equal(report.recommendations[2].model, null);
  assert.match(report.accuracy, /^not measured: every model's weights are random, from its spec's seed, with no training/);
  assert.equal(report.accuracy_data, null);
  assert.equal(report.models[0].accuracy, null);
  assert.match(report.models[0].accuracy_note, /^not measured: random weights from the spec's seed, no training/);
  assert.match(report.energy_note, /^original course's estimate \(a formula, not a measurement\)/);
  assert.equal(report.complete, true);
  assert.match(r.stderr, /point 1 of 3/);
});

test('suite with optimizations: the optimized model against its base, ratios of the measured and counted values', () => {
  const file = writeSuite('optimized.json', { ...SUITE, kernels: [], optimizations: [{ base: 'linear_128_64', optimized: 'tiny' }] });
  const r = perflab('suite', file, '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.optimizations.length, 1);
  const o = report.optimizations[0];
  assert.equal(o.base, 'linear_128_64');
  assert.equal(o.optimized, 'tiny');
  // Counted, so exact: tiny's 27 parameters against linear_128_64's 8,256.
  assert.equal(o.size_ratio, (8 * 3 + 3) / (128 * 64 + 64));
  const [base, tiny] = report.models;
  assert.equal(o.speedup, base.latency_ms / tiny.latency_ms);
  assert.equal(o.accuracy_retention, null);
  assert.match(o.accuracy_retention_reason, /^tiny's accuracy is not measured: random weights/);
  assert.match(o.recommendations.at(-1), /Accuracy retention is not measured/);
  const md = perflab('suite', file);
  assert.match(md.stdout, /## Optimized against base\n/);
  assert.match(md.stdout, /\| tiny \| linear_128_64 \| /);
  const bad = writeSuite('optimized-bad.json', { ...SUITE, optimizations: [{ base: 'linear_128_64', optimized: 'mlp_784' }] });
  const refused = perflab('suite', bad);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /suite\.optimizations\[0\]\.optimized must name one of the suite's models \(linear_128_64, tiny\), got "mlp_784"/);
  assert.equal(refused.stdout, '');
});

test('suite (Markdown by default) has every section; --csv has a row per point', () => {
  const md = perflab('suite', good);
  assert.equal(md.status, 0, md.stderr);
  for (const heading of ['# Suite: two models', '## System', '## Models', '## Kernels',
    '## Best per metric', '## Recommendations', '## Notes']) {
    assert.ok(md.stdout.includes(heading), heading);
  }
  assert.match(md.stdout, /### original course's estimate \(a formula, not a measurement\)/);
  const csv = perflab('suite', good, '--csv');
  assert.equal(csv.status, 0, csv.stderr);
  const lines = csv.stdout.trim().split('\n');
  assert.equal(lines.length, 4);
  assert.match(lines[0], /^kind,name,op,variant,n,batch,latency_median_ms,/);
  assert.match(lines[1], /^model,linear_128_64,/);
  assert.match(lines[3], /^kernel,,gelu,fused-simd,4096,/);
});

test('bad usage and malformed suite files exit 2 naming the file and the field', () => {
  const cases = [
    [['suite'], /suite needs SUITE\.json/],
    [['suite', good, '--yaml'], /unknown option '--yaml' for suite/],
    [['suite', good, good], /suite takes one SUITE\.json/],
    [['suite', path.join(dir, 'missing.json')], /cannot read suite file '.*missing\.json'/],
    [['suite', writeSuite('notjson.json', '{"name": ')], /notjson\.json: suite is not valid JSON/],
    [['suite', writeSuite('metric.json', { ...SUITE, metrics: ['speed'] })],
      /metric\.json: suite\.metrics\[0\]: unknown metric "speed"; the metrics are latency_ms,/],
    [['suite', writeSuite('zoo.json', { ...SUITE, models: ['resnet'] })],
      /zoo\.json: suite\.models\[0\]: unknown zoo model/],
    [['suite', writeSuite('field.json', { ...SUITE, runs: 3 })],
      /field\.json: suite\.runs is not a field of a suite/],
    [['suite', writeSuite('variant.json', { ...SUITE, kernels: [{ op: 'sum', variant: 'x', n: 8 }] })],
      /variant\.json: suite\.kernels\[0\]: unknown sum variant 'x'/],
  ];
  for (const [args, message] of cases) {
    const r = perflab(...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test('suite with model files: accuracy is evaluate()’s on the test split, and the pair gets its retention', () => {
  // Two tiny MLPs trained briefly on the first 600 images, in a folder beside the suite file.
  mkdirSync(path.join(dir, 'models'), { recursive: true });
  const spec = (hidden) => ({ name: `mlp_${hidden}`, input: [32, 784], layers: [
    { type: 'Linear', in: 784, out: hidden }, { type: 'ReLU' }, { type: 'Linear', in: hidden, out: 10 }] });
  const accuracy = {};
  for (const hidden of [32, 8]) {
    const specFile = writeSuite(`mlp_${hidden}.json`, spec(hidden));
    const model = path.join(dir, 'models', `mlp_${hidden}.plm`);
    const trained = perflab('train', specFile, '--train-samples', '600', '--epochs', '3', '--lr', '0.01', '--batch', '32', '--out', model);
    assert.equal(trained.status, 0, trained.stderr);
    const evaluated = perflab('evaluate', model, '--json');
    assert.equal(evaluated.status, 0, evaluated.stderr);
    accuracy[hidden] = JSON.parse(evaluated.stdout).accuracy;
  }
  const file = writeSuite('trained.json', {
    name: 'trained',
    models: [{ model_file: 'models/mlp_32.plm' }, { model_file: 'models/mlp_8.plm', name: 'small' }, 'linear_128_64'],
    metrics: ['accuracy', 'parameters'],
    options: OPTIONS,
    optimizations: [{ base: 'mlp_32', optimized: 'small' }],
  });
  const r = perflab('suite', file, '--json');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const [base, small, zoo] = report.models;
  assert.deepEqual(report.models.map((m) => [m.name, m.source]),
    [['mlp_32', 'model file'], ['small', 'model file'], ['linear_128_64', 'zoo']]);
  assert.equal(base.accuracy, accuracy[32]);
  assert.equal(small.accuracy, accuracy[8]);
  assert.equal(base.accuracy_images, 10000);
  assert.equal(base.accuracy_correct, Math.round(accuracy[32] * 10000));
  assert.ok(base.accuracy > 0.2, `it learned (chance is 0.1): ${base.accuracy}`);
  assert.equal(zoo.accuracy, null);
  assert.match(zoo.accuracy_note, /^not measured: random weights/);
  assert.match(report.accuracy_data, /^Fashion-MNIST's test split, 10,000 images \(\/usr\/share\/datasets\/fashion-mnist\)$/);
  assert.match(report.accuracy, /^measured by evaluate\(\) on .* for mlp_32, small; not measured for linear_128_64: random weights/);
  const ranked = report.summary.find((s) => s.metric.name === 'accuracy');
  assert.deepEqual(ranked.ranking.map((x) => x.name).sort(), ['mlp_32', 'small']);
  const best = accuracy[32] >= accuracy[8] ? 'mlp_32' : 'small';
  assert.equal(report.recommendations[2].model, best);
  const o = report.optimizations[0];
  assert.equal(o.accuracy_retention, accuracy[8] / accuracy[32]);
  assert.ok(Math.abs(o.accuracy_change_points - 100 * (accuracy[8] - accuracy[32])) < 1e-9);
  assert.match(o.recommendations.at(-2), /^small against mlp_32: accuracy [\d.]+% against [\d.]+%, retention [\d.]+% \([+-][\d.]+ points; /);
  assert.doesNotMatch(o.recommendations.at(-1), /not measured/);
  const md = perflab('suite', file);
  assert.match(md.stdout, /\| small \| mlp_32 \| [^\n]* \| [\d.]+% \([+-][\d.]+ points\) \|/);
  assert.match(md.stdout, /\| linear_128_64 \| \d+ \| not measured \|/);

  // A missing model file or data folder names the field.
  const missing = perflab('suite', writeSuite('nofile.json', { ...SUITE, models: [{ model_file: 'models/none.plm' }] }));
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /nofile\.json: suite\.models\[0\]\.model_file: cannot read model file '.*models\/none\.plm'/);
  const nodata = perflab('suite', writeSuite('nodata.json', { ...SUITE, models: [{ model_file: 'models/mlp_8.plm' }],
    options: { ...OPTIONS, data: 'no-such-folder' } }));
  assert.equal(nodata.status, 2);
  assert.match(nodata.stderr, /nodata\.json: suite\.options\.data: .*no-such-folder/);
  assert.equal(nodata.stdout, '');
});
