// Nothing leaks across calls, good or failing, in both Node builds:
// - JS exceptions raised while the bindings read their arguments (a throwing getter, a
//   Proxy whose traps throw, a throwing toJSON, cycles and BigInts) arrive as an Error naming
//   the function, and leave no Embind handle and no heap byte behind, over 100+ such calls,
//   nested in objects and arrays and as own properties of typed arrays too;
// - 1,000 mixed calls (measurements, a zoo profile, grading, conversions, failing calls)
//   leave the malloc heap, the tracked tensor bytes, the Embind handles and the wasm stack
//   pointer where they started.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, loadPerflabGrade } from './perflab_module.mjs';

// Each call gets the build's main module m and its grading module g (the exercise calls); every
// check below reads both.
const modules = await Promise.all(BUILDS.map(loadPerflab));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));

const boom = () => {
  throw new Error('boom');
};
const throwingOptions = () => ({ get samples() { return boom(); } });
const trapProxy = () => new Proxy({}, { ownKeys: boom, get: boom, getOwnPropertyDescriptor: boom });
// Typed arrays whose own properties shadow the prototype's, and an array with a getter deep in it.
const ownLength = () => Object.defineProperty(new Float32Array(4), 'length', { get: boom });
const ownConstructor = () => Object.defineProperty(new Float64Array(3), 'constructor', { get: boom });
const lateGetter = () => Object.defineProperty(new Array(20000).fill(1), 15000, { get: boom });
const cyclic = () => {
  const o = { value: 1 };
  o.self = o;
  return o;
};

