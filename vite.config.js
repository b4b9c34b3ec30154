// Vite config for the static page: root web/, relative asset paths (deployable to any
// static host), output web/dist. `@wasm` points at the wasm build's web/ folder, chosen
// with PERFLAB_WASM_DIR (default build/wasm, relative to the repo or absolute). The dev
// and preview servers send COOP/COEP so the page is cross-origin isolated (finer timers).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

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
    const files = ['perflab_simd.mjs', 'perflab_simd.wasm', 'perflab_scalar.mjs', 'perflab_scalar.wasm'];
    const missing = files.filter((f) => !existsSync(path.join(wasmWebDir, f)));
    if (missing.length > 0) {
      this.error(
        `the wasm build is missing ${missing.join(', ')} in ${wasmWebDir}: build it ` +
          '(cmake --preset wasm && cmake --build --preset wasm) or point PERFLAB_WASM_DIR at one',
      );
    }
  },
};

export default defineConfig({
  plugins: [requireWasmBuild],
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
  worker: { format: 'es' },
  server: {
    headers: isolationHeaders,
    // Listing fs.allow replaces Vite's default (the workspace root), so name both.
    fs: { allow: [repoRoot, wasmWebDir] },
  },
  preview: { headers: isolationHeaders },
});
