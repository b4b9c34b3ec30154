// Protects the pure half of the Benchmarking chapter's suite experiment (benchmarking-suite):
// the controls built from core's lists (a checkbox per zoo model and metric, the pretrained
// model, a batch), the suite and its measureSuitePoint points for normal and quick mode (with
// the held pretrained model as a model file entry whose points carry the held ids), the checks beside the
// checkboxes, the chart rows per metric, how a row prints, the CSV, the points handed back to
// suiteReport, the report's files, and that the spec passes the framework's checks. No DOM,
// no wasm: lists and rows are hand-written in core's shapes.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowOf } from '../../web/src/lab/api.js';
import { toCsv } from '../../web/src/experiments/csv.js';
import { controlDefaults, readControls, specProblems } from '../../web/src/experiments/model.js';
import { cellText, headerText } from '../../web/src/ui/columns.js';
import * as suite from '../../web/src/chapters/benchmarking/suite-data.js';
import { suiteSpec } from '../../web/src/chapters/benchmarking/suite-experiment.js';

const LISTS = {
  models: [{ name: 'mlp_784' }, { name: 'cnn_28' }, { name: 'transformer_block' }],
  metrics: [
    { name: 'latency_ms', label: 'latency', unit: 'ms', lower_is_better: true, timed: true },
    { name: 'parameters', label: 'parameters (counted)', unit: 'parameters', lower_is_better: true, timed: false },
  ],
  // experimentPlan('benchmarking-suite'), full: the suite's own timer.
  plan: { options: null },
  fullPlan: { options: null },
};
// Quick mode's plan, with other numbers than core's so the page shows it reads them.
const QUICK_OPTIONS = { warmup: 1, samples: 2, min_sample_ms: 0.5, max_total_ms: 80 };
const QUICK_LISTS = { ...LISTS, plan: { options: QUICK_OPTIONS } };
const raws = (over = {}) => ({ 'model-0': true, 'model-1': true, 'model-2': true, pretrained: false, made: false, 'metric-0': true, 'metric-1': true, optimized: '', base: '', batch: '0', ...over });
// What suite-trained.js holdPretrained gives the run (prepare): the held ids and the data folder.
const HELD = { file: 'fashion_mlp.perflab', made: [], models: { 'fashion_mlp.perflab': 3 }, test_dataset: 2, data: 'data/fashion-mnist/' };
// ... with the made models ticked too (holdSuiteModels): the made baseline and two made from it.
const HELD_MADE = {
  ...HELD,
  made: [
    { file: 'made/baseline.perflab', name: 'made: fashion_mlp (pretrained)', baseline: true },
    { file: 'made/int8-minmax.perflab', name: 'made: int8, min/max calibration', baseline: false },
    { file: 'made/structured-50.perflab', name: 'made: structured pruning, 50% of hidden units removed', baseline: false },
  ],
  models: { 'fashion_mlp.perflab': 3, 'made/baseline.perflab': 4, 'made/int8-minmax.perflab': 5, 'made/structured-50.perflab': 6 },
};
const valuesOf = (over) => readControls(suite.suiteControls(LISTS), raws(over)).values;

const model = (name, batch) => ({
  name,
  source: 'zoo',
  batch,
  parameters: 235146,
  size_bytes: 940584,
  flops_per_sample: 469504,
  flops_per_batch: 30048256,
  peak_memory_bytes: 131072,
  activation_bytes: 199168,
  latency_ms: 1.5,
  latency_mean_ms: 1.6,
  latency_spread_ms: 0.36,
  latency_spread_kind: 'sample standard deviation',
  throughput_samples_per_s: 42666.7,
  latency: { median_ms: 1.5, samples: 10, warning: 'CV 22% over 10 samples' },
  // core's text of the two sizes (format_bytes), which its report prints too
  peak_memory_text: '128.0 KiB',
  size_text: '918.5 KiB',
  // a zoo model's weights are random: accuracy not measured
  accuracy: null,
  accuracy_text: 'not measured',
});

