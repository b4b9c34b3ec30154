// The block-size tuning experiment (acceleration-blocking): the cache-blocked matmul with
// tile sizes the student picks, beside square tiles and core's default; GFLOP/s per tile.
// Not for: running, drawing or timing (experiments/, the lab worker and core do).

import { declaredSweep, labOf } from '../../lab/client.js';
import { buildControl } from '../../experiments/model.js';
import { CONTROLS, CSV_COLUMNS, TABLE_COLUMNS, blockingPoints, tilesName, withTilesName } from './blocking-data.js';

export const blockingExperiment = {
  id: 'acceleration-blocking',
  title: 'Experiment: tune the block size',
  explanation:
    'The blocked kernel computes out in m×n tiles, summing over k in chunks of k, so it ' +
    'keeps an m×k tile of a, a k×n tile of b and an m×n tile of out busy: ' +
    '<code>4·(m·k + k·n + m·n)</code> bytes. Too small, and the loop overhead and the short ' +
    'vector loops dominate; too large, and the tiles no longer fit in L1 or L2 and every ' +
    'reuse becomes a trip to a slower level. Try your own m, n, k below: which fits your cache?',
  quickNote: 'Quick mode (?quick=1): each tile is timed with a tiny budget, so differences under ~20% are noise.',
  controls: [...CONTROLS, buildControl()],

  // Core's default tiles, the reference point of every run, and core's Timer options per tile.
  async init({ bridge }) {
    const lab = labOf(bridge);
    const where = 'acceleration-blocking-run';
    const [default_tiles, full, quick] = await Promise.all([
      lab.matmulDefaults({ where }),
      lab.experimentPlan('acceleration-blocking', false, { where }),
      lab.experimentPlan('acceleration-blocking', true, { where }),
    ]);
    return { default_tiles, options: full.options, quickOptions: quick.options };
  },
  plan: blockingPoints,
  measure: declaredSweep('measureMatmulBlocked'),
  pointLabel: (p) => `tile ${tilesName(p.tiles)} at N=${p.n}`,
  derive: withTilesName,

  columns: TABLE_COLUMNS,
  tableCaption: 'One point per tile size, all at the same N; times are per call.',
  csv: { filename: 'perflab-acceleration-blocking.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'bar',
      options: {
        x: 'tiles_name',
        y: 'gflops_per_s',
        series: 'role',
        seriesDomain: ['square', 'yours', 'core default'],
        mode: 'stacked',
        totals: true,
        xLabel: 'Tile m×n×k',
        yLabel: '↑ Throughput (GFLOP/s)',
        ariaLabel: 'Blocked matmul throughput in GFLOP/s for each tile size',
        emptyText: 'Pick tile sizes and press Run.',
        height: 300,
      },
    },
  ],
};
