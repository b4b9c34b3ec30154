// A seeded fuzzer over every binding of both Node builds, main and training module: each function is called with
// arguments drawn from a pool of wrong types, NaN, ±Infinity, negative, zero, 2^31, 2^32,
// sparse and huge arrays, cyclic and deep objects, throwing getters, Proxies and BigInts, at
// the top and nested inside objects and arrays, typed arrays with own properties, and strings
// with lone UTF-16 surrogates.
// Every call must return or throw an Error whose message is a sentence (not a bare number,
// not the JSON library's or Embind's own text), never a wasm trap or abort; a normal call
// must work after each, no JS exception may be raised inside wasm (the wrapper reads every
// argument in JS first), and no Embind handle or tracked tensor byte may be left behind.
// Seeded (PERFLAB_FUZZ_SEED, PERFLAB_FUZZ_CALLS to run longer); a few thousand calls.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, loadPerflabGrade, loadPerflabTrain, rng } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const trainModules = await Promise.all(BUILDS.map(loadPerflabTrain));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));
const SEED = Number(process.env.PERFLAB_FUZZ_SEED ?? 14);
const CALLS = Number(process.env.PERFLAB_FUZZ_CALLS ?? 3000); // per build, main module
// The training module has 14 bindings (the main one about 70): a third of the calls gives
// each of them more calls than the main module's get.
const TRAIN_CALLS = Math.ceil(CALLS / 3);
// The grading module has 6 bindings (and the module's own facts): as many calls as training's.
const GRADE_CALLS = TRAIN_CALLS;

// Calls that measure or probe with their defaults when every argument is undefined take
// seconds; the fuzzer gives them a short budget instead of undefined as their options.
const SHORT = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 5 };

function pool() {
  const cyclic = { a: 1 };
  cyclic.self = cyclic;
  let deep = 1;
  for (let i = 0; i < 200; ++i) deep = [deep];
  const sparse = [];
  sparse[5] = 1;
  const huge = new Array(2 ** 32 - 1);
  const boom = () => {
    throw new Error('nested');
  };
  // Typed arrays with own properties that shadow what a reader might use.
  const ownLength = new Float32Array(4);
  Object.defineProperty(ownLength, 'length', { get: boom });
  const ownConstructor = new Float64Array([1, 2, 3]);
  Object.defineProperty(ownConstructor, 'constructor', { get: boom });
  const ownIndex = new Float32Array([1, 2]);
  ownIndex.extra = { get x() { return boom(); } };
  const otherProto = new Float32Array(2);
  Object.setPrototypeOf(otherProto, new Proxy({}, { get: boom }));
  const lateGetter = new Array(20000).fill(1);
  Object.defineProperty(lateGetter, 15000, { get: boom });
  return [
    ownLength, ownConstructor, ownIndex, otherProto, lateGetter,
    { samples: { get x() { return boom(); } } }, { warmup: [1, { get a() { return boom(); } }] },
    { name: 'x', input: [2, 3], layers: [{ get type() { return boom(); } }] },
    [1, { get a() { return boom(); } }], [[2, new Proxy({}, { ownKeys: boom })]],
    new Proxy([8, 4], { get: (t, k) => (k === 'length' ? 2 : boom()) }),
    new Proxy(new Float32Array(4), {}), { seed: new Proxy({}, { get: boom }) },
    [new Proxy({}, { getOwnPropertyDescriptor: boom, ownKeys: () => ['a'] })],
    Object.create({ get samples() { return boom(); } }),
    '\uD800naive', 'naive\uDC00', '{"a": "\uD800x"}',
    undefined, null, true, false, 0, -1, 1, 2, 3, 8, 16, 1.5, -0.5, NaN, Infinity, -Infinity,
    2 ** 31, 2 ** 32, 2 ** 53, -(2 ** 31), 1e308, 5e-324, 10n, -1n, '', 'naive', 'simd', 'x',
    'fused', '64', 'profiling.linear-params', '{"a":', '{}', '[]', 'x'.repeat(1000), Symbol('s'),
    [], [1], [2, 3], [0], [-1], [1.5], ['a'], [NaN], [1, 2, 3, 4], sparse, huge,
    new Float32Array(4), new Float64Array(3), new Int32Array(2), new Float32Array(0),
    {}, { value: 1 }, { samples: 0 }, { samples: 1e9 }, { max_total_ms: 0 }, { warmup: -1 },
    { tile_m: 0 }, { tile_n: 2147483647 }, { quick: 'yes' }, { results: [] }, { name: 'x' },
    { name: 'x', input: [2, 3], layers: [{ type: 'ReLU' }] }, { toJSON: () => { throw new Error('json'); } },
    { get samples() { throw new Error('getter'); } }, new Proxy({}, { ownKeys: () => { throw new Error('trap'); } }),
    cyclic, deep, () => 1, new Map(), new Date(0), SHORT,
  ];
}

