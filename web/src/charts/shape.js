// Pure data shaping for the charts: wide rows to the long form Plot draws (one row per
// bar segment), a padded extent for log axes, and the roofline's two reference segments.
// No DOM and no Plot, so node:test covers it. Not for: any measured figure (core computes
// peak, bandwidth and intensity; this only turns them into line geometry).

import { getPath } from '../ui/columns.js';

/**
 * Wide rows to long: `[{model: 'mlp', parameter_bytes: 4, gradient_bytes: 4}]` with fields
 * parameter_bytes and gradient_bytes gives two rows `{model, series, value}`, one per field,
 * ready for a stacked or grouped BarChart (x: 'model', y: 'value', series: 'series').
 * @param {object[]} rows
 * @param {{fields: Array<{key: string, label?: string}>, keep?: string[],
 *          seriesKey?: string, valueKey?: string, scale?: number}} options `keep` copies
 *        those fields onto each long row; `scale` divides every value (e.g. 2**20 for MiB)
 */
export function toLong(rows, { fields, keep = [], seriesKey = 'series', valueKey = 'value', scale = 1 }) {
  if (!Array.isArray(fields) || fields.length === 0) throw new TypeError('toLong needs at least one field');
  if (!(scale > 0)) throw new RangeError(`toLong scale must be a positive number, got ${scale}`);
  const out = [];
  for (const row of rows) {
    const kept = Object.fromEntries(keep.map((k) => [k, getPath(row, k)]));
    for (const { key, label = key } of fields) {
      const value = getPath(row, key);
      out.push({ ...kept, [seriesKey]: label, [valueKey]: typeof value === 'number' ? value / scale : value });
    }
  }
  return out;
}

/**
 * [min / pad, max × pad] over the positive finite values, for a log axis that leaves room
 * around the points; null when there is no such value.
 */
export function logExtent(values, pad = 2) {
  const positive = values.filter((v) => Number.isFinite(v) && v > 0);
  if (positive.length === 0) return null;
  return [Math.min(...positive) / pad, Math.max(...positive) * pad];
}

/**
 * The roofline's reference segments over an arithmetic-intensity domain [lo, hi]
 * (FLOP/byte): the bandwidth diagonal y = bandwidth × x from lo up to the ridge point, and
 * the horizontal peak from the ridge to hi. A ridge outside the domain leaves only the part
 * that is inside. GB/s × FLOP/byte = GFLOP/s, so both lines are in GFLOP/s.
 * The bandwidth segment also carries labelX/labelY, halfway along it on log axes.
 * @returns {Array<{x1: number, y1: number, x2: number, y2: number, label: string, kind: string}>}
 */
export function rooflineReferences({ peak_gflops_per_s, bandwidth_gb_per_s, xDomain, peakLabel, bandwidthLabel }) {
  if (!(peak_gflops_per_s > 0)) throw new RangeError(`peak must be a positive GFLOP/s, got ${peak_gflops_per_s}`);
  if (!(bandwidth_gb_per_s > 0)) throw new RangeError(`bandwidth must be a positive GB/s, got ${bandwidth_gb_per_s}`);
  const [lo, hi] = xDomain ?? [];
  if (!(lo > 0 && hi > lo))
    throw new RangeError(`xDomain must be [lo, hi] with 0 < lo < hi, got ${JSON.stringify(xDomain)}`);
  const ridge = peak_gflops_per_s / bandwidth_gb_per_s;
  const segments = [];
  if (ridge > lo) {
    const x2 = Math.min(ridge, hi);
    const labelX = Math.sqrt(lo * x2); // halfway along the diagonal on a log axis
    segments.push({
      kind: 'bandwidth',
      x1: lo,
      y1: bandwidth_gb_per_s * lo,
      x2,
      y2: bandwidth_gb_per_s * x2,
      labelX,
      labelY: bandwidth_gb_per_s * labelX,
      label: bandwidthLabel ?? `memory ${round3(bandwidth_gb_per_s)} GB/s`,
    });
  }
  if (ridge < hi) {
    segments.push({
      kind: 'peak',
      x1: Math.max(ridge, lo),
      y1: peak_gflops_per_s,
      x2: hi,
      y2: peak_gflops_per_s,
      label: peakLabel ?? `peak ${round3(peak_gflops_per_s)} GFLOP/s`,
    });
  }
  return segments;
}

function round3(value) {
  return Number(value.toPrecision(3));
}
