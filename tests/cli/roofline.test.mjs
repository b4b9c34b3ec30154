// The native CLI's `roofline` and `bench` subcommands end to end: the JSON objects carry
// "tool", "kind" and "version", every planned row with its hand-computable counts (the
// formulas beside the kernels), rates that are finite and positive, the roofline placement
// against the probed roofs; the text mode prints a table and the kernel engine's all-core
// peak and triad; a bad flag exits 2 with the
// reason on stderr and nothing on stdout. Timings are never asserted. Run by ctest
// (tools/CMakeLists.txt) with PERFLAB_CLI set to the built binary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { perflab } from './cli.mjs';



function positive(value, what) {
  assert.ok(Number.isFinite(value) && value > 0, `${what} = ${value}`);
}

test('roofline --json --quick places every kernel on the probed roofs', () => {
  const r = perflab('roofline', '--json', '--quick');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.tool, 'perflab');
  assert.equal(report.kind, 'roofline');
  assert.match(report.version, /^\d+\.\d+\.\d+$/);
  assert.equal(report.quick, true);
  const m = report.machine;
  for (const k of ['peak_gflops_per_s', 'bandwidth_gb_per_s', 'triad_gb_per_s', 'copy_gb_per_s']) {
    positive(m[k], `machine.${k}`);
  }
  assert.equal(m.bandwidth_gb_per_s, m.triad_gb_per_s);
  assert.deepEqual(report.rows.map((row) => `${row.op} ${row.variant} ${row.n}`), [
    'matmul packed 64', 'matmul packed 128', 'matmul naive 64', 'matmul reordered 64',
    'matmul blocked 64', 'matmul simd 64', 'add simd 262144', 'mul simd 262144',
    'sum simd 262144', 'sum naive 262144', 'softmax fused 262144', 'softmax naive 262144',
    'layernorm fused 262144', 'layernorm naive 262144', 'gelu unfused 262144',
    'gelu unfused-simd 262144', 'gelu fused 262144', 'gelu fused-simd 262144',
  ]);
  const n = 262144;
  const counts = {
    'matmul 64': [2 * 64 ** 3, 12 * 64 ** 2], 'matmul 128': [2 * 128 ** 3, 12 * 128 ** 2],
    [`add ${n}`]: [n, 12 * n], [`mul ${n}`]: [n, 12 * n], [`sum ${n}`]: [n, 4 * n],
    [`softmax ${n}`]: [5 * n, 12 * n], [`layernorm ${n}`]: [7 * n, 12 * n + 8 * 1024],
    [`softmax naive ${n}`]: [5 * n, 20 * n], [`layernorm naive ${n}`]: [7 * n, 16 * n + 8 * 1024],
  };
  for (const row of report.rows) {
    const expected = counts[`${row.op} ${row.variant} ${row.n}`] ?? counts[`${row.op} ${row.n}`] ??
      [9 * n, (row.variant.startsWith('unfused') ? 72 : 8) * n]; // GELU
    assert.deepEqual([row.flops, row.bytes], expected, `${row.op} ${row.variant}`);
    assert.equal(row.intensity, row.flops / row.bytes);
    for (const k of ['gflops_per_s', 'gb_per_s', 'attainable_gflops_per_s',
      'fraction_of_attainable']) positive(row[k], `${row.op} ${k}`);
    assert.equal(row.peak_gflops_per_s, m.peak_gflops_per_s);
    assert.equal(row.bandwidth_gb_per_s, m.bandwidth_gb_per_s);
    assert.equal(row.bound, row.intensity < m.ridge_flops_per_byte ? 'memory-bound' : 'compute-bound');
    assert.match(row.verdict, /^(memory|compute)-bound: intensity /);
  }
});

test('bench --json --quick times every matmul and GELU variant', () => {
  const r = perflab('bench', '--json', '--quick');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.tool, 'perflab');
  assert.equal(report.kind, 'bench');
  assert.equal(typeof report.simd_backend, 'string');
  const matmul = report.rows.filter((row) => row.op === 'matmul');
  const gelu = report.rows.filter((row) => row.op === 'gelu');
  assert.deepEqual([...new Set(matmul.map((row) => row.n))], [32, 64]);
  assert.deepEqual(matmul.filter((row) => row.n === 32).map((row) => row.variant),
    ['naive', 'reordered', 'blocked', 'simd', 'packed']);
  assert.ok(gelu.length >= 4);
  assert.equal(matmul.length + gelu.length, report.rows.length);
  for (const row of report.rows) {
    if (row.op === 'matmul') assert.equal(row.flops, 2 * row.n ** 3);
    else assert.equal(row.flops, 9 * row.n);
    positive(row.gflops_per_s, `${row.op} ${row.variant} gflops_per_s`);
    positive(row.stats.median_ms, 'median_ms');
    assert.equal(row.bound, undefined);
  }
});

test('the text modes print a table', () => {
  const roofline = perflab('roofline', '--quick');
  assert.equal(roofline.status, 0, roofline.stderr);
  assert.match(roofline.stdout, /^machine \(.+\): peak .+ GFLOP\/s, bandwidth .+ GB\/s/);
  // Every core's roofs from the native kernel engine, a line each, beside one core's figures.
  const peak = /^(all (\d+) cores|1 core) \(kernel engine, (simd|fma)\): peak (\S+) GFLOP\/s \(one core: multiply-add (\S+?)(, FMA (\S+))?\)$/m.exec(roofline.stdout);
  const triad = /^(all (\d+) cores|1 core) \(kernel engine\): triad (\S+) GB\/s \(one core: (\S+) GB\/s\)$/m.exec(roofline.stdout);
  assert.ok(peak && triad, roofline.stdout);
  assert.equal(triad[1], peak[1], 'both lines name the same cores');
  assert.equal(peak[3] === 'fma', peak[7] !== undefined, 'the all-core flavour is FMA exactly when an FMA peak was measured');
  for (const v of [peak[4], peak[5], triad[3], triad[4]]) positive(Number(v), 'an engine figure');
  assert.match(roofline.stdout, /^matmul +packed +64 /m);
  assert.match(roofline.stdout, /(memory|compute)-bound$/m);
  const bench = perflab('bench', '--quick');
  assert.equal(bench.status, 0, bench.stderr);
  assert.match(bench.stdout, /^gelu +fused-simd +65536 /m);
});

test('a bad flag exits 2 with the reason on stderr', () => {
  for (const cmd of ['roofline', 'bench']) {
    const r = perflab(cmd, '--fast');
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    const options = cmd === 'bench' ? '--json, --quick and --samples' : '--json and --quick';
    assert.equal(r.stderr, `perflab: unknown option '--fast' for ${cmd}; the options are ${options}\n`);
  }
});
