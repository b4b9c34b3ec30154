// The A/B experiment (benchmarking-ab), declared for the experiment framework: two variants
// of one kernel compared by core's runAB interleaved and then sequentially with the same
// seed, or one variant in the scalar build against the SIMD build (each arm's batch
// calibrated once in its build, one sampleKernel point per arm and round in core's seeded
// order, the rounds paired and analysed by core's analyzeAB); per-round times of both arms
// in each mode, core's two verdicts side by side with their statistics and drift warnings,
// and the per-round samples as CSV.
// Not for: running, timing or any statistic (the framework runs, core measures and judges).

import { labelOf } from '../../lab/api.js';
import { declaredSweep, sweepOnce } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { toCsv } from '../../experiments/csv.js';
import { downloadText } from '../../ui/download.js';
import { formatSig } from '../../ui/format.js';
import {
  AB_COLUMNS,
  AB_CONTROLS,
  AB_EXPERIMENT_CSV_COLUMNS,
  ID,
  MODES,
  abAnalysis,
  abPoints,
  abSettings,
  armDomain,
  armText,
  assembledRow,
  buildPointLabel,
  buildPrepared,
  calibrationPoints,
  driftText,
  pairRounds,
  roundSeries,
  roundTicks,
} from './ab-data.js';
import { formatD, formatInterval, formatP, formatRatio, levelText } from './compare-common.js';

const MODE_TITLE = Object.freeze({
  interleaved: 'Interleaved: A and B alternate, order shuffled within each round',
  sequential: 'Sequential: every A round first, then every B round',
});

const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function driftLine(h, arm, d) {
  if (!d) return null;
  return [h('dt', { text: `drift of ${arm} across rounds` }), h('dd', { text: driftText(d) })];
}

/** One mode's verdict card: core's sentence, its warning, and the numbers behind them. */
function modeCard(h, m) {
  const c = m.comparison;
  const mw = c.mann_whitney;
  return h(
    'div',
    { class: 'compare-card', 'data-mode': m.mode, 'data-verdict': c.verdict.name, 'data-verdict-word': c.verdict.word },
    h('h4', { text: `${capital(m.mode)}: A = ${armText(m.variant_a, m.build_a)}, B = ${armText(m.variant_b, m.build_b)}` }),
    h('p', { class: 'verdict', 'data-role': 'verdict', text: c.verdict.sentence }),
    c.warning ? h('p', { class: 'warning', 'data-role': 'warning', text: `Warning: ${c.warning}` }) : null,
    h(
      'dl',
      {},
      h('dt', { text: 'ratio of medians A/B (> 1: B faster)' }),
      h('dd', { text: `${formatRatio(c.ratio)}, ${levelText(c.alpha)} CI ${formatInterval(c.ratio_interval)}` }),
      h('dt', { text: 'medians' }),
      h('dd', { text: `A ${formatSig(c.median_a)} ms, B ${formatSig(c.median_b)} ms (${c.n_a} and ${c.n_b} rounds)` }),
      h('dt', { text: 'Mann-Whitney U (the verdict’s test)' }),
      h('dd', { text: `p ${formatP(mw.p_value)} (${mw.exact ? 'exact' : 'normal approximation'})` }),
      h('dt', { text: 'Welch’s t (shown, not used)' }),
      h('dd', { text: `p ${formatP(c.welch.p_value)}` }),
      h('dt', { text: 'Cohen’s d' }),
      h('dd', { text: formatD(c.cohens_d) }),
      h('dt', { text: 'Cliff’s δ' }),
      h('dd', { text: formatSig(c.cliffs_delta) }),
      ...(driftLine(h, 'A', m.drift_a) ?? []),
      ...(driftLine(h, 'B', m.drift_b) ?? []),
    ),
  );
}

const roundChart = (mode) => ({
  type: 'line',
  name: mode,
  title: MODE_TITLE[mode],
  options: ({ values, info }) => ({
    x: 'round',
    y: 'ms',
    series: 'arm',
    seriesDomain: armDomain(values),
    // The rounds are core's plan, drawn once init has it.
    xTicks: info ? roundTicks(abSettings(info).rounds) : undefined,
    xDomain: info ? [1, abSettings(info).rounds] : undefined,
    // Log: one slow round (an interrupt) would otherwise flatten every other round.
    yType: 'log',
    xLabel: 'Round (one sample of each arm per round) →',
    yLabel: '↑ Time per call (ms, log scale)',
    ariaLabel: `Time per call of A and B in each round, ${mode} run`,
    emptyText: 'Press Run to measure.',
    height: 260,
  }),
  data: (rows) => roundSeries(rows, mode),
});

const crossBuild = (values) => values.compare === 'builds';

/**
 * Across builds, before the plan: core's seeded order of the rounds in each mode, and each
 * build's calls per sample calibrated once there (the timer's rule), so every round's sample
 * of an arm is the same batch.
 */