test('suite: a checkbox per zoo model and metric, all ticked, the pretrained model unticked, an optional optimized/base pair, and a batch', () => {
  const controls = suite.suiteControls(LISTS);
  assert.deepEqual(controls.map((c) => [c.id, c.type, c.label]), [
    ['model-0', 'checkbox', 'mlp_784'],
    ['model-1', 'checkbox', 'cnn_28'],
    ['model-2', 'checkbox', 'transformer_block'],
    ['pretrained', 'checkbox', 'fashion_mlp (pretrained)'],
    ['made', 'checkbox', 'the models made in the Optimization chapter'],
    ['metric-0', 'checkbox', 'metric latency_ms'],
    ['metric-1', 'checkbox', 'metric parameters'],
    ['optimized', 'select', 'Optimized model'],
    ['base', 'select', 'against base'],
    ['batch', 'number', 'Batch'],
  ]);
  assert.deepEqual(controlDefaults(controls), { 'model-0': true, 'model-1': true, 'model-2': true, pretrained: false, made: false, 'metric-0': true, 'metric-1': true, optimized: '', base: '', batch: 0 });
  assert.deepEqual(controls[7].options.map((o) => o.value), ['', 'mlp_784', 'cnn_28', 'transformer_block', 'fashion_mlp (pretrained)']);
  // The pretrained model alone is a model ticked.
  assert.deepEqual(readControls(controls, raws({ 'model-0': false, 'model-1': false, 'model-2': false, pretrained: true })).problems, {});
});

test('suite: an optimized model against its base goes into the suite; a half or wrong pair is refused beside the base', () => {
  const controls = suite.suiteControls(LISTS);
  const problems = (over) => readControls(controls, raws(over)).problems;
  assert.deepEqual(problems({ optimized: 'cnn_28', base: 'mlp_784' }), {});
  assert.deepEqual(problems({ optimized: 'cnn_28' }), { base: 'choose both the optimized model and its base, or none for neither' });
  assert.deepEqual(problems({ optimized: 'cnn_28', base: 'cnn_28' }), { base: 'the optimized model and its base must differ' });
  assert.deepEqual(problems({ optimized: 'cnn_28', base: 'mlp_784', 'model-1': false }), { base: 'tick cnn_28 above to compare it' });
  assert.deepEqual(problems({ optimized: 'mlp_784', base: 'fashion_mlp (pretrained)' }), { base: 'tick fashion_mlp (pretrained) above to compare it' });
  assert.deepEqual(problems({ optimized: 'mlp_784', base: 'fashion_mlp (pretrained)', pretrained: true }), {});
  const [point] = suite.suitePoints(valuesOf({ optimized: 'cnn_28', base: 'mlp_784' }), { quick: false, info: LISTS });
  assert.deepEqual(point.suite.optimizations, [{ base: 'mlp_784', optimized: 'cnn_28' }]);
  assert.equal(suite.suitePoints(valuesOf(), { quick: false, info: LISTS })[0].suite.optimizations, undefined);
});

test('suite: no model or no metric ticked is refused beside the first checkbox of its group', () => {
  const controls = suite.suiteControls(LISTS);
  assert.deepEqual(readControls(controls, raws()).problems, {});
  assert.deepEqual(readControls(controls, raws({ 'model-0': false, 'model-1': false, 'model-2': false })).problems, {
    'model-0': 'tick at least one model',
  });
  assert.deepEqual(readControls(controls, raws({ 'metric-0': false, 'metric-1': false })).problems, {
    'metric-0': 'tick at least one metric',
  });
  assert.match(readControls(controls, raws({ batch: '-1' })).problems.batch, /from 0 to 1024/);
});

test('suite: one measureSuitePoint per ticked model, indexed in the suite; quick mode takes core’s smaller timer', () => {
  const values = valuesOf({ 'model-1': false, 'metric-0': false, batch: '8' });
  const points = suite.suitePoints(values, { quick: false, info: LISTS });
  const expected = { name: suite.SUITE_NAME, models: ['mlp_784', 'transformer_block'], metrics: ['parameters'], batch: 8 };
  assert.deepEqual(points, [
    { suite: expected, index: 0, label: 'mlp_784' },
    { suite: expected, index: 1, label: 'transformer_block' },
  ]);
  const quick = suite.suitePoints(valuesOf(), { quick: true, info: QUICK_LISTS });
  assert.equal(quick.length, 3);
  assert.deepEqual(quick[0].suite.options, QUICK_OPTIONS);
  assert.notEqual(quick[0].suite.options, QUICK_OPTIONS, 'the suite holds its own copy');
  assert.equal(quick[0].suite.batch, undefined, 'batch 0: each spec’s own');
  assert.equal(points[0].suite.options, undefined, 'the full run takes core’s suite timer');
});