// Ends of what a sentence may not be: a bare exception pointer, a library's own text.
const NOT_A_SENTENCE =
  /^\d+$|json\.exception|syntax error while parsing|last read:|Cannot convert|BindingError|UnboundTypeError|^undefined$|^$/;

// Each module with its number of calls, its seed offset and a normal call whose answer must
// not change (main: a kernel on caller data; train: a zoo model's baseline recipe; grade: an
// exercise's variant).
const FUZZED = [
  { module: 'main', of: modules, calls: CALLS, seed: 0, good: (m) => Array.from(m.add([1], [1], [2], [1]).data) },
  { module: 'train', of: trainModules, calls: TRAIN_CALLS, seed: 100, good: (m) => JSON.stringify(m.baselineRecipe('fashion_mlp')) },
  { module: 'grade', of: gradeModules, calls: GRADE_CALLS, seed: 200, good: (m) => JSON.stringify(m.exerciseVariant('profiling.linear-params', 7)) },
];

for (const [b, build] of BUILDS.entries()) {
  for (const { module, of, calls, seed, good: goodOf } of FUZZED) {
    describe(`fuzzing the ${build.flavour} Node build's ${module} module`, () => {
      const m = of[b];
      const names = Object.keys(m).filter((k) => k.startsWith('raw_')).map((k) => k.slice(4));

      it(`answers ${calls} seeded calls of wrong arguments with a return or a sentence`, () => {
        const random = rng(SEED + seed + b);
        const values = pool();
        const pick = () => values[Math.floor(random() * values.length)];
        const good = () => goodOf(m);
        const expected = good();
        if (module === 'main') assert.deepEqual(expected, [3], 'add([1], [1], [2], [1])');
        const handles = m.count_emval_handles();
        const tensorBytes = m.memoryStats().current_bytes;
        const slow = [];
        for (let i = 0; i < calls; ++i) {
          const name = names[Math.floor(random() * names.length)];
          const arity = m[`raw_${name}`].length;
          const args = Array.from({ length: arity }, pick);
          // A measurement's last argument is its options: undefined would mean the defaults
          // (seconds per call), so half the time it is the short budget.
          if (arity > 0 && args[arity - 1] === undefined && random() < 0.9) args[arity - 1] = SHORT;
          const started = performance.now();
          try {
            m[name](...args);
          } catch (e) {
            const what = `${name}(${args.map((a) => typeof a).join(', ')}) [call ${i}, seed ${SEED + seed + b}]`;
            assert.ok(e instanceof Error, `${what} threw a non-Error: ${String(e)}`);
            assert.ok(!(e instanceof WebAssembly.RuntimeError), `${what} trapped: ${e.message}`);
            assert.doesNotMatch(e.message, NOT_A_SENTENCE, `${what}: not a sentence`);
          }
          const ms = performance.now() - started;
          if (ms > 2000) slow.push(`${name} ${Math.round(ms)} ms`);
          assert.deepEqual(good(), expected, `a normal call after ${name} [call ${i}]`);
        }
        assert.equal(m.count_emval_handles(), handles, 'live Embind handles');
        assert.equal(m.memoryStats().current_bytes, tensorBytes, 'tracked tensor bytes');
        // A JS exception inside wasm skips C++ destructors (heap that is never freed); the
        // wrapper counts each one it had to catch.
        assert.equal(m.jsExceptionsInsideWasm ?? 0, 0, 'JS exceptions raised inside wasm');
        // Informational: calls over 2 s are reported, not failed (timing is not asserted).
        if (slow.length > 0) console.log(`slow calls in the ${build.flavour} build's ${module} module: ${slow.join(', ')}`);
      });
    });
  }
}
