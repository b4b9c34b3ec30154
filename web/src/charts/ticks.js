// Axis ticks in the units the tables use: which values a log axis marks (every one of them
// labelled) and the text of a tick, bytes in binary units ("4 KiB", "1.5 MiB") and other
// numbers with k, M, G ("200k", "1M") rather than "200000" or "1e+6". Pure (no DOM, no
// Plot), so node:test covers it. Not for: the values drawn (they arrive computed).

const MINUS = '−'; // as Plot writes negative ticks

/** Up to three significant digits, trailing zeros dropped: 1.50 -> "1.5", 200 -> "200". */
function short(value) {
  if (value === 0) return '0';
  const text = Number(Math.abs(value).toPrecision(3));
  // Below 1e-6 toPrecision leaves an exponent; such ticks are rare enough to keep it.
  return `${value < 0 ? MINUS : ''}${text.toString()}`;
}

const COUNT_UNITS = Object.freeze([
  [1e12, 'T'],
  [1e9, 'G'],
  [1e6, 'M'],
  [1e3, 'k'],
]);

/**
 * A count or any plain number: 250 -> "250", 1024 -> "1024" (whole numbers below 10,000 in
 * full, as a batch or a matrix size is read), 200000 -> "200k", 1e6 -> "1M", 0.05 -> "0.05".
 */
export function formatCountTick(value) {
  if (typeof value !== 'number') return value === undefined || value === null ? '' : String(value);
  if (!Number.isFinite(value)) return '';
  const magnitude = Math.abs(value);
  if (magnitude < 1e4 && Number.isInteger(value)) return `${value < 0 ? MINUS : ''}${magnitude}`;
  for (const [size, unit] of COUNT_UNITS) {
    // 999.9 rounds to "1k" rather than "1000": compare after rounding to three digits.
    if (Number(magnitude.toPrecision(3)) >= size) return `${short(value / size)}${unit}`;
  }
  return short(value);
}

const BYTE_UNITS = Object.freeze(['B', 'KiB', 'MiB', 'GiB', 'TiB']);

/** Bytes in binary units as the tables print them: 512 -> "512 B", 4096 -> "4 KiB", 1572864 -> "1.5 MiB". */
export function formatBytesTick(value) {
  if (typeof value !== 'number') return value === undefined || value === null ? '' : String(value);
  if (!Number.isFinite(value)) return '';
  let scaled = Math.abs(value);
  let unit = 0;
  while (scaled >= 1024 && unit < BYTE_UNITS.length - 1) {
    scaled /= 1024;
    unit += 1;
  }
  // 1023 B stays "1023 B", not "1020 B"; below 1000 three digits are enough.
  const digits = scaled >= 1000 ? String(Math.round(scaled)) : short(scaled);
  return `${value < 0 ? MINUS : ''}${digits} ${BYTE_UNITS[unit]}`;
}

/**
 * The tick text function for an axis: 'bytes', 'count' (the default, for any number) or a
 * function of the value.
 */
export function tickFormatter(format) {
  if (typeof format === 'function') return format;
  if (format === undefined || format === null || format === 'count') return formatCountTick;
  if (format === 'bytes') return formatBytesTick;
  throw new TypeError(`an axis format is 'bytes', 'count' or a function, got ${JSON.stringify(format)}`);
}

/**
 * [base^floor, base^ceil] around the positive finite values: the domain of a log axis that
 * starts and ends on a labelled power; null when there is no such value.
 */
export function niceLogDomain(values, base = 10) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (Number.isFinite(v) && v > 0) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  if (lo === Infinity) return null;
  const log = (v) => Math.log(v) / Math.log(base);
  // A hair of slack so that 1000 (log 2.9999999) stays 1000 and does not become 10000.
  const low = base ** Math.floor(log(lo) + 1e-9);
  let high = base ** Math.ceil(log(hi) - 1e-9);
  if (high <= low) high = low * base;
  return [low, high];
}

/** [min, max] of the positive finite values (a log axis fitted to the data), or null. */
export function logExtentOf(values) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (Number.isFinite(v) && v > 0) [lo, hi] = [Math.min(lo, v), Math.max(hi, v)];
  }
  if (lo === Infinity) return null;
  // Equal values, or equal to a millionth (a timer's repeats, a ratio of two equal medians),
  // get an octave either side: an axis a millionth wide would mark rounding noise.
  return hi / lo < 1 + 1e-6 ? [lo / 2, hi * 2] : [lo, hi];
}

