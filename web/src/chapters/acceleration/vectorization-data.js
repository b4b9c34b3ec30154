// The pure half of the vectorization-scaling experiment (acceleration-vectorization): every
// matmul variant core lists at N from 64 to 2048 (the slow scalar loops stop earlier unless
// the student opts in to the slow sizes), the table and CSV columns, and the display-only
// share of this machine's measured peak.
// No DOM and no measuring (core measures; experiments/ runs and prints).

import { formatSig } from '../../ui/format.js';
import { STATS_CSV_COLUMNS } from '../../experiments/csv.js';
import { MEDIAN_COLUMN, RATE_COLUMN, SPREAD_COLUMNS } from './timed-columns.js';

/**
 * The full sweep. A point lasts at least three calls (a warmup and the Timer's two
 * samples), so the scalar loops stop where one call takes seconds on a laptop: naive at
 * N = 512 (0.27 GFLOP), reordered at 1024 (2.1 GFLOP); the others go to 2048 (17 GFLOP).
 */
export const FULL_SWEEP = Object.freeze({
  sizes: Object.freeze([64, 128, 256, 512, 1024, 2048]),
  maxN: Object.freeze({ naive: 512, reordered: 1024 }),
  options: Object.freeze({ warmup: 1, samples: 10, min_sample_ms: 10, max_total_ms: 1500 }),
});

/** `?quick=1`: two sizes and small budgets, a few seconds in all; noisier numbers. */
export const QUICK_SWEEP = Object.freeze({
  sizes: Object.freeze([64, 128]),
  maxN: Object.freeze({}),
  options: Object.freeze({ warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 150 }),
});

export function sweepOf(quick) {
  return quick ? QUICK_SWEEP : FULL_SWEEP;
}

/** The opt-in control: lift the caps so naive and reordered also reach N = 2048. */
export const SLOW_SIZES_CONTROL = Object.freeze({
  id: 'slow-sizes',
  type: 'checkbox',
  label: 'include slow sizes for naive/reordered: up to N = 2048, may take minutes',
  default: false,
  hint: 'naive at N = 2048 is 17 GFLOP at well under 1 GFLOP/s: tens of seconds per call. Cancel works between points.',
});

/**
 * Every variant (`info.variants`, core's list) at every size it is planned for, sizes
 * outermost so the chart fills left to right; each point `{variant, n, options}`.
 * `values['slow-sizes']` lifts the caps of the full sweep (quick mode stays small either way).
 */
export function vectorizationPoints(values, { quick, info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no matmul variants, so there is nothing to measure');
  }
  const { sizes, options } = sweepOf(quick);
  const maxN = values?.['slow-sizes'] ? {} : sweepOf(quick).maxN;
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
