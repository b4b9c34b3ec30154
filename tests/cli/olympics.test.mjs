// `perflab olympics ...` end to end. The events: --json is core's list (five events, each with
// its direction and constraints, the batch and the fewest rounds), the text table prints one
// line per event with the same constraint sentences, and bad usage exits 2 with the reason.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { perflab, scratchDir } from './cli.mjs';

describe('perflab olympics events', () => {
  test('--json lists the five events with their constraints', () => {
    const r = perflab('olympics', 'events', '--json');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(r.stdout);
    assert.deepEqual(j.events.map((e) => e.id),
      ['latency-sprint', 'memory-challenge', 'accuracy-contest', 'all-around', 'extreme-push']);
    assert.equal(j.batch, 1);
    assert.ok(j.min_rounds >= 2);
    for (const e of j.events) {
      assert.ok(['lower', 'higher'].includes(e.direction), e.id);
      assert.ok(e.constraints.length >= 1, e.id);
      for (const c of e.constraints) {
        assert.ok(['accuracy', 'bytes_ratio', 'latency_ratio_low', 'latency_ratio_high'].includes(c.field), c.field);
        assert.ok(c.limit > 0 && c.limit <= 1, `${e.id} ${c.field} ${c.limit}`);
        assert.ok(c.sentence.length > 10);
      }
      assert.ok(e.formula.length > 10, e.id);
    }
    const push = j.events.find((e) => e.id === 'extreme-push');
    assert.deepEqual(push.constraints.map((c) => [c.field, c.limit]), [['accuracy', 0.8], ['latency_ratio_high', 0.5]]);
    assert.match(j.all_around_formula, /√\(speedup × compression\)/);
  });

  test('the text table has one line per event with its constraint sentences', () => {
    const r = perflab('olympics', 'events');
    assert.equal(r.status, 0, r.stderr);
    const j = JSON.parse(perflab('olympics', 'events', '--json').stdout);
    const lines = r.stdout.split('\n');
    for (const e of j.events) {
      const line = lines.find((l) => l.startsWith(`${e.id} `));
      assert.ok(line, `no line for ${e.id}`);
      for (const c of e.constraints) assert.ok(line.includes(c.sentence), `${e.id}: ${c.sentence}`);
      assert.ok(line.includes(e.direction));
    }
  });

  test('bad usage exits 2 naming what is allowed', () => {
    const extra = perflab('olympics', 'events', '--csv');
    assert.equal(extra.status, 2);
    assert.match(extra.stderr, /unknown argument '--csv' for olympics events; the option is --json/);
    const none = perflab('olympics');
    assert.equal(none.status, 2);
    assert.match(none.stderr, /olympics needs a subcommand/);
    const other = perflab('olympics', 'marathon');
    assert.equal(other.status, 2);
    assert.match(other.stderr, /unknown olympics subcommand 'marathon'/);
  });
});

// `olympics check`: a generated entry (structured prune 0.5 without fine-tuning, then int8
// calibrated on 200 images by min/max; made-up timing samples on a 0.1 ms clock grid, shaped
// as the page's forward A/B), checked against the pretrained baseline on the full splits. The
// rebuilt figures agree with the same transforms run by `perflab prune` and `perflab quantize`
// and measured by `perflab evaluate`; a submission's entries are each checked with the file's
// exported_at, a raised claim flagged and a malformed step refused with its sentence.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const baseline = path.join(repoRoot, 'build', 'pretrained', 'fashion_mlp.perflab');

/** The FNV-1a 64 a model file stores in its last 8 bytes, as 16 hex digits. */
function checksumOf(file) {
  const bytes = readFileSync(file);
  return bytes.readBigUInt64LE(bytes.length - 8).toString(16).padStart(16, '0');
}

/** An interleaved batch-1 timing of 12 rounds on a 0.1 ms grid, B about `factor` × A. */
function timing(factor) {
  const a = [], b = [], first = [];
  for (let i = 0; i < 12; i++) {
    const ticks = 40 + (i % 5);
    a.push(Number((ticks * 0.1).toFixed(1)));
    b.push(Number((Math.round(ticks * factor) * 0.1).toFixed(1)));
    first.push(i % 3 === 0);
  }
  return { batch: 1, mode: 'interleaved', rounds: 12, a_ms: a, b_ms: b, a_first: first, inner_iterations_a: 1, inner_iterations_b: 1, resolution_ms: 0.1 };
}

const PIPELINE = [
  { transform: 'prune', method: 'structured', fraction: 0.5, finetune_epochs: 0 },
  { transform: 'quantize', scheme: 'int8', calibration: 'minmax', calibration_images: 200 },
];

function entry(id, pipeline = PIPELINE) {
  return {
    id, name: `generated ${id}`, events: ['latency-sprint', 'memory-challenge'],
    base: { model: 'fashion_mlp', checksum: checksumOf(baseline) },
    pipeline, timing: timing(0.6), finished_at: '2026-12-02T07:00:00.000Z',
  };
}

