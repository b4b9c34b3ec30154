// Protects the pure halves of the Acceleration chapter's matmul experiments
// (vectorization scaling, scalar vs SIMD builds, block-size tuning, loops vs vectorized
// Linear): the points each plans for normal and quick mode, the display-only fields
// derived from core's rows, how a row prints, the CSV, and that each spec passes the
// framework's checks. No DOM, no wasm: rows are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { rowOf } from '../../web/src/lab/api.js';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { readControls, specProblems } from '../../web/src/experiments/model.js';
import * as vec from '../../web/src/chapters/acceleration/vectorization-data.js';
import * as builds from '../../web/src/chapters/acceleration/builds-data.js';
import * as blocking from '../../web/src/chapters/acceleration/blocking-data.js';
import * as linear from '../../web/src/chapters/acceleration/linear-loops-data.js';
import { vectorizationExperiment } from '../../web/src/chapters/acceleration/vectorization-experiment.js';
import { buildsExperiment } from '../../web/src/chapters/acceleration/builds-experiment.js';
import { blockingExperiment } from '../../web/src/chapters/acceleration/blocking-experiment.js';
import { linearLoopsExperiment } from '../../web/src/chapters/acceleration/linear-loops-experiment.js';
import { PLANS, planCtx, planInfo } from './experiment-plans-fixture.mjs';

const VARIANTS = ['naive', 'reordered', 'blocked', 'simd', 'packed'];
const stats = {
  samples: 10,
  outliers: 0,
  median_ms: 2,
  mean_ms: 2.1,
  min_ms: 1.9,
  ci95_low_ms: 1.95,
  ci95_high_ms: 2.05,
  cv: 0.02,
  inner_iterations: 1,
  resolution_ms: 0.005,
  warning: '',
};
const matmulRow = {
  build: 'simd',
  variant: 'packed',
  n: 256,
  flops: 33554432,
  bytes: 786432,
  intensity: 42.667,
  gflops_per_s: 16.777,
  gb_per_s: 0.393,
  stats,
};

test('vectorization: the full plan runs every variant from N = 64 to 2048, the scalar loops capped', () => {
  const points = vec.vectorizationPoints({}, planCtx('acceleration-vectorization', false, { variants: VARIANTS }));
  const at = (n) => points.filter((p) => p.n === n).map((p) => p.variant);
  assert.deepEqual(at(64), VARIANTS);
  assert.deepEqual(at(512), VARIANTS);
  assert.deepEqual(at(1024), ['reordered', 'blocked', 'simd', 'packed']);
  assert.deepEqual(at(2048), ['blocked', 'simd', 'packed']);
  assert.deepEqual([...new Set(points.map((p) => p.n))], [64, 128, 256, 512, 1024, 2048]);
  assert.deepEqual(points[0].options, PLANS['acceleration-vectorization'].full.options);
  assert.notEqual(points[0].options, points[1].options, 'each point owns its options');
});

test('vectorization: the slow-sizes option runs naive and reordered to N = 2048 too', () => {
  const off = vec.vectorizationPoints({ 'slow-sizes': false }, planCtx('acceleration-vectorization', false, { variants: VARIANTS }));
  assert.equal(off.length, 6 * 5 - 3, 'off: naive stops at 512, reordered at 1024');
  const points = vec.vectorizationPoints({ 'slow-sizes': true }, planCtx('acceleration-vectorization', false, { variants: VARIANTS }));
  assert.equal(points.length, 6 * 5);
  assert.deepEqual(
    points.filter((p) => p.n === 2048).map((p) => p.variant),
    VARIANTS,
  );
  // Quick mode stays two sizes whatever the option says.
  const quick = vec.vectorizationPoints({ 'slow-sizes': true }, planCtx('acceleration-vectorization', true, { variants: VARIANTS }));
  assert.deepEqual([...new Set(quick.map((p) => p.n))], [64, 128]);
  // The control is off by default and parses as a checkbox.
  const { values, problems } = readControls([vec.SLOW_SIZES_CONTROL], {});
  assert.deepEqual(problems, {});
  assert.equal(values['slow-sizes'], false);
  assert.ok(vectorizationExperiment.controls.includes(vec.SLOW_SIZES_CONTROL));
});

test('vectorization: quick mode plans N = 64 and 128 for every variant', () => {
  const points = vec.vectorizationPoints({}, planCtx('acceleration-vectorization', true, { variants: VARIANTS }));
  assert.equal(points.length, 2 * VARIANTS.length);
  assert.deepEqual(points.slice(0, 2), [
    { variant: 'naive', n: 64, options: PLANS['acceleration-vectorization'].quick.options },
    { variant: 'reordered', n: 64, options: PLANS['acceleration-vectorization'].quick.options },
  ]);
  assert.throws(() => vec.vectorizationPoints({}, { quick: true, info: null }), {
    message: 'the lab worker listed no matmul variants, so there is nothing to measure',
  });
});

