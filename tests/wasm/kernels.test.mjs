// The kernel and module bindings give the right numbers in both Node builds: matmul (every
// variant, batched and broadcast) against a double-precision JS reference, gelu against the
// formula, add/mul exactly, results copied out of wasm memory, and the shapes of buildInfo,
// memoryStats and measureMatmul (the other measurement points: measurements.test.mjs).
// Errors are in errors.test.mjs; timing is never asserted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab, numel, randomFloat32, rng } from './perflab_module.mjs';

// (..., M, K) @ (..., K, N) in doubles, with numpy broadcasting of the batch dimensions.
// Also returns, per output, sum |a_ik·b_kj|: float32 accumulation over K terms is within
// about K·2^-24 of that, whatever order a kernel adds in.
function matmulReference(a, aShape, b, bShape) {
  const [M, K] = aShape.slice(-2);
  const N = bShape[bShape.length - 1];
  const aBatch = aShape.slice(0, -2);
  const bBatch = bShape.slice(0, -2);
  const nd = Math.max(aBatch.length, bBatch.length);
  const pad = (s) => [...Array(nd - s.length).fill(1), ...s];
  const ab = pad(aBatch);
  const bb = pad(bBatch);
  const outBatch = ab.map((d, i) => Math.max(d, bb[i]));
  const batches = numel(outBatch);
  const data = new Float64Array(batches * M * N);
  const bound = new Float64Array(batches * M * N);
  for (let t = 0; t < batches; ++t) {
    let rest = t;
    let aOffset = 0;
    let bOffset = 0;
    let aStride = 1;
    let bStride = 1;
    for (let i = nd - 1; i >= 0; --i) {
      const index = rest % outBatch[i];
      rest = Math.floor(rest / outBatch[i]);
      aOffset += (ab[i] === 1 ? 0 : index) * aStride;
      bOffset += (bb[i] === 1 ? 0 : index) * bStride;
      aStride *= ab[i];
      bStride *= bb[i];
    }
    for (let i = 0; i < M; ++i) {
      for (let j = 0; j < N; ++j) {
        let sum = 0;
        let abs = 0;
        for (let k = 0; k < K; ++k) {
          const p = a[(aOffset * M + i) * K + k] * b[(bOffset * K + k) * N + j];
          sum += p;
          abs += Math.abs(p);
        }
        data[(t * M + i) * N + j] = sum;
        bound[(t * M + i) * N + j] = abs;
      }
    }
  }
  return { shape: [...outBatch, M, N], data, bound, K };
}

function geluReference(x) {
  return 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x)));
}

const random = rng(20240601);
const randomDim = () => 1 + Math.floor(random() * 24);
const MATMUL_SHAPES = [
  [[1, 1], [1, 1]],
  [[3, 5], [5, 2]],
  [[7, 13], [13, 9]], // odd sizes: every SIMD tail path
  [[5, 8], [8, 16]],
  [[2, 3, 4], [2, 4, 5]], // batched
  [[4, 3], [2, 3, 6]], // a 2-D operand broadcast against a batch
  [[2, 1, 3, 4], [3, 4, 2]], // batch dimensions broadcast both ways
  [[2, 0], [0, 3]], // K = 0: all zeros
  ...Array.from({ length: 4 }, () => {
    const [M, K, N] = [randomDim(), randomDim(), randomDim()];
    return [[M, K], [K, N]];
  }),
];

const modules = await Promise.all(BUILDS.map(loadPerflab));

