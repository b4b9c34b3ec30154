// Closes a sandbox worker's global scope before the student's code runs: removes every API
// that reaches the network, storage or another context (BLOCKED_GLOBALS, BLOCKED_NAVIGATOR),
// locks the worker's own postMessage and onmessage (the runner replies through a private
// MessagePort instead, see sandbox-worker.js), and removes every way to run a string as code
// (eval, Function and the constructors reachable from any function, string timers), which is
// what would let code assemble an `import(` the sandbox refuses to run (sandbox-parse.js
// refusedCode). The browser blocks connections too: the worker runs in an opaque-origin frame
// whose own policy it inherits (sandbox-host.js, tools/csp.mjs); this is the second fence.
// Not for: the lab worker (it runs only the project's code) or the page.

const ReflectApply = Reflect.apply;
const ReflectDeleteProperty = Reflect.deleteProperty;
const ObjectDefineProperty = Object.defineProperty;
const ObjectGetPrototypeOf = Object.getPrototypeOf;
const ObjectHasOwn = Object.hasOwn;

/** Global names removed from the worker (each only if this browser has it). */
export const BLOCKED_GLOBALS = Object.freeze([
  'fetch',
  'fetchLater',
  'XMLHttpRequest',
  'WebSocket',
  'WebSocketStream',
  'EventSource',
  'WebTransport',
  'RTCPeerConnection',
  'webkitRTCPeerConnection',
  'RTCDataChannel',
  'indexedDB',
  'caches',
  'BroadcastChannel',
  'Worker',
  'SharedWorker',
  'importScripts',
  'FontFace', // new FontFace(name, 'url(...)').load() fetches
  'fonts',
  'Notification', // an icon URL is fetched
  'cookieStore',
  'webkitRequestFileSystem',
  'webkitRequestFileSystemSync',
  'webkitResolveLocalFileSystemURL',
  'webkitResolveLocalFileSystemSyncURL',
]);

/** Properties of `navigator` removed (network beacons, storage, cross-context locks). */
export const BLOCKED_NAVIGATOR = Object.freeze(['sendBeacon', 'storage', 'locks', 'serviceWorker']);

function refusal(what) {
  return function refused() {
    throw new TypeError(`${what} is not available to code in the sandbox`);
  };
}

/** Deletes `name` from `target` and every object on its prototype chain. */
function removeEverywhere(target, name) {
  for (let o = target; o !== null; o = ObjectGetPrototypeOf(o)) {
    if (!ObjectHasOwn(o, name)) continue;
    if (!ReflectDeleteProperty(o, name)) {
      try {
        ObjectDefineProperty(o, name, { value: undefined, writable: false, configurable: false });
      } catch {
        // Reported by lockDownSandbox's check below.
      }
    }
  }
}

function defineLocked(target, name, value) {
  removeEverywhere(target, name);
  ObjectDefineProperty(target, name, { value, writable: false, enumerable: false, configurable: false });
}

const reachable = (target, name) => {
  try {
    return name in target && target[name] !== undefined && target[name] !== null;
  } catch {
    return false;
  }
};

/**
 * Closes `global` (the worker's `self`; its realm must be this module's) and returns the
 * names of what is still reachable afterwards: [] when the sandbox is closed. The caller
 * must not run student code otherwise.
 */
export function lockDownSandbox(global) {
  for (const name of BLOCKED_GLOBALS) removeEverywhere(global, name);
  const navigator = global.navigator;
  if (navigator && typeof navigator === 'object') {
    for (const name of BLOCKED_NAVIGATOR) removeEverywhere(navigator, name);
  }

  // The worker's own channel: posting on it or listening to it reaches nobody.
  defineLocked(global, 'postMessage', refusal('postMessage'));
  defineLocked(global, 'onmessage', null);

  // Strings as code.
  const noEval = refusal('eval');
  defineLocked(global, 'eval', noEval);
  const constructors = [
    ['Function', ObjectGetPrototypeOf(function () {})],
    ['AsyncFunction', ObjectGetPrototypeOf(async function () {})],
    ['GeneratorFunction', ObjectGetPrototypeOf(function* () {})],
    ['AsyncGeneratorFunction', ObjectGetPrototypeOf(async function* () {})],
  ];
  const stubs = [];
  for (const [name, prototype] of constructors) {
    const stub = refusal(`${name} (code from a string)`);
    stub.prototype = prototype; // `x instanceof Function` keeps working
    ObjectDefineProperty(prototype, 'constructor', { value: stub, writable: false, enumerable: false, configurable: false });
    stubs.push([prototype, stub]);
  }
  defineLocked(global, 'Function', stubs[0][1]);
  for (const name of ['setTimeout', 'setInterval']) {
    const original = global[name];
    if (typeof original !== 'function') continue;
    defineLocked(global, name, function timer(handler) {
      if (typeof handler !== 'function') {
        throw new TypeError(`${name} takes a function in the sandbox, not a string of code`);
      }
      return ReflectApply(original, global, arguments);
    });
  }

  const left = [];
  for (const name of BLOCKED_GLOBALS) if (reachable(global, name)) left.push(name);
  if (navigator && typeof navigator === 'object') {
    for (const name of BLOCKED_NAVIGATOR) if (reachable(navigator, name)) left.push(`navigator.${name}`);
  }
  if (global.eval !== noEval) left.push('eval');
  for (const [prototype, stub] of stubs) if (prototype.constructor !== stub) left.push(`${stub.name} constructor`);
  if (global.postMessage === undefined || global.onmessage !== null) left.push('postMessage');
  return left;
}