test('vectorization: the share of peak is display only and absent without a probe', () => {
  const row = vec.withPeakShare(matmulRow, 33.554);
  assert.equal(row.peak_gflops_per_s, 33.554);
  assert.ok(Math.abs(row.fraction_of_peak - 0.5) < 1e-4);
  assert.equal(vec.withPeakShare(matmulRow, undefined), matmulRow);
  assert.deepEqual(vec.TABLE_COLUMNS.map(headerText), [
    'N',
    'variant',
    'median (ms)',
    'GFLOP/s',
    'GB/s',
    'of peak',
    '95% CI of median (ms)',
    'CV',
    'warning',
  ]);
  assert.deepEqual(
    vec.TABLE_COLUMNS.map((c) => cellText(c, row)),
    ['256', 'packed', '2.00', '16.8', '0.393', '50.0%', '1.95 – 2.05', '2.0%', ''],
  );
});

test('vectorization: the CSV has one line per row with the row’s fields and its stats', () => {
  const csv = toCsv([vec.withPeakShare(matmulRow, 33.554)], vec.CSV_COLUMNS).split('\r\n');
  assert.equal(csv[0], vec.CSV_COLUMNS.join(','));
  assert.match(csv[1], /^simd,packed,256,33554432,786432,42\.667,16\.777,0\.393,33\.554,0\.5\d*,2,1\.9,1\.95,2\.05,0\.02,10,0,1,0\.005,$/);
});

test('builds: every point goes to both builds through one measureMatmul sweep with builds', () => {
  const points = builds.buildsPoints({}, planCtx('acceleration-builds', false, { variants: VARIANTS }));
  assert.deepEqual(
    points.filter((p) => p.variant === 'naive').map((p) => p.n),
    [128, 256],
  );
  assert.equal(points.filter((p) => p.variant === 'packed').length, 3);
  assert.equal(builds.buildsPoints({}, planCtx('acceleration-builds', true, { variants: VARIANTS })).length, 2 * VARIANTS.length);
  assert.deepEqual(builds.buildsPayload({}, points.slice(0, 1)), {
    points: points.slice(0, 1),
    builds: ['simd', 'scalar'],
  });
});

test('builds: the SIMD ÷ scalar ratio pairs rows of the same point and skips unpaired ones', () => {
  const rows = [
    { ...matmulRow, build: 'simd', gflops_per_s: 12 },
    { ...matmulRow, build: 'scalar', gflops_per_s: 4 },
    { ...matmulRow, variant: 'naive', build: 'simd', gflops_per_s: 1 },
  ];
  assert.deepEqual(builds.speedups(rows), [{ point: 'packed\nN=256', variant: 'packed', n: 256, simd_over_scalar: 3 }]);
  assert.equal(builds.pointName(rows[0]), 'packed\nN=256');
  assert.deepEqual(
    builds.TABLE_COLUMNS.map((c) => cellText(c, rows[1])),
    ['256', 'packed', 'scalar', '2.00', '4.00', '2.0%', ''],
  );
  assert.match(toCsv(rows, builds.CSV_COLUMNS).split('\r\n')[2], /^scalar,packed,256,33554432,4,2,/);
});

test('blocking: square tiles, the student’s triple and core’s default, each measured once', () => {
  const { values, problems } = readControls(blocking.CONTROLS, {
    n: '256',
    square: '16, 64, 16',
    'tile-m': '64',
    'tile-n': '256',
    'tile-k': '128',
  });
  assert.deepEqual(problems, {});
  // As core's matmulDefaults and experimentPlan('acceleration-blocking') give them.
  const options = { warmup: 1, samples: 8, min_sample_ms: 10, max_total_ms: 1000 };
  const quickOptions = { warmup: 0, samples: 2, min_sample_ms: 1, max_total_ms: 60 };
  const info = { default_tiles: { tile_m: 64, tile_n: 256, tile_k: 128 }, options, quickOptions };
  const points = blocking.blockingPoints(values, { quick: true, info });
  assert.deepEqual(
    points.map((p) => `${blocking.tilesName(p.tiles)} ${p.role}`),
    ['16×16×16 square', '64×64×64 square', '64×256×128 yours'],
    'the student’s triple equals the default, so the default is not measured twice',
  );
  assert.deepEqual(points[0], {
    n: 256,
    tiles: { tile_m: 16, tile_n: 16, tile_k: 16 },
    role: 'square',
    options: quickOptions,
  });
  const full = blocking.blockingPoints({ ...values, 'tile-m': 8 }, { quick: false, info });
  assert.throws(() => blocking.blockingPoints(values, { quick: true, info: {} }), /no default tiles/);
  assert.equal(full.at(-1).role, 'core default');
  assert.deepEqual(full[0].options, options);
  assert.throws(() => blocking.blockingPoints(values, { quick: false, info: { default_tiles: info.default_tiles } }), /no Timer options/);
});

test('blocking: a tile below 1 is refused beside its control before anything runs', () => {
  const { problems } = readControls(blocking.CONTROLS, { n: '256', square: '0, 8', 'tile-m': '0', 'tile-n': '8', 'tile-k': '8' });
  assert.equal(problems.square, 'Square tiles (m = n = k): each value must be an integer from 1 to 1024, got "0"');
  assert.equal(problems['tile-m'], 'Your tile m must be an integer from 1 to 1024, got "0"');
});

