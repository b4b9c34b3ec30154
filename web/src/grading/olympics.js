// The Olympics leaderboard of a class: every entry of every graded file re-checked by core's
// checker (the training module's olympicsCheck: the model rebuilt from the entry's pipeline,
// its accuracy and size recomputed, its timing's latency ratio and evidence checked), then
// ranked by core (olympicsLeaderboard) and written as leaderboard.csv, .md and .json.
// Entries are grouped by lineage (base model and first step: the pruning and its fine-tuning,
// the costly part of a rebuild) and each group goes to one checker, whose cache then rebuilds
// a shared lineage once; groups are spread over the checkers given (one per thread on the
// command line, tools/grading/olympics-pool.mjs; the lab worker's one in the page).
// No DOM. Not for: judging or ranking (core), loading the data or the baseline (the caller).

import { gradingLab, moduleGradingLab, OLYMPICS_CALLS, workerGradingLab } from './lab.js';

export { OLYMPICS_CALLS };

/** The files the leaderboard writes, in this order. */
export const LEADERBOARD_FILES = Object.freeze(['leaderboard.csv', 'leaderboard.md', 'leaderboard.json']);

/** The olympics lab over a loaded training module (Node) or the page's lab worker. */
export const moduleOlympicsLab = (module, { from = 'the wasm training module' } = {}) => moduleGradingLab(module, { from, calls: OLYMPICS_CALLS });
export const workerOlympicsLab = (bridge, { where } = {}) => workerGradingLab(bridge, { where, calls: OLYMPICS_CALLS });
export const olympicsLab = (invoke) => gradingLab(invoke, OLYMPICS_CALLS);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every Olympics entry of a graded class (class.js's gradeClass result), in gradebook order:
 * only the file the gradebook keeps for each student (a student's other files are not
 * entered twice). Each item: {student, file, entry, exported_at, machine} (the file's export
 * time and machine facts, which the timing's evidence checks read).
 */
export function olympicsEntriesOf(graded) {
  const items = [];
  for (const s of graded?.students ?? []) {
    if (!s.in_gradebook) continue;
    const entries = s.submission?.olympics?.entries;
    if (!Array.isArray(entries)) continue;
    for (const entry of entries) {
      items.push({ student: s.result.student.id, file: s.file, entry, exported_at: s.submission.exported_at ?? null, machine: s.submission.machine ?? null });
    }
  }
  return items;
}

/**
 * The most training images any entry's step names (train_images), at least 1: the first
 * images of the training split a checker must hold, since every step reads the first N. A
 * malformed count is left to core, which refuses that entry.
 */
export function trainImagesOf(items) {
  let most = 1;
  for (const { entry } of items) {
    for (const step of Array.isArray(entry?.pipeline) ? entry.pipeline : []) {
      if (Number.isInteger(step?.train_images) && step.train_images > most) most = step.train_images;
    }
  }
  return most;
}

// JSON with every object's keys sorted, so equal steps written in another key order match.
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Which checker an entry goes to: its base checksum and its pipeline's first step. Only a
 * schedule: core's cache decides what is rebuilt; a malformed entry still gets a key.
 */
export function lineageKey(entry) {
  const checksum = isObject(entry) && isObject(entry.base) ? entry.base.checksum : null;
  const pipeline = isObject(entry) ? entry.pipeline : null;
  const first = Array.isArray(pipeline) ? (pipeline[0] ?? null) : pipeline;
  return canonical({ checksum: checksum ?? null, first: first ?? null });
}

/**
 * items grouped by lineageKey: [{key, indices}] (indices into items, in their order), the
 * largest group first (ties by first index), so the long rebuilds start first.
 */
export function lineageGroups(items) {
  const groups = new Map();
  items.forEach((item, i) => {
    const key = lineageKey(item.entry);
    if (!groups.has(key)) groups.set(key, { key, indices: [] });
    groups.get(key).indices.push(i);
  });
  return [...groups.values()].sort((a, b) => b.indices.length - a.indices.length || a.indices[0] - b.indices[0]);
}

/**
 * A checker over an olympics lab whose checker is open (olympicsCheckerOpen): checkGroup(items,
 * signal) checks each {entry, exported_at, machine} in turn and resolves [{check} | {error}] in
 * that order (an error: the call itself failed; core refuses a malformed entry with valid:
 * false); a fired signal stops before the next entry and rejects.
 */
export function labChecker(lab) {
  return {
    async checkGroup(items, signal) {
      const out = [];
      for (const { entry, exported_at, machine } of items) {
        if (signal?.aborted) throw new Error('the leaderboard was cancelled');
        try {
          out.push({ check: await lab.olympicsCheck(entry, exported_at ?? null, machine ?? null) });
        } catch (e) {
          out.push({ error: e?.message ?? String(e) });
        }
      }
      return out;
    },
  };
}

/**
 * Opens core's checker in a training lab on the baseline's model file bytes and the two
 * Fashion-MNIST splits' inflated IDX bytes ({trainImages, trainLabels, testImages,
 * testLabels}), holding the first `trainImages` training images (trainImagesOf; 0: all); resolves labChecker(lab) with `baseline`, the base's figures core gives
 * ({accuracy, correct, images, parameter_bytes, checksum}).
 */
export async function openChecker(lab, { baseline, data, trainImages = 0 }) {
  const model = (await lab.loadModelFile(baseline)).model;
  const train = (await lab.loadFashionMnist(data.trainImages, data.trainLabels, 'train', trainImages)).dataset;
  const test = (await lab.loadFashionMnist(data.testImages, data.testLabels, 'test', 0)).dataset;
  return { ...labChecker(lab), baseline: await lab.olympicsCheckerOpen(model, train, test) };
}

/**
 * Re-checks every item ({student, file, entry, exported_at, machine}) on the checkers ({checkGroup}),
 * each checker taking the next lineage group when it is free. Resolves {rows, problems,
 * pipelines}: rows [{student, file, entry, check}] in the items' order (the entry's id);
 * problems [{student, file, entry, reason}] for entries whose check call failed; pipelines:
 * the number of distinct pipelines among the valid checks (what the checkers rebuilt).
 * onProgress({done, total}) after each group; a fired signal stops before the next entry (a
 * checker that takes it) or group, and rejects.
 */
export async function checkOlympicsEntries(items, { checkers, onProgress = () => {}, signal } = {}) {
  if (!Array.isArray(checkers) || !checkers.length) throw new TypeError('checkOlympicsEntries needs at least one checker ({checkGroup})');
  const groups = lineageGroups(items);
  const results = new Array(items.length);
  let next = 0;
  let done = 0;
  onProgress({ done, total: items.length });
  await Promise.all(
    checkers.map(async (checker) => {
      while (next < groups.length) {
        if (signal?.aborted) throw new Error('the leaderboard was cancelled');
        const group = groups[next++];
        const checked = await checker.checkGroup(group.indices.map((i) => ({ entry: items[i].entry, exported_at: items[i].exported_at ?? null, machine: items[i].machine ?? null })), signal);
        group.indices.forEach((i, k) => {
          results[i] = checked[k];
        });
        done += group.indices.length;
        onProgress({ done, total: items.length });
      }
    }),
  );
  const rows = [];
  const problems = [];
  const pipelines = new Set();
  items.forEach((item, i) => {
    const entry = isObject(item.entry) && typeof item.entry.id === 'string' ? item.entry.id : `#${i + 1}`;
    const { check, error } = results[i] ?? { error: 'not checked' };
    if (check) {
      rows.push({ student: item.student, file: item.file, entry, check });
      if (check.valid) pipelines.add(check.pipeline_key);
    } else problems.push({ student: item.student, file: item.file, entry, reason: `the entry could not be checked: ${error}` });
  });
  return { rows, problems, pipelines: pipelines.size };
}

/**
 * core's leaderboard of the checked rows and its three files: {board, files} with files keyed
 * by LEADERBOARD_FILES' names. `lab` needs olympicsLeaderboard, olympicsLeaderboardCsv and
 * olympicsLeaderboardMarkdown (an olympics lab; no checker needs to be open).
 */
export async function leaderboardFiles(rows, lab) {
  const board = await lab.olympicsLeaderboard(rows.map(({ student, check }) => ({ student, check })));
  const [csv, markdown] = [await lab.olympicsLeaderboardCsv(board), await lab.olympicsLeaderboardMarkdown(board)];
  return {
    board,
    files: { 'leaderboard.csv': csv, 'leaderboard.md': markdown, 'leaderboard.json': `${JSON.stringify(board, null, 2)}\n` },
  };
}

/**
 * The instructor view's whole re-check in one call: students [{student, file?, entries,
 * exported_at, machine?}] (each gradebook file's entries, its export time and machine facts), a lab (the page's labOf(bridge), or an olympics lab) whose
 * module holds the baseline `model` and the `train` and `test` data sets by id. Opens core's
 * checker on them, checks every entry (a fired signal stops before the next entry and
 * rejects) and ranks them: {board, files, rows, problems, pipelines, baseline}.
 */
export async function recheckOlympics(students, { lab, model, train, test, signal, onProgress } = {}) {
  const items = students.flatMap((s) => (s.entries ?? []).map((entry) => ({ student: s.student, file: s.file ?? null, entry, exported_at: s.exported_at ?? null, machine: s.machine ?? null })));
  const baseline = await lab.olympicsCheckerOpen(model, train, test);
  const checked = await checkOlympicsEntries(items, { checkers: [labChecker(lab)], onProgress, signal });
  if (signal?.aborted) throw new Error('the leaderboard was cancelled');
  const { board, files } = await leaderboardFiles(checked.rows, lab);
  return { board, files, ...checked, baseline };
}

/** One line on the leaderboard for a summary: entries, students, refusals, flagged entries. */
export function leaderboardSummary({ rows, problems, pipelines }) {
  const students = new Set(rows.map((r) => r.student)).size;
  const invalid = rows.filter((r) => !r.check.valid).length;
  const flagged = rows.filter((r) => (r.check.flags ?? []).length).length;
  return `${rows.length + problems.length} Olympics entries of ${students} students re-checked (${pipelines} distinct pipelines rebuilt), ${invalid} invalid, ${flagged} flagged${problems.length ? `, ${problems.length} could not be checked` : ''}`;
}
