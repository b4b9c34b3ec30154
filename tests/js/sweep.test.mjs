// Protects the lab worker's sweep runner: only declared point functions (lab/api.js) run,
// each point's named fields reach the call, progress carries every row in order, a cancel
// is seen between points, and an error names the point it happened at. A fake Module and a
// fake request context stand in for the wasm build and the worker.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { API, MAX_SWEEP_POINTS, labelOf } from '../../web/src/lab/api.js';
import { runSweep, sweepProblem } from '../../web/src/lab/sweep.js';

function fakeModule() {
  const calls = [];
  return {
    calls,
    measureMatmul(variant, n, options) {
      calls.push([variant, n, options]);
      if (n < 0) throw new Error(`n must be positive, got ${n}`);
      return { variant, n, flops: 2 * n ** 3, gflops_per_s: n, stats: { median_ms: 1 } };
    },
  };
}

function fakeContext({ cancelAfter = Infinity } = {}) {
  const progress = [];
  let yields = 0;
  return {
    progress: (fraction, detail) => progress.push({ fraction, ...detail }),
    seen: progress,
    throwIfCancelled() {
      if (yields > cancelAfter) throw Object.assign(new Error('cancelled'), { cancelled: true });
    },
    yieldToEvents: async () => {
      yields += 1;
    },
    get yields() {
      return yields;
    },
  };
}

const points = [
  { variant: 'naive', n: 2, options: { samples: 3 } },
  { variant: 'simd', n: 4 },
];

test('runs each point through the allow-listed function and returns rows with the build', async () => {
  const Module = fakeModule();
  const ctx = fakeContext();
  const result = await runSweep([['simd', Module]], 'measureMatmul', points, ctx, {
    yieldToEvents: ctx.yieldToEvents,
  });
  assert.deepEqual(Module.calls, [
    ['naive', 2, { samples: 3 }],
    ['simd', 4, undefined],
  ]);
  assert.equal(result.build, 'simd');
  assert.deepEqual(
    result.rows.map((r) => [r.build, r.variant, r.n, r.flops]),
    [
      ['simd', 'naive', 2, 16],
      ['simd', 'simd', 4, 128],
    ],
  );
  assert.equal(ctx.yields, 2, 'one macrotask before each point, so a cancel can be seen');
});

test('progress starts at zero, then carries each point’s row with done and total', async () => {
  const ctx = fakeContext();
  const result = await runSweep([[undefined, fakeModule()]], 'measureMatmul', points, ctx, {
    yieldToEvents: ctx.yieldToEvents,
  });
  assert.deepEqual(
    ctx.seen.map(({ fraction, done, total, row }) => [fraction, done, total, row?.variant ?? null]),
    [
      [0, 0, 2, null],
      [0.5, 1, 2, 'naive'],
      [1, 2, 2, 'simd'],
    ],
  );
  assert.equal(ctx.seen[2].row, result.rows[1]);
});

test('a cancel seen between points stops the sweep before the next call', async () => {
  const Module = fakeModule();
  const ctx = fakeContext({ cancelAfter: 1 });
  await assert.rejects(runSweep([[undefined, Module]], 'measureMatmul', points, ctx, { yieldToEvents: ctx.yieldToEvents }), {
    message: 'cancelled',
    cancelled: true,
  });
  assert.equal(Module.calls.length, 1);
});

test('an error in a point names the point', async () => {
  const ctx = fakeContext();
  await assert.rejects(
    runSweep([[undefined, fakeModule()]], 'measureMatmul', [{ variant: 'naive', n: -3 }], ctx, {
      yieldToEvents: ctx.yieldToEvents,
    }),
    { message: 'n must be positive, got -3 (measuring naive at N=-3)' },
  );
});

