// The lab worker's module cache (web/src/lab/module-cache.js): a module that aborted (a wasm
// trap or Emscripten's `Aborted()`) is dropped, the next call gets a fresh instance, and the
// error the page shows says so; any other error leaves the module in place. Instances are
// kept per build and module (main, train), and an abort replaces only the module it hit.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { createModuleCache, isModuleAbort } from '../../web/src/lab/module-cache.js';

// A fake Emscripten module per instance: `abort()` behaves as an aborted module does (every
// later call throws too), `add()` works until then.
function fakeFactory() {
  const created = [];
  const instantiate = async (build, module) => {
    let aborted = false;
    const Module = {
      build,
      module,
      instance: created.length,
      add: (a, b) => {
        if (aborted) throw new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.');
        return a + b;
      },
      abort: () => {
        aborted = true;
        throw new WebAssembly.RuntimeError('Aborted(). Build with -s ASSERTIONS=1 for more info.');
      },
      fail: () => {
        throw new Error('n must be between 1 and 4096, got 5000');
      },
    };
    created.push(Module);
    return Module;
  };
  return { created, instantiate };
}

test('an aborted module is replaced by a fresh instance and the error says so', async () => {
  const { created, instantiate } = fakeFactory();
  const cache = createModuleCache(instantiate);
  const first = await cache.load('simd');
  assert.equal(await cache.load('simd'), first, 'one instance per build while it works');
  let reported;
  try {
    first.abort();
  } catch (err) {
    reported = cache.replaceIfAborted(['simd'], err);
  }
  assert.ok(reported instanceof Error);
  assert.match(reported.message, /^Aborted\(\)\. .* — the simd WebAssembly module stopped and has been replaced by a fresh instance; /);
  assert.throws(() => first.add(1, 2), /Aborted/, 'the old instance stays broken');
  const second = await cache.load('simd');
  assert.notEqual(second, first);
  assert.equal(second.add(1, 2), 3);
  assert.equal(created.length, 2);
});

test('an ordinary error keeps the module', async () => {
  const { created, instantiate } = fakeFactory();
  const cache = createModuleCache(instantiate);
  const m = await cache.load('scalar');
  let reported;
  try {
    m.fail();
  } catch (err) {
    reported = cache.replaceIfAborted(['scalar'], err);
  }
  assert.equal(reported.message, 'n must be between 1 and 4096, got 5000');
  assert.equal(await cache.load('scalar'), m);
  assert.equal(created.length, 1);
});

test('an abort wrapped by a sweep (its point named, the abort as cause) is still an abort', () => {
  const trap = new WebAssembly.RuntimeError('memory access out of bounds');
  assert.ok(isModuleAbort(trap));
  assert.ok(isModuleAbort(new Error('memory access out of bounds (measuring naive at N=64)', { cause: trap })));
  assert.ok(isModuleAbort(new Error('Aborted(). Build with -s ASSERTIONS=1 (measuring x)')));
  assert.ok(!isModuleAbort(new Error('n must be at most 4096')));
  assert.ok(!isModuleAbort(undefined));
});

test('only the builds of the aborted call are replaced', async () => {
  const { created, instantiate } = fakeFactory();
  const cache = createModuleCache(instantiate);
  const simd = await cache.load('simd');
  const scalar = await cache.load('scalar');
  cache.replaceIfAborted(['simd'], new WebAssembly.RuntimeError('Aborted()'));
  assert.notEqual(await cache.load('simd'), simd);
  assert.equal(await cache.load('scalar'), scalar);
  assert.equal(created.length, 3);
});

test('a failed load is not cached', async () => {
  let attempts = 0;
  const cache = createModuleCache(async () => {
    attempts += 1;
    if (attempts === 1) throw new Error('network');
    return { ok: true };
  });
  await assert.rejects(cache.load('simd'), /^Error: could not load the simd wasm build: network$/);
  assert.deepEqual(await cache.load('simd'), { ok: true });
});

test('instances are kept per build and module, and an abort replaces only the module it hit', async () => {
  const { created, instantiate } = fakeFactory();
  const cache = createModuleCache(instantiate);
  const main = await cache.load('simd');
  const train = await cache.load('simd', 'train');
  assert.deepEqual([main.module, train.module], ['main', 'train']);
  assert.equal(await cache.load('simd', 'main'), main, 'main is the default module');
  assert.equal(await cache.load('simd', 'train'), train);
  const reported = cache.replaceIfAborted(['simd'], new WebAssembly.RuntimeError('Aborted()'), 'train');
  assert.match(reported.message, /— the simd training WebAssembly module stopped and has been replaced by a fresh instance; the data sets and models it held are gone/);
  assert.notEqual(await cache.load('simd', 'train'), train);
  assert.equal(await cache.load('simd'), main, 'the main module is kept');
  cache.replaceIfAborted(['simd'], new WebAssembly.RuntimeError('Aborted()'));
  assert.notEqual(await cache.load('simd'), main);
  assert.equal(created.length, 4);
});

test('a training module that fails to load says which module of which build', async () => {
  const cache = createModuleCache(async (build, module) => {
    if (module === 'train') throw new Error('404');
    return { build, module };
  });
  await assert.rejects(cache.load('scalar', 'train'), /^Error: could not load the scalar wasm build's training module: 404$/);
  assert.deepEqual(await cache.load('scalar'), { build: 'scalar', module: 'main' });
});
