// The Optimization chapter's kernels through both Node builds of the training module
// (wasm/bind_optimize.cpp): the sparse Linear variants, one point of the sparsity sweep (each
// variant verified against the dense product inside core before it is timed; the counts are
// checked here, never the times), the crossover of hand-made points, the int8 Linear's
// variants and one int8 point (verified in core against naive bit for bit and against the
// exact product within the quantization bound), and refusals by name after which the module
// still works.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflabTrain } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabTrain));
const OPTIONS = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 20 };

for (const [b, build] of BUILDS.entries()) {
  describe(`the sparse kernels in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it('lists naive first, then the batched variant, each with a sentence', () => {
      const variants = m.sparseVariants();
      assert.deepEqual(variants.map((v) => v.name), ['naive', 'batched']);
      for (const v of variants) assert.ok(v.description.length > 20, v.name);
    });

    it('measures each variant against the dense kernel on the same inputs, keeping the asked density', () => {
      for (const { name } of m.sparseVariants()) {
        for (const batch of [1, 5]) {
          const p = m.measureSparseLinear(name, batch, 96, 40, 0.1, OPTIONS);
          assert.equal(p.variant, name);
          assert.equal(p.nnz, Math.round(0.1 * 96 * 40));
          assert.equal(p.dense_bytes, 4 * 96 * 40);
          assert.equal(p.csr_bytes, 4 * (2 * p.nnz + 41));
          assert.equal(p.sparse_flops, 2 * batch * p.nnz);
          assert.equal(p.dense_flops, 2 * batch * 96 * 40);
          assert.ok(p.sparse.samples > 0 && p.dense.samples > 0);
          assert.equal(p.speedup, p.dense.median_ms / p.sparse.median_ms);
        }
      }
    });

    it('finds the crossover between the two densities around it', () => {
      const c = m.sparseCrossover([
        { density: 0.05, speedup: 2 },
        { density: 0.1, speedup: 1.5 },
        { density: 0.2, speedup: 0.5 },
      ]);
      assert.equal(c.found, true);
      assert.ok(Math.abs(c.density - 0.15) < 1e-12, String(c.density));
      assert.equal(c.sentence, 'sparse is faster below about 15% density (between 10% and 20% measured)');
    });

    for (const [what, call, message] of [
      ['a density of 0', () => m.measureSparseLinear('batched', 1, 8, 8, 0, OPTIONS), /^density must be above 0 and at most 1/],
      ['an unknown variant', () => m.measureSparseLinear('csc', 1, 8, 8, 0.5, OPTIONS), /^unknown sparse variant 'csc'; known variants: naive, batched$/],
      ['a dimension past the limit', () => m.measureSparseLinear('naive', 1, 5000, 8, 0.5, OPTIONS), /^in must be between 1 and 4096, got 5000$/],
      ['points that are not measured rows', () => m.sparseCrossover([{ density: 0.1 }]), /^points\[0\] must be a measured sparse point with numbers density and speedup/],
    ]) {
      it(`refuses ${what} with a sentence, and stays usable`, () => {
        assert.throws(call, (err) => err instanceof Error && message.test(err.message));
        assert.equal(m.sparseVariants().length, 2);
      });
    }
  });
}

for (const [b, build] of BUILDS.entries()) {
  describe(`the int8 kernels in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it('lists naive first, then the simd variant, each with a sentence', () => {
      const variants = m.int8Variants();
      assert.deepEqual(variants.map((v) => v.name), ['naive', 'simd']);
      for (const v of variants) assert.ok(v.description.length > 20, v.name);
    });

    it('measures each variant against the float packed matmul on the same inputs', () => {
      for (const { name } of m.int8Variants()) {
        for (const batch of [1, 5]) {
          const p = m.measureInt8Linear(name, batch, 37, 13, OPTIONS);
          assert.equal(p.variant, name);
          assert.equal(p.int8_bytes, 13 * 48 + 8 * 13); // K = 37 padded to 48, a scale and a code sum per output
          assert.equal(p.float32_bytes, 4 * 37 * 13);
          assert.equal(p.flops, 2 * batch * 37 * 13);
          assert.equal(p.verified_rows, batch);
          assert.ok(p.max_error_to_bound > 0 && p.max_error_to_bound <= 1, String(p.max_error_to_bound));
          assert.ok(p.int8.samples > 0 && p.float32.samples > 0);
          assert.equal(p.speedup, p.float32.median_ms / p.int8.median_ms);
        }
      }
    });

    for (const [what, call, message] of [
      ['an unknown variant', () => m.measureInt8Linear('vnni', 1, 8, 8, OPTIONS), /^unknown int8 variant 'vnni'; known variants: naive, simd$/],
      ['a dimension past the limit', () => m.measureInt8Linear('simd', 1, 8, 5000, OPTIONS), /^out must be between 1 and 4096, got 5000$/],
    ]) {
      it(`refuses ${what} with a sentence, and stays usable`, () => {
        assert.throws(call, (err) => err instanceof Error && message.test(err.message));
        assert.equal(m.int8Variants().length, 2);
      });
    }
  });
}
