// Protects the pure half of the Optimization chapter's sparsity sweep
// (web/src/chapters/optimization/sparsity-data.js) and its spec: one point per density of
// core's plan for the chosen variant and shape, shapes as select values and back, the table's
// cells, and the sentences under Run read from the rows they describe. Rows are hand-written
// in measureSparseLinear's shape; no wasm.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { TABLE_COLUMNS, shapeLabel, shapeOf, shapeValue, sparsityPoints, sparsitySentences } from '../../web/src/chapters/optimization/sparsity-data.js';
import { sparsityExperiment } from '../../web/src/chapters/optimization/sparsity-experiment.js';

const PLAN = { shapes: [{ in: 784, out: 256, batch: 64 }], densities: [0.05, 0.5, 1], options: { warmup: 1, samples: 3, min_sample_ms: 1, max_total_ms: 100 } };
const row = (density, sparse, dense) => ({
  variant: 'batched',
  batch: 64,
  in: 784,
  out: 256,
  density,
  nnz: Math.round(density * 784 * 256),
  csr_bytes: 4 * (2 * Math.round(density * 784 * 256) + 257),
  dense_bytes: 4 * 784 * 256,
  speedup: dense / sparse,
  sparse: { median_ms: sparse },
  dense: { median_ms: dense },
});

test('sparsity: a shape is a select value and back; a value that is not one is refused', () => {
  const s = PLAN.shapes[0];
  assert.equal(shapeValue(s), '784x256@64');
  assert.equal(shapeLabel(s), 'Linear 784→256 at batch 64');
  assert.deepEqual(shapeOf('784x256@64'), s);
  assert.throws(() => shapeOf('big'), /the layer shape "big" is not one of the plan's/);
});

test('sparsity: one point per density of core’s plan, with its options', () => {
  const points = sparsityPoints({ variant: 'naive', shape: '784x256@64' }, { plan: PLAN });
  assert.deepEqual(points.map((p) => p.density), [0.05, 0.5, 1]);
  assert.deepEqual(points[1], { variant: 'naive', batch: 64, in: 784, out: 256, density: 0.5, options: PLAN.options });
  assert.throws(() => sparsityPoints({ variant: 'naive', shape: '784x256@64' }, null), /no plan of the sparsity sweep/);
});

test('sparsity: the table prints each row’s figures', () => {
  const cells = Object.fromEntries(TABLE_COLUMNS.map((c) => [headerText(c), cellText(c, row(0.5, 2, 1))]));
  assert.deepEqual(cells, {
    'density (kept)': '50.0%',
    nonzeros: '100,352',
    'CSR bytes ÷ dense bytes': '1.00',
    'sparse (median) (ms)': '2.00',
    'dense (median) (ms)': '1.00',
    'dense ÷ sparse': '0.500×',
    warning: '',
  });
  // The warning column the hint after a warned run points at names the kernel that warned.
  const warned = { ...row(0.5, 2, 1), dense: { median_ms: 1, warning: 'few ticks' } };
  assert.equal(cellText(TABLE_COLUMNS.at(-1), warned), 'dense: few ticks');
});

test('sparsity: the sentences read the lowest density and the one nearest half from the rows', () => {
  const sentences = sparsitySentences([row(1, 1.2, 1), row(0.05, 0.25, 1), row(0.5, 2, 1)]);
  assert.deepEqual(sentences, [
    'At 5.0% density the batched CSR kernel took 0.250 ms against the dense kernel’s 1.00 ms (dense ÷ sparse 4.00×), reading 0.101× the dense weight bytes.',
    'At 50.0% density the batched CSR kernel took 2.00 ms against the dense kernel’s 1.00 ms (dense ÷ sparse 0.500×), reading 1.00× the dense weight bytes.',
  ]);
  assert.deepEqual(sparsitySentences([]), []);
});

test('sparsity: the spec passes the framework’s checks', () => {
  assert.deepEqual(specProblems(sparsityExperiment), []);
  assert.equal(sparsityExperiment.measure.fn, 'measureSparseLinear');
});