test('suite: the pretrained model comes last as a model file entry, its points carry the held ids, its data folder is the suite’s', () => {
  const values = valuesOf({ 'model-1': false, 'model-2': false, pretrained: true, optimized: 'fashion_mlp (pretrained)', base: 'mlp_784' });
  const points = suite.suitePoints(values, { quick: true, info: QUICK_LISTS, prepared: HELD });
  const expected = {
    name: suite.SUITE_NAME,
    models: ['mlp_784', { model_file: 'fashion_mlp.perflab', name: 'fashion_mlp (pretrained)' }],
    metrics: ['latency_ms', 'parameters'],
    optimizations: [{ base: 'mlp_784', optimized: 'fashion_mlp (pretrained)' }],
    options: { ...QUICK_OPTIONS, data: 'data/fashion-mnist/' },
  };
  assert.deepEqual(points, [
    { suite: expected, index: 0, label: 'mlp_784', models: HELD.models, test_dataset: 2 },
    { suite: expected, index: 1, label: 'fashion_mlp (pretrained)', models: HELD.models, test_dataset: 2 },
  ]);
  // The held ids are arguments of the binding, not fields of a row.
  const row = rowOf('measureSuitePoint', points[1], { kind: 'model', index: 1, model: model('fashion_mlp (pretrained)', 64) }, 'simd');
  assert.deepEqual([row.models, row.test_dataset, row.label], [undefined, undefined, 'fashion_mlp (pretrained)']);
  // Without the pretrained model no ids travel, and a ticked one that is not held is an error.
  assert.deepEqual(Object.keys(suite.suitePoints(valuesOf(), { info: LISTS })[0]).sort(), ['index', 'label', 'suite']);
  assert.throws(() => suite.suitePoints(values, { info: LISTS }), /the pretrained model is ticked but not held in the lab/);
});

test('suite: rows keep the index and label; charts, table, CSV and the report points read core’s fields', () => {
  const points = suite.suitePoints(valuesOf(), { quick: true, info: QUICK_LISTS });
  const rows = points.map((p, i) => rowOf('measureSuitePoint', p, { kind: 'model', index: i, model: model(p.label, 64) }, 'simd'));
  assert.equal(rows[0].suite, undefined, 'the suite is an argument, not a row field');
  assert.deepEqual(suite.metricRows(rows, 'latency_ms')[1], { model: 'cnn_28', value: 1.5 });
  assert.deepEqual(suite.reportPoints(rows)[2], { kind: 'model', index: 2, model: rows[2].model });
  const cells = Object.fromEntries(suite.SUITE_COLUMNS.map((c) => [headerText(c), cellText(c, rows[0])]));
  assert.deepEqual(cells, {
    model: 'mlp_784',
    batch: '64',
    'latency (median) (ms)': '1.50',
    'latency mean ± spread (ms)': '1.60 ± 0.360',
    'throughput (samples/s)': '42,667',
    'peak memory': '128.0 KiB',
    parameters: '235,146',
    size: '918.5 KiB',
    'FLOPs per sample': '469,504',
    accuracy: 'not measured',
    'timer warning': 'CV 22% over 10 samples',
  });
  const lines = toCsv(rows, suite.SUITE_CSV_COLUMNS).trimEnd().split('\r\n');
  assert.equal(lines.length, 4);
  assert.equal(
    lines[0],
    'build,index,model,batch,latency_ms,latency_mean_ms,latency_spread_ms,latency_spread_kind,throughput_samples_per_s,peak_memory_bytes,activation_bytes,parameters,size_bytes,flops_per_sample,flops_per_batch,accuracy,samples,warning',
  );
  assert.equal(lines[2], 'simd,1,cnn_28,64,1.5,1.6,0.36,sample standard deviation,42666.7,131072,199168,235146,940584,469504,30048256,,10,CV 22% over 10 samples');
});

test('suite: the report’s three files are core’s texts (JSON indented)', () => {
  const report = { json: { kind: 'suite', name: 'x' }, markdown: '# Suite: x\n', csv: 'kind,name\r\n' };
  assert.deepEqual(suite.REPORT_FILES.map((f) => f.filename), ['perflab-suite-report.md', 'perflab-suite-report.json', 'perflab-suite-report.csv']);
  assert.equal(suite.reportText(report, 'markdown'), '# Suite: x\n');
  assert.equal(suite.reportText(report, 'csv'), 'kind,name\r\n');
  assert.deepEqual(JSON.parse(suite.reportText(report, 'json')), report.json);
});

test('suite: the spec for core’s lists passes the framework’s checks, one chart per metric', () => {
  const spec = suiteSpec(LISTS);
  assert.deepEqual(specProblems(spec), []);
  assert.equal(spec.measure.fn, 'measureSuitePoint');
  assert.deepEqual(spec.charts.map((c) => c.name), ['latency_ms', 'parameters']);
  const ctx = { values: valuesOf({ 'metric-1': false }) };
  assert.equal(spec.charts[1].options(ctx).emptyText, 'parameters is not ticked for this suite.');
  assert.deepEqual(spec.charts[1].data([{ label: 'm', model: model('m', 1) }], ctx), []);
  assert.equal(spec.charts[0].data([{ label: 'm', model: model('m', 1) }], ctx).length, 1);
  assert.equal(spec.plan(valuesOf(), { quick: true }).length, 3);
  assert.equal(spec.quickNote, null, 'the full plan has no quick note');
  assert.equal(
    suiteSpec(QUICK_LISTS).quickNote,
    'Quick mode (?quick=1): each model timed with 2 samples of at least 0.5 ms, so the latencies are rough.',
  );
  assert.equal(suiteSpec(QUICK_LISTS).plan(valuesOf(), { quick: true })[0].suite.options.samples, 2);
});

