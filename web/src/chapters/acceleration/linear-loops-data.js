// The pure half of the loop-based vs vectorized Linear experiment (acceleration-linear-
// loops): one Linear layer profiled by core's Profiler with its matmul run by the naive
// loops or by the packed SIMD kernel, over a few layer shapes at the student's batch size.
// No DOM and no measuring.

import { planOf } from '../../experiments/plans.js';
import { TIMED_COLUMNS, TIMED_CSV_COLUMNS } from './timed-columns.js';

/** The matmul variants compared: the loops of a textbook and the vectorized kernel. */
export const VARIANTS = Object.freeze(['naive', 'packed']);

export const CONTROLS = Object.freeze([
  { id: 'batch', type: 'number', label: 'Batch size', default: 32, min: 1, max: 128, integer: true },
]);

/**
 * Every layer shape of core's plan (`info.plan`: [in, out] shapes and Timer options) with
 * both variants, shapes outermost: `{in_features, out_features, batch, variant, options}`.
 */
export function linearPoints(values, { info }) {
  const { shapes, options } = planOf(info, 'Linear layer shapes', ['shapes', 'options']);
  return shapes.flatMap(([in_features, out_features]) =>
    VARIANTS.map((variant) => ({ in_features, out_features, batch: values.batch, variant, options: { ...options } })),
  );
}

/** "Linear 784→256": the layer a row measured. */
export const layerName = (row) => `Linear ${row.in_features}→${row.out_features}`;

/** Display: the layer's name, for the chart's categories. */
export const withLayerName = (row) => ({ ...row, layer: layerName(row) });

export const TABLE_COLUMNS = Object.freeze([
  { key: 'layer', label: 'layer', format: 'text' },
  { key: 'batch', label: 'batch', format: 'text', align: 'right' },
  { key: 'variant', label: 'matmul', format: 'text' },
  ...TIMED_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'in_features',
  'out_features',
  'batch',
  'flops',
  ...TIMED_CSV_COLUMNS,
]);
