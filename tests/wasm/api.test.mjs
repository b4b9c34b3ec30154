// Protects the page's wasm API declaration (web/src/lab/api.js) against both real builds of
// both modules (main and train): every declared function exists in the module its
// declaration names, and only there, with the arity its binding really has (the Embind function
// behind expose()'s wrapper, Module.raw_<name>, whose length the wrapper pads and checks
// against) and the first parameter it names in its errors, every function the module exports
// is declared or listed as not for the page with a reason, and the page's read-only facts come from core: the roofline plan the page
// measures is the one `perflab roofline` runs, point for point, and no page file restates
// the zoo's list of models.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { API, IN_EVERY_MODULE, MODULES, NOT_FOR_PAGE, notForPage } from '../../web/src/lab/api.js';
import { rooflinePoints } from '../../web/src/chapters/acceleration/roofline-data.js';
import { aaPoints } from '../../web/src/chapters/benchmarking/aa-data.js';
import { abPoints } from '../../web/src/chapters/benchmarking/ab-data.js';
import { clockPoints } from '../../web/src/chapters/benchmarking/clock-data.js';
import { complexityPoints } from '../../web/src/chapters/benchmarking/complexity-data.js';
import { distributionPoints } from '../../web/src/chapters/benchmarking/distribution-data.js';
import { distributionExperiment } from '../../web/src/chapters/benchmarking/distribution-experiment.js';
import { coverageOf, intervalsPoints } from '../../web/src/chapters/benchmarking/intervals-data.js';
import { suitePoints } from '../../web/src/chapters/benchmarking/suite-data.js';
import { warmupPoints } from '../../web/src/chapters/benchmarking/warmup-data.js';
import { BUILDS, loadPerflab, loadPerflabGrade, loadPerflabTrain } from './perflab_module.mjs';
import { PLANS } from '../js/experiment-plans-fixture.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const trainModules = await Promise.all(BUILDS.map(loadPerflabTrain));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));
// The Benchmarking chapter's plan functions, and its experiments' ids in the chapter's order.
const bench = {
  aaPoints,
  abPoints,
  clockPoints,
  complexityPoints,
  coverageOf,
  distributionExperiment,
  distributionPoints,
  intervalsPoints,
  suitePoints,
  warmupPoints,
  IDS: ['warmup', 'clock', 'distribution', 'intervals', 'aa', 'ab', 'complexity', 'suite'].map((e) => `benchmarking-${e}`),
};
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeCli = process.env.PERFLAB_CLI ?? path.join(repoRoot, 'build', 'native', 'tools', 'perflab');

// Every function expose() registered: it installs Module.raw_<name> (Embind) and Module.<name>.
const exposed = (Module) =>
  Object.keys(Module)
    .filter((k) => k.startsWith('raw_') && typeof Module[k] === 'function')
    .map((k) => k.slice('raw_'.length));

