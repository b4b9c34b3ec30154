// What the Benchmarking chapter's sample experiments (warmup, clock, distribution, intervals,
// complexity) share: the kernel select whose choices are core's matmul and GELU variants, the
// kernel's name in sentences, and the raw-sample CSV field. Pure apart from asking core for
// its lists; no statistic (core summarizes every sample).
// Not for: the experiments' plans (each <slot>-data.js) or drawing (charts/).

/** `'matmul/packed'` → `{op: 'matmul', variant: 'packed'}`. */
export function parseKernel(value) {
  const [op, variant] = String(value).split('/');
  if (!op || !variant) throw new Error(`a kernel is written op/variant, got ${JSON.stringify(value)}`);
  return { op, variant };
}

/** The select's value of a kernel. */
export const kernelValue = (op, variant) => `${op}/${variant}`;

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
 * A select of every kernel core can sample: its matmul variants and its GELU variants
 * (matmulVariants, geluVariants), each titled with core's description.
 */
export function kernelControl({ id = 'kernel', label = 'Kernel', default: fallback, hint } = {}) {
  return {
    id,
    type: 'select',
    label,
    default: fallback,
    hint,
    options: async ({ lab }) => {
      const [matmul, gelu] = await Promise.all([lab.matmulVariants({ where: id }), lab.geluVariants({ where: id })]);
      return [
        ...matmul.map((v) => ({ value: kernelValue('matmul', v.name), label: `matmul · ${v.name}`, title: v.description })),
        ...gelu.map((v) => ({ value: kernelValue('gelu', v.name), label: `GELU · ${v.name}`, title: v.description })),
      ];
    },
  };
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
