// The measurement-point bindings the experiments loop over, in both Node builds: every
// result's shape, its counts against the documented formulas (kernels/: matmul.hpp,
// elementwise.hpp, reduce.hpp, norm.hpp), the roofline placement against given roofs, every bad argument as an Error
// with its exact message (the module still answers afterwards), and that the page reads
// what the CLI prints: cliReport accepts a report shaped as `perflab roofline --json` and,
// when $PERFLAB_CLI names the native CLI, its real output (skipped otherwise).
// Timing is never asserted: rates are only checked to be finite and positive.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflab } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflab));
const QUICK = { warmup: 1, samples: 3, min_sample_ms: 0.1, max_total_ms: 50 };
const ROOFS = { peak_gflops_per_s: 100, bandwidth_gb_per_s: 10 }; // ridge 10 FLOP/byte

const STATS_KEYS = ['ci95_high_ms', 'ci95_low_ms', 'cv', 'inner_iterations', 'max_ms', 'mean_ms',
  'median_ms', 'min_ms', 'outliers', 'p95_ms', 'p99_ms', 'resolution_ms', 'samples',
  'stddev_ms', 'warning'];
const OPERATION_KEYS = ['bytes', 'elements', 'flops', 'gb_per_s', 'gflops_per_s', 'intensity',
  'n', 'ns_per_element', 'op', 'stats', 'variant'];
const PLACEMENT_KEYS = ['attainable_gflops_per_s', 'bandwidth_gb_per_s', 'bound',
  'fraction_of_attainable', 'peak_gflops_per_s', 'ridge_flops_per_byte', 'verdict'];

const sorted = (keys) => [...keys].sort();
function positive(value, what) {
  assert.ok(Number.isFinite(value) && value > 0, `${what} = ${value}`);
}
function checkStats(s) {
  assert.deepEqual(Object.keys(s).sort(), STATS_KEYS);
  positive(s.median_ms, 'stats.median_ms');
  assert.ok(s.samples >= 2);
}

// op, n → the documented counts: [elements, flops, bytes] (default variants).
const COUNTS = [
  ['matmul', 16, [256, 2 * 16 ** 3, 12 * 16 ** 2]],
  ['add', 1000, [1000, 1000, 12 * 1000]],
  ['mul', 1000, [1000, 1000, 12 * 1000]],
  ['gelu', 1000, [1000, 9 * 1000, 8 * 1000]], // fused: read x, write out
  ['sum', 1000, [1000, 1000, 4 * 1000]],
  // rows of 1024: 3000 rounds down to 2 rows; fused softmax 5 FLOPs and 12 bytes per element
  ['softmax', 3000, [2048, 5 * 2048, 12 * 2048]],
  // one row of 512: 7 FLOPs per element, 12 bytes per element + gamma and beta (8 · 512)
  ['layernorm', 512, [512, 7 * 512, 12 * 512 + 8 * 512]],
];

