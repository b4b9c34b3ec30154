// Pure helpers of the "matmul: loops vs SIMD" experiment: the sweep plan (sizes and timer
// budgets, normal or quick), number formatting for the table, and the CSV export.
// No DOM and no measuring (core measures; this only arranges and prints its rows).

/**
 * The normal sweep takes roughly 10-30 s on a slow laptop: small sizes are bounded by
 * samples × min_sample_ms, large ones by max_total_ms per point (the budget then stops
 * sampling early, and core's warning says so). 12 samples because core warns below 10
 * kept samples, and the Tukey fences may drop one or two.
 */
export const FULL_SWEEP = Object.freeze({
  sizes: [32, 48, 64, 96, 128, 192, 256, 384, 512],
  options: { warmup: 1, samples: 12, min_sample_ms: 10, max_total_ms: 1500 },
});

/**
 * `?quick=1` in the page URL: three sizes and small budgets, a few seconds in all. Meant
 * for a quick look and for the browser tests; the numbers are noisier.
 */
export const QUICK_SWEEP = Object.freeze({
  sizes: [32, 64, 128],
  options: { warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 150 },
});

/** @param {string} search a location.search string such as "?quick=1" */
export function isQuick(search) {
  const value = new URLSearchParams(search).get('quick');
  return value !== null && value !== '0' && value !== 'false';
}

export function sweepPlan(search) {
  const quick = isQuick(search);
  const plan = quick ? QUICK_SWEEP : FULL_SWEEP;
  return { quick, sizes: [...plan.sizes], options: { ...plan.options } };
}

/** Three significant digits, never exponent notation for the ranges we show. */
export function formatSig(value, digits = 3) {
  if (!Number.isFinite(value)) return '—';
  if (value === 0) return '0';
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  const decimals = Math.max(0, digits - 1 - magnitude);
  return value.toFixed(Math.min(decimals, 6));
}

export function formatPercent(fraction) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(1)}%` : '—';
}

/** A measured row as the strings the table shows, same order as TABLE_COLUMNS. */
export const TABLE_COLUMNS = Object.freeze([
  'N',
  'variant',
  'median (ms)',
  'GFLOP/s',
  '95% CI of median (ms)',
  'CV',
  'samples',
  'warning',
]);

export function tableCells(row) {
  const s = row.stats;
  const outliers = s.outliers ? ` (${s.outliers} dropped)` : '';
  return [
    String(row.n),
    row.variant,
    formatSig(s.median_ms),
    formatSig(row.gflops_per_s),
    `${formatSig(s.ci95_low_ms)} – ${formatSig(s.ci95_high_ms)}`,
    formatPercent(s.cv),
    `${s.samples}${outliers}`,
    s.warning || '',
  ];
}

/** CSV columns: the row's fields, then its stats, with the C++ names and units. */
export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'n',
  'flops',
  'gflops_per_s',
  'median_ms',
  'mean_ms',
  'stddev_ms',
  'min_ms',
  'max_ms',
  'p95_ms',
  'ci95_low_ms',
  'ci95_high_ms',
  'cv',
  'samples',
  'outliers',
  'inner_iterations',
  'resolution_ms',
  'warning',
]);

/** RFC 4180: quote a field holding a comma, a quote or a line break; double its quotes. */
export function csvField(value) {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One header line and one line per row, CRLF-terminated as RFC 4180 asks. */
export function toCsv(rows) {
  const lines = [CSV_COLUMNS.join(',')];
  for (const row of rows) {
    const flat = { ...row.stats, ...row };
    lines.push(CSV_COLUMNS.map((c) => csvField(flat[c])).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
