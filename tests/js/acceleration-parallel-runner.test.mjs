// Protects the parallelism experiments' runs through the experiment runner with a fake lab
// (experiments/runner.js startRun): the thread scaling asks the engine's facts, sweeps the
// chosen kernel and sends core the medians for its analysis (not with one thread, whose
// reason is said; a flavour the engine cannot run is refused before anything is measured);
// the FMA experiment measures the main module's packed kernel, then the engine's flavours,
// and shows them as one table. No DOM, no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startRun } from '../../web/src/experiments/runner.js';
import { scalingSentences } from '../../web/src/chapters/acceleration/thread-scaling-data.js';
import { threadScalingExperiment } from '../../web/src/chapters/acceleration/thread-scaling-experiment.js';
import { fmaExperiment } from '../../web/src/chapters/acceleration/fma-experiment.js';
import { PLANS, planCtx } from './experiment-plans-fixture.mjs';

const FOUR = { flavours: ['fma', 'simd'], max_threads: 4, shared_memory: true, why: 'the page is cross-origin isolated and has relaxed SIMD.' };
const SINGLE = { flavours: ['simd'], max_threads: 1, shared_memory: false, why: 'the page is not cross-origin isolated, so one thread.' };
const values = (over = {}) => ({ kernel: 'matmul', flavour: 'fastest', threads: 'every', 'thread-list': [1, 2], ...over });
const stats = (median_ms) => ({ samples: 10, median_ms, min_ms: median_ms * 0.98, cv: 0.01, warning: '' });
const analysis = {
  rows: [
    { threads: 1, median_ms: 4, speedup: 1, efficiency: 1, karp_flatt: null, fitted_speedup: 1 },
    { threads: 2, median_ms: 2, speedup: 2, efficiency: 1, karp_flatt: 0, fitted_speedup: 2 },
  ],
  fit: { serial_fraction: 0, max_speedup: null, rms_error: 0 },
};

// The runner through every phase with a fake lab: engineFacts, the sweeps (rows in core's
// shape, each thread count's median halving), and core's analysis (hand-written, as core would
// give it for these medians); what each call was asked is kept.
function fakeLab(facts, analysis) {
  const calls = [];
  const rowOf = (fn, p) => {
    const median_ms = fn === 'measureMatmul' ? 4 : 4 / (p.threads ?? 1);
    return { ...p, kernel: p.kernel, flops: 1e6, gflops_per_s: 1e6 / (median_ms * 1e6), stats: stats(median_ms), build: 'simd' };
  };
  return {
    calls,
    async call(fn, payload, { onProgress } = {}) {
      calls.push({ fn, payload });
      if (fn === 'engineFacts') return facts;
      if (fn === 'analyzeScaling') return analysis;
      const rows = payload.points.map((p) => rowOf(fn, p));
      rows.forEach((row, i) => onProgress?.((i + 1) / rows.length, { row, done: i + 1, total: rows.length }));
      return { rows, build: 'simd' };
    },
  };
}
const runSpec = (spec, bridge, id, vals) =>
  startRun(spec, { bridge, values: { 'measure-longer': '1', ...vals }, quick: true, where: id, loadInfo: () => planCtx(id, true).info }).done;

test('thread scaling through the runner: facts, one sweep of the chosen kernel, core’s figures merged and analysed', async () => {
  const two = { ...FOUR, max_threads: 2 };
  const bridge = fakeLab(two, analysis);
  const outcome = await runSpec(threadScalingExperiment, bridge, 'acceleration-thread-scaling', values({ kernel: 'gelu' }));
  assert.equal(outcome.ok, true, outcome.error?.message);
  assert.deepEqual(bridge.calls.map((c) => c.fn), ['engineFacts', 'measureParallelGelu', 'analyzeScaling', 'analyzeScaling']);
  assert.deepEqual(bridge.calls[2].payload.points, [{ threads: 1, median_ms: 4 }, { threads: 2, median_ms: 2 }]);
  assert.deepEqual(outcome.rows.map((r) => r.speedup), [1, 2]);
  assert.deepEqual(outcome.ctx.analysis.facts, two);
  const one = fakeLab(SINGLE, analysis);
  const single = await runSpec(threadScalingExperiment, one, 'acceleration-thread-scaling', values());
  assert.equal(single.ok, true, single.error?.message);
  assert.deepEqual(one.calls.map((c) => c.fn), ['engineFacts', 'measureParallelMatmul'], 'one thread: nothing for core to analyse');
  assert.deepEqual(scalingSentences(single.ctx.analysis).map((s) => s.role), ['engine', 'one-thread']);
  const refused = await runSpec(threadScalingExperiment, fakeLab(SINGLE, analysis), 'acceleration-thread-scaling', values({ flavour: 'fma' }));
  assert.equal(refused.ok, false);
  assert.match(refused.error.message, /cannot run the fma flavour/);
});

test('FMA through the runner: the main module’s packed first, then the engine’s flavours, one table', async () => {
  const bridge = fakeLab(FOUR, null);
  const outcome = await runSpec(fmaExperiment, bridge, 'acceleration-fma', {});
  assert.equal(outcome.ok, true, outcome.error?.message);
  assert.deepEqual(bridge.calls.map((c) => c.fn), ['engineFacts', 'measureMatmul', 'measureParallelMatmul']);
  const sizes = PLANS['acceleration-fma'].quick.sizes;
  assert.deepEqual(outcome.rows.map((r) => [r.n, r.source]), sizes.flatMap((n) => [[n, 'main'], [n, 'fma'], [n, 'simd']]));
  assert.ok(outcome.rows.every((r) => Number.isFinite(r.vs_main)));
  assert.deepEqual(outcome.ctx.analysis.sentences.map((s) => s.role), ['rates', 'ratio']);
});