for (const build of BUILDS) {
  const m = modules[BUILDS.indexOf(build)];
  describe(`measurement points (${build.flavour} build)`, () => {
    it('measureGelu returns the row with the formula FLOPs and the variant bytes', () => {
      for (const [variant, bytesPerElement] of [['fused-simd', 8], ['unfused', 72]]) {
        const r = m.measureGelu(variant, 1000, QUICK);
        assert.deepEqual(Object.keys(r).sort(), ['bytes', 'elements', 'flops', 'gb_per_s',
          'gflops_per_s', 'ns_per_element', 'stats', 'variant']);
        assert.equal(r.variant, variant);
        assert.equal(r.elements, 1000);
        assert.equal(r.flops, 9 * 1000);
        assert.equal(r.bytes, bytesPerElement * 1000);
        for (const k of ['gb_per_s', 'gflops_per_s', 'ns_per_element']) positive(r[k], k);
        checkStats(r.stats);
      }
      assert.deepEqual(m.geluVariants().map((v) => Object.keys(v).sort()).at(0),
        ['description', 'name']);
    });

    it('measureOperation counts every op by its formula', () => {
      assert.deepEqual(m.operationNames(), COUNTS.map(([op]) => op));
      for (const [op, n, [elements, flops, bytes]] of COUNTS) {
        const r = m.measureOperation(op, n, QUICK);
        assert.deepEqual(Object.keys(r).sort(), OPERATION_KEYS, op);
        assert.equal(r.op, op);
        assert.equal(r.n, n);
        assert.deepEqual([r.elements, r.flops, r.bytes], [elements, flops, bytes], op);
        assert.equal(r.intensity, flops / bytes);
        for (const k of ['gflops_per_s', 'gb_per_s', 'ns_per_element']) positive(r[k], `${op} ${k}`);
        checkStats(r.stats);
      }
      assert.equal(m.measureOperation('matmul', 8, QUICK).variant, 'packed');
      assert.equal(m.measureOperation('matmul', 8, { ...QUICK, variant: 'naive' }).variant, 'naive');
      assert.equal(m.measureOperation('gelu', 64, QUICK).variant, 'fused-simd');
      // Variants with other traffic: naive softmax makes three passes (20 bytes per element).
      const naive = m.measureOperation('softmax', 1024, { ...QUICK, variant: 'naive' });
      assert.equal(naive.bytes, 20 * 1024);
    });

    it('measureOperation places the row on the roofline when both roofs are given', () => {
      const r = m.measureOperation('matmul', 16, { ...QUICK, ...ROOFS });
      assert.deepEqual(Object.keys(r).sort(), sorted([...OPERATION_KEYS, ...PLACEMENT_KEYS]));
      assert.equal(r.peak_gflops_per_s, 100);
      assert.equal(r.bandwidth_gb_per_s, 10);
      assert.equal(r.ridge_flops_per_byte, 10);
      // intensity 16/6 is below the ridge: memory-bound, attainable 16/6 · 10
      assert.equal(r.bound, 'memory-bound');
      assert.ok(Math.abs(r.attainable_gflops_per_s - 160 / 6) < 1e-9);
      assert.ok(Math.abs(r.fraction_of_attainable - r.gflops_per_s / r.attainable_gflops_per_s)
        < 1e-12);
      assert.equal(r.verdict, 'memory-bound: intensity 2.7 FLOP/byte is below the ridge point ' +
        '10 FLOP/byte; attainable 27 GFLOP/s of 100 peak');
      const big = m.measureOperation('matmul', 64, { ...QUICK, ...ROOFS });
      assert.equal(big.bound, 'compute-bound'); // 64/6 ≈ 10.7 ≥ 10
    });

    it('measureMatmulBlocked is the matmul row with its tiles', () => {
      const r = m.measureMatmulBlocked(32, { tile_m: 8, tile_n: 16, tile_k: 4 }, QUICK);
      assert.deepEqual(Object.keys(r).sort(), ['bytes', 'flops', 'gb_per_s', 'gflops_per_s',
        'intensity', 'n', 'stats', 'tiles', 'variant']);
      assert.equal(r.variant, 'blocked');
      assert.deepEqual(r.tiles, { tile_m: 8, tile_n: 16, tile_k: 4 });
      assert.equal(r.flops, 2 * 32 ** 3);
      assert.equal(r.bytes, 12 * 32 ** 2);
      positive(r.gflops_per_s, 'gflops_per_s');
      // Omitted tiles take the blocked variant's defaults.
      assert.deepEqual(m.measureMatmulBlocked(8, { tile_k: 2 }, QUICK).tiles,
        { tile_m: 64, tile_n: 256, tile_k: 2 });
      assert.deepEqual(m.measureMatmulBlocked(8, undefined, QUICK).tiles,
        { tile_m: 64, tile_n: 256, tile_k: 128 });
    });

    it('probeMachine({quick: true}) returns positive roofs and their ridge', () => {
      const p = m.probeMachine({ quick: true });
      assert.deepEqual(Object.keys(p).sort(), ['bandwidth_gb_per_s',
        'bandwidth_working_set_bytes', 'copy_gb_per_s', 'elapsed_ms', 'int8_peak_gops_per_s',
        'peak_gflops_per_s', 'ridge_flops_per_byte', 'scalar_peak_gflops_per_s', 'simd_backend', 'simd_enabled',
        'simd_peak_gflops_per_s', 'triad_gb_per_s', 'warning']);
      for (const k of ['peak_gflops_per_s', 'scalar_peak_gflops_per_s', 'simd_peak_gflops_per_s',
        'int8_peak_gops_per_s', 'copy_gb_per_s', 'triad_gb_per_s', 'elapsed_ms']) positive(p[k], k);
      assert.equal(p.bandwidth_gb_per_s, p.triad_gb_per_s);
      assert.equal(p.peak_gflops_per_s,
        build.simd ? p.simd_peak_gflops_per_s : p.scalar_peak_gflops_per_s);
      assert.ok(Math.abs(p.ridge_flops_per_byte - p.peak_gflops_per_s / p.bandwidth_gb_per_s)
        < 1e-9 * p.ridge_flops_per_byte);
      assert.equal(p.simd_enabled, build.simd);
      assert.equal(p.simd_backend, m.buildInfo().simd_backend);
    });

    it('measureReadBandwidth returns one sweep point, rounded to whole 128-byte blocks', () => {
      const r = m.measureReadBandwidth(65536, QUICK);
      assert.deepEqual(Object.keys(r).sort(), ['bytes', 'bytes_per_call', 'gb_per_s', 'stats']);
      assert.equal(r.bytes, 65536);
      positive(r.gb_per_s, 'gb_per_s');
      // One call reads whole passes over the working set; the rate is those bytes over the fastest call.
      assert.equal(r.bytes_per_call % r.bytes, 0);
      assert.ok(Math.abs(r.gb_per_s - r.bytes_per_call / (r.stats.min_ms * 1e6)) <= 1e-9 * r.gb_per_s);
      checkStats(r.stats);
      assert.equal(m.measureReadBandwidth(4096 + 100, QUICK).bytes, 4096);
    });

    it('rooflinePoint is core\'s RooflinePoint with the ridge and the roofs', () => {
      const p = m.rooflinePoint({ name: 'add', flops: 1000, bytes: 12000,
        measured_gflops_per_s: 0.5 }, ROOFS);
      assert.deepEqual(p, {
        name: 'add', flops: 1000, bytes: 12000, measured_gflops_per_s: 0.5,
        // Core's order of operations: intensity first, then intensity × bandwidth.
        intensity: 1000 / 12000, attainable_gflops_per_s: (1000 / 12000) * 10,
        bound: 'memory-bound', fraction_of_attainable: 0.5 / ((1000 / 12000) * 10),
        verdict: 'memory-bound: intensity 0.083 FLOP/byte is below the ridge point 10 ' +
          'FLOP/byte; attainable 0.83 GFLOP/s of 100 peak',
        ridge_flops_per_byte: 10, peak_gflops_per_s: 100, bandwidth_gb_per_s: 10,
      });
    });

    it('measureLinear times one Linear layer with the named matmul variant', () => {
      for (const variant of ['naive', 'packed']) {
        const r = m.measureLinear(64, 32, 8, variant, QUICK);
        assert.deepEqual(Object.keys(r).sort(), ['batch', 'flops', 'gflops_per_s', 'in_features',
          'out_features', 'stats', 'variant']);
        assert.deepEqual([r.variant, r.in_features, r.out_features, r.batch],
          [variant, 64, 32, 8]);
        assert.equal(r.flops, 2 * 8 * 64 * 32);
        positive(r.gflops_per_s, 'gflops_per_s');
        checkStats(r.stats);
      }
    });
  });
}

