// The "matmul: loops vs SIMD" experiment, declared for the experiment framework: every
// variant core lists at every size, GFLOP/s against N (log axis), a table and a CSV.
// `?quick=1` selects fewer sizes and smaller budgets (matmul-data.js).
// Not for: running, drawing or timing (experiments/ runs and draws; core times).

import { mountExperiment } from '../../experiments/experiment.js';
import { buildControl } from '../../experiments/model.js';
import { CSV_COLUMNS, QUICK_SWEEP, TABLE_COLUMNS, matmulPoints, sweepPlan } from './matmul-data.js';

export const matmulExperiment = {
  id: 'matmul',
  title: 'Experiment: matmul, loops vs SIMD',
  explanation:
    'The same N×N matrix product, 2·N³ floating-point operations, computed three ways ' +
    'by the C++ core compiled to WebAssembly. Each point is the median of several timed ' +
    'samples on this machine; GFLOP/s = 2·N³ / median time. Watch where the curves ' +
    'separate, and where they bend as the matrices stop fitting in cache.',
  quickNote:
    `Quick mode (?quick=1 in the address): ${QUICK_SWEEP.sizes.length} sizes and small ` +
    'time budgets, so the numbers are noisier. Remove it for the full sweep.',
  controls: [
    buildControl({
      hint: 'The scalar build is the same C++ compiled without -msimd128: its "simd" variant falls back to scalar code.',
    }),
  ],

  // Variant names and descriptions come from core, so the page lists what it will run.
  async init({ bridge, slot, h }) {
    const info = await bridge.call('machineInfo', {}, { where: 'matmul-variants' });
    slot.replaceChildren(
      h(
        'ul',
        { class: 'variants' },
        ...info.matmul_variants.map((v) => h('li', {}, h('code', { text: v.name }), ` ${v.description}`)),
      ),
    );
    return { variants: info.matmul_variants.map((v) => v.name) };
  },

  plan: matmulPoints,
  measure: { fn: 'measureMatmul' },

  columns: TABLE_COLUMNS,
  tableCaption:
    'Every measured point. Times are per call: the timer batches calls so that each sample ' +
    'outlasts the clock resolution. "samples" counts the samples kept after outliers were dropped.',
  csv: { filename: 'perflab-matmul.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      options: ({ quick, info }) => {
        const { sizes } = sweepPlan(quick);
        return {
          x: 'n',
          y: 'gflops_per_s',
          series: 'variant',
          seriesDomain: info?.variants,
          xType: 'log',
          xTicks: sizes,
          xDomain: [sizes[0], sizes[sizes.length - 1]],
          xLabel: 'Matrix size N (N×N @ N×N, log scale) →',
          yLabel: '↑ Throughput (GFLOP/s)',
          ariaLabel: 'Matrix multiply throughput in GFLOP/s against matrix size N, one line per variant',
          emptyText: 'Press Run to measure.',
        };
      },
    },
  ],
};

/** @returns {{destroy: () => void}} and the framework's getRows/getResult/run/cancel */
export function mountMatmulExperiment(container, { bridge, search }) {
  return mountExperiment(container, matmulExperiment, { bridge, search });
}
