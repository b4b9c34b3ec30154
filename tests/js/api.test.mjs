// Protects the declaration of the page's wasm API (lab/api.js) and the main-thread helpers
// built from it (lab/client.js): every entry is well formed, a request is checked against
// its declaration (unknown names, extra fields, bad builds and points are refused with what
// is allowed), a helper posts its declared kind with named arguments, and an experiment's
// `measure` can only name a declared sweep point. A fake bridge records what is posted;
// the declaration against the real bindings is tests/wasm/api.test.mjs.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, CALL, IN_EVERY_MODULE, MODULES, NOT_FOR_PAGE, NOT_YET_MOUNTED, POINT, payloadProblem, positional } from '../../web/src/lab/api.js';
import { declaredSweep, labOf, probeMachineRoofs } from '../../web/src/lab/client.js';

test('every declaration names its kind, its arguments and a label', () => {
  for (const [name, entry] of Object.entries(API)) {
    assert.ok([POINT, CALL].includes(entry.type), name);
    assert.ok(Array.isArray(entry.args) && entry.args.every((a) => /^[a-z][a-z_]*$/.test(a)), name);
    assert.equal(new Set(entry.args).size, entry.args.length, `${name} names an argument twice`);
    assert.equal(typeof entry.label({}), 'string', name);
    if (entry.type === POINT) assert.ok(entry.carries.every((c) => entry.args.includes(c)), `${name} carries a field that is not an argument`);
    else assert.equal(entry.carries, undefined, `${name}: only sweep points carry fields into rows`);
    assert.ok(!Object.hasOwn(NOT_FOR_PAGE, name), `${name} is declared and listed as not for the page`);
    assert.ok(Object.hasOwn(MODULES, entry.module), `${name} names the module ${JSON.stringify(entry.module)}; modules: ${Object.keys(MODULES).join(', ')}`);
  }
});

test('every module holds a declared function, and the training functions are in the train module', () => {
  for (const module of Object.keys(MODULES)) {
    assert.ok(Object.values(API).some((e) => e.module === module), `no function is declared in the ${module} module`);
  }
  // The page's initial load holds only the main module (issue 23): training stays out of it.
  for (const name of ['loadFashionMnist', 'startTraining', 'trainSteps', 'evaluateModel']) assert.equal(API[name].module, 'train', name);
  for (const name of ['buildInfo', 'timerResolutionMs', 'matmulVariants']) assert.equal(API[name].module, 'main', name);
  // Every module's own facts are declared once, with the module the page asks.
  for (const name of IN_EVERY_MODULE) assert.equal(API[name]?.module, 'main', name);
});

test('positional arguments follow the declaration, missing ones undefined', () => {
  assert.deepEqual(positional('gradeExercise', { answer: 3, id: 'x' }), ['x', undefined, 3, undefined, undefined]);
  assert.deepEqual(positional('zooModels', { build: 'simd' }), []);
});

test('a call’s request is its named arguments and an optional build', () => {
  assert.equal(payloadProblem('gradeExercise', { id: 'x', seed: 1, answer: {} }), null);
  assert.equal(payloadProblem('exerciseBank', {}), null);
  assert.equal(payloadProblem('zooModels', { build: 'scalar' }), null);
  assert.equal(payloadProblem('gradeExercise', { id: 'x', fn: 'eval' }), 'gradeExercise takes id, seed, answer, hidden_key, mode and build; got also fn');
  assert.equal(payloadProblem('zooModels', { args: [] }), 'zooModels takes build; got also args');
  assert.equal(payloadProblem('zooModels', { build: 'avx' }), 'unknown build "avx"; allowed: auto, simd, scalar');
  assert.equal(payloadProblem('zooModels', null), 'the request of zooModels must be an object');
  assert.match(payloadProblem('eval', {}), /^unknown lab function "eval"; declared: measureMatmul, /);
  assert.match(payloadProblem('hasOwnProperty', {}), /^unknown lab function "hasOwnProperty"/);
});

