// Protects the pure half of the Profiling chapter's model builder: the saved editor text
// (versioned key, anything unreadable ignored, never thrown), the MLP widths and batch
// fields, the profile options under ?quick=1, the spec formatting (it parses back to the
// same spec) and the rows printed from a profile (values and the original's estimates
// side by side, nothing computed).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import {
  BUILDER_STORAGE_KEY,
  DEFAULT_SPEC_TEXT,
  LAYER_COLUMNS,
  MAX_SPEC_CHARS,
  editorHoldsSpec,
  formatSpec,
  layerReferenceRows,
  parseBatch,
  parseWidths,
  profileOptions,
  readSavedSpec,
  saveSpec,
  passesText,
  staleResultsText,
  topOperationBars,
  topOperationColumns,
  totalsRows,
  zooNoteText,
} from '../../web/src/chapters/profiling/builder-data.js';

function memoryStorage(initial = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
  };
}

test('the key is versioned and a saved spec reads back', () => {
  assert.equal(BUILDER_STORAGE_KEY, 'perflab.profiling.builder.v1');
  const storage = memoryStorage();
  assert.equal(saveSpec(storage, '{"name": "x"}'), null);
  assert.deepEqual(JSON.parse(storage.data.get(BUILDER_STORAGE_KEY)), { version: 1, text: '{"name": "x"}' });
  assert.equal(readSavedSpec(storage), '{"name": "x"}');
});

test('an unreadable, old or wrongly shaped saved value is ignored, not thrown', () => {
  const cases = ['not json', '{"version": 2, "text": "x"}', '{"version": 1, "text": 5}', 'null', '[1]', '"text"'];
  for (const raw of cases) assert.equal(readSavedSpec(memoryStorage({ [BUILDER_STORAGE_KEY]: raw })), null, raw);
  assert.equal(readSavedSpec(memoryStorage()), null);
  assert.equal(readSavedSpec({ getItem: () => { throw new Error('blocked'); } }), null);
  const long = JSON.stringify({ version: 1, text: 'x'.repeat(MAX_SPEC_CHARS + 1) });
  assert.equal(readSavedSpec(memoryStorage({ [BUILDER_STORAGE_KEY]: long })), null);
});

test('saving says why when it cannot', () => {
  assert.equal(
    saveSpec(memoryStorage(), 'x'.repeat(MAX_SPEC_CHARS + 1)),
    `the model spec is ${MAX_SPEC_CHARS + 1} characters; at most ${MAX_SPEC_CHARS} are saved`,
  );
  const full = { setItem: () => { throw new Error('QuotaExceededError'); } };
  assert.equal(saveSpec(full, '{}'), 'your model spec could not be saved in this browser: QuotaExceededError');
});

test('the default spec is valid JSON with an input and layers', () => {
  const spec = JSON.parse(DEFAULT_SPEC_TEXT);
  assert.deepEqual(spec.input, [64, 784]);
  assert.equal(spec.layers.length, 3);
});

test('MLP widths parse from commas or spaces and say what is wrong', () => {
  assert.deepEqual(parseWidths('784, 256 128;10'), { widths: [784, 256, 128, 10] });
  assert.deepEqual(parseWidths('784'), {
    problem: 'Layer widths: enter at least an input and an output width, e.g. 784, 256, 10; got "784"',
  });
  assert.deepEqual(parseWidths('784, 0, 10'), { problem: 'Layer widths: each width must be an integer from 1 to 65536, got "0"' });
  assert.deepEqual(parseWidths('784, 2.5, 10'), { problem: 'Layer widths: each width must be an integer from 1 to 65536, got "2.5"' });
});

test('the batch field is blank for the spec’s batch or an integer 1..4096', () => {
  assert.deepEqual(parseBatch(''), { batch: null });
  assert.deepEqual(parseBatch(' 32 '), { batch: 32 });
  assert.deepEqual(parseBatch('0'), { problem: 'Batch must be empty (the spec\'s batch) or an integer from 1 to 4096, got "0"' });
});

test('profile options are core’s defaults, small budgets under quick, and carry the batch', () => {
  assert.deepEqual(profileOptions(), {});
  assert.deepEqual(profileOptions({ batch: 8 }), { batch: 8 });
  const quick = profileOptions({ quick: true });
  assert.equal(quick.samples, 3);
  assert.ok(quick.max_total_ms <= 200);
});

