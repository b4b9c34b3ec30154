// `perflab olympics ...` end to end. The events: --json is core's list (five events, each with
// its direction and constraints, the batch and the fewest rounds), the text table prints one
// line per event with the same constraint sentences, and bad usage exits 2 with the reason.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { perflab } from './cli.mjs';

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
