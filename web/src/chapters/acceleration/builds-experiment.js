// The scalar-vs-SIMD build experiment (acceleration-builds): the same C++ compiled twice,
// with and without -msimd128, each matmul point measured in both builds one after the
// other (a measureMatmul sweep with builds); GFLOP/s side by side and the SIMD ÷ scalar ratio.
// Not for: running, drawing or timing (experiments/, the lab worker and core do).

import { declaredSweep } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { coreList, variantList } from './machine.js';
import { BUILDS, CSV_COLUMNS, TABLE_COLUMNS, buildsPayload, buildsPoints, pointName, speedups } from './builds-data.js';

export const buildsExperiment = {
  id: 'acceleration-builds',
  title: 'Experiment: the same C++, with and without SIMD',
  explanation: [
    'The page carries two WebAssembly binaries of the same source: one compiled with ' +
      '<code>-msimd128</code>, one without (its vector type falls back to four scalar floats). ' +
      'Each point below is measured in one build, then at once in the other, so both see the ' +
      'machine in the same state.',
    'Expect the scalar loops (naive, reordered) to run at the same speed in both builds: ' +
      'they use no vectors. A 128-bit vector holds four floats, so vectors alone can make the ' +
      'arithmetic at most 4× faster than good scalar code.',
    'The ratio chart below compares something else: a vector variant in the SIMD build against ' +
      'the same variant in the scalar build. There its vector type is emulated, each vector ' +
      'operation becoming four scalar ones plus copies through memory, which is slower than a ' +
      'loop written for scalars. So the ratio of a vector variant can exceed the 4× line, and ' +
      'does on most machines: that excess is the cost of the emulation, not extra gain from ' +
      'SIMD. To see what vectors gain over good scalar code, compare a vector variant’s GFLOP/s ' +
      'in the SIMD build with the reordered loop’s in the first chart.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): N = ${formatList(info.plan.sizes)}, small time budgets.`,

  // Core's variants and core's plan (sizes, caps, Timer options).
  async init({ bridge, slot, h, quick }) {
    const [variants, plans] = await Promise.all([
      coreList(bridge, 'matmulVariants', 'acceleration-builds-run'),
      experimentPlans(bridge, 'acceleration-builds', quick),
    ]);
    slot.replaceChildren(variantList(h, variants));
    return { variants: variants.map((v) => v.name), ...plans };
  },

  plan: buildsPoints,
  measure: declaredSweep('measureMatmul', { payload: buildsPayload }),
  pointLabel: (p) => `${p.variant} at N=${p.n}, both builds`,
  derive: (row) => ({ ...row, point: pointName(row) }),

  columns: TABLE_COLUMNS,
  tableCaption: 'Every measured point, each in both builds; times are per call.',
  csv: { filename: 'perflab-acceleration-builds.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'bar',
      title: 'GFLOP/s in each build',
      name: 'gflops',
      options: {
        x: 'point',
        y: 'gflops_per_s',
        series: 'build',
        seriesDomain: [...BUILDS],
        xLabel: null, // the two-line ticks name themselves; a label would overprint them
        yLabel: '↑ Throughput (GFLOP/s)',
        ariaLabel: 'Matrix multiply GFLOP/s per variant and size, SIMD build beside scalar build',
        emptyText: 'Press Run to measure.',
        height: 320,
      },
    },
    {
      type: 'bar',
      title: 'SIMD build ÷ scalar build (same point)',
      name: 'speedup',
      options: {
        x: 'point',
        y: 'simd_over_scalar',
        xLabel: null, // the two-line ticks name themselves; a label would overprint them
        yLabel: '↑ GFLOP/s of SIMD build ÷ scalar build (×)',
        ariaLabel: 'Speed-up of the SIMD build over the scalar build for each variant and size',
        // 1×: no gain; 4×: what four lanes can give over good scalar code.
        references: [
          { y: 1, label: '1× (no gain)' },
          { y: 4, label: '4× (four float lanes)' },
        ],
        emptyText: 'The ratio appears once a point is measured in both builds.',
        height: 260,
      },
      data: (rows) => speedups(rows),
    },
  ],
};
