// The native CLI's `parallel` subcommand end to end: the JSON names the engine and carries one
// verified row per thread count asked for, with the counts the formulas give (2N³ FLOPs and
// 12N² bytes for the matmul, 9 FLOPs and 8 bytes per GELU element) and core's scaling
// analysis against the 1-thread row; the text mode prints the table; bad flags exit 2 with
// the reason on stderr and nothing on stdout. Timings are never asserted. Run by ctest
// (tools/CMakeLists.txt) with PERFLAB_CLI set to the built binary.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { perflab } from './cli.mjs';

function positive(value, what) {
  assert.ok(Number.isFinite(value) && value > 0, `${what} = ${value}`);
}

test('parallel --json times the matmul at each thread count asked for, verified', () => {
  const r = perflab('parallel', '--json', '--quick', '--n', '48', '--threads', '1');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.kind, 'parallel');
  assert.deepEqual(report.engine.flavours, ['simd']);
  assert.ok(report.engine.max_threads >= 1);
  assert.equal(report.rows.length, 1);
  const [row] = report.rows;
  assert.equal(row.kernel, 'matmul');
  assert.equal(row.flavour, 'simd');
  assert.equal(row.threads, 1);
  assert.equal(row.n, 48);
  assert.equal(row.flops, 2 * 48 ** 3);
  assert.equal(row.bytes, 12 * 48 ** 2);
  assert.ok(row.max_error <= 1e-4, `max_error ${row.max_error}`);
  positive(row.gflops_per_s, 'gflops_per_s');
  // One point: nothing to analyse.
  assert.equal(report.scaling, null);
});

test('parallel --kernel gelu over every thread count analyses the scaling', () => {
  const r = perflab('parallel', '--json', '--quick', '--kernel', 'gelu', '--n', '4096');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  const threads = report.rows.map((row) => row.threads);
  assert.deepEqual(threads, Array.from({ length: report.engine.max_threads }, (_, i) => i + 1));
  for (const row of report.rows) {
    assert.equal(row.kernel, 'gelu');
    assert.equal(row.flops, 9 * 4096);
    assert.equal(row.bytes, 8 * 4096);
    assert.ok(row.max_error <= 1, `max_error ${row.max_error}`);
  }
  if (report.rows.length >= 2) {
    assert.deepEqual(report.scaling.rows.map((s) => s.threads), threads);
    const one = report.rows[0].stats.median_ms;
    for (const [i, s] of report.scaling.rows.entries()) {
      assert.ok(Math.abs(s.speedup - one / report.rows[i].stats.median_ms) < 1e-9 * s.speedup);
    }
  }
});

test('parallel prints a table with a row per thread count', () => {
  const r = perflab('parallel', '--quick', '--n', '32', '--threads', '1');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^engine: native std::thread engine/);
  assert.match(r.stdout, /packed matmul, N = 32, flavour simd/);
  assert.match(r.stdout, /\n\s+1\s+\d+\.\d{4}\s/);
});

test('parallel refuses what it cannot run, naming what is allowed', () => {
  for (const [args, message] of [
    [['--kernel', 'conv'], /--kernel is matmul or gelu, got 'conv'/],
    [['--threads', '0'], /--threads takes thread counts between 1 and 16/],
    [['--threads', '1,1'], /--threads lists 1 twice/],
    [['--n', '0'], /n must be between 1 and 4096, got 0/],
    [['--threads', '17'], /between 1 and 16/],
    [['--fast'], /unknown option '--fast' for parallel/],
  ]) {
    const r = perflab('parallel', '--quick', ...args);
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});
