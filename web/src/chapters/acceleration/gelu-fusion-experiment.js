// The fused-vs-unfused GELU experiment (acceleration-gelu-fusion): every GELU variant at
// core's planned sizes (experimentPlan); ns per element, effective bandwidth and the bytes
// each variant moves per element. Not for: running, drawing or timing.

import { declaredSweep } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { experimentPlans } from '../../experiments/plans.js';
import { formatList } from '../../ui/format.js';
import { coreList, variantList } from './machine.js';
import {
  CSV_COLUMNS,
  TABLE_COLUMNS,
  elementsName,
  geluPoints,
  fusionComparison,
  withDerived,
} from './gelu-fusion-data.js';

export const geluFusionExperiment = {
  id: 'acceleration-gelu-fusion',
  title: 'Experiment: fused vs unfused GELU',
  explanation: [
    'Each variant computes the same GELU of random inputs, checked against a double-precision ' +
      'reference before it is timed. Fusion cuts the bytes moved per element (the traffic chart, from ' +
      'core’s counts); SIMD speeds up the arithmetic. Which one buys more time depends on what limits ' +
      'the loop on this machine: the memory traffic or the arithmetic (a tanh per element).',
    'After a run, the sentence under Run compares the variant that only fuses with the one that only ' +
      'vectorizes at the largest size measured: which moved fewer bytes, which was faster, and what that ' +
      'says. The speedup column sets every variant against scalar unfused at the same size.',
  ],
  quickNote: ({ info }) =>
    info?.plan && `Quick mode (?quick=1): ${formatList(info.plan.elements.map(elementsName))} elements only, small budgets.`,
  controls: [buildControl()],

  // Core's variants and core's plan (element counts, Timer options).
  async init({ bridge, slot, h, quick }) {
    const [variants, plans] = await Promise.all([
      coreList(bridge, 'geluVariants', 'acceleration-gelu-fusion-run'),
      experimentPlans(bridge, 'acceleration-gelu-fusion', quick),
    ]);
    slot.replaceChildren(variantList(h, variants));
    return { variants: variants.map((v) => v.name), ...plans };
  },

  plan: geluPoints,
  measure: declaredSweep('measureGelu'),
  pointLabel: (p) => `${p.variant} on ${elementsName(p.elements)} elements`,
  derive: withDerived,
  // Not core's verdict: a comparison of the complete rows, after the run.
  analyze: async (rows, { info }) => fusionComparison(rows, info?.variants),
  renderAnalysis: (analysis, { h }) =>
    analysis.sentences.map((text) => h('p', { 'data-role': 'fusion-comparison', text })),

  columns: TABLE_COLUMNS,
  tableCaption:
    'Every measured point. Speedup = scalar unfused’s time per element ÷ this variant’s, at the same size. ' +
    'Effective bandwidth = the variant’s bytes per call ÷ median time.',
  csv: { filename: 'perflab-acceleration-gelu-fusion.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      title: 'Time per element',
      options: ({ info }) => {
        const elements = info?.plan?.elements ?? [];
        return {
          x: 'elements',
          y: 'ns_per_element',
          series: 'variant',
          seriesDomain: info?.variants,
          xType: 'log',
          yType: 'log',
          ...(elements.length ? { xTicks: elements, xDomain: [elements[0], elements.at(-1)] } : {}),
          xTickFormat: elementsName,
          xBase: 2,
          xLabel: 'Elements (log scale) →',
          yLabel: '↑ Time per element (ns, log scale)',
          ariaLabel: 'GELU time per element in nanoseconds against the number of elements, one line per variant',
          emptyText: 'Press Run to measure.',
        };
      },
    },
    {
      type: 'bar',
      title: 'Memory traffic per element (what each variant reads and writes)',
      name: 'traffic',
      options: ({ info }) => ({
        x: 'variant',
        y: 'bytes_per_element',
        xDomain: info?.variants,
        xLabel: 'Variant',
        yLabel: '↑ Bytes per element',
        ariaLabel: 'Bytes moved per element by each GELU variant',
        emptyText: 'Press Run to measure.',
        height: 240,
      }),
      // One bar per variant: the traffic per element does not depend on the size.
      data: (rows) => [...new Map(rows.map((r) => [r.variant, r])).values()],
    },
  ],
};
