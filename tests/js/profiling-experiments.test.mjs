// Protects the pure halves of the Profiling chapter's experiments: each spec passes the
// framework's checks with the chapter's ids, each plan shrinks under ?quick=1 (and the
// batch-size plan always holds batch 1 and 32), the points carry what the allow-listed
// sweep function reads, the tables print a sample row as core shapes it, the chart
// reshaping only moves core's numbers, and the CSVs have one line per row.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCsv } from '../../web/src/experiments/csv.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import { specProblems } from '../../web/src/experiments/model.js';
import { API, POINT } from '../../web/src/lab/api.js';
import { planInit, timerOptions, zooControl, zooInit, zooSpecOf } from '../../web/src/chapters/profiling/common.js';
import { PLANS, planCtx, planInfo } from './experiment-plans-fixture.mjs';
import { hasLateOptions, loadOptions } from '../../web/src/experiments/model.js';
import { DEFAULT_HIDDEN, mlpWidths, scalingPoints, withHidden, SCALING_COLUMNS, SCALING_CSV } from '../../web/src/chapters/profiling/scaling-data.js';
import { BATCH_COLUMNS, BATCH_CSV, DEFAULT_BATCHES, batchList, batchPoints, quickNoteText } from '../../web/src/chapters/profiling/batch-data.js';
import { OVERHEAD_COLUMNS, OVERHEAD_CSV, modelsCaption, overheadPoints } from '../../web/src/chapters/profiling/overhead-data.js';
import { ARCHITECTURE_COLUMNS, ARCHITECTURE_CSV, CNN_WIDE_SPEC, architecturePoints, withFamily } from '../../web/src/chapters/profiling/architectures-data.js';
import { ATTENTION_COLUMNS, ATTENTION_CSV, attentionPoints, byteSeries, flopSeries, headsProblem } from '../../web/src/chapters/profiling/attention-data.js';
import { BACKWARD_COLUMNS, BACKWARD_CSV, backwardPoints, ratioSeries } from '../../web/src/chapters/profiling/backward-data.js';
import { MEMORY_COLUMNS, MEMORY_CSV, memoryBars, memoryPoints } from '../../web/src/chapters/profiling/training-memory-data.js';
import { scalingExperiment } from '../../web/src/chapters/profiling/scaling-experiment.js';
import { batchExperiment } from '../../web/src/chapters/profiling/batch-experiment.js';
import { overheadExperiment } from '../../web/src/chapters/profiling/overhead-experiment.js';
import { architecturesExperiment } from '../../web/src/chapters/profiling/architectures-experiment.js';
import { attentionExperiment } from '../../web/src/chapters/profiling/attention-experiment.js';
import { backwardExperiment } from '../../web/src/chapters/profiling/backward-experiment.js';
import { trainingMemoryExperiment } from '../../web/src/chapters/profiling/training-memory-experiment.js';
import { operationsExperiment } from '../../web/src/chapters/profiling/operations-experiment.js';
import { OPERATION_COLUMNS, OPERATION_CSV, operationPoints, withFamily as withOpFamily } from '../../web/src/chapters/profiling/operations-data.js';
import { CSV_COLUMNS as ROOFLINE_CSV } from '../../web/src/chapters/acceleration/roofline-data.js';

const NAMES = ['linear_128_64', 'linear_768_3072', 'linear_1000_500', 'conv7x7_224', 'mlp_784', 'cnn_28', 'transformer_block'];
const info = { zoo: NAMES.map((name) => ({ name, description: name, spec: { name, input: [2, 3], layers: [] } })) };
const stats = (median_ms, warning = '') => ({ median_ms, ci95_low_ms: median_ms * 0.9, ci95_high_ms: median_ms * 1.1, p95_ms: median_ms * 1.5, cv: 0.04, samples: 10, warning });
const csvLines = (rows, columns) => toCsv(rows, columns).split('\r\n').slice(0, -1);
// A plan hook's context: core's plan of `id` (the fixture's) beside the zoo.
const at = (id, quick, extra = {}) => planCtx(id, quick, { ...info, ...extra });
const TIMER_FULL = PLANS['profiling-model-scaling'].full.options;
const TIMER_QUICK = PLANS['profiling-model-scaling'].quick.options;

