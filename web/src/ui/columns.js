// What a table column prints: the header text and one cell's text from a column declaration
// ({label, unit?, key?, format?, align?}: docs/EXPERIMENTS.md) and a row. Pure (no DOM), so
// node:test covers it; ui/table.js draws with it, experiment specs and CSV read the same paths.

import { FORMATS } from './format.js';

export function getPath(row, key) {
  return key.split('.').reduce((v, k) => (v === undefined || v === null ? undefined : v[k]), row);
}

/** "median (ms)" from {label: 'median', unit: 'ms'}. */
export function headerText(column) {
  return column.unit ? `${column.label} (${column.unit})` : column.label;
}

/** The text of one table cell: a format function of the row, or a named format of `key`. */
export function cellText(column, row) {
  if (typeof column.format === 'function') return String(column.format(row));
  const value = getPath(row, column.key);
  const format = FORMATS[column.format ?? (typeof value === 'number' ? 'sig' : 'text')];
  return format(value);
}

/** Text columns align left, numbers right (tabular digits). */
export function isTextColumn(column) {
  return column.align ? column.align === 'left' : column.format === 'text';
}

/**
 * The "warning" column of a row with several timed measurements, each core's timer stats under
 * its own key (the line after a run that warns points at this column): each non-empty timer
 * warning named by its measurement, "" when none warns.
 * @param {Array<[string, string]>} timed [key, name] pairs, e.g. [['sparse', 'sparse'], ['dense', 'dense']]
 */
export function timerWarningsColumn(timed) {
  return Object.freeze({
    label: 'warning',
    align: 'left',
    format: (row) =>
      timed
        .map(([key, name]) => [name, getPath(row, `${key}.warning`)])
        .filter(([, w]) => typeof w === 'string' && w !== '')
        .map(([name, w]) => `${name}: ${w}`)
        .join('; '),
  });
}