test('suite: the report’s Markdown reads as headings, paragraphs, lists and tables, with bold and code spans', async () => {
  const { markdownBlocks, inlineSpans } = await import('../../web/src/chapters/benchmarking/markdown.js');
  const text = [
    '# Suite: x',
    '',
    '## System',
    '',
    '| | |',
    '|---|---|',
    '| version | perflab |',
    '',
    'Timed values: median',
    'of per-call times.',
    '',
    '- **latency-critical**: mlp_784. `a` b',
    '- **balanced**: none.',
    '| model | value |',
    '|---|---|',
    '| mlp_784 | 1.5 |',
    '| cnn_28 | 2 |',
  ].join('\n');
  assert.deepEqual(markdownBlocks(text), [
    { type: 'heading', level: 1, text: 'Suite: x' },
    { type: 'heading', level: 2, text: 'System' },
    { type: 'table', head: ['', ''], rows: [['version', 'perflab']] },
    { type: 'paragraph', text: 'Timed values: median of per-call times.' },
    { type: 'list', items: ['**latency-critical**: mlp_784. `a` b', '**balanced**: none.'] },
    { type: 'table', head: ['model', 'value'], rows: [['mlp_784', '1.5'], ['cnn_28', '2']] },
  ]);
  assert.deepEqual(inlineSpans('**latency-critical**: mlp_784. `a` b'), [
    { text: 'latency-critical', bold: true },
    { text: ': mlp_784. ' },
    { text: 'a', code: true },
    { text: ' b' },
  ]);
  assert.deepEqual(inlineSpans('plain <b>'), [{ text: 'plain <b>' }]);
});

test('suite: the made models come after the pretrained one, each compared with the made baseline after the student’s pair', () => {
  const values = valuesOf({ 'model-1': false, 'model-2': false, pretrained: true, made: true, optimized: 'fashion_mlp (pretrained)', base: 'mlp_784' });
  const points = suite.suitePoints(values, { quick: false, info: LISTS, prepared: HELD_MADE });
  assert.deepEqual(points.map((p) => p.label), ['mlp_784', 'fashion_mlp (pretrained)', ...HELD_MADE.made.map((m) => m.name)]);
  const [{ suite: s }] = points;
  assert.deepEqual(s.models.slice(2), HELD_MADE.made.map((m) => ({ model_file: m.file, name: m.name })));
  assert.deepEqual(s.optimizations, [
    { base: 'mlp_784', optimized: 'fashion_mlp (pretrained)' },
    { base: 'made: fashion_mlp (pretrained)', optimized: 'made: int8, min/max calibration' },
    { base: 'made: fashion_mlp (pretrained)', optimized: 'made: structured pruning, 50% of hidden units removed' },
  ]);
  assert.deepEqual(s.options, { data: 'data/fashion-mnist/' });
  for (const p of points) assert.deepEqual([p.models, p.test_dataset], [HELD_MADE.models, 2]);
  // The made models alone: a model ticked, no pretrained entry, the data folder still given.
  const alone = suite.suiteOf(valuesOf({ 'model-0': false, 'model-1': false, 'model-2': false, made: true }), LISTS, { ...HELD_MADE, file: null });
  assert.deepEqual(alone.models.map((m) => m.name), HELD_MADE.made.map((m) => m.name));
  assert.equal(alone.options.data, 'data/fashion-mnist/');
  assert.throws(() => suite.suiteOf(valuesOf({ made: true }), LISTS, HELD), /the made models are ticked but not held in the lab/);
});

test('suite: ticking the made models before any is made is refused beside the checkbox; alone they are a model ticked', () => {
  const none = suite.suiteControls(LISTS, { madeCount: () => 0 });
  assert.match(readControls(none, raws({ made: true })).problems.made, /^no model made yet: load or train the baseline in the Optimization chapter/);
  const some = suite.suiteControls(LISTS, { madeCount: () => 3 });
  assert.deepEqual(readControls(some, raws({ made: true })).problems, {});
  assert.deepEqual(readControls(some, raws({ 'model-0': false, 'model-1': false, 'model-2': false, made: true })).problems, {});
});
