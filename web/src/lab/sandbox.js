// Main-thread side of the student-code sandbox: one fresh worker per run (in a host frame of
// its own whose policy closes the network, sandbox-host.js), a time limit
// enforced by terminate() (the only way to stop `while (true) {}`), results collected per
// test so that those finished before a timeout still count. Resolves with what core's grader
// reads as a code answer ({results: [{value} | {error} | {timeout: true}]}) plus the output.
// Replies are read only from a private MessagePort handed to the worker with the first
// message (sandbox-worker.js keeps it out of the student's reach); anything the worker posts
// on its own channel is ignored, so student code cannot forge a result.
// Not for: grading (the lab worker does that) or the lab worker's wasm (never touched here).

import { createSandboxHost } from './sandbox-host.js';

/** The Error a run rejects with when its AbortSignal fires (the student pressed Stop). */
export class SandboxStoppedError extends Error {
  constructor() {
    super('The run was stopped before it finished; nothing was graded.');
    this.name = 'SandboxStoppedError';
  }
}


/**
 * Runs `code` on `tests` in a fresh worker. The time limit starts when the worker has loaded
 * and begins the run (a slow module load is not the student's fault); `startupLimitMs` bounds
 * the load itself. Resolves `{results, logs, timed_out, elapsed_ms}`; rejects with
 * SandboxStoppedError on abort, or an Error when the worker cannot start.
 */
export function runInSandbox({
  code,
  functionName,
  tests,
  timeLimitMs,
  signal,
  createWorker = createSandboxHost,
  startupLimitMs = 10000,
  now = () => performance.now(),
}) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new SandboxStoppedError());
      return;
    }
    const results = new Array(tests.length).fill(null);
    const logs = [];
    let startedAt = null;
    let timer = null;
    let settled = false;
    let worker;
    let channel = null;

    const cleanup = () => {
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      worker?.terminate();
      if (channel) {
        channel.port1.onmessage = null;
        channel.port1.close();
      }
    };
    const finish = (timedOut) => {
      if (settled) return;
      const elapsed_ms = startedAt === null ? 0 : now() - startedAt;
      cleanup();
      resolve({
        results: results.map((r) => r ?? { timeout: true }),
        logs,
        timed_out: timedOut,
        elapsed_ms,
      });
    };
    const fail = (error) => {
      if (settled) return;
      cleanup();
      reject(error);
    };
    function onAbort() {
      fail(new SandboxStoppedError());
    }

    try {
      worker = createWorker();
      channel = new MessageChannel();
    } catch (e) {
      fail(new Error(`The sandbox for your code could not be started: ${e.message}`));
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    timer = setTimeout(
      () => fail(new Error(`The sandbox for your code did not start within ${startupLimitMs / 1000} s; reload the page and try again.`)),
      startupLimitMs,
    );
    // The worker's own channel carries nothing the run reads.
    worker.onmessage = null;
    channel.port1.onmessage = (event) => {
      const msg = event.data;
      if (settled || !msg) return;
      if (msg.type === 'started') {
        startedAt = now();
        clearTimeout(timer);
        timer = setTimeout(() => finish(true), timeLimitMs);
      } else if (msg.type === 'result' && Number.isInteger(msg.index) && msg.index < results.length) {
        results[msg.index] = msg.result;
      } else if (msg.type === 'log') {
        logs.push(String(msg.line));
      } else if (msg.type === 'done') {
        finish(false);
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      const reason = event.message || 'the worker script could not be loaded';
      if (startedAt === null) {
        fail(new Error(`The sandbox for your code could not be started: ${reason}`));
        return;
      }
      // Something the code scheduled crashed the worker mid-run: keep what finished.
      results.forEach((r, i) => {
        results[i] = r ?? { error: `the sandbox stopped before this test ran: ${reason}` };
      });
      finish(false);
    };
    worker.postMessage({ code, function_name: functionName, tests }, [channel.port2]);
  });
}
