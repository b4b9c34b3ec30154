// The one message protocol between the main thread (bridge.js) and the lab worker
// (worker.js): request and reply shapes, built and checked by the helpers below so both
// sides agree on field names. Pure module (no DOM, no Worker), imported by both sides.
// Not for: what each kind computes (that is the worker's handlers table and core/).

/**
 * Request kinds the lab worker answers besides the declared functions: every name in
 * api.js's API is a kind too, its payload the named arguments (a call) or `{points, build?}`
 * / `{points, builds}` (a sweep point), checked by api.js payloadProblem.
 * `cancel` is a control message, never replied to.
 */
export const KINDS = Object.freeze({
  // {build?} -> {build, simd_available, build_info, timer_resolution_ms,
  // cross_origin_isolated, matmul_variants}: the page header's machine facts (main.js).
  machineInfo: 'machineInfo',
  cancel: 'cancel',
});

/** Reply types. */
export const REPLY = Object.freeze({ progress: 'progress', result: 'result', error: 'error' });

/** Builds for the page; 'auto' lets the worker pick with wasm-feature-detect. */
export { BUILDS } from './api.js';

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isId = (v) => Number.isInteger(v) && v >= 0;

/** `{id, kind, payload}`; payload defaults to `{}`. */
export function request(id, kind, payload = {}) {
  if (!isId(id)) throw new TypeError(`request id must be a non-negative integer, got ${id}`);
  if (typeof kind !== 'string' || kind === '') {
    throw new TypeError(`request kind must be a non-empty string, got ${JSON.stringify(kind)}`);
  }
  return { id, kind, payload };
}

/** `{id, kind: 'cancel', payload: {target}}`: asks the worker to stop request `target`. */
export function cancelRequest(id, target) {
  if (!isId(target)) throw new TypeError(`cancel target must be a request id, got ${target}`);
  return request(id, KINDS.cancel, { target });
}

/** `{id, type: 'progress', fraction, detail}`; fraction is clamped to [0, 1]. */
export function progressReply(id, fraction, detail = null) {
  const f = Number.isFinite(fraction) ? Math.min(1, Math.max(0, fraction)) : 0;
  return { id, type: REPLY.progress, fraction: f, detail };
}

/** `{id, type: 'result', result}`. */
export function resultReply(id, result) {
  return { id, type: REPLY.result, result };
}

/**
 * `{id, type: 'error', error: {message, where, cancelled}}` from anything thrown: an Error,
 * a string, or (from Emscripten without exception support) a bare number.
 */
export function errorReply(id, err, where = '') {
  return { id, type: REPLY.error, error: errorInfo(err, where) };
}

/** The plain, cloneable `{message, where, cancelled}` of a thrown value. */
export function errorInfo(err, where = '') {
  let message;
  if (err instanceof Error) message = err.message || err.name;
  else if (isObject(err) && typeof err.message === 'string') message = err.message;
  else if (typeof err === 'string') message = err;
  else message = `unexpected non-Error value thrown: ${String(err)}`;
  const carried = err !== null && typeof err === 'object' ? err : {};
  return { message, where: String(carried.where || where || ''), cancelled: Boolean(carried.cancelled) };
}

/** An Error that carries `where` and `cancelled`, as the bridge's promises reject with. */
export function makeError(message, { where = '', cancelled = false } = {}) {
  const e = new Error(message);
  e.where = where;
  e.cancelled = cancelled;
  return e;
}

/** The Error a cancelled call rejects with. */
export function cancelledError(where = '') {
  return makeError('cancelled', { where, cancelled: true });
}

/** Returns null when `msg` is a well-formed request, else a sentence saying what is wrong. */
export function requestProblem(msg) {
  if (!isObject(msg)) return `a request must be an object, got ${typeof msg}`;
  if (!isId(msg.id)) return `request id must be a non-negative integer, got ${msg.id}`;
  if (typeof msg.kind !== 'string' || msg.kind === '') return 'request kind must be a non-empty string';
  if (!isObject(msg.payload)) return `request payload of "${msg.kind}" must be an object`;
  if (msg.kind === KINDS.cancel && !isId(msg.payload.target)) {
    return 'cancel payload.target must be a request id';
  }
  return null;
}

/** Returns null when `msg` is a well-formed reply, else a sentence saying what is wrong. */
export function replyProblem(msg) {
  if (!isObject(msg)) return `a reply must be an object, got ${typeof msg}`;
  if (!isId(msg.id)) return `reply id must be a non-negative integer, got ${msg.id}`;
  switch (msg.type) {
    case REPLY.progress:
      return typeof msg.fraction === 'number' && msg.fraction >= 0 && msg.fraction <= 1
        ? null
        : `progress fraction must be a number in [0, 1], got ${msg.fraction}`;
    case REPLY.result:
      return 'result' in msg ? null : 'result reply has no result field';
    case REPLY.error:
      return isObject(msg.error) && typeof msg.error.message === 'string'
        ? null
        : 'error reply needs error.message (a string)';
    default:
      return `reply type must be one of ${Object.values(REPLY).join(', ')}, got ${msg.type}`;
  }
}
