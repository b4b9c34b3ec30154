// The error path of the bindings, in both Node builds: every bad call arrives in JS as an
// Error carrying core's exact message (or the boundary's, for wrong JS types), and the module
// stays usable: after 1,000 mixed bad calls, including allocations over the memory cap, a
// good call gives the right answer and nothing leaked (tensor bytes, Embind handles, the
// wasm stack pointer).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, loadPerflabGrade } from './perflab_module.mjs';

// Each case gets the build's main module m and its grading module g (the exercise calls).
const modules = await Promise.all(BUILDS.map(loadPerflab));
const gradeModules = await Promise.all(BUILDS.map(loadPerflabGrade));

const f32 = (n) => new Float32Array(n);
// Lists that grow as core grows, so the messages naming them are built from the module.
const names = (list) => list.map((x) => x.name ?? x.id).join(', ');
const matmulNames = names(modules[0].matmulVariants());
const geluNames = names(modules[0].geluVariants());
const exerciseIds = names(gradeModules[0].exerciseBank());

// [what, call(m, g), exact message]. Messages from core are copied from it verbatim; the
// others come from wasm/convert.cpp's boundary checks.
const BAD_CALLS = [
  ['a 1-D matmul operand', (m) => m.matmul(f32(2), [2], f32(2), [2, 1]),
   'matmul needs tensors with 2 or more dimensions; a has shape (2), a 1-D tensor'],
  ['mismatched inner dimensions', (m) => m.matmul(f32(2), [1, 2], f32(3), [3, 1]),
   'matmul shape mismatch: a (1, 2) @ b (3, 1): inner dimensions 2 (last of a) and 3 ' +
   '(second-to-last of b) must be equal'],
  ['batch dimensions that do not broadcast', (m) => m.matmul(f32(4), [2, 1, 2], f32(6), [3, 2, 1]),
   'matmul batch dimensions do not broadcast: a (2, 1, 2) @ b (3, 2, 1): batch (2) and (3) ' +
   'differ at a dimension where neither is 1 (2 vs 3)'],
  ['an unknown matmul variant', (m) => m.matmul(f32(1), [1, 1], f32(1), [1, 1], 'fast'),
   `unknown matmul variant 'fast'; known variants: ${matmulNames}`],
  ['an unknown gelu variant', (m) => m.gelu(f32(2), [2], 'fast'),
   `unknown gelu variant 'fast'; known variants: ${geluNames}`],
  ['a negative dimension', (m) => m.matmul(f32(2), [2, -1], f32(1), [1, 1]),
   'aShape must be an array of non-negative integers, got [2, -1]'],
  ['a fractional dimension', (m) => m.gelu(f32(2), [2.5]),
   'shape must be an array of non-negative integers, got [2.5]'],
  ['a string dimension', (m) => m.gelu(f32(6), [2, '3']),
   'shape must be an array of non-negative integers, got [2, "3"]'],
  ['a shape that is not an array', (m) => m.add(f32(4), [4], f32(4), '4'),
   'bShape must be an array of non-negative integers, got "4"'],
  ['a missing shape', (m) => m.gelu(f32(4)),
   'shape must be an array of non-negative integers, got undefined'],
  ['data that is not numbers', (m) => m.matmul('abc', [1, 1], f32(1), [1, 1]),
   'a must be a Float32Array, a Float64Array or an array of numbers, got "abc"'],
  ['an array with a string in it', (m) => m.mul([1, 2], [2], [1, 'x'], [2]),
   'b[1] must be a number, got "x"'],
  ['an integer typed array', (m) => m.gelu(new Int32Array(2), [2]),
   'x must be a Float32Array, a Float64Array or an array of numbers, got Int32Array of length 2'],
  ['data that does not fill the shape', (m) => m.gelu(f32(3), [2, 2]),
   'shape (2, 2) has 4 elements but 3 values were given'],
  // Arrays are refused by their length, with a sentence, before any element is read: not
  // walked hole by hole and then failed with the allocator's word "vector".
  ['a sparse array of numbers far over the limit', (m) => m.median(new Array(2 ** 32 - 1)),
   'values has 4294967295 values; at most 33554432 are allowed'],
  ['sparse tensor data far over the limit', (m) => m.gelu(new Array(2 ** 32 - 1), [1]),
   'x has 4294967295 values; at most 67108864 are allowed'],
  ['a sparse list of widths far over the limit', (m) => m.mlpSpec(new Array(2 ** 32 - 1), 1),
   'widths has 4294967295 values; at most 10000 are allowed'],
  ['an array with a hole in it', (m) => m.median([1, , 3]), // eslint-disable-line no-sparse-arrays
   'values[1] must be a number, got undefined'],
  ['element-wise operands of different shapes', (m) => m.add(f32(2), [2], f32(3), [3]),
   'add shape mismatch: a (2) and b (3) must have the same shape'],
  ['a variant that is not a string', (m) => m.matmul(f32(1), [1, 1], f32(1), [1, 1], 5),
   'variant must be a string, got 5'],
  ['too many arguments', (m) => m.matmul(f32(1), [1, 1], f32(1), [1, 1], 'naive', 6),
   'matmul() takes at most 5 arguments, got 6'],
  ['a string where n is expected', (m) => m.measureMatmul('naive', '64'),
   'n must be a non-negative integer, got "64"'],
  ['a fractional n', (m) => m.measureMatmul('naive', 1.5),
   'n must be a non-negative integer, got 1.5'],
  ['n out of range', (m) => m.measureMatmul('naive', 5000),
   'n must be between 1 and 4096, got 5000'],
  ['an unknown option', (m) => m.measureMatmul('naive', 8, { samples: 5, warmups: 1 }),
   'unknown option "warmups"; the allowed options are warmup, samples, min_sample_ms, ' +
   'max_total_ms and controls'],
  ['an unknown option even when undefined', (m) => m.measureMatmul('naive', 8, { Samples: undefined }),
   'unknown option "Samples"; the allowed options are warmup, samples, min_sample_ms, ' +
   'max_total_ms and controls'],
  ['options that are not an object', (m) => m.measureMatmul('naive', 8, 5),
   'options must be an object with optional fields warmup, samples, min_sample_ms, ' +
   'max_total_ms and controls, got 5'],
  ['controls that name something else', (m) => m.measureMatmul('naive', 8, { controls: { time: 'x' } }),
   'options.controls.time is not a control; options.controls names samples and budget'],
  ['an option of the wrong type', (m) => m.measureMatmul('naive', 8, { samples: '10' }),
   'options.samples must be an integer, got "10"'],
  ['an option out of range', (m) => m.measureMatmul('naive', 8, { samples: 0 }),
   'samples must be between 1 and 100000, got 0'],
  ['a NaN option', (m) => m.measureMatmul('naive', 8, { max_total_ms: NaN }),
   'options.max_total_ms must be a finite number, got NaN'],
  ['a median of nothing', (m) => m.median([]),
   'a percentile needs at least one value, got none'],
  ['a median of non-numbers', (m) => m.median([1, null]),
   'values[1] must be a number, got null'],
  ['a tensor over the memory cap', (m) => m.matmul(f32(30000), [30000, 1], f32(30000), [1, 30000]),
   "cannot allocate 3.4 GiB for a tensor: the lab's memory cap is 768.0 MiB and 234.4 KiB is " +
   'in use; use smaller sizes'],
  ['a shape beyond the address space', (m) => m.gelu(f32(1), [100000, 100000]),
   'shape (100000, 100000) has more elements than this build can address'],
  ['an unknown exercise', (m, g) => g.exerciseVariant('no.such', 1),
   `unknown exercise "no.such"; known ids: ${exerciseIds}`],
  ['an id that is not a string', (m, g) => g.exerciseVariant(7, 1),
   'id must be a string, got 7'],
  ['a negative seed', (m, g) => g.exerciseVariant('profiling.linear-params', -1),
   'seed must be an integer in [0, 4294967295], got -1'],
  ['a seed above 2^32 - 1', (m, g) => g.exerciseVariant('profiling.linear-params', 2 ** 32),
   'seed must be an integer in [0, 4294967295], got 4294967296'],
  ['a string seed', (m, g) => g.gradeExercise('profiling.linear-params', '1', { value: 1 }),
   'seed must be an integer in [0, 4294967295], got "1"'],
  ['a missing answer', (m, g) => g.gradeExercise('profiling.linear-params', 1),
   'answer must be a JSON value such as an object, got undefined'],
  ['an answer with an unknown field', (m, g) => g.gradeExercise('profiling.linear-params', 1, { val: 1 }),
   'answer has an unknown field "val"; allowed: "value"'],
];

