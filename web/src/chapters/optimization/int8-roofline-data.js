// The pure half of the int8 experiment (optimization-int8): the points (each int8 variant of
// core's plan at each of fashion_mlp's layer shapes), the table and CSV columns, the roofline
// chart's points from core's placements, and the sentences under Run read from the rows and
// placements. No DOM and no arithmetic of the roofline: core measures both kernels
// (measureInt8Linear) and places them (int8Roofline).

import { rooflineReferences } from '../../charts/shape.js';
import { planOf } from '../../experiments/plans.js';
import { formatBytes, formatPercent, formatSig } from '../../ui/format.js';
import { X_DOMAIN } from '../acceleration/roofline-data.js';
import { timerWarningsColumn } from '../../ui/columns.js';

export const INT8_ID = 'optimization-int8';

export const layerName = (r) => `${r.in}→${r.out}`;

/**
 * One point per variant and shape of core's plan: {variant, batch, in, out, options}.
 * @param {{plan: {shapes: Array<{in, out, batch}>, variants: string[], options: object}}} info
 */
export function int8Points(info) {
  const plan = planOf(info, 'the int8 experiment', ['shapes', 'variants', 'options']);
  return plan.shapes.flatMap((s) => plan.variants.map((variant) => ({ variant, batch: s.batch, in: s.in, out: s.out, options: plan.options })));
}

/** The roofs of the page's probe (the float and the integer peak, the bandwidth), or an Error when it has none. */
export function probeRoofs(info) {
  const peak = info?.peak_gflops_per_s;
  const bandwidth = info?.bandwidth_gb_per_s;
  if (!(peak > 0) || !(bandwidth > 0)) throw new Error('the machine probe gave no peak and bandwidth, so there is no roofline to place the kernels on');
  const int8 = info?.int8_peak_gops_per_s;
  if (!(int8 > 0)) throw new Error('this machine probe has no integer peak (it ran before the lab measured one): press Re-probe, then run again');
  return { peak_gflops_per_s: peak, int8_peak_gops_per_s: int8, bandwidth_gb_per_s: bandwidth };
}

/** The int8 kernels' own flat roof on the chart: the probe's integer peak (none before a probe has one). */
export function int8RoofLine(info) {
  if (!(info?.int8_peak_gops_per_s > 0) || !(info?.bandwidth_gb_per_s > 0)) return [];
  return rooflineReferences({
    peak_gflops_per_s: info.int8_peak_gops_per_s,
    bandwidth_gb_per_s: info.bandwidth_gb_per_s,
    xDomain: [...X_DOMAIN],
    peakLabel: `integer peak ${formatSig(info.int8_peak_gops_per_s)} Gop/s`,
  }).filter((line) => line.kind === 'peak');
}

/** Display: the layer's name and the weight bytes saved. */
export const withLayer = (row) => ({ ...row, layer: layerName(row), weight_ratio: row.float32_bytes / row.int8_bytes });

export const TABLE_COLUMNS = Object.freeze([
  { key: 'layer', label: 'Linear', format: 'text' },
  { key: 'batch', label: 'batch', format: 'int' },
  { key: 'variant', label: 'int8 variant', format: 'text' },
  { key: 'int8.median_ms', label: 'int8 (median)', unit: 'ms', format: 'sig' },
  { key: 'float32.median_ms', label: 'float32 packed (median)', unit: 'ms', format: 'sig' },
  { label: 'float32 ÷ int8', format: (r) => `${formatSig(r.speedup)}×` },
  { key: 'int8_bytes', label: 'int8 weights', format: 'bytes' },
  { key: 'float32_bytes', label: 'float32 weights', format: 'bytes' },
  { key: 'max_error_to_bound', label: 'error ÷ bound', format: 'sig' },
  timerWarningsColumn([
    ['int8', 'int8'],
    ['float32', 'float32'],
  ]),
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'batch',
  'in',
  'out',
  { name: 'int8_median_ms', value: (r) => r.int8?.median_ms },
  { name: 'float32_median_ms', value: (r) => r.float32?.median_ms },
  'speedup',
  'flops',
  'int8_bytes',
  'float32_bytes',
  'max_abs_error',
  'max_error_to_bound',
]);

/** The series of both charts, in one order so that each keeps its colour: the int8 variants, then float32. */
export const seriesOf = (variants) => [...variants.map((v) => `int8 ${v}`), 'float32 packed'];

