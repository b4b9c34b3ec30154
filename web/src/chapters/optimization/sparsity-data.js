// The pure half of the sparsity sweep (optimization-sparsity): the controls (a CSR variant
// and one of core's layer shapes), the points (one per density of core's plan), the table and
// CSV columns, the chart's rows, and the sentences under Run read from the measured rows. No
// DOM and no statistic: core measures both kernels and finds the crossover.

import { formatPercent, formatSig } from '../../ui/format.js';
import { timerWarningsColumn } from '../../ui/columns.js';

export const SPARSITY_ID = 'optimization-sparsity';

/** A shape of core's plan as a select's value, and back: "784x256@64". */
export const shapeValue = (s) => `${s.in}x${s.out}@${s.batch}`;
export const shapeLabel = (s) => `Linear ${s.in}→${s.out} at batch ${s.batch}`;
export function shapeOf(value) {
  const m = /^(\d+)x(\d+)@(\d+)$/.exec(String(value));
  if (!m) throw new Error(`the layer shape ${JSON.stringify(value)} is not one of the plan's`);
  return { in: Number(m[1]), out: Number(m[2]), batch: Number(m[3]) };
}

/**
 * One point per density of core's plan, for the chosen variant and shape.
 * @param {{variant: string, shape: string}} values
 * @param {{plan: {densities: number[], options: object}}} info core's plan (experimentPlans)
 */
export function sparsityPoints(values, info) {
  const plan = info?.plan;
  if (!plan?.densities?.length) throw new Error('the lab worker gave no plan of the sparsity sweep, so there is nothing to measure');
  const s = shapeOf(values.shape);
  return plan.densities.map((density) => ({ variant: values.variant, batch: s.batch, in: s.in, out: s.out, density, options: plan.options }));
}

/** The chart's and table's percent of weights kept. */
export const withPercent = (row) => ({ ...row, density_percent: 100 * row.density });

export const TABLE_COLUMNS = Object.freeze([
  { key: 'density', label: 'density (kept)', format: 'percent' },
  { key: 'nnz', label: 'nonzeros', format: 'int' },
  { label: 'CSR bytes ÷ dense bytes', format: (r) => formatSig(r.csr_bytes / r.dense_bytes) },
  { key: 'sparse.median_ms', label: 'sparse (median)', unit: 'ms', format: 'sig' },
  { key: 'dense.median_ms', label: 'dense (median)', unit: 'ms', format: 'sig' },
  { label: 'dense ÷ sparse', format: (r) => `${formatSig(r.speedup)}×` },
  timerWarningsColumn([
    ['sparse', 'sparse'],
    ['dense', 'dense'],
  ]),
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'batch',
  'in',
  'out',
  'density',
  'nnz',
  'csr_bytes',
  'dense_bytes',
  { name: 'sparse_median_ms', value: (r) => r.sparse?.median_ms },
  { name: 'dense_median_ms', value: (r) => r.dense?.median_ms },
  'speedup',
]);

/**
 * What the rows say besides the crossover: the speedup at the lowest density and at the one
 * nearest half, each with the bytes the CSR kernel reads against the dense one's.
 */
export function sparsitySentences(rows) {
  if (rows.length === 0) return [];
  const byDensity = [...rows].sort((a, b) => a.density - b.density);
  const lowest = byDensity[0];
  const half = byDensity.reduce((best, r) => (Math.abs(r.density - 0.5) < Math.abs(best.density - 0.5) ? r : best));
  const line = (r) =>
    `At ${formatPercent(r.density)} density the ${r.variant} CSR kernel took ${formatSig(r.sparse.median_ms)} ms against the dense kernel’s ` +
    `${formatSig(r.dense.median_ms)} ms (dense ÷ sparse ${formatSig(r.speedup)}×), reading ${formatSig(r.csr_bytes / r.dense_bytes)}× the dense weight bytes.`;
  return half === lowest ? [line(lowest)] : [line(lowest), line(half)];
}