// The cases that rebuild and evaluate on the full splits are skipped under the sanitizers
// (PERFLAB_SANITIZED: tools/CMakeLists.txt says why); bad usage runs there too.
const fullSplits = {
  skip: process.env.PERFLAB_SANITIZED === '1' && 'the sanitized build: evaluation on the full splits (tools/CMakeLists.txt)',
};
describe('perflab olympics check', () => {
  const dir = scratchDir('olympics-check');
  const entryFile = path.join(dir, 'entry.json');
  writeFileSync(entryFile, JSON.stringify(entry('entry-1')));
  let check;

  test('one entry: rebuilt, evaluated, its latency from the samples, every event judged', fullSplits, () => {
    const r = perflab('olympics', 'check', entryFile, '--baseline', baseline, '--json');
    assert.equal(r.status, 0, r.stderr);
    check = JSON.parse(r.stdout);
    assert.equal(check.valid, true, check.error);
    assert.equal(check.entry, 'entry-1');
    assert.equal(check.lineage_text, 'prune 50%, int8 (minmax, 200 images)');
    assert.deepEqual(check.pipeline[1], { ...PIPELINE[1], train_images: 200 });
    assert.equal(check.images, 10000);
    assert.equal(check.accuracy, check.correct / 10000);
    assert.equal(check.baseline.checksum, checksumOf(baseline));
    assert.equal(check.bytes_ratio, check.parameter_bytes / check.baseline.parameter_bytes);
    assert.ok(check.parameter_bytes < check.baseline.parameter_bytes / 4, String(check.parameter_bytes));
    assert.equal(check.latency.self_reported, true);
    assert.equal(check.latency.rounds, 12);
    assert.ok(check.latency.interval[0] <= check.latency.ratio && check.latency.ratio <= check.latency.interval[1]);
    assert.deepEqual(check.events.map((e) => [e.event, e.entered]), [
      ['latency-sprint', true], ['memory-challenge', true], ['accuracy-contest', false], ['all-around', false], ['extreme-push', false],
    ]);
    for (const e of check.events) assert.equal(e.qualified, e.refusals.length === 0, e.event);
    assert.deepEqual(check.flags, []);
  });

  test('the rebuild is what prune, quantize and evaluate make of the baseline', fullSplits, () => {
    const pruned = path.join(dir, 'pruned.plm');
    const int8 = path.join(dir, 'int8.plm');
    assert.equal(perflab('prune', baseline, '--sparsity', '0.5', '--structured', '--out', pruned).status, 0);
    assert.equal(perflab('quantize', pruned, '--int8', '--calibrate', '200', '--out', int8).status, 0);
    const e = JSON.parse(perflab('evaluate', int8, '--json').stdout);
    assert.equal(check.accuracy, e.accuracy);
    assert.equal(check.parameter_bytes, e.parameter_bytes);
    const base = JSON.parse(perflab('evaluate', baseline, '--json').stdout);
    assert.equal(check.baseline.accuracy, base.accuracy);
  });

  test('a submission: each entry checked, a raised claim flagged, a bad step refused; text too', fullSplits, () => {
    const raised = { ...entry('entry-2'), claimed: { accuracy: Math.min(1, check.accuracy + 0.05), parameter_bytes: check.parameter_bytes } };
    const bad = entry('entry-3', [PIPELINE[0], { ...PIPELINE[1], calibration: 'mean' }]);
    const file = path.join(dir, 'submission.json');
    writeFileSync(file, JSON.stringify({ format: 'perflab-submission', version: 2, exported_at: '2026-12-02T08:00:00.000Z', exercises: {}, olympics: { entries: [raised, bad] } }));
    const r = perflab('olympics', 'check', file, '--baseline', baseline, '--json');
    assert.equal(r.status, 0, r.stderr);
    const [a, b] = JSON.parse(r.stdout).entries;
    assert.equal(a.valid, true);
    assert.equal(a.accuracy, check.accuracy);
    assert.deepEqual(a.flags.map((f) => f.code), ['olympics-claim-differs']);
    assert.match(a.flags[0].reason, /^claimed accuracy .* rebuilt /);
    assert.equal(b.valid, false);
    assert.equal(b.error, 'entry.pipeline[1].calibration is "mean"; allowed: minmax, percentile');
    assert.deepEqual(b.events, []);
    const text = perflab('olympics', 'check', file, '--baseline', baseline);
    assert.equal(text.status, 0, text.stderr);
    assert.match(text.stdout, /^entry entry-2 \(generated entry-2\)$/m);
    assert.match(text.stdout, /^ {2}flag olympics-claim-differs: claimed accuracy/m);
    assert.match(text.stdout, /^ {2}refused: entry\.pipeline\[1\]\.calibration is "mean"; allowed: minmax, percentile$/m);
  });

  test('an unreadable file or a missing argument exits 2 with the reason', () => {
    const missing = perflab('olympics', 'check', path.join(dir, 'none.json'), '--baseline', baseline);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /cannot read entry file/);
    const none = perflab('olympics', 'check');
    assert.equal(none.status, 2);
    assert.match(none.stderr, /olympics check needs ENTRY\.json/);
  });
});
