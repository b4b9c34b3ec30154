// Protects how the worker calls every declared point function (lab/api.js): a point's
// named fields reach the Module function in the declaration's order (the order itself is
// checked against the real bindings in tests/wasm/api.test.mjs), missing ones arrive as
// undefined, the row is the point's identity plus what the Module returned plus the build,
// and the label names the point. A fake Module built from the declaration records the calls.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, POINT, labelOf, rowOf } from '../../web/src/lab/api.js';
import { runSweep } from '../../web/src/lab/sweep.js';

const POINTS = Object.keys(API).filter((name) => API[name].type === POINT);

function fakeModule() {
  const calls = [];
  const Module = { calls };
  for (const name of POINTS) {
    Module[name] = (...args) => {
      calls.push([name, ...args]);
      return { measured_by: name };
    };
  }
  return Module;
}

const ctx = { progress: () => {}, throwIfCancelled: () => {} };
const noYield = { yieldToEvents: async () => {} };

// A distinct value per argument name, so a swapped pair shows.
const valueOf = (arg) => `value of ${arg}`;

for (const name of POINTS) {
  const { args, carries } = API[name];
  test(`${name}: a point's fields reach the call in the declared order, the row keeps its identity`, async () => {
    const point = { ...Object.fromEntries(args.map((a) => [a, valueOf(a)])), role: 'reference', label: 'mine' };
    const Module = fakeModule();
    const { rows } = await runSweep([['simd', Module]], name, [point], ctx, noYield);
    assert.deepEqual(Module.calls, [[name, ...args.map(valueOf)]]);
    const carried = Object.fromEntries(carries.map((a) => [a, valueOf(a)]));
    assert.deepEqual(rows, [{ build: 'simd', ...carried, role: 'reference', label: 'mine', measured_by: name }]);
    assert.equal(typeof labelOf(name, point), 'string');
  });

  test(`${name}: an argument left out arrives as undefined, in its place`, async () => {
    const point = Object.fromEntries(args.slice(0, -1).map((a) => [a, valueOf(a)]));
    const Module = fakeModule();
    await runSweep([[undefined, Module]], name, [point], ctx, noYield);
    assert.deepEqual(Module.calls, [[name, ...args.slice(0, -1).map(valueOf), undefined]]);
  });
}

test('core’s fields win over a point’s identity of the same name', () => {
  assert.deepEqual(rowOf('measureForwardPoint', { name: 'planned', spec: {} }, { name: 'core' }, 'scalar'), {
    build: 'scalar',
    name: 'core',
  });
});

test('labels name the point as progress and errors show it', () => {
  const spec = { name: 'mlp_784' };
  assert.equal(labelOf('measureMatmulBlocked', { n: 256, tiles: { tile_m: 32, tile_n: 64, tile_k: 16 } }), 'blocked 32×64×16 at N=256');
  assert.equal(labelOf('measureMatmulBlocked', { n: 64 }), 'blocked default tiles at N=64');
  assert.equal(labelOf('measureOperation', { op: 'add', n: 4096 }), 'add on 4096 elements');
  assert.equal(labelOf('measureForwardPoint', { spec, batch: 8 }), 'mlp_784 at batch 8');
  assert.equal(labelOf('measureForwardPoint', { spec: '{"name": "x"}' }), 'the model');
  assert.equal(labelOf('memoryBreakdown', { spec, batch: 32 }), 'memory of mlp_784 at batch 32');
  assert.equal(labelOf('measureMlpForwardPoint', { widths: [784, 64, 10], batch: 32 }), 'MLP 784-64-10 at batch 32');
  assert.equal(labelOf('attentionPoint', { seq_len: 64 }), 'attention at T=64');
});

test('an error in a measurement binding names the point', async () => {
  const Module = {
    measureGelu: () => {
      throw new Error('elements must be between 1 and 67108864, got 0');
    },
  };
  await assert.rejects(runSweep([[undefined, Module]], 'measureGelu', [{ variant: 'fused-simd', elements: 0 }], ctx, noYield), {
    message: 'elements must be between 1 and 67108864, got 0 (measuring fused-simd GELU over 0 elements)',
  });
});
