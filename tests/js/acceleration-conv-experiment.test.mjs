// The direct-vs-im2col convolution experiment's pure half: the plan is core's sizes × core's
// methods (the direct loops first at each size), the speedup is the direct median over the
// row's at the same size, the sentences agree with the rows' numbers (time and the unfolded
// matrix's bytes against the image's), the table and CSV read core's fields, and the spec
// passes the framework's checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText } from '../../web/src/ui/columns.js';
import { specProblems } from '../../web/src/experiments/model.js';
import * as conv from '../../web/src/chapters/acceleration/conv-data.js';
import { convExperiment } from '../../web/src/chapters/acceleration/conv-experiment.js';

const SMALL = { channels: 1, height: 28, width: 28, filters: 8, kernel: 3, stride: 1, padding: 1 };
const SEVEN = { channels: 3, height: 32, width: 32, filters: 16, kernel: 7, stride: 1, padding: 3 };
// What convMethods and experimentPlan('acceleration-conv') answer (core's list, sizes and
// Timer options), in the shape init hands the plan.
const OPTIONS = { warmup: 1, samples: 7, min_sample_ms: 10, max_total_ms: 3000 };
const QUICK_OPTIONS = { warmup: 1, samples: 3, min_sample_ms: 2, max_total_ms: 300 };
const INFO = { methods: ['im2col', 'direct'], plan: [SMALL, SEVEN, SMALL], quickPlan: [SEVEN], options: OPTIONS, quickOptions: QUICK_OPTIONS };

// A row as measureConv returns it (core's field names), with the point's own fields.
const row = (method, size, shape, median, col = 4 * 9 * 784, input = 4 * 784) => ({
  build: 'simd',
  method,
  size,
  label: conv.shapeName(shape),
  shape,
  flops: 112896,
  input_bytes: input,
  col_bytes: col,
  col_to_input: col / input,
  peak_bytes: method === 'im2col' ? 25088 + col : 25088,
  gflops_per_s: 112896 / (median * 1e6),
  stats: { median_ms: median, cv: 0.01, samples: 7, warning: '' },
});

test('conv: the plan measures every core size by every core method, direct first, with core’s shape', () => {
  const full = conv.convPoints({}, { quick: false, info: INFO });
  assert.equal(full.length, 6);
  assert.deepEqual(full.map((p) => [p.size, p.method]), [
    [0, 'direct'], [0, 'im2col'], [1, 'direct'], [1, 'im2col'], [2, 'direct'], [2, 'im2col'],
  ]);
  assert.deepEqual(full[2].shape, SEVEN);
  assert.equal(full[2].label, '3→16, 7×7 on 32×32');
  assert.deepEqual(full[0].options, OPTIONS);
  assert.notEqual(full[0].options, OPTIONS, 'each point has its own copy');
  const quick = conv.convPoints({}, { quick: true, info: INFO });
  assert.deepEqual(quick.map((p) => [p.size, p.method, p.shape.kernel]), [[0, 'direct', 7], [0, 'im2col', 7]]);
  assert.deepEqual(quick[0].options, QUICK_OPTIONS);
  assert.throws(() => conv.convPoints({}, { quick: true, info: { ...INFO, methods: [] } }), /listed no convolution methods/);
  assert.throws(() => conv.convPoints({}, { quick: true, info: { ...INFO, quickPlan: [] } }), /gave no convolution sizes/);
  assert.throws(() => conv.convPoints({}, { quick: true, info: { ...INFO, quickOptions: undefined } }), /gave no Timer options/);
});

test('conv: speedup against the direct loops of the same size, and sentences that agree with the rows', () => {
  const ctx = {};
  const rows = [
    row('direct', 0, SMALL, 0.5),
    row('im2col', 0, SMALL, 0.2),
    row('direct', 1, SEVEN, 3),
    row('im2col', 1, SEVEN, 4, 4 * 147 * 1024, 4 * 3 * 1024),
  ].map((r) => conv.withSpeedup(r, ctx));
  assert.equal(rows[0].speedup, 1);
  assert.equal(rows[1].speedup, 2.5);
  assert.equal(rows[3].speedup, 0.75);
  // Another run starts afresh: its first im2col row has no direct row yet.
  assert.equal(conv.withSpeedup(row('im2col', 0, SMALL, 0.2), {}).speedup, undefined);

  const { sentences } = conv.convComparison(rows);
  assert.deepEqual(sentences, [
    '1→8, 3×3 on 28×28: im2col + matmul was 2.5× faster than the direct loops (0.200 ms against 0.500 ms); ' +
      'its unfolded matrix took 27.6 KiB, 9× the 3.06 KiB image.',
    '3→16, 7×7 on 32×32: im2col + matmul was 1.33× slower than the direct loops (4.00 ms against 3.00 ms); ' +
      'its unfolded matrix took 588 KiB, 49× the 12.0 KiB image.',
  ]);
  assert.equal(conv.convComparison([rows[0]]), null);

  const cells = conv.TABLE_COLUMNS.map((c) => cellText(c, rows[1]));
  assert.deepEqual(cells, ['1→8, 3×3 on 28×28', 'im2col', '0.200', '2.5×', '0.564', '27.6 KiB', '52.1 KiB', '1.0%', '']);
  assert.equal(cellText(conv.TABLE_COLUMNS[5], rows[0]), 'none');
  const csv = toCsv([rows[1]], conv.CSV_COLUMNS).split('\r\n');
  assert.equal(
    csv[0],
    'build,method,channels,height,width,filters,kernel,stride,padding,flops,input_bytes,col_bytes,col_to_input,peak_bytes,median_ms,speedup,gflops_per_s,cv,samples,warning',
  );
  assert.match(csv[1], /^simd,im2col,1,28,28,8,3,1,1,112896,3136,28224,9,53312,0\.2,2\.5,/);
});

test('conv: the spec passes the framework’s checks', () => {
  assert.deepEqual(specProblems(convExperiment), []);
  assert.equal(convExperiment.pointLabel({ method: 'direct', shape: SMALL }), 'direct on 1→8, 3×3 on 28×28');
});