test('every spec passes the framework’s checks under the contract’s id, with an allow-listed function', () => {
  const specs = {
    'profiling-model-scaling': scalingExperiment,
    'profiling-batch-size': batchExperiment,
    'profiling-overhead': overheadExperiment,
    'profiling-architectures': architecturesExperiment,
    'profiling-attention': attentionExperiment,
    'profiling-forward-backward': backwardExperiment,
    'profiling-training-memory': trainingMemoryExperiment,
    'profiling-operation-efficiency': operationsExperiment,
  };
  for (const [id, spec] of Object.entries(specs)) {
    assert.equal(spec.id, id);
    assert.deepEqual(specProblems(spec), [], id);
    assert.equal(API[spec.measure.fn]?.type, POINT, spec.measure.fn);
    assert.equal(spec.csv.filename, `perflab-${id}.csv`);
  }
});

test('zooSpecOf finds core’s spec or names the zoo', () => {
  assert.equal(zooSpecOf(info, 'mlp_784').name, 'mlp_784');
  assert.throws(() => zooSpecOf(info, 'resnet'), { message: `unknown zoo model "resnet"; the zoo has ${NAMES.join(', ')}` });
  assert.throws(() => zooSpecOf(null, 'mlp_784'), { message: 'the lab worker listed no zoo models, so there is nothing to measure' });
});

test('the model selects list core’s zoo, read once per bridge with the experiments’ init', async () => {
  const asked = [];
  let fail = true;
  const bridge = {
    call: async (kind, payload, { where }) => {
      asked.push([kind, payload, where]);
      if (fail) throw new Error('the lab worker failed to start');
      return info.zoo;
    },
  };
  const control = zooControl();
  assert.equal(hasLateOptions(control), true, 'no zoo names are written in the page');
  await assert.rejects(loadOptions(control, { bridge }), {
    message: 'could not load the choices of Model: the lab worker failed to start',
  });
  fail = false; // a failed request is not kept: the next one asks again
  const options = await loadOptions(control, { bridge });
  assert.deepEqual(options.map((o) => o.value), NAMES);
  assert.deepEqual(options[0], { value: NAMES[0], label: NAMES[0], title: NAMES[0] });
  assert.deepEqual((await zooInit({ bridge })).zoo, info.zoo);
  await loadOptions(zooControl({ id: 'other' }), { bridge });
  assert.deepEqual(asked, [
    ['zooModels', {}, 'profiling-zoo'],
    ['zooModels', {}, 'profiling-zoo'],
  ]);
});

test('model scaling: one MLP per hidden width, the smallest three under quick', () => {
  const values = { hidden: [256, 64, 128, 64, 512], depth: 2, batch: 32 };
  const points = scalingPoints(values, at('profiling-model-scaling', false));
  assert.deepEqual(points.map((p) => p.widths), [mlpWidths(64, 2), mlpWidths(128, 2), mlpWidths(256, 2), mlpWidths(512, 2)]);
  assert.deepEqual(points[0].widths, [784, 64, 64, 10]);
  assert.deepEqual(points[0].options, TIMER_FULL);
  assert.equal(points[0].batch, 32);
  const quick = scalingPoints({ ...values, hidden: [...DEFAULT_HIDDEN] }, at('profiling-model-scaling', true));
  assert.deepEqual(quick.map((p) => p.widths[1]), [64, 128, 256]);
  assert.deepEqual(quick[0].options, TIMER_QUICK);
  assert.notEqual(quick[0].options, quick[1].options, 'each point owns its options');
});

const forwardRow = {
  build: 'simd',
  widths: [784, 64, 64, 10],
  name: 'mlp_784_64_64_10',
  batch_size: 32,
  parameters: 55050,
  flops_per_sample: 109568,
  flops_per_batch: 3506176,
  activation_bytes: 17664,
  peak_bytes: 8192,
  latency: stats(0.5, 'CV 12% over 10 samples'),
  gflops_per_s: 7.01,
  samples_per_s: 64000,
  ms_per_sample: 0.015625,
};

