// The pure half of the attention-scaling experiment: self-attention counted by core at
// each sequence length (projections 8·T·D², the O(T²) scores and P·V), the long-form rows
// its charts draw, and the table and CSV columns. Counts only, nothing is timed.

import { planOf } from '../../experiments/plans.js';
import { sortedUnique } from './common.js';

export const DEFAULT_SEQ_LENGTHS = Object.freeze([16, 32, 64, 128, 256, 512, 1024, 2048, 4096]);

/**
 * Controls `d-model`, `heads`, `seq-lengths` → `{d_model, heads, seq_len, batch: 1}` per length
 * for attentionPoint, ascending; core's plan (`info.plan`) may cap the lengths (quick mode's
 * `max_seq_len`), keeping at least the shortest.
 */
export function attentionPoints(values, { info }) {
  const { max_seq_len: max = Infinity } = planOf(info, 'sequence lengths');
  const all = sortedUnique(values['seq-lengths']);
  let lengths = all.filter((t) => t <= max);
  if (lengths.length === 0) lengths = [all[0]];
  return lengths.map((seq_len) => ({ d_model: values['d-model'], heads: values.heads, seq_len, batch: 1 }));
}

/** heads must divide d_model (core says so too; here it is caught before Run). */
export function headsProblem(heads, values) {
  const d = values['d-model'];
  return d % heads === 0 ? null : `Heads must divide d_model (${d}), got ${heads}`;
}

/** FLOP chart rows: the linear-in-T projections against the quadratic term. */
export function flopSeries(rows) {
  return rows.flatMap((r) => [
    { seq_len: r.seq_len, series: 'projections Q, K, V, O (8·T·D²)', value: r.projection_flops },
    { seq_len: r.seq_len, series: 'scores Q·Kᵀ + P·V (4·T²·D)', value: r.quadratic_flops },
  ]);
}

/** Memory chart rows: weights (constant), Q/K/V/heads (linear), the score matrix (quadratic). */
export function byteSeries(rows) {
  return rows.flatMap((r) => [
    { seq_len: r.seq_len, series: 'weights', value: r.weight_bytes },
    { seq_len: r.seq_len, series: 'Q, K, V, heads', value: r.qkv_bytes },
    { seq_len: r.seq_len, series: 'score matrix (heads·T²)', value: r.score_matrix_bytes },
  ]);
}

export const ATTENTION_COLUMNS = Object.freeze([
  { key: 'seq_len', label: 'T', format: 'int' },
  { key: 'projection_flops', label: 'projection FLOPs', format: 'int' },
  { key: 'quadratic_flops', label: 'quadratic FLOPs', format: 'int' },
  { key: 'quadratic_fraction', label: 'quadratic share', format: 'percent' },
  { key: 'softmax_flops', label: 'softmax FLOPs', format: 'int' },
  { key: 'score_matrix_bytes', label: 'score matrix', format: 'bytes' },
  { key: 'activation_bytes', label: 'activations', format: 'bytes' },
  { key: 'weight_bytes', label: 'weights', format: 'bytes' },
]);

export const ATTENTION_CSV = Object.freeze([
  'seq_len',
  'projection_flops',
  'scores_flops',
  'context_flops',
  'quadratic_flops',
  'matmul_flops',
  'softmax_flops',
  'bias_flops',
  'quadratic_fraction',
  'weight_bytes',
  'qkv_bytes',
  'score_matrix_bytes',
  'output_bytes',
  'activation_bytes',
]);
