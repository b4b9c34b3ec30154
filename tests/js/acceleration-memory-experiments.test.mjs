// Protects the pure halves of the Acceleration chapter's memory-side experiments (fused
// vs unfused GELU, the cache-plateau sweep, the roofline): the points planned for normal
// and quick mode (the roofline's always include matmul at N = 64 and carry the probed
// roofs, which exercises grade from), the display fields, table cells, CSV and spec checks.
// No DOM, no wasm: rows are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText } from '../../web/src/ui/columns.js';
import { specProblems } from '../../web/src/experiments/model.js';
import * as gelu from '../../web/src/chapters/acceleration/gelu-fusion-data.js';
import * as cache from '../../web/src/chapters/acceleration/cache-sweep-data.js';
import * as roof from '../../web/src/chapters/acceleration/roofline-data.js';
import { geluFusionExperiment } from '../../web/src/chapters/acceleration/gelu-fusion-experiment.js';
import { cacheSweepExperiment } from '../../web/src/chapters/acceleration/cache-sweep-experiment.js';
import { rooflineExperiment } from '../../web/src/chapters/acceleration/roofline-experiment.js';
import { PLANS, planCtx, planInfo } from './experiment-plans-fixture.mjs';

const stats = { samples: 10, outliers: 0, median_ms: 4, min_ms: 3.9, cv: 0.01, warning: '' };
const probe = { peak_gflops_per_s: 40, bandwidth_gb_per_s: 10, ridge_flops_per_byte: 4 };

test('GELU: every variant at every size, 4 Ki to 4 Mi elements, two sizes when quick', () => {
  const variants = ['unfused', 'unfused-simd', 'fused', 'fused-simd'];
  const full = gelu.geluPoints({}, planCtx('acceleration-gelu-fusion', false, { variants }));
  assert.deepEqual([...new Set(full.map((p) => p.elements))], [4096, 32768, 262144, 1048576, 4194304]);
  assert.equal(full.length, 5 * 4);
  const quick = gelu.geluPoints({}, planCtx('acceleration-gelu-fusion', true, { variants }));
  assert.deepEqual(quick[0], { variant: 'unfused', elements: 16384, options: PLANS['acceleration-gelu-fusion'].quick.options });
  assert.equal(quick.length, 2 * 4);
  assert.throws(() => gelu.geluPoints({}, { quick: true, info: { variants: [] } }), {
    message: 'the lab worker listed no GELU variants, so there is nothing to measure',
  });
});

test('GELU: traffic per element comes from core’s bytes; rows print and export', () => {
  const row = gelu.withBytesPerElement({
    build: 'simd',
    variant: 'unfused',
    elements: 1048576,
    flops: 9437184,
    bytes: 75497472,
    gb_per_s: 18.9,
    gflops_per_s: 2.36,
    ns_per_element: 3.81,
    stats,
  });
  assert.equal(row.bytes_per_element, 72);
  assert.deepEqual(gelu.TABLE_COLUMNS.map((c) => cellText(c, row)), ['1 Mi', 'unfused', '3.81', '—', '18.9', '72.0', '1.0%', '']);
  assert.equal(gelu.elementsName(16384), '16 Ki');
  assert.equal(gelu.elementsName(1000), '1000');
  assert.match(
    toCsv([row], gelu.CSV_COLUMNS).split('\r\n')[1],
    /^simd,unfused,1048576,9437184,75497472,72,3\.81,,18\.9,2\.36,4,3\.9,0\.01,10,$/,
  );
});

// Rows as core sends them (bytes from core's counts), in the plan's order: the baseline first at each size.
const geluRow = (variant, elements, ns, bytesPerElement) => ({
  build: 'simd', variant, elements, ns_per_element: ns, bytes: bytesPerElement * elements, stats,
});