test('model scaling: table, derived hidden width and CSV', () => {
  const row = withHidden(forwardRow);
  assert.equal(row.hidden, 64);
  assert.deepEqual(SCALING_COLUMNS.map(headerText), ['hidden width', 'widths', 'parameters', 'FLOPs per sample', 'median latency (ms)', '95% CI (ms)', 'CV', 'GFLOP/s', 'warning']);
  assert.deepEqual(SCALING_COLUMNS.map((c) => cellText(c, row)), ['64', '784-64-64-10', '55,050', '109,568', '0.500', '0.450 – 0.550', '4.0%', '7.01', 'CV 12% over 10 samples']);
  const lines = csvLines([row], SCALING_CSV);
  assert.equal(lines[0], 'build,widths,name,batch_size,parameters,flops_per_sample,flops_per_batch,activation_bytes,peak_bytes,gflops_per_s,samples_per_s,median_ms,ci95_low_ms,ci95_high_ms,p95_ms,cv,samples,warning');
  assert.equal(lines[1], 'simd,784-64-64-10,mlp_784_64_64_10,32,55050,109568,3506176,17664,8192,7.01,64000,0.5,0.45,0.55,0.75,0.04,10,CV 12% over 10 samples');
});

test('batch size: the quick note names the batches the quick plan runs, from the same rule', () => {
  // The note said "batches 1 to 32" while the plan ran 1, 2, 4 and 32.
  const defaults = batchExperiment.controls.find((c) => c.id === 'batches').default;
  const ran = batchPoints({ model: 'mlp_784', batches: defaults }, at('profiling-batch-size', true)).map((p) => p.batch);
  assert.deepEqual(ran, [1, 2, 4, 32]);
  const quickPlan = PLANS['profiling-batch-size'].quick;
  assert.equal(batchExperiment.quickNote(at('profiling-batch-size', true)), quickNoteText(quickPlan));
  assert.equal(quickNoteText(quickPlan),
    'Quick mode (?quick=1): batches 1, 2, 4 and 32 with the default list (1 and 32 always, then the 2 smallest others up to 32), with small time budgets.');
  assert.doesNotMatch(quickNoteText(quickPlan), /1 to 32/);
  // Core's caps, not the page's: another quick plan, another note and other batches.
  const wider = { ...quickPlan, max_points: 5, max_batch: 64 };
  assert.equal(quickNoteText(wider),
    'Quick mode (?quick=1): batches 1, 2, 4, 8 and 32 with the default list (1 and 32 always, then the 3 smallest others up to 64), with small time budgets.');
  assert.deepEqual(batchPoints({ model: 'mlp_784', batches: defaults }, { quick: true, info: { ...info, plan: wider } }).map((p) => p.batch), [1, 2, 4, 8, 32]);
  assert.equal(batchExperiment.quickNote({ quick: true, info: null }), undefined, 'no plan yet: the generic note');
});

test('batch size: the plan always holds batch 1 and 32, quick or not', () => {
  const { full, quick } = PLANS['profiling-batch-size'];
  assert.deepEqual(batchList([...DEFAULT_BATCHES], full), [1, 2, 4, 8, 16, 32, 64, 128]);
  assert.deepEqual(batchList([4, 64], full), [1, 4, 32, 64]);
  assert.deepEqual(batchList([...DEFAULT_BATCHES], quick), [1, 2, 4, 32]);
  assert.deepEqual(batchList([128], quick), [1, 32]);
  const points = batchPoints({ model: 'mlp_784', batches: [8] }, at('profiling-batch-size', true));
  assert.deepEqual(points.map((p) => p.batch), [1, 8, 32]);
  assert.equal(points[0].spec.name, 'mlp_784');
  assert.deepEqual(points[0].options, TIMER_QUICK);
});

test('batch size: table and CSV carry the fields exercises read', () => {
  const row = { ...forwardRow, name: 'mlp_784' };
  assert.deepEqual(BATCH_COLUMNS.map((c) => cellText(c, row)), ['32', '0.500', '0.450 – 0.550', '4.0%', '0.0156', '64,000', '7.01', '17.3 KiB', '8.00 KiB', 'CV 12% over 10 samples']);
  const [header, line] = csvLines([row], BATCH_CSV);
  assert.match(header, /^build,name,batch_size,parameters,flops_per_sample,flops_per_batch,ms_per_sample,samples_per_s,/);
  assert.match(line, /^simd,mlp_784,32,55050,109568,3506176,0\.015625,64000,/);
});

