// Protects the pure half of the Optimization chapter's int8 experiment
// (web/src/chapters/optimization/int8-roofline-data.js) and its spec: one point per variant
// and layer of core's plan, the probe's roofs or a sentence when it has none, the table's
// cells, the roofline chart's points from core's placements (the float kernel once per layer),
// and the sentences under Run read from the placements they describe. Rows and placements are
// hand-written in measureInt8Linear's and int8Roofline's shapes; no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { TABLE_COLUMNS, int8Points, int8RoofLine, int8Sentences, probeRoofs, rooflineChartPoints, seriesOf, speedupBars, withLayer } from '../../web/src/chapters/optimization/int8-roofline-data.js';
import { int8RooflineExperiment } from '../../web/src/chapters/optimization/int8-roofline-experiment.js';

const PLAN = {
  shapes: [
    { in: 784, out: 256, batch: 256 },
    { in: 128, out: 10, batch: 256 },
  ],
  variants: ['naive', 'simd'],
  options: { warmup: 1, samples: 3, min_sample_ms: 1, max_total_ms: 400 },
};
const row = (variant, k, n, int8, float32) => ({
  variant,
  batch: 256,
  in: k,
  out: n,
  int8: { median_ms: int8 },
  float32: { median_ms: float32 },
  speedup: float32 / int8,
  int8_bytes: k * n + 8 * n,
  float32_bytes: 4 * k * n,
  max_error_to_bound: 0.25,
});
const placed = (variant, layer, int8Rate, floatRate, speedup) => ({
  variant,
  layer,
  batch: 256,
  speedup,
  traffic: { int8_bytes: 1024 * 1024, float32_bytes: 2 * 1024 * 1024 },
  int8: { intensity: 100, measured_gflops_per_s: int8Rate, peak_gflops_per_s: 40 },
  float32: { intensity: 50, measured_gflops_per_s: floatRate, peak_gflops_per_s: 20 },
});

test('int8: one point per variant and layer of core’s plan, with its options', () => {
  const points = int8Points({ plan: PLAN });
  assert.deepEqual(points.map((p) => `${p.variant} ${p.in}→${p.out}`), ['naive 784→256', 'simd 784→256', 'naive 128→10', 'simd 128→10']);
  assert.deepEqual(points[1], { variant: 'simd', batch: 256, in: 784, out: 256, options: PLAN.options });
  assert.throws(() => int8Points({ plan: { ...PLAN, variants: [] } }), /no plan of the int8 experiment \(no variants\)/);
});

test('int8: the probe’s roofs, or a sentence when it has none', () => {
  assert.deepEqual(probeRoofs({ peak_gflops_per_s: 20, int8_peak_gops_per_s: 40, bandwidth_gb_per_s: 8, plan: PLAN }), { peak_gflops_per_s: 20, int8_peak_gops_per_s: 40, bandwidth_gb_per_s: 8 });
  assert.throws(() => probeRoofs({ plan: PLAN }), /machine probe gave no peak and bandwidth/);
  // A probe stored before the lab measured the integer peak.
  assert.throws(() => probeRoofs({ peak_gflops_per_s: 20, bandwidth_gb_per_s: 8 }), /no integer peak \(it ran before the lab measured one\): press Re-probe/);
});

test('int8: the integer peak is a flat roof of its own on the chart', () => {
  const [line] = int8RoofLine({ peak_gflops_per_s: 20, int8_peak_gops_per_s: 40, bandwidth_gb_per_s: 8 });
  assert.deepEqual([line.kind, line.x1, line.y1, line.y2, line.label], ['peak', 5, 40, 40, 'integer peak 40.0 Gop/s']);
  assert.equal(int8RoofLine({ peak_gflops_per_s: 20, int8_peak_gops_per_s: 40, bandwidth_gb_per_s: 8 }).length, 1);
  assert.deepEqual(int8RoofLine({ peak_gflops_per_s: 20, bandwidth_gb_per_s: 8 }), []);
});

