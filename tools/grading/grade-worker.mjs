// One thread of the command line's grading pool (grade-pool.mjs): its own instance of core's
// grading module (node-lab.mjs) re-grades the submissions the main thread sends, with the
// grading module's regradeSubmission, exactly as the main thread would; a student's code is
// run by the main thread's code runner, asked through messages, so timed tests still run
// alone on the machine. Not for: reading files or class-level checks (web/src/grading/class.js
// in the main thread).
import { parentPort, workerData } from 'node:worker_threads';

import { regradeSubmission } from '../../web/src/grading/regrade.js';
import { loadNodeLab } from './node-lab.mjs';

const { lab } = await loadNodeLab({ wasmDir: workerData.wasmDir });
const pendingRuns = new Map(); // run id -> {resolve, reject}
let nextRun = 1;

function runCode(job) {
  return new Promise((resolve, reject) => {
    const id = nextRun++;
    pendingRuns.set(id, { resolve, reject });
    parentPort.postMessage({ type: 'run-code', id, job });
  });
}

parentPort.on('message', async (message) => {
  if (message.type === 'run-code-done') {
    const run = pendingRuns.get(message.id);
    pendingRuns.delete(message.id);
    if (message.error !== undefined) run.reject(new Error(message.error));
    else run.resolve(message.results);
    return;
  }
  if (message.type !== 'regrade') return;
  try {
    const result = await regradeSubmission(message.submission, { ...message.deps, lab, runCode });
    parentPort.postMessage({ type: 'regraded', id: message.id, result });
  } catch (e) {
    parentPort.postMessage({ type: 'regraded', id: message.id, error: e?.message ?? String(e) });
  }
});
parentPort.postMessage({ type: 'ready' });
