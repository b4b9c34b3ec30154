// core's grader for Node: the wasm build's grading module for Node
// (build/wasm/node/perflab_grade_node.cjs, or $PERFLAB_WASM_DIR) loaded with its binary read
// from disk (so plain `node` works, without --no-experimental-fetch), wrapped as the `lab` the grading module takes by the one adapter
// the page's re-grades use too (web/src/grading/lab.js). Not for: running student code
// (code-runner.mjs).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleGradingLab } from '../../web/src/grading/lab.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the wasm build is looked for: $PERFLAB_WASM_DIR, else build/wasm. */
export const defaultWasmDir = () => process.env.PERFLAB_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm');

/**
 * Loads the module and returns `{lab, module}`. Throws an Error naming the missing file or
 * call when the build is absent or older than the grading module.
 */
export async function loadNodeLab({ wasmDir = defaultWasmDir(), scalar = false } = {}) {
  const base = scalar ? 'perflab_grade_node_scalar' : 'perflab_grade_node';
  const js = path.join(wasmDir, 'node', `${base}.cjs`);
  const wasm = path.join(wasmDir, 'node', `${base}.wasm`);
  for (const file of [js, wasm]) {
    if (!existsSync(file)) throw new Error(`${file} is missing: build the wasm module first (tools/lab build), or set PERFLAB_WASM_DIR to a build`);
  }
  const createPerflab = createRequire(import.meta.url)(js);
  const module = await createPerflab({ wasmBinary: readFileSync(wasm), print: () => {}, printErr: (line) => process.stderr.write(`${line}\n`) });
  return { lab: moduleGradingLab(module, { from: `the wasm build in ${wasmDir}` }), module };
}
