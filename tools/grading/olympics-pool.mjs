// The Olympics leaderboard on every core for the command line: `threads` worker threads
// (olympics-worker.mjs), each with its own training module holding the baseline and the data
// and core's checker open on them. A rebuild (pruning, fine-tuning, quantizing, evaluating on
// the 10,000 test images) is what costs; web/src/grading/olympics.js gives each thread whole
// lineage groups, so a lineage shared by many students is rebuilt once, on one thread.
// Not for: the page (its instructor view checks in its lab worker).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { SOURCE_FILES } from '../page-data.mjs';
import { defaultWasmDir } from './node-lab.mjs';

const WORKER_URL = new URL('./olympics-worker.mjs', import.meta.url);

/** The files `data` must hold (Debian's Fashion-MNIST .gz files), as full paths. */
export const dataFiles = (data) => [SOURCE_FILES.train.images, SOURCE_FILES.train.labels, SOURCE_FILES.test.images, SOURCE_FILES.test.labels].map((f) => path.join(data, f));

/** A sentence naming what is missing for the leaderboard, or null: the baseline file and the data files. */
export function leaderboardInputsProblem({ baseline, data }) {
  if (!existsSync(baseline)) return `the baseline model file ${baseline} does not exist (build it with node tools/pretrained.mjs, or give --baseline FILE)`;
  const missing = dataFiles(data).filter((f) => !existsSync(f));
  if (missing.length) return `the Fashion-MNIST files ${missing.join(', ')} do not exist (give --data DIR: the folder of Debian's dataset-fashion-mnist .gz files)`;
  return null;
}

/**
 * @param {{threads: number, baseline: string, data: string, trainImages?: number, wasmDir?: string}} options
 *   trainImages: the first training images each thread holds (olympics.js's trainImagesOf;
 *   0, the default: the whole split)
 * @returns {Promise<{checkers, leaderboard, stats, close, baseline}>} checkers for olympics.js's
 *   checkOlympicsEntries (each a thread's checkGroup); leaderboard(rows): olympics.js's
 *   leaderboardFiles on the first thread ({board, files}); stats(): each thread's seconds
 *   opening the checker and checking; baseline: the base's figures core's checker gives
 *   ({accuracy, parameter_bytes, checksum, ...}). Rejects with the first thread's failure.
 */
export async function createOlympicsPool({ threads, baseline, data, trainImages = 0, wasmDir = defaultWasmDir() }) {
  const workers = [];
  let nextJob = 1;
  for (let i = 0; i < Math.max(1, threads); i++) {
    const thread = new Worker(WORKER_URL, { workerData: { wasmDir, baseline, data, trainImages: Math.min(trainImages, SOURCE_FILES.train.count) } });
    const entry = { thread, jobs: new Map(), open_s: 0, check_s: 0 };
    const failAll = (error) => {
      for (const job of entry.jobs.values()) job.reject(error);
      entry.jobs.clear();
    };
    entry.ready = new Promise((resolve, reject) => {
      thread.on('message', (message) => {
        if (message.type === 'ready') {
          entry.open_s = message.open_s;
          entry.baseline = message.baseline;
          resolve();
        } else if (message.type === 'failed') reject(new Error(`an Olympics thread could not open core's checker: ${message.error}`));
        else if (message.type === 'done') {
          const job = entry.jobs.get(message.id);
          entry.jobs.delete(message.id);
          if (message.error !== undefined) job?.reject(new Error(message.error));
          else job?.resolve(message.result);
        }
      });
      thread.on('error', (e) => {
        const error = new Error(`an Olympics thread failed: ${e?.message ?? e}`);
        reject(error);
        failAll(error);
      });
      thread.on('exit', (code) => {
        const error = new Error(`an Olympics thread stopped with status ${code}`);
        reject(error);
        failAll(error);
      });
    });
    workers.push(entry);
  }
  const ask = (entry, message) =>
    new Promise((resolve, reject) => {
      const id = nextJob++;
      entry.jobs.set(id, { resolve, reject });
      entry.thread.postMessage({ ...message, id });
    });
  const close = () => Promise.all(workers.map((w) => w.thread.terminate()));
  try {
    await Promise.all(workers.map((w) => w.ready));
  } catch (e) {
    await close();
    throw e;
  }
  const checkers = workers.map((entry) => ({
    async checkGroup(items) {
      const { results, seconds } = await ask(entry, { type: 'check', items });
      entry.check_s += seconds;
      return results;
    },
  }));
  // core's leaderboard and its files (olympics.js's leaderboardFiles), on the first thread.
  const leaderboard = (rows) => ask(workers[0], { type: 'leaderboard', rows: rows.map(({ student, check }) => ({ student, check })) });
  const stats = () => workers.map((w) => ({ open_s: w.open_s, check_s: w.check_s }));
  return { checkers, leaderboard, stats, close, baseline: workers[0].baseline };
}
