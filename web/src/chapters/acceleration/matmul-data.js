// The pure half of the "matmul: loops vs SIMD" experiment: the sweep (sizes and timer
// budgets, normal or quick), the points it measures, and the table and CSV columns.
// No DOM and no measuring (core measures; the framework in experiments/ runs and prints).

import { formatSig } from '../../experiments/format.js';

/**
 * The normal sweep takes roughly 10-30 s on a slow laptop: small sizes are bounded by
 * samples × min_sample_ms, large ones by max_total_ms per point (the budget then stops
 * sampling early, and core's warning says so). 12 samples because core warns below 10
 * kept samples, and the Tukey fences may drop one or two.
 */
export const FULL_SWEEP = Object.freeze({
  sizes: [32, 48, 64, 96, 128, 192, 256, 384, 512],
  options: { warmup: 1, samples: 12, min_sample_ms: 10, max_total_ms: 1500 },
});

/**
 * `?quick=1` in the page URL: three sizes and small budgets, a few seconds in all. Meant
 * for a quick look and for the browser tests; the numbers are noisier.
 */
export const QUICK_SWEEP = Object.freeze({
  sizes: [32, 64, 128],
  options: { warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 150 },
});

/** A copy of the quick or the full sweep, so a caller cannot change the presets. */
export function sweepPlan(quick) {
  const plan = quick ? QUICK_SWEEP : FULL_SWEEP;
  return { quick: Boolean(quick), sizes: [...plan.sizes], options: { ...plan.options } };
}

/**
 * The experiment's plan: every variant core lists (`info.variants`, from the spec's init)
 * at every size, sizes outermost, each point `{variant, n, options}` for measureMatmul.
 */
export function matmulPoints(values, { quick, info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no matmul variants, so there is nothing to measure');
  }
  const { sizes, options } = sweepPlan(quick);
  return sizes.flatMap((n) => variants.map((variant) => ({ variant, n, options: { ...options } })));
}

/** The table: one line per measured point, times per call. */
export const TABLE_COLUMNS = Object.freeze([
  { key: 'n', label: 'N', format: 'text', align: 'right' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  {
    label: '95% CI of median',
    unit: 'ms',
    format: (row) => `${formatSig(row.stats.ci95_low_ms)} – ${formatSig(row.stats.ci95_high_ms)}`,
  },
  { key: 'stats.cv', label: 'CV', format: 'percent' },
  {
    label: 'samples',
    format: (row) => `${row.stats.samples}${row.stats.outliers ? ` (${row.stats.outliers} dropped)` : ''}`,
  },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

/** CSV columns: the row's fields, then its stats, with the C++ names and units. */
export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'n',
  'flops',
  'gflops_per_s',
  'median_ms',
  'mean_ms',
  'stddev_ms',
  'min_ms',
  'max_ms',
  'p95_ms',
  'ci95_low_ms',
  'ci95_high_ms',
  'cv',
  'samples',
  'outliers',
  'inner_iterations',
  'resolution_ms',
  'warning',
]);
