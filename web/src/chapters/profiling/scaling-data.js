// The pure half of the model-scaling experiment: an MLP 784 → hidden (× depth) → 10 built by
// core's mlpSpec for every hidden size, its forward point measured at one batch; the table
// and CSV columns. No DOM and no counting (core counts parameters and FLOPs).

import { planOf } from '../../experiments/plans.js';
import { latencyColumns, latencyCsv, sortedUnique, timerOptions } from './common.js';

export const INPUT_WIDTH = 784;
export const OUTPUT_WIDTH = 10;
export const DEFAULT_HIDDEN = Object.freeze([64, 128, 256, 512, 1024, 2048]);
/** Widths of one MLP: input, `depth` hidden layers of `hidden`, output. */
export function mlpWidths(hidden, depth) {
  return [INPUT_WIDTH, ...Array.from({ length: depth }, () => hidden), OUTPUT_WIDTH];
}

/**
 * One point per hidden size (ascending), `{widths, batch, options}` for measureMlpForwardPoint;
 * core's plan (`info.plan`) gives the Timer options and, in quick mode, `max_points`: only
 * that many of the sizes, the smallest first.
 */
export function scalingPoints(values, { info }) {
  const plan = planOf(info, 'widths', ['options']);
  let sizes = sortedUnique(values.hidden);
  if (plan.max_points !== undefined) sizes = sizes.slice(0, plan.max_points);
  return sizes.map((h) => ({ widths: mlpWidths(h, values.depth), batch: values.batch, options: timerOptions(info) }));
}

/** Display field: the hidden width is the x axis (the row carries core's widths). */
export function withHidden(row) {
  return { ...row, hidden: row.widths[1] };
}

export const SCALING_COLUMNS = Object.freeze([
  { key: 'hidden', label: 'hidden width', format: 'int' },
  { label: 'widths', format: (r) => r.widths.join('-') },
  { key: 'parameters', label: 'parameters', format: 'int' },
  { key: 'flops_per_sample', label: 'FLOPs per sample', format: 'int' },
  ...latencyColumns(),
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  { key: 'latency.warning', label: 'warning', format: 'text' },
]);

export const SCALING_CSV = Object.freeze([
  'build',
  { name: 'widths', value: (r) => r.widths.join('-') },
  'name',
  'batch_size',
  'parameters',
  'flops_per_sample',
  'flops_per_batch',
  'activation_bytes',
  'peak_bytes',
  'gflops_per_s',
  'samples_per_s',
  ...latencyCsv(),
]);
