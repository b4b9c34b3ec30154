// The kernel engine alone (web/src/lab/engine/engine.js through tools/engine-node.mjs, over
// the four clang-16 modules wasm/engine/ builds): every flavour Node can run × threads 1 and 2
// over shared memory, and 1 thread over the unshared (single) link, against independent JS
// references: a naive matmul and GELU's tanh formula, both in double precision, and STREAM's
// triad; the peak chains give finite sinks; facts() says why it has what it has.
// Node 20 compiles the fma (relaxed SIMD) modules only with --experimental-wasm-relaxed-simd,
// so when this process lacks it, one test runs this file again in a child Node that has it
// and requires the fma flavour there: the relaxed kernels are tested on every run, never skipped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import test from 'node:test';
import { engineModuleFile, loadNodeEngine } from '../../tools/engine-node.mjs';
import { ENGINE_BUFFERS, ENGINE_KERNELS } from '../../web/src/lab/engine/engine.js';
import { randomFloat32, rng, wasmDir } from './perflab_module.mjs';

const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
// Set for the child run: there the fma flavour must be present, or the child fails.
const REQUIRE_FMA = process.env.PERFLAB_ENGINE_REQUIRE_FMA === '1';
const CAP = 2; // the tests run 1 and 2 threads
const kernel = (name) => ENGINE_KERNELS.indexOf(name);
const buffer = (name) => ENGINE_BUFFERS.indexOf(name);

const relaxedHere = WebAssembly.validate(readFileSync(engineModuleFile(wasmDir, 'fma', 'single')));

const shared = await loadNodeEngine({ cap: CAP, wasmDir });
const single = await loadNodeEngine({ cap: CAP, shared: false, wasmDir });
test.after(() => {
  shared.dispose();
  single.dispose();
});

// Each configuration: the engine, its link and the thread counts it runs.
const twoThreads = shared.facts().max_threads >= 2;
const CONFIGS = [
  { name: 'shared', engine: shared, threads: twoThreads ? [1, 2] : [1] },
  { name: 'single', engine: single, threads: [1] },
];
const flavours = shared.facts().flavours;

test('facts() lists the flavours this Node compiles, fastest first, and says why in one sentence', () => {
  const facts = shared.facts();
  assert.deepEqual(facts.flavours, relaxedHere ? ['fma', 'simd'] : ['simd']);
  assert.equal(facts.shared_memory, true);
  assert.equal(facts.max_threads, Math.min(availableParallelism(), CAP));
  const plural = facts.max_threads === 1 ? 'thread' : 'threads';
  assert.match(facts.why, new RegExp(`; ${facts.max_threads} ${plural}: shared memory, ${availableParallelism()} core`));
  if (relaxedHere) assert.match(facts.why, /^relaxed SIMD available; /);
  else assert.match(facts.why, /^no relaxed SIMD in this Node \(it needs --experimental-wasm-relaxed-simd\): multiply then add; /);
  const one = single.facts();
  assert.deepEqual(one.flavours, facts.flavours);
  assert.equal(one.shared_memory, false);
  assert.equal(one.max_threads, 1);
  assert.match(one.why, /; one thread: unshared memory/);
});

test('the fma modules hold relaxed SIMD instructions (a Node without it refuses them), the simd modules none', () => {
  for (const link of ['shared', 'single']) {
    new WebAssembly.Module(readFileSync(engineModuleFile(wasmDir, 'simd', link)));
    if (!relaxedHere) {
      // Also proves nothing between clang-16 and the file lowered or dropped the relaxed madd.
      assert.throws(() => new WebAssembly.Module(readFileSync(engineModuleFile(wasmDir, 'fma', link))), (err) =>
        err instanceof WebAssembly.CompileError && /relaxed-simd/.test(err.message));
    }
  }
  if (REQUIRE_FMA) assert.deepEqual(flavours, ['fma', 'simd']);
});

