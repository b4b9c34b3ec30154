// The pure half of the structured-pruning section (optimization-structured): the layer table
// from core's prune report, the fine-tuning curve's rows (test accuracy after each epoch,
// epoch 0 the pruned model before any), the latency rows from core's forward A/Bs, the
// made-models entry's name and lineage, and the sentences under the results, each read from
// those rows. No DOM, no statistic: core prunes, trains, evaluates and compares.

import { formatCount, formatInt, formatPercent, formatPoints, formatSig } from '../../ui/format.js';
import { forwardAbRow, ratioCell } from './forward-ab.js';

export const STRUCTURED_ID = 'optimization-structured';
export const CURVE_SERIES = 'pruned, then fine-tuned';

/** A fraction as the select shows it: "50% of the hidden units". */
export const fractionLabel = (f) => `${Math.round(100 * f)}% of the hidden units`;

/** One row per pruned layer, and the totals row: parameters, bytes and FLOPs before and after. */
export function layerRows(report) {
  if (!report?.layers) throw new Error('core’s prune report has no layers');
  return report.layers.map((l) => ({
    layer: `layers[${l.layer}] ${l.type}`,
    before: l.before,
    after: l.after,
    kept: l.after / l.before,
  }));
}

/** The whole model before and after, from core's report (bytes are 4 per float parameter). */
export function sizeRows(report, bytesBefore, bytesAfter) {
  return [
    { what: 'parameters', before: report.parameters_before, after: report.parameters_after, ratio: report.parameters_after / report.parameters_before },
    { what: 'parameter bytes', before: bytesBefore, after: bytesAfter, ratio: bytesAfter / bytesBefore },
    { what: 'forward FLOPs per image (core’s total)', before: report.flops_before, after: report.flops_after, ratio: report.flops_after / report.flops_before },
  ];
}

/**
 * The fine-tuning curve: epoch 0 is the pruned model before fine-tuning, then one point per
 * fine-tuned epoch evaluated on the test split.
 * @param {number} prunedAccuracy
 * @param {Array<{epoch: number, accuracy: number}>} tuned
 */
export function curveRows(prunedAccuracy, tuned) {
  return [{ epoch: 0, accuracy: prunedAccuracy, series: CURVE_SERIES }, ...tuned.map((t) => ({ epoch: t.epoch, accuracy: t.accuracy, series: CURVE_SERIES }))];
}

/**
 * A y domain for accuracies that shows their differences: from a little below the lowest to a
 * little above the highest, within [0, 1] (a 0-100% axis flattens a few points into a line).
 */
export function accuracyDomain(values) {
  const finite = values.filter(Number.isFinite);
  if (finite.length === 0) return [0, 1];
  const lo = Math.min(...finite);
  const hi = Math.max(...finite);
  return [Math.max(0, Math.floor((lo - 0.02) * 50) / 50), Math.min(1, Math.ceil((hi + 0.01) * 50) / 50)];
}

/** A forward A/B's row (core's forwardAB answer: A the baseline, B the pruned model). */
export function latencyRow(ab) {
  return { ...forwardAbRow(ab), flop_ratio: ab.flops_per_sample_a / ab.flops_per_sample_b };
}

export const LATENCY_COLUMNS = Object.freeze([
  { key: 'batch', label: 'batch', format: 'int' },
  { key: 'a_ms', label: 'baseline (median)', unit: 'ms', format: 'sig' },
  { key: 'b_ms', label: 'pruned (median)', unit: 'ms', format: 'sig' },
  { label: 'baseline ÷ pruned', format: ratioCell },
  { key: 'word', label: 'pruned is', format: 'text' },
  { label: 'FLOP ratio', format: (r) => `${formatSig(r.flop_ratio)}×` },
]);

/**
 * The rows an exercise grades from (optimization.structured-layer): the pruned model's Linear
 * layers in order, {linear, in, out}, read from core's spec of it.
 */
export function evidenceRows(spec) {
  return spec.layers.filter((l) => l.type === 'Linear').map((l, linear) => ({ linear, in: l.in, out: l.out }));
}

