// Suites and regression checks through both Node builds: the page sweeps a suite point by
// point (suitePlan, measureSuitePoint, in the training module) and asks core for the report of
// the points it kept (suiteReport), the same report `perflab suite` writes; a suite may name a
// trained model the module holds, whose accuracy is measured on a held test split of the real
// Fashion-MNIST files and equals evaluateModel's. benchPlan names the benchmarks `perflab bench`
// times and compareRuns gives `perflab compare --json`'s verdicts (main module). Bad arguments
// are refused by name. No timing is asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { BUILDS, fashionMnistFiles, loadPerflab, loadPerflabTrain } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const trainModules = await Promise.all(BUILDS.map(loadPerflabTrain));

const TEST_IMAGES = 300;
const data = fashionMnistFiles();
// A small MLP trained for two epochs on 900 images (train.test.mjs's recipe): a model file
// with learned weights.
const SMALL = {
  name: 'small_mlp', input: [32, 784],
  layers: [{ type: 'Linear', in: 784, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }],
};
const RECIPE = { epochs: 2, batch: 32, validation_samples: 100, learning_rate: 0.003, seed: 7 };

const SUITE = {
  name: 'two',
  models: ['linear_128_64', 'mlp_784'],
  kernels: [{ op: 'sum', n: 64 }],
  metrics: ['latency_ms', 'parameters'],
  options: { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 20 },
};
// 20 samples around a centre, no two equal.
const around = (centre) => Array.from({ length: 20 }, (_, i) => centre * (1 + 0.001 * i));