test('pool threads never exceed max_threads, and a job asking for more threads than are ready is refused with a sentence', async () => {
  const lazy = await loadNodeEngine({ cap: CAP, wasmDir, threads: 1 });
  try {
    assert.equal(lazy.readyThreads(), 1);
    lazy.prepare(16, 0, 0, 16, 0, 1);
    if (lazy.facts().max_threads >= 2) {
      assert.throws(() => lazy.run(kernel('gelu'), 'simd', 2, 0, 0, 16, 0, 0), {
        message: 'the kernel engine has 1 thread(s) ready, the job asks for 2: await ready(2) first',
      });
    }
    await lazy.ready(99);
    assert.equal(lazy.readyThreads(), lazy.facts().max_threads);
  } finally {
    lazy.dispose();
  }
  await assert.rejects(lazy.ready(1), { message: 'the kernel engine was disposed' });
});

// out (M, N) = a (M, K) @ b (K, N) in double precision over the float32 inputs.
function naiveMatmul(a, b, M, K, N) {
  const out = new Float64Array(M * N);
  for (let i = 0; i < M; ++i)
    for (let j = 0; j < N; ++j) {
      let s = 0;
      for (let k = 0; k < K; ++k) s += a[i * K + k] * b[k * N + j];
      out[i * N + j] = s;
    }
  return out;
}
// max |got - ref| / max |ref|, core's matmul_relative_error.
function relativeError(got, ref) {
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < ref.length; ++i) {
    diff = Math.max(diff, Math.abs(got[i] - ref[i]));
    scale = Math.max(scale, Math.abs(ref[i]));
  }
  return diff / scale;
}

// Odd sizes: a last strip of one row (M odd), a K that is no multiple of anything, an N with a
// partial right-edge block (45) and one of whole 16-column strips (128); a K past one packed
// block (kPackedKC = 512), so later blocks add to out; and one that makes prepare() grow the
// memory past its first pages.
const SHAPES = [
  { M: 37, K: 19, N: 45 },
  { M: 37, K: 19, N: 128 },
  { M: 5, K: 1, N: 3 },
  { M: 33, K: 600, N: 70 },
  { M: 130, K: 300, N: 260 },
];
// 1e-4, core's kMatmulTolerance: a float32 sum of K products is within about K·2^-24 of the
// double-precision reference, relative to its scale (a bound: 3.6e-5 at K = 600). The fma flavour rounds once per multiply-add
// where the multiply-then-add kernel rounds twice, so the two differ in the last bits, both
// far inside the tolerance.
const MATMUL_TOLERANCE = 1e-4;

