// The pure half of the A/B experiment (benchmarking-ab): two variants of one kernel compared
// by core's runAB twice with the same seed, once interleaved and once sequentially; the
// controls, the two points, the chart's per-round rows, the table and CSV columns, and what
// the analysis box shows of each row (core's verdict, warning and statistics, unchanged).
// No DOM and no statistic: core's runAB measures and compares.

import {
  formatD,
  formatInterval,
  formatP,
  formatRatio,
  kernelChoices,
  parseKernel,
  roundRows,
  sizeProblem,
} from './compare-common.js';

/** The two modes, in the order they run and are shown. */
export const MODES = Object.freeze(['interleaved', 'sequential']);

/**
 * Rounds per arm and the warmup; quick mode keeps the whole experiment to a few seconds
 * (noisier: fewer rounds give the tests less to go on).
 */
export const FULL_AB = Object.freeze({ rounds: 30, warmup: 3 });
export const QUICK_AB = Object.freeze({ rounds: 8, warmup: 1 });
export const abSettings = (quick) => (quick ? QUICK_AB : FULL_AB);

const kernelSelect = (id, label, fallback) => ({
  id,
  type: 'select',
  label,
  default: fallback,
  options: ({ lab }) => kernelChoices(lab, 'benchmarking-ab-run'),
});

export const AB_CONTROLS = Object.freeze([
  kernelSelect('variant-a', 'A (baseline)', 'matmul:simd'),
  {
    ...kernelSelect('variant-b', 'B (candidate)', 'matmul:packed'),
    validate: (b, values) => {
      const a = parseKernel(values['variant-a']);
      const other = parseKernel(b);
      if (values['variant-a'] === b) return 'B must differ from A: pick another variant (the A/A experiment above compares a kernel with itself)';
      if (a.op !== other.op) return `A and B must be variants of the same kernel: A is a ${a.op} variant, B a ${other.op} one`;
      return null;
    },
  },
  {
    id: 'n',
    type: 'number',
    label: 'Size n',
    integer: true,
    min: 1,
    default: 128,
    hint: 'n is N for an N×N matmul, the number of elements GELU runs over, or a zoo model’s batch.',
    validate: (n, values) => sizeProblem(values['variant-a'], n),
  },
  {
    id: 'seed',
    type: 'number',
    label: 'Seed',
    integer: true,
    min: 0,
    max: 2 ** 31 - 1,
    default: 1,
    hint: 'The seed shuffles the order within each round and drives the bootstrap; both modes use the same one.',
  },
]);

/** Two runAB points, interleaved then sequential, same kernel, size and seed. */
export function abPoints(values, { quick } = {}) {
  const a = parseKernel(values['variant-a']);
  const b = parseKernel(values['variant-b']);
  const { rounds, warmup } = abSettings(quick);
  return MODES.map((mode) => ({
    op: a.op,
    variant_a: a.variant,
    variant_b: b.variant,
    n: values.n,
    options: { mode, rounds, warmup, seed: values.seed },
  }));
}

/** "A: simd" — the chart's series name of an arm. */
export const armLabel = (arm, variant) => `${arm}: ${variant}`;

/** The chart's rows for one mode: each round's per-call time of A and of B. */
export function roundSeries(rows, mode) {
  return rows
    .filter((r) => r.mode === mode)
    .flatMap((r) => [
      ...r.a_ms.map((ms, i) => ({ round: i + 1, ms, arm: armLabel('A', r.variant_a) })),
      ...r.b_ms.map((ms, i) => ({ round: i + 1, ms, arm: armLabel('B', r.variant_b) })),
    ]);
}

/** Both arms' series names, so colours stay the same across the two charts. */
export function armDomain(values) {
  if (!values?.['variant-a']) return undefined;
  return [armLabel('A', parseKernel(values['variant-a']).variant), armLabel('B', parseKernel(values['variant-b']).variant)];
}

