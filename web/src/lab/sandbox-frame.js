// The script of the sandbox's host frame (sandbox/host.html, written at build time by
// vite.config.js with tools/csp.mjs's sandboxHostHtml, which inlines this text and allows it by
// its hash). The frame is an iframe with sandbox="allow-scripts" and no allow-same-origin, so
// its origin is opaque, and its own <meta> Content-Security-Policy closes every connection:
// the browser enforces both on any static host, headers or not. It owns the student's worker, a
// classic blob: worker made from the worker's source text the page hands it (one function, see
// sandbox-host.js), which inherits the frame's policy. Its only job: take the first message from the page (the worker's source, the run's
// message and its private MessagePort), start the worker with them, and tell the page "ready"
// and any error the worker raises. Replies go from the worker through that port, never here.
// A classic script with no imports (it is inlined); not imported by any module.
(function () {
  'use strict';
  var started = false;
  var tell = function (message) {
    parent.postMessage(message, '*');
  };
  addEventListener('message', function (event) {
    var data = event.data;
    if (event.source !== parent || started || !data || typeof data.source !== 'string') return;
    started = true;
    var worker;
    try {
      var url = URL.createObjectURL(new Blob([data.source], { type: 'text/javascript' }));
      // A classic worker: Chromium does not start a module worker from an opaque origin's blob:.
      worker = new Worker(url, { name: 'perflab sandbox' });
    } catch (e) {
      tell({ type: 'error', message: String((e && e.message) || e) });
      return;
    }
    worker.onerror = function (e) {
      e.preventDefault();
      tell({ type: 'error', message: String(e.message || '') });
    };
    worker.postMessage(data.message, Array.prototype.slice.call(event.ports));
  });
  tell({ type: 'ready' });
})();
