// Runs students' code for the command-line grader: a pool of worker threads
// (code-worker.mjs), one job per worker at a time, each job with a hard timeout. The worker
// stops an endless loop itself at the exercise's time limit; if it has not answered by the
// limit plus a margin (a loop that vm's timeout cannot interrupt, a blocked Atomics.wait),
// it is terminated and replaced, so a student's code costs its time limit and no more.
// Tests that finished before a timeout keep their results; the others read {timeout: true},
// as in the page's sandbox (web/src/lab/sandbox.js). A job with a timed test (core's
// `benchmark`: the student's function against the naive one) runs alone, with every other
// worker idle, so the grader's own load does not decide the speed-up it measures.
// Not for: grading (core does, through the grading module) or the page (it uses sandbox.js).
import os from 'node:os';
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./code-worker.mjs', import.meta.url);
/** Added to the exercise's time limit before the worker is terminated. */
export const HARD_TIMEOUT_MARGIN_MS = 1000;
// A student's code gets this much heap per worker; more ends the job with an error.
const HEAP_LIMIT_MB = 512;

/**
 * @param {{workers?: number, marginMs?: number}} [options] workers defaults to the number of
 *        cores the machine reports
 * @returns {{runCode: Function, close: Function, stats: object}} runCode({code, functionName,
 *          tests, timeLimitMs}) resolves the results array core's grader takes
 */
export function createCodeRunner({ workers = os.availableParallelism?.() ?? os.cpus().length, marginMs = HARD_TIMEOUT_MARGIN_MS } = {}) {
  const size = Math.max(1, workers);
  const queue = [];
  const slots = [];
  const stats = { jobs: 0, hard_timeouts: 0, restarts: 0, most_at_once: 0, timed_alone: 0 };
  let nextId = 1;
  let closed = false;

  function spawn(slot) {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: HEAP_LIMIT_MB } });
    slot.worker = worker;
    slot.ready = false;
    slot.job = null;
    worker.unref();
    worker.on('message', (msg) => onMessage(slot, worker, msg));
    worker.on('error', (e) => onExit(slot, worker, `the code's worker stopped: ${e?.message ?? e}`));
    worker.on('exit', (code) => onExit(slot, worker, `the code's worker exited (status ${code})`));
  }

  function settle(slot, extra) {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    slot.job = null;
    job.resolve(job.results.map((r) => r ?? extra));
  }

  function onMessage(slot, worker, msg) {
    if (slot.worker !== worker) return;
    if (msg?.type === 'ready') {
      slot.ready = true;
      pump();
      return;
    }
    const job = slot.job;
    if (!job || msg?.id !== job.id) return;
    if (msg.type === 'result' && Number.isInteger(msg.index) && msg.index >= 0 && msg.index < job.results.length) {
      job.results[msg.index] = msg.result;
    } else if (msg.type === 'failed') {
      job.failure = msg.message;
    } else if (msg.type === 'done') {
      settle(slot, job.failure ? { error: `the test could not run: ${job.failure}` } : { timeout: true });
      pump();
    }
  }

  function onExit(slot, worker, reason) {
    if (slot.worker !== worker) return;
    slot.worker = null;
    if (slot.job) {
      const why = slot.job.hardTimeout ? { timeout: true } : { error: reason };
      settle(slot, why);
    }
    if (!closed) {
      stats.restarts += 1;
      spawn(slot);
    }
  }

  function pump() {
    for (const slot of slots) {
      if (!queue.length) return;
      if (!slot.worker || !slot.ready || slot.job) continue;
      const running = slots.filter((s) => s.job);
      if (running.some((s) => s.job.exclusive)) return;
      if (queue[0].exclusive && running.length) return;
      const job = queue.shift();
      slot.job = job;
      stats.jobs += 1;
      stats.most_at_once = Math.max(stats.most_at_once, running.length + 1);
      if (job.exclusive) stats.timed_alone += 1;
      const worker = slot.worker;
      job.timer = setTimeout(() => {
        // The worker did not come back from the job: end it, keep what it reported.
        job.hardTimeout = true;
        stats.hard_timeouts += 1;
        worker.terminate();
      }, job.timeLimitMs + marginMs);
      worker.postMessage({ id: job.id, code: job.code, functionName: job.functionName, tests: job.tests, timeLimitMs: job.timeLimitMs });
    }
  }

  for (let i = 0; i < size; i++) {
    const slot = {};
    slots.push(slot);
    spawn(slot);
  }

  return {
    stats,
    runCode({ code, functionName, tests, timeLimitMs }) {
      if (closed) return Promise.reject(new Error('the code runner is closed'));
      const list = Array.isArray(tests) ? tests : [];
      const limit = Number.isFinite(timeLimitMs) && timeLimitMs > 0 ? timeLimitMs : 2000;
      return new Promise((resolve) => {
        const exclusive = list.some((t) => t && typeof t === 'object' && t.benchmark !== undefined);
        queue.push({ id: nextId++, code, functionName, tests: list, timeLimitMs: limit, exclusive, results: new Array(list.length).fill(null), resolve, timer: null, hardTimeout: false, failure: null });
        pump();
      });
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s.worker?.terminate()));
    },
  };
}
