// The columns of a timed kernel row in the Acceleration chapter's tables and CSV files: core's
// timer statistics under `stats` beside the row's rate, written once so every experiment shows
// and exports them alike. Not for: an experiment's own fields (each <slot>-data.js lists
// those around these).

/** Table: the median time of one call. */
export const MEDIAN_COLUMN = Object.freeze({ key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' });

/** Table: the rate the median gives. */
export const RATE_COLUMN = Object.freeze({ key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' });

/** Table: how far the samples spread, and the timer's warning; the last columns of every table. */
export const SPREAD_COLUMNS = Object.freeze([
  { key: 'stats.cv', label: 'CV', format: 'percent' },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

/** Table: median, GFLOP/s, CV and warning, after a row's own columns. */
export const TIMED_COLUMNS = Object.freeze([MEDIAN_COLUMN, RATE_COLUMN, ...SPREAD_COLUMNS]);

/** CSV: the rate and the timer's figures, after a row's own fields. */
export const TIMED_CSV_COLUMNS = Object.freeze(['gflops_per_s', 'median_ms', 'min_ms', 'cv', 'samples', 'warning']);
