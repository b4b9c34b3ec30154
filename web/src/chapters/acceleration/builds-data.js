// The pure half of the scalar-vs-SIMD build experiment (acceleration-builds): the same
// matmul points measured in both wasm builds (a measureMatmul sweep with `builds`), the point labels, the
// SIMD ÷ scalar ratio for display, the table and CSV columns.
// No DOM and no measuring.

import { STATS_CSV_COLUMNS } from '../../experiments/csv.js';
import { planOf } from '../../experiments/plans.js';
import { BUILDS } from '../../lab/api.js';
import { TIMED_COLUMNS } from './timed-columns.js';

/** The two builds, in the order each point is measured. */
export { BUILDS };

/**
 * Every variant of core's list (`info.variants`) at each size of core's plan (`info.plan`,
 * experimentPlan('acceleration-builds'): sizes, each variant's largest N, Timer options).
 */
export function buildsPoints(values, { info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no matmul variants, so there is nothing to measure');
  }
  const { sizes, maxN, options } = planOf(info, 'matrix sizes', ['sizes', 'maxN', 'options']);
  return sizes.flatMap((n) =>
    variants.filter((v) => n <= (maxN[v] ?? Infinity)).map((variant) => ({ variant, n, options: { ...options } })),
  );
}

/** The sweep's request: every point in each build. */
export function buildsPayload(values, points) {
  return { points, builds: [...BUILDS] };
}

/** "packed\nN=256": the category a row's bars share (two lines under the bars). */
export const pointName = (row) => `${row.variant}\nN=${row.n}`;

/**
 * Display only: for each point measured in both builds, GFLOP/s of the SIMD build over
 * the scalar build's, in the order the points were measured.
 * @returns {Array<{point: string, variant: string, n: number, simd_over_scalar: number}>}
 */
export function speedups(rows) {
  const byPoint = new Map();
  for (const row of rows) {
    const key = pointName(row);
    if (!byPoint.has(key)) byPoint.set(key, { point: key, variant: row.variant, n: row.n });
    byPoint.get(key)[row.build] = row.gflops_per_s;
  }
  return [...byPoint.values()]
    .filter((p) => p.simd > 0 && p.scalar > 0)
    .map(({ point, variant, n, simd, scalar }) => ({ point, variant, n, simd_over_scalar: simd / scalar }));
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'n', label: 'N', format: 'text', align: 'right' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'build', label: 'build', format: 'text' },
  ...TIMED_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'n',
  'flops',
  'gflops_per_s',
  ...STATS_CSV_COLUMNS,
  'outliers',
  'warning',
]);