for (const [b, build] of BUILDS.entries()) {
  describe(`errors from the ${build.flavour} Node build`, () => {
    const m = modules[b];
    const g = gradeModules[b];
    // Both modules' tensor bytes, live Embind handles and wasm stack pointer.
    const state = () => [m, g].map((x) => [x.memoryStats().current_bytes, x.count_emval_handles(), x.stackSave()]);

    for (const [what, call, message] of BAD_CALLS) {
      it(`reports ${what} as an Error with the exact message`, () => {
        assert.throws(() => call(m, g), (e) => {
          assert.ok(e instanceof Error, `not an Error: ${e}`);
          assert.equal(e.message, message);
          return true;
        });
      });
    }

    it('stays usable and leaks nothing after 1,000 bad calls', () => {
      const good = () => m.matmul([1, 2, 3, 4, 5, 6], [2, 3], [1, 0, 0, 1, 1, 1], [3, 2]);
      good(); // let lazily created state (Embind's caches) exist before the baseline
      g.exerciseVariant('profiling.linear-params', 1);
      const before = state();
      for (let i = 0; i < 1000; ++i) {
        const [what, call, message] = BAD_CALLS[i % BAD_CALLS.length];
        assert.throws(() => call(m, g), { message }, `call ${i}: ${what}`);
      }
      const r = good();
      assert.deepEqual(r.shape, [2, 2]);
      assert.deepEqual(Array.from(r.data), [4, 5, 10, 11]);
      assert.equal(g.exerciseVariant('profiling.linear-params', 1).id, 'profiling.linear-params');
      // [main, grade] × [tensor bytes, live Embind handles, wasm stack pointer]
      assert.deepEqual(state(), before, 'tensor bytes, Embind handles and stack pointer of both modules after the errors');
    });

    it('answers objects JSON cannot write, or nested too deeply, with an Error and leaks nothing', () => {
      // JSON.stringify's own exceptions (a cycle, a BigInt, a JS stack overflow) are caught
      // in JS and become core's sentence, so they never cross wasm and skip guarded().
      const cyclic = { value: 1 };
      cyclic.self = cyclic;
      let deepJs = 1;
      for (let i = 0; i < 1_000_000; ++i) deepJs = [deepJs];
      let deepText = 1;
      for (let i = 0; i < 200; ++i) deepText = { a: deepText };
      const cases = [
        [() => g.gradeExercise('profiling.linear-params', 1, cyclic),
          /^answer cannot be written as JSON: Converting circular structure to JSON/],
        [() => g.gradeExercise('profiling.linear-params', 1, { value: 10n }),
          /^answer cannot be written as JSON: Do not know how to serialize a BigInt$/],
        [() => g.gradeExercise('profiling.linear-params', 1, deepJs),
          /^answer is nested too deeply to read; at most 64 levels are allowed$/],
        [() => m.profileModel(deepText),
          /^spec is nested 200 levels deep; at most 64 are allowed$/],
        [() => m.profileModel(JSON.stringify(deepText)),
          /^model spec is nested 200 levels deep; at most 64 are allowed$/],
      ];
      const run = () => {
        for (const [call, message] of cases) assert.throws(call, { name: 'Error', message });
      };
      run(); // lazily created state (Embind's caches) exists before the baseline
      const before = state();
      for (let i = 0; i < 10; ++i) run();
      assert.deepEqual(state(), before, 'tensor bytes, Embind handles and stack pointer of both modules after the errors');
      assert.deepEqual(Array.from(m.add([1], [1], [2], [1]).data), [3]);
    });
  });
}
