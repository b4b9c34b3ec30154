// CSV export of experiment rows (RFC 4180): rows are flattened one level (a nested object
// such as `stats` lends its fields, top-level fields win), then columns are picked by name
// or computed. Pure. Not for: the download itself (experiment.js makes the Blob).

/** RFC 4180: quote a field holding a comma, a quote or a line break; double its quotes. */
export function csvField(value) {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The timing columns every measured row shares, in this order: fields of core's Stats
 * (timer.hpp), which `flattenRow` lifts out of a row's `stats`. Experiments add their own
 * extra statistics (outliers, inner_iterations, …) after these.
 */
export const STATS_CSV_COLUMNS = Object.freeze(['median_ms', 'min_ms', 'ci95_low_ms', 'ci95_high_ms', 'cv', 'samples']);

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** `{build, stats: {median_ms}}` -> `{median_ms, build}`: nested fields first, so top-level wins. */
export function flattenRow(row) {
  const nested = {};
  const top = {};
  for (const [key, value] of Object.entries(row)) {
    if (isPlainObject(value)) Object.assign(nested, value);
    else top[key] = value;
  }
  return { ...nested, ...top };
}

/** Every flattened field name, in first-seen order: the CSV columns when a spec names none. */
export function columnsOf(rows) {
  const names = new Set();
  for (const row of rows) for (const key of Object.keys(flattenRow(row))) names.add(key);
  return [...names];
}

/**
 * One header line and one CRLF-terminated line per row.
 * @param {object[]} rows
 * @param {Array<string|{name: string, value: (row: object) => any}>} [columns] a name picks
 *        that field of the flattened row; `{name, value}` computes a column from the row
 */
export function toCsv(rows, columns = columnsOf(rows)) {
  const names = columns.map((c) => (typeof c === 'string' ? c : c.name));
  const lines = [names.map(csvField).join(',')];
  for (const row of rows) {
    const flat = flattenRow(row);
    lines.push(columns.map((c) => csvField(typeof c === 'string' ? flat[c] : c.value(row))).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}
