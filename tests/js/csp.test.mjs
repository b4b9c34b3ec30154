// Protects tools/csp.mjs: which policy each path of the build (and of Vite's dev server) gets,
// that the sandbox's allows no connection and no script but its host frame's, which carries
// it as a <meta> (so it holds without a header), that the page's
// <meta> form leaves out what a <meta> cannot carry, and that the README's header for static
// hosts is the policy the servers send. Whether Chromium enforces them:
// tests/browser/content-security-policy.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import {
  LAB_WORKER_POLICY,
  PAGE_META_POLICY,
  PAGE_POLICY,
  SANDBOX_DIR,
  SANDBOX_FRAME_SCRIPT,
  SANDBOX_HOST_FILE,
  SANDBOX_POLICY,
  policyFor,
  sandboxHostHtml,
} from '../../tools/csp.mjs';
import { SANDBOX_HOST_FILE as PAGE_HOST_FILE } from '../../web/src/lab/sandbox-host.js';

const directives = (policy) =>
  Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));

test('each path gets its policy: HTML the page\'s, the two workers theirs, other files none', () => {
  assert.equal(policyFor('/'), PAGE_POLICY);
  assert.equal(policyFor('/index.html'), PAGE_POLICY);
  assert.equal(policyFor('/course/index.html'), PAGE_POLICY);
  assert.equal(policyFor('/sandbox/sandbox-worker-PCUMlqE8.js'), SANDBOX_POLICY);
  assert.equal(policyFor('/src/lab/sandbox-worker.js'), SANDBOX_POLICY); // Vite's dev server
  assert.equal(policyFor('/assets/worker-CW9hd8VJ.js'), LAB_WORKER_POLICY);
  assert.equal(policyFor('/src/lab/worker.js'), LAB_WORKER_POLICY);
  for (const path of ['/assets/index-ZscnfVqj.js', '/assets/perflab_simd-DWzpAcYd.wasm', '/assets/index-CnzcPH-p.css', '/src/lab/sandbox-runner.js', '/src/lab/workers.js']) {
    assert.equal(policyFor(path), null, path);
  }
});

test('the sandbox connects nowhere and runs no script but its host frame\'s own (by its hash), its worker from blob: only', () => {
  const d = directives(SANDBOX_POLICY);
  assert.deepEqual(d['default-src'], ["'none'"]);
  assert.deepEqual(d['connect-src'], ["'none'"]);
  const hash = `'sha256-${createHash('sha256').update(SANDBOX_FRAME_SCRIPT).digest('base64')}'`;
  assert.deepEqual(d['script-src'], [hash, "'unsafe-eval'"]);
  assert.deepEqual(d['worker-src'], ['blob:']);
  assert.equal(SANDBOX_FRAME_SCRIPT, readFileSync(new URL('../../web/src/lab/sandbox-frame.js', import.meta.url), 'utf8'));
});

test('the host frame carries the sandbox policy as a <meta> ahead of its one script, in the file the page loads', () => {
  const html = sandboxHostHtml();
  const meta = html.indexOf(`<meta http-equiv="Content-Security-Policy" content="${SANDBOX_POLICY}">`);
  assert.ok(meta > 0, html);
  assert.ok(meta < html.indexOf('<script>'));
  assert.equal(html.split('<script').length, 2);
  assert.ok(html.includes(`<script>${SANDBOX_FRAME_SCRIPT}</script>`));
  assert.equal(SANDBOX_HOST_FILE, PAGE_HOST_FILE);
  assert.equal(policyFor(`/${SANDBOX_DIR}/${SANDBOX_HOST_FILE}`), SANDBOX_POLICY);
});

test('the page and the lab worker reach their own origin only', () => {
  for (const policy of [PAGE_POLICY, PAGE_META_POLICY, LAB_WORKER_POLICY]) {
    const d = directives(policy);
    assert.deepEqual(d['connect-src'], ["'self'"]);
    assert.ok(d['script-src'].every((s) => ["'self'", "'unsafe-eval'", "'wasm-unsafe-eval'"].includes(s)), policy);
    assert.ok(!policy.includes('*') && !policy.includes('http'), policy);
  }
  assert.ok(!directives(PAGE_POLICY)['script-src'].includes("'unsafe-eval'"));
  // The lab worker starts the kernel engine's threads (web/src/lab/engine/engine-thread.js).
  assert.deepEqual(directives(LAB_WORKER_POLICY)['worker-src'], ["'self'"]);
  assert.ok(!('frame-ancestors' in directives(PAGE_META_POLICY))); // ignored in a <meta>
  assert.ok(PAGE_POLICY.startsWith(PAGE_META_POLICY));
});

test('the README gives static hosts the sandbox policy the servers send', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.ok(readme.includes(`Content-Security-Policy: ${SANDBOX_POLICY}\n`));
});
