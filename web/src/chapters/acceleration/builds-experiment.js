// The scalar-vs-SIMD build experiment (acceleration-builds): the same C++ compiled twice,
// with and without -msimd128, each matmul point measured in both builds one after the
// other (a measureMatmul sweep with builds); GFLOP/s side by side and the SIMD ÷ scalar ratio.
// Not for: running, drawing or timing (experiments/, the lab worker and core do).

import { declaredSweep } from '../../lab/client.js';
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
      'they use no vectors. The variants written with 128-bit vectors should gain up to 4×, ' +
      'less where memory, not arithmetic, is the limit.',
  ],
  quickNote: 'Quick mode (?quick=1): N = 64 and 128, small time budgets.',

  async init({ bridge, slot, h }) {
    const variants = await coreList(bridge, 'matmulVariants', 'acceleration-builds-run');
    slot.replaceChildren(variantList(h, variants));
    return { variants: variants.map((v) => v.name) };
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
        emptyText: 'The ratio appears once a point is measured in both builds.',
        height: 260,
      },
      data: (rows) => speedups(rows),
    },
  ],
};
