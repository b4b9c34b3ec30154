// The roofline of this machine (acceleration-roofline): the page's machine probe gives the roofs,
// then each kernel is measured with them and core places it (intensity, attainable bound,
// verdict); a log-log scatter with the roofs as reference lines and every kernel labelled.
// The kernel engine's step of the probe adds one core's FMA roof and every core's roofs to
// the chart when it has measured them (kernels are placed against one core's roofs).
// Not for: any roofline arithmetic (core's measureOperation does it) or timing.

import { declaredSweep, labOf } from '../../lab/client.js';
import { probeSummary } from './machine.js';
import { machineProbeStore } from '../../state/machine-probe.js';
import { placedAgainst, probeLine } from '../../ui/probe-line.js';
import { formatSig } from '../../ui/format.js';
import {
  CSV_COLUMNS,
  TABLE_COLUMNS,
  X_DOMAIN,
  allCoreShortfalls,
  chartPoints,
  kernelName,
  roofLines,
  rooflinePoints,
  withKernelName,
} from './roofline-data.js';

export const rooflineExperiment = {
  id: 'acceleration-roofline',
  title: 'Experiment: the roofline of this machine',
  // Says what each roof drawn is: the kernel engine's step of the probe adds roofs (init's
  // info carries its figures), so the text follows the chart.
  explanation: ({ info }) => {
    const engine = info?.engine;
    const base =
      'The page’s machine probe below measured this CPU’s roofs (the same probe the Profiling ' +
      'chapter’s bottleneck verdict uses; Re-probe measures again, everywhere). Run places the lab’s kernels ' +
      'under them: x is each kernel’s arithmetic intensity (its FLOPs over its ideal bytes), y ' +
      'the GFLOP/s it reached. A point near the slanted roof is using the memory bandwidth; ' +
      'near the flat roof, the arithmetic units. Far below both, something else limits it ' +
      '(overheads, a small N, traffic beyond the ideal).';
    if (!engine) {
      return (
        base +
        ' Where this browser runs the kernel engine, the probe also measures it on every core, and ' +
        'the chart then draws one core’s roofs and every core’s.'
      );
    }
    const fma = engine.fma_gflops_per_s
      ? ' and, above it, the FMA peak (relaxed SIMD: one fused instruction per multiply-add, ' +
        'where the SIMD build needs a multiply and an add)'
      : ' (this browser has no relaxed SIMD, so no FMA roof)';
    const all =
      engine.threads > 1
        ? ` Dashed lines are all ${engine.threads} cores working at once: the all-core peak ` +
          '(every core running the chains) and the triad bandwidth they share: one memory system ' +
          'feeds them all, so it rarely grows as the cores do.'
        : ' The engine runs one thread here, so there are no all-core roofs.';
    // Where a dashed roof is not above its solid one, the chart would contradict the sentence
    // above: say what this run measured and why it can come out so.
    const shortfalls = allCoreShortfalls(info)
      .map((f) =>
        f.roof === 'peak'
          ? ` Here every core’s peak (${formatSig(f.all)} GFLOP/s) is not above one core’s highest ` +
            `roof (${formatSig(f.one)} GFLOP/s): an engine call waits for its slowest thread, so ` +
            'another program busy on a core while the probe ran holds them all back.'
          : ` Here every core’s memory roof (${formatSig(f.all)} GB/s) is not above one core’s ` +
            `(${formatSig(f.one)} GB/s, the machine probe’s triad; the engine’s own one-core triad ` +
            `read ${formatSig(f.own)} GB/s): they come from two runs, so a machine busy during ` +
            'one of them, or a memory system one core already fills, puts them so.',
      )
      .join('');
    const again = shortfalls ? ' Re-probe measures them again.' : '';
    return (
      base +
      ' Solid lines are one core’s roofs: the slanted one its memory bandwidth (the triad), the ' +
      `flat ${engine.fma_gflops_per_s ? 'ones' : 'one'} its SIMD multiply-add peak${fma}.${all}${shortfalls}${again} The lab’s kernels here run on one ` +
      'core, so core places them against one core’s multiply-add and memory roofs.'
    );
  },
  quickNote:
    'Quick mode (?quick=1): smaller arrays (they may fit in cache, so memory-bound kernels can ' +
    'beat the DRAM roof), matmul packed at N = 64 and 128 and the other variants at 64.',

  // The page's probe (its roofs) and core's plan (the same kernels `perflab roofline` places);
  // a Re-probe gives later Runs the new roofs.
  async init({ bridge, slot, h, quick, update }) {
    const store = machineProbeStore(bridge);
    const [entry, plan] = await Promise.all([
      store.current({ where: 'acceleration-roofline-run' }),
      labOf(bridge).rooflinePlan(quick, { where: 'acceleration-roofline-run' }),
    ]);
    const infoOf = (e) => ({ ...e.probe, engine: e.engine ?? null, probe_entry: e, plan });
    const figures = h('div', {}, probeSummary(h, entry.probe, entry));
    slot.replaceChildren(probeLine(store, { where: 'acceleration-roofline-reprobe', figures: false }), figures);
    store.subscribe((next) => {
      figures.replaceChildren(probeSummary(h, next.probe, next));
      update(infoOf(next));
    });
    // The engine's step after the probe, in the background: its roofs join the chart when it
    // ends (the subscription above), and its failure is said on the probe line.
    store.current({ where: 'acceleration-roofline-engine', engine: true }).catch(() => {});
    return infoOf(store.latest() ?? entry);
  },

  // Names the probe the kernels were placed against (the verdicts in the table used it).
  async analyze(rows, { info }) {
    return { probe_entry: info.probe_entry };
  },
  renderAnalysis: (analysis, { bridge }) => placedAgainst(machineProbeStore(bridge), analysis.probe_entry, 'kernel'),

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
          'Roofline: measured GFLOP/s against arithmetic intensity for each kernel, with the peak and bandwidth roofs of one core and, where measured, of every core',
        emptyText: 'Press Run to place the kernels.',
        height: 420,
        references: roofLines(info),
      }),
      data: (rows) => chartPoints(rows),
    },
  ],
};
