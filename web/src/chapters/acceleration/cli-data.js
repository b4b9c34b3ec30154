// The pure half of the CLI comparison (acceleration-cli): pairs the rows of a native
// report (`perflab roofline --json` or `perflab bench --json`, validated and normalized by
// core's cliReport) with the page's latest rows of the matching experiment, and names the
// columns. No DOM and no arithmetic beyond the display ratio page ÷ native.

import { elementsName } from './gelu-fusion-data.js';

/** Which page experiments hold rows comparable with each kind of native report. */
export const PAGE_SOURCES = Object.freeze({
  roofline: Object.freeze(['acceleration-roofline']),
  bench: Object.freeze(['acceleration-vectorization', 'acceleration-gelu-fusion']),
});

/** How the status line names those experiments. */
export const SOURCE_NAMES = Object.freeze({
  'acceleration-roofline': 'the roofline experiment',
  'acceleration-vectorization': 'the vectorization experiment',
  'acceleration-gelu-fusion': 'the GELU fusion experiment',
});

/** "N=64" for matmul, "256 Ki" elements otherwise: a size column's text. */
export function sizeText(op, size) {
  if (size === null || size === undefined) return '—';
  return op === 'matmul' ? `N=${size}` : elementsName(size);
}

/** What kind of kernel a row measured: its `op`, else GELU when it counts elements, else matmul. */
export function opOf(row) {
  if (typeof row.op === 'string') return row.op;
  return row.elements !== undefined && row.n === undefined ? 'gelu' : 'matmul';
}

/** The size a row measured: N for matmul, elements otherwise. */
export const sizeOf = (row) => (opOf(row) === 'matmul' ? row.n : (row.elements ?? row.n));

/** The kernel's name without its size: "matmul packed", "gelu fused-simd", "add". */
export function kernelOf(row) {
  const op = opOf(row);
  if (op === 'matmul') return `matmul ${row.variant ?? 'packed'}`;
  if (op === 'gelu') return `gelu ${row.variant ?? ''}`.trim();
  return row.variant && row.variant !== op ? `${op} ${row.variant}` : op;
}

/**
 * One comparison row per native row, in the report's order: the page row of the same
 * kernel at the same size, else the same kernel at another size (the sizes are shown), else
 * none. GFLOP/s compare matmul and roofline kernels; bench GELU rows compare ns per element.
 * @param {{kind: string, rows: object[]}} report core's cliReport result
 * @param {object[]} pageRows the page's latest rows of PAGE_SOURCES[report.kind], in any order
 */
export function compareRows(report, pageRows) {
  const pageByKernel = new Map();
  for (const row of pageRows) {
    const key = kernelOf(row);
    if (!pageByKernel.has(key)) pageByKernel.set(key, []);
    pageByKernel.get(key).push(row);
  }
  return report.rows.map((native) => {
    const kernel = kernelOf(native);
    const candidates = pageByKernel.get(kernel) ?? [];
    const page = candidates.find((r) => sizeOf(r) === sizeOf(native)) ?? candidates[0] ?? null;
    const metric = native.gflops_per_s !== undefined ? 'gflops_per_s' : 'ns_per_element';
    const nativeValue = native[metric];
    const pageValue = page?.[metric];
    return {
      kernel,
      op: opOf(native),
      native_size: sizeOf(native),
      page_size: page ? sizeOf(page) : null,
      metric,
      native_value: nativeValue,
      page_value: pageValue ?? null,
      // Display only: how the page's figure compares with the native one (>1: the page is faster).
      page_vs_native:
        pageValue > 0 && nativeValue > 0
          ? metric === 'ns_per_element'
            ? nativeValue / pageValue
            : pageValue / nativeValue
          : null,
      native_verdict: native.verdict ?? '',
      page_verdict: page?.verdict ?? '',
    };
  });
}

const METRIC_UNIT = { gflops_per_s: 'GFLOP/s', ns_per_element: 'ns/element' };
const sig = (v) => (Number.isFinite(v) ? Number(v.toPrecision(3)).toString() : '—');

export const TABLE_COLUMNS = Object.freeze([
  { key: 'kernel', label: 'kernel', format: 'text' },
  {
    label: 'size (native / page)',
    format: (r) => `${sizeText(r.op, r.native_size)} / ${sizeText(r.op, r.page_size)}`,
    align: 'right',
  },
  { label: 'native', format: (r) => `${sig(r.native_value)} ${METRIC_UNIT[r.metric]}`, align: 'right' },
  {
    label: 'page',
    format: (r) => (r.page_value === null ? 'not measured yet' : `${sig(r.page_value)} ${METRIC_UNIT[r.metric]}`),
    align: 'right',
  },
  {
    label: 'page vs native',
    format: (r) => (r.page_vs_native === null ? '—' : `${sig(r.page_vs_native)}×`),
    align: 'right',
  },
  { key: 'native_verdict', label: 'native verdict', format: 'text' },
]);

/** How the chart names each metric: the axis unit and whether more is better. */
export const METRIC_AXIS = Object.freeze({
  gflops_per_s: Object.freeze({ unit: 'GFLOP/s', better: 'higher' }),
  ns_per_element: Object.freeze({ unit: 'ns per element', better: 'lower' }),
});

/**
 * The chart's points for one metric: one dot per compared kernel with both figures, native
 * on x and page on y, labelled with the kernel and its size ("matmul packed N=64").
 */
export function chartPoints(rows, metric) {
  return rows
    .filter((r) => r.metric === metric && r.native_value > 0 && r.page_value > 0)
    .map((r) => ({
      label: `${r.kernel} ${sizeText(r.op, r.native_size)}`,
      native_value: r.native_value,
      page_value: r.page_value,
      faster: r.page_vs_native >= 1 ? 'page as fast or faster' : 'native faster',
    }));
}

/**
 * One square extent for both axes (so the diagonal page = native is at 45°), the points'
 * range widened by `pad` either side, and that diagonal as a reference segment.
 */
export function chartFrame(points, pad = 1.5) {
  if (points.length === 0) return { domain: undefined, references: [] };
  const values = points.flatMap((p) => [p.native_value, p.page_value]);
  const lo = Math.min(...values) / pad;
  const hi = Math.max(...values) * pad;
  return {
    domain: [lo, hi],
    references: [{ x1: lo, y1: lo, x2: hi, y2: hi, label: 'page = native', dashed: true }],
  };
}

/** The comparison rows' CSV (the framework's toCsv picks these fields). */
export const CSV_COLUMNS = Object.freeze([
  'kernel',
  'op',
  'native_size',
  'page_size',
  'metric',
  'native_value',
  'page_value',
  'page_vs_native',
  'native_verdict',
  'page_verdict',
]);

/** The machine figures a report and the page's probe both carry, side by side. */
export const MACHINE_FIELDS = Object.freeze([
  { key: 'peak_gflops_per_s', label: 'peak', unit: 'GFLOP/s' },
  { key: 'scalar_peak_gflops_per_s', label: 'scalar peak', unit: 'GFLOP/s' },
  { key: 'bandwidth_gb_per_s', label: 'bandwidth roof', unit: 'GB/s' },
  { key: 'ridge_flops_per_byte', label: 'ridge point', unit: 'FLOP/byte' },
  { key: 'simd_backend', label: 'vector backend' },
]);
