// The page's side of the sandbox host: a Worker-shaped object (postMessage, onerror,
// terminate; what sandbox.js drives) backed by an iframe with sandbox="allow-scripts" and no
// allow-same-origin (an opaque origin) that loads sandbox/host.html, whose own <meta> policy
// closes the network (tools/csp.mjs), and runs the student's worker inside it as a classic
// blob: worker made from the built worker's source text (sandbox-frame.js). So the browser itself
// keeps the student's code off the network, on any static host: the lockdown
// (sandbox-lockdown.js) stays as a second fence. terminate() removes the frame, which ends
// its worker. Under Vite's dev server (no built host.html) the worker is a plain module
// worker from its URL, as it was before the frame.
// Not for: the run's protocol (sandbox.js) or what runs in the worker (sandbox-worker.js).

/** The frame's file, beside the built worker in the sandbox folder (tools/csp.mjs writes it). */
export const SANDBOX_HOST_FILE = 'host.html';

let workerText = null;

async function builtWorker() {
  const { default: url } = await import('./sandbox-worker.js?worker&url');
  return new URL(url, import.meta.url);
}

/**
 * The built worker's source as the frame runs it, fetched once per page (a failed fetch is
 * tried again next run): the bundle (one file with no import or export) inside one strict
 * function, because the frame starts a classic worker, where a script's top-level names
 * would be global and so reachable from the student's code, as a module's are not.
 */
function workerSource(url) {
  workerText ??= fetch(url).then(async (response) => {
    if (!response.ok) throw new Error(`${url.pathname} answered ${response.status}`);
    const text = await response.text();
    if (/^\s*(import|export)\b/m.test(text)) throw new Error(`${url.pathname} imports or exports, and the sandbox runs it as one script`);
    return `(function () {\n'use strict';\n${text}\n})();\n`;
  });
  workerText.catch(() => {
    workerText = null;
  });
  return workerText;
}

/**
 * A fresh sandbox host for one run: behaves as the Worker sandbox.js expects. Its first
 * postMessage(message, [port]) starts the worker in a new frame once the frame says it is
 * ready and the worker's source has arrived; onerror hears ({message}) when the frame or the
 * worker cannot start or the worker raises an error.
 */
export function createSandboxHost({ doc = document, win = window } = {}) {
  let frame = null;
  let worker = null;
  let pending = null;
  let source = null;
  let ready = false;
  let sent = false;
  let ended = false;
  const host = {
    onmessage: null,
    onerror: null,
    postMessage(message, transfer = []) {
      if (pending) throw new Error('the sandbox host takes one message per run');
      pending = { message, transfer };
      start();
    },
    terminate() {
      ended = true;
      win.removeEventListener('message', onFrameMessage);
      frame?.remove();
      worker?.terminate();
    },
  };
  const fail = (message) => {
    if (!ended) host.onerror?.({ message, preventDefault() {} });
  };
  function start() {
    if (ended || sent || !pending) return;
    if (worker) {
      sent = true;
      worker.postMessage(pending.message, pending.transfer);
    } else if (frame && ready && source !== null) {
      sent = true;
      frame.contentWindow.postMessage({ source, message: pending.message }, '*', pending.transfer);
    }
  }
  function onFrameMessage(event) {
    if (!frame || event.source !== frame.contentWindow) return;
    const data = event.data;
    if (data?.type === 'ready') {
      ready = true;
      start();
    } else if (data?.type === 'error') {
      fail(String(data.message || 'the worker script could not be loaded'));
    }
  }

  builtWorker().then(
    (url) => {
      if (ended) return;
      if (import.meta.env?.DEV) {
        worker = new Worker(url, { type: 'module' });
        worker.onerror = (event) => {
          event.preventDefault();
          fail(event.message || 'the worker script could not be loaded');
        };
        start();
        return;
      }
      win.addEventListener('message', onFrameMessage);
      frame = doc.createElement('iframe');
      frame.setAttribute('sandbox', 'allow-scripts');
      frame.setAttribute('allow', 'cross-origin-isolated');
      frame.setAttribute('title', 'sandbox for your code');
      frame.hidden = true;
      frame.src = new URL(SANDBOX_HOST_FILE, url).href;
      doc.body.append(frame);
      workerSource(url).then(
        (text) => {
          source = text;
          start();
        },
        (e) => fail(`the sandbox's script could not be fetched: ${e.message}`),
      );
    },
    (e) => fail(`the sandbox's script could not be found: ${e.message}`),
  );
  return host;
}
