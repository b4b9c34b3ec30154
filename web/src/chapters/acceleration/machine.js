// What the Acceleration chapter's experiments ask the lab worker once and share: the page's
// machine probe (this CPU's peak GFLOP/s and bandwidth, the roofs of every "% of peak" and
// of the roofline; one probe for the whole page, state/machine-probe.js) and core's variant
// lists, through the declared calls (lab/client.js).
// Not for: computing anything (core's probe and lists answer; this only hands them on).

import { formatSig } from '../../ui/format.js';
import { labOf } from '../../lab/client.js';
import { machineProbeStore } from '../../state/machine-probe.js';

/**
 * The page's probe result (core's probeMachine object): the one every chapter shares,
 * measured on first use (or kept from an earlier visit) and replaced by Re-probe. A failure
 * is not kept, so the next caller (an experiment's Run retrying its init) probes again.
 */
export async function machineProbe(bridge) {
  return (await machineProbeStore(bridge).current({ where: 'acceleration-probe' })).probe;
}

/** `[{name, description}]` from core: fn is 'matmulVariants' or 'geluVariants'. */
export function coreList(bridge, fn, where) {
  return labOf(bridge)[fn]({ where });
}

/** A `<ul class="variants">` of core's variant names and descriptions, for an init slot. */
export function variantList(h, variants) {
  return h(
    'ul',
    { class: 'variants' },
    ...variants.map((v) => h('li', {}, h('code', { text: v.name }), ` ${v.description}`)),
  );
}

/**
 * The probe's figures as a small definition list (every number is core's), with the kernel
 * engine's when `entry` (the store's entry) holds them.
 */
export function probeSummary(h, probe, entry = null) {
  const fmt = (v, unit) => `${formatSig(v)} ${unit}`;
  const engine = entry?.engine;
  const cores = engine ? (engine.threads === 1 ? '1 thread' : `all ${engine.threads} cores`) : '';
  const items = [
    ['peak (SIMD multiply-adds)', fmt(probe.peak_gflops_per_s, 'GFLOP/s')],
    ['scalar peak', fmt(probe.scalar_peak_gflops_per_s, 'GFLOP/s')],
    // A probe stored before the lab measured it has no integer peak.
    ...(probe.int8_peak_gops_per_s > 0 ? [['integer peak (int8 multiply-adds)', fmt(probe.int8_peak_gops_per_s, 'Gop/s')]] : []),
    ['memory bandwidth (triad, the roof)', fmt(probe.bandwidth_gb_per_s, 'GB/s')],
    ['copy bandwidth', fmt(probe.copy_gb_per_s, 'GB/s')],
    ['ridge point', fmt(probe.ridge_flops_per_byte, 'FLOP/byte')],
    ['vector backend', probe.simd_backend],
    ...(engine
      ? [
          ...(engine.fma_gflops_per_s ? [['FMA peak, one core (kernel engine)', fmt(engine.fma_gflops_per_s, 'GFLOP/s')]] : []),
          [`peak, ${cores} (kernel engine, ${engine.all_core_flavour})`, fmt(engine.all_core_gflops_per_s, 'GFLOP/s')],
          ['triad, one core (kernel engine)', fmt(engine.per_core_triad_gb_per_s, 'GB/s')],
          [`triad, ${cores} (kernel engine)`, fmt(engine.all_core_triad_gb_per_s, 'GB/s')],
        ]
      : []),
  ];
  return h(
    'dl',
    { class: 'probe-figures', 'data-role': 'probe' },
    ...items.flatMap(([term, value]) => [h('dt', { text: term }), h('dd', { text: value })]),
  );
}
