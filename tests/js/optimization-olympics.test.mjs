// Protects the pure half of the Olympics section (web/src/chapters/optimization/olympics-data.js):
// an entry's id is one above the highest kept, a full list refuses a new entry with core's limit
// in the sentence, the timing keeps exactly the forward A/B's fields core reads (and refuses an
// answer missing one), an entry carries the made model's claimed figures and core's pipeline,
// and the standing's rows follow core's events and judgements (a judgement missing is an error,
// not a blank row), with scores written in their event's metric.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  TIMING_FIELDS,
  entryOf,
  figuresOf,
  keptRows,
  nextEntryId,
  scoreText,
  standingRows,
  standingSentence,
  timingOf,
  withEntry,
  withoutEntry,
} from '../../web/src/chapters/optimization/olympics-data.js';

const events = {
  events: [
    { id: 'latency-sprint', name: 'Latency sprint', metric: 'latency_ratio', constraints: [] },
    { id: 'memory-challenge', name: 'Memory challenge', metric: 'parameter_bytes', constraints: [] },
    { id: 'accuracy-contest', name: 'Accuracy contest', metric: 'accuracy', constraints: [] },
  ],
};
const judged = [
  { event: 'latency-sprint', qualified: true, refusals: [], score: 0.41, score_interval: [0.39, 0.43] },
  { event: 'memory-challenge', qualified: false, refusals: ['too big', 'too slow'], score: 535632, score_interval: [535632, 535632] },
  { event: 'accuracy-contest', qualified: true, refusals: [], score: 0.8712, score_interval: [0.8712, 0.8712] },
];

test('entry ids count up from the highest kept; a full list is refused with core’s limit', () => {
  assert.equal(nextEntryId([]), 'entry-1');
  assert.equal(nextEntryId([{ id: 'entry-2' }, { id: 'entry-10' }, { id: 'mine' }]), 'entry-11');
  const two = [{ id: 'entry-1' }, { id: 'entry-2' }];
  assert.deepEqual(withEntry(two, { id: 'entry-3' }, 3).map((e) => e.id), ['entry-1', 'entry-2', 'entry-3']);
  assert.throws(() => withEntry(two, { id: 'entry-3' }, 2), /You keep 2 entries and a submission holds at most 2 \(core’s limit\)/);
  assert.deepEqual(withoutEntry(two, 'entry-1'), [{ id: 'entry-2' }]);
});

test('the timing keeps the A/B’s raw samples and facts, nothing else', () => {
  const ab = { batch: 1, mode: 'interleaved', a_ms: [1, 2], b_ms: [0.5, 0.6], a_first: [true, false], inner_iterations_a: 8, inner_iterations_b: 16, resolution_ms: 0.1, comparison: {}, model_a: 3 };
  const timing = timingOf(ab);
  assert.deepEqual(Object.keys(timing), TIMING_FIELDS);
  assert.deepEqual(timing.b_ms, [0.5, 0.6]);
  const { a_first: _drop, ...partial } = ab;
  assert.throws(() => timingOf(partial), /no a_first/);
});

test('an entry carries the model’s measured figures and core’s answers; the figures pair them with the baseline’s', () => {
  const model = { name: 'int8, min/max calibration', evaluation: { accuracy: 0.88 }, info: { parameter_bytes: 140000 } };
  const e = entryOf({ id: 'entry-1', model, events: ['latency-sprint'], base: { model: 'fashion_mlp', checksum: '0123456789abcdef' }, pipeline: [{ transform: 'quantize' }], timing: { batch: 1 }, finishedAt: '2026-12-02T07:00:00.000Z' });
  assert.deepEqual(Object.keys(e), ['id', 'name', 'events', 'base', 'pipeline', 'claimed', 'timing', 'finished_at']);
  assert.deepEqual(e.claimed, { accuracy: 0.88, parameter_bytes: 140000 });
  const baseline = { evaluation: { accuracy: 0.9 }, info: { parameter_bytes: 535632 } };
  assert.deepEqual(figuresOf(e.claimed, baseline, { ratio: 0.5, interval: [0.45, 0.56] }), {
    accuracy: 0.88,
    parameter_bytes: 140000,
    baseline_accuracy: 0.9,
    baseline_parameter_bytes: 535632,
    latency_ratio: 0.5,
    latency_ratio_low: 0.45,
    latency_ratio_high: 0.56,
  });
});

test('the standing follows core’s events and verdicts, scores in each event’s metric', () => {
  const rows = standingRows(events, judged, ['latency-sprint', 'memory-challenge']);
  assert.deepEqual(
    rows.map((r) => [r.name, r.entered, r.score, r.verdict]),
    [
      ['Latency sprint', true, '0.410× (0.390×–0.430×)', 'qualifies'],
      ['Memory challenge', true, '535,632 bytes', 'refused: too big; too slow'],
      ['Accuracy contest', false, '87.12%', 'qualifies'],
    ],
  );
  assert.equal(standingSentence(rows), 'This entry qualifies for Latency sprint and is refused from Memory challenge (the sentence in its row says why). It would also qualify for Accuracy contest, which it did not enter.');
  assert.throws(() => standingRows(events, judged.slice(1), []), /core judged no latency-sprint/);
  assert.equal(scoreText('all_around', 1.234, [1.1, 1.3]), '1.23 (1.10–1.30)');
});

test('a kept entry shows core’s latency, or its error, and a standing only with the baseline’s figures', () => {
  const entries = [
    { id: 'entry-1', name: 'a', events: ['latency-sprint'], claimed: { accuracy: 0.9, parameter_bytes: 10 } },
    { id: 'entry-2', name: 'b', events: ['latency-sprint'], claimed: { accuracy: 0.9, parameter_bytes: 10 } },
  ];
  const latencies = new Map([['entry-1', { ratio: 0.8, interval: [0.7, 0.9] }], ['entry-2', { error: 'timing.a_ms is missing' }]]);
  const standings = new Map([['entry-1', standingRows(events, judged, ['latency-sprint'])]]);
  const rows = keptRows(entries, latencies, standings);
  assert.equal(rows[0].latency, '0.800× (0.700×–0.900×)');
  assert.equal(rows[0].standing, 'Latency sprint: qualifies');
  assert.equal(rows[1].latency, 'timing.a_ms is missing');
  assert.match(rows[1].standing, /^the baseline’s figures are needed/);
});
