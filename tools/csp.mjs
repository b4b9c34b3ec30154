// The Content-Security-Policies of the page and its two workers, in one place: vite.config.js
// puts the page's into index.html as a <meta> (so it holds on any static host) and sends all
// three as headers from the preview and dev servers (tools/lab serve, the browser tests); the
// README's deployment section lists the headers for other hosts.
//
// Chromium applies a URL-loaded worker's policy from the worker script's own response
// headers; a same-origin worker does not inherit the page's <meta> policy (checked by
// tests/browser/content-security-policy.test.mjs). So the lab worker's policy is a header on
// its script, and the student's code runs where a policy holds without any header:
//   page         scripts and connections to this origin only (wasm, the exercise JSON).
//   lab worker   the same, plus 'unsafe-eval': Emscripten's Embind glue builds its invokers
//                with new Function, and workers from this origin: the kernel engine's pool
//                threads (web/src/lab/engine/engine-thread.js, spawned by the lab worker).
//   sandbox      the host frame (sandbox/host.html, an opaque-origin iframe, see
//                web/src/lab/sandbox-host.js) carries it as a <meta> and its blob: worker
//                inherits it: no connection anywhere, no script but the frame's own (by its
//                hash), so a dynamic import() of any module is refused before it is
//                requested, workers from blob: only (the student's), and 'unsafe-eval'
//                because the runner compiles the student's code with new Function
//                (sandbox-lockdown.js removes eval and Function before that code runs).
//                Hosts may send it as a header on the sandbox folder too (the same text).
// Not for: COOP/COEP (vite.config.js) or anything the page computes.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const join = (directives) => directives.join('; ');

const PAGE_DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
];

/** The page's policy as index.html's <meta> carries it (a <meta> cannot hold frame-ancestors). */
export const PAGE_META_POLICY = join(PAGE_DIRECTIVES);

/** The page's policy as a header on the HTML. */
export const PAGE_POLICY = join([...PAGE_DIRECTIVES, "frame-ancestors 'self'"]);

/**
 * The lab worker's policy (assets/worker-*.js): the wasm module and its glue, and the kernel
 * engine's thread workers, from this origin.
 */
export const LAB_WORKER_POLICY = join([
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
]);

/** The host frame's script (inlined into sandbox/host.html, allowed by its hash). */
export const SANDBOX_FRAME_SCRIPT = readFileSync(new URL('../web/src/lab/sandbox-frame.js', import.meta.url), 'utf8');
const frameScriptHash = `'sha256-${createHash('sha256').update(SANDBOX_FRAME_SCRIPT).digest('base64')}'`;

/**
 * The student-code sandbox's policy: the host frame's <meta> (and its worker's, inherited),
 * and the header on the sandbox folder where the host sends one. No connection at all.
 */
export const SANDBOX_POLICY = join([
  "default-src 'none'",
  `script-src ${frameScriptHash} 'unsafe-eval'`,
  'worker-src blob:',
  "connect-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
]);

/** The folder the build puts the sandbox worker and its host frame in (matched by path). */
export const SANDBOX_DIR = 'sandbox';

/**
 * The host frame's file name in SANDBOX_DIR. web/src/lab/sandbox-host.js, which loads it, says
 * it too (this module cannot import that one: Vite bundles this config's imports);
 * tests/js/csp.test.mjs holds the two equal.
 */
export const SANDBOX_HOST_FILE = 'host.html';

/** sandbox/host.html: the policy as a <meta> before anything else, then the frame's script. */
export function sandboxHostHtml() {
  if (SANDBOX_FRAME_SCRIPT.includes('</')) throw new Error('web/src/lab/sandbox-frame.js must not contain "</": it is inlined into a <script>');
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${SANDBOX_POLICY}"><title>perflab sandbox</title></head>
<body><script>${SANDBOX_FRAME_SCRIPT}</script></body></html>
`;
}

/**
 * The policy to send with a response for `pathname`, or null for a file no policy applies to
 * (scripts, styles, wasm, JSON: CSP governs documents and workers only).
 */
export function policyFor(pathname) {
  const file = pathname.split('/').at(-1) ?? '';
  if (/^sandbox-worker(-[\w-]+)?\.js$/.test(file) || pathname.includes(`/${SANDBOX_DIR}/`)) return SANDBOX_POLICY;
  if (/^worker(-[\w-]+)?\.js$/.test(file)) return LAB_WORKER_POLICY;
  if (file === '' || file.endsWith('.html')) return PAGE_POLICY;
  return null;
}