test('Measure longer scales the profile’s samples by f and its time budget by f², from core’s defaults or quick ones', () => {
  const defaults = { warmup: 1, samples: 10, min_sample_ms: 2, max_total_ms: 500 };  // a profileTimerDefaults answer
  assert.deepEqual(profileOptions({ factor: '1', defaults }), {}, 'normal keeps core’s defaults implicit');
  assert.deepEqual(profileOptions({ factor: '2', defaults, batch: 4 }), { samples: 20, max_total_ms: 2000, batch: 4 });
  const quick = profileOptions({ quick: true });
  const quick4 = profileOptions({ quick: true, factor: '4' });
  assert.equal(quick4.samples, 4 * quick.samples);
  assert.equal(quick4.max_total_ms, 16 * quick.max_total_ms);
  assert.equal(quick4.min_sample_ms, quick.min_sample_ms);
});

test('formatSpec puts one layer per line, type first, and parses back to the same spec', () => {
  // Keys arrive sorted from core's JSON.
  const spec = { input: [64, 784], layers: [{ in: 784, out: 256, type: 'Linear' }, { type: 'ReLU' }], name: 'mlp' };
  const text = formatSpec(spec);
  assert.equal(
    text,
    '{\n  "name": "mlp",\n  "input": [64, 784],\n  "layers": [\n    {"type": "Linear", "in": 784, "out": 256},\n    {"type": "ReLU"}\n  ]\n}\n',
  );
  assert.deepEqual(JSON.parse(text), spec);
});

// A profile as profileModel returns it (fields from core/src/profiler/profiler_json.cpp), trimmed.
const stats = (median_ms) => ({ median_ms, ci95_low_ms: median_ms * 0.9, ci95_high_ms: median_ms * 1.1, p95_ms: median_ms * 1.2, cv: 0.05, samples: 10, warning: '' });
const profile = {
  name: 'linear_128_64',
  input: [32, 128],
  output_shape: [32, 64],
  batch_size: 32,
  parameters: 8256,
  parameter_bytes: 33024,
  flops_per_sample: 16384,
  flops_per_batch: 524288,
  flops_breakdown: { matmul: 524288, bias: 2048, elementwise: 0, total: 526336 },
  activation_bytes: 8192,
  activation_estimate_bytes: 32768,
  peak_bytes: 8192,
  peak_estimate_bytes: 65792,
  gradient_bytes: 33024,
  optimizer_bytes: { sgd: 0, momentum: 33024, adam: 66048, adamw: 66048 },
  latency: stats(0.1),
  gflops_per_s: 5.24,
  samples_per_s: 320000,
  bytes_moved: 57600,
  arithmetic_intensity: 9.1,
  // 57,600 bytes / 2^20 in 0.1 ms; useful 33,024 + 16,384 + 8,192 of held 33,024 + 16,384 + 8,192
  memory_bandwidth_mb_per_s: 549.3164,
  useful_bytes: 57600,
  held_bytes: 57600,
  memory_efficiency: 1,
  bottleneck: {
    original_memory_bandwidth_mb_per_s: 627.4414,
    reason: 'compute-bound: intensity 9.1 FLOP/byte is above the ridge point 5.9 FLOP/byte',
    original_efficiency: 0.0524,
    original_verdict: 'memory',
    machine: { peak_gflops_per_s: 21.7, bandwidth_gb_per_s: 3.7, source: 'probe' },
  },
  layers: [
    { index: 0, label: 'Linear #0', output_shape: [32, 64], parameters: 8256, flops_per_sample: 16384, activation_bytes: 8192, forward_ms: 0.09, gflops_per_s: 5.8 },
  ],
  backward: {
    measured_ms: 0.25,
    forward_ms: 0.1,
    ratio_to_forward: 2.5,
    estimated_ms: 0.2,
    // Core's counts for one Linear 128→64 at batch 32: dW only, as many FLOPs as the forward.
    flops: 524288,
    forward_flops: 524288,
    flops_ratio_to_forward: 1,
    skipped_input_grad_flops: 524288,
    estimated_flops: 1048576,
    training_memory: { step_peak_bytes: 16384, total_bytes: { adam: 148480 } },
    total_flops: 1048576,
    total_ms: 0.35,
    total_gflops_per_s: 2.996,
    total_memory_bytes: 82432,
    estimated_total_flops: 1572864,
    estimated_total_ms: 0.3,
  },
  top_operations: Array.from({ length: 12 }, (_, i) => ({ layer: `L${i}`, pass: i % 2 ? 'backward' : 'forward', total_ms: 12 - i, calls: 3 })),
};

