// Protects the lab worker's generic `call` kind: only allow-listed Module functions run,
// the positional arguments reach them unchanged, the return value comes back as is, a
// Module error keeps core's message, and a bad payload names what is allowed. A fake
// Module stands in for the wasm build.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CALL_FUNCTIONS, MAX_CALL_ARGS, callProblem, runCall } from '../../web/src/lab/calls.js';
import { KINDS } from '../../web/src/lab/protocol.js';

function fakeModule() {
  const calls = [];
  return {
    calls,
    zooNames() {
      calls.push(['zooNames']);
      return ['linear_128_64', 'mlp_784'];
    },
    mlpSpec(widths, batch) {
      calls.push(['mlpSpec', widths, batch]);
      return { name: `mlp_${widths.join('_')}`, input: [batch, widths[0]], layers: [] };
    },
    profileModel(spec) {
      calls.push(['profileModel', spec]);
      throw new Error('model spec is not valid JSON: parse error at line 1, column 2');
    },
    measureMatmul() {
      calls.push(['measureMatmul']);
      return {};
    },
  };
}

test('the protocol names the call kind', () => {
  assert.equal(KINDS.call, 'call');
});

test('the allow-list holds the Profiling chapter’s one-shot functions, each with a label', () => {
  for (const fn of ['profileModel', 'zooNames', 'zooModels', 'zooSpec', 'mlpSpec', 'attentionScaling', 'flopCosts']) {
    assert.ok(Object.hasOwn(CALL_FUNCTIONS, fn), fn);
    assert.equal(typeof CALL_FUNCTIONS[fn].label, 'string');
  }
});

test('an allow-listed call gets its positional arguments and returns the value', () => {
  const Module = fakeModule();
  assert.deepEqual(runCall(Module, { fn: 'zooNames' }), ['linear_128_64', 'mlp_784']);
  assert.deepEqual(runCall(Module, { fn: 'mlpSpec', args: [[784, 256, 10], 32], build: 'simd' }), {
    name: 'mlp_784_256_10',
    input: [32, 784],
    layers: [],
  });
  assert.deepEqual(Module.calls, [['zooNames'], ['mlpSpec', [784, 256, 10], 32]]);
});

test('a Module error passes through with core’s message', () => {
  assert.throws(() => runCall(fakeModule(), { fn: 'profileModel', args: ['{'] }), {
    message: 'model spec is not valid JSON: parse error at line 1, column 2',
  });
});

test('a function outside the allow-list is refused, naming the allowed ones, and never runs', () => {
  const Module = fakeModule();
  const allowed = Object.keys(CALL_FUNCTIONS).join(', ');
  assert.throws(() => runCall(Module, { fn: 'measureMatmul', args: [] }), {
    message: `unknown call function "measureMatmul"; allowed: ${allowed}`,
  });
  assert.throws(() => runCall(Module, { fn: 'constructor' }), { message: /^unknown call function "constructor"/ });
  assert.equal(callProblem({}), `unknown call function undefined; allowed: ${allowed}`);
  assert.deepEqual(Module.calls, []);
});

test('args must be an array of at most the allowed count', () => {
  assert.equal(
    callProblem({ fn: 'zooSpec', args: 'mlp_784' }),
    'call args must be an array of positional arguments, got "mlp_784"',
  );
  const many = Array.from({ length: MAX_CALL_ARGS + 1 }, (_, i) => i);
  assert.equal(
    callProblem({ fn: 'zooSpec', args: many }),
    `call args may hold at most ${MAX_CALL_ARGS} arguments, got ${MAX_CALL_ARGS + 1}`,
  );
  assert.equal(callProblem({ fn: 'zooSpec', args: ['mlp_784'] }), null);
});

test('an allow-listed function the build lacks says to rebuild', () => {
  assert.throws(() => runCall({}, { fn: 'flopCosts' }), {
    message: 'the wasm build has no function flopCosts; rebuild wasm/ (needed to list element-wise FLOP costs)',
  });
});
