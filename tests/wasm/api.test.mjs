// Protects the page's wasm API declaration (web/src/lab/api.js) against both real builds:
// every declared function exists with the arity its binding really has (the Embind function
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

import { API, NOT_FOR_PAGE } from '../../web/src/lab/api.js';
import { rooflinePoints } from '../../web/src/chapters/acceleration/roofline-data.js';
import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const nativeCli = process.env.PERFLAB_CLI ?? path.join(repoRoot, 'build', 'native', 'tools', 'perflab');

// Every function expose() registered: it installs Module.raw_<name> (Embind) and Module.<name>.
const exposed = (Module) =>
  Object.keys(Module)
    .filter((k) => k.startsWith('raw_') && typeof Module[k] === 'function')
    .map((k) => k.slice('raw_'.length));

BUILDS.forEach((build, i) => {
  const Module = modules[i];
  describe(`the ${build.flavour} build`, () => {
    for (const [name, { args }] of Object.entries(API)) {
      test(`${name}(${args.join(', ')}) is exported with ${args.length} parameters`, () => {
        assert.equal(typeof Module[name], 'function', `the module has no ${name}`);
        assert.equal(typeof Module[`raw_${name}`], 'function', `${name} is not registered through expose()`);
        assert.equal(Module[`raw_${name}`].length, args.length, `${name}'s binding takes another number of arguments`);
      });
    }

    test('every exported function is declared for the page or listed as not for it', () => {
      const unknown = exposed(Module).filter((n) => !Object.hasOwn(API, n) && !Object.hasOwn(NOT_FOR_PAGE, n));
      assert.deepEqual(unknown, [], 'declare these in web/src/lab/api.js, or list them in NOT_FOR_PAGE with why');
    });

    test('everything listed as not for the page is exported, with a reason, and not declared too', () => {
      const names = exposed(Module);
      for (const [name, reason] of Object.entries(NOT_FOR_PAGE)) {
        assert.ok(names.includes(name), `NOT_FOR_PAGE lists ${name}, which the module does not export`);
        assert.ok(typeof reason === 'string' && reason.length > 10, `${name} needs a reason`);
        assert.ok(!Object.hasOwn(API, name), `${name} is both declared and listed as not for the page`);
      }
    });

    // -1 is wrong for every parameter (not a string, object, spec or size), and each binding
    // converts its parameters in order: so its first complaint names its first parameter,
    // which must be the first one declared (a swapped or renamed argument shows here).
    for (const [name, { args }] of Object.entries(API).filter(([, e]) => e.args.length > 0)) {
      test(`${name}'s binding takes ${args[0]} first`, () => {
        assert.throws(() => Module[name](...args.map(() => -1)), (err) => {
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
      assert.throws(() => Module.experimentPlan('acceleration-nope', false), { message: /^no experiment plan named "acceleration-nope"; the plans are acceleration-conv, acceleration-blocking$/ });
      assert.throws(() => Module.experimentPlan('acceleration-conv', 'yes'), { message: 'quick must be true or false, got "yes"' });
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