BUILDS.forEach((build, i) => {
  const Module = modules[i];
  // Each module of this build by its name in MODULES; NOT_FOR_PAGE names each entry's module.
  const byModule = { main: Module, train: trainModules[i], grade: gradeModules[i] };
  describe(`the ${build.flavour} build`, () => {
    test('every module api.js declares is built (and loaded here)', () => {
      assert.deepEqual(Object.keys(byModule).sort(), Object.keys(MODULES).sort());
    });

    for (const [name, { args, module }] of Object.entries(API)) {
      test(`${name}(${args.join(', ')}) is exported by the ${module} module with ${args.length} parameters, and by no other`, () => {
        const M = byModule[module];
        assert.equal(typeof M[name], 'function', `the ${module} module has no ${name}`);
        assert.equal(typeof M[`raw_${name}`], 'function', `${name} is not registered through expose()`);
        assert.equal(M[`raw_${name}`].length, args.length, `${name}'s binding takes another number of arguments`);
        for (const [other, O] of Object.entries(byModule).filter(([m]) => m !== module)) {
          if (IN_EVERY_MODULE.includes(name)) assert.equal(O[`raw_${name}`]?.length, args.length, `every module exports ${name}; the ${other} module does not`);
          else assert.equal(O[`raw_${name}`], undefined, `${name} is declared in the ${module} module but the ${other} module exports it too`);
        }
      });
    }

    for (const [module, M] of Object.entries(byModule)) {
      test(`every function the ${module} module exports is declared there for the page or listed as not for it`, () => {
        const unknown = exposed(M).filter(
          (n) =>
            !(Object.hasOwn(API, n) && (API[n].module === module || IN_EVERY_MODULE.includes(n))) &&
            !(Object.hasOwn(NOT_FOR_PAGE, n) && notForPage(n).module === module),
        );
        assert.deepEqual(unknown, [], `declare these in web/src/lab/api.js with module '${module}', or list them in NOT_FOR_PAGE with why`);
      });
    }

    test('everything listed as not for the page is exported, with a reason, and not declared too', () => {
      for (const name of Object.keys(NOT_FOR_PAGE)) {
        const { module, why: reason } = notForPage(name);
        assert.ok(exposed(byModule[module]).includes(name), `NOT_FOR_PAGE lists ${name}, which the ${module} module does not export`);
        assert.ok(typeof reason === 'string' && reason.length > 10, `${name} needs a reason`);
        assert.ok(!Object.hasOwn(API, name), `${name} is both declared and listed as not for the page`);
      }
    });

    // NaN is wrong for every parameter (not a string, object, spec, boolean, size or finite
    // number: -1 would be a valid plain number), and each binding converts its parameters in
    // order: so its first complaint names its first parameter, which must be the first one
    // declared (a swapped or renamed argument shows here).
    for (const [name, { args, module }] of Object.entries(API).filter(([, e]) => e.args.length > 0)) {
      test(`${name}'s binding takes ${args[0]} first`, () => {
        assert.throws(() => byModule[module][name](...args.map(() => NaN)), (err) => {
          assert.equal(err.message.match(/^[a-z_]+/i)?.[0], args[0], err.message);
          return true;
        });
      });
    }

    test('a call with one argument too many is refused with the arity', () => {
      assert.throws(() => Module.rooflinePlan(true, 1), {
        message: `rooflinePlan() takes at most ${API.rooflinePlan.args.length} arguments, got 2`,
      });
      assert.throws(() => Module.rooflinePlan('yes'), { message: 'quick must be true or false, got "yes"' });
    });

    test('the facts the page reads come from core', () => {
      const tiles = Module.matmulDefaults();
      assert.deepEqual(Object.keys(tiles), ['tile_m', 'tile_n', 'tile_k']);
      for (const v of Object.values(tiles)) assert.ok(Number.isInteger(v) && v > 0);
      assert.deepEqual(Module.zooNames(), Module.zooModels().map((m) => m.name));
      const plan = Module.rooflinePlan(false);
      const variants = new Set(plan.points.filter((p) => p.op === 'matmul').map((p) => p.variant));
      assert.deepEqual([...variants].sort(), Module.matmulVariants().map((v) => v.name).sort(), 'every matmul variant is placed');
      const gelu = plan.points.filter((p) => p.op === 'gelu').map((p) => p.variant);
      assert.deepEqual(gelu, Module.geluVariants().map((v) => v.name), 'every GELU variant is placed');
      assert.ok(plan.points.some((p) => p.op === 'matmul' && p.variant === 'packed' && p.n === 1024),
        'the exercises read packed matmul at N = 1024');
    });

    test('experimentPlan gives core’s plan of each experiment, full and quick, and names the plans for an unknown one', () => {
      for (const id of ['acceleration-conv', 'acceleration-blocking']) {
        for (const quick of [false, true]) {
          const plan = Module.experimentPlan(id, quick);
          assert.deepEqual(Object.keys(plan.options).sort(), ['max_total_ms', 'min_sample_ms', 'samples', 'warmup'], id);
        }
      }
      assert.ok(Module.experimentPlan('acceleration-conv', true).options.max_total_ms < Module.experimentPlan('acceleration-conv', false).options.max_total_ms);
      // The Acceleration and Profiling plans the chapters read: the fields the pages' tests
      // give them (tests/js/experiment-plans-fixture.mjs), each list shorter or each budget
      // smaller in quick mode.
      for (const [id, fixture] of Object.entries(PLANS)) {
        const full = Module.experimentPlan(id, false);
        const quick = Module.experimentPlan(id, true);
        assert.deepEqual(Object.keys(full).sort(), Object.keys(fixture.full).sort(), id);
        assert.deepEqual(Object.keys(quick).sort(), Object.keys(fixture.quick).sort(), id);
        for (const [field, value] of Object.entries(full)) {
          if (Array.isArray(value)) assert.ok(quick[field].length < value.length, `${id}.${field}`);
        }
        if (full.options) assert.ok(quick.options.max_total_ms < full.options.max_total_ms, id);
      }
      assert.deepEqual(Module.experimentPlan('profiling-attention', false), {});
      assert.equal(Module.experimentPlan('profiling-batch-size', true).max_batch, 32);
      const unknown = (() => {
        try {
          Module.experimentPlan('acceleration-nope', false);
        } catch (e) {
          return e.message;
        }
        return null;
      })();
      assert.match(unknown, /^no experiment plan named "acceleration-nope"; the plans are /);
      for (const id of ['acceleration-conv', 'acceleration-blocking', ...Object.keys(PLANS)]) assert.ok(unknown.includes(id), id);
      assert.throws(() => Module.experimentPlan('acceleration-conv', 'yes'), { message: 'quick must be true or false, got "yes"' });
    });

    // The Benchmarking chapter's plans handed to its experiments' own plan functions as init
    // hands them: every field the page reads is there, the points stay within what core's
    // sampling takes in one call, and the texts quote the plan the run measures.
    test('experimentPlan gives each Benchmarking experiment a plan its page turns into points', () => {
      const infoOf = (id, quick) => ({ plan: Module.experimentPlan(id, quick), fullPlan: Module.experimentPlan(id, false) });
      const limit = Module.statsLimits().sample_kernel_max_total_ms;
      for (const quick of [false, true]) {
        const ctx = (id) => ({ quick, info: infoOf(id, quick) });
        const warmup = ctx('benchmarking-warmup');
        const [call] = bench.warmupPoints({}, warmup);
        assert.equal(call.options.samples, warmup.info.plan.calls);
        assert.ok(call.options.max_total_ms <= limit);
        const clock = ctx('benchmarking-clock');
        assert.equal(bench.clockPoints({}, clock).length, 2 * clock.info.plan.batches.length);
        for (const [id, points] of [
          ['benchmarking-distribution', bench.distributionPoints],
          ['benchmarking-intervals', bench.intervalsPoints],
        ]) {
          const c = ctx(id);
          const calls = points({}, c);
          assert.equal(calls.reduce((n, p) => n + p.options.samples, 0), c.info.plan.options.samples, id);
          assert.ok(calls.every((p) => p.options.max_total_ms <= limit), `${id}: each call within core's budget`);
        }
        assert.deepEqual(Object.keys(bench.coverageOf(ctx('benchmarking-intervals').info)).sort(), ['bootstrap_resamples', 'seed', 'trials']);
        const aa = ctx('benchmarking-aa');
        const repeats = bench.aaPoints({ kernel: 'gelu:fused', n: 64, repeats: 40, seed: 1 }, aa);
        assert.equal(repeats.length, quick ? aa.info.plan.max_repeats : 40);
        const ab = ctx('benchmarking-ab');
        const modes = bench.abPoints({ compare: 'variants', 'variant-a': 'gelu:fused', 'variant-b': 'gelu:unfused', n: 64, seed: 1 }, ab);
        assert.deepEqual(modes.map((p) => p.options.rounds), [ab.info.plan.rounds, ab.info.plan.rounds]);
        const cx = ctx('benchmarking-complexity');
        assert.equal(bench.complexityPoints({}, cx).length, cx.info.plan.kernels.reduce((n, k) => n + k.sizes.length, 0));
        const lists = { models: [{ name: 'mlp_784' }], metrics: [{ name: 'latency_ms' }], ...infoOf('benchmarking-suite', quick) };
        const [model] = bench.suitePoints({ 'model-0': true, 'metric-0': true }, { quick, info: lists });
        assert.deepEqual(model.suite.options, quick ? Module.experimentPlan('benchmarking-suite', true).options : undefined);
      }
      // The chapter's heading reads what it read when the page held the number.
      assert.equal(bench.distributionExperiment.title({ quick: true, info: infoOf('benchmarking-distribution', true) }), 'Experiment: the distribution of 1,000 samples');
      assert.throws(() => Module.experimentPlan('benchmarking-nope', true), (err) => {
        assert.match(err.message, /^no experiment plan named "benchmarking-nope"; the plans are /);
        assert.ok(err.message.includes(bench.IDS.join(', ')), err.message);
        return true;
      });
    });
  });
});

