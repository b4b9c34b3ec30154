// One pool thread of the kernel engine (engine.js): receives the engine's memory and compiled
// modules, instantiates each flavour with its own stack, says it is ready, then loops on the
// control block until the engine is disposed. The same file runs as a web module worker (the
// page: engine-loader.js) and as a Node worker_threads worker (tools/engine-node.mjs).
// Not for: anything after start-up but running bands (the loop never returns to the event
// loop, so no message reaches it afterwards).
import { instantiateThread, threadLoop } from './engine.js';

// A web worker has `self`; Node has no `self` and reaches its parent through worker_threads.
// The module name is a variable so that the page's bundler leaves the Node branch alone.
const NODE_WORKER_THREADS = 'node:worker_threads';
const nodePort = globalThis.self ? null : (await import(/* @vite-ignore */ NODE_WORKER_THREADS)).parentPort;
const post = (message) => (nodePort ?? globalThis.self).postMessage(message);

function start({ memory, modules, index }) {
  let instances;
  try {
    instances = instantiateThread(modules, memory, index);
  } catch (err) {
    post({ error: err?.message ?? String(err) });
    return;
  }
  post({ ready: index });
  threadLoop(instances, memory, index);
}

if (nodePort) nodePort.once('message', start);
else globalThis.self.onmessage = (event) => start(event.data);