test('GELU: the plan measures scalar unfused first at every size, and each row’s speedup is over it at the same size', () => {
  const info = planInfo('acceleration-gelu-fusion', true, { variants: ['fused-simd', 'fused', 'unfused-simd', 'unfused'] });
  const points = gelu.geluPoints({}, { quick: true, info });
  assert.deepEqual(points.slice(0, 4).map((p) => p.variant), ['unfused', 'fused-simd', 'fused', 'unfused-simd']);
  const ctx = {};
  const rows = [
    geluRow('unfused', 4096, 8, 72),
    geluRow('fused', 4096, 4, 8),
    geluRow('unfused', 1 << 20, 12, 72),
    geluRow('fused', 1 << 20, 6.82, 8),
    geluRow('unfused-simd', 1 << 20, 4.77, 72),
  ].map((r) => gelu.withDerived(r, ctx));
  assert.deepEqual(rows.map((r) => r.speedup), [1, 2, 1, 12 / 6.82, 12 / 4.77]);
  const speedupColumn = gelu.TABLE_COLUMNS.find((c) => c.key === 'speedup');
  assert.equal(cellText(speedupColumn, rows[4]), '2.52×');
  // A new run starts from nothing: no speedup until its own baseline arrives.
  assert.equal(gelu.withDerived(geluRow('fused', 4096, 4, 8), {}).speedup, undefined);
});

test('GELU: the comparison sentence follows the rows, whichever variant wins', () => {
  const variants = ['unfused', 'unfused-simd', 'fused', 'fused-simd'];
  const run = (nsFused, nsSimd) =>
    gelu.fusionComparison(
      [
        geluRow('unfused', 4096, 3, 72), geluRow('unfused-simd', 4096, 1, 72), geluRow('fused', 4096, 2, 8), geluRow('fused-simd', 4096, 0.5, 8),
        geluRow('unfused', 1 << 20, 12, 72), geluRow('unfused-simd', 1 << 20, nsSimd, 72), geluRow('fused', 1 << 20, nsFused, 8),
        geluRow('fused-simd', 1 << 20, 1.5, 8),
      ].map((r) => gelu.withDerived(r, {})),
      variants,
    );
  // The numbers of the report: fusion alone loses to SIMD alone, so the sentence must say slower.
  const computeBound = run(6.82, 4.77);
  assert.equal(computeBound.elements, 1 << 20);
  assert.equal(
    computeBound.sentences[0],
    'At 1 Mi elements, fused moved 9× fewer bytes than unfused-simd (8 against 72 per element), yet was 1.43× slower ' +
      '(6.82 ns against 4.77 ns per element): at this size the arithmetic (a tanh per element), not the memory traffic, ' +
      'set the time, so speeding it up (SIMD) paid off more than moving fewer bytes (fusion).',
  );
  assert.equal(computeBound.sentences[1], 'Speedup over unfused at 1 Mi elements: unfused-simd 2.52×, fused 1.76×, fused-simd 8×.');
  const memoryBound = run(3, 6);
  assert.match(memoryBound.sentences[0], /^At 1 Mi elements, fused moved 9× fewer bytes than unfused-simd \(8 against 72 per element\) and was 2× faster \(3\.00 ns against 6\.00 ns per element\): .*fusion\) paid off more/);
  // The largest size with every variant: a size still missing one is not compared.
  const partial = gelu.fusionComparison([geluRow('unfused', 4096, 3, 72), geluRow('fused', 4096, 2, 8), geluRow('fused', 1 << 20, 2, 8)], ['unfused', 'fused']);
  assert.equal(partial.elements, 4096);
  assert.equal(gelu.fusionComparison([geluRow('fused', 4096, 2, 8)], ['unfused', 'fused']), null);
});

test('cache sweep: 4 KiB to 256 MiB doubling in full, five sizes quick', () => {
  const full = cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', false));
  assert.equal(full.length, 17);
  assert.equal(full[0].bytes, 4096);
  assert.equal(full.at(-1).bytes, 256 * 1024 * 1024);
  assert.deepEqual(cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', true)).map((p) => cache.sizeName(p.bytes)), [
    '4 KiB',
    '32 KiB',
    '256 KiB',
    '2 MiB',
    '16 MiB',
  ]);
  assert.deepEqual(cache.axisTicks(PLANS['acceleration-cache-sweep'].full.sizes, false).map(cache.sizeName), ['4 KiB', '64 KiB', '1 MiB', '16 MiB', '256 MiB']);
});