/** The speedup chart's rows: one bar per layer and variant. */
export const speedupBars = (rows) => rows.map((r) => ({ layer: layerName(r), variant: `int8 ${r.variant}`, speedup: r.speedup }));

/**
 * The roofline chart's points from the analysis (core's placements, one per row): every int8
 * variant at every layer, and the float32 kernel once per layer (from the layer's last row).
 */
export function rooflineChartPoints(placed) {
  if (!Array.isArray(placed)) return [];
  const out = [];
  const floats = new Map();
  for (const p of placed) {
    out.push({ intensity: p.int8.intensity, gflops_per_s: p.int8.measured_gflops_per_s, kernel: `int8 ${p.variant}`, label: `int8 ${p.variant} ${p.layer}` });
    floats.set(p.layer, { intensity: p.float32.intensity, gflops_per_s: p.float32.measured_gflops_per_s, kernel: 'float32 packed', label: `float32 ${p.layer}` });
  }
  return [...out, ...floats.values()];
}

/**
 * What the run says, per layer: the fastest int8 variant against the float kernel, with the
 * bytes and intensities core counted and the rates it placed; then the two roofs, what their
 * ratio bounds, and how near each kernel came to its own.
 */
export function int8Sentences(placed) {
  if (!Array.isArray(placed) || placed.length === 0) return [];
  const byLayer = new Map();
  for (const p of placed) {
    const best = byLayer.get(p.layer);
    if (!best || p.speedup > best.speedup) byLayer.set(p.layer, p);
  }
  const lines = [...byLayer.values()].map(
    (p) =>
      `Linear ${p.layer} at batch ${p.batch}: int8 ${p.variant} ran ${formatSig(p.int8.measured_gflops_per_s)} G integer ops/s against ` +
      `float32’s ${formatSig(p.float32.measured_gflops_per_s)} GFLOP/s (float32 ÷ int8 time ${formatSig(p.speedup)}×); it moves ` +
      `${formatBytes(p.traffic.int8_bytes)} against ${formatBytes(p.traffic.float32_bytes)}, so its intensity is ` +
      `${formatSig(p.int8.intensity)} ops/byte against ${formatSig(p.float32.intensity)} FLOP/byte.`,
  );
  const int8Peak = placed[0].int8.peak_gflops_per_s;
  const floatPeak = placed[0].float32.peak_gflops_per_s;
  // The same work on both sides, so speedup = (int8 rate ÷ float rate) = peak ratio × (int8's
  // fraction of its roof ÷ float32's): said for the point with the largest speedup.
  const top = placed.reduce((a, b) => (b.speedup > a.speedup ? b : a));
  lines.push(
    `Each kernel has its own flat roof: int8’s is the probe’s integer peak, the same multiply-add in registers only ` +
      `(${formatSig(int8Peak)} G integer ops/s), ${formatSig(int8Peak / floatPeak)}× the float32 peak (${formatSig(floatPeak)} GFLOP/s): ` +
      'the speedup int8 would show if both kernels ran at their roofs. ' +
      `At ${top.layer}, int8 ${top.variant} reached ${formatPercent(top.int8.measured_gflops_per_s / int8Peak)} of its roof and float32 ` +
      `${formatPercent(top.float32.measured_gflops_per_s / floatPeak)} of its own, so its speedup (${formatSig(top.speedup)}×) is that ratio ` +
      'times int8’s fraction of its roof over float32’s.',
  );
  const above = placed.filter((p) => p.int8.measured_gflops_per_s > p.int8.peak_gflops_per_s);
  if (above.length > 0) {
    lines.push(
      `${above.length === placed.length ? 'Every int8 point' : `${above.length} of the ${placed.length} int8 points`} ran above the integer roof: ` +
        'the probe’s integer peak is below what this machine reached in this run; Re-probe, then run again.',
    );
  }
  // A float32 point above the float32 roof: the probe's peak is below what this run reached.
  const floats = [...new Map(placed.map((p) => [p.layer, p])).values()].filter((p) => p.float32.measured_gflops_per_s > p.float32.peak_gflops_per_s);
  if (floats.length > 0) {
    lines.push(
      `The float32 kernel itself ran above its roof at ${floats.map((p) => `${p.layer} (${formatSig(p.float32.measured_gflops_per_s)} GFLOP/s)`).join(', ')}: ` +
        'the probe’s float32 peak is below what this machine reached in this run, so a point’s height against the roof says less than it seems; Re-probe, then run again.',
    );
  }
  return lines;
}
