// Protects the message protocol both sides of the lab worker rely on: the shapes the
// builders produce, what the validators accept and reject, and that any thrown value
// (Error, string, Emscripten's bare number) becomes a plain {message, where, cancelled}.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  KINDS,
  cancelRequest,
  cancelledError,
  errorInfo,
  errorReply,
  makeError,
  progressReply,
  replyProblem,
  request,
  requestProblem,
  resultReply,
} from '../../web/src/lab/protocol.js';

test('request builds {id, kind, payload} with an empty payload by default', () => {
  assert.deepEqual(request(3, KINDS.machineInfo), { id: 3, kind: 'machineInfo', payload: {} });
  assert.deepEqual(request(4, 'sweep', { sizes: [32] }), { id: 4, kind: 'sweep', payload: { sizes: [32] } });
});

test('request rejects ids that are not non-negative integers and empty kinds', () => {
  assert.throws(() => request(-1, 'x'), { message: 'request id must be a non-negative integer, got -1' });
  assert.throws(() => request(1.5, 'x'), { message: 'request id must be a non-negative integer, got 1.5' });
  assert.throws(() => request(1, ''), { message: 'request kind must be a non-empty string, got ""' });
});

test('cancelRequest names its target in the payload', () => {
  assert.deepEqual(cancelRequest(9, 4), { id: 9, kind: 'cancel', payload: { target: 4 } });
  assert.throws(() => cancelRequest(9, 'x'), { message: 'cancel target must be a request id, got x' });
});

test('replies carry their type and progress fractions are clamped to [0, 1]', () => {
  assert.deepEqual(progressReply(1, 0.25, { done: 1 }), { id: 1, type: 'progress', fraction: 0.25, detail: { done: 1 } });
  assert.equal(progressReply(1, 1.5).fraction, 1);
  assert.equal(progressReply(1, -2).fraction, 0);
  assert.equal(progressReply(1, NaN).fraction, 0);
  assert.deepEqual(resultReply(2, [1, 2]), { id: 2, type: 'result', result: [1, 2] });
});

test('errorInfo keeps the message of an Error, a string and a bare number', () => {
  assert.deepEqual(errorInfo(new Error('n = 0 is outside [1, 4096]')), {
    message: 'n = 0 is outside [1, 4096]',
    where: '',
    cancelled: false,
  });
  assert.equal(errorInfo('plain text').message, 'plain text');
  assert.equal(errorInfo(5251384).message, 'unexpected non-Error value thrown: 5251384');
});

test('errorInfo keeps where and cancelled carried by the error, else uses the given where', () => {
  assert.deepEqual(errorInfo(cancelledError('matmul-run')), { message: 'cancelled', where: 'matmul-run', cancelled: true });
  assert.deepEqual(errorInfo(new Error('x'), 'header'), { message: 'x', where: 'header', cancelled: false });
  assert.deepEqual(errorReply(7, makeError('bad', { where: 'grade' })), {
    id: 7,
    type: 'error',
    error: { message: 'bad', where: 'grade', cancelled: false },
  });
});

test('requestProblem accepts well-formed requests and says what is wrong with others', () => {
  assert.equal(requestProblem(request(1, 'machineInfo')), null);
  assert.equal(requestProblem(cancelRequest(2, 1)), null);
  assert.equal(requestProblem(null), 'a request must be an object, got object');
  assert.equal(requestProblem({ id: 'a', kind: 'x', payload: {} }), 'request id must be a non-negative integer, got a');
  assert.equal(requestProblem({ id: 1, kind: 'x', payload: [] }), 'request payload of "x" must be an object');
  assert.equal(requestProblem({ id: 1, kind: 'cancel', payload: {} }), 'cancel payload.target must be a request id');
});

test('replyProblem accepts the three reply types and rejects malformed ones', () => {
  assert.equal(replyProblem(progressReply(1, 0.5)), null);
  assert.equal(replyProblem(resultReply(1, undefined)), null);
  assert.equal(replyProblem(errorReply(1, new Error('x'))), null);
  assert.equal(replyProblem({ id: 1, type: 'progress', fraction: 2 }), 'progress fraction must be a number in [0, 1], got 2');
  assert.equal(replyProblem({ id: 1, type: 'result' }), 'result reply has no result field');
  assert.equal(replyProblem({ id: 1, type: 'error', error: {} }), 'error reply needs error.message (a string)');
  assert.equal(replyProblem({ id: 1, type: 'done' }), 'reply type must be one of progress, result, error, got done');
});
