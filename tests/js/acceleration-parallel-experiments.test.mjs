// Protects the pure halves of the Acceleration chapter's parallelism experiments (thread
// scaling, FMA against multiply-add): the points each plans from core's plan and the engine's
// facts (thread counts within what the engine runs, 1 always, a flavour it cannot run refused
// with its reason), core's analysis merged into the rows and drawn as three series, the
// sentences quoting the figures they sit beside, the table and CSV, and that each spec passes
// the framework's checks. No DOM, no wasm: rows and facts are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText } from '../../web/src/ui/columns.js';
import { rawOf, readControls, specProblems } from '../../web/src/experiments/model.js';
import * as scaling from '../../web/src/chapters/acceleration/thread-scaling-data.js';
import * as fma from '../../web/src/chapters/acceleration/fma-data.js';
import { threadScalingExperiment } from '../../web/src/chapters/acceleration/thread-scaling-experiment.js';
import { fmaExperiment } from '../../web/src/chapters/acceleration/fma-experiment.js';
import { PLANS, planCtx } from './experiment-plans-fixture.mjs';

const FOUR = { flavours: ['fma', 'simd'], max_threads: 4, shared_memory: true, why: 'the page is cross-origin isolated and has relaxed SIMD.' };
const SINGLE = { flavours: ['simd'], max_threads: 1, shared_memory: false, why: 'the page is not cross-origin isolated, so one thread.' };
const ctxOf = (id, quick, facts) => ({ ...planCtx(id, quick), prepared: facts });
const values = (over = {}) => ({ kernel: 'matmul', flavour: 'fastest', threads: 'every', 'thread-list': [1, 2], ...over });

test('thread scaling: every count from 1 to the engine’s maximum, the fastest flavour, core’s N and options', () => {
  const points = scaling.scalingPoints(values(), ctxOf('acceleration-thread-scaling', false, FOUR));
  const plan = PLANS['acceleration-thread-scaling'].full;
  assert.deepEqual(points.map((p) => p.threads), [1, 2, 3, 4]);
  assert.ok(points.every((p) => p.flavour === 'fma' && p.kernel === 'matmul' && p.n === plan.matmul_n));
  assert.deepEqual(points[0].options, plan.options);
  assert.notEqual(points[0].options, points[1].options, 'each point owns its options');
  const gelu = scaling.scalingPoints(values({ kernel: 'gelu', flavour: 'simd' }), ctxOf('acceleration-thread-scaling', true, FOUR));
  assert.ok(gelu.every((p) => p.elements === PLANS['acceleration-thread-scaling'].quick.gelu_elements && p.flavour === 'simd' && p.n === undefined));
});

test('thread scaling: a listed set gains 1 and loses the counts the engine cannot run, which the text names', () => {
  const v = values({ threads: 'list', 'thread-list': [8, 2, 4, 2] });
  assert.deepEqual(scaling.threadCounts(v, FOUR), { counts: [1, 2, 4], dropped: [8] });
  assert.deepEqual(scaling.scalingPoints(v, ctxOf('acceleration-thread-scaling', false, FOUR)).map((p) => p.threads), [1, 2, 4]);
  const sentences = scaling.scalingSentences({ kernel: 'matmul', flavour: 'fma', facts: FOUR, dropped: [8], scaling: null });
  assert.match(sentences.find((s) => s.role === 'dropped').text, /^Not measured: 8 threads, more than the 4 threads this page can run\.$/);
});

test('thread scaling: one thread when memory cannot be shared, and the reason said; an unavailable flavour refused', () => {
  assert.deepEqual(scaling.scalingPoints(values(), ctxOf('acceleration-thread-scaling', false, SINGLE)).map((p) => [p.threads, p.flavour]), [[1, 'simd']]);
  const sentences = scaling.scalingSentences({ kernel: 'gelu', flavour: 'simd', facts: SINGLE, scaling: null });
  assert.deepEqual(sentences.map((s) => s.role), ['engine', 'one-thread']);
  assert.ok(sentences.every((s) => s.text.includes(SINGLE.why)));
  assert.throws(() => scaling.scalingPoints(values({ flavour: 'fma' }), ctxOf('acceleration-thread-scaling', false, SINGLE)), {
    message: `this browser’s kernel engine cannot run the fma flavour (${SINGLE.why}); it runs simd`,
  });
  assert.throws(() => scaling.scalingPoints(values(), { ...planCtx('acceleration-thread-scaling', false), prepared: { flavours: ['simd'] } }), /no thread count/);
});