for (const { name, engine, threads: threadCounts } of CONFIGS) {
  for (const flavour of flavours) {
    test(`matmul, ${flavour} flavour, ${name} memory: threads ${threadCounts.join(' and ')} match a naive double-precision matmul`, () => {
      const random = rng(27);
      for (const { M, K, N } of SHAPES) {
        const a = randomFloat32(random, M * K);
        const b = randomFloat32(random, K * N);
        const ref = naiveMatmul(a, b, M, K, N);
        const scratch = engine.scratchFloats(K, N);
        let first = null;
        for (const T of threadCounts) {
          engine.prepare(a.length, b.length, 0, M * N, scratch, T);
          engine.write(buffer('a'), a);
          engine.write(buffer('b'), b);
          engine.write(buffer('out'), new Float32Array(M * N).fill(Number.NaN)); // every element must be written
          engine.run(kernel('matmul'), flavour, T, M, K, N, 0, 0);
          const out = new Float32Array(M * N);
          engine.read(buffer('out'), out);
          const error = relativeError(out, ref);
          assert.ok(error <= MATMUL_TOLERANCE, `M=${M} K=${K} N=${N} T=${T}: relative error ${error}`);
          // A band is whole row strips, so a row's arithmetic does not depend on the threads.
          if (first) assert.deepEqual(out, first, `M=${M} K=${K} N=${N}: ${T} threads differ from 1`);
          first = out;
        }
      }
    });

    test(`gelu, ${flavour} flavour, ${name} memory: matches the tanh formula in double precision`, () => {
      const random = rng(2727);
      const n = 1037; // a partial 16-float chunk and a partial vector at the end
      const x = Float32Array.from(randomFloat32(random, n), (v) => 6 * v);
      for (const T of threadCounts) {
        engine.prepare(n, 0, 0, n, 0, T);
        engine.write(buffer('a'), x);
        engine.write(buffer('out'), new Float32Array(n).fill(Number.NaN));
        engine.run(kernel('gelu'), flavour, T, 0, 0, n, 0, 0);
        const out = new Float32Array(n);
        engine.read(buffer('out'), out);
        for (let i = 0; i < n; ++i) {
          const v = x[i];
          const ref = 0.5 * v * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (v + 0.044715 * v ** 3)));
          // core's GELU tolerance: 1e-6 absolute + 1e-5 relative.
          assert.ok(Math.abs(out[i] - ref) <= 1e-6 + 1e-5 * Math.abs(ref), `T=${T} x[${i}]=${v}: ${out[i]}, expected ${ref}`);
        }
      }
    });

    test(`triad and peak, ${flavour} flavour, ${name} memory: a = b + s·c on every element, finite sinks on every thread`, () => {
      const random = rng(7);
      const n = 1000 + 13;
      const b = randomFloat32(random, n);
      const c = randomFloat32(random, n);
      const s = 0.5;
      for (const T of threadCounts) {
        engine.prepare(n, n, n, 0, 0, T);
        engine.write(buffer('a'), new Float32Array(n).fill(Number.NaN));
        engine.write(buffer('b'), b);
        engine.write(buffer('c'), c);
        engine.run(kernel('triad'), flavour, T, 0, 0, n, 0, s);
        const a = new Float32Array(n);
        engine.read(buffer('a'), a);
        // One rounding (fused) or two: within an ulp of b + s·c, here under 2^-22 absolute.
        for (let i = 0; i < n; ++i) assert.ok(Math.abs(a[i] - (b[i] + s * c[i])) <= 2 ** -22, `T=${T} a[${i}]`);
        engine.sinks(); // clears them
        engine.run(kernel('peak'), flavour, T, 0, 0, 0, 1000, s);
        const sinks = engine.sinks().slice(0, T);
        for (const sink of sinks) assert.ok(Number.isFinite(sink) && sink > 0, `T=${T} sinks ${sinks}`);
      }
    });
  }
}

test('buffers hold what prepare() made room for, and say so when a copy is larger', () => {
  single.prepare(8, 0, 0, 4, 0, 1);
  const x = Float32Array.from({ length: 8 }, (_, i) => i + 0.5);
  single.write(buffer('a'), x);
  const back = new Float32Array(8);
  single.read(buffer('a'), back);
  assert.deepEqual(back, x);
  assert.throws(() => single.write(buffer('out'), x), { message: 'buffer out holds 4 floats, not 8: prepare() more room first' });
  assert.throws(() => single.read(9, back), { message: 'no engine buffer 9: the buffers are a, b, c, out (0 to 3)' });
});

test('a Node started with --experimental-wasm-relaxed-simd runs every test here with the fma flavour', { skip: relaxedHere && 'this process has relaxed SIMD: the tests above ran the fma flavour' }, () => {
  const env = { ...process.env, PERFLAB_ENGINE_REQUIRE_FMA: '1', PERFLAB_WASM_DIR: wasmDir };
  delete env.NODE_TEST_CONTEXT; // the child reports for itself, not to this runner
  const child = spawnSync(process.execPath, [RELAXED_FLAG, '--test-reporter=tap', fileURLToPath(import.meta.url)], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  const output = `${child.stdout}\n${child.stderr}`;
  assert.equal(child.status, 0, output.slice(-4000));
  assert.match(output, /^# fail 0$/m, output.slice(-4000));
  assert.match(output, /^ok \d+ - matmul, fma flavour, shared memory/m, output.slice(-4000));
});
