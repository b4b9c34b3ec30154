// The two flavours' binaries, instruction by instruction: every scalar module (the page's
// fallback for an engine without wasm SIMD) holds no SIMD instruction, and every SIMD module
// holds some. The build compiles core's untimed code and the bindings once, without
// -msimd128, for both flavours (core/CMakeLists.txt, perflab_core_common): this is what would
// fail if SIMD code reached the scalar modules through them. Binaryen's wasm-dis (installed
// with Debian's emscripten) prints each module as text; SIMD instructions are the v128 type
// and the lane-typed operations (f32x4.add, i8x16.shuffle, ...).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { wasmDir } from './perflab_module.mjs';

const SIMD_INSTRUCTION = /\b(v128|[if](8x16|16x8|32x4|64x2))\.[a-z_]+|\(v128\b|\bv128\b/g;

function simdInstructions(file) {
  const text = execFileSync('wasm-dis', [file], { maxBuffer: 1 << 30, encoding: 'utf8' });
  return text.match(SIMD_INSTRUCTION)?.length ?? 0;
}

// The Emscripten modules: each .wasm beside its .mjs glue (the kernel engine's modules have
// none). Node loads these same files (tools/wasm-node.mjs); the build has none of its own for it.
const web = readdirSync(path.join(wasmDir, 'web'));
const modules = web
  .filter((f) => f.endsWith('.wasm') && web.includes(f.replace(/\.wasm$/, '.mjs')))
  .map((f) => path.join(wasmDir, 'web', f));

test('the build has all six modules: three modules, two flavours', () => {
  assert.equal(modules.length, 6, modules.join('\n'));
  assert.equal(modules.filter((f) => /scalar\.wasm$/.test(f)).length, 3);
});

for (const file of modules) {
  const scalar = /scalar\.wasm$/.test(file);
  test(`${path.relative(wasmDir, file)} ${scalar ? 'holds no SIMD instruction' : 'holds SIMD instructions'}`, () => {
    const n = simdInstructions(file);
    if (scalar) assert.equal(n, 0, `${n} SIMD instructions in a scalar module`);
    else assert.ok(n > 100, `only ${n} SIMD instructions in a SIMD module`);
  });
}