// Rows as the sweep returns them and core's analysis of them.
const stats = (median_ms) => ({ samples: 10, median_ms, min_ms: median_ms * 0.98, cv: 0.01, warning: '' });
const measured = [
  { kernel: 'matmul', flavour: 'fma', threads: 1, n: 512, flops: 268435456, bytes: 3145728, gflops_per_s: 26.84, gb_per_s: 0.31, max_error: 1e-7, stats: stats(10), build: 'simd' },
  { kernel: 'matmul', flavour: 'fma', threads: 2, n: 512, flops: 268435456, bytes: 3145728, gflops_per_s: 51.62, gb_per_s: 0.6, max_error: 1e-7, stats: stats(5.2), build: 'simd' },
];
const analysis = {
  rows: [
    { threads: 1, median_ms: 10, speedup: 1, efficiency: 1, karp_flatt: null, fitted_speedup: 1 },
    { threads: 2, median_ms: 5.2, speedup: 1.923, efficiency: 0.9615, karp_flatt: 0.04, fitted_speedup: 1.923 },
  ],
  fit: { serial_fraction: 0.04, max_speedup: 25, rms_error: 0 },
};

test('thread scaling: core’s figures merged by thread count, drawn as measured, ideal and fitted series', () => {
  assert.deepEqual(scaling.scalingInput(measured), [{ threads: 1, median_ms: 10 }, { threads: 2, median_ms: 5.2 }]);
  const rows = scaling.withScaling(measured, analysis);
  assert.equal(rows[1].speedup, 1.923);
  assert.equal(rows[1].karp_flatt, 0.04);
  assert.deepEqual(scaling.speedupSeries(measured), [], 'nothing drawn before core’s analysis');
  const series = scaling.speedupSeries(rows);
  const of = (name) => series.filter((r) => r.series === name).map((r) => [r.threads, r.speedup]);
  assert.deepEqual(of(scaling.SERIES.measured), [[1, 1], [2, 1.923]]);
  assert.deepEqual(of(scaling.SERIES.ideal), [[1, 1], [2, 2]]);
  assert.deepEqual(of(scaling.SERIES.fit), [[1, 1], [2, 1.923]]);
  assert.deepEqual(
    scaling.TABLE_COLUMNS.map((c) => cellText(c, rows[1])),
    ['2', 'fma', '5.20', '1.92×', '96.2%', '4.0%', '51.6', '0.600', '1.0%', ''],
  );
  assert.equal(cellText(scaling.TABLE_COLUMNS[5], rows[0]), '—', 'no Karp-Flatt fraction at 1 thread');
  const csv = toCsv(rows, scaling.CSV_COLUMNS).split('\r\n');
  assert.equal(csv[0], scaling.CSV_COLUMNS.join(','));
  assert.match(csv[2], /^simd,matmul,fma,2,512,268435456,3145728,5\.2,1\.923,0\.9615,0\.04,51\.62,/);
});

test('thread scaling: the sentences quote the table’s speedup and efficiency and core’s fit', () => {
  const rows = scaling.withScaling(measured, analysis);
  const sentences = scaling.scalingSentences({ kernel: 'matmul', flavour: 'fma', facts: FOUR, scaling: analysis });
  const text = (role) => sentences.find((s) => s.role === role).text;
  const speedup = cellText(scaling.TABLE_COLUMNS[3], rows[1]);
  const efficiency = cellText(scaling.TABLE_COLUMNS[4], rows[1]);
  assert.equal(text('speedup'), `On 2 threads the packed matmul ran ${speedup} as fast as on 1 thread (efficiency ${efficiency}; ideal: 2×, efficiency 100%).`);
  assert.match(text('fit'), /serial fraction s = 4\.0%, so a speedup of at most 25\.0× however many threads; the fit misses the measured speedups by 0× /);
  const unbounded = scaling.scalingSentences({ kernel: 'gelu', flavour: 'simd', facts: FOUR, scaling: { ...analysis, fit: { serial_fraction: 0, max_speedup: null, rms_error: 0.01 } } });
  assert.match(unbounded.find((s) => s.role === 'fit').text, /s = 0\.0%, so no bound on the speedup/);
});