const overheadRow = {
  build: 'simd',
  name: 'mlp_784',
  layer_calls_per_forward: 5,
  plain_ms: 3.41,
  with_context_ms: 3.5,
  overhead_ms: 0.09,
  overhead_percent: 2.64,
  clock_read_ms: 0.00017,
  plain: stats(3.41),
  with_context: stats(3.5, 'CV 15%'),
};

test('profiling overhead: one point per model, fewer under quick; table and CSV', () => {
  assert.deepEqual(overheadPoints({}, at('profiling-overhead', false)).map((p) => p.spec.name), PLANS['profiling-overhead'].full.models);
  assert.deepEqual(overheadPoints({}, at('profiling-overhead', true)).map((p) => p.spec.name), PLANS['profiling-overhead'].quick.models);
  assert.deepEqual(overheadPoints({}, at('profiling-overhead', true))[0].options, PLANS['profiling-overhead'].quick.options);
  assert.throws(() => overheadPoints({}, { quick: true, info }), { message: 'the lab worker gave no plan of models, so there is nothing to measure' });
  // The caption and the quick note quote core's plans.
  assert.equal(modelsCaption(planInfo('profiling-overhead', false)), 'Models: linear_128_64, mlp_784, cnn_28, transformer_block (quick mode skips the last), each at its zoo batch.');
  assert.equal(overheadExperiment.tableCaption(at('profiling-overhead', true)), modelsCaption(planInfo('profiling-overhead', true)));
  const other = planInfo('profiling-overhead', true);
  other.quickPlan.models = ['mlp_784', 'transformer_block'];
  assert.equal(modelsCaption(other), 'Models: linear_128_64, mlp_784, cnn_28, transformer_block (quick mode skips linear_128_64 and cnn_28), each at its zoo batch.');
  assert.equal(modelsCaption(null), null);
  assert.equal(overheadExperiment.quickNote(at('profiling-overhead', true)), 'Quick mode (?quick=1): three small models with small time budgets.');
  assert.deepEqual(OVERHEAD_COLUMNS.map((c) => cellText(c, overheadRow)), ['mlp_784', '5', '3.41', '3.07 – 3.75', '3.50', '3.15 – 3.85', '0.0900', '2.64%', '0.000170', 'CV 15%']);
  const [header, line] = csvLines([overheadRow], OVERHEAD_CSV);
  assert.equal(header, 'build,name,layer_calls_per_forward,plain_ms,with_context_ms,overhead_ms,overhead_percent,clock_read_ms,plain_ci95_low_ms,plain_ci95_high_ms,with_context_ci95_low_ms,with_context_ci95_high_ms');
  assert.match(line, /^simd,mlp_784,5,3\.41,3\.5,0\.09,2\.64,0\.00017,/);
});

test('architectures: MLP, two CNNs and a transformer at one batch', () => {
  const points = architecturePoints({ batch: 16 }, at('profiling-architectures', true));
  assert.deepEqual(points[0].options, PLANS['profiling-architectures'].quick.options);
  assert.deepEqual(points.map((p) => p.spec.name), ['mlp_784', 'cnn_28', 'cnn_wide', 'transformer_block']);
  assert.equal(points[2].spec, CNN_WIDE_SPEC);
  assert.ok(points.every((p) => p.batch === 16));
  const row = withFamily({ ...forwardRow, name: 'cnn_wide' });
  assert.equal(row.family, 'CNN');
  assert.equal(withFamily({ name: 'other' }).family, 'other');
  assert.equal(cellText(ARCHITECTURE_COLUMNS[1], row), 'CNN');
  const [header, line] = csvLines([row], ARCHITECTURE_CSV);
  assert.match(header, /^build,name,family,batch_size,parameters,/);
  assert.match(line, /^simd,cnn_wide,CNN,32,55050,/);
});

