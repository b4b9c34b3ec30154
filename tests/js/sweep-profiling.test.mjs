// Protects the Profiling chapter's entries in the sweep allow-list: each point's named
// fields reach the right Module function in the right order (spec, batch, timer options),
// rows gain the model name where core's row has none, the MLP entry builds its spec with
// core's mlpSpec first, and attentionScaling yields one row per point. A fake Module
// records the calls.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SWEEP_FUNCTIONS, pointLabel, runSweep } from '../../web/src/lab/sweep.js';

function fakeModule() {
  const calls = [];
  const rec = (name, result) => (...args) => {
    calls.push([name, ...args]);
    return typeof result === 'function' ? result(...args) : result;
  };
  return {
    calls,
    measureForwardPoint: rec('measureForwardPoint', (spec, batch) => ({ name: spec.name, batch_size: batch })),
    measureBackwardPoint: rec('measureBackwardPoint', { ratio_to_forward: 2.1 }),
    memoryBreakdown: rec('memoryBreakdown', { inference: {}, training: {} }),
    profilingOverhead: rec('profilingOverhead', { overhead_ms: 0.1 }),
    mlpSpec: rec('mlpSpec', (widths) => ({ name: `mlp_${widths.join('_')}` })),
    attentionScaling: rec('attentionScaling', (d, h, seqs) => seqs.map((seq_len) => ({ seq_len, d }))),
  };
}

const ctx = () => ({ progress() {}, throwIfCancelled() {} });
const run = (Module, fn, points) => runSweep(Module, { fn, points }, ctx(), { build: 'simd', yieldToEvents: async () => {} });
const spec = { name: 'mlp_784', input: [64, 784], layers: [] };
const options = { samples: 3 };

test('forward points pass spec, batch and options; labels name the model and batch', async () => {
  const M = fakeModule();
  const { rows } = await run(M, 'measureForwardPoint', [{ spec, batch: 8, options }, { spec }]);
  assert.deepEqual(M.calls, [
    ['measureForwardPoint', spec, 8, options],
    ['measureForwardPoint', spec, undefined, {}],
  ]);
  assert.deepEqual(rows[0], { build: 'simd', name: 'mlp_784', batch_size: 8 });
  assert.equal(pointLabel('measureForwardPoint', { spec, batch: 8 }), 'mlp_784 at batch 8');
  assert.equal(pointLabel('measureForwardPoint', { spec: '{"name": "x"}' }), 'the model');
});

test('backward, memory and overhead rows gain the model name', async () => {
  const M = fakeModule();
  const back = await run(M, 'measureBackwardPoint', [{ spec, batch: 4, options }]);
  const mem = await run(M, 'memoryBreakdown', [{ spec, batch: 32 }]);
  const over = await run(M, 'profilingOverhead', [{ spec, options }]);
  assert.deepEqual(M.calls, [
    ['measureBackwardPoint', spec, 4, options],
    ['memoryBreakdown', spec, 32],
    ['profilingOverhead', spec, undefined, options],
  ]);
  assert.deepEqual(back.rows[0], { build: 'simd', name: 'mlp_784', ratio_to_forward: 2.1 });
  assert.equal(mem.rows[0].name, 'mlp_784');
  assert.equal(over.rows[0].name, 'mlp_784');
  assert.equal(pointLabel('memoryBreakdown', { spec, batch: 32 }), 'memory of mlp_784 at batch 32');
});

test('the MLP entry builds the spec with core’s mlpSpec, then measures it; rows keep the widths', async () => {
  const M = fakeModule();
  const { rows } = await run(M, 'mlpForwardPoint', [{ widths: [784, 64, 10], batch: 32, options }]);
  assert.deepEqual(M.calls, [
    ['mlpSpec', [784, 64, 10], 32],
    ['measureForwardPoint', { name: 'mlp_784_64_10' }, 32, options],
  ]);
  assert.deepEqual(rows[0], { build: 'simd', widths: [784, 64, 10], name: 'mlp_784_64_10', batch_size: 32 });
  assert.equal(pointLabel('mlpForwardPoint', { widths: [784, 64, 10], batch: 32 }), 'MLP 784-64-10 at batch 32');
});

test('attention points count one length each', async () => {
  const M = fakeModule();
  const { rows } = await run(M, 'attentionScaling', [
    { d_model: 128, heads: 4, seq_len: 64, batch: 1 },
    { d_model: 128, heads: 4, seq_len: 128 },
  ]);
  assert.deepEqual(M.calls, [
    ['attentionScaling', 128, 4, [64], 1],
    ['attentionScaling', 128, 4, [128], 1],
  ]);
  assert.deepEqual(rows.map((r) => r.seq_len), [64, 128]);
  assert.ok(SWEEP_FUNCTIONS.attentionScaling);
});
