// The convolution experiment's bindings through both Node builds: core's methods and plan,
// im2col and col2im on the page's data (the original course's 3×3 example, worked by hand),
// one measured point of each method with the unfolded matrix's bytes, and bad arguments
// refused by name. No timing is asserted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const TINY = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 50 };
const IMAGE = Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9]);

for (const [b, build] of BUILDS.entries()) {
  describe(`convolution bindings in the ${build.flavour} Node build`, () => {
    const m = modules[b];

    it('lists the methods and the plan core owns', () => {
      assert.deepEqual(m.convMethods().map((x) => x.name), ['direct', 'im2col']);
      const plan = m.experimentPlan('acceleration-conv', false).sizes;
      assert.ok(plan.length > m.experimentPlan('acceleration-conv', true).sizes.length);
      for (const shape of plan) {
        assert.deepEqual(Object.keys(shape).sort(), ['channels', 'filters', 'height', 'kernel', 'padding', 'stride', 'width']);
      }
      assert.ok(plan.some((s) => s.kernel === 7));
    });

    it('unfolds the 3×3 image with a 2×2 kernel and folds ones back into patch counts', () => {
      const col = m.im2col(IMAGE, [1, 3, 3], 2, 1, 0);
      assert.deepEqual(col.shape, [4, 4]);
      assert.ok(col.data instanceof Float32Array);
      assert.deepEqual([...col.data], [1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9]);
      // Padding 1, stride 2: windows at (−1, −1), (−1, 1), (1, −1), (1, 1).
      assert.deepEqual([...m.im2col(IMAGE, [1, 3, 3], 2, 2, 1).data], [0, 0, 0, 5, 0, 0, 4, 6, 0, 2, 0, 8, 1, 3, 7, 9]);
      const counts = m.col2im(new Float32Array(16).fill(1), [4, 4], [1, 3, 3], 2, 1, 0);
      assert.deepEqual(counts.shape, [1, 3, 3]);
      assert.deepEqual([...counts.data], [1, 2, 1, 2, 4, 2, 1, 2, 1]);
    });

    it('measures each method on one size, with the unfolded matrix’s bytes counted and seen', () => {
      const shape = { channels: 2, height: 6, width: 5, filters: 3, kernel: 3, stride: 1, padding: 1 };
      const direct = m.measureConv('direct', shape, TINY);
      const unfolded = m.measureConv('im2col', shape, TINY);
      assert.deepEqual(unfolded.shape, shape);
      assert.equal(unfolded.flops, 2 * 3 * 30 * 18);
      assert.equal(unfolded.col_bytes, 4 * 18 * 30);
      assert.equal(unfolded.input_bytes, 4 * 60);
      assert.equal(unfolded.col_to_input, 9);
      assert.equal(direct.peak_bytes, 4 * 3 * 30);
      assert.equal(unfolded.peak_bytes, 4 * 3 * 30 + unfolded.col_bytes);
      // Every sample spans at least 100 clock ticks (the Timer's calibration), so no call reads 0 ms.
      assert.ok(direct.stats.samples >= 1 && unfolded.stats.median_ms > 0);
    });

    it('refuses bad arguments by name', () => {
      const shape = { channels: 1, height: 8, width: 8, filters: 1, kernel: 3, stride: 1, padding: 1 };
      assert.throws(() => m.measureConv('fft', shape, TINY), /unknown convolution method "fft"; the methods are direct, im2col/);
      assert.throws(() => m.measureConv('direct', { ...shape, kernel: 0 }, TINY), /shape\.kernel must be an integer from 1 to 16777216, got 0/);
      assert.throws(() => m.measureConv('direct', { ...shape, colour: 1 }, TINY), /shape\.colour is not a field of a convolution shape/);
      assert.throws(() => m.im2col(IMAGE, [3, 3], 2, 1, 0), /im2col takes one image of shape \(C, H, W\), got shape \(3, 3\)/);
      assert.throws(() => m.im2col(IMAGE, [1, 3, 3], 5, 1, 0), /kernel 5 is larger than the padded height 3/);
      assert.throws(() => m.col2im(new Float32Array(20), [4, 5], [1, 3, 3], 2, 1, 0),
        /col2im's matrix must have shape \(4, 4\)/);
      assert.throws(() => m.experimentPlan('acceleration-conv', 'yes'), /quick must be true or false, got "yes"/);
    });
  });
}
