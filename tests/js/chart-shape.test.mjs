// Protects the charts' pure data shaping: wide rows to the long form a stacked or grouped
// bar chart draws, the padded extent of a log axis, and the roofline's two segments
// (bandwidth diagonal up to the ridge, peak line after it), checked by hand.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { logExtent, rooflineReferences, toLong } from '../../web/src/charts/shape.js';

test('toLong makes one row per field, keeping the named fields and scaling the values', () => {
  const rows = [
    { model: 'mlp', memory: { parameter_bytes: 2 * 2 ** 20, gradient_bytes: 2 ** 20 } },
    { model: 'cnn', memory: { parameter_bytes: 2 ** 20, gradient_bytes: 0 } },
  ];
  const long = toLong(rows, {
    keep: ['model'],
    fields: [
      { key: 'memory.parameter_bytes', label: 'parameters' },
      { key: 'memory.gradient_bytes', label: 'gradients' },
    ],
    seriesKey: 'part',
    valueKey: 'mib',
    scale: 2 ** 20,
  });
  assert.deepEqual(long, [
    { model: 'mlp', part: 'parameters', mib: 2 },
    { model: 'mlp', part: 'gradients', mib: 1 },
    { model: 'cnn', part: 'parameters', mib: 1 },
    { model: 'cnn', part: 'gradients', mib: 0 },
  ]);
  assert.deepEqual(toLong([{ a: 3 }], { fields: [{ key: 'a' }] }), [{ series: 'a', value: 3 }]);
});

test('toLong refuses no fields and a scale that is not positive', () => {
  assert.throws(() => toLong([], { fields: [] }), { message: 'toLong needs at least one field' });
  assert.throws(() => toLong([], { fields: [{ key: 'a' }], scale: 0 }), {
    message: 'toLong scale must be a positive number, got 0',
  });
});

test('logExtent pads the positive finite values by a factor', () => {
  assert.deepEqual(logExtent([0.5, 8, 0, -1, NaN, Infinity], 2), [0.25, 16]);
  assert.equal(logExtent([0, -3]), null);
});

test('rooflineReferences draws the bandwidth diagonal to the ridge, then the peak', () => {
  // peak 64 GFLOP/s, 16 GB/s: ridge at 4 FLOP/byte.
  const refs = rooflineReferences({ peak_gflops_per_s: 64, bandwidth_gb_per_s: 16, xDomain: [0.25, 64] });
  assert.deepEqual(refs, [
    { kind: 'bandwidth', x1: 0.25, y1: 4, x2: 4, y2: 64, labelX: 1, labelY: 16, label: 'memory 16 GB/s' },
    { kind: 'peak', x1: 4, y1: 64, x2: 64, y2: 64, label: 'peak 64 GFLOP/s' },
  ]);
});

test('a ridge outside the domain leaves only the line that is inside it', () => {
  const left = rooflineReferences({ peak_gflops_per_s: 10, bandwidth_gb_per_s: 100, xDomain: [1, 8] });
  assert.deepEqual(
    left.map((r) => [r.kind, r.x1, r.x2]),
    [['peak', 1, 8]],
  );
  const right = rooflineReferences({
    peak_gflops_per_s: 1000,
    bandwidth_gb_per_s: 10,
    xDomain: [1, 8],
    bandwidthLabel: 'DRAM',
  });
  assert.deepEqual(
    right.map((r) => [r.kind, r.x1, r.y1, r.x2, r.y2, r.label]),
    [['bandwidth', 1, 10, 8, 80, 'DRAM']],
  );
});

test('rooflineReferences refuses figures that are not positive and an empty domain', () => {
  assert.throws(() => rooflineReferences({ peak_gflops_per_s: 0, bandwidth_gb_per_s: 1, xDomain: [1, 2] }), {
    message: 'peak must be a positive GFLOP/s, got 0',
  });
  assert.throws(() => rooflineReferences({ peak_gflops_per_s: 1, bandwidth_gb_per_s: NaN, xDomain: [1, 2] }), {
    message: 'bandwidth must be a positive GB/s, got NaN',
  });
  assert.throws(() => rooflineReferences({ peak_gflops_per_s: 1, bandwidth_gb_per_s: 1, xDomain: [2, 1] }), {
    message: 'xDomain must be [lo, hi] with 0 < lo < hi, got [2,1]',
  });
});
