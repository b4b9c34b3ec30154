// The pure half of the A/B experiment (benchmarking-ab): two variants of one kernel compared
// by core's runAB twice with the same seed, once interleaved and once sequentially, or one
// variant in the scalar build against the SIMD build (two wasm modules, so each round's arm
// is a sampleKernel point in its build, in core's seeded order, paired and analysed by
// core's analyzeAB into runAB's shape); the controls, the points, the chart's per-round
// rows, the table and CSV columns, and what the analysis box shows of each row (core's
// verdict, warning and statistics, unchanged).
// No DOM and no statistic: core measures, orders the rounds and compares.

import { planOf } from '../../experiments/plans.js';
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

export const ID = 'benchmarking-ab';

/**
 * Rounds per arm and the warmup, core's plan (experimentPlan, init's `info.plan`): quick mode
 * keeps the whole experiment to a few seconds (noisier: fewer rounds give the tests less to go on).
 */
export const abSettings = (info) => planOf(info, 'the A/B rounds', ['rounds', 'warmup']);

const kernelSelect = (id, label, fallback) => ({
  id,
  type: 'select',
  label,
  default: fallback,
  options: ({ lab }) => kernelChoices(lab, 'benchmarking-ab-run'),
});

/** What the experiment compares: two variants in this page's build, or one variant in both builds. */
export const COMPARISONS = Object.freeze([
  { value: 'variants', label: 'variant A against variant B' },
  { value: 'builds', label: 'scalar build against SIMD build (variant A in both)' },
]);

/** The cross-build comparison's arms: A, the baseline, in the scalar build; B in the SIMD build. */
export const BUILD_ARMS = Object.freeze({ A: 'scalar', B: 'simd' });
export const BUILD_NAMES = Object.freeze({ simd: 'SIMD', scalar: 'scalar' });
const crossBuild = (values) => values?.compare === 'builds';

