// The `lab` the grading module takes (regrade.js, class.js, tools/grade.mjs): core's exercise
// calls as async functions with the arguments lab/api.js declares, in its order, built once
// here over whatever runs them: the page's lab worker (workerGradingLab) or the wasm module
// itself in Node (moduleGradingLab, which tools/grading/node-lab.mjs loads). Both pass the
// declared arguments positionally, missing ones undefined, as the worker's handlers do.
// The same adapter gives the Olympics leaderboard (olympics.js) its calls from the training
// module (OLYMPICS_CALLS). Not for: running students' code (the deps' runCode) or deciding a
// grade (core).

import { API, CALL } from '../lab/api.js';
import { labOf } from '../lab/client.js';

/** The declared calls the grading module and the command line's course check make. */
export const GRADING_CALLS = Object.freeze(['exerciseBank', 'exerciseBankVersion', 'exerciseVariant', 'choiceVariant', 'gradeExercise', 'courseSeed', 'courseFromJson', 'courseAssignments', 'assignmentScores', 'jsonTextProblem', 'evidenceForensics']);

/**
 * The training module's calls the Olympics leaderboard makes (olympics.js): the baseline and the
 * data sets held by id, core's checker over them, and the leaderboard's ranking and files.
 */
export const OLYMPICS_CALLS = Object.freeze(['loadModelFile', 'loadFashionMnist', 'olympicsCheckerOpen', 'olympicsCheck', 'olympicsLeaderboard', 'olympicsLeaderboardCsv', 'olympicsLeaderboardMarkdown']);

/**
 * One async function per name of `calls` (default GRADING_CALLS) taking the declared arguments;
 * each calls `invoke(name, args)` with exactly the declared number of them (missing ones undefined).
 * @param {(name: string, args: unknown[]) => unknown} invoke
 * @param {readonly string[]} [calls]
 */
export function gradingLab(invoke, calls = GRADING_CALLS) {
  if (typeof invoke !== 'function') throw new TypeError(`gradingLab: invoke must be a function (name, args) => result, got ${typeof invoke}`);
  const lab = {};
  for (const name of calls) {
    const entry = API[name];
    if (entry?.type !== CALL) throw new Error(`lab/api.js no longer declares ${name} as a call; the grading module needs it`);
    const { args } = entry;
    lab[name] = async (...given) => {
      if (given.length > args.length) {
        throw new TypeError(`${name}(${args.join(', ')}) takes ${args.length} argument${args.length === 1 ? '' : 's'}, got ${given.length}`);
      }
      return invoke(name, args.map((_, i) => given[i]));
    };
  }
  return Object.freeze(lab);
}

/**
 * The grading lab over the page's lab worker; `where` names the caller in errors and progress,
 * `calls` as gradingLab's.
 */
export function workerGradingLab(bridge, { where, calls = GRADING_CALLS } = {}) {
  const lab = labOf(bridge);
  return gradingLab((name, args) => lab[name](...args, { where: where ?? name }), calls);
}

/**
 * The grading lab over a loaded wasm module (Node). Throws an Error naming the calls the
 * module lacks (a build older than the grading module).
 */
export function moduleGradingLab(module, { from = 'the wasm build', calls = GRADING_CALLS } = {}) {
  const missing = calls.filter((name) => typeof module?.[name] !== 'function');
  if (missing.length) throw new Error(`${from} lacks ${missing.join(', ')}: rebuild it (tools/lab build)`);
  return gradingLab((name, args) => module[name](...args), calls);
}
