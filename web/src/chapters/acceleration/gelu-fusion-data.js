// The pure half of the fused-vs-unfused GELU experiment (acceleration-gelu-fusion): every
// GELU variant core lists at several sizes, with ns per element, effective bandwidth and
// the memory traffic per element each variant moves (core's cost formulas give the bytes).
// No DOM and no measuring.

export const FULL_SWEEP = Object.freeze({
  elements: Object.freeze([1 << 12, 1 << 15, 1 << 18, 1 << 20, 1 << 22]),
  options: Object.freeze({ warmup: 1, samples: 10, min_sample_ms: 10, max_total_ms: 1000 }),
});

export const QUICK_SWEEP = Object.freeze({
  elements: Object.freeze([1 << 14, 1 << 20]),
  options: Object.freeze({ warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 100 }),
});

export const sweepOf = (quick) => (quick ? QUICK_SWEEP : FULL_SWEEP);

/** Every variant (`info.variants`, core's list) at every size, sizes outermost. */
export function geluPoints(values, { quick, info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no GELU variants, so there is nothing to measure');
  }
  const { elements, options } = sweepOf(quick);
  return elements.flatMap((n) => variants.map((variant) => ({ variant, elements: n, options: { ...options } })));
}

/** Display: bytes moved per element (core's bytes over the element count). */
export function withBytesPerElement(row) {
  return row.elements > 0 ? { ...row, bytes_per_element: row.bytes / row.elements } : row;
}

/** "1 Mi" for 1048576: sizes in the table and labels. */
export function elementsName(n) {
  if (n >= 1 << 20 && n % (1 << 20) === 0) return `${n / (1 << 20)} Mi`;
  if (n >= 1 << 10 && n % (1 << 10) === 0) return `${n / (1 << 10)} Ki`;
  return String(n);
}

export const TABLE_COLUMNS = Object.freeze([
  { label: 'elements', format: (row) => elementsName(row.elements), align: 'right' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'ns_per_element', label: 'per element', unit: 'ns', format: 'sig' },
  { key: 'gb_per_s', label: 'bandwidth', unit: 'GB/s', format: 'sig' },
  { key: 'bytes_per_element', label: 'traffic', unit: 'bytes/element', format: 'sig' },
  { key: 'stats.cv', label: 'CV', format: 'percent' },
  { key: 'stats.warning', label: 'warning', format: 'text' },
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'elements',
  'flops',
  'bytes',
  'bytes_per_element',
  'ns_per_element',
  'gb_per_s',
  'gflops_per_s',
  'median_ms',
  'min_ms',
  'cv',
  'samples',
  'warning',
]);