// ---- errors: [what, call(m), exact message]
const matmulNames = modules[0].matmulVariants().map((v) => v.name).join(', ');
const geluNames = modules[0].geluVariants().map((v) => v.name).join(', ');
const OPERATION_OPTIONS = 'warmup, samples, min_sample_ms, max_total_ms, variant, ' +
  'peak_gflops_per_s, bandwidth_gb_per_s and controls';
const BAD_CALLS = [
  ['measureGelu with 0 elements', (m) => m.measureGelu('fused-simd', 0),
    'elements must be between 1 and 67108864, got 0'],
  ['measureGelu with an unknown variant', (m) => m.measureGelu('fast', 8),
    `unknown gelu variant 'fast'; known variants: ${geluNames}`],
  ['measureGelu with a numeric variant', (m) => m.measureGelu(5, 8),
    'variant must be a string, got 5'],
  ['measureOperation with an unknown op', (m) => m.measureOperation('conv', 8),
    "unknown operation 'conv'; known operations: matmul, add, mul, gelu, sum, softmax, layernorm"],
  ['measureOperation with n 0', (m) => m.measureOperation('add', 0),
    'n must be between 1 and 16777216 elements for add, got 0'],
  ['measureOperation with n too large for matmul', (m) => m.measureOperation('matmul', 5000),
    'n must be between 1 and 4096, got 5000'],
  ['measureOperation with a variant add does not have',
    (m) => m.measureOperation('add', 8, { variant: 'naive' }),
    "unknown add variant 'naive'; known variants: simd"],
  ['measureOperation with an unknown matmul variant',
    (m) => m.measureOperation('matmul', 8, { variant: 'fast' }),
    `unknown matmul variant 'fast'; known variants: ${matmulNames}`],
  ['measureOperation with one roof only',
    (m) => m.measureOperation('sum', 8, { peak_gflops_per_s: 10 }),
    'options.peak_gflops_per_s and options.bandwidth_gb_per_s go together (the roofline needs ' +
    'both roofs); got only peak_gflops_per_s'],
  ['measureOperation with a negative roof',
    (m) => m.measureOperation('sum', 8, { peak_gflops_per_s: -1, bandwidth_gb_per_s: 10 }),
    'peak_gflops_per_s must be a finite number greater than 0, got -1'],
  ['measureOperation with a roof that is not a number',
    (m) => m.measureOperation('sum', 8, { peak_gflops_per_s: '1', bandwidth_gb_per_s: 10 }),
    'options.peak_gflops_per_s must be a finite number, got "1"'],
  ['measureOperation with an unknown option', (m) => m.measureOperation('sum', 8, { variants: 'x' }),
    `unknown option "variants"; the allowed options are ${OPERATION_OPTIONS}`],
  ['measureMatmulBlocked with a zero tile', (m) => m.measureMatmulBlocked(8, { tile_m: 0 }),
    'tile_m must be between 1 and 4096, got 0'],
  ['measureMatmulBlocked with a tile of 2^31 - 1',
    (m) => m.measureMatmulBlocked(4096, { tile_n: 2147483647 }),
    'tile_n must be between 1 and 4096, got 2147483647'],
  // The remedy names the control the caller names (the page's Measure longer), and none
  // when the caller names none: never a setting the reader does not have.
  ['a naive matmul whose one call cannot fit a 5 ms budget',
    (m) => m.measureMatmul('naive', 4096, { max_total_ms: 5 }),
    'one call of naive matmul at n=4096 is 1.37e+11 FLOPs, at least 1375 ms at 100 GFLOP/s ' +
    '(faster than any one core), more than the 5 ms time budget: use a smaller size'],
  ['a naive matmul whose one call cannot fit a 5 ms budget, on a page with Measure longer',
    (m) => m.measureMatmul('naive', 4096, { max_total_ms: 5, controls: { budget: 'Measure longer' } }),
    'one call of naive matmul at n=4096 is 1.37e+11 FLOPs, at least 1375 ms at 100 GFLOP/s ' +
    '(faster than any one core), more than the 5 ms time budget: give it at least 1375 ms ' +
    'with Measure longer, or use a smaller size'],
  ['a model profile whose one forward pass cannot fit a 5 ms budget',
    (m) => m.profileModel({ name: 'x', input: [64, 2048],
      layers: [{ type: 'Linear', in: 2048, out: 2048 }] },
    { max_total_ms: 5, backward: false, controls: { budget: 'Measure longer' } }),
    'one call of a forward pass of x at batch 64 is 5.37e+08 FLOPs, at least 6 ms at 100 ' +
    'GFLOP/s (faster than any one core), more than the 5 ms time budget: give it at least 6 ms ' +
    'with Measure longer, or use a smaller size'],
  ['measureMatmulBlocked with an unknown tile field',
    (m) => m.measureMatmulBlocked(8, { tile_x: 4 }),
    'unknown tile field "tile_x"; the allowed fields are tile_m, tile_n and tile_k'],
  ['measureMatmulBlocked with tiles that are not an object', (m) => m.measureMatmulBlocked(8, 4),
    'tiles must be an object with optional fields tile_m, tile_n and tile_k, got 4'],
  ['probeMachine with quick not a boolean', (m) => m.probeMachine({ quick: 'yes' }),
    'options.quick must be true or false, got "yes"'],
  ['probeMachine with an unknown field', (m) => m.probeMachine({ fast: true }),
    'unknown field "fast" in options; the allowed fields are quick'],
  ['measureReadBandwidth below 4 KiB', (m) => m.measureReadBandwidth(1024),
    'bytes must be between 4096 (4.0 KiB) and 268435456 (256.0 MiB), got 1024'],
  ['measureReadBandwidth above 256 MiB', (m) => m.measureReadBandwidth(2 ** 29),
    'bytes must be between 4096 (4.0 KiB) and 268435456 (256.0 MiB), got 536870912'],
  ['measureReadBandwidth with bytes as text', (m) => m.measureReadBandwidth('4096'),
    'bytes must be a non-negative integer, got "4096"'],
  ['rooflinePoint with zero bytes', (m) => m.rooflinePoint(
    { name: 'k', flops: 1, bytes: 0, measured_gflops_per_s: 1 }, ROOFS),
  'bytes must be a finite number greater than 0, got 0'],
  ['rooflinePoint with a missing field', (m) => m.rooflinePoint({ flops: 1, bytes: 1 }, ROOFS),
    'point.measured_gflops_per_s must be a finite number, got undefined'],
  ['rooflinePoint with a point that is not an object', (m) => m.rooflinePoint(5, ROOFS),
    'point must be an object with the fields name, flops, bytes and measured_gflops_per_s, got 5'],
  ['rooflinePoint with an unknown roof', (m) => m.rooflinePoint(
    { flops: 1, bytes: 1, measured_gflops_per_s: 1 }, { peak: 1 }),
  'unknown field "peak" in roofs; the allowed fields are peak_gflops_per_s and ' +
    'bandwidth_gb_per_s'],
  ['measureLinear with 0 input features', (m) => m.measureLinear(0, 8, 8, 'naive'),
    'in_features must be between 1 and 16777216, got 0'],
  ['measureLinear with an unknown variant', (m) => m.measureLinear(8, 8, 8, 'fast'),
    `unknown matmul variant 'fast'; known variants: ${matmulNames}`],
  ['measureLinear too large for the loops', (m) => m.measureLinear(4096, 4096, 4096, 'naive'),
    'batch × in_features × out_features must be at most 1073741824, got 4096 × 4096 × 4096 = ' +
    '68719476736'],
  // The product passes 2^64; the message once printed -9223372036854775808 (an overflowing
  // conversion: undefined behaviour).
  ['measureLinear with the largest sizes', (m) => m.measureLinear(16777216, 16777216, 16777216, 'packed'),
    'batch × in_features × out_features must be at most 1073741824, got 16777216 × 16777216 × ' +
    '16777216 = 4722366482869645213696'],
  ['measureLinear with a batch as text', (m) => m.measureLinear(8, 8, '8', 'naive'),
    'batch must be a non-negative integer, got "8"'],
  ['cliReport with text that is not JSON', (m) => m.cliReport('hello'),
    'pasted text is not perflab JSON: parse error at line 1, column 1: "hello" is not a JSON ' +
    'value; a value is an object, an array, a string in double quotes, a number, true, false ' +
    'or null; paste the whole output of `perflab roofline --json` or `perflab bench --json`'],
  ['cliReport with JSON from another tool', (m) => m.cliReport('{"rows": []}'),
    'pasted text is not perflab JSON: it has no "tool": "perflab" field; paste the whole ' +
    'output of `perflab roofline --json` or `perflab bench --json`'],
  ['cliReport with the profile output', (m) => m.cliReport(
    '{"tool": "perflab", "kind": "profile", "version": "0.1.0"}'),
  'pasted perflab JSON: kind is "profile"; expected "roofline" or "bench"'],
  ['cliReport with a row missing its rate', (m) => m.cliReport(JSON.stringify(
    { ...handReport(), rows: [{ ...handReport().rows[0], gflops_per_s: undefined }] })),
  'pasted perflab JSON: rows[0].gflops_per_s is missing'],
  ['cliReport with no machine in a roofline report', (m) => m.cliReport(JSON.stringify(
    { ...handReport(), machine: undefined })),
  'pasted perflab JSON: machine is missing'],
  ['cliReport with a number', (m) => m.cliReport(5), 'text must be a string, got 5'],
];