test('int8: the table prints each row’s figures', () => {
  const cells = Object.fromEntries(TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, withLayer(row('simd', 784, 256, 2, 4)))]));
  assert.equal(cells.Linear, '784→256');
  assert.equal(cells['int8 variant'], 'simd');
  assert.equal(cells['int8 (median) (ms)'], '2.00');
  assert.equal(cells['float32 packed (median) (ms)'], '4.00');
  assert.equal(cells['float32 ÷ int8'], '2.00×');
  assert.equal(cells['int8 weights'], '198 KiB');
  assert.equal(cells['float32 weights'], '784 KiB');
  assert.equal(cells['error ÷ bound'], '0.250');
  assert.equal(cells.warning, '');
  const warned = { ...withLayer(row('simd', 784, 256, 2, 4)), int8: { median_ms: 2, warning: 'a' }, float32: { median_ms: 4, warning: 'b' } };
  assert.equal(cellText(TABLE_COLUMNS.at(-1), warned), 'int8: a; float32: b');
});

test('int8: bars per layer and variant; the roofline has every int8 point and one float point per layer', () => {
  assert.deepEqual(speedupBars([row('naive', 784, 256, 8, 4)]), [{ layer: '784→256', variant: 'int8 naive', speedup: 0.5 }]);
  const points = rooflineChartPoints([placed('naive', '784→256', 5, 10, 0.5), placed('simd', '784→256', 30, 10, 3), placed('simd', '128→10', 4, 2, 2)]);
  assert.deepEqual(points.map((p) => p.label), ['int8 naive 784→256', 'int8 simd 784→256', 'int8 simd 128→10', 'float32 784→256', 'float32 128→10']);
  assert.deepEqual(points[1], { intensity: 100, gflops_per_s: 30, kernel: 'int8 simd', label: 'int8 simd 784→256' });
  assert.deepEqual(rooflineChartPoints(undefined), []);
  assert.deepEqual(seriesOf(['naive', 'simd']), ['int8 naive', 'int8 simd', 'float32 packed']);
});

test('int8: the sentences name the fastest variant per layer and what the two roofs mean', () => {
  const sentences = int8Sentences([placed('naive', '784→256', 5, 10, 0.5), placed('simd', '784→256', 30, 10, 3)]);
  assert.deepEqual(sentences, [
    'Linear 784→256 at batch 256: int8 simd ran 30.0 G integer ops/s against float32’s 10.0 GFLOP/s (float32 ÷ int8 time 3.00×); it moves 1.00 MiB against 2.00 MiB, so its intensity is 100 ops/byte against 50.0 FLOP/byte.',
    'Each kernel has its own flat roof: int8’s is the probe’s integer peak, the same multiply-add in registers only (40.0 G integer ops/s), 2.00× the float32 peak (20.0 GFLOP/s): the speedup int8 would show if both kernels ran at their roofs. At 784→256, int8 simd reached 75.0% of its roof and float32 50.0% of its own, so its speedup (3.00×) is that ratio times int8’s fraction of its roof over float32’s.',
  ]);
  // An int8 rate above the integer peak is said.
  const int8Above = int8Sentences([placed('simd', '784→256', 45, 10, 4)]);
  assert.equal(int8Above.length, 3);
  assert.equal(int8Above[2], 'Every int8 point ran above the integer roof: the probe’s integer peak is below what this machine reached in this run; Re-probe, then run again.');
  assert.match(int8Sentences([placed('naive', '784→256', 5, 10, 0.5), placed('simd', '784→256', 45, 10, 4)])[2], /^1 of the 2 int8 points ran above the integer roof/);
  assert.deepEqual(int8Sentences([]), []);
  // A float32 rate above the probe's float peak is said, with its layer and rate.
  const floatAbove = int8Sentences([placed('simd', '784→256', 30, 25, 1.2)]);
  assert.equal(floatAbove.length, 3);
  assert.match(floatAbove[2], /^The float32 kernel itself ran above its roof at 784→256 \(25\.0 GFLOP\/s\): the probe’s float32 peak is below/);
});

test('int8: the spec passes the framework’s checks', () => {
  assert.deepEqual(specProblems(int8RooflineExperiment), []);
  assert.equal(int8RooflineExperiment.measure.fn, 'measureInt8Linear');
  assert.match(int8RooflineExperiment.quickNote({ info: { plan: PLAN } }), /Linear 784→256 and 128→10 only/);
});