const attentionRow = {
  seq_len: 64,
  projection_flops: 8388608,
  scores_flops: 1048576,
  context_flops: 1048576,
  quadratic_flops: 2097152,
  matmul_flops: 10485760,
  softmax_flops: 98304,
  bias_flops: 32768,
  quadratic_fraction: 0.2,
  weight_bytes: 264192,
  qkv_bytes: 131072,
  score_matrix_bytes: 65536,
  output_bytes: 32768,
  activation_bytes: 229376,
};

test('attention: one count per length, long ones dropped under quick; heads must divide d_model', () => {
  const values = { 'd-model': 128, heads: 4, 'seq-lengths': [2048, 64, 16] };
  assert.deepEqual(attentionPoints(values, at('profiling-attention', false)), [16, 64, 2048].map((seq_len) => ({ d_model: 128, heads: 4, seq_len, batch: 1 })));
  assert.deepEqual(attentionPoints(values, at('profiling-attention', true)).map((p) => p.seq_len), [16, 64]);
  assert.deepEqual(attentionPoints({ ...values, 'seq-lengths': [4096] }, at('profiling-attention', true)).map((p) => p.seq_len), [4096]);
  // Core's cap, not the page's.
  assert.deepEqual(attentionPoints(values, { quick: true, info: { plan: { max_seq_len: 64 } } }).map((p) => p.seq_len), [16, 64]);
  assert.equal(attentionExperiment.quickNote(at('profiling-attention', true)), 'Quick mode (?quick=1): lengths up to 1024. These are counts, so quick mode changes no number.');
  assert.equal(headsProblem(4, values), null);
  assert.equal(headsProblem(3, values), 'Heads must divide d_model (128), got 3');
});

test('attention: charts split core’s counts into linear and quadratic series; table and CSV', () => {
  assert.deepEqual(flopSeries([attentionRow]).map((r) => r.value), [8388608, 2097152]);
  assert.deepEqual(byteSeries([attentionRow]).map((r) => r.value), [264192, 131072, 65536]);
  assert.deepEqual(ATTENTION_COLUMNS.map((c) => cellText(c, attentionRow)), ['64', '8,388,608', '2,097,152', '20.0%', '98,304', '64.0 KiB', '224 KiB', '258 KiB']);
  const [header, line] = csvLines([attentionRow], ATTENTION_CSV);
  assert.equal(header, ATTENTION_CSV.join(','));
  assert.equal(line, '64,8388608,1048576,1048576,2097152,10485760,98304,32768,0.2,264192,131072,65536,32768,229376');
});

const backwardRow = {
  build: 'simd',
  name: 'mlp_784',
  batch_size: 64,
  forward_ms: 16.8,
  measured_ms: 35.3,
  estimated_ms: 33.6,
  ratio_to_forward: 2.1,
  // Core's counts for mlp_784 at batch 64: every dW, dx of Linear #2 and #4 only.
  flops: 34406400,
  forward_flops: 30048256,
  flops_ratio_to_forward: 1.145,
  skipped_input_grad_flops: 25690112,
  estimated_flops: 60096512,
  gflops_per_s: 1.7,
  latency: stats(35.3),
  forward_latency: stats(16.8),
  training_memory: { step_peak_bytes: 1669632 },
};

test('forward vs backward: points, bars beside the 2× rule, table and CSV', () => {
  assert.deepEqual(backwardPoints({}, at('profiling-forward-backward', true)).map((p) => p.spec.name), PLANS['profiling-forward-backward'].quick.models);
  assert.deepEqual(backwardPoints({}, at('profiling-forward-backward', false)).map((p) => p.spec.name), PLANS['profiling-forward-backward'].full.models);
  assert.equal(backwardExperiment.quickNote(at('profiling-forward-backward', true)), 'Quick mode (?quick=1): three small models with small time budgets.');
  assert.deepEqual(ratioSeries([backwardRow]).map((r) => [r.series, r.value]), [
    ['measured backward / forward', 2.1],
    ['counted FLOPs backward / forward', 1.145],
    ['estimate (2)', 2],
  ]);
  assert.deepEqual(BACKWARD_COLUMNS.map((c) => cellText(c, backwardRow)), ['mlp_784', '64', '16.8', '35.3', '2.10 ×', '34,406,400', '1.15 ×', '60,096,512', '1.59 MiB', '']);
  const [header, line] = csvLines([backwardRow], BACKWARD_CSV);
  assert.match(header, /^build,name,batch_size,forward_ms,measured_ms,estimated_ms,ratio_to_forward,flops,forward_flops,flops_ratio_to_forward,skipped_input_grad_flops,estimated_flops,/);
  assert.match(line, /^simd,mlp_784,64,16\.8,35\.3,33\.6,2\.1,34406400,30048256,1\.145,25690112,60096512,1\.7,1669632,/);
});