test('FMA: the main module’s packed at each planned N first, then every engine flavour on one thread', () => {
  const plan = PLANS['acceleration-fma'].quick;
  const main = fma.mainPoints(planCtx('acceleration-fma', true).info);
  assert.deepEqual(main.map((p) => [p.variant, p.n]), plan.sizes.map((n) => ['packed', n]));
  const engine = fma.enginePoints({}, { ...planCtx('acceleration-fma', true), prepared: { facts: FOUR } });
  assert.deepEqual(engine.map((p) => [p.n, p.flavour, p.threads]), plan.sizes.flatMap((n) => [[n, 'fma', 1], [n, 'simd', 1]]));
  const noFma = fma.enginePoints({}, { ...planCtx('acceleration-fma', false), prepared: { facts: SINGLE } });
  assert.deepEqual([...new Set(noFma.map((p) => p.flavour))], ['simd']);
});

test('FMA: rows set against the main module at the same N; the sentences quote them and say why fma did not run', () => {
  const row = (source, n, gflops_per_s) => ({ source, n, gflops_per_s, flops: 2 * n ** 3, stats: stats(2 * n ** 3 / gflops_per_s / 1e6), build: 'simd' });
  const rows = fma.combineRows([row('main', 64, 10), row('main', 128, 20)], [row('fma', 64, 13), row('simd', 64, 10), row('fma', 128, 30), row('simd', 128, 19.6)]);
  assert.deepEqual(rows.map((r) => [r.n, r.source]), [[64, 'main'], [64, 'fma'], [64, 'simd'], [128, 'main'], [128, 'fma'], [128, 'simd']]);
  assert.equal(cellText(fma.TABLE_COLUMNS[2], rows[4]), '1.50×');
  assert.equal(rows[4].source_name, 'fma (engine, 1 thread)');
  const sentences = fma.fmaSentences(rows, FOUR);
  assert.equal(sentences.find((s) => s.role === 'rates').text, 'At N = 128: packed (main module) 20.0 GFLOP/s, fma (engine, 1 thread) 30.0 GFLOP/s and simd (engine, 1 thread) 19.6 GFLOP/s.');
  assert.match(sentences.find((s) => s.role === 'ratio').text, /^fma ÷ simd = 1\.53× at N = 128: the same loop with one fused instruction/);
  // A ratio that prints as 1.00× is no gain.
  const even = fma.combineRows([row('main', 64, 10)], [row('fma', 64, 10.0004), row('simd', 64, 10)]);
  assert.match(fma.fmaSentences(even, FOUR).find((s) => s.role === 'ratio').text, /= 1\.00× .*bought no speed/);
  const single = fma.fmaSentences(fma.combineRows([row('main', 64, 10)], [row('simd', 64, 9)]), SINGLE);
  assert.deepEqual(single.map((s) => s.role), ['no-fma', 'rates']);
  assert.equal(single[0].text, `The fma flavour did not run: ${SINGLE.why}`);
  assert.match(toCsv(rows, fma.CSV_COLUMNS).split('\r\n')[2], /^simd,fma,,,64,524288,1\.3,/);
});

test('both specs pass the framework’s checks; the thread list is read only when chosen', () => {
  assert.deepEqual(specProblems(threadScalingExperiment), []);
  assert.deepEqual(specProblems(fmaExperiment), []);
  const raws = Object.fromEntries(threadScalingExperiment.controls.map((c) => [c.id, rawOf(c, c.default)]));
  const { values: v, problems } = readControls(threadScalingExperiment.controls, raws);
  assert.deepEqual(problems, {});
  assert.deepEqual([v.kernel, v.flavour, v.threads], ['matmul', 'fastest', 'every']);
  const list = threadScalingExperiment.controls.find((c) => c.id === 'thread-list');
  assert.match(list.ignoredWhen({ threads: 'every' }), /used when/);
  assert.equal(list.ignoredWhen({ threads: 'list' }), null);
});