test('cache sweep: every time is one call, and bandwidth = bytes per call ÷ fastest call from the row itself', () => {
  // A row as core sends it: 32 KiB read 8 times per call, the fastest call 0.00512 ms.
  const row = { build: 'simd', bytes: 32768, bytes_per_call: 262144, gb_per_s: 51.2, stats: { ...stats, min_ms: 0.00512, median_ms: 0.006 } };
  const cells = Object.fromEntries(cache.TABLE_COLUMNS.map((c) => [c.label, cellText(c, row)]));
  assert.deepEqual(cells, {
    'working set': '32 KiB',
    'bytes per call': '256 KiB (8 passes)',
    'fastest call': '0.00512',
    'read bandwidth': '51.2',
    'median call': '0.00600',
    CV: '1.0%',
    warning: '',
  });
  // The table's own columns give its bandwidth: 256 KiB / 0.00512 ms in GB/s.
  const recomputed = (262144 / (Number(cells['fastest call']) * 1e-3)) / 1e9;
  assert.ok(Math.abs(recomputed / Number(cells['read bandwidth']) - 1) < 0.005, `${recomputed} GB/s`);
  assert.equal(cache.bytesPerCallText({ bytes: 2 ** 28, bytes_per_call: 2 ** 28 }), '256 MiB (1 pass)');
  assert.equal(cache.bytesPerCallText({ bytes: 4096 }), '—', 'a row without the figure says so, never guesses');
  assert.equal(toCsv([row], cache.CSV_COLUMNS).split('\r\n')[1], 'simd,32768,262144,0.00512,51.2,0.006,0.01,10,');
  assert.match(cacheSweepExperiment.tableCaption, /read bandwidth = bytes per call ÷ fastest call/);
});