test('totals print core’s values beside the original’s estimates', () => {
  const groups = totalsRows(profile);
  assert.deepEqual(groups.map((g) => g.group), [
    'Size',
    'FLOPs (2 per multiply-accumulate)',
    'Memory at batch 32',
    'Inference on this machine (whole model, caches off)',
    'Training on this machine (whole model, caches kept for the backward)',
  ]);
  const row = (label) => groups.flatMap((g) => g.rows).find((r) => r.label === label);
  assert.equal(row('Parameters').value, '8,256');
  assert.equal(row('Per sample (matmul)').value, '16,384');
  assert.equal(row('Per batch of 32').value, '524,288');
  assert.equal(row('Activations (every layer output)').value, '8.00 KiB (8,192 B)');
  assert.equal(row('Activations (every layer output)').estimate, '32.0 KiB (32,768 B) (input × 2)');
  assert.equal(row('Forward time, inference, per batch of 32').value, '0.100 ms median (95% CI 0.0900 – 0.110 ms)');
  assert.equal(row('Forward time, training, per batch of 32').value, '0.100 ms median');
  assert.equal(row('Backward time, per batch of 32').value, '0.250 ms median = 2.50 × the training forward');
  assert.equal(row('Backward time, per batch of 32').estimate, '0.200 ms (2 × the training forward)');
  assert.equal(row('Backward FLOPs (counted, matmul)').value, '524,288 = 1.00 × forward; the first layer’s dx (524,288) is not computed');
  assert.equal(row('Backward FLOPs (counted, matmul)').estimate, '1,048,576 (2 × forward)');
  assert.equal(row('Throughput').value, '5.24 GFLOP/s (matmul) · 320,000 samples/s');
  assert.equal(row('Bottleneck').estimate, '"memory-bound" (peak MB/s vs 100 × GFLOP/s)');
  assert.equal(row('Timer warning'), undefined, 'no warning row without a warning');
  // The original course's fields, each with its definition and, where it has one, its rule.
  assert.equal(row('Memory efficiency (useful ÷ held at the peak)').value, '100.0%: 56.3 KiB useful of 56.3 KiB held');
  assert.equal(row('Memory bandwidth').value, '549 MB/s (bytes moved ÷ the median forward)');
  assert.equal(row('Memory bandwidth').estimate, '627 MB/s (peak memory ÷ the median), which its rule compares with 100 × GFLOP/s');
  const step = row('Step total, training forward + backward, per batch of 32');
  assert.equal(step.value, '0.350 ms · 1,048,576 FLOPs (3.00 GFLOP/s) · 80.5 KiB');
  assert.equal(step.estimate, '0.300 ms · 1,572,864 FLOPs (3 × the training forward)');
});

test('each timed figure is one quantity with its own label, and the ratio names its forward', () => {
  const rows = totalsRows({ ...profile, backward: { ...profile.backward, rounds: 10 } }).flatMap((g) => g.rows);
  const timed = rows.filter((r) => r.quantity);
  assert.deepEqual(timed.map((r) => r.quantity), ['forward-inference-ms', 'forward-training-ms', 'backward-ms', 'step-total-ms']);
  assert.equal(new Set(timed.map((r) => r.label)).size, timed.length, 'no two timed figures share a label');
  for (const r of timed.filter((t) => /forward/i.test(t.label))) {
    assert.match(r.label, /inference|training/, `"${r.label}" says which forward it is`);
  }
  const training = rows.find((r) => r.quantity === 'forward-training-ms');
  assert.match(training.note, /interleaved with the backward: one forward, then one backward in each of 10 rounds/);
});

test('the interleaved training run’s timer warnings get their own row, once when they agree', () => {
  const warned = (f, b) => totalsRows({ ...profile, backward: { ...profile.backward, forward_latency: { warning: f }, latency: { warning: b } } })
    .flatMap((g) => g.rows)
    .find((r) => r.label === 'Timer warning (training run)');
  assert.equal(warned('', ''), undefined);
  assert.equal(warned('budget', 'budget').value, 'budget');
  assert.equal(warned('', 'CV 12%').value, 'backward: CV 12%');
  assert.equal(warned('few', 'CV 12%').value, 'training forward: few · backward: CV 12%');
});

