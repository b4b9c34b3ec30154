// Suites and regression checks through both Node builds: the page sweeps a suite point by
// point (suitePlan, measureSuitePoint) and asks core for the report of the points it kept
// (suiteReport), the same report `perflab suite` writes; benchPlan names the benchmarks
// `perflab bench` times and compareRuns gives `perflab compare --json`'s verdicts. Bad
// arguments are refused by name. No timing is asserted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));

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
  ['an unknown metric', (m) => m.suitePlan({ ...SUITE, metrics: ['speed'] }), /suite\.metrics\[0\]: unknown metric "speed"/],
  ['an unknown zoo model', (m) => m.suitePlan({ ...SUITE, models: ['resnet'] }), /suite\.models\[0\]: unknown zoo model "resnet"/],
  ['a model file, which a page cannot read', (m) => m.suitePlan({ ...SUITE, models: [{ model_file: 'mlp.plm' }] }),
   /suite\.models\[0\]\.model_file: this build reads no files, so a suite here takes zoo names and specs/],
  ['a point index past the end', (m) => m.measureSuitePoint(SUITE, 3), /point index must be below 3 for suite "two", got 3/],
  ['points that are not an array', (m) => m.suiteReport(SUITE, {}, 'test'), /points must be an array of measured suite points/],
  ['a point of another kind', (m) => m.suiteReport(SUITE, [{ kind: 'layer', index: 0 }], 'test'),
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

    it('lists the metrics core measures, each with its unit and direction', () => {
      const metrics = m.modelMetrics();
      assert.ok(metrics.length >= 2);
      for (const metric of metrics) {
        assert.deepEqual(Object.keys(metric).sort(), ['label', 'lower_is_better', 'name', 'timed', 'unit']);
      }
      assert.ok(metrics.some((x) => x.name === 'latency_ms' && x.unit === 'ms' && x.lower_is_better));
    });

    it('plans a suite, measures it point by point and reports the kept points as perflab suite does', () => {
      const plan = m.suitePlan(SUITE);
      assert.equal(plan.name, 'two');
      assert.deepEqual(plan.points.map((p) => [p.kind, p.index, p.label]), [
        ['model', 0, 'linear_128_64'],
        ['model', 1, 'mlp_784'],
        ['kernel', 0, 'sum at n=64'],
      ]);
      const points = plan.points.map((_, i) => m.measureSuitePoint(SUITE, i));
      assert.deepEqual(points.map((p) => p.kind), ['model', 'model', 'kernel']);
      // Zoo models have random weights from their specs' seeds: accuracy is not measured.
      assert.equal(points[0].model.accuracy, null);
      assert.equal(points[0].model.accuracy_text, 'not measured');
      assert.match(points[0].model.accuracy_note, /^not measured: random weights from the spec's seed, no training/);
      const report = m.suiteReport(SUITE, points, 'test');
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
      const partial = m.suiteReport(SUITE, points.slice(0, 1), 'test');
      assert.equal(partial.json.complete, false);
      assert.equal(partial.json.points_done, 1);
      assert.equal(partial.json.points_total, 3);
    });

    it('labels a spec without a name "model", the name its optimizations and report use', () => {
      const spec = { input: [1, 4], layers: [{ type: 'Linear', in: 4, out: 2 }] };
      const suite = { ...SUITE, models: ['linear_128_64', spec], kernels: [],
        optimizations: [{ base: 'linear_128_64', optimized: 'model' }] };
      assert.deepEqual(m.suitePlan(suite).points.map((p) => p.label), ['linear_128_64', 'model']);
      assert.throws(() => m.suitePlan({ ...suite, models: [spec, spec], optimizations: [] }),
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
        assert.throws(() => call(m), (err) => err instanceof Error && message.test(err.message));
        assert.equal(m.modelMetrics().length > 0, true);  // still usable
      });
    }
  });
}