test('cache sweep: the plan stops at what the lab may still allocate', () => {
  const MiB = 1024 * 1024;
  const roomy = planInfo('acceleration-cache-sweep', false, { memory: { cap_bytes: 768 * MiB, current_bytes: 3 * MiB } });
  assert.equal(cache.cacheSweepPoints({}, { quick: false, info: roomy }).at(-1).bytes, 256 * MiB);
  assert.match(cache.capNote(roomy), /^The lab may allocate 765 MiB more \(its cap is 768 MiB\): enough for the whole sweep to 256 MiB\.$/);
  // 100 MiB left: the last size is 64 MiB (128 MiB does not fit).
  const tight = planInfo('acceleration-cache-sweep', false, { memory: { cap_bytes: 128 * MiB, current_bytes: 28 * MiB } });
  const points = cache.cacheSweepPoints({}, { quick: false, info: tight });
  assert.equal(points.length, 15);
  assert.equal(points.at(-1).bytes, 64 * MiB);
  assert.equal(cache.capNote(tight), 'The lab may allocate 100 MiB more (its cap is 128 MiB): the sweep stops at 64 MiB.');
  // Exactly the largest size fits.
  assert.equal(cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', false, { memory: { cap_bytes: 256 * MiB, current_bytes: 0 } })).length, 17);
  // Quick mode is capped too; no cap (0) or no stats plans everything.
  assert.deepEqual(
    cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', true, { memory: { cap_bytes: 3 * MiB, current_bytes: 0 } })).map((p) => cache.sizeName(p.bytes)),
    ['4 KiB', '32 KiB', '256 KiB', '2 MiB'],
  );
  assert.equal(cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', false, { memory: { cap_bytes: 0, current_bytes: 5 } })).length, 17);
  assert.equal(cache.allowedBytes(undefined), Infinity);
  assert.throws(() => cache.cacheSweepPoints({}, planCtx('acceleration-cache-sweep', true, { memory: { cap_bytes: 8192, current_bytes: 6144 } })), {
    message: "the lab's memory cap leaves 2048 bytes, less than the smallest working set of 4096 bytes; reload the page to free memory",
  });
});

test('roofline: one point per point of core’s plan, each carrying the plan’s timer, its variant and the roofs', () => {
  // The shape core's rooflinePlan returns (its content is core's: tests/cli/roofline.test.mjs
  // checks the page's plan against the CLI's rows).
  const plan = {
    timer: { warmup: 1, samples: 5, min_sample_ms: 1, max_total_ms: 150 },
    points: [
      { op: 'matmul', n: 64, variant: 'packed' },
      { op: 'matmul', n: 64, variant: 'naive' },
      { op: 'add', n: 262144, variant: '' },
      { op: 'softmax', n: 262144, variant: 'naive' },
      { op: 'gelu', n: 262144, variant: 'unfused' },
    ],
  };
  const points = roof.rooflinePoints({}, { quick: true, info: { ...probe, plan } });
  assert.deepEqual(points.map(roof.kernelName), ['matmul packed N=64', 'matmul naive N=64', 'add', 'softmax naive', 'gelu unfused']);
  for (const p of points) {
    assert.equal(p.options.peak_gflops_per_s, 40);
    assert.equal(p.options.bandwidth_gb_per_s, 10);
    assert.equal(p.options.samples, 5);
  }
  assert.deepEqual(points.map((p) => [p.op, p.n]), plan.points.map((p) => [p.op, p.n]));
  assert.equal(points[2].options.variant, undefined, 'core picks add’s default');
  assert.equal(points[4].options.variant, 'unfused');
  assert.throws(() => roof.rooflinePoints({}, { quick: true, info: probe }), {
    message: 'the lab worker gave no roofline plan, so there is nothing to place',
  });
  assert.throws(() => roof.rooflinePoints({}, { quick: true, info: null }), {
    message: 'the machine probe gave no peak and bandwidth, so there is no roofline to place kernels on',
  });
  // Rows name themselves from core's variant (add's "simd" and softmax's "fused" are the defaults).
  assert.equal(roof.kernelName({ op: 'add', variant: 'simd' }), 'add');
  assert.equal(roof.kernelName({ op: 'softmax', variant: 'fused' }), 'softmax');
  assert.equal(roof.kernelName({ op: 'matmul', n: 64, variant: 'packed' }), 'matmul packed N=64');
});

test('roofline: the roofs become the chart’s reference lines, the ridge marked; rows print core’s placement', () => {
  const lines = roof.roofLines(probe);
  assert.deepEqual(
    lines.map((l) => [l.kind, l.x2 ?? l.x]),
    [
      ['bandwidth', 4],
      ['peak', 512],
      ['ridge', 4],
    ],
  );
  assert.equal(lines[2].label, 'ridge 4.00 FLOP/byte');
  // A probe without a ridge (a machine too busy to time) draws no ridge line.
  assert.deepEqual(roof.roofLines({ ...probe, ridge_flops_per_byte: null }).map((l) => l.kind), ['bandwidth', 'peak']);
  assert.deepEqual(roof.roofLines(null), []);
  const row = roof.withKernelName({
    build: 'simd',
    op: 'add',
    variant: 'simd',
    n: 4194304,
    elements: 4194304,
    flops: 4194304,
    bytes: 50331648,
    intensity: 1 / 12,
    gflops_per_s: 0.6,
    gb_per_s: 7.2,
    ns_per_element: 1.67,
    peak_gflops_per_s: 40,
    bandwidth_gb_per_s: 10,
    ridge_flops_per_byte: 4,
    attainable_gflops_per_s: 0.8333,
    fraction_of_attainable: 0.72,
    bound: 'memory-bound',
    verdict: 'memory-bound: intensity 0.083 FLOP/byte is below the ridge point 4.0 FLOP/byte; attainable 0.83 GFLOP/s of 40 peak',
    stats,
  });
  assert.equal(row.kernel, 'add');
  assert.deepEqual(roof.TABLE_COLUMNS.map((c) => cellText(c, row)), [
    'add',
    '0.0833',
    '0.600',
    '0.833',
    '72.0%',
    row.verdict,
  ]);
  const [header, line] = toCsv([row], roof.CSV_COLUMNS).split('\r\n');
  assert.equal(header, roof.CSV_COLUMNS.join(','));
  assert.match(line, /^simd,add,simd,4194304,4194304,4194304,50331648,0\.0833\d*,0\.6,7\.2,1\.67,40,10,4,0\.8333,0\.72,memory-bound,/);
});

test('roofline: with the engine’s figures each roof says whose it is, one core’s solid and every core’s dashed', () => {
  const engine = {
    threads: 2, muladd_gflops_per_s: 39, fma_gflops_per_s: 60, all_core_gflops_per_s: 120,
    per_core_triad_gb_per_s: 10, all_core_triad_gb_per_s: 15, all_core_flavour: 'fma', all_core_ridge_flops_per_byte: 8,
  };
  const lines = roof.roofLines({ ...probe, engine });
  const by = (kind, scope) => lines.filter((l) => l.kind === kind && l.scope === scope);
  // One core: the memory roof rises to the FMA roof's ridge (60 / 10), the multiply-add roof
  // starts at its own ridge (40 / 10), the FMA roof at 6.
  assert.deepEqual(by('bandwidth', 'core').map((l) => [l.x2, l.y2, l.label, Boolean(l.dashed)]), [[6, 60, '1 core: memory 10.0 GB/s', false]]);
  assert.deepEqual(by('peak', 'core').map((l) => [l.x1, l.y1, l.label]), [[4, 40, '1 core: multiply-add 40.0 GFLOP/s']]);
  assert.deepEqual(by('fma', 'core').map((l) => [l.x1, l.y1, l.label]), [[6, 60, '1 core: FMA 60.0 GFLOP/s']]);
  // Every core: 120 GFLOP/s and 15 GB/s, dashed, meeting at 8 FLOP/byte.
  assert.deepEqual(by('bandwidth', 'all').map((l) => [l.x2, l.y2, l.label, l.dashed]), [[8, 120, '2 cores: memory 15.0 GB/s', true]]);
  assert.deepEqual(by('peak', 'all').map((l) => [l.x1, l.y1, l.label, l.dashed]), [[8, 120, '2 cores: peak 120 GFLOP/s', true]]);
  // The two memory labels sit at different places along their diagonals.
  assert.notEqual(by('bandwidth', 'core')[0].labelX, by('bandwidth', 'all')[0].labelX);
  assert.deepEqual(by('ridge', 'core').map((l) => l.x), [4]);
  // No FMA in this browser: one compute roof per core; one thread: no all-core roofs.
  const simdOnly = roof.roofLines({ ...probe, engine: { ...engine, fma_gflops_per_s: null, threads: 1 } });
  assert.deepEqual(simdOnly.map((l) => `${l.scope} ${l.kind}`), ['core bandwidth', 'core peak', 'core ridge']);
  // Figures that do not check are not drawn: the chart keeps the probe's two roofs.
  assert.deepEqual(roof.roofLines({ ...probe, engine: { ...engine, all_core_gflops_per_s: 0 } }).map((l) => l.label), [
    'memory 10 GB/s', 'peak 40 GFLOP/s', 'ridge 4.00 FLOP/byte',
  ]);
});

test('roofline: a dashed roof at or below its solid one is named in the text with both figures, never silently drawn', () => {
  const engine = {
    threads: 2, muladd_gflops_per_s: 39, fma_gflops_per_s: 60, all_core_gflops_per_s: 120,
    per_core_triad_gb_per_s: 10, all_core_triad_gb_per_s: 15, all_core_flavour: 'fma', all_core_ridge_flops_per_byte: 8,
  };
  const text = (e) => rooflineExperiment.explanation({ info: { ...probe, engine: e } });
  // Every core above one core on both roofs: nothing to explain.
  assert.deepEqual(roof.allCoreShortfalls({ ...probe, engine }), []);
  assert.doesNotMatch(text(engine), /is not above|Re-probe measures them again/);
  // A busy machine (the case seen: the machine probe's triad 14.7 GB/s, the engine's 6.08 on one
  // core and 7.95 on two; every core's peak 38.5 under one core's FMA 42.6).
  const busy = { ...engine, fma_gflops_per_s: 42.6, all_core_gflops_per_s: 38.5, per_core_triad_gb_per_s: 6.08, all_core_triad_gb_per_s: 7.95 };
  const info = { ...probe, bandwidth_gb_per_s: 14.7, engine: busy };
  assert.deepEqual(roof.allCoreShortfalls(info), [
    { roof: 'peak', all: 38.5, one: 42.6 },
    { roof: 'memory', all: 7.95, one: 14.7, own: 6.08 },
  ]);
  const said = rooflineExperiment.explanation({ info });
  assert.match(said, /every core’s peak \(38\.5 GFLOP\/s\) is not above one core’s highest roof \(42\.6 GFLOP\/s\)/);
  assert.match(said, /every core’s memory roof \(7\.95 GB\/s\) is not above one core’s \(14\.7 GB\/s, the machine probe’s triad; the engine’s own one-core triad read 6\.08 GB\/s\)/);
  assert.match(said, /Re-probe measures them again\./);
  // Equal counts as not above; the multiply-add roof is the highest when there is no FMA.
  assert.deepEqual(roof.allCoreShortfalls({ ...probe, engine: { ...engine, fma_gflops_per_s: null, all_core_gflops_per_s: 40 } }).map((f) => f.roof), ['peak']);
  // One thread draws no dashed roofs, so there is nothing to compare.
  assert.deepEqual(roof.allCoreShortfalls({ ...info, engine: { ...busy, threads: 1 } }), []);
});

test('roofline: kernels on the same spot share one chart label, so the texts do not overprint', () => {
  const rows = [
    { kernel: 'add', intensity: 1 / 12, gflops_per_s: 1 },
    { kernel: 'mul', intensity: 1 / 12, gflops_per_s: 0.97 },
    { kernel: 'sum', intensity: 0.25, gflops_per_s: 1 },
    { kernel: 'gelu unfused', intensity: 0.125, gflops_per_s: 0.1 },
    // 11% below add: a spot of its own, labelled on its own (the chart keeps the texts apart).
    { kernel: 'add naive', intensity: 1 / 12, gflops_per_s: 0.9 },
  ];
  assert.deepEqual(
    roof.chartPoints(rows).map((p) => p.label),
    ['add, mul', '', 'sum', 'gelu unfused', 'add naive'],
  );
  assert.equal(rows[0].label, undefined, 'the rows themselves are not changed');
});

test('the three specs pass the framework’s checks', () => {
  for (const spec of [geluFusionExperiment, cacheSweepExperiment, rooflineExperiment]) {
    assert.deepEqual(specProblems(spec), [], spec.id);
  }
  assert.deepEqual(
    [geluFusionExperiment, cacheSweepExperiment, rooflineExperiment].map((s) => s.id),
    ['acceleration-gelu-fusion', 'acceleration-cache-sweep', 'acceleration-roofline'],
  );
});

test('cache sweep and GELU: the points, the axis and the quick-mode notes follow core’s plan', () => {
  // Another plan than core's: 8 KiB to 1 MiB in three sizes.
  const info = planInfo('acceleration-cache-sweep', true);
  info.plan = { ...info.plan, sizes: [8192, 65536, 1 << 20] };
  assert.deepEqual(cache.cacheSweepPoints({}, { quick: true, info }).map((p) => p.bytes), [8192, 65536, 1 << 20]);
  assert.equal(
    cacheSweepExperiment.quickNote({ quick: true, info }),
    'Quick mode (?quick=1): three sizes from 8 KiB to 1 MiB. Remove it for the full 4 KiB – 256 MiB sweep.',
  );
  const axis = cacheSweepExperiment.charts[0].options({ quick: true, info });
  assert.deepEqual([axis.xTicks, axis.xDomain], [[8192, 65536, 1 << 20], [8192, 1 << 20]]);
  assert.equal(axis.ariaLabel, 'Read bandwidth in GB/s against working-set size from 4 KiB to 256 MiB, log scale');
  assert.equal(cache.capNote(info), 'No memory cap reported: the sweep goes to 1 MiB.');
  assert.equal(cacheSweepExperiment.charts[0].options({ quick: true, info: null }).xTicks, undefined, 'no plan yet: no ticks');
  assert.throws(() => cache.cacheSweepPoints({}, { quick: true, info: {} }), {
    message: 'the lab worker gave no plan of working-set sizes, so there is nothing to measure',
  });
  assert.equal(
    geluFusionExperiment.quickNote(planCtx('acceleration-gelu-fusion', true)),
    'Quick mode (?quick=1): 16 Ki and 1 Mi elements only, small budgets.',
  );
  const gelus = planInfo('acceleration-gelu-fusion', true, { variants: ['unfused'] });
  gelus.plan.elements = [1 << 10];
  assert.deepEqual(gelu.geluPoints({}, { quick: true, info: gelus }).map((p) => p.elements), [1024]);
  assert.equal(geluFusionExperiment.quickNote({ quick: true, info: gelus }), 'Quick mode (?quick=1): 1 Ki elements only, small budgets.');
});
