// core's grader for Node: the wasm build's grading module, the page's own
// (build/wasm/web/perflab_grade_simd.mjs, or $PERFLAB_WASM_DIR) loaded by tools/wasm-node.mjs
// with its binary read from disk (so plain `node` works, without --no-experimental-fetch),
// wrapped as the `lab` the grading module takes by the one adapter the page's re-grades use
// too (web/src/grading/lab.js); and core's mean from the main module, for the class analytics (loadNodeMean); the training module for the Olympics
// leaderboard (loadNodeOlympicsLab). Not for: running student code (code-runner.mjs).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { moduleGradingLab } from '../../web/src/grading/lab.js';
import { moduleOlympicsLab } from '../../web/src/grading/olympics.js';
import { MEAN_ONLY_OPTIONS } from '../../web/src/grading/summary.js';
import { loadWasmModule } from '../wasm-node.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where the wasm build is looked for: $PERFLAB_WASM_DIR, else build/wasm. */
export const defaultWasmDir = () => process.env.PERFLAB_WASM_DIR ?? path.join(repoRoot, 'build', 'wasm');

/**
 * Loads the module and returns `{lab, module}`. Throws an Error naming the missing file or
 * call when the build is absent or older than the grading module.
 */
export async function loadNodeLab({ wasmDir = defaultWasmDir(), scalar = false } = {}) {
  const module = await instantiate(wasmDir, scalar ? 'perflab_grade_scalar' : 'perflab_grade_simd');
  return { lab: moduleGradingLab(module, { from: `the wasm build in ${wasmDir}` }), module };
}

/**
 * The training module as the olympics lab (web/src/grading/olympics.js): core's
 * Olympics checker and leaderboard. Throws an Error naming the missing file or calls.
 */
export async function loadNodeOlympicsLab({ wasmDir = defaultWasmDir() } = {}) {
  const module = await instantiate(wasmDir, 'perflab_train_simd');
  return { lab: moduleOlympicsLab(module, { from: `the wasm training module in ${wasmDir}` }), module };
}

/**
 * core's mean of a sample (summarizeSample), for the class analytics' order of exercises: the
 * wasm build's main module (the grading module holds no statistics). Throws an Error
 * naming the missing file when the build is absent.
 * @returns {Promise<(values: number[]) => Promise<number>>}
 */
export async function loadNodeMean({ wasmDir = defaultWasmDir() } = {}) {
  const module = await instantiate(wasmDir, 'perflab_simd');
  return async (values) => module.summarizeSample(values, { ...MEAN_ONLY_OPTIONS }).mean;
}

/** The wasm build's module `name` (e.g. perflab_simd), its binary read from disk. */
export function instantiate(wasmDir, name) {
  return loadWasmModule(wasmDir, name, { print: () => {}, printErr: (line) => process.stderr.write(`${line}\n`) });
}
