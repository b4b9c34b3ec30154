// Vite config for the static page: root web/, relative asset paths (deployable to any
// static host), output web/dist. `@wasm` points at the wasm build's web/ folder, chosen
// with PERFLAB_WASM_DIR (default build/wasm, relative to the repo or absolute). The dev
// and preview servers send COOP/COEP so the page is cross-origin isolated (finer timers),
// and the Content-Security-Policies of tools/csp.mjs: the page's is also put into index.html
// as a <meta>; the sandbox worker and its host frame (sandbox/host.html, whose own <meta>
// closes the network) are built into their own folder so hosts can match them by path.
// They also serve an optional course.json (PERFLAB_COURSE=path, or a course.json in the
// served folder); the page's version (package.json + git short hash) is built in for submissions.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { PAGE_META_POLICY, SANDBOX_DIR, SANDBOX_HOST_FILE, policyFor, sandboxHostHtml } from './tools/csp.mjs';
import { writePageData } from './tools/page-data.mjs';

const repoRoot = path.dirname(fileURLToPath(import.meta.url));
const wasmWebDir = path.resolve(repoRoot, process.env.PERFLAB_WASM_DIR || 'build/wasm', 'web');

const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

// Without this, a missing wasm build surfaces as an unresolved '@wasm/...' import.
const requireWasmBuild = {
  name: 'perflab-require-wasm-build',
  buildStart() {
    // The main module, the training module and the grading module (each loaded at its first
    // call), two builds each, and the kernel engine's four modules (wasm/engine/).
    const files = ['perflab', 'perflab_train', 'perflab_grade'].flatMap((m) =>
      ['simd', 'scalar'].flatMap((b) => [`${m}_${b}.mjs`, `${m}_${b}.wasm`]),
    );
    for (const flavour of ['fma', 'simd']) {
      for (const link of ['shared', 'single']) files.push(`perflab_engine_${flavour}_${link}.wasm`);
    }
    const missing = files.filter((f) => !existsSync(path.join(wasmWebDir, f)));
    if (missing.length > 0) {
      this.error(
        `the wasm build is missing ${missing.join(', ')} in ${wasmWebDir}: build it ` +
          '(cmake --preset wasm && cmake --build --preset wasm) or point PERFLAB_WASM_DIR at one',
      );
    }
  },
};

// The data the Optimization chapter fetches on demand (docs/DATA.md, "The page"): after each
// page build, Fashion-MNIST's test split, a training subset and the full training split as
// gzip'd IDX, the pretrained fashion_mlp from build/pretrained (tools/pretrained.mjs, run by
// tools/lab build) and manifest.json go to <outDir>/data/fashion-mnist. Nothing imports them,
// so the initial page load is unchanged. Without a pretrained model the manifest says null.
let builtOutDir = path.join(repoRoot, 'web/dist');
const pageData = {
  name: 'perflab-page-data',
  apply: 'build',
  configResolved(config) {
    builtOutDir = path.resolve(config.root, config.build.outDir);
  },
  closeBundle() {
    const manifest = writePageData({
      outDir: path.join(builtOutDir, 'data'),
      pretrainedDir: path.join(repoRoot, 'build/pretrained'),
    });
    if (!manifest.pretrained) {
      console.warn('perflab-page-data: no pretrained fashion_mlp in build/pretrained (tools/lab build trains it)');
    }
  },
};

// "0.1.0+abc1234": package.json's version and the commit the page was built from, which a
// submission records (page_version); "+unknown" outside a git checkout.
function pageVersion() {
  const { version } = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim() || 'unknown';
  } catch {
    // Not a git checkout (a release tarball): the version alone says which page it is.
  }
  return `${version}+${commit}`;
}

// course.json is optional (docs/course.example.json; README "Deploying"). The servers answer
// /course.json from PERFLAB_COURSE when it names a file, else from the served folder, else
// with 204 No Content (practice mode, and no failed request in the browser's console):
// without this, their single-page fallback would answer index.html.
function courseMiddleware(servedDir) {
  return (req, res, next) => {
    const url = (req.url ?? '').split('?')[0];
    if (url !== '/course.json') return next();
    const configured = process.env.PERFLAB_COURSE ? path.resolve(process.env.PERFLAB_COURSE) : null;
    const file = configured ?? path.join(servedDir(), 'course.json');
    if (!existsSync(file)) {
      if (configured) console.warn(`PERFLAB_COURSE names ${configured}, which does not exist; serving no course.json`);
      res.statusCode = 204;
      res.end();
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    for (const [k, v] of Object.entries(isolationHeaders)) res.setHeader(k, v);
    res.end(readFileSync(file));
  };
}

const serveCourse = {
  name: 'perflab-course-json',
  configureServer(server) {
    server.middlewares.use(courseMiddleware(() => server.config.root));
  },
  configurePreviewServer(server) {
    server.middlewares.use(courseMiddleware(() => server.config.build.outDir));
  },
};

// The page's policy as a <meta> (any static host), and each response's policy as a header
// from Vite's own servers. The middleware runs after Vite's `headers` option, so it decides.
const contentSecurityPolicy = {
  name: 'perflab-content-security-policy',
  transformIndexHtml: () => [
    { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: PAGE_META_POLICY }, injectTo: 'head-prepend' },
  ],
  configureServer(server) {
    server.middlewares.use(setPolicyHeader);
  },
  configurePreviewServer(server) {
    server.middlewares.use(setPolicyHeader);
  },
};
function setPolicyHeader(req, res, next) {
  const policy = policyFor(new URL(req.url ?? '/', 'http://localhost').pathname);
  if (policy) res.setHeader('Content-Security-Policy', policy);
  next();
}

// The sandbox's host frame (web/src/lab/sandbox-host.js loads it beside the built worker):
// written from tools/csp.mjs, its policy a <meta> so it holds on a host that sends no header.
const sandboxHost = {
  name: 'perflab-sandbox-host',
  apply: 'build',
  generateBundle() {
    this.emitFile({ type: 'asset', fileName: `${SANDBOX_DIR}/${SANDBOX_HOST_FILE}`, source: sandboxHostHtml() });
  },
};

export default defineConfig({
  plugins: [requireWasmBuild, serveCourse, contentSecurityPolicy, sandboxHost, pageData],
  define: { __PERFLAB_PAGE_VERSION__: JSON.stringify(pageVersion()) },
  root: path.join(repoRoot, 'web'),
  base: './',
  resolve: { alias: { '@wasm': wasmWebDir } },
  build: {
    outDir: path.join(repoRoot, 'web/dist'),
    emptyOutDir: true,
    // The lab worker is an ES module; es2022 keeps top-level await legal in it.
    target: 'es2022',
    // The exercise engine's chunk (CodeMirror) is ~520 kB; it is already loaded lazily.
    chunkSizeWarningLimit: 800,
  },
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        entryFileNames: (chunk) =>
          chunk.name.startsWith('sandbox-worker') ? `${SANDBOX_DIR}/[name]-[hash].js` : 'assets/[name]-[hash].js',
      },
    },
  },
  server: {
    headers: isolationHeaders,
    // Listing fs.allow replaces Vite's default (the workspace root), so name both.
    fs: { allow: [repoRoot, wasmWebDir] },
  },
  preview: { headers: isolationHeaders },
});
