// The pure half of the distribution experiment (benchmarking-distribution): sampleKernel
// points taking core's plan of samples of the chosen kernel (1,000; 200 in quick mode) over
// several calls, joined into one row, the table and CSV
// columns, and the shapes the chart and the analysis box read from core's summary.
// No DOM and no statistic (core's summarizeSample summarizes the sample).

import { planOf } from '../../experiments/plans.js';
import { formatCount, formatSig } from '../../ui/format.js';
import { KERNEL_ROW_COLUMNS, parseKernel, kernelRowCsvColumns } from './samples-common.js';

export const ID = 'benchmarking-distribution';

/**
 * The run's Timer options, core's plan (experimentPlan, init's `info.plan.options`): every
 * sample lasts the timer's minimum (100 clock ticks), no dropping.
 */
export const samplingOf = (info) => planOf(info, 'the samples', ['options']).options;

export const DEFAULT_KERNEL = 'matmul:packed';
export const DEFAULT_N = 128;

/**
 * Samples per call: core bounds one sampling call's time budget (statsLimits'
 * sample_kernel_max_total_ms), so a run is taken over several calls of this many samples,
 * each with its share of the run's budget (the full run: 10 calls of 100 samples, 3 s each),
 * with progress and cancel between them; joinCalls makes them one row again.
 */
export const CALL_SAMPLES = 100;

/** The run `sampling` of one kernel as points of at most CALL_SAMPLES samples: `{op, variant, n, options}`. */
export function samplingCalls(op, variant, n, sampling) {
  const calls = Math.max(1, Math.ceil(sampling.samples / CALL_SAMPLES));
  return Array.from({ length: calls }, (_, i) => {
    const samples = Math.min(CALL_SAMPLES, sampling.samples - i * CALL_SAMPLES);
    return { op, variant, n, options: { ...sampling, samples, max_total_ms: sampling.max_total_ms / calls } };
  });
}

/**
 * The rows of samplingCalls' points as the one row of the run: every sample in the order taken,
 * the first call's batching and resolution; when the calls batched differently, or a call's
 * timer warned, the warning says so.
 */
export async function joinCalls(rows) {
  if (rows.length <= 1) return rows;
  const batches = [...new Set(rows.map((r) => r.inner_iterations))];
  const warnings = [...new Set(rows.map((r) => r.warning).filter(Boolean))];
  if (batches.length > 1) {
    warnings.push(`the ${rows.length} sampling calls batched ${Math.min(...batches)} to ${Math.max(...batches)} calls per sample`);
  }
  return [{ ...rows[0], samples_ms: rows.flatMap((r) => r.samples_ms), warning: warnings.join('; ') }];
}

/** The run's points: `{op, variant, n, options}`, CALL_SAMPLES samples each. */
export function distributionPoints(values, { info }) {
  const { op, variant } = parseKernel(values?.kernel ?? DEFAULT_KERNEL);
  const n = values?.n ?? DEFAULT_N;
  return samplingCalls(op, variant, n, samplingOf(info));
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

export const CSV_COLUMNS = kernelRowCsvColumns();
