// The operation-efficiency experiment (profiling-operation-efficiency): element-wise ops,
// reductions and matmul on one roofline of this machine, so "efficiency" is judged against
// what each op could reach, not against an assumed peak.
// Not for: planning or columns (operations-data.js) or measuring and placing (core).

import { rooflineReferences } from '../../charts/shape.js';
import { declaredSweep } from '../../lab/client.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { placedAgainst, probeLine } from '../../ui/probe-line.js';
import { experimentPlans } from '../../experiments/plans.js';
import { countWord } from '../../ui/format.js';
import { OPERATION_COLUMNS, OPERATION_CSV, operationPoints, withFamily } from './operations-data.js';

// "one element-wise size", "two matmul sizes": a count of a plan's sizes in words.
const sizes = (n, kind) => `${countWord(n)} ${kind} ${n === 1 ? 'size' : 'sizes'}`;

const X_DOMAIN = [0.05, 100];

export const operationsExperiment = {
  id: 'profiling-operation-efficiency',
  title: 'Experiment: operation efficiency',
  explanation: [
    'The same CPU runs an element-wise add at a few GFLOP/s and a matmul many times faster. The reason is the ' +
      'arithmetic intensity: add does 1 FLOP per 12 bytes it moves, a reduction about 1 per 4, an N×N matmul ' +
      'about N/6. Each operation below is timed by core and placed against the two roofs of the page’s machine probe (shown below, the same ' +
      'probe the builder’s bottleneck uses; Re-probe measures again). ' +
      'A point above the memory roof is not an error: a small array stays in cache, which is faster than the ' +
      'main-memory bandwidth the probe measured.',
  ],
  quickNote: ({ info }) =>
    info?.plan &&
    `Quick mode (?quick=1): ${sizes(info.plan.elements.length, 'element-wise')} and ${sizes(info.plan.matmul_n.length, 'matmul')} with small time budgets.`,
  controls: [],
  // The page's probe (the roofs) and core's plan (the sizes and Timer options).
  async init({ bridge, slot, quick, update }) {
    const store = machineProbeStore(bridge);
    const [entry, plans] = await Promise.all([
      store.current({ where: 'profiling-operation-efficiency-probe' }),
      experimentPlans(bridge, 'profiling-operation-efficiency', quick),
    ]);
    slot.replaceChildren(probeLine(store, { where: 'profiling-operation-efficiency-reprobe' }));
    // Later Runs place the operations against the newest probe.
    store.subscribe((next) => update({ roofs: next.probe, probe_entry: next, ...plans }));
    return { roofs: entry.probe, probe_entry: entry, ...plans };
  },
  // Names the probe the operations were placed against (the table's verdicts used it).
  async analyze(rows, { info }) {
    return { probe_entry: info.probe_entry };
  },
  renderAnalysis: (analysis, { bridge }) => placedAgainst(machineProbeStore(bridge), analysis.probe_entry, 'operation'),
  plan: operationPoints,
  measure: declaredSweep('measureOperation'),
  derive: withFamily,
  columns: OPERATION_COLUMNS,
  tableCaption: 'Each row: one operation, timed (median), with core’s FLOP and byte counts and its place on the roofline.',
  csv: { filename: 'perflab-profiling-operation-efficiency.csv', columns: OPERATION_CSV },
  charts: [
    {
      type: 'scatter',
      title: 'Measured GFLOP/s against arithmetic intensity, under this machine’s roofs',
      options: ({ info }) => ({
        x: 'intensity',
        y: 'gflops_per_s',
        series: 'family',
        seriesDomain: ['element-wise', 'reduction', 'matmul'],
        label: 'label',
        xDomain: X_DOMAIN,
        references: info?.roofs ? rooflineReferences({ ...info.roofs, xDomain: X_DOMAIN }) : [],
        xLabel: 'Arithmetic intensity (FLOP/byte, log scale) →',
        yLabel: '↑ Throughput (GFLOP/s, log scale)',
        ariaLabel: 'Roofline: measured GFLOP/s of each operation against its arithmetic intensity, with peak and bandwidth roofs',
        emptyText: 'Press Run to measure.',
        height: 360,
      }),
    },
  ],
};
