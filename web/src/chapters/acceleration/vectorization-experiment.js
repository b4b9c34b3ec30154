// The vectorization-scaling experiment (acceleration-vectorization), declared for the
// experiment framework: every matmul variant from N = 64 to 2048, time, GFLOP/s, GB/s and
// the share of this machine's probed peak; charts of GFLOP/s and time against N.
// Not for: running, drawing or timing (experiments/ runs and draws; core times).

import { declaredSweep } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { coreList, variantList } from './machine.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { placedAgainst, probeLine } from '../../ui/probe-line.js';
import { CSV_COLUMNS, SLOW_SIZES_CONTROL, TABLE_COLUMNS, sweepOf, vectorizationPoints, withPeakShare } from './vectorization-data.js';

const xAxis = (quick) => {
  const { sizes } = sweepOf(quick);
  return {
    x: 'n',
    series: 'variant',
    xType: 'log',
    xTicks: sizes,
    xDomain: [sizes[0], sizes[sizes.length - 1]],
    xBase: 2, // so every power-of-two N is labelled
    xLabel: 'Matrix size N (N×N @ N×N, log scale) →',
  };
};

export const vectorizationExperiment = {
  id: 'acceleration-vectorization',
  title: 'Experiment: vectorization scaling, every matmul variant',
  explanation: [
    'The same N×N product, 2·N³ FLOPs and ideally 12·N² bytes, computed by each variant ' +
      'below. Each point is the median of several timed calls; GFLOP/s = 2·N³ / median, ' +
      'GB/s = 12·N² / median (the ideal traffic: real traffic is higher once the operands ' +
      'leave the cache), and "of peak" divides GFLOP/s by the SIMD peak the probe measured ' +
      'on this machine when the chapter opened.',
    'naive stops at N = 512 and reordered at 1024: above that one call takes seconds. Tick ' +
      '“include slow sizes” to run them to N = 2048 too (minutes; Cancel keeps what was measured).',
  ],
  quickNote: 'Quick mode (?quick=1): N = 64 and 128 only, small time budgets. Remove it for N up to 2048.',
  controls: [
    buildControl({
      hint: 'The scalar build is the same C++ without -msimd128: its SIMD variants fall back to scalar code.',
    }),
    SLOW_SIZES_CONTROL,
  ],

  async init({ bridge, slot, h, update }) {
    const store = machineProbeStore(bridge);
    const [variants, entry] = await Promise.all([
      coreList(bridge, 'matmulVariants', 'acceleration-vectorization-run'),
      store.current({ where: 'acceleration-vectorization-run' }),
    ]);
    const names = variants.map((v) => v.name);
    slot.replaceChildren(variantList(h, variants), probeLine(store, { where: 'acceleration-vectorization-reprobe' }));
    // "of peak" in later Runs divides by the peak of the newest probe.
    store.subscribe((next) => update({ variants: names, peak_gflops_per_s: next.probe.peak_gflops_per_s, probe_entry: next }));
    return { variants: names, peak_gflops_per_s: entry.probe.peak_gflops_per_s, probe_entry: entry };
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
      options: ({ quick, info }) => ({
        ...xAxis(quick),
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
      options: ({ quick, info }) => ({
        ...xAxis(quick),
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
