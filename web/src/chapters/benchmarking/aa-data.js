// The pure half of the A/A experiment (benchmarking-aa): one kernel compared with itself by
// core's runAB, interleaved, R times with distinct seeds; the controls, the points, the chart
// rows (each repeat's p-value, and its ratio with the interval), the table and CSV columns,
// and the tally of core's verdicts the analysis sentence reports.
// No DOM and no statistic: core's runAB measures and compares; this only counts its answers.

import { formatCount, formatSig } from '../../ui/format.js';
import { AB_CSV_COLUMNS, driftedArms } from './ab-data.js';
import { formatInterval, formatP, formatRatio, kernelChoices, parseKernel, sizeProblem } from './compare-common.js';

/** Repeats and rounds per arm; quick mode caps the repeats so the run takes seconds. */
export const FULL_AA = Object.freeze({ rounds: 30, warmup: 3, maxRepeats: Infinity });
export const QUICK_AA = Object.freeze({ rounds: 10, warmup: 1, maxRepeats: 8 });
export const aaSettings = (quick) => (quick ? QUICK_AA : FULL_AA);

export const AA_CONTROLS = Object.freeze([
  {
    id: 'kernel',
    type: 'select',
    label: 'Kernel (both A and B)',
    default: 'matmul:simd',
    options: ({ lab }) => kernelChoices(lab, 'benchmarking-aa-run'),
  },
  {
    id: 'n',
    type: 'number',
    label: 'Size n',
    integer: true,
    min: 1,
    default: 64,
    hint: 'n is N for an N×N matmul, or the number of elements GELU runs over.',
    validate: (n, values) => sizeProblem(values.kernel, n),
  },
  {
    id: 'repeats',
    type: 'number',
    label: 'Repeats R',
    integer: true,
    min: 2,
    max: 200,
    default: 40,
    hint: 'Each repeat is a whole A/A comparison with its own seed (the seed below, plus the repeat’s index).',
  },
  { id: 'seed', type: 'number', label: 'First seed', integer: true, min: 0, max: 2 ** 31 - 1, default: 1 },
]);

/** R runAB points of the same variant as A and B, interleaved, seeds seed, seed + 1, … */
export function aaPoints(values, { quick } = {}) {
  const { op, variant } = parseKernel(values.kernel);
  const { rounds, warmup, maxRepeats } = aaSettings(quick);
  const repeats = Math.min(values.repeats, maxRepeats);
  return Array.from({ length: repeats }, (_, i) => ({
    repeat: i + 1,
    op,
    variant_a: variant,
    variant_b: variant,
    n: values.n,
    options: { mode: 'interleaved', rounds, warmup, seed: values.seed + i },
  }));
}

/** The p-value chart's points: each repeat's Mann-Whitney p, coloured by core's verdict. */
export function pValuePoints(rows) {
  return rows.map((r) => ({
    repeat: r.repeat,
    p_value: r.comparison.mann_whitney.p_value,
    verdict: r.comparison.verdict.name,
  }));
}

/** The p-value chart's data: the points and core's alpha as a dashed line. */
export function pValueChart(rows) {
  const alpha = rows[0]?.comparison.alpha;
  return {
    points: pValuePoints(rows),
    references: alpha === undefined ? [] : [{ y: alpha, label: `α = ${alpha}`, dashed: true }],
  };
}

/** The ratio chart's data: each repeat's ratio of medians, its interval as a segment, and 1. */
export function ratioChart(rows) {
  return {
    points: rows.map((r) => ({ repeat: r.repeat, ratio: r.comparison.ratio, verdict: r.comparison.verdict.name })),
    references: [
      ...(rows.length ? [{ y: 1, label: 'no difference', dashed: true }] : []),
      ...rows.map((r) => ({
        x1: r.repeat,
        x2: r.repeat,
        y1: r.comparison.ratio_interval.low,
        y2: r.comparison.ratio_interval.high,
      })),
    ],
  };
}

export const AA_COLUMNS = Object.freeze([
  { key: 'repeat', label: 'repeat', format: 'int' },
  { key: 'comparison.seed', label: 'seed', format: 'int' },
  { key: 'comparison.median_a', label: 'median A', unit: 'ms', format: 'sig' },
  { key: 'comparison.median_b', label: 'median B', unit: 'ms', format: 'sig' },
  { label: 'ratio A/B', format: (r) => formatRatio(r.comparison.ratio) },
  { label: 'ratio CI', format: (r) => formatInterval(r.comparison.ratio_interval) },
  { label: 'Mann-Whitney p', format: (r) => formatP(r.comparison.mann_whitney.p_value) },
  { key: 'comparison.verdict.name', label: 'verdict', format: 'text' },
  { label: 'drift in', format: driftedArms, align: 'left' },
]);

export const AA_CSV_COLUMNS = Object.freeze(['repeat', ...AB_CSV_COLUMNS]);

/**
 * The tally behind the analysis sentence, counted from core's answers: how many repeats had
 * a Mann-Whitney p below core's alpha, how many of core's verdicts said faster or slower,
 * in how many core found either arm drifting across the rounds, and each verdict name's count.
 */
export function aaTally(rows) {
  const first = rows[0]?.comparison;
  const verdicts = {};
  for (const r of rows) verdicts[r.comparison.verdict.name] = (verdicts[r.comparison.verdict.name] ?? 0) + 1;
  return {
    runs: rows.length,
    alpha: first?.alpha,
    threshold: first?.threshold,
    significant: rows.filter((r) => r.comparison.mann_whitney.p_value < r.comparison.alpha).length,
    differences: (verdicts.faster ?? 0) + (verdicts.slower ?? 0),
    drifted: rows.filter((r) => r.drift_a?.detected || r.drift_b?.detected).length,
    verdicts,
  };
}

const share = (k, n) => `${Number(formatSig((100 * k) / n, 2))}%`;
const runs = (k) => formatCount(k, 'run');

/**
 * The analysis in sentences that hold for any count: what was found, against what chance
 * alone gives when nothing differs and nothing drifts. Every count is core's verdicts or
 * p-values counted; the expectation is alpha × R.
 */
export function aaSentences(t) {
  if (!t.runs) return [];
  const expected = t.alpha * t.runs;
  return [
    `${t.significant} of ${t.runs} A/A runs (${share(t.significant, t.runs)}) had Mann-Whitney p < ${t.alpha}. ` +
      `With no true difference and nothing drifting, a sound test gives that in about ${share(t.alpha, 1)} of runs ` +
      `by chance alone: about ${Number(formatSig(expected, 2))} of ${t.runs} here. ` +
      'Each run is one draw, so a small R can land well above or below that.',
    `Core’s verdict called B faster or slower in ${t.differences} of ${t.runs}. It also needs the ratio’s interval ` +
      `to exclude 1 and a change of more than ${share(t.threshold, 1)}, so it never calls a difference where p ` +
      `alone does not. ${t.drifted ? `In ${runs(t.drifted)} core found A or B drifting across the rounds (its warnings are in the CSV).` : 'Core found no drift across the rounds in any run.'}`,
  ];
}
