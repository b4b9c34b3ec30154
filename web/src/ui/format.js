// Number formats for tables, charts and status lines, by name so a spec's column can say
// `format: 'sig'`. Pure. Not for: CSV (which writes the raw numbers, unrounded).

/**
 * Three significant digits, never exponent notation for the ranges we show; from 1,000 up the
 * whole number with thousands separators, as counts are shown ("92,419 samples/s" beside
 * "235,146 parameters", not "92419").
 */
export function formatSig(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  if (Math.abs(Number(value.toPrecision(digits))) >= 1000) return formatInt(value);
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 6));
}

/** A fraction as a percentage with one decimal: 0.0385 -> "3.9%". */
export function formatPercent(fraction) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)}%` : '—';
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

/** The formats a table column may name. */
export const FORMATS = Object.freeze({
  text: formatText,
  sig: formatSig,
  percent: formatPercent,
  int: formatInt,
  bytes: formatBytes,
});
