// What the Benchmarking chapter's comparison experiments (A/A, A/B) share: the kernels a
// student may pick (core's matmul and GELU variant lists and the model zoo, one select naming
// op and variant),
// core's size limits for a comparison that a student waits for, and how core's numbers
// print (p-values, ratios and their intervals). Pure apart from asking core for its lists.
// Not for: any statistic (core's runAB computes every number shown).

import { formatSig } from '../../ui/format.js';

/** The ops runAB times; each has its own variant list in core. */
export const OPS = Object.freeze([
  { op: 'matmul', list: 'matmulVariants', size: 'N of N×N @ N×N' },
  { op: 'gelu', list: 'geluVariants', size: 'elements' },
  // A zoo model's inference forward; its "variant" is the model's name, n its batch.
  { op: 'model', list: 'zooModels', size: 'batch' },
]);

/** "matmul:packed" -> {op: 'matmul', variant: 'packed'}. */
export function parseKernel(value) {
  const text = String(value ?? '');
  const at = text.indexOf(':');
  return at < 0 ? { op: '', variant: text } : { op: text.slice(0, at), variant: text.slice(at + 1) };
}

export const kernelValue = (op, variant) => `${op}:${variant}`;

/**
 * The largest size a comparison takes per op, core's (statsLimits().ab_max_n: kMaxAbMatmulN,
 * kMaxAbGeluN, kMaxAbModelBatch): above it one call of the slowest variant times the rounds of
 * a comparison would pass the time one A/B may take. Set when kernelChoices fills the selects;
 * until then sizeProblem refuses nothing and core's runAB refuses with its own sentence.
 */
let maxSize = {};
/** @param {{ab_max_n: Object<string, number>}} limits core's statsLimits() */
export function setComparisonLimits(limits) {
  maxSize = { ...(limits?.ab_max_n ?? {}) };
}

/**
 * A select's choices: every variant core lists for each op (matmulVariants, geluVariants),
 * labelled "matmul · packed", with core's description as the title. Also reads core's size
 * limits for comparisons (setComparisonLimits), which the size controls beside it check.
 * @param {object} lab labOf(bridge)
 */
export async function kernelChoices(lab, where) {
  const [limits, ...lists] = await Promise.all([lab.statsLimits({ where }), ...OPS.map((o) => lab[o.list]({ where }))]);
  setComparisonLimits(limits);
  return OPS.flatMap((o, i) =>
    lists[i].map((v) => ({ value: kernelValue(o.op, v.name), label: `${o.op} · ${v.name}`, title: v.description })),
  );
}

/** Null when n suits the kernel's op (or core's limits are not read yet), else the sentence shown beside the size control. */
export function sizeProblem(kernel, n) {
  const { op } = parseKernel(kernel);
  const max = maxSize[op];
  if (max === undefined || n <= max) return null;
  const why =
    op === 'matmul'
      ? 'one naive call above it takes seconds, and a comparison makes many'
      : op === 'model'
        ? 'a larger batch makes every round of the larger models slow'
        : 'larger inputs make every round slow';
  return `for ${op}, n must be at most ${max.toLocaleString('en-US')} here (${why}), got ${n}`;
}

/** A p-value as text: three significant digits, "< 0.0001" below that. */
export function formatP(p) {
  if (!Number.isFinite(p)) return '—';
  return p < 0.0001 ? '< 0.0001' : formatSig(p);
}

/** "1.23×" */
export const formatRatio = (r) => (Number.isFinite(r) ? `${formatSig(r)}×` : '—');

/** "1.18–1.29×" from {low, high}. */
export const formatInterval = (i) => (i ? `${formatSig(i.low)}–${formatSig(i.high)}×` : '—');

/** The interval's level from core's alpha: 0.05 -> "95%". */
export const levelText = (alpha) => `${Number(formatSig((1 - alpha) * 100))}%`;

/** Cohen's d is null when both samples have zero spread and different means (core: unbounded). */
export const formatD = (d) => (d === null ? 'unbounded' : formatSig(d));

/**
 * One line per round of each row (per mode or repeat): the raw per-call times of both arms,
 * with which arm ran first in that round. `idFields` are the row fields naming the run.
 */
export function roundRows(rows, idFields) {
  return rows.flatMap((r) =>
    r.a_ms.map((a, i) => ({
      ...Object.fromEntries(idFields.map((k) => [k, r[k]])),
      round: i + 1,
      a_first: r.a_first?.[i],
      a_ms: a,
      b_ms: r.b_ms[i],
    })),
  );
}
