// What the Benchmarking chapter's sample experiments (warmup, clock, distribution, intervals,
// complexity) share: the kernel select whose choices are core's matmul and GELU variants, the
// kernel's name in sentences, and the raw-sample CSV field. Pure apart from asking core for
// its lists; no statistic (core summarizes every sample).
// Not for: the experiments' plans (each <slot>-data.js) or drawing (charts/).

import { kernelChoices, parseKernel as parseChoice } from './compare-common.js';

/** The select's value `'matmul:packed'` → `{op: 'matmul', variant: 'packed'}`; an error without an op. */
export function parseKernel(value) {
  const { op, variant } = parseChoice(value);
  if (!op || !variant) throw new Error(`a kernel is written op:variant, got ${JSON.stringify(value)}`);
  return { op, variant };
}

/** "packed matmul at N = 64", "fused-simd GELU over 4096 elements". */
export function kernelText({ op, variant, n }) {
  if (op === 'matmul') return `${variant} matmul at N = ${n}`;
  if (op === 'gelu') return `${variant} GELU over ${n} elements`;
  return `${variant} ${op} at n = ${n}`;
}

/** "packed matmul", "fused-simd GELU": one kernel of a sweep over sizes. */
export function kernelName({ op, variant }) {
  return `${variant} ${op === 'gelu' ? 'GELU' : op}`;
}

/**
 * A select of every kernel core can sample: its matmul and GELU variants (compare-common's
 * kernelChoices asks core), each titled with core's description.
 */
export function kernelControl({ id = 'kernel', label = 'Kernel', default: fallback, hint } = {}) {
  return { id, type: 'select', label, default: fallback, hint, options: ({ lab }) => kernelChoices(lab, id) };
}

/** The size control: N for a matmul (N×N @ N×N), the number of elements for GELU. */
export function sizeControl({ id = 'n', default: fallback }) {
  return {
    id,
    type: 'number',
    label: 'Size n',
    default: fallback,
    min: 1,
    integer: true,
    hint: 'n is N for a matmul (N×N @ N×N) and the number of elements for GELU.',
  };
}

/** Every sample of a row in one CSV field, in the order they were taken, space-separated. */
export const SAMPLES_CSV_COLUMN = Object.freeze({
  name: 'samples_ms',
  value: (row) => (Array.isArray(row.samples_ms) ? row.samples_ms.join(' ') : ''),
});

/**
 * The CSV fields of a sampleKernel row, the one list every sample experiment exports: the
 * build, any fields of the experiment's own (`extra`, right after it), the kernel, the timer's
 * figures and the samples.
 */
export function kernelRowCsvColumns(extra = []) {
  return Object.freeze(['build', ...extra, 'op', 'variant', 'n', 'inner_iterations', 'resolution_ms', 'warning', SAMPLES_CSV_COLUMN]);
}

/** The columns every sampleKernel row has (core's KernelSample and the point's kernel). */
export const KERNEL_ROW_COLUMNS = Object.freeze([
  { key: 'op', label: 'op', format: 'text' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'n', label: 'n', format: 'int' },
  { label: 'samples', format: (row) => String(row.samples_ms?.length ?? '') },
  { key: 'inner_iterations', label: 'calls per sample', format: 'int' },
  { key: 'resolution_ms', label: 'clock resolution', unit: 'ms', format: 'sig' },
  { key: 'warning', label: 'warning', format: 'text' },
]);
