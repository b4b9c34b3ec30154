// Pure data shaping for the Benchmarking charts: a histogram's bins split at Tukey's fences,
// a box plot's whiskers and outliers from a sample and its fences, where the mean and median
// labels go, and fitted complexity curves grouped into drawable series. No DOM and no Plot,
// so node:test covers it. Not for: any statistic (core computes mean, median, quartiles and
// fences; this only counts samples into bins and picks those outside the given fences).

const WITHIN = 'within fences';
const OUTLIER = 'Tukey outlier';
export const HISTOGRAM_PARTS = Object.freeze([WITHIN, OUTLIER]);

function finiteArray(values, name) {
  if (!Array.isArray(values)) throw new TypeError(`${name} must be an array of numbers`);
  values.forEach((v, i) => {
    if (!Number.isFinite(v)) throw new RangeError(`${name}[${i}] must be a finite number, got ${v}`);
  });
  return values;
}

/**
 * How many equal-width bins a histogram of `n` values over [min, max] gets: the
 * Freedman-Diaconis width 2·IQR/∛n, or Sturges' ⌈log2 n⌉ + 1 bins when the IQR is 0,
 * clamped to [1, maxBins]. One bin when every value is the same.
 */
export function binCount({ n, iqr, min, max }, maxBins = 60) {
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`n must be a whole number ≥ 0, got ${n}`);
  if (!(Number.isInteger(maxBins) && maxBins >= 1)) {
    throw new RangeError(`maxBins must be a whole number ≥ 1, got ${maxBins}`);
  }
  const range = max - min;
  if (n < 2 || !(range > 0)) return 1;
  const bins = iqr > 0 ? Math.ceil(range / ((2 * iqr) / Math.cbrt(n))) : Math.ceil(Math.log2(n)) + 1;
  return Math.max(1, Math.min(maxBins, bins));
}

/**
 * Equal-width bins over [min, max] of the values (the last bin includes max), each split into
 * the samples inside [lowerFence, upperFence] and those outside it. Returns only non-empty
 * parts: `{x0, x1, count, part}` with part 'within fences' or 'Tukey outlier', ready for a
 * stacked rectangle mark. Fences default to ±Infinity (no outliers). Equal values get one bin
 * of width 1% of their magnitude (1 when they are 0) so the bar has a width.
 */
export function histogram(values, { bins, lowerFence = -Infinity, upperFence = Infinity } = {}) {
  finiteArray(values, 'values');
  if (values.length === 0) return [];
  if (!(Number.isInteger(bins) && bins >= 1)) throw new RangeError(`bins must be a whole number ≥ 1, got ${bins}`);
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min === max) {
    const half = (Math.abs(min) * 0.01 || 1) / 2;
    min -= half;
    max += half;
    bins = 1;
  }
  const width = (max - min) / bins;
  const counts = Array.from({ length: bins }, () => [0, 0]);
  for (const v of values) {
    const i = Math.min(bins - 1, Math.floor((v - min) / width));
    counts[i][v < lowerFence || v > upperFence ? 1 : 0] += 1;
  }
  const rows = [];
  counts.forEach(([within, outside], i) => {
    // The last edge is max itself, not min + bins·width (which can miss max by a rounding).
    const x0 = min + i * width;
    const x1 = i === bins - 1 ? max : min + (i + 1) * width;
    if (within > 0) rows.push({ x0, x1, count: within, part: WITHIN });
    if (outside > 0) rows.push({ x0, x1, count: outside, part: OUTLIER });
  });
  return rows;
}

/**
 * A box plot from core's quartiles and fences: the box from p25 to p75 with the median, the
 * whiskers at the most extreme samples still inside the fences, and every sample outside them.
 * @param {number[]} values the sample
 * @param {{p25: number, median: number, p75: number, lower_fence: number, upper_fence: number}} summary
 * @returns {{q1: number, median: number, q3: number, whiskerLow: number, whiskerHigh: number, outliers: number[]}}
 */
export function boxPlot(values, { p25, median, p75, lower_fence, upper_fence }) {
  finiteArray(values, 'values');
  if (values.length === 0) throw new RangeError('boxPlot needs at least one value');
  let whiskerLow = Infinity;
  let whiskerHigh = -Infinity;
  const outliers = [];
  for (const v of values) {
    if (v < lower_fence || v > upper_fence) {
      outliers.push(v);
    } else {
      whiskerLow = Math.min(whiskerLow, v);
      whiskerHigh = Math.max(whiskerHigh, v);
    }
  }
  // Every sample outside the fences cannot happen with core's fences (the quartiles lie
  // between them); if it does, the whiskers collapse onto the box rather than vanish.
  if (whiskerLow === Infinity) [whiskerLow, whiskerHigh] = [p25, p75];
  return { q1: p25, median, q3: p75, whiskerLow, whiskerHigh, outliers };
}

/**
 * The median's and mean's labelled rules over an x domain [lo, hi]: the median's label on the
 * first line under the frame's top, the mean's on the second, so close rules keep readable
 * labels; each label runs right of its rule in the left half of the domain and left of it in
 * the right half, so it stays inside the frame.
 * @param {(value: number) => string} format the value's text with its unit
 */
export function centreRules(mean, median, format, [lo, hi]) {
  const anchor = (x) => (x <= (lo + hi) / 2 ? 'start' : 'end');
  return [
    { key: 'median', x: median, label: `median ${format(median)}`, anchor: anchor(median), line: 0 },
    { key: 'mean', x: mean, label: `mean ${format(mean)}`, anchor: anchor(mean), line: 1 },
  ];
}

/**
 * Fitted complexity curves ready for a line mark on log-log axes: rows with a positive,
 * finite n and value, sorted by n within each (series, fit) line, each carrying its line's
 * key in `line`; `fits` lists the classes in the order they first appear (core sends them
 * best first) for the legend.
 * @param {Array<{n: number, value: number, fit: string, series?: string}>} curves
 * @returns {{rows: Array<object>, fits: string[]}}
 */
export function curveSeries(curves) {
  if (!Array.isArray(curves)) throw new TypeError('curves must be an array of {n, value, fit}');
  const fits = [];
  const rows = [];
  curves.forEach((c, i) => {
    if (typeof c?.fit !== 'string' || c.fit === '') {
      throw new TypeError(`curves[${i}].fit must name a complexity class`);
    }
    if (!fits.includes(c.fit)) fits.push(c.fit);
    if (Number.isFinite(c.n) && c.n > 0 && Number.isFinite(c.value) && c.value > 0) {
      rows.push({ ...c, line: c.series === undefined ? c.fit : `${c.series} · ${c.fit}` });
    }
  });
  rows.sort((a, b) => (a.line < b.line ? -1 : a.line > b.line ? 1 : a.n - b.n));
  return { rows, fits };
}
