// The pure half of the intervals experiment (benchmarking-intervals): one reference run of the
// chosen kernel (core plans it as the distribution experiment's 1,000 samples; fewer in quick
// mode), the sizes and core's trial counts its intervalCoverage draws from it, the control for the sizes, and the
// long rows the width and coverage charts draw from core's answer.
// No DOM and no statistic (core draws the small samples, computes their intervals and counts).

import { planOf } from '../../experiments/plans.js';
import { samplingCalls } from './distribution-data.js';
import { KERNEL_ROW_COLUMNS, parseKernel, kernelRowCsvColumns } from './samples-common.js';

export const DEFAULT_KERNEL = 'matmul:packed';
export const DEFAULT_N = 128;
export const DEFAULT_SIZES = Object.freeze([5, 10, 20, 30, 50, 100]);

export const ID = 'benchmarking-intervals';

/**
 * Core's plan (experimentPlan, init's `info.plan`): `{options, coverage}`, the reference run's
 * Timer options and the coverage run's small samples per size (`trials`), bootstrap
 * resamples per small sample and seed.
 */
const intervalsPlan = (info) => planOf(info, 'the reference run and the coverage trials', ['options', 'coverage']);
export const coverageOf = (info) => ({ ...intervalsPlan(info).coverage });

/** The three methods as core names them in each coverage row, and how the page labels them. */
export const METHODS = Object.freeze([
  { key: 'z', label: 'z (mean ± 1.96·s/√n)' },
  { key: 't', label: 't (mean ± t·s/√n)' },
  { key: 'bootstrap', label: 'bootstrap (median)' },
]);

export const SIZES_CONTROL = Object.freeze({
  id: 'sizes',
  type: 'numbers',
  label: 'Small-sample sizes n',
  default: DEFAULT_SIZES,
  min: 2,
  max: 100,
  integer: true,
  maxCount: 12,
  example: '5, 10, 20, 50, 100',
  hint: 'Each n gets its own small samples drawn from the reference run; sizes from 2 to 100, each once.',
  validate: (sizes) => (new Set(sizes).size === sizes.length ? null : 'Small-sample sizes n: give each size once'),
});

/** The reference run's points (the distribution's calls, joined by joinCalls): `{op, variant, n, options}`. */
export function intervalsPoints(values, { info }) {
  const { op, variant } = parseKernel(values?.kernel ?? DEFAULT_KERNEL);
  return samplingCalls(op, variant, values?.n ?? DEFAULT_N, intervalsPlan(info).options);
}

/** Core's coverage rows as long rows `{n, method, width_ms, coverage}`, one per size and method. */
export function longRows(analysis) {
  return (analysis?.rows ?? []).flatMap((r) =>
    METHODS.map((m) => ({ n: r.n, method: m.label, width_ms: r[m.key].mean_width, coverage: r[m.key].coverage })),
  );
}

export const TABLE_COLUMNS = KERNEL_ROW_COLUMNS;

export const CSV_COLUMNS = kernelRowCsvColumns();