test('undeclared functions, one-shot calls and malformed points are refused before any call', async () => {
  const Module = { ...fakeModule(), exerciseBank: () => [] };
  const ctx = fakeContext();
  await assert.rejects(runSweep([[undefined, Module]], 'exerciseBank', points, ctx), {
    message: 'exerciseBank is a one-shot call, not a sweep point',
  });
  await assert.rejects(runSweep([[undefined, Module]], 'toString', points, ctx), {
    message: `unknown lab function "toString"; declared: ${Object.keys(API).join(', ')}`,
  });
  assert.equal(
    sweepProblem('measureMatmul', { points: [] }),
    'sweep points must be a non-empty array, got an empty array',
  );
  assert.equal(sweepProblem('measureMatmul', {}), 'sweep points must be a non-empty array, got undefined');
  assert.equal(
    sweepProblem('measureMatmul', { points: [{ n: 1 }, 7] }),
    'sweep point #1 must be an object of named arguments, got 7',
  );
  assert.equal(
    sweepProblem('measureMatmul', { points: Array.from({ length: MAX_SWEEP_POINTS + 1 }, () => ({})) }),
    `a sweep may have at most ${MAX_SWEEP_POINTS} points, got ${MAX_SWEEP_POINTS + 1}`,
  );
  assert.equal(
    sweepProblem('measureMatmul', { points, fn: 'measureMatmul' }),
    'measureMatmul takes points, build and builds; got also fn',
  );
  assert.equal(ctx.seen.length, 0, 'no progress before the checks pass');
});

test('labelOf names a point as the declaration does', () => {
  assert.equal(labelOf('measureMatmul', { variant: 'simd', n: 64 }), 'simd at N=64');
  assert.equal(labelOf('nope', {}), null);
});

test('a row keeps the point’s identifying fields and carried arguments, then core’s measurement', async () => {
  const Module = {
    measureMatmulBlocked: (n, tiles) => ({ n, tiles, gflops_per_s: 3 }),
  };
  const point = { n: 64, tiles: { tile_m: 8, tile_n: 8, tile_k: 8 }, options: { samples: 2 }, role: 'yours', label: 'mine' };
  const { rows } = await runSweep([['scalar', Module]], 'measureMatmulBlocked', [point], fakeContext(), { yieldToEvents: async () => {} });
  // tiles and options are arguments the declaration does not carry: only core's echo of the tiles stays.
  assert.deepEqual(rows, [{ build: 'scalar', n: 64, role: 'yours', label: 'mine', tiles: point.tiles, gflops_per_s: 3 }]);
});

test('a read-bandwidth point the lab cannot allocate ends the sweep with the rows so far', async () => {
  const cap = 64 * 1024;
  const calls = [];
  const Module = {
    measureReadBandwidth(bytes, options) {
      calls.push(bytes);
      if (bytes > cap) {
        throw new Error(
          `a read-bandwidth point of ${bytes} B does not fit: the lab's memory cap of 64.0 KiB leaves 64.0 KiB; use a smaller size or free some tensors`,
        );
      }
      if (options?.bad) throw new Error('options.samples must be at least 1, got 0');
      return { bytes, gb_per_s: 10, stats: { median_ms: 1 } };
    },
  };
  const sizes = [16384, 65536, 131072, 262144];
  const ctx = fakeContext();
  const result = await runSweep(
    [['simd', Module]],
    'measureReadBandwidth',
    sizes.map((bytes) => ({ bytes })),
    ctx,
    { yieldToEvents: ctx.yieldToEvents },
  );
  assert.deepEqual(calls, [16384, 65536, 131072], 'nothing is tried after the first point that does not fit');
  assert.deepEqual(
    result.rows.map((r) => r.bytes),
    [16384, 65536],
  );
  assert.deepEqual(result.ended, {
    message:
      "a read-bandwidth point of 131072 B does not fit: the lab's memory cap of 64.0 KiB leaves 64.0 KiB; use a smaller size or free some tensors",
    label: 'read bandwidth over 131072 bytes',
    done: 2,
    total: 4,
  });
  // Any other error still stops the sweep as an error.
  await assert.rejects(
    runSweep([[undefined, Module]], 'measureReadBandwidth', [{ bytes: 4096, options: { bad: true } }], fakeContext()),
    { message: 'options.samples must be at least 1, got 0 (measuring read bandwidth over 4096 bytes)' },
  );
  // Kernels without endsSweep treat an allocation error as an error.
  const matmul = { measureMatmul: () => { throw new Error('cannot allocate 1.0 GiB for a tensor'); } };
  await assert.rejects(runSweep([[undefined, matmul]], 'measureMatmul', [{ variant: 'naive', n: 9 }], fakeContext()), {
    message: 'cannot allocate 1.0 GiB for a tensor (measuring naive at N=9)',
  });
});

