// The vectorization-scaling experiment (acceleration-vectorization), declared for the
// experiment framework: every matmul variant at core's planned N, time, GFLOP/s, GB/s and
// the share of this machine's probed peak; charts of GFLOP/s and time against N.
// Not for: running, drawing or timing (experiments/ runs and draws; core times).

import { declaredSweep } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { experimentPlans } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { coreList, variantList } from './machine.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { placedAgainst, probeLine } from '../../ui/probe-line.js';
import { CSV_COLUMNS, SLOW_SIZES_CONTROL, TABLE_COLUMNS, vectorizationPoints, withPeakShare } from './vectorization-data.js';

// The N axis over core's planned sizes (once init has the plan).
const xAxis = (info) => {
  const sizes = info?.plan?.sizes ?? [];
  return {
    x: 'n',
    series: 'variant',
    xType: 'log',
    ...(sizes.length ? { xTicks: sizes, xDomain: [sizes[0], sizes.at(-1)] } : {}),
    xBase: 2, // so every power-of-two N is labelled
    xLabel: 'Matrix size N (N×N @ N×N, log scale) →',
  };
};

// "naive stops at N = 512 and reordered at 1024": the full plan's caps on the scalar loops.
const capsText = (maxN) =>
  formatList(Object.entries(maxN).map(([variant, n], i) => (i === 0 ? `${variant} stops at N = ${n}` : `${variant} at ${n}`)));

export const vectorizationExperiment = {
  id: 'acceleration-vectorization',
  title: 'Experiment: vectorization scaling, every matmul variant',
  explanation: ({ info }) => [
    'The same N×N product, 2·N³ FLOPs and ideally 12·N² bytes, computed by each variant ' +
      'below. Each point is the median of several timed calls; GFLOP/s = 2·N³ / median, ' +
      'GB/s = 12·N² / median (the ideal traffic: real traffic is higher once the operands ' +
      'leave the cache), and "of peak" divides GFLOP/s by the SIMD peak the probe measured ' +
      'on this machine when the chapter opened.',
    // The full plan's caps, once init has core's plan.
    info?.fullPlan &&
      `${capsText(info.fullPlan.maxN)}: above that one call takes seconds. Tick ` +
        `“include slow sizes” to run them to N = ${info.fullPlan.sizes.at(-1)} too (minutes; Cancel keeps what was measured).`,
  ],
  quickNote: ({ info }) =>
    info?.plan &&
    `Quick mode (?quick=1): N = ${formatList(info.plan.sizes)} only, small time budgets. Remove it for N up to ${info.fullPlan.sizes.at(-1)}.`,
  controls: [
    buildControl({
      hint: 'The scalar build is the same C++ without -msimd128: its SIMD variants fall back to scalar code.',
    }),
    SLOW_SIZES_CONTROL,
  ],

  async init({ bridge, slot, h, quick, update }) {
    const store = machineProbeStore(bridge);
    const [variants, entry, plans] = await Promise.all([
      coreList(bridge, 'matmulVariants', 'acceleration-vectorization-run'),
      store.current({ where: 'acceleration-vectorization-run' }),
      experimentPlans(bridge, 'acceleration-vectorization', quick),
    ]);
    const names = variants.map((v) => v.name);
    slot.replaceChildren(variantList(h, variants), probeLine(store, { where: 'acceleration-vectorization-reprobe' }));
    // "of peak" in later Runs divides by the peak of the newest probe.
    store.subscribe((next) => update({ variants: names, peak_gflops_per_s: next.probe.peak_gflops_per_s, probe_entry: next, ...plans }));
    return { variants: names, peak_gflops_per_s: entry.probe.peak_gflops_per_s, probe_entry: entry, ...plans };
  },
  // Names the probe whose peak "of peak" divides by.
  async analyze(rows, { info }) {
    return { probe_entry: info.probe_entry };
  },
  renderAnalysis: (analysis, { bridge }) =>
    placedAgainst(machineProbeStore(bridge), analysis.probe_entry, (time) => `“of peak” below divides by the SIMD peak of the machine probe of ${time}.`),

  plan: vectorizationPoints,
  measure: declaredSweep('measureMatmul'),
  derive: (row, { info }) => withPeakShare(row, info?.peak_gflops_per_s),

  columns: TABLE_COLUMNS,
  tableCaption:
    'Every measured point; times are per call. "of peak" is GFLOP/s over the probe’s SIMD peak ' +
    '(its fastest sample, so a median-timed kernel reads a little below it even at best).',
  csv: { filename: 'perflab-acceleration-vectorization.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      title: 'Throughput against N',
      options: ({ info }) => ({
        ...xAxis(info),
        y: 'gflops_per_s',
        seriesDomain: info?.variants,
        yLabel: '↑ Throughput (GFLOP/s)',
        ariaLabel: 'Matrix multiply throughput in GFLOP/s against matrix size N, one line per variant',
        emptyText: 'Press Run to measure.',
      }),
    },
    {
      type: 'line',
      title: 'Time per call against N (log-log: slope 3 is N³)',
      options: ({ info }) => ({
        ...xAxis(info),
        y: 'median_ms',
        yType: 'log',
        seriesDomain: info?.variants,
        yLabel: '↑ Median time per call (ms, log scale)',
        ariaLabel: 'Median time per matrix multiply in milliseconds against N, log-log, one line per variant',
        emptyText: 'Press Run to measure.',
      }),
      data: (rows) => rows.map((r) => ({ n: r.n, variant: r.variant, median_ms: r.stats.median_ms })),
    },
  ],
};
