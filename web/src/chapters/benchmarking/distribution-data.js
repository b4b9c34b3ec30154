// The pure half of the distribution experiment (benchmarking-distribution): one sampleKernel
// point taking 1,000 samples of the chosen kernel (200 in quick mode), the table and CSV
// columns, and the shapes the chart and the analysis box read from core's summary.
// No DOM and no statistic (core's summarizeSample summarizes the sample).

import { formatCount, formatSig } from '../../ui/format.js';
import { KERNEL_ROW_COLUMNS, SAMPLES_CSV_COLUMN, parseKernel } from './samples-common.js';

/** The timer's settings: every sample lasts the timer's minimum (100 clock ticks), no dropping. */
export const FULL_SAMPLING = Object.freeze({ warmup: 20, samples: 1000, min_sample_ms: 0, max_total_ms: 30000 });
export const QUICK_SAMPLING = Object.freeze({ warmup: 5, samples: 200, min_sample_ms: 0, max_total_ms: 3000 });

export const DEFAULT_KERNEL = 'matmul:packed';
export const DEFAULT_N = 128;

/** One point: `{op, variant, n, options}`. */
export function distributionPoints(values, { quick }) {
  const { op, variant } = parseKernel(values?.kernel ?? DEFAULT_KERNEL);
  const n = values?.n ?? DEFAULT_N;
  return [{ op, variant, n, options: { ...(quick ? QUICK_SAMPLING : FULL_SAMPLING) } }];
}

/** What DistributionChart draws: the raw samples and core's summary of them (null until analysed). */
export function chartData(rows, analysis) {
  return { values: rows[0]?.samples_ms ?? [], summary: analysis?.summary ?? null };
}

/**
 * The zoomed histogram: the body of the sample, without the slow tail that squeezes it into one
 * bar of the full histogram. It keeps the samples up to core's 99th percentile or up to Tukey's
 * upper fence, whichever is lower: when more than 1% of the samples are slow outliers (18% on
 * a busy machine), the 99th percentile lies among them and would zoom in on nothing. `note`
 * says where it cut and how many samples it left out.
 */
export function zoomData(rows, analysis) {
  const summary = analysis?.summary ?? null;
  const values = rows[0]?.samples_ms ?? [];
  if (!summary) return { values: [], summary };
  const byFence = summary.upper_fence < summary.p99;
  const cut = byFence ? summary.upper_fence : summary.p99;
  const kept = values.filter((v) => v <= cut);
  const left = values.length - kept.length;
  const where = byFence
    ? `Tukey’s upper fence, which lies below the 99th percentile (${formatSig(summary.p99)} ms) because more than 1% of the samples are slow outliers`
    : 'the 99th percentile';
  const meanOff = summary.mean > cut ? ` The mean (${formatSig(summary.mean)} ms) lies beyond the cut, pulled there by them.` : '';
  const note = `Up to ${formatSig(cut)} ms, ${where}: the slowest ${formatCount(left, 'sample')} left out.${meanOff}`;
  return { values: kept, summary, note };
}

const interval = ({ low, high }) => ({ low, high });

/** The summary's first rows (count, location, spread, range) and the rest (tails, fences, intervals). */
export const SUMMARY_SPLIT = 7;

/**
 * Core's summary as table rows `{statistic, value}` or `{statistic, low, high}` (every number
 * core's; this only picks and names them).
 */
export function summaryRows(s) {
  return [
    { statistic: 'samples n', count: s.n },
    { statistic: 'mean', value: s.mean },
    { statistic: 'median', value: s.median },
    { statistic: 'standard deviation', value: s.std },
    { statistic: 'MAD (median absolute deviation)', value: s.mad },
    { statistic: 'minimum', value: s.min },
    { statistic: 'maximum', value: s.max },
    { statistic: 'p5', value: s.p5 },
    { statistic: 'p25 (Q1)', value: s.p25 },
    { statistic: 'p75 (Q3)', value: s.p75 },
    { statistic: 'p95', value: s.p95 },
    { statistic: 'p99', value: s.p99 },
    { statistic: 'Tukey fences', ...interval({ low: s.lower_fence, high: s.upper_fence }) },
    { statistic: 'outliers beyond the fences', count: s.outliers.length },
    { statistic: '95% z interval of the mean', ...interval(s.z_interval) },
    { statistic: '95% t interval of the mean', ...interval(s.t_interval) },
    {
      statistic: `95% bootstrap interval of the median (${s.bootstrap_resamples} resamples, seed ${s.bootstrap_seed})`,
      ...interval(s.bootstrap_median_interval),
    },
  ];
}

export const TABLE_COLUMNS = KERNEL_ROW_COLUMNS;

export const CSV_COLUMNS = Object.freeze([
  'build',
  'op',
  'variant',
  'n',
  'inner_iterations',
  'resolution_ms',
  'warning',
  SAMPLES_CSV_COLUMN,
]);