for (const [b, build] of BUILDS.entries()) {
  describe(`the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it(`reports simd: ${build.simd} in buildInfo`, () => {
      const info = m.buildInfo();
      assert.deepEqual(Object.keys(info).sort(), ['simd', 'simd_backend', 'version']);
      assert.equal(info.simd, build.simd);
      assert.match(info.version, /^\d+\.\d+\.\d+$/);
      if (build.simd) assert.equal(info.simd_backend, 'wasm-simd128');
      else assert.equal(info.simd_backend, 'scalar');
    });

    it('lists the matmul and gelu variants with descriptions', () => {
      for (const variants of [m.matmulVariants(), m.geluVariants()]) {
        assert.ok(variants.length >= 2);
        for (const v of variants) {
          assert.deepEqual(Object.keys(v).sort(), ['description', 'name']);
          assert.ok(v.name.length > 0 && v.description.length > 0);
        }
      }
      assert.equal(m.matmulVariants()[0].name, 'naive');
    });

    it('matches a double-precision reference for every matmul variant and shape', () => {
      for (const { name } of m.matmulVariants()) {
        for (const [aShape, bShape] of MATMUL_SHAPES) {
          const a = randomFloat32(random, numel(aShape));
          const b = randomFloat32(random, numel(bShape));
          const got = m.matmul(a, aShape, b, bShape, name);
          const ref = matmulReference(a, aShape, b, bShape);
          const where = `${name}: (${aShape}) @ (${bShape})`;
          assert.deepEqual(got.shape, ref.shape, where);
          assert.ok(got.data instanceof Float32Array, where);
          assert.equal(got.data.length, ref.data.length, where);
          for (let i = 0; i < ref.data.length; ++i) {
            const tolerance = (ref.K + 2) * 2 ** -23 * ref.bound[i] + 1e-30;
            const err = Math.abs(got.data[i] - ref.data[i]);
            assert.ok(err <= tolerance, `${where}: element ${i} is ${got.data[i]}, reference ` +
                                        `${ref.data[i]} (error ${err} > ${tolerance})`);
          }
        }
      }
    });

    it('accepts Float32Array, Float64Array and plain arrays, and defaults the variant', () => {
      const expected = [19, 22, 43, 50];
      const shape = [2, 2];
      const inputs = [
        [new Float32Array([1, 2, 3, 4]), new Float32Array([5, 6, 7, 8])],
        [new Float64Array([1, 2, 3, 4]), new Float64Array([5, 6, 7, 8])],
        [[1, 2, 3, 4], [5, 6, 7, 8]],
      ];
      for (const [a, b] of inputs) {
        const got = m.matmul(a, shape, b, shape);
        assert.deepEqual(got.shape, [2, 2]);
        assert.deepEqual(Array.from(got.data), expected);
      }
    });

    it('gives gelu within 1e-6 + 1e-5·|ref| of the formula for every variant', () => {
      const x = randomFloat32(random, 1001).map((v) => v * 8);
      for (const { name } of m.geluVariants()) {
        const got = m.gelu(x, [7, 11, 13], name);
        assert.deepEqual(got.shape, [7, 11, 13]);
        for (let i = 0; i < x.length; ++i) {
          const ref = geluReference(x[i]);
          assert.ok(Math.abs(got.data[i] - ref) <= 1e-6 + 1e-5 * Math.abs(ref),
                    `${name}: gelu(${x[i]}) = ${got.data[i]}, reference ${ref}`);
        }
      }
      assert.deepEqual(m.gelu([0], [1]).shape, [1]);
    });

    it('adds and multiplies exactly as float32 does', () => {
      // One float32 rounding of the exact double sum/product: what IEEE float32 gives.
      const shape = [3, 5, 7];
      const a = randomFloat32(random, numel(shape));
      const b = randomFloat32(random, numel(shape));
      const sum = m.add(a, shape, b, shape);
      const product = m.mul(a, shape, b, shape);
      assert.deepEqual(sum.shape, shape);
      assert.deepEqual(product.shape, shape);
      for (let i = 0; i < a.length; ++i) {
        assert.equal(sum.data[i], Math.fround(a[i] + b[i]));
        assert.equal(product.data[i], Math.fround(a[i] * b[i]));
      }
    });

    it('takes the median of an array or a typed array', () => {
      assert.equal(m.median([3, 1, 2]), 2);
      assert.equal(m.median([4, 1, 3, 2]), 2.5);
      assert.equal(m.median(new Float64Array([0.1, 0.3, 0.2])), 0.2);
    });

    it('reports a positive clock resolution', () => {
      const resolution = m.timerResolutionMs();
      assert.ok(Number.isFinite(resolution) && resolution > 0, `resolution ${resolution}`);
    });

    it('reports memory with the documented fields and the cap below MAXIMUM_MEMORY', () => {
      const stats = m.memoryStats();
      assert.deepEqual(Object.keys(stats).sort(),
                       ['allocation_count', 'cap_bytes', 'current_bytes', 'heap_bytes', 'peak_bytes']);
      assert.equal(stats.cap_bytes, 768 * 1024 * 1024);
      // What malloc holds in all: the tensors (none between calls) and everything else.
      assert.ok(Number.isInteger(stats.heap_bytes) && stats.heap_bytes > 0);
      assert.equal(stats.current_bytes, 0); // no tensor outlives a call
      const before = stats.allocation_count;
      m.add([1, 2], [2], [3, 4], [2]);
      assert.ok(m.memoryStats().allocation_count >= before + 3); // at least a, b and the sum
    });

    it('measures matmul with finite positive GFLOP/s and every stats field', () => {
      const n = 16;
      for (const { name } of m.matmulVariants()) {
        const r = m.measureMatmul(name, n, { warmup: 1, samples: 5, min_sample_ms: 0.2,
                                             max_total_ms: 200 });
        assert.deepEqual(Object.keys(r).sort(), ['bytes', 'flops', 'gb_per_s', 'gflops_per_s',
          'intensity', 'n', 'stats', 'variant']);
        assert.equal(r.variant, name);
        assert.equal(r.n, n);
        assert.equal(r.flops, 2 * n ** 3);
        assert.equal(r.bytes, 12 * n ** 2); // cost_matmul: a, b read once, out written once
        assert.equal(r.intensity, n / 6);
        assert.ok(Number.isFinite(r.gflops_per_s) && r.gflops_per_s > 0, `${r.gflops_per_s}`);
        assert.ok(Number.isFinite(r.gb_per_s) && r.gb_per_s > 0, `${r.gb_per_s}`);
        const s = r.stats;
        assert.deepEqual(Object.keys(s).sort(), [
          'ci95_high_ms', 'ci95_low_ms', 'cv', 'inner_iterations', 'max_ms', 'mean_ms',
          'median_ms', 'min_ms', 'outliers', 'p95_ms', 'p99_ms', 'resolution_ms', 'samples',
          'stddev_ms', 'warning',
        ]);
        for (const [key, value] of Object.entries(s)) {
          if (key === 'warning') assert.equal(typeof value, 'string');
          else assert.ok(Number.isFinite(value) && value >= 0, `stats.${key} = ${value}`);
        }
        assert.ok(s.samples >= 2 && s.inner_iterations >= 1);
        assert.ok(s.min_ms <= s.median_ms && s.median_ms <= s.max_ms);
      }
      // Options are optional, and so is each field.
      assert.equal(m.measureMatmul('simd', 4, { samples: 3, max_total_ms: 100 }).n, 4);
    });
  });
}

describe('results are copies, not views into wasm memory', () => {
  const m = modules[0];

  it('keeps a result intact after wasm memory grows', () => {
    const r = m.add([1, 2, 3], [3], [10, 20, 30], [3]);
    assert.notEqual(r.data.buffer, m.HEAPF32.buffer);
    const heapBefore = m.HEAPF32.buffer.byteLength;
    // 20 M floats in, a copy and a result: well past the 32 MiB initial memory.
    const big = m.gelu(new Float32Array(20_000_000), [20_000_000]);
    assert.equal(big.data.length, 20_000_000);
    assert.ok(m.HEAPF32.buffer.byteLength > heapBefore, 'memory should have grown');
    assert.deepEqual(Array.from(r.data), [11, 22, 33]);
  });
});
