// The cache-plateau sweep (acceleration-cache-sweep): read bandwidth against working-set
// size on a log axis from 4 KiB to 256 MiB; the plateaus are this machine's cache levels.
// Not for: running, drawing or timing.

import { buildControl } from '../../experiments/model.js';
import { labOf, declaredSweep } from '../../lab/client.js';
import { CSV_COLUMNS, TABLE_COLUMNS, axisTicks, cacheSweepPoints, capNote, sizeName, sweepOf } from './cache-sweep-data.js';

export const cacheSweepExperiment = {
  id: 'acceleration-cache-sweep',
  title: 'Experiment: the cache plateaus of this machine',
  explanation:
    'Each point sums the first <i>S</i> bytes of one buffer again and again (warm, with eight ' +
    'vector accumulators) and reports bytes read ÷ time. While <i>S</i> fits in L1 the loads ' +
    'come from L1; past it they come from L2, then the last-level cache, then DRAM. Read the ' +
    'plateaus and the steps between them: the step positions are your cache sizes.',
  quickNote: 'Quick mode (?quick=1): five sizes from 4 KiB to 16 MiB. Remove it for the full 4 KiB – 256 MiB sweep.',
  controls: [buildControl()],

  // What the lab may allocate caps the plan (core's memoryStats, asked once at mount).
  async init({ bridge, slot, h, quick }) {
    const memory = await labOf(bridge).memoryStats({ where: 'acceleration-cache-sweep-run' });
    const info = { memory };
    slot.replaceChildren(h('p', { class: 'note', 'data-role': 'cap-note', text: capNote(info, quick) }));
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
      options: ({ quick }) => {
        const { sizes } = sweepOf(quick);
        return {
          x: 'bytes',
          y: 'gb_per_s',
          series: 'build',
          xType: 'log',
          xTicks: axisTicks(quick),
          xFormat: 'bytes',
          xBase: 2,
          xDomain: [sizes[0], sizes[sizes.length - 1]],
          xLabel: 'Working set (bytes, log scale) →',
          yLabel: '↑ Read bandwidth (GB/s)',
          ariaLabel: 'Read bandwidth in GB/s against working-set size from 4 KiB to 256 MiB, log scale',
          emptyText: 'Press Run to measure.',
        };
      },
    },
  ],
};
