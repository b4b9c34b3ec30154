// Protects the engine's decisions for experiment-backed exercises: the note names the
// experiment and links to its heading, Submit is ready only once a run with rows exists, and
// the answer sent to core carries that run's rows while the saved answer keeps its old shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerWithEvidence, evidenceState } from '../../web/src/exercises/logic.js';

const evidence = { experiment: 'profiling-batch-size', title: 'the batch-size experiment', what: 'samples_per_s' };
const run = { id: 'profiling-batch-size', rows: [{ batch_size: 1, samples_per_s: 10 }, { batch_size: 32, samples_per_s: 40 }] };

test('without a run the note says Submit waits for one', () => {
  const state = evidenceState(evidence, null);
  assert.deepEqual(state, {
    ready: false,
    title: 'the batch-size experiment',
    anchor: 'profiling-batch-size-title',
    status: 'Submit unlocks once it has finished a run on this page.',
  });
  assert.equal(evidenceState(evidence, { rows: [] }).ready, false);
});

test('with a run the note counts its rows and prefers the title shown on the page', () => {
  const state = evidenceState(evidence, run, 'Experiment: batch-size effects');
  assert.equal(state.ready, true);
  assert.equal(state.title, 'batch-size effects');
  assert.equal(state.status, 'Graded against your run (2 rows). Running it again replaces it.');
  assert.match(evidenceState(evidence, { rows: [{}] }).status, /\(1 row\)/);
});

test('the answer sent to core carries the rows; other exercises get their answer unchanged', () => {
  const answer = { value: 4 };
  const sent = answerWithEvidence(answer, evidence, run);
  assert.deepEqual(sent, { value: 4, evidence: { experiment: 'profiling-batch-size', rows: run.rows } });
  assert.deepEqual(answer, { value: 4 }); // the saved answer is untouched
  // A published run carries the time it finished, which the answer keeps for the re-grade's chronology.
  const timed = answerWithEvidence(answer, evidence, { ...run, finished_at_ms: Date.UTC(2026, 10, 20, 10, 5) });
  assert.equal(timed.evidence.finished_at, '2026-11-20T10:05:00.000Z');
  assert.equal(answerWithEvidence(answer, null, run), answer);
  assert.deepEqual(answerWithEvidence({ choice: 1 }, evidence, null), { choice: 1, evidence: { experiment: 'profiling-batch-size', rows: [] } });
});