// [what, call(m, g), message]: JS exceptions thrown while arguments are read.
const THROWING = [
  ['a throwing getter in timer options', (m) => m.measureMatmul('naive', 8, throwingOptions()),
    /^measureMatmul\(\) could not read its arguments: boom$/],
  ['a Proxy as timer options', (m) => m.measureGelu('fused', 64, trapProxy()),
    /^measureGelu\(\) could not read its arguments: boom$/],
  ['a throwing getter in tiles', (m) => m.measureMatmulBlocked(8, { get tile_m() { return boom(); } }),
    /^measureMatmulBlocked\(\) could not read its arguments: boom$/],
  ['a Proxy as a shape', (m) => m.gelu(new Float32Array(4), new Proxy([4], { get: boom })),
    /^gelu\(\) could not read its arguments: boom$/],
  ['a throwing toJSON in an answer', (m, g) => g.gradeExercise('profiling.linear-params', 1, { toJSON: boom }),
    /^answer cannot be written as JSON: boom$/],
  ['a cyclic answer', (m, g) => g.gradeExercise('profiling.linear-params', 1, cyclic()),
    /^answer cannot be written as JSON: Converting circular structure to JSON/],
  ['a BigInt in a spec', (m) => m.profileModel({ name: 'x', input: [1n, 2], layers: [] }),
    /^spec cannot be written as JSON: Do not know how to serialize a BigInt$/],
  ['a BigInt size', (m) => m.measureMatmul('naive', 8n), /^n must be a non-negative integer, got 8n$/],
  ['a BigInt in data', (m) => m.median([1, 2n]), /^values\[1\] must be a number, got 2n$/],
  ['a throwing getter in profile options',
    (m) => m.profileModel({ name: 'x', input: [2, 3], layers: [] }, { get batch() { return boom(); } }),
    /^profileModel\(\) could not read its arguments: boom$/],
  ['a nested throwing getter in timer options',
    (m) => m.measureMatmul('naive', 8, { samples: { get x() { return boom(); } } }),
    /^measureMatmul\(\) could not read its arguments: boom$/],
  ['a throwing getter in a layer of a spec',
    (m) => m.profileModel({ name: 'x', input: [2, 3], layers: [{ get type() { return boom(); } }] }),
    /^profileModel\(\) could not read its arguments: boom$/],
  ['a Proxy inside an array of sizes',
    (m) => m.mlpSpec([8, new Proxy({}, { get: boom, ownKeys: boom, getOwnPropertyDescriptor: boom })], 2),
    /^mlpSpec\(\) could not read its arguments: boom$/],
  ['a getter past the 10,000th element of an array',
    (m) => m.median(lateGetter()), /^median\(\) could not read its arguments: boom$/],
  ['a typed array whose own constructor throws, quoted in a message',
    (m) => m.measureMatmul(ownConstructor(), 8), /^variant must be a string, got Float64Array of length 3$/],
  ['a typed array whose own length throws, as data',
    (m) => m.gelu(ownLength(), [5]), /^shape \(5\) has 5 elements but 4 values were given$/],
  ['a revoked Proxy as data', (m) => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    return m.median(proxy);
  }, /^median\(\) could not read its arguments: Cannot perform 'IsArray' on a proxy that has been revoked$/],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`leaks in the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const g = gradeModules[b];
    const good = () => [...Array.from(m.add([1, 2], [2], [3, 4], [2]).data), g.exerciseVariant('profiling.linear-params', 7).id];
    const GOOD = [4, 6, 'profiling.linear-params'];
    // Both modules' live Embind handles, malloc's bytes, tracked tensor bytes and stack pointer.
    const state = () => [m, g].map((x) => {
      const { heap_bytes, current_bytes } = x.memoryStats();
      return { handles: x.count_emval_handles(), heap_bytes, current_bytes, stack: x.stackSave() };
    });

    for (const [what, call, message] of THROWING) {
      it(`answers ${what} with an Error naming what failed`, () => {
        assert.throws(() => call(m, g), (e) => {
          assert.ok(e instanceof Error, `not an Error: ${e}`);
          assert.match(e.message, message);
          return true;
        });
        assert.deepEqual(good(), GOOD);
      });
    }

    it('leaks no Embind handle over 120 calls whose arguments throw while read', () => {
      for (const [, call] of THROWING) assert.throws(() => call(m, g)); // caches exist first
      good();
      const before = state();
      for (let i = 0; i < 120; ++i) assert.throws(() => THROWING[i % THROWING.length][1](m, g));
      assert.deepEqual(state(), before, 'live Embind handles, malloc bytes, tensor bytes and stack pointer of both modules');
      assert.deepEqual(good(), GOOD);
    });

    it('keeps heap, tensor bytes and handles flat over 1,000 mixed calls, failing ones included', () => {
      const spec = m.zooSpec(m.zooNames()[0]);
      const quick = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 20 };
      const CALLS = [
        () => m.measureMatmul('simd', 16, quick),
        () => m.matmul(new Float32Array(64), [8, 8], new Float32Array(64), [8, 8]),
        () => m.gelu(new Float32Array(256), [256]),
        () => m.memoryBreakdown(spec, 2),
        () => g.gradeExercise('profiling.linear-params', 1, { value: 1 }),
        () => g.exerciseVariant('profiling.linear-params', 7),
        () => m.median([3, 1, 2]),
        () => m.mlpSpec([8, 4, 2], 2),
        () => m.attentionScaling(16, 2, [4, 8], 1),
        () => m.measureMatmul('naive', 5000), // failing: n out of range
        () => m.matmul(new Float32Array(2), [1, 2], new Float32Array(3), [3, 1]), // shapes
        () => g.gradeExercise('profiling.linear-params', 1, cyclic()), // a JS exception inside
        () => m.measureMatmul('naive', 8, throwingOptions()), // a JS exception inside
        () => m.cliReport('{"a":'), // not JSON
        () => m.profileModel('{"name": "x", "input": [2, 3], "layers": [{"type": "Nope"}]}'),
        () => m.measureMatmul(ownConstructor(), 8), // a typed array's own property, quoted
        () => m.gelu(ownLength(), [4]), // a typed array's own length
        () => m.profileModel({ input: [2, 3], layers: [{ get type() { return boom(); } }] }),
        () => m.median(lateGetter()),
      ];
      const call = (i) => {
        try {
          CALLS[i % CALLS.length]();
        } catch (e) {
          assert.ok(e instanceof Error && !(e instanceof WebAssembly.RuntimeError), `call ${i}: ${e}`);
        }
      };
      // A lap first, so lazily created state (Embind's caches, static tables, the allocator's
      // free lists) exists before the baseline.
      for (let i = 0; i < 2 * CALLS.length; ++i) call(i);
      const before = state();
      for (const x of before) assert.equal(typeof x.heap_bytes, 'number', 'memoryStats().heap_bytes');
      for (let i = 0; i < 1000; ++i) call(i);
      // Each module's tracked tensor bytes, live Embind handles, stack pointer and malloc's
      // in-use bytes: equal after the same lap of calls (a leak of one byte per call would
      // show as 1,000 more).
      assert.deepEqual(state(), before, '[main, grade] after 1,000 calls');
    });
  });
}