test('blocking: rows print their tiles and the role their point was planned for', () => {
  const point = { n: 256, tiles: { tile_m: 8, tile_n: 8, tile_k: 8 }, role: 'square', options: {} };
  const measured = { ...matmulRow, variant: 'blocked', tiles: { tile_m: 8, tile_n: 8, tile_k: 8 } };
  const row = blocking.withTilesName(rowOf('measureMatmulBlocked', point, measured, matmulRow.build));
  assert.equal(row.tiles_name, '8×8×8');
  assert.equal(row.role, 'square');
  assert.deepEqual(blocking.TABLE_COLUMNS.map((c) => cellText(c, row)), ['256', '8×8×8', '2.00', '16.8', '2.0%', '']);
  assert.match(toCsv([row], blocking.CSV_COLUMNS).split('\r\n')[1], /^simd,256,8,8,8,33554432,16\.777,2,1\.9,0\.02,10,$/);
});

test('linear: every shape with the naive loops and the packed kernel at the chosen batch', () => {
  const points = linear.linearPoints({ batch: 16 }, planCtx('acceleration-linear-loops', true));
  assert.deepEqual(
    points.map((p) => `${linear.layerName(p)} ${p.variant} b${p.batch}`),
    ['Linear 64→64 naive b16', 'Linear 64→64 packed b16', 'Linear 256→128 naive b16', 'Linear 256→128 packed b16'],
  );
  assert.equal(linear.linearPoints({ batch: 32 }, planCtx('acceleration-linear-loops', false)).length, 2 * PLANS['acceleration-linear-loops'].full.shapes.length);
  assert.throws(() => linear.linearPoints({ batch: 32 }, { quick: false, info: {} }), {
    message: 'the lab worker gave no plan of Linear layer shapes, so there is nothing to measure',
  });
  const row = linear.withLayerName({
    build: 'simd',
    variant: 'naive',
    in_features: 784,
    out_features: 256,
    batch: 32,
    flops: 12845056,
    gflops_per_s: 0.5,
    stats,
  });
  assert.deepEqual(linear.TABLE_COLUMNS.map((c) => cellText(c, row)), ['Linear 784→256', '32', 'naive', '2.00', '0.500', '2.0%', '']);
  assert.match(toCsv([row], linear.CSV_COLUMNS).split('\r\n')[1], /^simd,naive,784,256,32,12845056,0\.5,2,1\.9,0\.02,10,$/);
});

test('the four specs pass the framework’s checks', () => {
  for (const spec of [vectorizationExperiment, buildsExperiment, blockingExperiment, linearLoopsExperiment]) {
    assert.deepEqual(specProblems(spec), [], spec.id);
  }
  assert.deepEqual(
    [vectorizationExperiment, buildsExperiment, blockingExperiment, linearLoopsExperiment].map((s) => s.id),
    ['acceleration-vectorization', 'acceleration-builds', 'acceleration-blocking', 'acceleration-linear-loops'],
  );
});

test('matmul experiments plan what core’s plan says, and their quick-mode notes quote it', () => {
  // Another plan than core's: the points and the texts follow it.
  const info = planInfo('acceleration-vectorization', true, { variants: ['packed'] });
  info.plan = { ...info.plan, sizes: [32, 96, 160] };
  assert.deepEqual(vec.vectorizationPoints({}, { quick: true, info }).map((p) => p.n), [32, 96, 160]);
  assert.equal(
    vectorizationExperiment.quickNote({ quick: true, info }),
    'Quick mode (?quick=1): N = 32, 96 and 160 only, small time budgets. Remove it for N up to 2048.',
  );
  const paragraphs = vectorizationExperiment.explanation({ quick: false, info: planInfo('acceleration-vectorization', false) });
  assert.match(paragraphs.at(-1), /^naive stops at N = 512 and reordered at 1024: above that .* to N = 2048 too/);
  assert.equal(vectorizationExperiment.explanation({ quick: false, info: null }).filter(Boolean).length, 1, 'no plan yet: no caps quoted');
  assert.equal(buildsExperiment.quickNote(planCtx('acceleration-builds', true)), 'Quick mode (?quick=1): N = 64 and 128, small time budgets.');
  assert.equal(linearLoopsExperiment.quickNote(planCtx('acceleration-linear-loops', true)), 'Quick mode (?quick=1): two small layers, small budgets.');
  // Before init's facts arrive the framework shows its generic note.
  assert.equal(buildsExperiment.quickNote({ quick: true, info: null }), undefined);
  assert.throws(() => builds.buildsPoints({}, { quick: false, info: { variants: VARIANTS } }), {
    message: 'the lab worker gave no plan of matrix sizes, so there is nothing to measure',
  });
  assert.throws(() => builds.buildsPoints({}, { quick: false, info: { variants: VARIANTS, plan: { sizes: [64] } } }), {
    message: 'the lab worker gave no plan of matrix sizes (no maxN, options), so there is nothing to measure',
  });
});
