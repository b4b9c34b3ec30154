// The pure half of the block-size tuning experiment (acceleration-blocking): the student
// picks N, a list of square tile sizes and one m×n×k triple of their own; the plan measures
// the blocked kernel at each (core's default tiles, read at mount, added for reference).
// Table and CSV columns. No DOM and no measuring.

import { TIMED_COLUMNS, TIMED_CSV_COLUMNS } from './timed-columns.js';

/** The experiment's controls; the framework checks the values against these bounds. */
export const CONTROLS = Object.freeze([
  { id: 'n', type: 'number', label: 'Matrix size N', default: 256, min: 16, max: 1024, integer: true },
  {
    id: 'square',
    type: 'numbers',
    label: 'Square tiles (m = n = k)',
    default: [4, 16, 64, 256],
    min: 1,
    max: 1024,
    integer: true,
    maxCount: 10,
    example: '4, 16, 64, 256',
  },
  { id: 'tile-m', type: 'number', label: 'Your tile m', default: 32, min: 1, max: 1024, integer: true },
  { id: 'tile-n', type: 'number', label: 'tile n', default: 128, min: 1, max: 1024, integer: true },
  { id: 'tile-k', type: 'number', label: 'tile k', default: 64, min: 1, max: 1024, integer: true },
]);

export const tilesName = (t) => `${t.tile_m}×${t.tile_n}×${t.tile_k}`;

/**
 * Each square tile, then the student's triple, then core's default tiles (`info.default_tiles`,
 * core's matmulDefaults) unless already listed; each point `{n, tiles, options, role}`, the
 * Timer options core's (experimentPlan: `info.options`, or `info.quickOptions` under ?quick=1).
 * Duplicates are measured once.
 */
export function blockingPoints(values, { quick, info }) {
  const defaults = info?.default_tiles;
  if (!defaults) throw new Error('the lab worker gave no default tiles for the blocked matmul');
  const options = quick ? info.quickOptions : info.options;
  if (!options) throw new Error('the lab worker gave no Timer options for the blocked matmul');
  const planned = [
    ...values.square.map((t) => ({ tiles: { tile_m: t, tile_n: t, tile_k: t }, role: 'square' })),
    { tiles: { tile_m: values['tile-m'], tile_n: values['tile-n'], tile_k: values['tile-k'] }, role: 'yours' },
    { tiles: { tile_m: defaults.tile_m, tile_n: defaults.tile_n, tile_k: defaults.tile_k }, role: 'core default' },
  ];
  const seen = new Set();
  return planned
    .filter((p) => {
      const key = tilesName(p.tiles);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((p) => ({ n: values.n, tiles: p.tiles, role: p.role, options: { ...options } }));
}

/**
 * Display: the tile name from the row's tiles (core echoes them); the row already carries
 * the role its point was planned for ("square", "yours", "core default").
 */
export function withTilesName(row) {
  return row.tiles ? { ...row, tiles_name: tilesName(row.tiles) } : row;
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'n', label: 'N', format: 'text', align: 'right' },
  { key: 'tiles_name', label: 'tile m×n×k', format: 'text' },
  ...TIMED_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'n',
  'tile_m',
  'tile_n',
  'tile_k',
  'flops',
  ...TIMED_CSV_COLUMNS,
]);