const BAD_CALLS = [
  ['an unknown metric', (m, t) => t.suitePlan({ ...SUITE, metrics: ['speed'] }), /suite\.metrics\[0\]: unknown metric "speed"/],
  ['an unknown zoo model', (m, t) => t.suitePlan({ ...SUITE, models: ['resnet'] }), /suite\.models\[0\]: unknown zoo model "resnet"/],
  ['a model file the lab does not hold', (m, t) => t.suitePlan({ ...SUITE, models: [{ model_file: 'mlp.plm' }] }),
   /^suite\.models\[0\]\.model_file: the page's models name no model file "mlp\.plm" \(they name none\)$/],
  ['models that are not an object', (m, t) => t.suitePlan(SUITE, [1]),
   /^models must be an object from each model_file name the suite uses to the id of a model the lab holds, got \[1\]$/],
  ['a held model id that is not a positive integer', (m, t) => t.suitePlan(SUITE, { 'a.plm': -1 }),
   /^models\.a\.plm must be the id of a model the lab holds \(a positive integer\), got -1$/],
  ['a model id the lab does not hold', (m, t) => t.suitePlan({ ...SUITE, models: [{ model_file: 'a.plm' }] }, { 'a.plm': 999 }),
   /^suite\.models\[0\]\.model_file: no model has id 999: /],
  ['a test data set the lab does not hold', (m, t) => t.measureSuitePoint(SUITE, 0, undefined, 999), /^no data set has id 999: /],
  ['a point index past the end', (m, t) => t.measureSuitePoint(SUITE, 3), /point index must be below 3 for suite "two", got 3/],
  ['points that are not an array', (m, t) => t.suiteReport(SUITE, {}, 'test'), /points must be an array of measured suite points/],
  ['a point of another kind', (m, t) => t.suiteReport(SUITE, [{ kind: 'layer', index: 0 }], 'test'),
   /points\[0\]\.kind must be "model" or "kernel", got "layer"/],
  ['a bench plan without quick', (m) => m.benchPlan('yes'), /quick must be true or false, got "yes"/],
  ['a baseline that is not a bench run', (m) => m.compareRuns({ tool: 'perflab', kind: 'roofline', rows: [] }, []),
   /baseline: kind must be "bench", got "roofline"/],
  ['a run without samples', (m) => m.compareRuns([], [{ op: 'gelu', variant: 'fused', n: 8, samples_ms: [] }]),
   /this run: rows\[0\]\.samples_ms must be a non-empty array of numbers/],
  ['an unknown comparison option', (m) => m.compareRuns([], [], { seed: 1 }),
   /unknown option "seed"; the allowed options are alpha and threshold/],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`suites and regression checks in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const t = trainModules[b];

    it('lists the metrics core measures, each with its unit and direction', () => {
      const metrics = m.modelMetrics();
      assert.ok(metrics.length >= 2);
      for (const metric of metrics) {
        assert.deepEqual(Object.keys(metric).sort(), ['label', 'lower_is_better', 'name', 'timed', 'unit']);
      }
      assert.ok(metrics.some((x) => x.name === 'latency_ms' && x.unit === 'ms' && x.lower_is_better));
    });

    it('plans a suite, measures it point by point and reports the kept points as perflab suite does', () => {
      const plan = t.suitePlan(SUITE);
      assert.equal(plan.name, 'two');
      assert.deepEqual(plan.points.map((p) => [p.kind, p.index, p.label]), [
        ['model', 0, 'linear_128_64'],
        ['model', 1, 'mlp_784'],
        ['kernel', 0, 'sum at n=64'],
      ]);
      const points = plan.points.map((_, i) => t.measureSuitePoint(SUITE, i));
      assert.deepEqual(points.map((p) => p.kind), ['model', 'model', 'kernel']);
      // Zoo models have random weights from their specs' seeds: accuracy is not measured.
      assert.equal(points[0].model.accuracy, null);
      assert.equal(points[0].model.accuracy_text, 'not measured');
      assert.match(points[0].model.accuracy_note, /^not measured: random weights from the spec's seed, no training/);
      const report = t.suiteReport(SUITE, points, 'test');
      assert.equal(report.json.kind, 'suite');
      assert.equal(report.json.complete, true);
      assert.deepEqual(report.json.models.map((x) => x.name), ['linear_128_64', 'mlp_784']);
      // Parameters are counted, so the best is known: the smaller model.
      const parameters = report.json.summary.find((s) => s.metric.name === 'parameters');
      assert.equal(parameters.best, 'linear_128_64');
      assert.match(report.markdown, /^# Suite: two/m);
      assert.match(report.markdown, /## Recommendations/);
      assert.equal(report.csv.split('\n')[0].split(',')[0], 'kind');
      // A cancelled run's points make a report that says it is partial.
      // The host the wasm build ran on, as the binding could see it (Node's process here).
      assert.equal(report.json.system.platform, `WebAssembly on ${process.platform} ${process.arch}`);
      assert.match(report.markdown, /\| platform \| WebAssembly on /);
      // One text per size: the row's and the report's.
      assert.equal(points[0].model.size_text, '32.2 KiB');
      assert.match(report.markdown, /\| linear_128_64 \| [^\n]*\|/);
      const partial = t.suiteReport(SUITE, points.slice(0, 1), 'test');
      assert.equal(partial.json.complete, false);
      assert.equal(partial.json.points_done, 1);
      assert.equal(partial.json.points_total, 3);
    });

    it('labels a spec without a name "model", the name its optimizations and report use', () => {
      const spec = { input: [1, 4], layers: [{ type: 'Linear', in: 4, out: 2 }] };
      const suite = { ...SUITE, models: ['linear_128_64', spec], kernels: [],
        optimizations: [{ base: 'linear_128_64', optimized: 'model' }] };
      assert.deepEqual(t.suitePlan(suite).points.map((p) => p.label), ['linear_128_64', 'model']);
      assert.throws(() => t.suitePlan({ ...suite, models: [spec, spec], optimizations: [] }),
        /suite\.models\[1\] is named "model", as suite\.models\[0\] is/);
    });

    it('names the benchmarks perflab bench times', () => {
      const plan = m.benchPlan(true);
      assert.ok(plan.points.length > 0);
      assert.ok(plan.points.every((p) => ['matmul', 'gelu'].includes(p.op) && p.n > 0 && typeof p.variant === 'string'));
      assert.ok(m.benchPlan(false).points.length >= plan.points.length);
    });

    it('compares a run with its baseline: 1.5x slower is a regression, the same samples are not', () => {
      const base = [
        { op: 'matmul', variant: 'packed', n: 64, samples_ms: around(1) },
        { op: 'gelu', variant: 'fused', n: 1024, samples_ms: around(2) },
      ];
      const slower = [
        { op: 'matmul', variant: 'packed', n: 64, samples_ms: around(1.5) },
        { op: 'gelu', variant: 'fused', n: 1024, samples_ms: around(2) },
      ];
      const r = m.compareRuns({ tool: 'perflab', kind: 'bench', rows: base }, slower, { threshold: 0.05 });
      assert.equal(r.base, 'baseline');
      assert.equal(r.new, 'this run');
      assert.equal(r.threshold, 0.05);
      assert.deepEqual(r.rows.map((x) => [x.benchmark, x.verdict]), [
        ['matmul packed n=64', 'slower'],
        ['gelu fused n=1024', 'no_difference'],
      ]);
      // In words, the runs named as the page's table names them, the change's own interval.
      assert.deepEqual(r.rows.map((x) => x.verdict_word), ['slower', 'no clear difference']);
      assert.match(r.rows[0].sentence, /^this run is 1\.50x slower than the baseline \(95% CI 1\.\d\d-1\.\d\dx, p < 0\.001\)$/);
      const { low, high } = r.rows[0].change_interval;
      assert.ok(low <= 0.5 && 0.5 <= high, JSON.stringify(r.rows[0].change_interval));
      assert.deepEqual(Object.keys(r.rows[0].ratio_interval), ['high', 'low']);
      assert.equal(r.regression, true);
      assert.equal(m.compareRuns(base, base).regression, false);
    });

    for (const [what, call, message] of BAD_CALLS) {
      it(`refuses ${what} with a message naming it`, () => {
        assert.throws(() => call(m, t), (err) => err instanceof Error && message.test(err.message));
        assert.equal(m.modelMetrics().length > 0, true);  // still usable
        assert.equal(t.suitePlan(SUITE).points.length, 3);
      });
    }

    describe('a suite with a trained model the training module holds', () => {
      let train;
      let test;
      let model;
      before(() => {
        train = t.loadFashionMnist(data.trainImages, data.trainLabels, 'train', 1000).dataset;
        test = t.loadFashionMnist(data.testImages, data.testLabels, 'test', TEST_IMAGES).dataset;
        model = t.createModel(SMALL).model;
        const plan = t.startTraining(model, train, RECIPE);
        assert.equal(t.trainSteps(model, plan.steps_total).finished, true);
      });
      after(() => {
        t.dropModel(model);
        t.dropDataset(train);
        t.dropDataset(test);
      });
      const suiteOf = () => ({
        name: 'trained',
        models: ['linear_128_64', { model_file: 'small.perflab', name: 'small (trained)' }],
        metrics: ['latency_ms', 'accuracy'],
        options: { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 20, data: 'the test split held here' },
        optimizations: [{ base: 'small (trained)', optimized: 'linear_128_64' }],
      });

      it('measures its accuracy on the held test split, as evaluateModel does, and the report names the data', () => {
        const suite = suiteOf();
        const held = { 'small.perflab': model };
        assert.deepEqual(t.suitePlan(suite, held).points.map((p) => p.label), ['linear_128_64', 'small (trained)']);
        const points = [0, 1].map((i) => t.measureSuitePoint(suite, i, held, test));
        const evaluation = t.evaluateModel(model, test, 0);
        const trained = points[1].model;
        assert.equal(trained.accuracy, evaluation.accuracy);
        assert.equal(trained.accuracy_images, TEST_IMAGES);
        assert.equal(trained.accuracy_correct, Math.round(evaluation.accuracy * TEST_IMAGES));
        assert.ok(trained.accuracy > 0.5, `two epochs on 900 images learn: ${trained.accuracy}`);
        assert.equal(points[0].model.accuracy, null, 'the zoo model has random weights');
        const report = t.suiteReport(suite, points, 'test', held);
        assert.match(report.json.accuracy, /^measured by evaluate\(\) on Fashion-MNIST's test split, 300 images \(the test split held here\) for small \(trained\); not measured for linear_128_64: random weights/);
        const accurate = report.json.recommendations.find((r) => r.use === 'accuracy-preserving');
        assert.equal(accurate.model, 'small (trained)');
        assert.equal(accurate.measured, true);
        assert.match(report.markdown, /small \(trained\)/);
      });

      it('without a test split says the trained weights were not measured; another split is refused', () => {
        const suite = suiteOf();
        const held = { 'small.perflab': model };
        const point = t.measureSuitePoint(suite, 1, held);
        assert.equal(point.model.accuracy, null);
        assert.equal(point.model.accuracy_note, 'not measured: trained weights, but no test data was given to measure them on');
        assert.throws(() => t.measureSuitePoint(suite, 1, held, train), {
          message: `data set ${train} is the train split; this needs the test split`,
        });
        assert.throws(() => t.measureSuitePoint(suite, 1, { 'other.perflab': model }, test), {
          message: /^suite\.models\[1\]\.model_file: the page's models name no model file "small\.perflab" \(they name other\.perflab\)$/,
        });
        // Still usable after the refusals.
        assert.equal(t.measureSuitePoint(suite, 1, held, test).model.accuracy_images, TEST_IMAGES);
      });
    });
  });
}
