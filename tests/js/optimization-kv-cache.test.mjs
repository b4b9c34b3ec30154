// Protects the pure half of the Optimization chapter's KV cache experiment
// (web/src/chapters/optimization/kv-cache-data.js) and its spec: one point per length of core's
// plan carrying core's decoder and prompt, the table's cells, the charts' long rows (speedup
// beside the FLOP ratio, tokens/s of both modes), and the sentences under Run read from the
// rows they describe. Rows are hand-written in measureKvCache's shape; no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { TABLE_COLUMNS, decoderText, kvPoints, kvSentences, rateRows, speedupRows } from '../../web/src/chapters/optimization/kv-cache-data.js';
import { kvCacheExperiment } from '../../web/src/chapters/optimization/kv-cache-experiment.js';

const DECODER = { vocab: 256, d_model: 128, heads: 4, layers: 2, d_ff: 512, context: 512, seed: 1 };
const PLAN = { decoder: DECODER, prompt: 8, lengths: [8, 16, 32], options: { warmup: 1, samples: 3, min_sample_ms: 1, max_total_ms: 1500 } };
const row = (tokens, recompute, cached, ratio) => ({
  tokens,
  prompt: 8,
  positions: 8 + tokens - 1,
  decoder: { name: 'kv-decoder', ...DECODER },
  recompute: { median_ms: recompute },
  cached: { median_ms: cached },
  speedup: recompute / cached,
  flop_ratio: ratio,
  recompute_tokens_per_s: (tokens / recompute) * 1000,
  cached_tokens_per_s: (tokens / cached) * 1000,
  recompute_flops: { total: ratio * 1e6, attention: 1e5 },
  cached_flops: { total: 1e6, attention: 1e4 },
  cache_bytes_used: 2048 * (8 + tokens - 1),
  cache_bytes_per_token: 2048,
  parameter_bytes: 2 ** 21,
  follows_flops_sentence: `at ${tokens} tokens the speedup ${recompute / cached}× is 0.5 of the FLOP ratio ${ratio}×, so it follows the FLOP ratio (the lab counts 0.25 to 1.25 of it as following)`,
});

test('kv cache: one point per length of core’s plan, with its decoder, prompt and options', () => {
  const points = kvPoints({ plan: PLAN });
  assert.deepEqual(points.map((p) => p.tokens), [8, 16, 32]);
  assert.deepEqual(points[1], { decoder: DECODER, prompt: 8, tokens: 16, options: PLAN.options });
  assert.throws(() => kvPoints(null), /no plan of the KV cache experiment/);
  assert.throws(() => kvPoints({ plan: { ...PLAN, lengths: [] } }), /\(no lengths\)/);
  assert.equal(decoderText(DECODER), '2 layers, d_model 128, 4 heads, d_ff 512, vocabulary 256, context 512');
});

test('kv cache: the table prints each row’s figures', () => {
  const cells = Object.fromEntries(TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, row(16, 40, 4, 20))]));
  assert.equal(cells['new tokens'], '16');
  assert.equal(cells['recompute (median) (ms)'], '40.0');
  assert.equal(cells['cached (median) (ms)'], '4.00');
  assert.equal(cells.speedup, '10.0×');
  assert.equal(cells['FLOP ratio'], '20.0×');
  assert.equal(cells['recompute (tokens/s)'], '400');
  assert.equal(cells['cached (tokens/s)'], '4,000');
  assert.equal(cells['cache at the end'], '46.0 KiB');
  assert.equal(cells.warning, '');
  const warned = { ...row(16, 40, 4, 20), recompute: { median_ms: 40, warning: 'budget ran out' } };
  assert.equal(cellText(TABLE_COLUMNS.at(-1), warned), 'recompute: budget ran out');
});

test('kv cache: the charts get the speedup beside the FLOP ratio, and both modes’ tokens/s', () => {
  const rows = [row(8, 10, 2, 6), row(16, 40, 4, 20)];
  assert.deepEqual(speedupRows(rows), [
    { tokens: 8, series: 'measured speedup', value: 5 },
    { tokens: 8, series: 'FLOP ratio', value: 6 },
    { tokens: 16, series: 'measured speedup', value: 10 },
    { tokens: 16, series: 'FLOP ratio', value: 20 },
  ]);
  assert.deepEqual(rateRows(rows).map((r) => [r.tokens, r.series, r.value]), [
    [8, 'recompute', 800],
    [8, 'cached', 4000],
    [16, 'recompute', 400],
    [16, 'cached', 4000],
  ]);
});

test('kv cache: the sentences read the longest and the shortest length from the rows', () => {
  const sentences = kvSentences([row(32, 160, 8, 40), row(8, 10, 2, 6), row(16, 40, 4, 20)]);
  assert.deepEqual(sentences, [
    'At 32 tokens the speedup 20× is 0.5 of the FLOP ratio 40×, so it follows the FLOP ratio (the lab counts 0.25 to 1.25 of it as following).',
    'From 8 to 32 new tokens, recompute went from 800 to 200 tokens/s (0.250×), the cached generation from 4,000 to 4,000 tokens/s (1.00×).',
    'After 32 new tokens the cache holds 39 positions: 78.0 KiB (2,048 bytes per position), 0.0381× the weights’ 2.00 MiB.',
  ]);
  assert.equal(kvSentences([row(8, 10, 2, 6)]).length, 2, 'one length: no change to report');
  assert.deepEqual(kvSentences([]), []);
});

test('kv cache: the spec passes the framework’s checks and quotes core’s plan', () => {
  assert.deepEqual(specProblems(kvCacheExperiment), []);
  assert.equal(kvCacheExperiment.measure.fn, 'measureKvCache');
  const text = kvCacheExperiment.explanation({ info: { plan: PLAN } }).join(' ');
  assert.match(text, /2 layers, d_model 128/);
  assert.match(text, /of 8 tokens/);
  assert.match(text, /random/);
  assert.equal(kvCacheExperiment.quickNote({ info: { plan: PLAN } }), 'Quick mode (?quick=1): lengths 8, 16 and 32 only, small budgets.');
});
