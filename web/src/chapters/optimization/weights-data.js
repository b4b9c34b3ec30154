// The pure half of "Look at the weights" (weights-view.js): core's weight distribution
// (weightDistribution, optimize/weights.hpp) as table rows, one tensor's histogram bins with
// the median magnitude's rules, and the sentence beside the chart. No DOM and no statistic:
// core counts every figure; this file only arranges them.

import { formatInt, formatPercent, formatSig } from '../../ui/format.js';

/** The tensors a student may pick: every weight tensor, then all of them together. */
export const tensorsOf = (d) => [...d.tensors, d.all];

/** A magnitude percentile's value (50: the median |w|). */
export const magnitudeAt = (s, percentile) => s.magnitude_percentiles.find((p) => p.percentile === percentile)?.value;

/** The fraction of |w| below a threshold (0.01). */
export const fractionBelow = (s, threshold) => s.fraction_below.find((f) => f.threshold === threshold)?.fraction;

/** Core's bins as the chart's {x0, x1, count}; the last edge is the maximum itself. */
export function weightBins(s) {
  const { low, bin_width: width, counts } = s.histogram;
  if (width === 0) return [{ x0: low, x1: low, count: counts[0] }];
  return counts.map((count, i) => ({ x0: low + i * width, x1: i === counts.length - 1 ? s.max : low + (i + 1) * width, count }));
}

/** The rules at ± the median magnitude: half the tensor's weights lie between them. */
export function medianRules(s) {
  const m = magnitudeAt(s, 50);
  return [
    { x: -m, label: `−${formatSig(m)}` },
    { x: m, label: `+${formatSig(m)}` },
  ];
}

/** The table's columns (ui/table.js), core's fields. */
export const WEIGHT_COLUMNS = Object.freeze([
  { label: 'tensor', key: 'name', rowHeader: true, format: 'text' },
  { label: 'shape', align: 'left', format: (s) => (s.name === 'all' ? '—' : s.shape.join('×')) },
  { label: 'count', key: 'count', format: 'int' },
  { label: 'mean', key: 'mean', format: 'sig' },
  { label: 'std', key: 'std', format: 'sig' },
  { label: 'min', key: 'min', format: 'sig' },
  { label: 'max', key: 'max', format: 'sig' },
  ...[10, 50, 90].map((p) => ({ label: `|w| p${p}`, format: (s) => formatSig(magnitudeAt(s, p)) })),
  ...[0.001, 0.01, 0.1].map((t) => ({ label: `<${t}`, format: (s) => formatPercent(fractionBelow(s, t)) })),
]);

/** What the chart shows, in words read from the same figures. */
export function weightSentence(s, model) {
  const what = s.name === 'all' ? `all weight tensors of ${model} together` : `${s.name} (${s.layer_type} #${s.layer})`;
  const median = formatSig(magnitudeAt(s, 50));
  const pruning = s.name === 'all' ? 'Global magnitude pruning to 50% sparsity' : 'Pruning this tensor to 50% sparsity by magnitude';
  return (
    `In ${what}, half of the ${formatInt(s.count)} weights have a magnitude below ${median} (between the dashed lines), ` +
    `${formatPercent(fractionBelow(s, 0.01))} are below 0.01 and ${formatPercent(fractionBelow(s, 0.1))} below 0.1. ` +
    `${pruning} would zero every weight between the lines: the smallest go first.`
  );
}