/** The made-models entry's name and lineage for a pruned (and fine-tuned) baseline. */
export function madeEntry(fraction, epochs) {
  const percent = Math.round(100 * fraction);
  return {
    name: `structured pruning, ${percent}% of hidden units removed${epochs > 0 ? `, fine-tuned ${formatCount(epochs, 'epoch')}` : ''}`,
    lineage: [`structured prune ${percent}%`, ...(epochs > 0 ? [`fine-tune ${formatCount(epochs, 'epoch')}`] : [])],
  };
}

// A difference of two accuracies in percentage points, as the sentences write it: "1.23 points",
// beside the accuracies to two decimals, so that the difference of the printed ones is the one quoted.
const points = (a, b) => `${formatPoints(Math.abs(100 * (a - b)))} points`;
const accuracy = (a) => formatPercent(a, 2);

/** What pruning cut and what fine-tuning won back, read from the accuracies. */
export function accuracySentences({ baseline, pruned, tuned }) {
  const out = [];
  const lost = baseline - pruned;
  out.push(
    lost > 0
      ? `Pruning alone took the test accuracy from ${accuracy(baseline)} to ${accuracy(pruned)}, ${points(baseline, pruned)} lower.`
      : `Pruning alone left the test accuracy at ${accuracy(pruned)} against the baseline’s ${accuracy(baseline)}: these units carried little.`,
  );
  if (tuned.length > 0) {
    const last = tuned.at(-1);
    const best = tuned.reduce((b, t) => (t.accuracy > b.accuracy ? t : b));
    const gap = baseline - last.accuracy;
    const back = lost > 0 ? ` (${formatPercent(Math.max(0, Math.min(1, (last.accuracy - pruned) / lost)))} of what pruning lost won back)` : '';
    out.push(
      `After ${formatCount(last.epoch, 'epoch')} of fine-tuning it reads ${accuracy(last.accuracy)}${back}, ` +
        (gap > 0 ? `${points(baseline, last.accuracy)} below the baseline.` : `${points(baseline, last.accuracy)} above the baseline.`) +
        (best.epoch !== last.epoch ? ` The best epoch was ${formatInt(best.epoch)} (${accuracy(best.accuracy)}).` : ''),
    );
  }
  return out;
}

/** What the latency rows say against the FLOP ratio. */
export function latencySentences(rows) {
  return rows.map((r) => {
    const speed =
      r.verdict === 'faster'
        ? `the pruned forward ran ${formatSig(r.speedup)}× as fast as the baseline’s`
        : r.verdict === 'slower'
          ? `the pruned forward ran slower than the baseline’s (${formatSig(r.speedup)}×)`
          : `core found no clear difference between the two forwards (${formatSig(r.speedup)}×)`;
    const share = r.speedup / r.flop_ratio;
    // Above or below the FLOP ratio only when core's interval of the speedup says so too.
    const against =
      r.verdict !== 'faster'
        ? ''
        : share > 1.1 && r.low > r.flop_ratio
          ? `, more than the ${formatSig(r.flop_ratio)}× fewer FLOPs alone predict`
          : share < 0.9 && r.high < r.flop_ratio
            ? `, ${formatPercent(share)} of what the ${formatSig(r.flop_ratio)}× fewer FLOPs predict: the part of a forward that does not shrink with the units (each call’s fixed cost, the outputs’ writes) keeps its size`
            : share >= 0.9 && share <= 1.1
              ? `, about what the ${formatSig(r.flop_ratio)}× fewer FLOPs predict`
              : `; the speedup’s interval (${formatSig(r.low)}–${formatSig(r.high)}×) holds the ${formatSig(r.flop_ratio)}× fewer FLOPs, so this run cannot tell it from what they predict`;
    return `At batch ${formatInt(r.batch)}: ${speed} (medians ${formatSig(r.a_ms)} and ${formatSig(r.b_ms)} ms over ${formatInt(r.rounds)} interleaved rounds)${against}.`;
  });
}
