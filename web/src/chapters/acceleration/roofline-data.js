// The pure half of the roofline experiment (acceleration-roofline): which kernels are
// placed (every matmul variant: packed at several N including 64 and 1024, the others at
// sizes where they stay quick; add, mul, sum, softmax and LayerNorm in both forms; every GELU
// variant), each point carrying this machine's probed roofs so core returns the placement;
// the kernel labels, the chart's reference lines, the columns. No DOM.

import { rooflineReferences } from '../../charts/shape.js';
import { operationCsvColumns } from '../operation-row.js';

/** The chart's intensity axis (FLOP/byte): from below add's 1/12 to above N/6 at N = 1024. */
export const X_DOMAIN = Object.freeze([1 / 32, 512]);

// matmul sizes per variant: packed where `perflab roofline` measures it (so the CLI rows
// match) plus 1024 for the exercises; the slower variants where one call stays well under a
// second even at naive's ~1 GFLOP/s (naive at 128 is 4 MFLOP, the others at 256 34 MFLOP).
export const FULL_PLAN = Object.freeze({
  matmul: Object.freeze({
    packed: Object.freeze([64, 256, 512, 1024]),
    naive: Object.freeze([64, 128]),
    reordered: Object.freeze([64, 256]),
    blocked: Object.freeze([64, 256]),
    simd: Object.freeze([64, 256]),
  }),
  // 16 MiB per array, beyond a laptop's last-level cache; softmax and LayerNorm take it as
  // rows of 1024 features.
  elements: 1 << 22,
  options: Object.freeze({ warmup: 1, samples: 8, min_sample_ms: 10, max_total_ms: 800 }),
});

export const QUICK_PLAN = Object.freeze({
  matmul: Object.freeze({
    packed: Object.freeze([64, 128]),
    naive: Object.freeze([64]),
    reordered: Object.freeze([64]),
    blocked: Object.freeze([64]),
    simd: Object.freeze([64]),
  }),
  elements: 1 << 18,
  options: Object.freeze({ warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 100 }),
});

/** Every GELU variant core has; fused-simd and unfused are also what `perflab roofline` places. */
export const GELU_VARIANTS = Object.freeze(['fused-simd', 'fused', 'unfused-simd', 'unfused']);

/**
 * The other element-wise and row kernels with each variant measureOperation knows (core's
 * operations.cpp): the default first, then the naive scalar form beside it.
 */
export const OTHER_KERNELS = Object.freeze([
  Object.freeze({ op: 'add', variants: Object.freeze([undefined]) }),
  Object.freeze({ op: 'mul', variants: Object.freeze([undefined]) }),
  Object.freeze({ op: 'sum', variants: Object.freeze([undefined, 'naive']) }),
  Object.freeze({ op: 'softmax', variants: Object.freeze([undefined, 'naive']) }),
  Object.freeze({ op: 'layernorm', variants: Object.freeze([undefined, 'naive']) }),
]);

/**
 * Points `{op, n, options}` for measureOperation; each options object carries the roofs
 * (`info` is the probe's result) and, for matmul and GELU, the variant.
 */
export function rooflinePoints(values, { quick, info }) {
  const peak = info?.peak_gflops_per_s;
  const bandwidth = info?.bandwidth_gb_per_s;
  if (!(peak > 0) || !(bandwidth > 0)) {
    throw new Error('the machine probe gave no peak and bandwidth, so there is no roofline to place kernels on');
  }
  const plan = quick ? QUICK_PLAN : FULL_PLAN;
  const options = (extra = {}) => ({
    ...plan.options,
    ...extra,
    peak_gflops_per_s: peak,
    bandwidth_gb_per_s: bandwidth,
  });
  return [
    ...Object.entries(plan.matmul).flatMap(([variant, sizes]) =>
      sizes.map((n) => ({ op: 'matmul', n, options: options({ variant }) })),
    ),
    ...OTHER_KERNELS.flatMap(({ op, variants }) =>
      variants.map((variant) => ({ op, n: plan.elements, options: options(variant ? { variant } : {}) })),
    ),
    ...GELU_VARIANTS.map((variant) => ({ op: 'gelu', n: plan.elements, options: options({ variant }) })),
  ];
}

/**
 * How a kernel is named on the chart and in the table: "matmul N=64" (packed, the layers'
 * kernel), "matmul naive N=64", "gelu fused-simd", "softmax naive", "add".
 */
export function kernelName({ op, n, variant, options }) {
  const v = variant ?? options?.variant;
  if (op === 'matmul') return v && v !== 'packed' ? `matmul ${v} N=${n}` : `matmul N=${n}`;
  if (op === 'gelu') return `gelu ${v ?? ''}`.trim();
  return v === 'naive' ? `${op} naive` : op;
}

/** Display: the kernel's name for the chart label. */
export const withKernelName = (row) => ({ ...row, kernel: kernelName(row) });

/**
 * Display: the chart's point labels. Kernels that land on the same spot, such as add and mul
 * often do, share one label ("add, mul") on the first of them; `near` is the largest ratio
 * between two points' coordinates still counted as the same spot (5%: their dots overlap on
 * the chart). Points further apart keep their own labels, which the scatter chart places
 * clear of each other (charts/labels.js).
 */
export function chartPoints(rows, near = 1.05) {
  const labelled = [];
  return rows.map((row) => {
    const twin = labelled.find(
      (l) =>
        Math.max(l.row.intensity / row.intensity, row.intensity / l.row.intensity) <= near &&
        Math.max(l.row.gflops_per_s / row.gflops_per_s, row.gflops_per_s / l.row.gflops_per_s) <= near,
    );
    if (twin) {
      twin.point.label = `${twin.point.label}, ${row.kernel}`;
      return { ...row, label: '' };
    }
    const point = { ...row, label: row.kernel };
    labelled.push({ row, point });
    return point;
  });
}

/** The roofs as the chart's two reference segments (peak and bandwidth), or none yet. */
export function roofLines(info) {
  if (!(info?.peak_gflops_per_s > 0) || !(info?.bandwidth_gb_per_s > 0)) return [];
  return rooflineReferences({
    peak_gflops_per_s: info.peak_gflops_per_s,
    bandwidth_gb_per_s: info.bandwidth_gb_per_s,
    xDomain: [...X_DOMAIN],
  });
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'kernel', label: 'kernel', format: 'text' },
  { key: 'intensity', label: 'intensity', unit: 'FLOP/byte', format: 'sig' },
  { key: 'gflops_per_s', label: 'measured', unit: 'GFLOP/s', format: 'sig' },
  { key: 'attainable_gflops_per_s', label: 'attainable', unit: 'GFLOP/s', format: 'sig' },
  { key: 'fraction_of_attainable', label: 'of attainable', format: 'percent' },
  { key: 'verdict', label: 'verdict', format: 'text' },
]);

export const CSV_COLUMNS = operationCsvColumns();
