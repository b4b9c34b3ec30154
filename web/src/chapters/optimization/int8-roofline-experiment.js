// The int8 experiment (optimization-int8): core's int8 Linear (each variant of core's plan)
// against the float packed matmul at fashion_mlp's layer shapes (measureInt8Linear: verified
// bit for bit against the naive loop and within the quantization error bound, then timed on
// the same inputs), and both kernels placed by core on the roofline of the page's machine
// probe (int8Roofline), drawn with the Acceleration chapter's roof lines.
// Not for: measuring, counting bytes or placing (core), or drawing (the framework's charts).

import { declaredSweep, labOf } from '../../lab/client.js';
import { experimentPlans } from '../../experiments/plans.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { placedAgainst, probeLine } from '../../ui/probe-line.js';
import { formatList } from '../../ui/format.js';
import { X_DOMAIN, roofLines } from '../acceleration/roofline-data.js';
import { CSV_COLUMNS, INT8_ID, TABLE_COLUMNS, int8Points, int8RoofLine, int8Sentences, layerName, probeRoofs, rooflineChartPoints, seriesOf, speedupBars, withLayer } from './int8-roofline-data.js';

const WHERE = `${INT8_ID}-run`;

export const int8RooflineExperiment = {
  id: INT8_ID,
  title: 'Experiment: the int8 Linear against float32, on the roofline',
  explanation: ({ info }) => [
    'Core quantizes a random weight matrix of each of <code>fashion_mlp</code>’s Linear layers to int8 (one scale per ' +
      'output), and times two calls on the same float32 input' +
      (info?.plan ? ` at batch ${formatList([...new Set(info.plan.shapes.map((s) => s.batch))].map(String))}` : '') +
      ': the int8 Linear (quantizing the input to uint8 included, then integer multiply-adds summed in int32) and the ' +
      'float32 packed matmul. Each int8 variant is first checked bit for bit against the naive loop, and against the ' +
      'exact product within the quantization error bound.' +
      (info?.variants ? ` The variants: ${info.variants.map((v) => `<b>${v.name}</b>, ${v.description.replace(/\.$/, '')}`).join('; ')}.` : ''),
    'The roofline below uses the page’s machine probe: core counts what each call must move at least (x and y in ' +
      'float32, the weights in their own type: 1 byte a code for int8, 4 for float32) and places each kernel under its ' +
      'own flat roof: the float32 kernel under the probe’s float peak (multiply, then add, in registers), the int8 one ' +
      'under its integer peak (the int8 kernel’s own multiply-add, eight 16-bit products summed in pairs into 32-bit ' +
      'lanes, then added, in registers). Both share the bandwidth roof. The ratio of the two peaks is the most int8 can ' +
      'gain where both are compute-bound.',
  ],
  quickNote: ({ info }) => info?.plan && `Quick mode (?quick=1): Linear ${formatList(info.plan.shapes.map(layerName))} only, small budgets.`,
  controls: [],

  async init({ bridge, slot, quick, update }) {
    const store = machineProbeStore(bridge);
    const [entry, plans, variants] = await Promise.all([
      store.current({ where: WHERE }),
      experimentPlans(bridge, INT8_ID, quick),
      labOf(bridge).int8Variants({ where: WHERE }),
    ]);
    slot.replaceChildren(probeLine(store, { where: `${INT8_ID}-reprobe` }));
    store.subscribe((next) => update({ ...next.probe, probe_entry: next, ...plans, variants }));
    return { ...entry.probe, probe_entry: entry, ...plans, variants };
  },
  plan: (values, ctx) => int8Points(ctx.info),
  measure: declaredSweep('measureInt8Linear'),
  pointLabel: (p) => `int8 ${p.variant}, Linear ${layerName(p)} at batch ${p.batch}`,
  derive: withLayer,

  // Core places both kernels of each row against the probe's roofs.
  async analyze(rows, { lab, info, signal, where }) {
    const roofs = probeRoofs(info);
    const placed = [];
    for (const r of rows) {
      const p = await lab.int8Roofline(r.batch, r.in, r.out, r.int8.median_ms, r.float32.median_ms, roofs, { signal, where });
      placed.push({ ...p, variant: r.variant, layer: layerName(r), batch: r.batch, speedup: r.speedup });
    }
    return { probe_entry: info.probe_entry, placed };
  },
  renderAnalysis: (a, { h, bridge }) => [
    ...int8Sentences(a.placed).map((text) => h('p', { 'data-role': 'int8-sentence', text })),
    placedAgainst(machineProbeStore(bridge), a.probe_entry, 'kernel'),
  ],
  columns: TABLE_COLUMNS,
  tableCaption:
    'One row per int8 variant and layer: both kernels timed on the same input; float32 ÷ int8 above 1 means int8 is faster. ' +
    'Error ÷ bound: the largest error of the int8 output over core’s bound for it (at most 1).',
  csv: { filename: 'perflab-optimization-int8.csv', columns: CSV_COLUMNS },
  charts: [
    {
      type: 'bar',
      title: 'Speed of the int8 Linear against the float32 packed matmul, per layer',
      data: (rows) => speedupBars(rows),
      options: ({ info }) => ({
        x: 'layer',
        y: 'speedup',
        series: 'variant',
        ...(info?.plan ? { seriesDomain: seriesOf(info.plan.variants).slice(0, -1) } : {}),
        xLabel: 'Linear layer (in → out)',
        yLabel: '↑ float32 time ÷ int8 time',
        ariaLabel: 'The float32 kernel’s time divided by the int8 kernel’s, per layer and int8 variant',
        emptyText: 'Press Run to measure.',
      }),
    },
    {
      type: 'scatter',
      title: 'Both kernels on this machine’s roofline (flat roofs: the float32 peak and, above it, the integer peak)',
      data: (rows, ctx) => rooflineChartPoints(ctx?.analysis?.placed),
      options: ({ info }) => ({
        x: 'intensity',
        y: 'gflops_per_s',
        series: 'kernel',
        ...(info?.plan ? { seriesDomain: seriesOf(info.plan.variants) } : {}),
        label: 'label',
        xDomain: [...X_DOMAIN],
        xLabel: 'Arithmetic intensity (ops/byte, log scale) →',
        yLabel: '↑ Attained (G ops/s, log scale)',
        ariaLabel: 'Roofline: the int8 and float32 kernels’ rates against their arithmetic intensity, with the float peak, the integer peak and the bandwidth roofs',
        emptyText: 'Press Run to place the kernels.',
        height: 400,
        references: [...roofLines(info), ...int8RoofLine(info)],
      }),
    },
  ],
};
