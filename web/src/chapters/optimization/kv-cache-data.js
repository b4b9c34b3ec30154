// The pure half of the KV cache experiment (optimization-kv-cache): the points (one per
// generated length of core's plan, with core's decoder and prompt), the table and CSV
// columns, the charts' long rows, and the sentences under Run read from the measured rows.
// No DOM and no statistic: core verifies both generations, times them and counts their FLOPs.

import { planOf } from '../../experiments/plans.js';
import { toLong } from '../../charts/shape.js';
import { formatBytes, formatInt, formatSig } from '../../ui/format.js';
import { timerWarningsColumn } from '../../ui/columns.js';

export const KV_ID = 'optimization-kv-cache';

/**
 * One point per length of core's plan: {decoder, prompt, tokens, options}.
 * @param {{plan: {decoder: object, prompt: number, lengths: number[], options: object}}} info
 */
export function kvPoints(info) {
  const plan = planOf(info, 'the KV cache experiment', ['decoder', 'prompt', 'lengths', 'options']);
  return plan.lengths.map((tokens) => ({ decoder: plan.decoder, prompt: plan.prompt, tokens, options: plan.options }));
}

/** The decoder of core's plan in words: "2 layers, d_model 128, 4 heads, d_ff 512, vocabulary 256". */
export function decoderText(d) {
  return `${d.layers} layer${d.layers === 1 ? '' : 's'}, d_model ${d.d_model}, ${d.heads} heads, d_ff ${d.d_ff}, vocabulary ${d.vocab}, context ${d.context}`;
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'tokens', label: 'new tokens', format: 'int' },
  { key: 'recompute.median_ms', label: 'recompute (median)', unit: 'ms', format: 'sig' },
  { key: 'cached.median_ms', label: 'cached (median)', unit: 'ms', format: 'sig' },
  { label: 'speedup', format: (r) => `${formatSig(r.speedup)}×` },
  { label: 'FLOP ratio', format: (r) => `${formatSig(r.flop_ratio)}×` },
  { key: 'recompute_flops.total', label: 'recompute FLOPs', format: 'sci' },
  { key: 'cached_flops.total', label: 'cached FLOPs', format: 'sci' },
  { key: 'recompute_tokens_per_s', label: 'recompute', unit: 'tokens/s', format: 'sig' },
  { key: 'cached_tokens_per_s', label: 'cached', unit: 'tokens/s', format: 'sig' },
  { key: 'cache_bytes_used', label: 'cache at the end', format: 'bytes' },
  timerWarningsColumn([
    ['recompute', 'recompute'],
    ['cached', 'cached'],
  ]),
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'tokens',
  'prompt',
  'positions',
  { name: 'recompute_median_ms', value: (r) => r.recompute?.median_ms },
  { name: 'cached_median_ms', value: (r) => r.cached?.median_ms },
  'speedup',
  'flop_ratio',
  'flop_efficiency',
  { name: 'recompute_flops', value: (r) => r.recompute_flops?.total },
  { name: 'cached_flops', value: (r) => r.cached_flops?.total },
  { name: 'recompute_attention_flops', value: (r) => r.recompute_flops?.attention },
  { name: 'cached_attention_flops', value: (r) => r.cached_flops?.attention },
  'recompute_tokens_per_s',
  'cached_tokens_per_s',
  'cache_bytes_used',
  'cache_bytes_per_token',
  'parameter_bytes',
  'logit_error',
  { name: 'layers', value: (r) => r.decoder?.layers },
  { name: 'd_model', value: (r) => r.decoder?.d_model },
]);

export const SPEEDUP_SERIES = Object.freeze(['measured speedup', 'FLOP ratio']);
export const RATE_SERIES = Object.freeze(['recompute', 'cached']);

/** The speedup chart's rows: per length, the measured speedup and the FLOP ratio. */
export const speedupRows = (rows) =>
  toLong(rows, {
    fields: [
      { key: 'speedup', label: SPEEDUP_SERIES[0] },
      { key: 'flop_ratio', label: SPEEDUP_SERIES[1] },
    ],
    keep: ['tokens'],
  });

/** The throughput chart's rows: per length, tokens/s of both modes. */
export const rateRows = (rows) =>
  toLong(rows, {
    fields: [
      { key: 'recompute_tokens_per_s', label: RATE_SERIES[0] },
      { key: 'cached_tokens_per_s', label: RATE_SERIES[1] },
    ],
    keep: ['tokens'],
  });

const upper = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What the rows say: core's sentence on the speedup against the FLOP ratio at the longest
 * length; how each mode's tokens/s moved from the shortest length to the longest; the cache's
 * bytes at the longest length against the weights'.
 */
export function kvSentences(rows) {
  if (rows.length === 0) return [];
  const byLength = [...rows].sort((a, b) => a.tokens - b.tokens);
  const first = byLength[0];
  const last = byLength.at(-1);
  const out = [`${upper(last.follows_flops_sentence)}.`];
  if (last.tokens !== first.tokens) {
    out.push(
      `From ${formatInt(first.tokens)} to ${formatInt(last.tokens)} new tokens, recompute went from ` +
        `${formatSig(first.recompute_tokens_per_s)} to ${formatSig(last.recompute_tokens_per_s)} tokens/s ` +
        `(${formatSig(last.recompute_tokens_per_s / first.recompute_tokens_per_s)}×), the cached generation from ` +
        `${formatSig(first.cached_tokens_per_s)} to ${formatSig(last.cached_tokens_per_s)} tokens/s ` +
        `(${formatSig(last.cached_tokens_per_s / first.cached_tokens_per_s)}×).`,
    );
  }
  out.push(
    `After ${formatInt(last.tokens)} new tokens the cache holds ${formatInt(last.positions)} positions: ` +
      `${formatBytes(last.cache_bytes_used)} (${formatInt(last.cache_bytes_per_token)} bytes per position), ` +
      `${formatSig(last.cache_bytes_used / last.parameter_bytes)}× the weights’ ${formatBytes(last.parameter_bytes)}.`,
  );
  return out;
}
