// The kernel engine in JS: runs core's band kernels (wasm/engine/engine.cpp, compiled by
// clang-16 in an "fma" (relaxed SIMD) and a "simd" flavour) on up to maxThreads threads over
// one WebAssembly.Memory of its own. Thread 0 is the caller (the lab worker, or Node's main
// thread in tests); threads 1..T-1 are pool workers running engine-thread.js, each with its
// own instance of every flavour over the same shared memory. Core owns everything but the
// call: it draws and verifies the inputs and times run() with its Timer.
// Environment-free: the browser's loader (engine-loader.js) and Node's (tools/engine-node.mjs)
// pass in compiled modules and a way to spawn a thread.
// Not for: validating arguments (core checks every call before it reaches the engine; run()
// never throws on what core lets through), timing, or detecting features.

/** EngineKernel's integers (core/include/perflab/kernels/engine.hpp): the index is the value. */
export const ENGINE_KERNELS = Object.freeze(['matmul', 'gelu', 'peak', 'triad']);
/** EngineBuffer's integers. */
export const ENGINE_BUFFERS = Object.freeze(['a', 'b', 'c', 'out']);
/** Every flavour, fastest first; facts() lists those this engine has, in this order. */
export const ENGINE_FLAVOURS = Object.freeze(['fma', 'simd']);

const PAGE_BYTES = 65536;
// The memory's cap: wasm/CMakeLists.txt links the shared modules with --max-memory=1073741824,
// and a shared memory must declare the same maximum its modules import.
export const MAX_MEMORY_PAGES = 16384;
// The memory's layout, fixed at creation so that nothing moves when prepare() grows it:
//   [0, MODULE_BYTES)      the modules' own region (wasm-ld's 64 KiB default stack above its
//                          1 KiB global base; __heap_base must stay below MODULE_BYTES)
//   control block          CONTROL_WORDS int32 words (the job, one generation word per
//                          thread), then one float sink per thread (peak's results)
//   stacks                 STACK_BYTES per thread, one per thread index: instances never share
//                          a stack, whatever the flavour (both flavours' instances of one
//                          thread use its stack, never at once)
//   buffers                a, b, c, out, then each thread's scratch, laid out by prepare()
const MODULE_BYTES = 2 * PAGE_BYTES;
const CONTROL_BYTES = 4096;
export const STACK_BYTES = 64 * 1024;
// 64 bytes: a cache line, so no two buffers (nor two threads' scratch) share one.
const ALIGN_BYTES = 64;

// Control block words. A pool thread t sleeps on its own word GENERATION0 + t, which only a
// job that includes it bumps, so a thread outside a job never reads that job's words while
// the caller is still writing them.
const W = Object.freeze({
  remaining: 0, // pool threads of the current job that have not finished
  kernel: 1, flavour: 2, threads: 3, m: 4, k: 5, n: 6, steps: 7, scalar: 8, // scalar as float32 bits
  a: 9, b: 10, c: 11, out: 12, scratch: 13, scratchStride: 14, sinks: 15,
  quit: 16,
  generation0: 32,
});
const CONTROL_WORDS = 64;
const MAX_THREADS = CONTROL_WORDS - W.generation0;
// Loads of a control word before sleeping on it. Waking a sleeping thread made a 2-thread
// call of a tiny job cost 15 µs in Node 20 (0.5 µs with this spin: measured on 2 cores),
// which is the whole time of a small job; spinning first lets back-to-back calls (the
// Timer's batches) hand over without sleeping. An atomic load costs about 12 ns in V8, so
// this is about 50 µs, what an idle thread burns after each job before it sleeps.
const SPINS = 4000;

// Waits until words[i] is no longer `value`: spins, then sleeps.
function waitWhile(words, i, value) {
  for (let s = 0; s < SPINS; ++s) if (Atomics.load(words, i) !== value) return;
  Atomics.wait(words, i, value);
}

const alignUp = (x, to) => Math.ceil(x / to) * to;

/** Where thread t's stack ends (stacks grow down), for a memory laid out for maxThreads. */
export function stackTop(t) {
  return MODULE_BYTES + CONTROL_BYTES + (t + 1) * STACK_BYTES;
}

/**
 * One thread's instances, one per flavour in `modules`, over `memory`, each with its stack
 * pointer at thread t's own stack. The modules have no start function and no data, so
 * instantiating them runs nothing and writes nothing.
 */
export function instantiateThread(modules, memory, t) {
  const instances = {};
  for (const flavour of ENGINE_FLAVOURS) {
    if (!modules[flavour]) continue;
    const { exports } = new WebAssembly.Instance(modules[flavour], { env: { memory } });
    if (exports.__heap_base.value > MODULE_BYTES) {
      throw new Error(
        `the ${flavour} kernel engine module needs ${exports.__heap_base.value} bytes of its own below the buffers, ` +
          `more than the ${MODULE_BYTES} engine.js leaves it: link it with a smaller stack or raise MODULE_BYTES`,
      );
    }
    exports.__stack_pointer.value = stackTop(t);
    instances[flavour] = exports;
  }
  return instances;
}

