// The instructor view's Olympics words and chart data (web/src/instructor/olympics-data.js)
// over leaderboard rows shaped as core's olympics_leaderboard gives them: a podium says a
// shared place as a tie and the place it skips, a score carries its interval only when it has
// one, and the frontier's sentence and chart hold the entries core marked on_front.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cellText } from '../../web/src/ui/columns.js';
import { eventColumns, formatInterval, paretoChart, paretoSentence, podiumRows, podiumSentence, scoreText } from '../../web/src/instructor/olympics-data.js';

const row = (rank, tied, student, ratio, lo, hi) => ({
  rank, tied, student, entry: 'entry-1', name: 'int8', lineage_text: 'int8 (minmax, 512 images)', accuracy: 0.8712, parameter_bytes: 70000, bytes_ratio: 0.1307,
  latency_ratio: ratio, latency_interval: [lo, hi], score: ratio, score_interval: [lo, hi], flags: [],
});
const sprint = { event: 'latency-sprint', name: 'Latency sprint', metric: 'latency_ratio', direction: 'lower', rows: [row(1, true, 'ada', 0.41, 0.39, 0.43), row(1, true, 'bob', 0.42, 0.4, 0.45), row(3, false, 'cy', 1, 0.97, 1.03), row(4, false, 'dan', 1.5, 1.4, 1.6)] };

test('a podium puts tied rows on one step and says which place the tie skips', () => {
  assert.deepEqual(podiumRows(sprint).map((r) => [r.place, r.student]), [[1, 'ada'], [1, 'bob'], [3, 'cy']]);
  assert.equal(
    podiumSentence(sprint),
    'Latency sprint (4 students qualified): 1st, two tied: ada and bob (0.410× [0.390–0.430×]; 0.420× [0.400–0.450×]); no 2nd (the places above it are shared); 3rd cy (1.00× [0.970–1.03×]).',
  );
  const two = { ...sprint, rows: [row(1, false, 'ada', 0.41, 0.39, 0.43), row(2, false, 'bob', 0.6, 0.58, 0.62)] };
  assert.equal(podiumSentence(two), 'Latency sprint (2 students qualified): 1st ada (0.410× [0.390–0.430×]); 2nd bob (0.600× [0.580–0.620×]).');
  assert.equal(podiumSentence({ ...sprint, rows: [] }), 'Latency sprint: no entry qualified, so there is no podium.');
});

test('scores are written in their metric, with an interval only where it spreads', () => {
  assert.equal(scoreText('parameter_bytes', 70000, [70000, 70000]), '70,000 B');
  assert.equal(scoreText('accuracy', 0.8712, [0.8712, 0.8712]), '87.12%');
  assert.equal(scoreText('all_around', 4.1, [4, 4.25]), '4.10 [4.00–4.25]');
  assert.equal(formatInterval([0.39, 0.43]), '0.390–0.430×');
  assert.equal(formatInterval([null, 0.43]), '');
  const cells = eventColumns(sprint).map((c) => cellText(c, sprint.rows[0]));
  assert.deepEqual(cells, ['1', 'tied', 'ada', 'entry-1: int8', 'int8 (minmax, 512 images)', '87.12%', '70,000 B (0.131×)', '0.410× [0.390–0.430×]', 'none']);
  // The all-around's score is not one of the columns before it: it gets its own.
  const allAround = { ...sprint, metric: 'all_around', rows: [{ ...sprint.rows[0], score: 4.1, score_interval: [4, 4.25] }] };
  assert.equal(eventColumns(allAround).map((c) => cellText(c, allAround.rows[0])).at(-2), '4.10 [4.00–4.25]');
});

test('the frontier: the chart rings core’s on_front entries and the sentence lists them fastest first', () => {
  const pareto = [
    { student: 'cy', entry: 'entry-1', latency_ratio: 1, parameter_bytes: 535632, accuracy: 0.8985, on_front: true },
    { student: 'ada', entry: 'entry-2', latency_ratio: 0.41, parameter_bytes: 70000, accuracy: 0.8712, on_front: true },
    { student: 'ada', entry: 'entry-1', latency_ratio: 0.7, parameter_bytes: 535632, accuracy: 0.86, on_front: false },
  ];
  const { options, points } = paretoChart(pareto);
  assert.deepEqual(points.map((p) => [p.student, p.series]), [['cy', 'on the frontier'], ['ada', 'on the frontier'], ['ada', 'behind the frontier']]);
  assert.equal(options.front, 'on_front');
  assert.ok(options.xDomain[0] < 0.41 && options.xDomain[1] > 1, options.xDomain.join());
  assert.equal(
    paretoSentence(pareto),
    '2 entries of 3 valid entries on the frontier (no other entry is both faster and more accurate), from fastest to most accurate: ada’s entry-2 (0.410×, 87.12%); cy’s entry-1 (1.00×, 89.85%). Latency ratios are self-reported, measured on each student’s own machine; accuracy is the grader’s rebuild.',
  );
});

test('a cancel during a lineage group stops before the next entry, not at the end of the group', async () => {
  const { checkOlympicsEntries, labChecker } = await import('../../web/src/grading/olympics.js');
  const controller = new AbortController();
  const checked = [];
  // A lab whose check of the first entry is when the teacher presses Cancel.
  const lab = {
    async olympicsCheck(entry) {
      checked.push(entry.id);
      controller.abort();
      return { valid: true, pipeline_key: 'k' };
    },
  };
  const pipeline = [{ transform: 'prune', method: 'structured', fraction: 0.5, finetune_epochs: 0, train_images: 0 }];
  const items = ['a', 'b', 'c'].map((id) => ({ student: id, entry: { id, base: { checksum: 'x' }, pipeline } }));
  await assert.rejects(checkOlympicsEntries(items, { checkers: [labChecker(lab)], signal: controller.signal }), /cancelled/);
  assert.deepEqual(checked, ['a']);
});
