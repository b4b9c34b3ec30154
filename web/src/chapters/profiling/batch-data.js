// The pure half of the batch-size experiment: one zoo model's forward point at each batch
// (always including batch 1 and 32, which the exercises compare), the table and CSV
// columns. No DOM and no arithmetic on measurements (core gives samples/s and ms/sample).

import { latencyColumns, latencyCsv, sortedUnique, timerOptions, zooSpecOf } from './common.js';

export const DEFAULT_BATCHES = Object.freeze([1, 2, 4, 8, 16, 32, 64, 128]);
/** Batches every plan holds, quick or not: the exercises read batch 1 and batch 32. */
export const REQUIRED_BATCHES = Object.freeze([1, 32]);
/** Quick mode: only batches up to QUICK_MAX_BATCH, at most QUICK_MAX_POINTS of them. */
export const QUICK_MAX_POINTS = 4;
export const QUICK_MAX_BATCH = 32;

export function batchList(batches, quick) {
  const all = sortedUnique([...REQUIRED_BATCHES, ...batches]);
  if (!quick) return all;
  const extra = all
    .filter((b) => b <= QUICK_MAX_BATCH && !REQUIRED_BATCHES.includes(b))
    .slice(0, QUICK_MAX_POINTS - REQUIRED_BATCHES.length);
  return sortedUnique([...REQUIRED_BATCHES, ...extra]);
}

const listText = (xs) => (xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`);

/**
 * The quick-mode note, from the rule batchList applies (so it names the batches quick mode
 * runs, never a range it skips): "batches 1, 2, 4 and 32 with the default list ...".
 */
export function quickNoteText() {
  const others = QUICK_MAX_POINTS - REQUIRED_BATCHES.length;
  return (
    `Quick mode (?quick=1): batches ${listText(batchList(DEFAULT_BATCHES, true))} with the default list ` +
    `(${listText(REQUIRED_BATCHES)} always, then the ${others} smallest others up to ${QUICK_MAX_BATCH}), ` +
    'with small time budgets.'
  );
}

/** `{spec, batch, options}` for measureForwardPoint, batches ascending. */
export function batchPoints(values, { quick, info }) {
  const spec = zooSpecOf(info, values.model);
  return batchList(values.batches, quick).map((batch) => ({ spec, batch, options: timerOptions(quick) }));
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
