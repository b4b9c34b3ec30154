// The pure half of the warmup experiment (benchmarking-warmup): one sampleKernel point timing
// each of the first few hundred calls of a kernel on its own (no warmup, one call per sample),
// the first and last stretches of calls core summarizes, the chart's rows, the columns.
// No DOM and no statistic (core's summarizeSample summarizes each stretch).

import { planOf } from '../../experiments/plans.js';
import { KERNEL_ROW_COLUMNS, parseKernel, kernelRowCsvColumns } from './samples-common.js';

export const DEFAULT_KERNEL = 'matmul:blocked';
export const DEFAULT_N = 128;

export const ID = 'benchmarking-warmup';

/**
 * Core's plan of the run (experimentPlan, init's `info.plan`): `{calls, first, last,
 * max_total_ms}`, the calls timed and how many of the first and of the last calls core
 * summarizes apart.
 */
export const warmupOf = (info) => planOf(info, 'the first calls', ['calls', 'first', 'last', 'max_total_ms']);

/** One point: every call timed by itself from the very first (warmup 0, inner_iterations 1). */
export function warmupPoints(values, { info }) {
  const { op, variant } = parseKernel(values?.kernel ?? DEFAULT_KERNEL);
  const { calls, max_total_ms } = warmupOf(info);
  return [
    {
      op,
      variant,
      n: values?.n ?? DEFAULT_N,
      options: { warmup: 0, samples: calls, inner_iterations: 1, min_sample_ms: 0, max_total_ms },
    },
  ];
}

/**
 * The stretches core summarizes: the first `first` calls and the last `last` (fewer when the
 * run stopped early; they never overlap). `{label, from, to, values}` with 1-based call numbers.
 */
export function stretches(samples, { first, last }) {
  const count = samples.length;
  const head = Math.min(first, count);
  const tail = Math.min(last, count - head);
  const out = [{ key: 'first', label: `first ${head} calls`, from: 1, to: head, values: samples.slice(0, head) }];
  if (tail > 0) out.push({ key: 'last', label: `last ${tail} calls`, from: count - tail + 1, to: count, values: samples.slice(count - tail) });
  return out;
}

/**
 * The chart's rows: each call's time against its number (1 = the first call). A reading of 0
 * (a call shorter than a tick) has no place on the log axis and is left out.
 */
export function callRows(rows) {
  return (rows[0]?.samples_ms ?? []).map((time_ms, i) => ({ call: i + 1, time_ms, series: 'each call timed alone' })).filter((r) => r.time_ms > 0);
}

export const TABLE_COLUMNS = KERNEL_ROW_COLUMNS;

export const CSV_COLUMNS = kernelRowCsvColumns();
