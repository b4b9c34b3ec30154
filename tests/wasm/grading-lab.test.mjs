// Protects the one adapter that gives the grading module its lab (web/src/grading/lab.js),
// against the real wasm module: every call it offers is declared in lab/api.js and exported
// by both builds; over the module (the command line's re-grade) and over the worker's
// request path (the page's re-grades: named arguments checked by payloadProblem, then the
// module called with positional()) it gives core's own answers; a call with too many
// arguments, a module lacking a call, and a call api.js no longer declares are refused. The
// same adapter gives the Olympics leaderboard its calls from the training module.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { API, CALL, payloadProblem, positional } from '../../web/src/lab/api.js';
import { GRADING_CALLS, OLYMPICS_CALLS, gradingLab, moduleGradingLab, workerGradingLab } from '../../web/src/grading/lab.js';
import { BUILDS, loadPerflabGrade, loadPerflabTrain } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));

// The worker's path for a declared call (web/src/lab/worker.js's declaredHandler): the
// request checked against its declaration, then the module called with the declared order.
function workerBridge(Module) {
  const posted = [];
  return {
    posted,
    call: async (kind, payload, options) => {
      posted.push({ kind, payload, where: options.where });
      const problem = payloadProblem(kind, payload);
      if (problem) throw new Error(problem);
      return Module[kind](...positional(kind, payload));
    },
  };
}

const ID = 'profiling.linear-params';
const COURSE = { id: 'perf-101', title: 'Performance', salt: 'pepper' };

BUILDS.forEach((build, i) => {
  const Module = modules[i];
  describe(`the grading lab over the ${build.flavour} build`, () => {
    test('offers exactly the grading calls, each a declared call the module exports', () => {
      for (const name of GRADING_CALLS) {
        assert.equal(API[name]?.type, CALL, `${name} is not a declared call`);
        assert.equal(typeof Module[name], 'function', `the module has no ${name}`);
      }
      assert.deepEqual(Object.keys(moduleGradingLab(Module)), [...GRADING_CALLS]);
      assert.deepEqual(Object.keys(workerGradingLab(workerBridge(Module))), [...GRADING_CALLS]);
    });

    for (const [adapter, labOver] of [
      ['the module', (M) => moduleGradingLab(M)],
      ['the worker', (M) => workerGradingLab(workerBridge(M), { where: 'instructor' })],
    ]) {
      test(`over ${adapter}, grades as core does`, async () => {
        const lab = labOver(Module);
        assert.deepEqual(await lab.exerciseBank(), Module.exerciseBank());
        assert.equal(await lab.exerciseBankVersion(), Module.exerciseBankVersion());
        const variant = await lab.exerciseVariant(ID, 42);
        assert.deepEqual(variant, Module.exerciseVariant(ID, 42));
        const right = variant.params.in * variant.params.out + variant.params.out;
        const graded = await lab.gradeExercise(ID, 42, { value: right });
        assert.equal(graded.correct, true);
        assert.deepEqual(graded, Module.gradeExercise(ID, 42, { value: right }));
        assert.equal((await lab.gradeExercise(ID, 42, { value: right * 2 })).correct, false);
        const course = await lab.courseFromJson(COURSE);
        assert.deepEqual(await lab.courseSeed(course, 's1'), Module.courseSeed(course, 's1'));
        await assert.rejects(lab.exerciseVariant('no.such-exercise', 1), (err) => {
          assert.throws(() => Module.exerciseVariant('no.such-exercise', 1), { message: err.message });
          return true;
        });
      });

      test(`over ${adapter}, refuses more arguments than declared`, async () => {
        // One more than api.js declares (id, seed, answer, then the optional ones).
        const { args } = API.gradeExercise;
        const given = [ID, 42, { value: 1 }, ...Array(args.length - 3).fill(undefined), 'extra'];
        await assert.rejects(labOver(Module).gradeExercise(...given), {
          name: 'TypeError',
          message: `gradeExercise(${args.join(', ')}) takes ${args.length} arguments, got ${args.length + 1}`,
        });
      });
    }

    test('the worker path posts each call by its declared name and named arguments', async () => {
      const bridge = workerBridge(Module);
      const lab = workerGradingLab(bridge, { where: 'progress-import' });
      await lab.exerciseVariant(ID, 7);
      await lab.exerciseBank();
      assert.deepEqual(bridge.posted, [
        { kind: 'exerciseVariant', payload: { id: ID, seed: 7 }, where: 'progress-import' },
        { kind: 'exerciseBank', payload: {}, where: 'progress-import' },
      ]);
    });
  });
});

test('a module without a grading call is refused by name', () => {
  const { gradeExercise, courseSeed, ...rest } = Object.fromEntries(GRADING_CALLS.map((n) => [n, () => null]));
  assert.throws(() => moduleGradingLab(rest, { from: 'the wasm build in /tmp/old' }), {
    message: 'the wasm build in /tmp/old lacks gradeExercise, courseSeed: rebuild it (tools/lab build)',
  });
  assert.throws(() => gradingLab('not a function'), { name: 'TypeError', message: /invoke must be a function/ });
});

test('the Olympics calls come from the training module, and the grading module lacks them', async () => {
  const [train, grade] = [await loadPerflabTrain(BUILDS[0]), modules[0]];
  const lab = moduleGradingLab(train, { calls: OLYMPICS_CALLS });
  assert.deepEqual(Object.keys(lab), [...OLYMPICS_CALLS]);
  for (const name of OLYMPICS_CALLS) assert.equal(API[name]?.module, 'train', `${name} is not declared in the training module`);
  // An empty class: core's board of no rows, the same through the adapter as called directly.
  assert.deepEqual(await lab.olympicsLeaderboard([]), train.olympicsLeaderboard([]));
  assert.throws(() => moduleGradingLab(grade, { from: 'the grading module', calls: OLYMPICS_CALLS }), { message: /^the grading module lacks loadModelFile, loadFashionMnist, olympicsCheckerOpen, olympicsCheck,/ });
});
