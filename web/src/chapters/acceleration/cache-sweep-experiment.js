// The cache-plateau sweep (acceleration-cache-sweep): read bandwidth against working-set
// size on a log axis over core's plan of sizes; the plateaus are this machine's cache levels.
// Not for: running, drawing or timing.

import { buildControl } from '../../experiments/model.js';
import { experimentPlans } from '../../experiments/plans.js';
import { labOf, declaredSweep } from '../../lab/client.js';
import { countWord } from '../../ui/format.js';
import { CSV_COLUMNS, TABLE_COLUMNS, axisTicks, cacheSweepPoints, capNote, rangeName, sizeName } from './cache-sweep-data.js';

export const cacheSweepExperiment = {
  id: 'acceleration-cache-sweep',
  title: 'Experiment: the cache plateaus of this machine',
  explanation:
    'Each point sums the first <i>S</i> bytes of one buffer again and again (warm, with eight ' +
    'vector accumulators) and reports bytes read ÷ time. While <i>S</i> fits in L1 the loads ' +
    'come from L1; past it they come from L2, then the last-level cache, then DRAM. Read the ' +
    'plateaus and the steps between them: the step positions are your cache sizes.',
  quickNote: ({ info }) => {
    const sizes = info?.plan?.sizes;
    return (
      sizes?.length &&
      `Quick mode (?quick=1): ${countWord(sizes.length)} sizes from ${sizeName(sizes[0])} to ${sizeName(sizes.at(-1))}. ` +
        `Remove it for the full ${rangeName(info.fullPlan.sizes)} sweep.`
    );
  },
  controls: [buildControl()],

  // Core's plan, capped by what the lab may allocate (core's memoryStats, asked once at mount).
  async init({ bridge, slot, h, quick }) {
    const [memory, plans] = await Promise.all([
      labOf(bridge).memoryStats({ where: 'acceleration-cache-sweep-run' }),
      experimentPlans(bridge, 'acceleration-cache-sweep', quick),
    ]);
    const info = { memory, ...plans };
    slot.replaceChildren(h('p', { class: 'note', 'data-role': 'cap-note', text: capNote(info) }));
    return info;
  },

  plan: cacheSweepPoints,
  measure: declaredSweep('measureReadBandwidth'),
  pointLabel: (p) => `${sizeName(p.bytes)} working set`,

  columns: TABLE_COLUMNS,
  tableCaption:
    'One point per working-set size. A timed call reads the working set one or more times (bytes per ' +
    'call, with the passes that make it up); read bandwidth = bytes per call ÷ fastest call, in GB/s (10⁹ bytes ' +
    'per second). The median call is the typical one, slower than the fastest by the noise.',
  csv: { filename: 'perflab-acceleration-cache-sweep.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      // The axis spans core's plan once init has it.
      options: ({ quick, info }) => {
        const sizes = info?.plan?.sizes ?? [];
        const full = info?.fullPlan?.sizes ?? [];
        return {
          x: 'bytes',
          y: 'gb_per_s',
          series: 'build',
          xType: 'log',
          ...(sizes.length ? { xTicks: axisTicks(sizes, quick), xDomain: [sizes[0], sizes.at(-1)] } : {}),
          xFormat: 'bytes',
          xBase: 2,
          xLabel: 'Working set (bytes, log scale) →',
          yLabel: '↑ Read bandwidth (GB/s)',
          ariaLabel: `Read bandwidth in GB/s against working-set size${full.length ? ` from ${sizeName(full[0])} to ${sizeName(full.at(-1))}` : ''}, log scale`,
          emptyText: 'Press Run to measure.',
        };
      },
    },
  ],
};
