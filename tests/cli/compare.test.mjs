// The native CLI's regression check end to end: `perflab compare BASE.json NEW.json` on bench
// files written here by hand (so verdicts are known without timing anything): exit 1 when a
// benchmark is significantly slower by more than the threshold, 0 for no change or a change
// inside the threshold, 2 for a malformed file naming the file and the field; rows present in
// only one file are listed. Quick `perflab bench --json` runs check that the samples it writes
// by default are what compare reads (its timings are never asserted). Run by ctest
// (tools/CMakeLists.txt) with PERFLAB_CLI set to the built binary.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { perflab, scratchDir } from './cli.mjs';

const dir = scratchDir('compare');
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');


// 10 samples around `median_ms`, spread ±0.45%, no ties.
function samples(median_ms) {
  return Array.from({ length: 10 }, (_, i) => median_ms * (1 + (i - 4.5) * 0.001));
}

function row(op, variant, n, median_ms) {
  return { op, variant, n, stats: { median_ms }, samples_ms: samples(median_ms) };
}

function writeBench(name, rows, extra = {}) {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify({ tool: 'perflab', kind: 'bench', version: '0', quick: true,
    simd_backend: 'sse2', rows, ...extra }));
  return file;
}

const base = writeBench('base.json', [row('matmul', 'packed', 64, 1.0), row('gelu', 'fused-simd', 65536, 0.5),
  row('matmul', 'naive', 64, 4.0)]);

