// The FMA experiment (acceleration-fma): the packed matmul at core's planned sizes in the main
// module (multiply, then add) and on one thread of the kernel engine in each flavour it runs
// (fma, simd), GFLOP/s side by side. The main module's points are measured in the run's
// prepare (its own sweep), the engine's in the run's sweep; the rows are put together after.
// Not for: running, drawing or timing (experiments/, the lab worker, the engine and core do).

import { experimentPlans } from '../../experiments/plans.js';
import { MEASURE_LONGER_ID, scalePoints, withMeasureLongerControls } from '../../experiments/model.js';
import { declaredSweep, sweepOnce } from '../../lab/client.js';
import { formatInt, formatList } from '../../ui/format.js';
import { CSV_COLUMNS, MAIN, MAIN_VARIANT, TABLE_COLUMNS, combineRows, enginePoints, fmaSentences, mainPoints, sourceName } from './fma-data.js';

const ID = 'acceleration-fma';

export const fmaExperiment = {
  id: ID,
  title: 'Experiment: fused multiply-add against multiply, then add',
  explanation: ({ info }) => [
    `The same packed matmul${info?.plan ? ` at N = ${formatList(info.plan.sizes.map(formatInt))}` : ''}, three ways: ` +
      `the main module’s ${MAIN_VARIANT} kernel (WebAssembly SIMD, a multiply then an add), and the ` +
      'kernel engine’s two flavours of the same band code on one thread: simd (also a multiply then ' +
      'an add) and fma (relaxed SIMD’s fused multiply-add, where this browser has it). Every result ' +
      'is checked against the naive matmul before it is timed.',
    'simd against the main module shows what moving the kernel into the engine costs (nothing, ' +
      'ideally: the same code); fma against simd shows what the fused instruction buys.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): N = ${formatList(info.plan.sizes.map(formatInt))}, small time budgets.`,
  controls: [],

  init: ({ bridge, quick }) => experimentPlans(bridge, ID, quick),

  // The engine's facts (loading it at the first Run), then the main module's packed kernel at
  // each planned N: the baseline every engine row is set against.
  async prepare(values, { bridge, lab, info, signal, where, status }) {
    status('Loading the kernel engine…');
    const facts = await lab.engineFacts({ signal, where });
    const points = scalePoints(mainPoints(info), values[MEASURE_LONGER_ID] ?? '1').map(withMeasureLongerControls);
    status(`Measuring the main module’s ${MAIN_VARIANT} matmul (${points.length} sizes) before the engine…`);
    const { rows } = await sweepOnce(bridge, 'measureMatmul', { points }, {
      where,
      signal,
      onProgress: (fraction, detail) => {
        if (Number.isInteger(detail?.done)) status(`Measured the main module’s ${MAIN_VARIANT} matmul at ${detail.done} of ${points.length} sizes…`);
      },
    });
    return { facts, mainRows: rows.map((r) => ({ ...r, source: MAIN })) };
  },
  plan: enginePoints,
  // Chosen at Run, as the engine's facts are: the declaration is read only when a run measures.
  measure: () => declaredSweep('measureParallelMatmul'),
  pointLabel: (p) => `${sourceName(p.source)} at N=${p.n}`,
  derive: (row) => ({ ...row, source_name: sourceName(row.source) }),
  async assemble(rows, { prepared }) {
    return combineRows(prepared.mainRows, rows);
  },
  async analyze(rows, { prepared }) {
    return { sentences: fmaSentences(rows, prepared.facts) };
  },
  renderAnalysis: (analysis, { h }) => analysis.sentences.map(({ role, text }) => h('p', { 'data-role': `fma-${role}`, text })),

  columns: TABLE_COLUMNS,
  tableCaption: 'Every measured point, one thread each. “vs packed (main module)” = this row’s GFLOP/s ÷ the main module’s at the same N.',
  csv: { filename: 'perflab-acceleration-fma.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'bar',
      title: 'GFLOP/s of the packed matmul, three ways',
      options: {
        x: 'size',
        y: 'gflops_per_s',
        series: 'source_name',
        seriesDomain: [sourceName(MAIN), sourceName('simd'), sourceName('fma')],
        xLabel: 'Matrix size',
        yLabel: '↑ Throughput (GFLOP/s)',
        ariaLabel: 'Packed matmul GFLOP/s at each size: the main module, the engine without FMA and the engine with FMA',
        emptyText: 'Press Run to measure.',
        height: 300,
      },
      data: (rows) => rows.map((r) => ({ ...r, size: `N = ${formatInt(r.n)}` })),
    },
  ],
};
