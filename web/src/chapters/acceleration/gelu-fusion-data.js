// The pure half of the fused-vs-unfused GELU experiment (acceleration-gelu-fusion): every
// GELU variant core lists at several sizes, with ns per element, effective bandwidth, the
// memory traffic per element each variant moves (core's cost formulas give the bytes), each
// variant's speedup over the scalar unfused one at the same size, and the sentences that
// compare the variants from the measured rows. No DOM and no measuring.

import { planOf } from '../../experiments/plans.js';
import { formatSig } from '../../ui/format.js';
import { SPREAD_COLUMNS, TIMED_CSV_COLUMNS } from './timed-columns.js';

/** Every speedup is against this variant of core's list at the same size: scalar, one pass per operation. */
export const BASELINE = 'unfused';
// The two variants the comparison sentence sets against each other: fusion without SIMD
// against SIMD without fusion, the one that moves fewer bytes against the one that computes faster.
export const FUSION_ONLY = 'fused';
export const SIMD_ONLY = 'unfused-simd';

/**
 * Every variant (`info.variants`, core's list) at every size of core's plan (`info.plan`:
 * elements and Timer options), sizes outermost, the baseline first at each size so that
 * every later row of that size finds its speedup's denominator.
 */
export function geluPoints(values, { info }) {
  const variants = info?.variants;
  if (!Array.isArray(variants) || variants.length === 0) {
    throw new Error('the lab worker listed no GELU variants, so there is nothing to measure');
  }
  const ordered = [...variants.filter((v) => v === BASELINE), ...variants.filter((v) => v !== BASELINE)];
  const { elements, options } = planOf(info, 'GELU sizes', ['elements', 'options']);
  return elements.flatMap((n) => ordered.map((variant) => ({ variant, elements: n, options: { ...options } })));
}

/** Display: bytes moved per element (core's bytes over the element count). */
export function withBytesPerElement(row) {
  return row.elements > 0 ? { ...row, bytes_per_element: row.bytes / row.elements } : row;
}

// Per run (the framework's ctx object): elements -> the baseline's ns per element.
const baselines = new WeakMap();

/**
 * Display fields of one row: bytes per element, and `speedup`, the baseline's time per element
 * at the same size over this row's (2 = twice as fast as scalar unfused), once the baseline of
 * that size has been measured in this run (the plan measures it first); absent otherwise.
 */
export function withDerived(row, ctx) {
  const memo = ctx && typeof ctx === 'object' ? (baselines.get(ctx) ?? new Map()) : new Map();
  if (ctx && typeof ctx === 'object') baselines.set(ctx, memo);
  if (row.variant === BASELINE && row.ns_per_element > 0) memo.set(row.elements, row.ns_per_element);
  const base = memo.get(row.elements);
  const out = withBytesPerElement(row);
  return base > 0 && row.ns_per_element > 0 ? { ...out, speedup: base / row.ns_per_element } : out;
}

/** A ratio to three significant digits without trailing zeros: 9 -> "9", 1.4286 -> "1.43". */
export function ratioText(value) {
  return Number.isFinite(value) ? String(Number(value.toPrecision(3))) : '—';
}

/** The speedup as the table prints it: "1.43×", "—" before the baseline is known. */
export function speedupText(row) {
  return Number.isFinite(row.speedup) ? `${ratioText(row.speedup)}×` : '—';
}

/**
 * What the measured rows can say, in sentences that only compare them: at the largest size
 * every variant was measured at, the fusion-only variant against the SIMD-only one (which
 * moved fewer bytes, which was faster, and what that means), then each variant's speedup over
 * the baseline. `{elements, sentences}`, or null when no size has every variant.
 */
export function fusionComparison(rows, variants) {
  const names = variants?.length ? variants : [...new Set(rows.map((r) => r.variant))];
  const sizes = [...new Set(rows.map((r) => r.elements))].sort((a, b) => b - a);
  const at = (n, v) => rows.find((r) => r.elements === n && r.variant === v);
  const elements = sizes.find((n) => names.every((v) => at(n, v)?.ns_per_element > 0));
  if (elements === undefined) return null;
  const size = `${elementsName(elements)} elements`;
  const perElement = (r) => r.bytes_per_element ?? r.bytes / r.elements;
  const ns = (r) => `${formatSig(r.ns_per_element)} ns`;
  const sentences = [];
  const fused = at(elements, FUSION_ONLY);
  const simd = at(elements, SIMD_ONLY);
  if (fused && simd) {
    const [fewer, more] = perElement(fused) <= perElement(simd) ? [fused, simd] : [simd, fused];
    const traffic =
      `At ${size}, ${fewer.variant} moved ${ratioText(perElement(more) / perElement(fewer))}× fewer bytes than ` +
      `${more.variant} (${ratioText(perElement(fewer))} against ${ratioText(perElement(more))} per element)`;
    const times = `(${ns(fewer)} against ${ns(more)} per element)`;
    const speedup = more.ns_per_element / fewer.ns_per_element;
    if (ratioText(speedup) === '1') {
      sentences.push(`${traffic} and took the same time ${times}: fewer bytes bought no time at this size.`);
    } else if (speedup > 1) {
      sentences.push(
        `${traffic} and was ${ratioText(speedup)}× faster ${times}: at this size saving passes over memory ` +
          '(fusion) paid off more than speeding up the arithmetic (SIMD), so the traffic, more than the arithmetic, set the time.',
      );
    } else {
      sentences.push(
        `${traffic}, yet was ${ratioText(1 / speedup)}× slower ${times}: at this size the arithmetic (a tanh ` +
          'per element), not the memory traffic, set the time, so speeding it up (SIMD) paid off more than moving fewer bytes (fusion).',
      );
    }
  }
  const base = at(elements, BASELINE);
  const others = names.filter((v) => v !== BASELINE && at(elements, v));
  if (base && others.length) {
    const parts = others.map((v) => `${v} ${ratioText(base.ns_per_element / at(elements, v).ns_per_element)}×`);
    sentences.push(`Speedup over ${BASELINE} at ${size}: ${parts.join(', ')}.`);
  }
  return { elements, sentences };
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
  { key: 'speedup', label: `speedup vs ${BASELINE}`, format: speedupText },
  { key: 'gb_per_s', label: 'bandwidth', unit: 'GB/s', format: 'sig' },
  { key: 'bytes_per_element', label: 'traffic', unit: 'bytes/element', format: 'sig' },
  ...SPREAD_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'variant',
  'elements',
  'flops',
  'bytes',
  'bytes_per_element',
  'ns_per_element',
  'speedup',
  'gb_per_s',
  ...TIMED_CSV_COLUMNS,
]);
