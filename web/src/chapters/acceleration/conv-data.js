// The pure half of the direct-vs-im2col convolution experiment (acceleration-conv): core's
// sizes (experimentPlan('acceleration-conv').sizes) × core's methods (convMethods), each point one measureConv; the table and
// CSV columns; im2col's speedup over the direct loops at each size and the memory its
// unfolded matrix costs (core's bytes); and the sentences that compare them from the rows.
// No DOM and no measuring.

import { formatBytes, formatSig } from '../../ui/format.js';
import { ratioText } from './gelu-fusion-data.js';
import { SPREAD_COLUMNS } from './timed-columns.js';

export const DIRECT = 'direct';
export const IM2COL = 'im2col';

/** "3→16, 7×7 on 64×64": one size as the table and progress name it. */
export function shapeName(shape) {
  if (!shape || typeof shape !== 'object') return '—';
  const stride = shape.stride > 1 ? `, stride ${shape.stride}` : '';
  return `${shape.channels}→${shape.filters}, ${shape.kernel}×${shape.kernel} on ${shape.height}×${shape.width}${stride}`;
}

/**
 * Every method (core's list, `info.methods`) at every size (core's plan, `info.plan` for
 * normal runs and `info.quickPlan` under ?quick=1), sizes outermost, the direct loops first at
 * each size so every later row finds its speedup's denominator. Each point's Timer options are
 * core's too (experimentPlan's `options`: `info.options`, or `info.quickOptions` under ?quick=1).
 */
export function convPoints(values, { quick, info } = {}) {
  const methods = info?.methods;
  const plan = quick ? info?.quickPlan : info?.plan;
  if (!Array.isArray(methods) || methods.length === 0) {
    throw new Error('the lab worker listed no convolution methods, so there is nothing to measure');
  }
  if (!Array.isArray(plan) || plan.length === 0) {
    throw new Error('the lab worker gave no convolution sizes, so there is nothing to measure');
  }
  const ordered = [...methods.filter((m) => m === DIRECT), ...methods.filter((m) => m !== DIRECT)];
  const options = quick ? info?.quickOptions : info?.options;
  if (!options) throw new Error('the lab worker gave no Timer options for the convolution sizes');
  return plan.flatMap((shape, size) =>
    ordered.map((method) => ({ method, shape: { ...shape }, size, label: shapeName(shape), options: { ...options } })),
  );
}

// Per run (the framework's ctx object): size index -> the direct loops' median.
const directs = new WeakMap();

/**
 * Display field `speedup` (the direct loops' median ÷ this row's, at the same size: 3 = three
 * times as fast as the loops), once the direct row of that size has been measured in this run.
 */
export function withSpeedup(row, ctx) {
  const memo = ctx && typeof ctx === 'object' ? (directs.get(ctx) ?? new Map()) : new Map();
  if (ctx && typeof ctx === 'object') directs.set(ctx, memo);
  const median = row.stats?.median_ms;
  if (row.method === DIRECT && median > 0) memo.set(row.size, median);
  const base = memo.get(row.size);
  return base > 0 && median > 0 ? { ...row, speedup: base / median } : row;
}

/** The speedup as the table prints it: "2.4×", "—" before the direct row is known. */
export const speedupText = (row) => (Number.isFinite(row.speedup) ? `${ratioText(row.speedup)}×` : '—');

/**
 * What the rows say, in sentences that only compare them: per size where both methods were
 * measured, which was faster and by how much, and what the unfolded matrix cost against the
 * image (core's col_bytes and input_bytes). `{sentences}`, or null before any size has both.
 */
export function convComparison(rows) {
  const sizes = [...new Set(rows.map((r) => r.size))].sort((a, b) => a - b);
  const at = (size, method) => rows.find((r) => r.size === size && r.method === method && r.stats?.median_ms > 0);
  const sentences = [];
  for (const size of sizes) {
    const direct = at(size, DIRECT);
    const unfolded = at(size, IM2COL);
    if (!direct || !unfolded) continue;
    const times = `${formatSig(unfolded.stats.median_ms)} ms against ${formatSig(direct.stats.median_ms)} ms`;
    const ratio = direct.stats.median_ms / unfolded.stats.median_ms;
    const verdict =
      ratioText(ratio) === '1'
        ? `im2col + matmul took the same time as the direct loops (${times})`
        : ratio > 1
          ? `im2col + matmul was ${ratioText(ratio)}× faster than the direct loops (${times})`
          : `im2col + matmul was ${ratioText(1 / ratio)}× slower than the direct loops (${times})`;
    const memory =
      `its unfolded matrix took ${formatBytes(unfolded.col_bytes)}, ${ratioText(unfolded.col_to_input)}× the ` +
      `${formatBytes(unfolded.input_bytes)} image`;
    sentences.push(`${shapeName(unfolded.shape)}: ${verdict}; ${memory}.`);
  }
  return sentences.length ? { sentences } : null;
}

export const TABLE_COLUMNS = Object.freeze([
  { label: 'convolution', format: (row) => shapeName(row.shape) },
  { key: 'method', label: 'method', format: 'text' },
  { key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'speedup', label: 'speedup vs direct', format: speedupText },
  { key: 'gflops_per_s', label: 'rate', unit: 'GFLOP/s', format: 'sig' },
  { key: 'col_bytes', label: 'unfolded matrix', format: (row) => (row.method === IM2COL ? formatBytes(row.col_bytes) : 'none') },
  { key: 'peak_bytes', label: 'peak memory (measured)', format: 'bytes' },
  ...SPREAD_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'method',
  { name: 'channels', value: (r) => r.shape?.channels },
  { name: 'height', value: (r) => r.shape?.height },
  { name: 'width', value: (r) => r.shape?.width },
  { name: 'filters', value: (r) => r.shape?.filters },
  { name: 'kernel', value: (r) => r.shape?.kernel },
  { name: 'stride', value: (r) => r.shape?.stride },
  { name: 'padding', value: (r) => r.shape?.padding },
  'flops',
  'input_bytes',
  'col_bytes',
  'col_to_input',
  'peak_bytes',
  'median_ms',
  'speedup',
  'gflops_per_s',
  'cv',
  'samples',
  'warning',
]);
