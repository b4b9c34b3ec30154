// Protects a sweep over several builds (`{points, builds}`, sweep.js runSweep): every point is
// measured in each build before the next point, rows carry their build, progress counts
// point × build measurements, a cancel between measurements stops the sweep, a Module
// error names the point and the build, and bad payloads are refused before anything loads.
// Fake Modules stand in for the two wasm builds.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSweep, sweepProblem } from '../../web/src/lab/sweep.js';

// The worker's way: every build loaded first, then one sweep over them.
async function runSweepBuilds(load, { fn, points, builds }, ctx, options) {
  const problem = sweepProblem(fn, { points, builds });
  if (problem) throw new Error(problem);
  const modules = [];
  for (const b of builds) modules.push([b, await load(b)]);
  return runSweep(modules, fn, points, ctx, { ...options, byBuild: true });
}
const sweepBuildsProblem = ({ fn, ...payload }) => sweepProblem(fn, payload);

function fakeModule(build, calls) {
  return {
    measureMatmul(variant, n) {
      calls.push(`${build}:${variant}@${n}`);
      if (n === 13) throw new Error('n must be even here');
      return { variant, n, gflops_per_s: build === 'simd' ? 4 : 1 };
    },
  };
}

function context({ cancelAfter = Infinity } = {}) {
  const progress = [];
  let measured = 0;
  return {
    progress,
    ctx: {
      progress: (fraction, detail) => {
        progress.push([fraction, detail.done, detail.total]);
        if (detail.row) measured += 1;
      },
      throwIfCancelled() {
        if (measured >= cancelAfter) throw Object.assign(new Error('cancelled'), { cancelled: true });
      },
    },
  };
}

const noYield = { yieldToEvents: async () => {} };
const points = [
  { variant: 'naive', n: 64 },
  { variant: 'packed', n: 64 },
];

test('each point is measured in both builds, point by point, each row carrying its build', async () => {
  const calls = [];
  const loaded = [];
  const load = async (build) => {
    loaded.push(build);
    return fakeModule(build, calls);
  };
  const { ctx, progress } = context();
  const result = await runSweepBuilds(load, { fn: 'measureMatmul', points, builds: ['simd', 'scalar'] }, ctx, noYield);
  assert.deepEqual(loaded, ['simd', 'scalar'], 'each build loaded once');
  assert.deepEqual(calls, ['simd:naive@64', 'scalar:naive@64', 'simd:packed@64', 'scalar:packed@64']);
  assert.equal(result.build, 'simd + scalar');
  assert.deepEqual(
    result.rows.map((r) => `${r.build} ${r.variant} ${r.gflops_per_s}`),
    ['simd naive 4', 'scalar naive 1', 'simd packed 4', 'scalar packed 1'],
  );
  assert.deepEqual(progress, [
    [0, 0, 4],
    [0.25, 1, 4],
    [0.5, 2, 4],
    [0.75, 3, 4],
    [1, 4, 4],
  ]);
});

test('a cancel between measurements stops the sweep', async () => {
  const calls = [];
  const { ctx } = context({ cancelAfter: 3 });
  await assert.rejects(
    runSweepBuilds(async (b) => fakeModule(b, calls), { fn: 'measureMatmul', points, builds: ['simd', 'scalar'] }, ctx, noYield),
    { message: 'cancelled', cancelled: true },
  );
  assert.equal(calls.length, 3);
});

test('a Module error names the point and the build', async () => {
  const { ctx } = context();
  await assert.rejects(
    runSweepBuilds(
      async (b) => fakeModule(b, []),
      { fn: 'measureMatmul', points: [{ variant: 'simd', n: 13 }], builds: ['scalar'] },
      ctx,
      noYield,
    ),
    { message: 'n must be even here (measuring simd at N=13 in the scalar build)' },
  );
});

test('bad payloads are refused with what is allowed, before any build loads', async () => {
  const builds = 'builds must be a non-empty list of distinct builds from simd, scalar';
  assert.equal(sweepBuildsProblem({ fn: 'measureMatmul', points, builds: [] }), `${builds}, got []`);
  assert.equal(sweepBuildsProblem({ fn: 'measureMatmul', points, builds: ['simd', 'simd'] }), `${builds}, got ["simd","simd"]`);
  assert.equal(sweepBuildsProblem({ fn: 'measureMatmul', points, builds: ['auto'] }), `${builds}, got ["auto"]`);
  assert.match(sweepBuildsProblem({ fn: 'nope', points, builds: ['simd'] }), /^unknown lab function "nope"; declared: measureMatmul/);
  assert.equal(sweepBuildsProblem({ fn: 'measureMatmul', points, builds: ['simd'] }), null);
  let loads = 0;
  await assert.rejects(
    runSweepBuilds(async () => (loads += 1), { fn: 'measureMatmul', points: [], builds: ['simd'] }, context().ctx, noYield),
    { message: 'sweep points must be a non-empty array, got an empty array' },
  );
  assert.equal(loads, 0);
});
