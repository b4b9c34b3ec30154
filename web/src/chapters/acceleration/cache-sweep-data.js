// The pure half of the cache-plateau sweep (acceleration-cache-sweep): read bandwidth at
// working sets from 4 KiB to 256 MiB, doubling, so each cache level shows as a plateau.
// Plans, the compact size names the axis and table print, and the columns. No DOM.

const KiB = 1024;
const MiB = 1024 * KiB;

/** Powers of two from `lo` to `hi` bytes. */
export function doublings(lo, hi) {
  const out = [];
  for (let b = lo; b <= hi; b *= 2) out.push(b);
  return out;
}

export const FULL_SWEEP = Object.freeze({
  sizes: Object.freeze(doublings(4 * KiB, 256 * MiB)),
  options: Object.freeze({ warmup: 1, samples: 10, min_sample_ms: 5, max_total_ms: 500 }),
});

export const QUICK_SWEEP = Object.freeze({
  sizes: Object.freeze([4 * KiB, 32 * KiB, 256 * KiB, 2 * MiB, 16 * MiB]),
  options: Object.freeze({ warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 80 }),
});

export const sweepOf = (quick) => (quick ? QUICK_SWEEP : FULL_SWEEP);

/** One point per working-set size, smallest first: `{bytes, options}`. */
export function cacheSweepPoints(values, { quick }) {
  const { sizes, options } = sweepOf(quick);
  return sizes.map((bytes) => ({ bytes, options: { ...options } }));
}

/** "4 KiB", "256 MiB": whole binary units for the powers of two on the axis. */
export function sizeName(bytes) {
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes >= KiB && bytes % KiB === 0) return `${bytes / KiB} KiB`;
  return `${bytes} B`;
}

/** Every fourth size: the axis ticks (4 KiB, 64 KiB, 1 MiB, ...). */
export function axisTicks(quick) {
  const { sizes } = sweepOf(quick);
  return quick ? [...sizes] : sizes.filter((_, i) => i % 4 === 0);
}

export const TABLE_COLUMNS = Object.freeze([
  { label: 'working set', format: (row) => sizeName(row.bytes), align: 'right' },
  { key: 'gb_per_s', label: 'read bandwidth', unit: 'GB/s', format: 'sig' },
  { key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'stats.cv', label: 'CV', format: 'percent' },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'bytes',
  'gb_per_s',
  'median_ms',
  'min_ms',
  'cv',
  'samples',
  'warning',
]);
