// The pure half of the A/A experiment (benchmarking-aa): one kernel compared with itself by
// core's runAB, interleaved, R times with distinct seeds; the controls, the points, the chart
// rows (each repeat's p-value, and its ratio with the interval), the table and CSV columns,
// and the tally of core's verdicts the analysis sentence reports.
// No DOM and no statistic: core's runAB measures and compares; this only counts its answers.

import { planOf } from '../../experiments/plans.js';
import { formatCount, formatSig } from '../../ui/format.js';
import { AB_CSV_COLUMNS, COMPARISON_COLUMNS, VERDICT_COLUMNS } from './ab-data.js';
import { kernelChoices, parseKernel, sizeProblem } from './compare-common.js';

const share = (k, n) => `${Number(formatSig((100 * k) / n, 2))}%`;
const runs = (k) => formatCount(k, 'run');

export const ID = 'benchmarking-aa';

/**
 * Rounds per arm, the warmup and the most repeats, core's plan (experimentPlan, init's
 * `info.plan`): quick mode caps the repeats so the run takes seconds (`max_repeats` null: the
 * student's R).
 */
export const aaSettings = (info) => planOf(info, 'the A/A rounds', ['rounds', 'warmup', 'max_repeats']);

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
export function aaPoints(values, { info } = {}) {
  const { op, variant } = parseKernel(values.kernel);
  const { rounds, warmup, max_repeats } = aaSettings(info);
  const repeats = Math.min(values.repeats, max_repeats ?? Infinity);
  return Array.from({ length: repeats }, (_, i) => ({
    repeat: i + 1,
    op,
    variant_a: variant,
    variant_b: variant,
    n: values.n,
    options: { mode: 'interleaved', rounds, warmup, seed: values.seed + i },
  }));
}

/**
 * What core's verdict called, as both charts colour it: the repeats the exercise counts are
 * exactly those coloured CALLED (faster or slower), whatever their p-value.
 */
export const CALLED = 'verdict: B faster or slower';
export const NOT_CALLED = 'verdict: no difference';
const TOO_FEW = 'verdict: too few samples';
// The legend's two entries in a fixed order (so their colours stay put); too few samples cannot
// happen at the rounds this experiment runs.
export const CALL_DOMAIN = Object.freeze([CALLED, NOT_CALLED]);
export const verdictCall = (name) =>
  name === 'faster' || name === 'slower' ? CALLED : name === 'too_few_samples' ? TOO_FEW : NOT_CALLED;

/** The p-value chart's points: each repeat's Mann-Whitney p, coloured by what core's verdict called. */
export function pValuePoints(rows) {
  return rows.map((r) => ({
    repeat: r.repeat,
    p_value: r.comparison.mann_whitney.p_value,
    verdict: r.comparison.verdict.name,
    call: verdictCall(r.comparison.verdict.name),
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

/**
 * The ratio chart's data: each repeat's ratio of medians coloured as the p-value chart, its
 * interval as a segment, 1, and core's noise threshold on both sides (1 + threshold and its
 * inverse, the bounds the verdict's ratio must pass): the verdict's other two conditions.
 */
export function ratioChart(rows) {
  const threshold = rows[0]?.comparison.threshold;
  return {
    points: rows.map((r) => ({
      repeat: r.repeat,
      ratio: r.comparison.ratio,
      verdict: r.comparison.verdict.name,
      call: verdictCall(r.comparison.verdict.name),
    })),
    references: [
      ...(rows.length
        ? [
            { y: 1, dashed: true },
            { y: 1 + threshold, label: `±${share(threshold, 1)} noise threshold`, dashed: true, stroke: 'gray' },
            { y: 1 / (1 + threshold), dashed: true, stroke: 'gray' },
          ]
        : []),
      ...rows.map((r) => ({
        x1: r.repeat,
        x2: r.repeat,
        y1: r.comparison.ratio_interval.low,
        y2: r.comparison.ratio_interval.high,
        caps: true, // an interval: its ends capped, or an arrowhead where the axis cuts it
      })),
    ],
  };
}

export const AA_COLUMNS = Object.freeze([
  { key: 'repeat', label: 'repeat', format: 'int' },
  { key: 'comparison.seed', label: 'seed', format: 'int' },
  ...COMPARISON_COLUMNS,
  ...VERDICT_COLUMNS,
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


/**
 * The analysis in sentences that hold for any count: first what the exercise counts (core's
 * verdicts of a difference), then the p-values below alpha against what chance alone gives
 * when nothing differs and nothing drifts (alpha × R), then why the two counts differ.
 */
export function aaSentences(t) {
  if (!t.runs) return [];
  const expected = t.alpha * t.runs;
  return [
    `Core’s verdict called B faster or slower in ${t.differences} of ${t.runs} A/A runs (the points coloured ` +
      `“${CALLED}”)${t.differences === 0 ? ': no false alarm this time.' : `: ${t.differences === 1 ? 'that is a false alarm' : 'each is a false alarm'}, since A and B are the same code.`}`,
    `${t.significant} of ${t.runs} (${share(t.significant, t.runs)}) had Mann-Whitney p < ${t.alpha}, below the dashed line. ` +
      `With no true difference and nothing drifting, a sound test gives that in about ${share(t.alpha, 1)} of runs ` +
      `by chance alone: about ${Number(formatSig(expected, 2))} of ${t.runs} here. ` +
      'Each run is one draw, so a small R can land well above or below that.',
    `p < ${t.alpha} is not enough for the verdict: it also needs the ratio’s interval to exclude 1 and the ratio ` +
      `to lie outside the ±${share(t.threshold, 1)} noise threshold (the grey lines around 1 on the ratio chart), because ` +
      'a p-value only says that the two samples differ, not by how much. So the verdict never calls a difference ' +
      `where p alone does not${t.significant > t.differences ? `; here ${t.significant - t.differences} of the runs with p < ${t.alpha} did not pass the other two` : ''}. ` +
      `${t.drifted ? `In ${runs(t.drifted)} core found A or B drifting across the rounds (its warnings are in the CSV).` : 'Core found no drift across the rounds in any run.'}`,
  ];
}