const memoryRow = {
  build: 'simd',
  name: 'mlp_784',
  inference: { batch_size: 8, activation_bytes: 24896, activation_estimate_bytes: 50176, peak_bytes: 16384 },
  training: {
    parameter_bytes: 1048576,
    gradient_bytes: 1048576,
    step_peak_bytes: 524288,
    optimizer_bytes: { sgd: 0, momentum: 1048576, adam: 2097152, adamw: 2097152 },
    total_bytes: { sgd: 2621440, momentum: 3670016, adam: 4718592, adamw: 4718592 },
  },
};

test('training memory: one point per batch, stacked bars per optimizer in MiB, table and CSV', () => {
  assert.deepEqual(memoryPoints({ model: 'cnn_28', batches: [32, 1, 32] }, { quick: true, info }).map((p) => [p.spec.name, p.batch]), [
    ['cnn_28', 1],
    ['cnn_28', 32],
  ]);
  const bars = memoryBars([memoryRow]);
  assert.equal(bars.length, 16, 'four optimizers × four components');
  assert.deepEqual(bars.filter((b) => b.category === 'Adam · B=8').map((b) => [b.component, b.mib]), [
    ['parameters', 1],
    ['activations (step peak)', 0.5],
    ['gradients', 1],
    ['optimizer state', 2],
  ]);
  assert.equal(bars.find((b) => b.category === 'SGD · B=8' && b.component === 'optimizer state').mib, 0);
  assert.deepEqual(MEMORY_COLUMNS.map((c) => cellText(c, memoryRow)), ['mlp_784', '8', '1.00 MiB', '24.3 KiB', '49.0 KiB', '16.0 KiB', '512 KiB', '1.00 MiB', '2.00 MiB', '2.50 MiB', '4.50 MiB']);
  const [header, line] = csvLines([memoryRow], MEMORY_CSV);
  assert.equal(header, 'build,name,batch_size,parameter_bytes,activation_bytes,activation_estimate_bytes,inference_peak_bytes,step_peak_bytes,gradient_bytes,optimizer_sgd_bytes,optimizer_momentum_bytes,optimizer_adam_bytes,optimizer_adamw_bytes,total_sgd_bytes,total_momentum_bytes,total_adam_bytes,total_adamw_bytes');
  assert.equal(line, 'simd,mlp_784,8,1048576,24896,50176,16384,524288,1048576,0,1048576,2097152,2097152,2621440,3670016,4718592,4718592');
});

const roofs = { peak_gflops_per_s: 21.7, bandwidth_gb_per_s: 3.7, ridge_flops_per_byte: 5.86 };

test('operation efficiency: element-wise, reductions and matmul, each point carrying this machine’s roofs', () => {
  const points = operationPoints({}, planCtx('profiling-operation-efficiency', true, { roofs }));
  const quickPlan = PLANS['profiling-operation-efficiency'].quick;
  assert.deepEqual(points.map((p) => `${p.op}@${p.n}`), [
    ...['add', 'mul', 'gelu', 'sum', 'softmax', 'layernorm'].map((op) => `${op}@${quickPlan.elements[0]}`),
    ...quickPlan.matmul_n.map((n) => `matmul@${n}`),
  ]);
  assert.deepEqual(points[0].options, { ...quickPlan.options, peak_gflops_per_s: 21.7, bandwidth_gb_per_s: 3.7 });
  assert.ok(operationPoints({}, planCtx('profiling-operation-efficiency', false, { roofs })).length > points.length);
  assert.throws(() => operationPoints({}, planCtx('profiling-operation-efficiency', true)), { message: /the machine probe gave no roofs/ });
  assert.throws(() => operationPoints({}, { quick: true, info: { roofs } }), { message: /the lab worker gave no plan of operation sizes/ });
  assert.equal(operationsExperiment.quickNote(planCtx('profiling-operation-efficiency', true)), 'Quick mode (?quick=1): one element-wise size and two matmul sizes with small time budgets.');
});