/** Views of the control block: int32 words and the same words as float32 (the scalar). */
export function controlViews(memory) {
  return {
    words: new Int32Array(memory.buffer, MODULE_BYTES, CONTROL_WORDS),
    floats: new Float32Array(memory.buffer, MODULE_BYTES, CONTROL_WORDS),
  };
}

/** Thread t's share of the job the control block holds (nothing when t >= its threads). */
export function runBand(instances, { words, floats }, t) {
  const T = words[W.threads];
  if (t >= T) return;
  const x = instances[ENGINE_FLAVOURS[words[W.flavour]]];
  switch (words[W.kernel]) {
    case 0:
      x.matmul_band(words[W.out], words[W.a], words[W.b], words[W.m], words[W.k], words[W.n], t, T,
        words[W.scratch] + t * words[W.scratchStride]);
      break;
    case 1:
      x.gelu_band(words[W.out], words[W.a], words[W.n], t, T);
      break;
    case 2:
      x.peak_band(words[W.steps], floats[W.scalar], words[W.sinks] + 4 * t);
      break;
    case 3:
      x.triad_band(words[W.a], words[W.b], words[W.c], floats[W.scalar], words[W.n], t, T);
      break;
    default:
      break;
  }
}

/**
 * A pool thread's loop (engine-thread.js): sleep on its generation word, run its band of each
 * job, count itself done (the last one wakes thread 0), until dispose() sets quit.
 */
export function threadLoop(instances, memory, t) {
  const view = controlViews(memory);
  const { words } = view;
  const generation = W.generation0 + t;
  let seen = Atomics.load(words, generation);
  for (;;) {
    waitWhile(words, generation, seen);
    seen = Atomics.load(words, generation);
    if (Atomics.load(words, W.quit) !== 0) return;
    runBand(instances, view, t);
    if (Atomics.sub(words, W.remaining, 1) === 1) Atomics.notify(words, W.remaining);
  }
}

/**
 * The engine. modules: {fma?, simd} compiled from the shared link (shared: true) or the single
 * one; maxThreads: threads it may run at once (1 when not shared); spawnThread(index): a
 * Worker-like object (postMessage, terminate, onmessage, onerror) running engine-thread.js;
 * why: one sentence on why these flavours and this many threads (the loader knows the reasons).
 * Pool threads start at ready(threads), not here: a thread starting while its parent blocks in
 * run() may never start (a browser starts a worker from its parent's event loop).
 */