async function prepareBuilds(values, { lab, bridge, info, signal, where }) {
  if (!crossBuild(values)) return null;
  const { rounds } = abSettings(info);
  const orders = {};
  for (const mode of MODES) orders[mode] = await lab.abRoundOrder(mode, rounds, values.seed, { signal, where });
  const calibration = await sweepOnce(bridge, 'sampleKernel', { points: calibrationPoints(values, { info }) }, { signal, where });
  return buildPrepared(orders, calibration.rows);
}

/** Across builds, after the sweep (or a cancel): each mode's complete rounds, analysed by core. */
async function assembleBuilds(rows, { lab, values, signal, where }) {
  if (!crossBuild(values)) return rows;
  const out = [];
  for (const pair of pairRounds(rows)) {
    const analysis = await lab.analyzeAB(pair.a_ms, pair.b_ms, pair.a_first, { mode: pair.mode, seed: values.seed }, { signal, where });
    out.push(assembledRow(pair, analysis));
  }
  return out;
}

export const abExperiment = {
  id: ID,
  // Its runs are sized by their own controls (rounds, repeats, the suite's timer), not by
  // a point's samples: Measure longer would have nothing to scale.
  measureLonger: false,
  title: 'Experiment: A/B, interleaved against sequential',
  explanation: [
    'Pick two variants of one kernel and a size. Core’s A/B runner times them twice with the same seed: ' +
      '<b>interleaved</b> (every round runs A and B once each, in an order the seed shuffles) and ' +
      '<b>sequential</b> (all of A’s rounds, then all of B’s). Both use the same warmup and batching; each ' +
      'sample is the time per call of a batch. Core then compares the two samples of each run and gives its ' +
      'verdict, and warns when either arm’s time trends across the rounds.',
    'On a steady machine the two verdicts usually agree. When something drifts (another program starts, the ' +
      'processor warms up), the sequential run adds the drift to the difference, and the interleaved run ' +
      'spreads it over both arms and flags it.',
    '<b>Scalar build against SIMD build</b> times variant A in the page’s two WebAssembly builds of the same ' +
      'C++, one compiled with <code>-msimd128</code> and one without. The two are separate modules, so each ' +
      'round times A in the scalar build and B in the SIMD build as two separate steps, in the order core’s ' +
      'seeded generator gives (the one runAB uses), each build’s batch calibrated once before the rounds; core ' +
      'then compares the rounds exactly as it compares a runAB run. A loop written for scalars (naive, ' +
      'reordered, fused, unfused) uses no vector type, so expect about the same time in both builds. A vector ' +
      'variant (simd, packed, unfused-simd, fused-simd) is another matter: ' +
      'the scalar build emulates its vector type, each vector operation becoming four scalar ones plus copies ' +
      'through memory, so the SIMD build can come out more than 4× faster there. That excess is the cost of the ' +
      'emulation, not extra gain from SIMD (the Acceleration chapter’s build experiment shows it per variant).',
  ],
  quickNote: ({ info }) =>
    info && `Quick mode (?quick=1): ${info.plan.rounds} rounds per arm instead of ${info.fullPlan.rounds}, so the tests have less to go on.`,
  // Core's plan of the rounds (and the full one, which the quick note compares with).
  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),
  controls: AB_CONTROLS,
  prepare: prepareBuilds,
  plan: abPoints,
  measure: ({ values }) => (crossBuild(values) ? declaredSweep('sampleKernel') : declaredSweep('runAB')),
  pointLabel: (p) => (p.arm ? buildPointLabel(p) : labelOf('runAB', p)),
  assemble: assembleBuilds,
  // Core's verdicts are already in the rows; the analysis lays them out side by side.
  analyze: async (rows) => abAnalysis(rows),
  renderAnalysis: (analysis, { h }) => [
    h('div', { class: 'compare-cards' }, ...analysis.modes.map((m) => modeCard(h, m))),
    h(
      'div',
      { class: 'actions' },
      h('button', {
        type: 'button',
        'data-action': 'rounds-csv',
        text: 'Download per-round samples (CSV)',
        onclick: () => downloadText('perflab-benchmarking-ab-rounds.csv', toCsv(analysis.rounds), 'text/csv'),
      }),
    ),
  ],
  columns: AB_COLUMNS,
  tableCaption:
    'One row per mode, every number core’s. The ratio is median A / median B with its bootstrap interval; ' +
    'drift compares the median of the last third of rounds with the first third, and is called only when ' +
    'Spearman’s rank correlation with the round is also significant: with few rounds only a nearly perfect ' +
    'order is (core says how strong it must be, and when there are too few rounds for any order to count).',
  csv: { filename: 'perflab-benchmarking-ab.csv', columns: AB_EXPERIMENT_CSV_COLUMNS },
  charts: MODES.map(roundChart),
};