// Round steps (1, 2, 5 times a power of ten) from lo to hi, at least `min` of them: the marks of
// a log axis narrower than a decade, where multiples of powers leave too few (0.95, 1, 1.05).
// Returns the rule: the marks between any two values at the step chosen for [lo, hi].
// Beyond [lo, hi] the rule can span far more steps than the axis (tickedLogDomain asks it for
// a decade either side, and values 1 and 1.0000001 make the step 2e-8): there it gives the
// END_MARKS marks nearest each end, which is all a widening needs, instead of a loop that
// froze the page for seconds and then threw "Invalid array length".
const END_MARKS = 50;
function evenRule(lo, hi, min = 3) {
  const marks = (step) => (l, h) => {
    const first = Math.max(1, Math.ceil(l / step - 1e-9));
    const last = Math.floor((h * (1 + 1e-9)) / step);
    const ks = [];
    if (!(last - first < 2 * END_MARKS)) {
      for (let k = first; k < first + END_MARKS; k += 1) ks.push(k);
      for (let k = last - END_MARKS + 1; k <= last; k += 1) ks.push(k);
    } else {
      for (let k = first; k <= last; k += 1) ks.push(k);
    }
    return ks.map((k) => Number((k * step).toPrecision(12))).filter((v) => v >= l * (1 - 1e-9) && v <= h * (1 + 1e-9));
  };
  for (const target of [5, 8, 12]) {
    const raw = (hi - lo) / target;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
    if (marks(step)(lo, hi).length >= min) return marks(step);
  }
  return (l, h) => [l, h].map((v) => Number(v.toPrecision(3)));
}

// Multiples of each power of ten to mark, sparser as the axis spans more decades.
const DECADE_STEPS = Object.freeze([
  [1.2, [1, 2, 3, 5]],
  [3.2, [1, 2, 5]],
  [5.2, [1, 3]],
]);

// Multiples of powers of `base` in [lo, hi]: each power's exponent divisible by `step`, times
// each of `multiples`.
const powerRule = (base, multiples, step = 1) => (lo, hi) => {
  const inside = (v) => v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9);
  const log = (v) => Math.log(v) / Math.log(base);
  const ticks = [];
  for (let e = Math.floor(log(lo) + 1e-9) - 1; e <= Math.ceil(log(hi) - 1e-9); e += 1) {
    if (e % step !== 0) continue;
    for (const m of multiples) {
      const v = base === 10 ? Number((m * 10 ** e).toPrecision(12)) : m * base ** e;
      if (inside(v)) ticks.push(v);
    }
  }
  return ticks;
};

/**
 * Which values a log axis over `domain` marks, as a rule `(lo, hi) => marks in [lo, hi]`, so
 * the same marks can be found beyond the domain (tickedLogDomain); null for no positive domain.
 */
function logTickRule(domain, { base = 10, maxTicks = 10 } = {}) {
  const [a, b] = domain ?? [];
  if (!(a > 0 && b > 0)) return null;
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  if (base !== 10) {
    const count = powerRule(base, [1])(lo, hi).length;
    // Keep the exponents divisible by the step, so the marks are the same whatever the ends.
    return powerRule(base, [1], Math.max(1, Math.ceil(count / maxTicks)));
  }
  const decades = Math.log10(hi / lo);
  if (decades < 1) return evenRule(lo, hi);
  for (const [span, multiples] of DECADE_STEPS) {
    if (decades > span) continue;
    const count = powerRule(10, multiples)(lo, hi).length;
    if (count <= maxTicks && count >= 2) return powerRule(10, multiples);
  }
  const count = powerRule(10, [1])(lo, hi).length;
  return powerRule(10, [1], Math.max(1, Math.ceil(count / maxTicks)));
}

/**
 * The values a log axis over `domain` marks, all of them labelled (`maxTicks` or fewer, at
 * least the two ends' powers when the domain holds them). Base 2: powers of two, every k-th
 * one when there are many (4 KiB, 16 KiB, 64 KiB). Base 10: powers of ten, with 2× and 5×
 * (or more) between them when the axis spans few decades.
 */
export function logTicks(domain, options = {}) {
  const rule = logTickRule(domain, options);
  if (!rule) return [];
  const [a, b] = domain;
  return rule(Math.min(a, b), Math.max(a, b));
}

/**
 * The extent of the positive finite values widened to the nearest marked value beyond each
 * end, so the axis's labels reach past its points and nothing drawn ends on the frame's edge
 * as if cut: ratios 0.28 to 3.6 get [0.2, 5], peaks 9.8 to 46 get [5, 50]. Null when there
 * is no such value.
 */
export function tickedLogDomain(values, { base = 10, maxTicks = 10 } = {}) {
  let domain = logExtentOf(values);
  if (!domain) return null;
  const factor = base === 10 ? 10 : base ** 2;
  // Even steps under a decade have no positive mark below a low end smaller than the step
  // (9.8 with steps of 10): there the 1-2-3-5 marks of the decade take over.
  const fallback = base === 10 ? powerRule(10, [1, 2, 3, 5]) : powerRule(base, [1]);
  // Widening can make the marks sparser (more decades): settle in a few rounds.
  for (let round = 0; round < 4; round += 1) {
    const [lo, hi] = domain;
    const rule = logTickRule(domain, { base, maxTicks });
    const atOrBelow = (marks) => marks.filter((v) => v > 0 && v <= lo * (1 + 1e-9)).at(-1);
    const atOrAbove = (marks) => marks.filter((v) => v >= hi * (1 - 1e-9))[0];
    const next = [
      atOrBelow(rule(lo / factor, lo)) ?? atOrBelow(fallback(lo / factor, lo)) ?? lo,
      atOrAbove(rule(hi, hi * factor)) ?? atOrAbove(fallback(hi, hi * factor)) ?? hi,
    ];
    if (next[0] === lo && next[1] === hi) break;
    domain = next;
  }
  return domain;
}
