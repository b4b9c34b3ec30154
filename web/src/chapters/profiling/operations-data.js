// The pure half of the operation-efficiency experiment: element-wise ops (add, mul, GELU),
// reductions and normalisations (sum, softmax, LayerNorm) and matmul, each measured by
// core's measureOperation and placed against this machine's roofs (from a quick probe);
// the table and CSV columns. No DOM and no roofline arithmetic (core places each row).

import { planOf } from '../../experiments/plans.js';
import { timerOptions } from './common.js';
import { operationCsvColumns } from '../operation-row.js';

export const OPERATION_FAMILIES = Object.freeze({
  add: 'element-wise',
  mul: 'element-wise',
  gelu: 'element-wise',
  sum: 'reduction',
  softmax: 'reduction',
  layernorm: 'reduction',
  matmul: 'matmul',
});
export const ELEMENTWISE_OPS = Object.freeze(['add', 'mul', 'gelu', 'sum', 'softmax', 'layernorm']);

/** The roofs every point carries so core can place it: `info.roofs` from the probe. */
function roofOptions(info) {
  const r = info?.roofs;
  if (!(r?.peak_gflops_per_s > 0) || !(r?.bandwidth_gb_per_s > 0)) {
    throw new Error('the machine probe gave no roofs, so the operations cannot be placed; press Run to probe again');
  }
  return { peak_gflops_per_s: r.peak_gflops_per_s, bandwidth_gb_per_s: r.bandwidth_gb_per_s };
}

/**
 * `{op, n, options}` for measureOperation: every element-wise op at each size of core's plan
 * (`info.plan`: elements, matmul_n, Timer options), then matmul at each N.
 */
export function operationPoints(values, { info }) {
  const plan = planOf(info, 'operation sizes', ['elements', 'matmul_n', 'options']);
  const roofs = roofOptions(info);
  const point = (op, n) => ({ op, n, options: { ...timerOptions(info), ...roofs } });
  return [
    ...plan.elements.flatMap((n) => ELEMENTWISE_OPS.map((op) => point(op, n))),
    ...plan.matmul_n.map((n) => point('matmul', n)),
  ];
}

/** Display fields: the op's family and a point label for the chart. */
export function withFamily(row) {
  const label = row.op === 'matmul' ? `matmul N=${row.n}` : `${row.op} ${row.elements >= 1 << 20 ? `${row.elements / (1 << 20)}Mi` : `${row.elements / 1024}Ki`}`;
  return { ...row, family: OPERATION_FAMILIES[row.op] ?? row.op, label };
}

export const OPERATION_COLUMNS = Object.freeze([
  { key: 'op', label: 'operation', format: 'text', align: 'left' },
  { key: 'family', label: 'family', format: 'text' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'elements', label: 'elements', format: 'int' },
  { key: 'intensity', label: 'intensity', unit: 'FLOP/byte', format: 'sig' },
  { key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  { key: 'gb_per_s', label: 'GB/s', format: 'sig' },
  { key: 'attainable_gflops_per_s', label: 'attainable', unit: 'GFLOP/s', format: 'sig' },
  { key: 'fraction_of_attainable', label: 'of attainable', format: 'percent' },
  { key: 'bound', label: 'bound', format: 'text' },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

export const OPERATION_CSV = operationCsvColumns([{ name: 'family', value: (r) => OPERATION_FAMILIES[r.op] ?? r.op }]);