/** Which arms core found drifting across the rounds: "B", "A and B", or "none". */
export function driftedArms(row) {
  const arms = [row.drift_a?.detected && 'A', row.drift_b?.detected && 'B'].filter(Boolean);
  return arms.length ? arms.join(' and ') : 'none';
}

/** Integer ticks for a round axis of `rounds` rounds: every round up to 10, else 1 and every 5th. */
export function roundTicks(rounds) {
  const all = Array.from({ length: rounds }, (_, i) => i + 1);
  return rounds <= 10 ? all : all.filter((r) => r === 1 || r % 5 === 0);
}

export const AB_COLUMNS = Object.freeze([
  { key: 'mode', label: 'mode', format: 'text' },
  { key: 'rounds', label: 'rounds', format: 'int' },
  { key: 'comparison.median_a', label: 'median A', unit: 'ms', format: 'sig' },
  { key: 'comparison.median_b', label: 'median B', unit: 'ms', format: 'sig' },
  { label: 'ratio A/B', format: (r) => formatRatio(r.comparison.ratio) },
  { label: 'ratio CI', format: (r) => formatInterval(r.comparison.ratio_interval) },
  { label: 'Mann-Whitney p', format: (r) => formatP(r.comparison.mann_whitney.p_value) },
  { label: 'Welch p', format: (r) => formatP(r.comparison.welch.p_value) },
  { label: 'Cohen’s d', format: (r) => formatD(r.comparison.cohens_d) },
  { key: 'comparison.cliffs_delta', label: 'Cliff’s δ', format: 'sig' },
  { key: 'comparison.verdict.name', label: 'verdict', format: 'text' },
  { label: 'drift in', format: driftedArms, align: 'left' },
]);

/** One line per mode: core's comparison flattened, and both arms' samples as space-separated lists. */
export const AB_CSV_COLUMNS = Object.freeze([
  'build',
  'op',
  'n',
  'variant_a',
  'variant_b',
  'mode',
  'rounds',
  'inner_iterations_a',
  'inner_iterations_b',
  'resolution_ms',
  { name: 'median_a_ms', value: (r) => r.comparison.median_a },
  { name: 'median_b_ms', value: (r) => r.comparison.median_b },
  { name: 'ratio', value: (r) => r.comparison.ratio },
  { name: 'ratio_low', value: (r) => r.comparison.ratio_interval.low },
  { name: 'ratio_high', value: (r) => r.comparison.ratio_interval.high },
  { name: 'mann_whitney_p', value: (r) => r.comparison.mann_whitney.p_value },
  { name: 'welch_p', value: (r) => r.comparison.welch.p_value },
  { name: 'cohens_d', value: (r) => r.comparison.cohens_d },
  { name: 'cliffs_delta', value: (r) => r.comparison.cliffs_delta },
  { name: 'seed', value: (r) => r.comparison.seed },
  { name: 'verdict', value: (r) => r.comparison.verdict.name },
  { name: 'sentence', value: (r) => r.comparison.verdict.sentence },
  { name: 'warning', value: (r) => r.comparison.warning },
  { name: 'a_ms', value: (r) => r.a_ms.join(' ') },
  { name: 'b_ms', value: (r) => r.b_ms.join(' ') },
]);

/** The per-round CSV's columns (compare-common.js roundRows with the mode). */
export const AB_ROUND_FIELDS = Object.freeze(['mode', 'op', 'n', 'variant_a', 'variant_b']);
export const abRoundRows = (rows) => roundRows(rows, AB_ROUND_FIELDS);

/**
 * What the analysis box shows: each mode's row as core reported it (verdict, warning,
 * statistics, drift of each arm), plus its rounds for the per-round CSV.
 */
export function abAnalysis(rows) {
  const modes = MODES.map((mode) => rows.find((r) => r.mode === mode)).filter(Boolean);
  return {
    modes: modes.map((r) => ({
      mode: r.mode,
      variant_a: r.variant_a,
      variant_b: r.variant_b,
      comparison: r.comparison,
      drift_a: r.drift_a,
      drift_b: r.drift_b,
    })),
    rounds: abRoundRows(modes),
  };
}
