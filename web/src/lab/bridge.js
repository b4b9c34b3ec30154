// The only main-thread code that knows the lab worker exists. `call(kind, payload, opts)`
// posts one request and returns a promise; progress replies go to `onProgress`; an
// AbortSignal cancels cooperatively, and if the worker has not answered within
// `cancelTimeoutMs` it is terminated and restarted lazily on the next call.
// Not for: deciding what a kind computes (worker.js) or touching the wasm module.

import { REPLY, cancelRequest, cancelledError, makeError, replyProblem, request } from './protocol.js';

/**
 * @param {object} [options]
 * @param {string|URL} [options.workerUrl] a module worker script; defaults to ./worker.js
 * @param {() => Worker} [options.createWorker] replaces `new Worker(...)` (tests inject a fake)
 * @param {number} [options.cancelTimeoutMs] how long a cancelled call may take to answer
 */
export function createBridge({ workerUrl, createWorker, cancelTimeoutMs = 500 } = {}) {
  // The literal `new Worker(new URL('./worker.js', import.meta.url), ...)` is what Vite
  // recognises and bundles as a worker; keep it written out in full.
  const spawn =
    createWorker ??
    (workerUrl
      ? () => new Worker(workerUrl, { type: 'module' })
      : () => new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }));

  let worker = null;
  let nextId = 1;
  // id -> {message, resolve, reject, onProgress, where, aborted, cancelTimer}. Every kind
  // is a pure function of its payload, so after a restart the survivors are re-sent.
  const pending = new Map();

  function ensureWorker() {
    if (worker) return worker;
    worker = spawn();
    worker.onmessage = (event) => onReply(event.data);
    // A module worker that fails to load (or throws at top level) reports here, not
    // through a reply: fail every call waiting on it and restart on the next call.
    worker.onerror = (event) => {
      event.preventDefault?.();
      const message = event.message || 'the lab worker failed to start (see the console)';
      failAll(message);
    };
    worker.onmessageerror = () => failAll('a lab worker message could not be read');
    return worker;
  }

  function settle(id) {
    const entry = pending.get(id);
    if (!entry) return null;
    pending.delete(id);
    clearTimeout(entry.cancelTimer);
    entry.signal?.removeEventListener('abort', entry.onAbort);
    return entry;
  }

  function onReply(msg) {
    const problem = replyProblem(msg);
    if (problem) {
      console.error(`lab bridge: ignoring a malformed reply: ${problem}`, msg);
      return;
    }
    const entry = pending.get(msg.id);
    if (!entry) return; // a late reply to a call that was already cancelled
    if (msg.type === REPLY.progress) {
      if (!entry.aborted) entry.onProgress?.(msg.fraction, msg.detail);
      return;
    }
    settle(msg.id);
    if (entry.aborted) {
      entry.reject(cancelledError(entry.where));
    } else if (msg.type === REPLY.result) {
      entry.resolve(msg.result);
    } else {
      const { message, where, cancelled } = msg.error;
      entry.reject(makeError(message, { where: where || entry.where, cancelled }));
    }
  }

  function failAll(message) {
    const entries = [...pending.keys()].map(settle);
    dropWorker();
    for (const entry of entries) {
      entry.reject(makeError(message, { where: entry.where, cancelled: entry.aborted }));
    }
  }

  function dropWorker() {
    if (!worker) return;
    worker.onmessage = worker.onerror = worker.onmessageerror = null;
    worker.terminate();
    worker = null;
  }

  function abort(id) {
    const entry = pending.get(id);
    if (!entry || entry.aborted) return;
    entry.aborted = true;
    worker?.postMessage(cancelRequest(nextId++, id));
    entry.cancelTimer = setTimeout(() => {
      if (!pending.has(id)) return;
      settle(id);
      entry.reject(cancelledError(entry.where));
      // The worker is stuck inside a long step: the only way to stop it is to end it.
      dropWorker();
      if (pending.size > 0) {
        const w = ensureWorker();
        for (const other of pending.values()) w.postMessage(other.message);
      }
    }, cancelTimeoutMs);
  }

  /**
   * @param {string} kind a declared function's name (api.js) or a KINDS value
   * @param {object} [payload]
   * @param {{signal?: AbortSignal, onProgress?: (fraction: number, detail: any) => void,
   *          where?: string}} [options] `where` names the control shown beside an error
   * @returns {Promise<any>} the handler's result; rejects with an Error carrying
   *          `where` and `cancelled`
   */
  function call(kind, payload = {}, { signal, onProgress, where = kind } = {}) {
    if (signal?.aborted) return Promise.reject(cancelledError(where));
    const id = nextId++;
    const message = request(id, kind, payload);
    return new Promise((resolve, reject) => {
      const entry = { message, resolve, reject, onProgress, where, aborted: false, signal };
      entry.onAbort = () => abort(id);
      pending.set(id, entry);
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      try {
        ensureWorker().postMessage(message);
      } catch (err) {
        settle(id);
        reject(makeError(`could not start the lab worker: ${err.message}`, { where }));
      }
    });
  }

  /** Ends the worker now; waiting calls reject as cancelled. The next call restarts it. */
  function terminate() {
    const entries = [...pending.keys()].map(settle);
    dropWorker();
    for (const entry of entries) entry.reject(cancelledError(entry.where));
  }

  return { call, terminate };
}