test('the bottleneck names the probe it was judged against', () => {
  const judged = { reason: 'memory-bound: intensity 9.1 FLOP/byte is below the ridge point 12 FLOP/byte', probeTime: '03:12:05', probeAt: '1700000000000' };
  const bottleneck = totalsRows(profile, judged).flatMap((g) => g.rows).find((r) => r.label === 'Bottleneck');
  assert.equal(bottleneck.value, judged.reason);
  assert.equal(bottleneck.probeAt, '1700000000000');
  assert.match(bottleneck.note, /judged by core against the machine probe of 03:12:05/);
});

test('a profile without a backward pass has no backward group', () => {
  assert.equal(totalsRows({ ...profile, backward: null }).length, 4);
});

test('the layer table prints a layer; an untimed layer shows a dash', () => {
  assert.deepEqual(LAYER_COLUMNS.map(headerText), ['#', 'layer', 'output shape', 'parameters', 'FLOPs per sample', 'activation', 'forward alone, per batch (ms)', 'GFLOP/s']);
  assert.deepEqual(LAYER_COLUMNS.map((c) => cellText(c, profile.layers[0])), ['0', 'Linear #0', '[32, 64]', '8,256', '16,384', '8.00 KiB', '0.0900', '5.80']);
  assert.equal(cellText(LAYER_COLUMNS[6], { ...profile.layers[0], forward_ms: null }), '—');
});

test('the top operations’ total says over how many recorded passes it sums', () => {
  const header = (p) => headerText(topOperationColumns(p).find((c) => c.key === 'total_ms'));
  assert.equal(header({ top_operations_passes: 3 }), 'total over 3 recorded passes (ms)');
  assert.equal(header({ top_operations_passes: 1 }), 'total over 1 recorded pass (ms)');
  assert.equal(passesText({}), 'the recorded passes');
});

test('the top-operations chart takes core’s first ten rows in its order', () => {
  const bars = topOperationBars(profile);
  assert.equal(bars.length, 10);
  assert.deepEqual(bars[0], { layer: 'L0', pass: 'forward', total_ms: 12 });
  assert.deepEqual(topOperationBars({}), []);
});

test('the layer reference lists each type with its required and defaulted fields', () => {
  const rows = layerReferenceRows([
    { type: 'Linear', takes: 'in, out, bias [true]', fields: [
      { name: 'in', kind: 'positive integer', default: null },
      { name: 'out', kind: 'positive integer', default: null },
      { name: 'bias', kind: 'true or false', default: 'true' },
    ] },
    { type: 'ReLU', takes: 'no fields besides type', fields: [] },
  ]);
  assert.deepEqual(rows, [
    { type: 'Linear', fields: 'in (positive integer), out (positive integer), bias = true (true or false)' },
    { type: 'ReLU', fields: 'none besides type' },
  ]);
});

test('the zoo note says whether the editor holds the chosen zoo model or another spec', () => {
  const entry = { name: 'mlp_784', description: 'an MNIST MLP', spec: { name: 'mlp_784', input: [64, 784], layers: [{ type: 'Linear', in: 784, out: 10 }] } };
  // The zoo's spec as the editor shows it (other key order and layout) is the same spec.
  assert.ok(editorHoldsSpec(formatSpec(entry.spec), entry.spec));
  assert.ok(editorHoldsSpec('{"layers":[{"out":10,"in":784,"type":"Linear"}],"input":[64,784],"name":"mlp_784"}', entry.spec));
  assert.equal(zooNoteText(entry, formatSpec(entry.spec)), 'In the editor: mlp_784, an MNIST MLP');
  // Once the student edits it, the note no longer says it is in the editor.
  const edited = formatSpec({ ...entry.spec, layers: [{ type: 'Linear', in: 784, out: 32 }] });
  assert.ok(!editorHoldsSpec(edited, entry.spec));
  assert.ok(!editorHoldsSpec('{ not json', entry.spec));
  assert.equal(zooNoteText(entry, edited), 'mlp_784 (not in the editor, which holds another spec; Load into editor replaces it): an MNIST MLP');
  assert.equal(zooNoteText(undefined, edited), '');
});

test('results a failed profile leaves standing are named as the previous profile', () => {
  assert.equal(
    staleResultsText({ name: 'cnn_28', batch_size: 32 }),
    'These results are of the previous profile (cnn_28 at batch 32): the spec in the editor could not be profiled, see the error under it.',
  );
});