test('the same timings: exit 0, no difference on every row', () => {
  const r = perflab('compare', base, base, '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.regression, false);
  assert.deepEqual(out.rows.map((x) => x.verdict), ['no_difference', 'no_difference', 'no_difference']);
  for (const x of out.rows) assert.equal(x.change, 0);
});

test('a benchmark 10% slower: exit 1, named slower, with its change and p-value', () => {
  const slower = writeBench('slower.json', [row('matmul', 'packed', 64, 1.1), row('gelu', 'fused-simd', 65536, 0.5),
    row('matmul', 'naive', 64, 4.0)]);
  const r = perflab('compare', base, slower, '--json');
  assert.equal(r.status, 1, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.regression, true);
  const m = out.rows[0];
  assert.equal(m.benchmark, 'matmul packed n=64');
  assert.equal(m.verdict, 'slower');
  assert.ok(Math.abs(m.change - 0.1) < 1e-9);
  // Every new sample is above every base sample: exact Mann-Whitney p = 2 / C(20, 10).
  assert.ok(Math.abs(m.p_value - 2 / 184756) < 1e-12);
  // The sentence names the two files, and its interval is that of the factor it states.
  assert.match(m.sentence, new RegExp(`^${escape(slower)} is 1\\.10x slower than ${escape(base)} \\(95% CI 1\\.\\d\\d-1\\.\\d\\dx, p < 0\\.001\\)$`));
  const [low, high] = m.sentence.match(/CI ([\d.]+)-([\d.]+)x/).slice(1).map(Number);
  assert.ok(low <= 1.1 && 1.1 <= high, m.sentence);
  // Intervals are {low, high}, as every interval core writes.
  assert.deepEqual(Object.keys(m.change_interval), ['high', 'low']);
  assert.ok(Math.abs(m.change_interval.low - (1 / m.ratio_interval.high - 1)) < 1e-12);
  assert.ok(Math.abs(m.change_interval.high - (1 / m.ratio_interval.low - 1)) < 1e-12);
  assert.equal(out.rows[1].verdict, 'no_difference');
  // The text mode says the same and ends with the regression line.
  const text = perflab('compare', base, slower);
  assert.equal(text.status, 1);
  assert.match(text.stdout, /^matmul packed n=64 .* \+10\.0% +<0\.001 +slower$/m);
  // The table reads core's words; the identifiers stay in --json.
  assert.match(text.stdout, /^gelu fused-simd n=65536 .* no clear difference$/m);
  assert.doesNotMatch(text.stdout, /no_difference/);
  assert.match(text.stdout, /regression: at least one benchmark is significantly slower/);
});

test('a slowdown inside the threshold, or a speedup, exits 0', () => {
  const slightly = writeBench('slightly.json', [row('matmul', 'packed', 64, 1.01)]);
  const r = perflab('compare', base, slightly, '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.rows[0].verdict, 'no_difference');
  assert.match(out.rows[0].sentence, /within the 2% noise threshold/);
  // 1.01x slower, and the interval printed is the slowdown's (not 0.99-0.99x, the ratio's).
  assert.match(out.rows[0].sentence, /is 1\.01x slower than .* \(95% CI 1\.01-1\.01x, p < 0\.001\)$/);
  // The same 1% counts with a 0.5% threshold.
  assert.equal(perflab('compare', base, slightly, '--threshold', '0.5').status, 1);
  const faster = writeBench('faster.json', [row('matmul', 'packed', 64, 0.8)]);
  const f = perflab('compare', base, faster, '--json');
  assert.equal(f.status, 0);
  assert.equal(JSON.parse(f.stdout).rows[0].verdict, 'faster');
});

test('rows present in only one file are listed, not an error', () => {
  const other = writeBench('other.json', [row('matmul', 'packed', 64, 1.0), row('softmax', 'naive', 1024, 0.2)]);
  const r = perflab('compare', base, other, '--json');
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.deepEqual(out.only_in_base, ['gelu fused-simd n=65536', 'matmul naive n=64']);
  assert.deepEqual(out.only_in_new, ['softmax naive n=1024']);
  const text = perflab('compare', base, other);
  assert.match(text.stdout, new RegExp(`^only in ${escape(other)}: softmax naive n=1024$`, 'm'));
});

test('malformed files exit 2 naming the file and the field', () => {
  const cases = [
    [writeBench('nosamples.json', [{ op: 'matmul', variant: 'packed', n: 64, stats: {} }]),
      /nosamples\.json: rows\[0\]\.samples_ms is missing/],
    [writeBench('badsample.json', [{ ...row('matmul', 'packed', 64, 1), samples_ms: [1, 'x'] }]),
      /badsample\.json: rows\[0\]\.samples_ms\[1\] must be a number, got "x"/],
    [writeBench('negative.json', [{ ...row('matmul', 'packed', 64, 1), samples_ms: [1, -2, 1] }]),
      /negative\.json matmul packed n=64 samples_ms\[1\] is -2: values must be finite and not negative/],
    [writeBench('roofline.json', [], { kind: 'roofline' }), /roofline\.json: kind must be "bench", got "roofline"/],
    [writeBench('micro.json', [{ op: 'matmul', variant: 'packed', n: 64, samples_us: [1000, 1100] }]),
      /micro\.json: rows\[0\]\.samples_us holds per-call times in microseconds; perflab compare compares samples in one unit, milliseconds/],
    [writeBench('noop.json', [{ variant: 'packed', n: 64, samples_ms: [1] }]), /noop\.json: rows\[0\]\.op is missing/],
    [writeBench('twice.json', [row('matmul', 'packed', 64, 1), row('matmul', 'packed', 64, 1)]),
      /twice\.json: rows\[1\] repeats matmul packed n=64 \(rows\[0\]\)/],
  ];
  const notJson = path.join(dir, 'notjson.json');
  writeFileSync(notJson, '{"tool": ');
  cases.push([notJson, /notjson\.json is not valid JSON: parse error at line 1, column 10/]);
  cases.push([path.join(dir, 'missing.json'), /cannot read '.*missing\.json': No such file/]);
  for (const [file, message] of cases) {
    const r = perflab('compare', base, file);
    assert.equal(r.status, 2, `${file}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.equal(r.stdout, '');
  }
});

test('bad options exit 2 with the reason', () => {
  assert.match(perflab('compare', base, base, '--threshold', '150').stderr,
    /--threshold needs a percentage from 0 to 100, got '150'/);
  assert.match(perflab('compare', base, base, '--alpha', '0.9').stderr,
    /alpha must be between 0.0001 and 0.5, got 0.9/);
  const one = perflab('compare', base);
  assert.equal(one.status, 2);
  assert.match(one.stderr, /compare needs BASE.json and NEW.json, got 1 files/);
});

test('a plain bench --json keeps the raw samples compare reads', () => {
  const r = perflab('bench', '--json', '--quick');
  assert.equal(r.status, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  for (const x of report.rows) {
    assert.ok(Array.isArray(x.samples_ms), `${x.op} ${x.variant}: samples_ms`);
    assert.equal(x.samples_ms.length, x.stats.samples + x.stats.outliers);
    for (const v of x.samples_ms) assert.ok(v > 0);
  }
  const file = path.join(dir, 'real.json');
  writeFileSync(file, r.stdout);
  const c = perflab('compare', file, file, '--json');
  assert.equal(c.status, 0, c.stderr);
  assert.equal(JSON.parse(c.stdout).rows.length, report.rows.length);
  // The old --samples flag is still accepted and changes nothing: the rows keep their samples.
  const old = perflab('bench', '--json', '--quick', '--samples');
  assert.equal(old.status, 0, old.stderr);
  assert.ok(JSON.parse(old.stdout).rows.every((x) => Array.isArray(x.samples_ms)));
});

test('runs over core’s limits exit 2 before any comparison; a large run says its bootstrap was cut', () => {
  const many = writeBench('many.json', Array.from({ length: 65 }, (_, i) => row('gelu', 'fused', i + 1, 1)));
  let r = perflab('compare', base, many);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /many\.json: rows has 65 benchmarks; at most 64 are allowed in one run: compare the runs in parts/);
  const heavy = writeBench('heavy.json', [{ op: 'gelu', variant: 'fused', n: 1, samples_ms: new Array(100001).fill(1) }]);
  r = perflab('compare', heavy, base);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /heavy\.json: the rows hold 100001 samples in all; at most 100000 are allowed in one run/);
  // 20,000 samples a side: 40,000 drawn a resample, so 5,000 of the 10,000 resamples fit.
  const big = (name, scale) => writeBench(name, [{ op: 'gelu', variant: 'fused', n: 1,
    samples_ms: Array.from({ length: 20000 }, (_, i) => scale * (1 + 0.001 * (i % 997))) }]);
  const a = big('big-a.json', 1);
  const b = big('big-b.json', 1.5);
  r = perflab('compare', a, b, '--json');
  assert.equal(r.status, 1, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.deepEqual([report.bootstrap_resamples, report.bootstrap_resamples_requested], [5000, 10000]);
  const note = 'the bootstrap used 5000 resamples, not the 10000 asked for: one bootstrap draws at most 200000000 values, and each resample here draws 40000';
  assert.equal(report.note, note);
  assert.match(perflab('compare', a, b).stdout, new RegExp(escape(note)));
});
