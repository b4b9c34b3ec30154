// The roofline of this machine (acceleration-roofline): the quick probe gives the roofs,
// then each kernel is measured with them and core places it (intensity, attainable bound,
// verdict); a log-log scatter with the roofs as reference lines and every kernel labelled.
// Not for: any roofline arithmetic (core's measureOperation does it) or timing.

import { declaredSweep, labOf } from '../../lab/client.js';
import { machineProbe, probeSummary } from './machine.js';
import {
  CSV_COLUMNS,
  TABLE_COLUMNS,
  X_DOMAIN,
  chartPoints,
  kernelName,
  roofLines,
  rooflinePoints,
  withKernelName,
} from './roofline-data.js';

export const rooflineExperiment = {
  id: 'acceleration-roofline',
  title: 'Experiment: the roofline of this machine',
  explanation:
    'The probe below measured this CPU’s roofs when the chapter opened. Run places the lab’s kernels ' +
    'under them: x is each kernel’s arithmetic intensity (its FLOPs over its ideal bytes), y ' +
    'the GFLOP/s it reached. A point near the slanted roof is using the memory bandwidth; ' +
    'near the flat roof, the arithmetic units. Far below both, something else limits it ' +
    '(overheads, a small N, traffic beyond the ideal).',
  quickNote:
    'Quick mode (?quick=1): smaller arrays (they may fit in cache, so memory-bound kernels can ' +
    'beat the DRAM roof), matmul packed at N = 64 and 128 and the other variants at 64.',

  // The probe's roofs and core's plan (the same kernels `perflab roofline` places).
  async init({ bridge, slot, h, quick }) {
    const [probe, plan] = await Promise.all([
      machineProbe(bridge),
      labOf(bridge).rooflinePlan(quick, { where: 'acceleration-roofline-run' }),
    ]);
    slot.replaceChildren(
      h('p', { class: 'note', text: 'This machine, probed by core (quick probe):' }),
      probeSummary(h, probe),
    );
    return { ...probe, plan };
  },

  plan: rooflinePoints,
  measure: declaredSweep('measureOperation'),
  pointLabel: (p) => kernelName(p),
  derive: withKernelName,

  columns: TABLE_COLUMNS,
  tableCaption:
    'Each kernel placed by core: attainable = min(peak, intensity × bandwidth); ' +
    '"of attainable" = measured ÷ attainable.',
  csv: { filename: 'perflab-acceleration-roofline.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'scatter',
      // The roofs come with the probe (init), so they are drawn before the first Run.
      options: ({ info }) => ({
        x: 'intensity',
        y: 'gflops_per_s',
        series: 'bound',
        seriesDomain: ['memory-bound', 'compute-bound'],
        label: 'label',
        xDomain: [...X_DOMAIN],
        xLabel: 'Arithmetic intensity (FLOP/byte, log scale) →',
        yLabel: '↑ Attained (GFLOP/s, log scale)',
        ariaLabel:
          'Roofline: measured GFLOP/s against arithmetic intensity for each kernel, with the peak and bandwidth roofs',
        emptyText: 'Press Run to place the kernels.',
        height: 420,
        references: roofLines(info),
      }),
      data: (rows) => chartPoints(rows),
    },
  ],
};
