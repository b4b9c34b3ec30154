// The kernel engine through the main module's bindings (wasm/bind_engine.cpp,
// wasm/engine_bridge.cpp): core draws the inputs, copies them into the JS engine
// (tools/engine-node.mjs, the page's engine.js over worker_threads), verifies the engine's
// result against its reference and times it with its Timer. Every flavour Node can run, on 1
// and 2 threads (this machine has 2 cores) and on the single link; validation sentences; a
// module without an engine says so and stays usable. The fma flavour needs Node's
// --experimental-wasm-relaxed-simd: the last test re-runs this file with it and requires fma.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadWasmModule } from '../../tools/wasm-node.mjs';
import { loadNodeEngine } from '../../tools/engine-node.mjs';
import { installEngine } from '../../web/src/lab/engine-seam.js';
import { BUILDS, loadPerflab, wasmDir } from './perflab_module.mjs';

const RELAXED_FLAG = '--experimental-wasm-relaxed-simd';
const relaxedHere = process.execArgv.includes(RELAXED_FLAG);
const QUICK = { warmup: 1, samples: 3, min_sample_ms: 0.2, max_total_ms: 2000 };

let m;
let engine;
let single;
before(async () => {
  m = await loadPerflab(BUILDS[0]);
  const cap = m.engineLimits().max_threads_cap;
  engine = await loadNodeEngine({ cap, threads: 2 });
  installEngine(m, engine);
});
after(() => {
  engine?.dispose();
  single?.dispose();
});

test('the thread cap is core’s and needs no engine', () => {
  const { max_threads_cap } = m.engineLimits();
  assert.ok(Number.isInteger(max_threads_cap) && max_threads_cap >= 2);
});

test('engineFacts: the engine’s flavours, threads and why, with the cap', () => {
  const facts = m.engineFacts();
  assert.deepEqual(facts.flavours, relaxedHere ? ['fma', 'simd'] : ['simd']);
  assert.equal(facts.max_threads, 2);
  assert.equal(facts.shared_memory, true);
  assert.match(facts.why, /2 threads/);
  assert.equal(facts.max_threads_cap, m.engineLimits().max_threads_cap);
});

const flavours = () => m.engineFacts().flavours;

for (const [n, threads] of [[64, 1], [130, 2], [37, 2]]) {
  test(`matmul N=${n} on ${threads} thread(s): every flavour verified against core’s naive matmul`, () => {
    for (const flavour of flavours()) {
      const row = m.measureParallelMatmul(flavour, threads, n, QUICK);
      assert.equal(row.kernel, 'matmul');
      assert.equal(row.flavour, flavour);
      assert.equal(row.threads, threads);
      assert.equal(row.n, n);
      assert.equal(row.flops, 2 * n ** 3);
      // FMA rounds once per multiply-add: last-bit differences, far inside core's 1e-4.
      assert.ok(row.max_error >= 0 && row.max_error <= 1e-4, `${flavour}: error ${row.max_error}`);
      assert.ok(row.stats.median_ms > 0 && row.gflops_per_s > 0, JSON.stringify(row));
    }
  });
}

test('GELU on 1 and 2 threads: every flavour within core’s reference tolerance', () => {
  for (const flavour of flavours()) {
    for (const threads of [1, 2]) {
      const row = m.measureParallelGelu(flavour, threads, 100003, QUICK);
      assert.equal(row.kernel, 'gelu');
      assert.equal(row.threads, threads);
      assert.equal(row.n, 100003);
      assert.ok(row.max_error >= 0 && row.max_error <= 1, `${flavour} ${threads}: ${row.max_error}`);
      assert.ok(row.gb_per_s > 0);
    }
  }
});

test('the single link (a page that is not cross-origin isolated) runs one thread, and says why', async () => {
  const other = await loadWasmModule(wasmDir, BUILDS[0].name);
  single = await loadNodeEngine({ cap: other.engineLimits().max_threads_cap, shared: false });
  installEngine(other, single);
  const facts = other.engineFacts();
  assert.equal(facts.max_threads, 1);
  assert.equal(facts.shared_memory, false);
  assert.match(facts.why, /one thread/);
  const row = other.measureParallelMatmul('simd', 1, 48, QUICK);
  assert.ok(row.max_error <= 1e-4);
  assert.throws(() => other.measureParallelMatmul('simd', 2, 48, QUICK), /thread/);
});

test('bad arguments: a sentence naming what is allowed, and the module stays usable', () => {
  assert.throws(() => m.measureParallelMatmul('avx', 1, 64, QUICK), (err) => /flavour/.test(err.message) && /simd/.test(err.message));
  assert.throws(() => m.measureParallelMatmul('simd', 0, 64, QUICK), /threads must be an integer from 1 to/);
  assert.throws(() => m.measureParallelMatmul('simd', 3, 64, QUICK), /thread/);
  assert.throws(() => m.measureParallelMatmul('simd', 1, 0, QUICK), /n/);
  assert.throws(() => m.measureParallelGelu('simd', 1, -4, QUICK), /elements/);
  assert.throws(() => m.analyzeScaling([{ threads: 2, median_ms: 1 }]), /one of them 1/);
  assert.equal(m.measureParallelMatmul('simd', 1, 16, QUICK).n, 16);
});

test('a module whose engine is not loaded says so, and stays usable', async () => {
  const bare = await loadWasmModule(wasmDir, BUILDS[0].name);
  assert.throws(() => bare.measureParallelMatmul('simd', 1, 16, QUICK), /the kernel engine is not loaded/);
  assert.throws(() => bare.engineFacts(), /the kernel engine is not loaded/);
  assert.equal(bare.measureMatmul('packed', 8, QUICK).n, 8);
});

test('analyzeScaling on a measured run: speedup and efficiency from the medians', () => {
  const rows = [1, 2].map((threads) => m.measureParallelMatmul('simd', threads, 96, QUICK));
  const analysis = m.analyzeScaling(rows.map((r) => ({ threads: r.threads, median_ms: r.stats.median_ms })));
  assert.equal(analysis.rows.length, 2);
  const speedup = rows[0].stats.median_ms / rows[1].stats.median_ms;
  assert.ok(Math.abs(analysis.rows[1].speedup - speedup) < 1e-9 * speedup);
  assert.ok(Math.abs(analysis.rows[1].efficiency - speedup / 2) < 1e-9 * speedup);
});

test(`a Node started with ${RELAXED_FLAG} measures the fma flavour too`, { skip: relaxedHere && 'this process has relaxed SIMD: the tests above ran the fma flavour' }, () => {
  const env = { ...process.env, PERFLAB_WASM_DIR: wasmDir };
  delete env.NODE_TEST_CONTEXT; // the child reports for itself, not to this runner
  const child = spawnSync(process.execPath, [RELAXED_FLAG, '--no-experimental-fetch', '--test-reporter=tap', fileURLToPath(import.meta.url)], {
    env,
    encoding: 'utf8',
    timeout: 180_000,
  });
  const output = `${child.stdout}\n${child.stderr}`;
  assert.equal(child.status, 0, output.slice(-4000));
  assert.match(output, /^# fail 0$/m, output.slice(-4000));
  assert.match(output, /^ok \d+ - engineFacts/m, output.slice(-4000));
});