test('a sweep’s request is points and a build, or points and builds', () => {
  const points = [{ variant: 'naive', n: 8 }];
  assert.equal(payloadProblem('measureMatmul', { points, build: 'auto' }), null);
  assert.equal(payloadProblem('measureMatmul', { points, builds: ['simd', 'scalar'] }), null);
  assert.equal(payloadProblem('measureMatmul', { points, build: 'simd', builds: ['simd'] }), 'a sweep takes build or builds, not both');
  assert.equal(
    payloadProblem('measureMatmul', { points, builds: ['simd', 'simd'] }),
    'builds must be a non-empty list of distinct builds from simd, scalar, got ["simd","simd"]',
  );
  assert.equal(payloadProblem('measureMatmul', { variant: 'naive', n: 8 }), 'measureMatmul takes points, build and builds; got also variant, n');
});

function fakeBridge() {
  const posted = [];
  return {
    posted,
    call: async (kind, payload, options) => {
      posted.push({ kind, payload, options });
      if (kind === 'probeMachine') return { peak_gflops_per_s: 40, bandwidth_gb_per_s: 10, copy_gb_per_s: 9 };
      return { kind };
    },
  };
}

test('labOf(bridge) has one helper per declared call, none for sweep points', () => {
  const lab = labOf(fakeBridge());
  assert.deepEqual(Object.keys(lab).sort(), Object.keys(API).filter((n) => API[n].type === CALL).sort());
});

test('a helper posts its kind with named arguments and the call’s options', async () => {
  const bridge = fakeBridge();
  const signal = new AbortController().signal;
  await labOf(bridge).profileModel('{"name": "m"}', { batch: 4 }, { where: 'builder-profile', signal, build: 'scalar' });
  await labOf(bridge).zooModels({ where: 'profiling-zoo' });
  await labOf(bridge).mlpSpec([4, 2], undefined);
  assert.deepEqual(bridge.posted.map(({ kind, payload, options }) => [kind, payload, options.where]), [
    ['profileModel', { spec: '{"name": "m"}', options: { batch: 4 }, build: 'scalar' }, 'builder-profile'],
    ['zooModels', {}, 'profiling-zoo'],
    ['mlpSpec', { widths: [4, 2] }, 'mlpSpec'],
  ]);
  assert.equal(bridge.posted[0].options.signal, signal);
  assert.throws(() => labOf(bridge).cliReport('a', {}, 'extra'), {
    message: "cliReport(text) takes 1 argument and the call's options, got 3 values",
  });
});

test('a probe hands its roofs to the profiler right after', async () => {
  const bridge = fakeBridge();
  const probe = await probeMachineRoofs(bridge, { quick: true }, { where: 'acceleration-probe' });
  assert.equal(probe.copy_gb_per_s, 9);
  assert.deepEqual(bridge.posted.map(({ kind, payload }) => [kind, payload]), [
    ['probeMachine', { options: { quick: true } }],
    ['setMachineRoofs', { roofs: { peak_gflops_per_s: 40, bandwidth_gb_per_s: 10 } }],
  ]);
});

test('an experiment measures a declared sweep point, nothing else', () => {
  assert.deepEqual(declaredSweep('measureGelu'), { fn: 'measureGelu' });
  const payload = (values, points) => ({ points, builds: ['simd'] });
  assert.equal(declaredSweep('measureMatmul', { payload }).payload, payload);
  assert.throws(() => declaredSweep('profileModel'), { message: /^"profileModel" is not a declared sweep point; declared: measureMatmul, / });
});

test('every declared function is used by the page (else it belongs in NOT_FOR_PAGE), or listed as not yet mounted', async (t) => {
  const { readdir, readFile } = await import('node:fs/promises');
  const root = new URL('../../web/src/', import.meta.url);
  const files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.js') && f !== 'lab/api.js');
  const text = (await Promise.all(files.map((f) => readFile(new URL(f, root), 'utf8')))).join('\n');
  const unused = Object.keys(API).filter((name) => !new RegExp(`\\b${name}\\b`).test(text));
  for (const [name, chapter] of Object.entries(NOT_YET_MOUNTED)) {
    assert.ok(Object.hasOwn(API, name), `NOT_YET_MOUNTED lists ${name}, which is not declared`);
    assert.ok(typeof chapter === 'string' && chapter.length > 10, `${name} needs the chapter that will call it`);
    t.diagnostic(`declared, not yet used by the page: ${name} (${chapter})`);
  }
  // A listed call the page now uses must leave the list; an unlisted one must be used.
  assert.deepEqual(unused.sort(), Object.keys(NOT_YET_MOUNTED).sort());
});
