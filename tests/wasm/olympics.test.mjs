// The Olympics bindings of the training module (wasm/bind_olympics.cpp), in both Node builds, on
// a tiny subset of the real Fashion-MNIST files: the events, an entry's standing from its
// figures, the latency ratio from a forward A/B's raw samples (median b / median a, as the
// samples say), a held model's pipeline and a model file's checksum, the checker opened on a
// held base and two held splits checking a made model's entry as the session made it (its
// accuracy and bytes), and the leaderboard with its CSV and Markdown. Each refusal is an Error
// with core's sentence, after which the module still answers. Timings are never asserted.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';

import { BUILDS, fashionMnistFiles, loadPerflabTrain, messageOf } from './perflab_module.mjs';

const data = fashionMnistFiles();
const modules = await Promise.all(BUILDS.map(loadPerflabTrain));

const BASE = {
  name: 'olympics_mlp', input: [16, 784],
  layers: [{ type: 'Linear', in: 784, out: 32 }, { type: 'ReLU' }, { type: 'Linear', in: 32, out: 10 }],
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

for (const [b, Module] of BUILDS.map((b, i) => [b, modules[i]])) {
  describe(`the Olympics bindings (${b.flavour} build)`, () => {
    let train;
    let test;
    let base;
    let pruned;
    before(() => {
      train = Module.loadFashionMnist(data.trainImages, data.trainLabels, 'train', 200).dataset;
      test = Module.loadFashionMnist(data.testImages, data.testLabels, 'test', 100).dataset;
      const trained = Module.createModel(BASE).model;
      const plan = Module.startTraining(trained, train, { epochs: 1, batch: 16, validation_samples: 20 });
      Module.trainSteps(trained, plan.steps_total);
      // The base as the page holds the pretrained baseline: loaded from its file's bytes.
      base = Module.loadModelFile(Module.modelFileBytes(trained)).model;
      Module.dropModel(trained);
      pruned = Module.pruneStructured(base, 0.5).model;
    });
    after(() => {
      for (const id of [pruned, base]) Module.dropModel(id);
      Module.dropDataset(train);
      Module.dropDataset(test);
    });

    it('lists the events and judges figures against each, refusing figures out of range', () => {
      const events = Module.olympicsEvents();
      assert.deepEqual(events.events.map((e) => e.id), ['latency-sprint', 'memory-challenge', 'accuracy-contest', 'all-around', 'extreme-push']);
      assert.equal(events.batch, 1);
      const figures = { accuracy: 0.9, parameter_bytes: 1000, baseline_accuracy: 0.9, baseline_parameter_bytes: 1000, latency_ratio: 1, latency_ratio_low: 0.95, latency_ratio_high: 1.05 };
      const judged = Module.olympicsJudge(figures);
      assert.deepEqual(judged.map((j) => [j.event, j.qualified]), [
        ['latency-sprint', true], ['memory-challenge', false], ['accuracy-contest', true], ['all-around', true], ['extreme-push', false],
      ]);
      assert.match(judged[1].refusals[0], /^memory-challenge needs parameter bytes at most 0\.50× the baseline's/);
      assert.deepEqual(judged[0].score_interval, [0.95, 1.05]);
      const { latency_ratio: _, ...missing } = figures;
      assert.equal(messageOf(() => Module.olympicsJudge(missing)), 'figures.latency_ratio is missing');
      assert.equal(messageOf(() => Module.olympicsJudge({ ...figures, accuracy: 2 })), 'figures.accuracy must be 0 to 1, got 2');
      assert.equal(Module.olympicsEvents().events.length, 5, 'the module still answers');
    });

    it('reads the latency ratio off a forward A/B of the base and a made model', () => {
      const ab = Module.forwardAB(base, pruned, 1, { rounds: 10, warmup: 0, min_sample_ms: 0.1 });
      const timing = { batch: ab.batch, mode: ab.mode, a_ms: ab.a_ms, b_ms: ab.b_ms, a_first: ab.a_first };
      const l = Module.olympicsLatency(timing);
      assert.ok(Math.abs(l.ratio - median(ab.b_ms) / median(ab.a_ms)) < 1e-12 * l.ratio, `${l.ratio}`);
      assert.ok(l.interval[0] <= l.ratio && l.ratio <= l.interval[1], JSON.stringify(l.interval));
      assert.equal(l.rounds, 10);
      assert.equal(l.self_reported, true);
      assert.equal(messageOf(() => Module.olympicsLatency({ ...timing, batch: 4 })), 'timing.batch is 4; an Olympics latency is timed at batch 1');
      assert.equal(messageOf(() => Module.olympicsLatency({ ...timing, a_first: timing.a_first.slice(1) })),
        'timing holds 10 a_ms, 10 b_ms and 9 a_first: one of each per round is needed');
      assert.equal(Module.olympicsLatency(timing).ratio, l.ratio, 'the module still answers, the same');
    });

    it('gives a held model’s pipeline and a model file’s checksum', () => {
      const p = Module.olympicsPipelineOf(pruned);
      assert.deepEqual(p.pipeline, [{ transform: 'prune', method: 'structured', fraction: 0.5, finetune_epochs: 0, train_images: 0 }]);
      assert.equal(p.lineage_text, 'prune 50%');
      assert.deepEqual(Module.olympicsPipelineOf(base).pipeline, []);
      assert.match(messageOf(() => Module.olympicsPipelineOf(999)), /999/);
      const { checksum } = Module.modelFileChecksum(Module.modelFileBytes(base));
      assert.match(checksum, /^[0-9a-f]{16}$/);
      assert.notEqual(Module.modelFileChecksum(Module.modelFileBytes(pruned)).checksum, checksum);
      assert.match(messageOf(() => Module.modelFileChecksum(new Uint8Array(3))), /model file/);
    });

    it('checks an entry with the checker opened on held models and splits, and ranks it', () => {
      // No checker yet in this module: a sentence, not a crash.
      assert.match(messageOf(() => Module.olympicsCheck({}, undefined, undefined)), /^no Olympics checker is open/);
      assert.match(messageOf(() => Module.olympicsCheckerOpen(base, test, test)), /train/);
      const baseline = Module.olympicsCheckerOpen(base, train, test);
      const { checksum } = Module.modelFileChecksum(Module.modelFileBytes(base));
      assert.equal(baseline.checksum, checksum);
      assert.equal(baseline.accuracy, Module.evaluateModel(base, test, 0).accuracy);

      const ab = Module.forwardAB(base, pruned, 1, { rounds: 10, warmup: 0, min_sample_ms: 0.1 });
      const entry = {
        id: 'entry-1', name: 'prune 50%', events: ['latency-sprint', 'all-around'],
        base: { model: BASE.name, checksum },
        pipeline: Module.olympicsPipelineOf(pruned).pipeline,
        claimed: { accuracy: Module.evaluateModel(pruned, test, 0).accuracy, parameter_bytes: Module.modelInfo(pruned).parameter_bytes },
        timing: { batch: 1, mode: ab.mode, a_ms: ab.a_ms, b_ms: ab.b_ms, a_first: ab.a_first },
        finished_at: '2026-12-02T07:00:00.000Z',
      };
      const check = Module.olympicsCheck(entry, undefined, undefined);
      assert.equal(check.valid, true, check.error);
      assert.equal(check.accuracy, entry.claimed.accuracy);
      assert.equal(check.parameter_bytes, entry.claimed.parameter_bytes);
      assert.equal(check.events.length, 5);
      assert.deepEqual(check.flags.filter((f) => f.code === 'olympics-claim-differs'), []);
      assert.equal(messageOf(() => Module.olympicsCheck(3, undefined, undefined)), 'entry must be an object, got 3');
      const bad = Module.olympicsCheck({ ...entry, id: 'entry-2', base: { ...entry.base, checksum: '0000000000000000' } }, '2026-12-02T08:00:00.000Z', null);
      assert.equal(bad.valid, false);
      assert.match(bad.error, /another model/);

      const board = Module.olympicsLeaderboard([{ student: 'ana', check }, { student: 'bo', check: bad }]);
      assert.deepEqual(board.refused.filter((r) => r.student === 'bo').map((r) => [r.entry, r.event, r.reasons]), [['entry-2', null, [bad.error]]]);
      assert.equal(board.pareto.length, 1);
      assert.equal(board.pareto[0].on_front, true);
      const csv = Module.olympicsLeaderboardCsv(board);
      assert.match(csv, /^event,rank,tied,student,entry,name,lineage,/);
      assert.match(Module.olympicsLeaderboardMarkdown(board), /^# Olympics leaderboard/);
      assert.equal(messageOf(() => Module.olympicsLeaderboard(3)), 'rows must be an array of {student, check}, got 3');
      assert.equal(messageOf(() => Module.olympicsLeaderboardCsv({ events: 3 })), 'board.events must be an array, got 3');
      assert.equal(Module.olympicsCheck(entry, undefined, undefined).accuracy, check.accuracy, 'the module still answers');
    });
  });
}
