// The pure half of the complexity experiment (benchmarking-complexity): the points of core's
// plan of the sweep (naive and packed matmul, fused SIMD GELU, each over its sizes), the table and CSV
// columns, the grouping of rows per kernel for core's fit, and the fitted curves for the chart.
// No DOM. No statistic: core takes each row's median (summarizeSample) and fits the classes
// (fitComplexity); `curveRows` only evaluates core's c·g(n) at sizes for drawing.

import { planOf } from '../../experiments/plans.js';
import { KERNEL_ROW_COLUMNS, kernelName, kernelRowCsvColumns } from './samples-common.js';

export const ID = 'benchmarking-complexity';

/**
 * Core's plan of the sweep (experimentPlan, init's `info.plan`): `{kernels: [{op, variant,
 * sizes}], options}`, each kernel's sizes (N for a matmul, N×N @ N×N; elements for GELU) and
 * the Timer options of every point. Quick mode: three sizes per kernel, still spanning a factor
 * of 10 or more, and a few samples each.
 */
export const sweepOf = (info) => planOf(info, 'the kernels and their sizes', ['kernels', 'options']);

/** Every kernel at each of its sizes, smallest first: `{op, variant, n, options}`. */
export function complexityPoints(values, { info }) {
  const { kernels, options } = sweepOf(info);
  return kernels.flatMap(({ op, variant, sizes }) => sizes.map((n) => ({ op, variant, n, options: { ...options } })));
}

/**
 * The rows grouped per kernel, in the order the kernels first appear, sizes in row order:
 * `[{op, variant, name, rows}]`, what core fits one by one.
 */
export function kernelGroups(rows) {
  const groups = new Map();
  for (const row of rows) {
    const key = `${row.op}/${row.variant}`;
    if (!groups.has(key)) groups.set(key, { op: row.op, variant: row.variant, name: kernelName(row), rows: [] });
    groups.get(key).rows.push(row);
  }
  return [...groups.values()];
}

// g(n) of each class core names (complexity.hpp's complexity_curve, log base 2), for drawing only.
const CURVES = Object.freeze({
  'O(1)': () => 1,
  'O(log n)': (n) => Math.log2(n),
  'O(n)': (n) => n,
  'O(n log n)': (n) => n * Math.log2(n),
  'O(n^2)': (n) => n * n,
  'O(n^3)': (n) => n * n * n,
});

/** Sizes to draw a curve at: the measured ones and `steps - 1` geometric steps between each pair. */
export function curveSizes(sizes, steps = 4) {
  const sorted = [...new Set(sizes)].sort((a, b) => a - b);
  const out = [];
  sorted.forEach((n, i) => {
    if (i > 0) {
      const prev = sorted[i - 1];
      for (let s = 1; s < steps; s += 1) out.push(prev * (n / prev) ** (s / steps));
    }
    out.push(n);
  });
  return out;
}

/**
 * The chart's data from core's analysis: each kernel's medians as points and its best fit
 * (core's first) drawn as c·g(n) over its sizes. A class this does not know is not drawn. The
 * curve is labelled with its class when core named it, else "<class> (RMS only)": the legend
 * never names a class the slope did not confirm.
 */
export function fitChartData(analysis) {
  const kernels = analysis?.kernels ?? [];
  const points = kernels.flatMap((k) => k.sizes.map((n, i) => ({ n, value: k.medians[i], series: k.name })));
  const curves = kernels.flatMap((k) => {
    const best = k.fits[0];
    const g = best && CURVES[best.complexity];
    if (!g) return [];
    const fit = k.named_class === best.complexity ? best.complexity : `${best.complexity} (RMS only)`;
    return curveSizes(k.sizes).map((n) => ({ n, value: best.coefficient * g(n), fit, series: k.name }));
  });
  return { points, curves };
}

export const TABLE_COLUMNS = KERNEL_ROW_COLUMNS;

export const CSV_COLUMNS = kernelRowCsvColumns();
