// Re-grading on every core for the command line: core's grading of one file (each answer
// graded by the grading module, a code variant drawn, the forensic checks) takes about 110 ms
// of one thread, so a class of 500 spent most of a minute on the main thread while the code
// workers waited. The pool keeps `threads` worker threads (grade-worker.mjs), each with its own
// grading module, and hands each submission to the least busy one; they run students' code
// through the one code runner given (code-runner.mjs), so a timed test still runs alone.
// regradeSubmission's results are plain data, the same from a worker as from the main thread.
// Not for: the page (its instructor view re-grades in its lab worker).
import { Worker } from 'node:worker_threads';

import { defaultWasmDir } from './node-lab.mjs';

const WORKER_URL = new URL('./grade-worker.mjs', import.meta.url);

/**
 * @param {{threads: number, runCode: Function, wasmDir?: string}} options
 * @returns {{regrade: Function, close: Function}} regrade(submission, deps) as
 *   regradeSubmission's (deps' course, hiddenKey and choiceTexts are sent; lab and runCode are
 *   the worker's and the pool's), for gradeClass's deps.regrade
 */
export function createGradingPool({ threads, runCode, wasmDir = defaultWasmDir() }) {
  const workers = [];
  const jobs = new Map(); // job id -> {resolve, reject, worker}
  let nextJob = 1;
  let failure = null;

  const fail = (worker, error) => {
    failure = failure ?? error;
    for (const [id, job] of jobs) {
      if (job.worker === worker.thread) {
        jobs.delete(id);
        job.reject(error);
      }
    }
  };
  for (let i = 0; i < Math.max(1, threads); i++) {
    const entry = { thread: new Worker(WORKER_URL, { workerData: { wasmDir } }), busy: 0 };
    entry.ready = new Promise((resolve, reject) => {
      entry.thread.on('message', async (message) => {
        if (message.type === 'ready') resolve();
        else if (message.type === 'regraded') {
          const job = jobs.get(message.id);
          jobs.delete(message.id);
          entry.busy -= 1;
          if (message.error !== undefined) job?.reject(new Error(message.error));
          else job?.resolve(message.result);
        } else if (message.type === 'run-code') {
          try {
            const results = await runCode(message.job);
            entry.thread.postMessage({ type: 'run-code-done', id: message.id, results });
          } catch (e) {
            entry.thread.postMessage({ type: 'run-code-done', id: message.id, error: e?.message ?? String(e) });
          }
        }
      });
      entry.thread.on('error', (e) => {
        reject(e);
        fail(entry, new Error(`a grading thread failed: ${e?.message ?? e}`));
      });
      entry.thread.on('exit', (code) => {
        if (code !== 0) fail(entry, new Error(`a grading thread stopped with status ${code}`));
      });
    });
    workers.push(entry);
  }

  async function regrade(submission, { course = null, hiddenKey, choiceTexts } = {}) {
    if (failure) throw failure;
    const entry = workers.reduce((best, w) => (w.busy < best.busy ? w : best));
    entry.busy += 1;
    await entry.ready;
    const id = nextJob++;
    return new Promise((resolve, reject) => {
      jobs.set(id, { resolve, reject, worker: entry.thread });
      entry.thread.postMessage({ type: 'regrade', id, submission, deps: { course, hiddenKey, choiceTexts } });
    });
  }

  async function close() {
    await Promise.all(workers.map((w) => w.thread.terminate()));
  }
  return { regrade, close };
}