export const AB_CONTROLS = Object.freeze([
  {
    id: 'compare',
    type: 'select',
    label: 'Compare',
    default: 'variants',
    options: COMPARISONS,
    hint: 'Scalar build against SIMD build times variant A in the two WebAssembly builds of the same C++, one sample of each per round.',
  },
  kernelSelect('variant-a', 'A (baseline)', 'matmul:simd'),
  {
    ...kernelSelect('variant-b', 'B (candidate)', 'matmul:packed'),
    // Across builds B is variant A in the SIMD build: this select would change nothing.
    ignoredWhen: (raws) =>
      crossBuild(raws) ? 'not used: across builds, B is variant A in the SIMD build' : null,
    validate: (b, values) => {
      if (crossBuild(values)) return null; // B is variant A in the SIMD build
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

/**
 * The points of a run: two runAB points (interleaved then sequential, same kernel, size and
 * seed), or across builds the sampleKernel points of buildPoints.
 */
export function abPoints(values, ctx = {}) {
  if (crossBuild(values)) return buildPoints(values, ctx);
  const a = parseKernel(values['variant-a']);
  const b = parseKernel(values['variant-b']);
  const { rounds, warmup } = abSettings(ctx.info);
  return MODES.map((mode) => ({
    op: a.op,
    variant_a: a.variant,
    variant_b: b.variant,
    n: values.n,
    options: { mode, rounds, warmup, seed: values.seed },
  }));
}

// ---- across builds: calibration, the seeded schedule, and the pairing of its samples

/** Calls per sample are calibrated once per build, by the timer's rule, before the rounds. */
export const CALIBRATION_SAMPLES = 1;
/** Untimed calls before each round's sample: its inputs are built afresh in the other module. */
export const ROUND_WARMUP = 1;

/** One sampleKernel point per build that calibrates its batch (the timer's rule, as runAB's). */
export function calibrationPoints(values, { info } = {}) {
  const a = parseKernel(values['variant-a']);
  return Object.entries(BUILD_ARMS).map(([arm, build]) => ({
    arm,
    build,
    op: a.op,
    variant: a.variant,
    n: values.n,
    options: { warmup: abSettings(info).warmup, samples: CALIBRATION_SAMPLES },
  }));
}

/**
 * What the cross-build plan needs from core: its seeded order for each mode (abRoundOrder)
 * and each arm's calibrated calls per sample, from the calibration rows.
 */
export function buildPrepared(orders, calibrationRows) {
  const calibration = Object.fromEntries(
    calibrationRows.map((r) => [r.arm, { build: r.build, inner_iterations: r.inner_iterations, resolution_ms: r.resolution_ms }]),
  );
  return { orders, calibration };
}

/**
 * Across builds: one sampleKernel point per arm and round, each in its arm's build, in the
 * order core gave (interleaved: per round, A first where a_first; sequential: every A round,
 * then every B round), both modes with the calibrated batch of each arm.
 */
export function buildPoints(values, { prepared } = {}) {
  if (!prepared?.orders || !prepared?.calibration) throw new Error('the cross-build plan needs core’s order and calibration first');
  const a = parseKernel(values['variant-a']);
  const point = (mode, round, arm, aFirst) => ({
    mode,
    round: round + 1,
    arm,
    a_first: aFirst,
    build: BUILD_ARMS[arm],
    op: a.op,
    variant: a.variant,
    n: values.n,
    options: { warmup: ROUND_WARMUP, samples: 1, inner_iterations: prepared.calibration[arm].inner_iterations },
  });
  return MODES.flatMap((mode) => {
    const order = prepared.orders[mode];
    if (mode === 'sequential') {
      return ['A', 'B'].flatMap((arm) => order.map((f, r) => point(mode, r, arm, f)));
    }
    return order.flatMap((f, r) => (f ? ['A', 'B'] : ['B', 'A']).map((arm) => point(mode, r, arm, f)));
  });
}

/** "interleaved round 3: A, packed in the scalar build" — a cross-build point's progress label. */
export const buildPointLabel = (p) =>
  `${p.mode} round ${p.round}: ${p.arm}, ${p.variant} in the ${BUILD_NAMES[p.build]} build`;

/**
 * The measured samples of each mode paired by round, complete rounds only (a cancelled run
 * keeps its finished rounds), in round order: what core's analyzeAB takes, plus what the
 * samples were measured with. Arranging only: no statistic.
 */
export function pairRounds(pieces) {
  return MODES.map((mode) => {
    const byRound = new Map();
    for (const p of pieces.filter((x) => x.mode === mode)) {
      byRound.set(p.round, { ...byRound.get(p.round), [p.arm]: p });
    }
    const rounds = [...byRound.keys()].sort((x, y) => x - y).map((r) => byRound.get(r)).filter((r) => r.A && r.B);
    if (rounds.length === 0) return null;
    const first = rounds[0];
    return {
      mode,
      identity: {
        op: first.A.op,
        n: first.A.n,
        variant_a: first.A.variant,
        variant_b: first.B.variant,
        build_a: first.A.build,
        build_b: first.B.build,
        inner_iterations_a: first.A.inner_iterations,
        inner_iterations_b: first.B.inner_iterations,
        resolution_ms: first.A.resolution_ms,
      },
      a_ms: rounds.map((r) => r.A.samples_ms[0]),
      b_ms: rounds.map((r) => r.B.samples_ms[0]),
      a_first: rounds.map((r) => r.A.a_first),
    };
  }).filter(Boolean);
}

/** One row per mode in runAB's shape: what was measured, then core's analysis of the rounds. */
export const assembledRow = (pair, analysis) => ({
  build: `${pair.identity.build_a} + ${pair.identity.build_b}`,
  ...pair.identity,
  ...analysis,
});

/** "A: simd", or across builds "A: packed, scalar build" — the chart's series name of an arm. */
export const armLabel = (arm, variant, build) => `${arm}: ${variant}${build ? `, ${BUILD_NAMES[build]} build` : ''}`;

/** "packed in the scalar build", or the variant alone when both arms ran in one build. */
export const armText = (variant, build) => (build ? `${variant} in the ${BUILD_NAMES[build]} build` : variant);

/** The chart's rows for one mode: each round's per-call time of A and of B (rows, or a cross-build run's samples). */
export function roundSeries(rows, mode) {
  return rows
    .filter((r) => r.mode === mode)
    .flatMap((r) =>
      r.a_ms
        ? [
            ...r.a_ms.map((ms, i) => ({ round: i + 1, ms, arm: armLabel('A', r.variant_a, r.build_a) })),
            ...r.b_ms.map((ms, i) => ({ round: i + 1, ms, arm: armLabel('B', r.variant_b, r.build_b) })),
          ]
        : [{ round: r.round, ms: r.samples_ms[0], arm: armLabel(r.arm, r.variant, r.build) }],
    );
}

/** Both arms' series names, so colours stay the same across the two charts. */
export function armDomain(values) {
  if (!values?.['variant-a']) return undefined;
  const a = parseKernel(values['variant-a']).variant;
  if (crossBuild(values)) return [armLabel('A', a, BUILD_ARMS.A), armLabel('B', a, BUILD_ARMS.B)];
  return [armLabel('A', a), armLabel('B', parseKernel(values['variant-b']).variant)];
}

/**
 * Which arms core found drifting across the rounds: "B", "A and B", "none", or "too few rounds
 * to tell" when core's rule could not have fired at this many rounds.
 */
export function driftedArms(row) {
  const arms = [row.drift_a?.detected && 'A', row.drift_b?.detected && 'B'].filter(Boolean);
  if (arms.length) return arms.join(' and ');
  const d = row.drift_a;
  return d && d.rounds < d.min_rounds ? 'too few rounds to tell' : 'none';
}

/**
 * One arm's drift as core judged it: core's sentence, which names the rule beside what it
 * found, or says "too few rounds to detect drift" when the rule could not have fired at this
 * many rounds (core computes from which round count it can).
 */
export const driftText = (d) => d.sentence;

/** Integer ticks for a round axis of `rounds` rounds: every round up to 10, else 1 and every 5th. */
export function roundTicks(rounds) {
  const all = Array.from({ length: rounds }, (_, i) => i + 1);
  return rounds <= 10 ? all : all.filter((r) => r === 1 || r % 5 === 0);
}

/** The columns of core's comparison of two arms that the A/B and A/A tables both show. */
export const COMPARISON_COLUMNS = Object.freeze([
  { key: 'comparison.median_a', label: 'median A', unit: 'ms', format: 'sig' },
  { key: 'comparison.median_b', label: 'median B', unit: 'ms', format: 'sig' },
  { label: 'ratio A/B', format: (r) => formatRatio(r.comparison.ratio) },
  { label: 'ratio CI', format: (r) => formatInterval(r.comparison.ratio_interval) },
  { label: 'Mann-Whitney p', format: (r) => formatP(r.comparison.mann_whitney.p_value) },
]);

/** The comparison's verdict (core's word, not its identifier) and the arms that drifted: the tables' last columns. */
export const VERDICT_COLUMNS = Object.freeze([
  { key: 'comparison.verdict.word', label: 'verdict', format: 'text' },
  { label: 'drift in', format: driftedArms, align: 'left' },
]);

export const AB_COLUMNS = Object.freeze([
  { key: 'mode', label: 'mode', format: 'text' },
  { key: 'rounds', label: 'rounds', format: 'int' },
  ...COMPARISON_COLUMNS,
  { label: 'Welch p', format: (r) => formatP(r.comparison.welch.p_value) },
  { label: 'Cohen’s d', format: (r) => formatD(r.comparison.cohens_d) },
  { key: 'comparison.cliffs_delta', label: 'Cliff’s δ', format: 'sig' },
  ...VERDICT_COLUMNS,
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

/** The A/B experiment's CSV: the columns above with the build each arm ran in (the scalar and SIMD builds across builds). */
export const AB_EXPERIMENT_CSV_COLUMNS = Object.freeze([
  ...AB_CSV_COLUMNS.slice(0, 5),
  { name: 'build_a', value: (r) => r.build_a ?? r.build },
  { name: 'build_b', value: (r) => r.build_b ?? r.build },
  ...AB_CSV_COLUMNS.slice(5),
]);

/** The per-round CSV's columns (compare-common.js roundRows with the mode). */
export const AB_ROUND_FIELDS = Object.freeze(['mode', 'op', 'n', 'variant_a', 'variant_b', 'build_a', 'build_b']);
export const abRoundRows = (rows) =>
  roundRows(
    rows.map((r) => ({ ...r, build_a: r.build_a ?? r.build, build_b: r.build_b ?? r.build })),
    AB_ROUND_FIELDS,
  );

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
      build_a: r.build_a,
      build_b: r.build_b,
      comparison: r.comparison,
      drift_a: r.drift_a,
      drift_b: r.drift_b,
    })),
    rounds: abRoundRows(modes),
  };
}
