// Number formats for tables, charts and status lines, by name so a spec's column can say
// `format: 'sig'`. Pure. Not for: CSV (which writes the raw numbers, unrounded).

/**
 * Three significant digits in positional notation at every magnitude, so one column never mixes
 * "5.57e-7" with "0.0000886" and a tiny value keeps its digits (0.000000557, not "0.000001");
 * from 1,000 up the whole number with thousands separators, as counts are shown ("92,419
 * samples/s" beside "235,146 parameters", not "92419"). A column whose values span many
 * decades (fitted coefficients) names `formatSci` instead.
 */
export function formatSig(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const rounded = Number(value.toPrecision(digits));
  if (Math.abs(rounded) >= 1000) return formatInt(value);
  // The magnitude after rounding: 0.0099996 is "0.0100", not "0.01000".
  const magnitude = Math.floor(Math.log10(Math.abs(rounded)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return rounded.toFixed(Math.min(decimals, 100));
}

const SUPERSCRIPT = Object.freeze({ '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' });

/**
 * Scientific notation with three significant digits, for every value of a column whose values
 * span decades: 5.57e-7 -> "5.57 × 10⁻⁷", 0.0000886 -> "8.86 × 10⁻⁵", 1.5 -> "1.50 × 10⁰".
 */
export function formatSci(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const [mantissa, exponent] = value.toExponential(digits - 1).split('e');
  const power = String(Number(exponent)).replace(/./g, (c) => SUPERSCRIPT[c]);
  return `${mantissa} × 10${power}`;
}

/**
 * Points as a score is read and as the gradebook writes it: at most two decimals, no trailing
 * zeros (3.75 -> "3.75", 2.5 -> "2.5", 10 -> "10", 10/3 -> "3.33").
 */
export function formatPoints(value) {
  return Number.isFinite(value) ? String(Math.round(value * 100) / 100) : '—';
}

/**
 * A fraction as a percentage with one decimal: 0.0385 -> "3.9%"; with `digits` decimals
 * (0.8985, 2 -> "89.85%": accuracies whose difference a sentence quotes in points).
 */
export function formatPercent(fraction, digits = 1) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)}%` : '—';
}

/**
 * A change (new / base − 1) as a signed percentage, three significant digits but never finer
 * than 0.01%, so a column of changes reads in one resolution: 0.0179 -> "+1.79%",
 * -0.594 -> "-59.4%", 1.48 -> "+148%", 3.69e-9 -> "+0.00%" (not "+0.000000369%").
 */
export function formatChange(fraction) {
  if (!Number.isFinite(fraction)) return '—';
  if (fraction === 0) return '0%';
  const magnitude = Math.abs(100 * fraction);
  const rounded = Number(magnitude.toPrecision(3));
  if (rounded >= 1000) return `${fraction > 0 ? '+' : '-'}${formatInt(magnitude)}%`;
  const decimals = rounded < 0.01 ? 2 : Math.min(2, Math.max(0, 2 - Math.floor(Math.log10(rounded))));
  return `${fraction > 0 ? '+' : '-'}${rounded.toFixed(decimals)}%`;
}

/** An integer with thousands separators: 2362368 -> "2,362,368". */
export function formatInt(value) {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

/** Bytes in binary units with three significant digits: 1536 -> "1.50 KiB". */
export function formatBytes(bytes) {
  if (!Number.isFinite(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${formatSig(value)} ${units[unit]}`;
}

/** Anything as text; null and undefined as an empty cell. */
export function formatText(value) {
  return value === undefined || value === null ? '' : String(value);
}

/** Seconds with one decimal under a minute, then minutes and seconds: "4.2 s", "2 min 05 s". */
export function formatElapsed(ms) {
  const seconds = Math.max(0, ms) / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.floor(seconds);
  return `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
}

/** A count with its noun, singular for one: (1, 'point') -> "1 point", (8, 'point') -> "8 points". */
export function formatCount(n, singular, plural = `${singular}s`) {
  return `${formatInt(n)} ${n === 1 ? singular : plural}`;
}

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A small count in words, as prose writes it: 2 -> "two"; from 13 on, digits ("13"). */
export function countWord(n) {
  return Number.isInteger(n) && n >= 0 && n < WORDS.length ? WORDS[n] : formatInt(n);
}

/** Items in prose: ["a"] -> "a", ["a", "b"] -> "a and b", ["a", "b", "c"] -> "a, b and c". */
export function formatList(items) {
  const xs = [...items].map(String);
  return xs.length < 2 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}`;
}

/** The formats a table column may name. */
export const FORMATS = Object.freeze({
  text: formatText,
  sig: formatSig,
  sci: formatSci,
  percent: formatPercent,
  int: formatInt,
  bytes: formatBytes,
});
