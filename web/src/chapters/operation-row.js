// The CSV columns of one operation placed on the roofline: a row of core's measureOperation
// (wasm/bind_probe.cpp), the same fields in the same order wherever such rows are exported,
// so a student can put the Profiling chapter's and the Acceleration chapter's files side by
// side. Not for: table columns (each experiment shows what its lesson needs).

import { STATS_CSV_COLUMNS } from '../experiments/csv.js';

/**
 * @param {Array<string|{name: string, value: Function}>} [extra] display columns of the
 *        experiment's own, written right after `op`
 */
export function operationCsvColumns(extra = []) {
  return Object.freeze([
    'build',
    'op',
    ...extra,
    'variant',
    'n',
    'elements',
    'flops',
    'bytes',
    'intensity',
    'gflops_per_s',
    'gb_per_s',
    'ns_per_element',
    'peak_gflops_per_s',
    'bandwidth_gb_per_s',
    'ridge_flops_per_byte',
    'attainable_gflops_per_s',
    'fraction_of_attainable',
    'bound',
    'verdict',
    ...STATS_CSV_COLUMNS,
    'warning',
  ]);
}
