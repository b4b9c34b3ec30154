// Protects the pure half of the CLI comparison: which page experiments each kind of
// native report is compared with, how a native row finds the page row of the same kernel
// (same size first, else the kernel at another size, else none), the display ratio's
// direction for GFLOP/s and for ns per element, how a comparison row prints, and the
// chart's points, square frame and diagonal, and the CSV of the comparison rows.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellText } from '../../web/src/ui/columns.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import {
  CSV_COLUMNS,
  PAGE_SOURCES,
  TABLE_COLUMNS,
  chartFrame,
  chartPoints,
  compareRows,
  kernelOf,
  opOf,
  sizeOf,
} from '../../web/src/chapters/acceleration/cli-data.js';

const op = (o, variant, n, extra = {}) => ({ op: o, variant, n, elements: n, gflops_per_s: 1, ...extra });

test('a roofline report is compared with the roofline experiment, a bench with vectorization and GELU', () => {
  assert.deepEqual(PAGE_SOURCES.roofline, ['acceleration-roofline']);
  assert.deepEqual(PAGE_SOURCES.bench, ['acceleration-vectorization', 'acceleration-gelu-fusion']);
});

test('rows are named by op and variant, sized by N for matmul and elements otherwise', () => {
  assert.equal(kernelOf(op('matmul', 'packed', 64)), 'matmul packed');
  assert.equal(kernelOf(op('gelu', 'fused-simd', 1024)), 'gelu fused-simd');
  assert.equal(kernelOf(op('add', 'simd', 1024)), 'add simd');
  assert.equal(kernelOf({ op: 'sum', n: 8 }), 'sum');
  // measureMatmul and measureGelu rows (the page's vectorization and GELU experiments) have no op.
  assert.equal(opOf({ variant: 'simd', n: 64 }), 'matmul');
  assert.equal(opOf({ variant: 'fused', elements: 4096 }), 'gelu');
  assert.equal(sizeOf({ variant: 'fused', elements: 4096 }), 4096);
  assert.equal(sizeOf(op('matmul', 'packed', 64, { elements: 4096 })), 64);
});

test('each native row meets the page row of the same kernel and size, else another size, else none', () => {
  const report = {
    kind: 'roofline',
    rows: [
      op('matmul', 'packed', 64, { gflops_per_s: 20, verdict: 'compute-bound: …' }),
      op('matmul', 'packed', 512, { gflops_per_s: 30 }),
      op('add', 'simd', 4194304, { gflops_per_s: 0.8 }),
      op('softmax', 'fused', 4194304, { gflops_per_s: 2 }),
    ],
  };
  const page = [
    op('matmul', 'packed', 256, { gflops_per_s: 9 }),
    op('matmul', 'packed', 64, { gflops_per_s: 10, verdict: 'page verdict' }),
    op('add', 'simd', 262144, { gflops_per_s: 1.6 }),
  ];
  const rows = compareRows(report, page);
  assert.deepEqual(
    rows.map((r) => [r.kernel, r.native_size, r.page_size, r.page_vs_native]),
    [
      ['matmul packed', 64, 64, 0.5],
      ['matmul packed', 512, 256, 0.3],
      ['add simd', 4194304, 262144, 2],
      ['softmax fused', 4194304, null, null],
    ],
  );
  assert.equal(rows[0].page_verdict, 'page verdict');
  assert.deepEqual(TABLE_COLUMNS.map((c) => cellText(c, rows[0])), [
    'matmul packed',
    'N=64 / N=64',
    '20 GFLOP/s',
    '10 GFLOP/s',
    '0.5×',
    'compute-bound: …',
  ]);
  assert.equal(cellText(TABLE_COLUMNS[1], rows[2]), '4 Mi / 256 Ki');
  assert.equal(cellText(TABLE_COLUMNS[1], rows[3]), '4 Mi / —');
  assert.equal(cellText(TABLE_COLUMNS[3], rows[3]), 'not measured yet');
  assert.equal(cellText(TABLE_COLUMNS[4], rows[3]), '—');
});

test('rows without GFLOP/s compare time per element, the ratio still reading “page is faster” above 1', () => {
  const report = { kind: 'bench', rows: [{ variant: 'fused', elements: 4096, ns_per_element: 2 }] };
  const [row] = compareRows(report, [{ variant: 'fused', elements: 4096, ns_per_element: 4 }]);
  assert.equal(row.metric, 'ns_per_element');
  assert.equal(row.page_vs_native, 0.5);
  assert.equal(cellText(TABLE_COLUMNS[2], row), '2 ns/element');
});

test('the chart has one dot per kernel with both figures, in a square frame with the diagonal', () => {
  const report = {
    kind: 'bench',
    rows: [
      op('matmul', 'packed', 64, { gflops_per_s: 20 }),
      op('matmul', 'naive', 64, { gflops_per_s: 1 }),
      op('matmul', 'simd', 128, { gflops_per_s: 10 }),
      { op: 'gelu', variant: 'fused-simd', elements: 65536, ns_per_element: 0.5 },
    ],
  };
  const page = [
    { variant: 'packed', n: 64, gflops_per_s: 16 },
    { variant: 'naive', n: 64, gflops_per_s: 2 },
    { variant: 'fused-simd', elements: 65536, ns_per_element: 1 },
  ];
  const rows = compareRows(report, page);
  const points = chartPoints(rows, 'gflops_per_s');
  assert.deepEqual(points, [
    { label: 'matmul packed N=64', native_value: 20, page_value: 16, faster: 'native faster' },
    { label: 'matmul naive N=64', native_value: 1, page_value: 2, faster: 'page as fast or faster' },
  ], 'simd has no page figure, so no dot');
  assert.deepEqual(chartPoints(rows, 'ns_per_element'), [
    { label: 'gelu fused-simd 64 Ki', native_value: 0.5, page_value: 1, faster: 'native faster' },
  ]);
  const frame = chartFrame(points, 2);
  assert.deepEqual(frame.domain, [0.5, 40]);
  assert.deepEqual(frame.references, [{ x1: 0.5, y1: 0.5, x2: 40, y2: 40, label: 'page = native', dashed: true }]);
  assert.deepEqual(chartFrame([]), { domain: undefined, references: [] });

  const [header, first, , third] = toCsv(rows, CSV_COLUMNS).split('\r\n');
  assert.equal(header, 'kernel,op,native_size,page_size,metric,native_value,page_value,page_vs_native,native_verdict,page_verdict');
  assert.equal(first, 'matmul packed,matmul,64,64,gflops_per_s,20,16,0.8,,');
  assert.equal(third, 'matmul simd,matmul,128,,gflops_per_s,10,,,,');
});
