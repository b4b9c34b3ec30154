// The pure half of the batch-size experiment: one zoo model's forward point at each batch
// (always including batch 1 and 32, which the exercises compare), the table and CSV
// columns. No DOM and no arithmetic on measurements (core gives samples/s and ms/sample).

import { planOf } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { latencyColumns, latencyCsv, sortedUnique, timerOptions, zooSpecOf } from './common.js';

export const DEFAULT_BATCHES = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128]);
/** Batches every plan holds, quick or not: the exercises read batch 1 and batch 32. */
export const REQUIRED_BATCHES = Object.freeze([1, 32]);
/**
 * The batches a run measures, ascending: the required ones and the student's, capped by
 * core's plan (quick mode's `max_batch`, and `max_points` in all; a full plan caps nothing).
 */
export function batchList(batches, plan) {
  const all = sortedUnique([...REQUIRED_BATCHES, ...batches]);
  const { max_points: maxPoints, max_batch: maxBatch } = plan ?? {};
  if (maxPoints === undefined && maxBatch === undefined) return all;
  const extra = all
    .filter((b) => b <= (maxBatch ?? Infinity) && !REQUIRED_BATCHES.includes(b))
    .slice(0, (maxPoints ?? Infinity) - REQUIRED_BATCHES.length);
  return sortedUnique([...REQUIRED_BATCHES, ...extra]);
}

/**
 * The quick-mode note, from core's quick plan and the rule batchList applies (so it names the
 * batches quick mode runs, never a range it skips): "batches 1, 2, 4 and 32 with the default list ...".
 */
export function quickNoteText(plan) {
  const others = plan.max_points - REQUIRED_BATCHES.length;
  return (
    `Quick mode (?quick=1): batches ${formatList(batchList(DEFAULT_BATCHES, plan))} with the default list ` +
    `(${formatList(REQUIRED_BATCHES)} always, then the ${others} smallest others up to ${plan.max_batch}), ` +
    'with small time budgets.'
  );
}

/** `{spec, batch, options}` for measureForwardPoint, batches ascending, as core's plan (`info.plan`) caps them. */
export function batchPoints(values, { info }) {
  const plan = planOf(info, 'batches', ['options']);
  const spec = zooSpecOf(info, values.model);
  return batchList(values.batches, plan).map((batch) => ({ spec, batch, options: timerOptions(info) }));
}

export const BATCH_COLUMNS = Object.freeze([
  { key: 'batch_size', label: 'batch', format: 'int' },
  ...latencyColumns('latency', 'median latency per batch'),
  { key: 'ms_per_sample', label: 'per sample', unit: 'ms', format: 'sig' },
  { key: 'samples_per_s', label: 'throughput', unit: 'samples/s', format: 'sig' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  { key: 'activation_bytes', label: 'activations', format: 'bytes' },
  { key: 'peak_bytes', label: 'measured peak', format: 'bytes' },
  { key: 'latency.warning', label: 'warning', format: 'text' },
]);

export const BATCH_CSV = Object.freeze([
  'build',
  'name',
  'batch_size',
  'parameters',
  'flops_per_sample',
  'flops_per_batch',
  'ms_per_sample',
  'samples_per_s',
  'gflops_per_s',
  'activation_bytes',
  'peak_bytes',
  ...latencyCsv(),
]);
