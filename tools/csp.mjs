// The Content-Security-Policies of the page and its two workers, in one place: vite.config.js
// puts the page's into index.html as a <meta> (so it holds on any static host) and sends all
// three as headers from the preview and dev servers (tools/lab serve, the browser tests); the
// README's deployment section lists the headers for other hosts.
//
// Chromium applies a worker's policy from the worker script's own response headers; a
// same-origin worker does not inherit the page's <meta> policy (checked by
// tests/browser/content-security-policy.test.mjs). So each worker's policy is a header on its script:
//   page         scripts and connections to this origin only (wasm, the exercise JSON).
//   lab worker   the same, plus 'unsafe-eval': Emscripten's Embind glue builds its invokers
//                with new Function.
//   sandbox      no connection anywhere, scripts from this origin only (a dynamic import()
//                of another origin's module is refused before it is requested), and
//                'unsafe-eval' because the runner compiles the student's code with new
//                Function (sandbox-lockdown.js removes eval and Function before that code
//                runs).
// Not for: COOP/COEP (vite.config.js) or anything the page computes.

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

/** The lab worker's policy (assets/worker-*.js): the wasm module and its glue, from this origin. */
export const LAB_WORKER_POLICY = join([
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "connect-src 'self'",
  "worker-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
]);

/** The student-code sandbox's policy (sandbox/sandbox-worker-*.js): no connection at all. */
export const SANDBOX_POLICY = join([
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval'",
  "connect-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
]);

/** The folder the build puts the sandbox worker in, so a static host can match it by path. */
export const SANDBOX_DIR = 'sandbox';

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