test('operation efficiency: table and CSV print core’s placement', () => {
  const row = withOpFamily({
    build: 'simd', op: 'add', variant: 'simd', n: 65536, elements: 65536, flops: 65536, bytes: 786432, intensity: 0.0833,
    gflops_per_s: 0.25, gb_per_s: 3.0, ns_per_element: 4, stats: stats(0.26), peak_gflops_per_s: 21.7, bandwidth_gb_per_s: 3.7,
    ridge_flops_per_byte: 5.86, attainable_gflops_per_s: 0.308, fraction_of_attainable: 0.81, bound: 'memory-bound', verdict: 'memory-bound: ...',
  });
  assert.equal(row.family, 'element-wise');
  assert.equal(row.label, 'add 64Ki');
  assert.equal(withOpFamily({ op: 'matmul', n: 64, elements: 4096 }).label, 'matmul N=64');
  assert.deepEqual(OPERATION_COLUMNS.map((c) => cellText(c, row)), ['add', 'element-wise', 'simd', '65,536', '0.0833', '0.260', '0.250', '3.00', '0.308', '81.0%', 'memory-bound', '']);
  const [header, line] = csvLines([row], OPERATION_CSV);
  assert.match(header, /^build,op,family,variant,n,elements,flops,bytes,intensity,gflops_per_s,gb_per_s,ns_per_element,peak_gflops_per_s,/);
  // The Acceleration roofline exports the same columns, less the family, in the same order.
  const names = (columns) => columns.map((c) => (typeof c === 'string' ? c : c.name));
  assert.deepEqual(names(OPERATION_CSV).filter((n) => n !== 'family'), names(ROOFLINE_CSV));
  // The shared operation-row columns (chapters/operation-row.js): core's verdict after the bound.
  assert.match(line, /^simd,add,element-wise,simd,65536,65536,65536,786432,0\.0833,0\.25,3,4,21\.7,3\.7,5\.86,0\.308,0\.81,memory-bound,memory-bound: \.\.\.,0\.26,/);
});

test('the Profiling experiments’ init asks core for both plans of its id (and the zoo when it needs it)', async () => {
  const asked = [];
  const bridge = {
    call: async (kind, payload) => {
      asked.push([kind, payload]);
      if (kind === 'experimentPlan') return PLANS[payload.experiment][payload.quick ? 'quick' : 'full'];
      return info.zoo;
    },
  };
  const got = await planInit('profiling-model-scaling')({ bridge, quick: true });
  assert.deepEqual(got, { plan: PLANS['profiling-model-scaling'].quick, fullPlan: PLANS['profiling-model-scaling'].full, quickPlan: PLANS['profiling-model-scaling'].quick });
  assert.deepEqual(asked.map(([kind, p]) => [kind, p.experiment, p.quick]), [
    ['experimentPlan', 'profiling-model-scaling', false],
    ['experimentPlan', 'profiling-model-scaling', true],
  ]);
  const withZoo = await planInit('profiling-overhead', { zoo: true })({ bridge: { ...bridge }, quick: false });
  assert.deepEqual(withZoo.plan, PLANS['profiling-overhead'].full);
  assert.equal(withZoo.zoo.length, NAMES.length);
  assert.deepEqual(timerOptions(withZoo), PLANS['profiling-overhead'].full.options);
  assert.throws(() => timerOptions({}), { message: 'the lab worker gave no plan of Timer options, so there is nothing to measure' });
  assert.equal(scalingExperiment.quickNote(planCtx('profiling-model-scaling', true)), 'Quick mode (?quick=1): only the 3 smallest widths, with small time budgets.');
});
