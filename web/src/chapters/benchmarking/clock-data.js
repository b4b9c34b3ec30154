// The pure half of the clock experiment (benchmarking-clock): a kernel of a few microseconds
// sampled with a fixed batch of k = 1, 2, 4, … 1024 calls per sample (sampleKernel's
// inner_iterations), on this page's clock and on one coarsened to a chosen tick
// (clock_tick_ms); the reference row; the chart's rows from core's errors; the columns.
// No DOM and no statistic (core takes each median and each median's change against the reference).

import { planOf } from '../../experiments/plans.js';
import { KERNEL_ROW_COLUMNS, parseKernel, kernelRowCsvColumns } from './samples-common.js';

export const DEFAULT_KERNEL = 'gelu:fused-simd';
export const DEFAULT_N = 1024;
export const DEFAULT_TICK_MS = 0.1;

export const ID = 'benchmarking-clock';

/**
 * Core's plan of the sweep (experimentPlan, init's `info.plan`): `{batches, options}`, the
 * calls per sample k and the Timer options of every point.
 */
export const clockOf = (info) => planOf(info, 'batch sizes', ['batches', 'options']);

export const PAGE = 'page';
export const COARSE = 'coarsened';

export const TICK_CONTROL = Object.freeze({
  id: 'tick',
  type: 'number',
  label: 'Coarsened clock tick',
  unit: 'ms',
  default: DEFAULT_TICK_MS,
  min: 0.001,
  max: 100,
  hint: 'Every reading of the second clock is rounded down to a multiple of this: 0.1 ms is Chromium’s tick on a page that is not cross-origin isolated.',
});

/**
 * Every batch size on both clocks, the two clocks alternating (k = 1 on this page's clock,
 * k = 1 coarsened, k = 2 …) so that a drift of the machine during the sweep touches both
 * alike: points `{clock, op, variant, n, options}` with options.inner_iterations = k (and
 * clock_tick_ms on the coarsened clock). The plan's warmup is calls, a millisecond or so of them.
 */
export function clockPoints(values, { info }) {
  const { op, variant } = parseKernel(values?.kernel ?? DEFAULT_KERNEL);
  const n = values?.n ?? DEFAULT_N;
  const tick = values?.tick ?? DEFAULT_TICK_MS;
  const { batches, options: base } = clockOf(info);
  return batches.flatMap((k) =>
    [PAGE, COARSE].map((clock) => ({
      clock,
      op,
      variant,
      n,
      options: clock === COARSE ? { ...base, inner_iterations: k, clock_tick_ms: tick } : { ...base, inner_iterations: k },
    })),
  );
}

/** The reference: the largest batch on this page's clock (the most ticks per sample). */
export function referenceRow(rows) {
  let best = null;
  for (const r of rows) if (r.clock === PAGE && (!best || r.inner_iterations > best.inner_iterations)) best = r;
  return best;
}

export const PAGE_LABEL = 'this page’s clock';
export const coarseLabel = (tick_ms) => `clock coarsened to ${tick_ms} ms`;
export const clockLabel = (r) => (r.clock === PAGE ? PAGE_LABEL : coarseLabel(r.clock_tick_ms));

/**
 * The chart's rows from core's analysis: |error| of each median against the reference, by
 * batch size and clock, the reference itself (error 0) included: the log axis has no 0, so the
 * chart marks those rows on its bottom edge and says why (ZERO_NOTE) instead of ending a line.
 */
export function errorRows(analysis) {
  return (analysis?.rows ?? []).map((r) => ({
    k: r.inner_iterations,
    error: r.reference ? 0 : Math.abs(r.change),
    clock: r.label,
  }));
}

export const ZERO_NOTE = '▽ on the bottom edge: error 0, the reference or a median equal to it (a log axis has no 0)';

export const TABLE_COLUMNS = Object.freeze([
  { key: 'clock', label: 'clock', format: 'text' },
  { key: 'clock_tick_ms', label: 'tick', unit: 'ms', format: (r) => (r.clock_tick_ms > 0 ? String(r.clock_tick_ms) : '—') },
  ...KERNEL_ROW_COLUMNS.filter((c) => c.key !== 'op' && c.key !== 'variant' && c.key !== 'n'),
]);

export const CSV_COLUMNS = kernelRowCsvColumns(['clock', 'clock_tick_ms']);
