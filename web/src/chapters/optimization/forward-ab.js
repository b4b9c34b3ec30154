// A row of core's forward A/B of two held models (forwardAB: A the baseline, B the transformed
// model), as the quantization and structured-pruning sections tabulate it, and its ratio cell.
// Pure. Not for: the comparison itself (core's run_ab) or a section's own columns.

import { formatSig } from '../../ui/format.js';

/** {batch, a_ms, b_ms (the medians), speedup (A ÷ B), low, high (its interval), verdict (core's name), word, rounds}. */
export function forwardAbRow(ab) {
  const c = ab.comparison;
  return {
    batch: ab.batch,
    a_ms: c.median_a,
    b_ms: c.median_b,
    speedup: c.ratio,
    low: c.ratio_interval.low,
    high: c.ratio_interval.high,
    verdict: c.verdict.name,
    word: c.verdict.word,
    rounds: ab.a_ms.length,
  };
}

/** The ratio with its interval: "2.5× (2.35–2.81)". */
export const ratioCell = (r) => `${formatSig(r.speedup)}× (${formatSig(r.low)}–${formatSig(r.high)})`;