// The page's source files, for the check below.
const sourceFiles = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(path.join(dir, e.name)) : /\.(js|mjs|html)$/.test(e.name) ? [path.join(dir, e.name)] : [],
  );

test('no page file restates core’s zoo list (its model selects read zooModels)', () => {
  const names = modules[0].zooNames();
  assert.ok(names.length >= 2, `the zoo has ${names.length} models`);
  const copies = sourceFiles(path.join(repoRoot, 'web', 'src')).filter((file) => {
    const text = readFileSync(file, 'utf8');
    return names.every((n) => new RegExp(`\\b${n}\\b`).test(text));
  });
  assert.deepEqual(copies.map((f) => path.relative(repoRoot, f)), [], 'these files name every zoo model: ask core instead');
});

test('the roofline plan the page measures is the one `perflab roofline` runs', (t) => {
  if (!process.env.PERFLAB_CLI && !existsSync(nativeCli)) {
    t.skip(`no native CLI at ${nativeCli} (set PERFLAB_CLI)`);
    return;
  }
  assert.ok(existsSync(nativeCli), `PERFLAB_CLI=${nativeCli} names no file: build the native CLI`);
  const r = spawnSync(nativeCli, ['roofline', '--json', '--quick'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const Module = modules[0];
  const probe = { peak_gflops_per_s: 50, bandwidth_gb_per_s: 10 };
  const points = rooflinePoints({}, { quick: true, info: { ...probe, plan: Module.rooflinePlan(true) } });
  assert.equal(points.length, report.rows.length);
  points.forEach((p, i) => {
    const row = report.rows[i];
    assert.deepEqual([p.op, p.n], [row.op, row.n], `point #${i}`);
    // A point without a variant is the op's default, which the CLI's row names.
    if (p.options.variant !== undefined) assert.equal(p.options.variant, row.variant, `point #${i}`);
  });
});