test('a point that names its build runs in that build alone, in the order the points give', async () => {
  const simd = fakeModule();
  const scalar = fakeModule();
  const ctx = fakeContext();
  // An A/B across builds: round 1 scalar first, round 2 simd first, one point without a build.
  const planned = [
    { variant: 'packed', n: 8, build: 'scalar', round: 1 },
    { variant: 'packed', n: 8, build: 'simd', round: 1 },
    { variant: 'packed', n: 9, build: 'simd', round: 2 },
    { variant: 'packed', n: 9, build: 'scalar', round: 2 },
    { variant: 'naive', n: 3 },
  ];
  const result = await runSweep([['simd', simd], ['scalar', scalar]], 'measureMatmul', planned, ctx, {
    yieldToEvents: ctx.yieldToEvents,
  });
  assert.deepEqual(simd.calls.map(([v, n]) => `${v}${n}`), ['packed8', 'packed9', 'naive3'], 'no point runs twice');
  assert.deepEqual(scalar.calls.map(([v, n]) => `${v}${n}`), ['packed8', 'packed9']);
  assert.deepEqual(result.rows.map((r) => [r.build, r.round ?? null, r.n]), [
    ['scalar', 1, 8],
    ['simd', 1, 8],
    ['simd', 2, 9],
    ['scalar', 2, 9],
    ['simd', null, 3],
  ]);
  assert.equal(result.build, 'simd + scalar');
  assert.deepEqual(ctx.seen.map((p) => [p.done, p.total]), [[0, 5], [1, 5], [2, 5], [3, 5], [4, 5], [5, 5]]);
  // A cancel between points keeps the rows so far with their builds.
  const stopped = fakeContext({ cancelAfter: 2 });
  await assert.rejects(
    runSweep([['simd', fakeModule()], ['scalar', fakeModule()]], 'measureMatmul', planned, stopped, {
      yieldToEvents: stopped.yieldToEvents,
    }),
    { cancelled: true },
  );
  assert.deepEqual(stopped.seen.filter((p) => p.row).map((p) => p.row.build), ['scalar', 'simd']);
  // An error names the point's build.
  const failing = { measureMatmul: () => { throw new Error('boom'); } };
  await assert.rejects(runSweep([['simd', fakeModule()], ['scalar', failing]], 'measureMatmul', planned.slice(0, 1), fakeContext()), {
    message: 'boom (measuring packed at N=8 in the scalar build)',
  });
  // A build that was not loaded is named, not silently swapped for another.
  await assert.rejects(runSweep([['simd', fakeModule()]], 'measureMatmul', planned.slice(0, 1), fakeContext()), {
    message: 'sweep point packed at N=8 names the scalar build, which was not loaded',
  });
});

test('a point’s build must be a known one, and points naming builds take no `builds`', () => {
  assert.equal(
    sweepProblem('measureMatmul', { points: [{ variant: 'naive', n: 2, build: 'gpu' }] }),
    'sweep point #0 names the unknown build "gpu"; allowed: simd, scalar',
  );
  assert.equal(
    sweepProblem('measureMatmul', { points: [{ variant: 'naive', n: 2, build: 'simd' }], builds: ['simd', 'scalar'] }),
    'a sweep whose points name their build takes no builds',
  );
  assert.equal(sweepProblem('measureMatmul', { points: [{ variant: 'naive', n: 2, build: 'scalar' }], build: 'simd' }), null);
});