// A report as `perflab roofline --json` prints it, written by hand (one row).
function handReport() {
  return {
    tool: 'perflab', kind: 'roofline', version: '0.1.0', quick: true, simd_backend: 'sse2',
    machine: { peak_gflops_per_s: 100, bandwidth_gb_per_s: 10, simd_backend: 'sse2' },
    rows: [{
      op: 'add', variant: 'simd', n: 1000, elements: 1000, flops: 1000, bytes: 12000,
      intensity: 1 / 12, gflops_per_s: 0.5, gb_per_s: 6, ns_per_element: 2,
      stats: { median_ms: 0.002 },
    }],
  };
}

for (const build of BUILDS) {
  const m = modules[BUILDS.indexOf(build)];
  describe(`measurement bindings reject bad arguments (${build.flavour} build)`, () => {
    for (const [what, call, message] of BAD_CALLS) {
      it(`reports ${what}`, () => {
        assert.throws(() => call(m), (e) => {
          assert.ok(e instanceof Error);
          assert.equal(e.message, message);
          return true;
        });
      });
    }
    it('names in a timer warning the control the page names, and none when it names none', () => {
      // Two samples: too few for an interval, whatever the machine.
      const few = { warmup: 0, samples: 2, min_sample_ms: 0, max_total_ms: 50 };
      const named = m.measureMatmul('naive', 8, { ...few, controls: { samples: 'Measure longer', budget: 'Measure longer' } });
      assert.match(named.stats.warning, /^only 2 samples kept: too few for an interval of the median; take more samples with Measure longer/);
      const unnamed = m.measureMatmul('naive', 8, few);
      assert.match(unnamed.stats.warning, /^only 2 samples kept: too few for an interval of the median(;|$)/);
      assert.doesNotMatch(unnamed.stats.warning, /measure longer|max_total_ms|take more samples/i);
    });
    it('still measures after every bad call', () => {
      const before = m.memoryStats().current_bytes;
      for (const [, call] of BAD_CALLS) assert.throws(() => call(m));
      assert.equal(m.memoryStats().current_bytes, before);
      assert.equal(m.measureOperation('add', 64, QUICK).flops, 64);
    });
  });

  describe(`cliReport reads what the CLI prints (${build.flavour} build)`, () => {
    it('normalizes a hand-written roofline report and places its rows', () => {
      const r = m.cliReport(JSON.stringify(handReport()));
      assert.equal(r.kind, 'roofline');
      assert.equal(r.machine.peak_gflops_per_s, 100);
      assert.equal(r.rows.length, 1);
      const row = r.rows[0];
      assert.deepEqual(Object.keys(row).sort(), sorted([...OPERATION_KEYS, ...PLACEMENT_KEYS]));
      assert.equal(row.intensity, 1000 / 12000);
      assert.equal(row.bound, 'memory-bound');
      assert.equal(row.ridge_flops_per_byte, 10);
      // A bench report has no roofs and its rows no placement.
      const bench = m.cliReport(JSON.stringify({ ...handReport(), kind: 'bench',
        machine: undefined }));
      assert.equal(bench.kind, 'bench');
      assert.equal(bench.machine, undefined);
      assert.deepEqual(Object.keys(bench.rows[0]).sort(), OPERATION_KEYS);
    });

    // Only a CLI named explicitly: a stale build found by guessing could predate `roofline`.
    const cli = process.env.PERFLAB_CLI && existsSync(process.env.PERFLAB_CLI)
      ? process.env.PERFLAB_CLI : undefined;
    it('accepts `perflab roofline --json --quick` and `perflab bench --json --quick`',
      { skip: cli ? false : 'no native perflab CLI built (set PERFLAB_CLI)' }, () => {
        for (const kind of ['roofline', 'bench']) {
          const out = spawnSync(cli, [kind, '--json', '--quick'], { encoding: 'utf8',
            timeout: 120_000 });
          assert.equal(out.status, 0, out.stderr);
          const printed = JSON.parse(out.stdout);
          const r = m.cliReport(out.stdout);
          assert.equal(r.kind, kind);
          assert.equal(r.rows.length, printed.rows.length);
          // Normalizing keeps every number the CLI printed (placement recomputed the same way).
          for (const [i, row] of r.rows.entries()) {
            for (const [key, value] of Object.entries(row)) {
              if (typeof value === 'number') {
                assert.ok(Math.abs(value - printed.rows[i][key]) <= 1e-12 * Math.abs(value),
                  `rows[${i}].${key}`);
              } else if (key !== 'stats') {
                assert.equal(value, printed.rows[i][key]);
              }
            }
          }
        }
      });
  });
}