export function createEngine({ modules, shared, maxThreads = 1, spawnThread, why = '' }) {
  if (!modules?.simd) throw new Error('the kernel engine needs at least its simd module');
  const flavours = ENGINE_FLAVOURS.filter((f) => modules[f]);
  const threadCap = shared ? Math.max(1, Math.min(Math.floor(maxThreads), MAX_THREADS)) : 1;
  const buffersBase = alignUp(stackTop(threadCap - 1), ALIGN_BYTES);
  const memory = new WebAssembly.Memory({
    initial: Math.ceil(buffersBase / PAGE_BYTES),
    maximum: MAX_MEMORY_PAGES,
    shared: Boolean(shared),
  });
  const own = instantiateThread(modules, memory, 0);
  let view = controlViews(memory);
  const sinksOffset = MODULE_BYTES + CONTROL_WORDS * 4;
  view.words[W.sinks] = sinksOffset;

  const regions = []; // per ENGINE_BUFFERS index: {offset, floats}
  let scratchRoom = { floats: 0, threads: 0 };
  const pool = []; // pool[t] = {worker, started: Promise} for t >= 1
  let running = 1; // threads whose instances are ready (thread 0 always is)
  let disposed = false;

  const bufferIndex = (buffer) => {
    const i = typeof buffer === 'string' ? ENGINE_BUFFERS.indexOf(buffer) : buffer;
    if (!(i >= 0 && i < ENGINE_BUFFERS.length)) {
      const names = ENGINE_BUFFERS.join(', ');
      throw new Error(`no engine buffer ${buffer}: the buffers are ${names} (0 to ${ENGINE_BUFFERS.length - 1})`);
    }
    return i;
  };
  const region = (buffer, n) => {
    const i = bufferIndex(buffer);
    const r = regions[i] ?? { offset: 0, floats: 0 };
    if (n > r.floats) {
      throw new Error(`buffer ${ENGINE_BUFFERS[i]} holds ${r.floats} floats, not ${n}: prepare() more room first`);
    }
    return r;
  };

  function spawn(t) {
    const worker = spawnThread(t);
    const started = new Promise((resolve, reject) => {
      worker.onmessage = (event) => {
        if (event.data?.ready === t) resolve();
        else if (event.data?.error) reject(new Error(`engine thread ${t} could not start: ${event.data.error}`));
      };
      worker.onerror = (event) => {
        reject(new Error(`engine thread ${t} failed: ${event?.message ?? event?.error?.message ?? 'no reason given'}`));
      };
    });
    worker.postMessage({ memory, modules, index: t });
    return { worker, started };
  }

  return {
    facts() {
      return { flavours: [...flavours], max_threads: threadCap, shared_memory: Boolean(shared), why };
    },

    /** Starts pool threads until `threads` (at most max_threads) can run; resolves when they can. */
    async ready(threads = threadCap) {
      if (disposed) throw new Error('the kernel engine was disposed');
      const want = Math.min(Math.max(1, threads), threadCap);
      for (let t = 1; t < want; ++t) pool[t] ??= spawn(t);
      await Promise.all(pool.slice(1, want).map((p) => p.started));
      running = Math.max(running, want);
    },

    /** Floats of scratch one thread needs for a matmul at this K and N (kernel_bands.hpp's count). */
    scratchFloats: (k, n) => own.simd.scratch_floats(k, n),

    /** Threads that can run now (ready() starts more). */
    readyThreads: () => running,

    prepare(a, b, c, out, scratchPerThread, threads) {
      const T = Math.min(Math.max(1, threads), threadCap);
      let offset = buffersBase;
      const floatsOf = [a, b, c, out];
      for (let i = 0; i < floatsOf.length; ++i) {
        regions[i] = { offset, floats: floatsOf[i] };
        offset = alignUp(offset + 4 * floatsOf[i], ALIGN_BYTES);
      }
      const scratchStride = alignUp(4 * scratchPerThread, ALIGN_BYTES);
      const scratchOffset = offset;
      const end = offset + T * scratchStride;
      const have = memory.buffer.byteLength;
      if (end > have) {
        const pages = Math.ceil((end - have) / PAGE_BYTES);
        try {
          memory.grow(pages);
        } catch {
          throw new Error(
            `the kernel engine cannot hold ${(end / 2 ** 20).toFixed(1)} MiB of buffers: ` +
              `its memory is capped at ${(MAX_MEMORY_PAGES * PAGE_BYTES) / 2 ** 20} MiB`,
          );
        }
        view = controlViews(memory); // an unshared memory's old buffer is detached by grow
      }
      const { words } = view;
      words[W.a] = regions[0].offset;
      words[W.b] = regions[1].offset;
      words[W.c] = regions[2].offset;
      words[W.out] = regions[3].offset;
      words[W.scratch] = scratchOffset;
      words[W.scratchStride] = scratchStride;
      scratchRoom = { floats: scratchPerThread, threads: T };
    },

    write(buffer, src) {
      const { offset } = region(buffer, src.length);
      new Float32Array(memory.buffer, offset, src.length).set(src);
    },

    read(buffer, dst) {
      const { offset } = region(buffer, dst.length);
      dst.set(new Float32Array(memory.buffer, offset, dst.length));
    },

    /**
     * One call of `kernel` (an EngineKernel integer or its name) in `flavour` on `threads`
     * threads over the prepared buffers; returns when every thread has finished. Synchronous:
     * core times it.
     */
    run(kernel, flavour, threads, m, k, n, steps, scalar) {
      const kernelIndex = typeof kernel === 'string' ? ENGINE_KERNELS.indexOf(kernel) : kernel;
      const flavourIndex = ENGINE_FLAVOURS.indexOf(flavour);
      if (!own[flavour]) {
        throw new Error(`this kernel engine has no ${flavour} flavour: it runs ${flavours.join(', ')}`);
      }
      if (threads > running) {
        throw new Error(
          `the kernel engine has ${running} thread(s) ready, the job asks for ${threads}: await ready(${threads}) first`,
        );
      }
      if (kernelIndex === 0 && threads > scratchRoom.threads) {
        throw new Error(`prepare() made scratch for ${scratchRoom.threads} thread(s), the job asks for ${threads}`);
      }
      const { words, floats } = view;
      words[W.kernel] = kernelIndex;
      words[W.flavour] = flavourIndex;
      words[W.threads] = threads;
      words[W.m] = m;
      words[W.k] = k;
      words[W.n] = n;
      words[W.steps] = steps;
      floats[W.scalar] = scalar;
      if (threads > 1) {
        Atomics.store(words, W.remaining, threads - 1);
        for (let t = 1; t < threads; ++t) {
          Atomics.add(words, W.generation0 + t, 1);
          Atomics.notify(words, W.generation0 + t);
        }
      }
      runBand(own, view, 0);
      for (let left = Atomics.load(words, W.remaining); left !== 0; left = Atomics.load(words, W.remaining)) {
        waitWhile(words, W.remaining, left);
      }
    },

    /**
     * Each thread's peak-chain result (thread t at index t) from the peak runs since the last
     * call, which then clears them to NaN: a thread that did not run leaves NaN.
     */
    sinks() {
      const slots = new Float32Array(memory.buffer, sinksOffset, threadCap);
      const values = Array.from(slots);
      slots.fill(Number.NaN);
      return values;
    },

    /** Stops and ends every pool thread; the engine cannot be used after. */
    dispose() {
      if (disposed) return;
      disposed = true;
      const { words } = view;
      if (shared) {
        Atomics.store(words, W.quit, 1);
        for (let t = 1; t < pool.length; ++t) {
          Atomics.add(words, W.generation0 + t, 1);
          Atomics.notify(words, W.generation0 + t);
        }
      }
      for (const p of pool) p?.worker.terminate();
    },
  };
}
