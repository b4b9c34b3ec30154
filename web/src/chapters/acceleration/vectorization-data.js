// The pure half of the vectorization-scaling experiment (acceleration-vectorization): every
// matmul variant core lists at the sizes of core's plan (the slow scalar loops stop earlier
// unless the student opts in to the slow sizes), the table and CSV columns, and the
// display-only share of this machine's measured peak.
// No DOM and no measuring (core measures; experiments/ runs and prints).

import { planOf } from '../../experiments/plans.js';
import { formatSig } from '../../ui/format.js';
import { STATS_CSV_COLUMNS } from '../../experiments/csv.js';
import { MEDIAN_COLUMN, RATE_COLUMN, SPREAD_COLUMNS } from './timed-columns.js';

/** The opt-in control: lift the caps so naive and reordered also reach N = 2048. */
export const SLOW_SIZES_CONTROL = Object.freeze({
  id: 'slow-sizes',
  type: 'checkbox',
  label: 'include slow sizes for naive/reordered: up to N = 2048, may take minutes',
  default: false,
  hint: 'naive at N = 2048 is 17 GFLOP at well under 1 GFLOP/s: tens of seconds per call. Cancel works between points.',
});

/**
 * Every variant (`info.variants`, core's list) at every size core's plan (`info.plan`: sizes,
 * each scalar loop's largest N, Timer options) holds for it, sizes outermost so the chart
 * fills left to right; each point `{variant, n, options}`. `values['slow-sizes']` lifts the
 * caps of the full sweep (quick mode stays small either way).
 */
export function vectorizationPoints(values, { info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no matmul variants, so there is nothing to measure');
  }
  const plan = planOf(info, 'matrix sizes', ['sizes', 'maxN', 'options']);
  const { sizes, options } = plan;
  const maxN = values?.['slow-sizes'] ? {} : plan.maxN;
  return sizes.flatMap((n) =>
    variants.filter((v) => n <= (maxN[v] ?? Infinity)).map((variant) => ({ variant, n, options: { ...options } })),
  );
}

/**
 * Display only: the row's throughput as a share of the machine's SIMD peak measured by the
 * probe (`info.peak_gflops_per_s`); absent when the probe did not run.
 */
export function withPeakShare(row, peak_gflops_per_s) {
  if (!(peak_gflops_per_s > 0)) return row;
  return { ...row, peak_gflops_per_s, fraction_of_peak: row.gflops_per_s / peak_gflops_per_s };
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'n', label: 'N', format: 'text', align: 'right' },
  { key: 'variant', label: 'variant', format: 'text' },
  MEDIAN_COLUMN,
  RATE_COLUMN,
  { key: 'gb_per_s', label: 'GB/s', format: 'sig' },
  { key: 'fraction_of_peak', label: 'of peak', format: 'percent' },
  {
    label: '95% CI of median',
    unit: 'ms',
    format: (row) => `${formatSig(row.stats.ci95_low_ms)} – ${formatSig(row.stats.ci95_high_ms)}`,
  },
  ...SPREAD_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'n',
  'flops',
  'bytes',
  'intensity',
  'gflops_per_s',
  'gb_per_s',
  'peak_gflops_per_s',
  'fraction_of_peak',
  ...STATS_CSV_COLUMNS,
  'outliers',
  'inner_iterations',
  'resolution_ms',
  'warning',
]);
