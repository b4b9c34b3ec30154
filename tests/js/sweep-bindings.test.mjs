// Protects the sweep allow-list entries of the measurement bindings (measureMatmulBlocked,
// measureGelu, measureOperation, measureReadBandwidth, measureLinear) and the profiling
// points (measureForwardPoint, measureBackwardPoint, memoryBreakdown, profilingOverhead):
// each point's named fields reach the Module call in the contract's argument order, the row
// is what the Module returned (plus the build), and labels name the point. A fake Module
// records the calls; nothing is measured.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SWEEP_FUNCTIONS, pointLabel, runSweep } from '../../web/src/lab/sweep.js';

function fakeModule() {
  const calls = [];
  const record = (name) => (...args) => {
    calls.push([name, ...args]);
    return { fn: name };
  };
  const names = ['measureMatmulBlocked', 'measureGelu', 'measureOperation', 'measureReadBandwidth',
    'measureLinear', 'measureForwardPoint', 'measureBackwardPoint', 'memoryBreakdown',
    'profilingOverhead'];
  return { calls, ...Object.fromEntries(names.map((n) => [n, record(n)])) };
}

const ctx = { progress: () => {}, throwIfCancelled: () => {} };
const noYield = { yieldToEvents: async () => {} };
const TIMER = { samples: 3 };
const spec = { name: 'mlp_784', input: [64, 784], layers: [] };

// [fn, point, expected Module call arguments, expected label]
const CASES = [
  ['measureMatmulBlocked', { n: 256, tiles: { tile_m: 32, tile_n: 64, tile_k: 16 }, options: TIMER },
    [256, { tile_m: 32, tile_n: 64, tile_k: 16 }, TIMER], 'blocked 32×64×16 at N=256'],
  ['measureMatmulBlocked', { n: 64 }, [64, {}, {}], 'blocked default tiles at N=64'],
  ['measureGelu', { variant: 'unfused', elements: 1048576, options: TIMER },
    ['unfused', 1048576, TIMER], 'unfused GELU over 1048576 elements'],
  ['measureOperation', { op: 'matmul', n: 64, options: { ...TIMER, variant: 'naive',
    peak_gflops_per_s: 50, bandwidth_gb_per_s: 10 } },
  ['matmul', 64, { samples: 3, variant: 'naive', peak_gflops_per_s: 50, bandwidth_gb_per_s: 10 }],
  'matmul at N=64'],
  ['measureOperation', { op: 'add', n: 4096 }, ['add', 4096, {}], 'add on 4096 elements'],
  ['measureReadBandwidth', { bytes: 32768, options: TIMER }, [32768, TIMER],
    'read bandwidth over 32768 bytes'],
  ['measureLinear', { in_features: 784, out_features: 256, batch: 32, variant: 'naive',
    options: TIMER }, [784, 256, 32, 'naive', TIMER], 'Linear 784→256 (naive) at batch 32'],
  ['measureForwardPoint', { spec, batch: 32, options: TIMER }, [spec, 32, TIMER],
    'mlp_784 at batch 32'],
  ['measureBackwardPoint', { spec, batch: 1 }, [spec, 1, {}],
    'mlp_784 forward and backward at batch 1'],
  ['memoryBreakdown', { spec, batch: 8 }, [spec, 8], 'memory of mlp_784 at batch 8'],
  ['profilingOverhead', { spec, batch: 4, options: TIMER }, [spec, 4, TIMER],
    'profiling overhead of mlp_784'],
];

test('every measurement binding is on the sweep allow-list', () => {
  for (const fn of new Set(CASES.map(([f]) => f))) assert.ok(Object.hasOwn(SWEEP_FUNCTIONS, fn), fn);
});

for (const [fn, point, args, label] of CASES) {
  test(`${fn} sweeps pass the point's fields in order: ${label}`, async () => {
    const Module = fakeModule();
    const { rows } = await runSweep(Module, { fn, points: [point] }, ctx,
      { build: 'simd', ...noYield });
    assert.deepEqual(Module.calls, [[fn, ...args]]);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].build, 'simd');
    assert.equal(pointLabel(fn, point), label);
  });
}

test('an error in a measurement binding names the point', async () => {
  const Module = {
    measureGelu: () => {
      throw new Error('elements must be between 1 and 67108864, got 0');
    },
  };
  await assert.rejects(
    runSweep(Module, { fn: 'measureGelu', points: [{ variant: 'fused-simd', elements: 0 }] }, ctx,
      noYield),
    { message: 'elements must be between 1 and 67108864, got 0 (measuring fused-simd GELU over 0 ' +
      'elements)' },
  );
});
