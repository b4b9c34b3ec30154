// The pure half of the suite experiment (benchmarking-suite): a suite of zoo models × metrics
// measured point by point by core's measureSuitePoint and reported by core's suiteReport. The
// controls (one checkbox per zoo model and per metric, both lists core's, the pretrained
// fashion_mlp with trained weights, the models made in the Optimization chapter, and a
// batch), the suite and its points, the chart rows per metric, the table and CSV columns, and
// the points handed back for the report. No DOM and no statistic: core measures, ranks and
// reports.

import { formatSig } from '../../ui/format.js';

export const SUITE_ID = 'benchmarking-suite';

export const SUITE_NAME = 'page suite';

/** The pretrained baseline's checkbox, and its name in the suite (the zoo's fashion_mlp, with random weights, keeps its own). */
export const PRETRAINED_ID = 'pretrained';
export const PRETRAINED_NAME = 'fashion_mlp (pretrained)';

/** The checkbox of the models made in the Optimization chapter (optimization/made-models.js). */
export const MADE_ID = 'made';
/** A made model's name in the suite: its name in the Optimization chapter, marked as made there. */
export const madeName = (name) => `made: ${name}`;

const modelId = (i) => `model-${i}`;
const metricId = (i) => `metric-${i}`;

/**
 * The controls for core's lists: a checkbox per zoo model and per metric (all ticked), the
 * pretrained model and the made models (unticked), and the batch. The first checkbox of each
 * group says when none of its group is ticked.
 * @param {{models: {name: string}[], metrics: {name: string, unit: string}[]}} lists
 * @param {{madeCount?: () => number}} [made] how many models the Optimization chapter has made so far
 */
export function suiteControls({ models, metrics }, { madeCount = () => 0 } = {}) {
  const none = (ids, what) => (_, values) => (ids.some((id) => values[id]) ? null : `tick at least one ${what}`);
  const modelIds = [...models.map((_, i) => modelId(i)), PRETRAINED_ID, MADE_ID];
  const pairOptions = [{ value: '', label: 'none' }, ...[...models.map((m) => m.name), PRETRAINED_NAME].map((name) => ({ value: name, label: name }))];
  const metricIds = metrics.map((_, i) => metricId(i));
  return [
    ...models.map((m, i) => ({
      id: modelId(i),
      type: 'checkbox',
      label: m.name,
      default: true,
      ...(i === 0 ? { validate: none(modelIds, 'model') } : {}),
    })),
    // Trained weights (the page build trains it natively): its accuracy is measured on the test
    // split, fetched with it at the first run that ticks it (about 4.5 MB).
    {
      id: PRETRAINED_ID,
      type: 'checkbox',
      label: PRETRAINED_NAME,
      default: false,
      hint: 'The pretrained fashion_mlp has trained weights, so the suite measures its accuracy on Fashion-MNIST’s test split (fetched at the first run that ticks it); the zoo models’ weights are random, so theirs is not measured.',
    },
    // The Optimization chapter's real twins: each made model from its model file, compared with
    // the baseline it was made from (core's optimized-against-base comparison, accuracy retention
    // measured).
    {
      id: MADE_ID,
      type: 'checkbox',
      label: 'the models made in the Optimization chapter',
      default: false,
      validate: (ticked) => (ticked && madeCount() === 0 ? 'no model made yet: load or train the baseline in the Optimization chapter, then quantize, prune or distil it' : null),
      hint: 'Every model you made in the Optimization chapter (its baseline, and the int8, pruned and distilled models made from it), each from its model file: core measures each one’s accuracy on the test split and compares each with the baseline as an optimized model against its base.',
    },
    ...metrics.map((m, i) => ({
      id: metricId(i),
      type: 'checkbox',
      label: `metric ${m.name}`,
      default: true,
      ...(i === 0 ? { validate: none(metricIds, 'metric') } : {}),
    })),
    // The original course's "optimized model against its base": core's ratios and advice for a
    // pair of the ticked models (the made models are compared with their baseline besides).
    { id: 'optimized', type: 'select', label: 'Optimized model', default: '', options: pairOptions },
    {
      id: 'base',
      type: 'select',
      label: 'against base',
      default: '',
      options: pairOptions,
      validate: (base, values) => optimizationProblem(values, models),
      hint: 'Pick an optimized model and its base to add core’s comparison of the two (speedup, memory, size and FLOPs ratios, advice) to the report. Accuracy retention needs both models’ accuracy: of these only the pretrained fashion_mlp has trained weights, so tick the made models for twins whose retention is measured.',
    },
    {
      id: 'batch',
      type: 'number',
      label: 'Batch',
      integer: true,
      min: 0,
      max: 1024,
      default: 0,
      hint: 'Batch 0 runs each model at its spec’s own batch; any other value runs every model at that batch, so latencies compare like for like.',
    },
  ];
}

/** What is wrong with the optimized/base choice, or null (both none is fine). */
export function optimizationProblem(values, models) {
  const { optimized, base } = values;
  if (!optimized && !base) return null;
  if (!optimized || !base) return 'choose both the optimized model and its base, or none for neither';
  if (optimized === base) return 'the optimized model and its base must differ';
  for (const name of [optimized, base]) {
    const i = models.findIndex((m) => m.name === name);
    const ticked = name === PRETRAINED_NAME ? values[PRETRAINED_ID] : i >= 0 && values[modelId(i)];
    if (!ticked) return `tick ${name} above to compare it`;
  }
  return null;
}

/**
 * The suite the controls describe: the ticked models and metrics in core's order, timed with
 * core's plan (experimentPlan): its `options` when it has them (quick mode: a smaller timer for
 * every model, so a suite of the whole zoo takes seconds), else the suite's own timer. The
 * pretrained model, when ticked, comes after the zoo's as a model file entry named by `held`
 * (suite-trained.js holdSuiteModels: {file, made, data}), then the made models, each compared
 * with the made baseline (core's optimizations, after the student's own pair); the test data's
 * folder is options.data.
 * @param {{models: object[], metrics: object[], plan: {options: object|null}}} lists core's lists and plan
 * @param {{file: string|null, made: {file: string, name: string, baseline: boolean}[], data: string}|null} [held]
 *   the held model files, when the pretrained or the made models are ticked
 */
export function suiteOf(values, { models, metrics, plan }, held = null) {
  const suite = {
    name: SUITE_NAME,
    models: models.filter((_, i) => values[modelId(i)]).map((m) => m.name),
    metrics: metrics.filter((_, i) => values[metricId(i)]).map((m) => m.name),
  };
  const optimizations = values.optimized && values.base ? [{ base: values.base, optimized: values.optimized }] : [];
  if (values[PRETRAINED_ID]) {
    if (!held?.file) throw new Error('the pretrained model is ticked but not held in the lab; Run again');
    suite.models.push({ model_file: held.file, name: PRETRAINED_NAME });
  }
  if (values[MADE_ID]) {
    if (!held?.made?.length) throw new Error('the made models are ticked but not held in the lab; Run again');
    const baseline = held.made.find((m) => m.baseline);
    for (const m of held.made) {
      suite.models.push({ model_file: m.file, name: m.name });
      if (baseline && !m.baseline) optimizations.push({ base: baseline.name, optimized: m.name });
    }
  }
  if (values.batch) suite.batch = values.batch;
  if (optimizations.length) suite.optimizations = optimizations;
  if (plan?.options) suite.options = { ...plan.options };
  if (values[PRETRAINED_ID] || values[MADE_ID]) suite.options = { ...suite.options, data: held.data };
  return suite;
}

/** A suite model's name: a zoo name, or a model file entry's name. */
const nameOf = (model) => (typeof model === 'string' ? model : model.name);

/**
 * One measureSuitePoint per ticked model: the point's index is the model's place in
 * suite.models (measure_suite_point's definition); `label` names it in progress and rows.
 * With the pretrained or the made models ticked, every point carries the held ids (ctx.prepared).
 */
export function suitePoints(values, { info, prepared = null } = {}) {
  const suite = suiteOf(values, info, prepared);
  const held = prepared ? { models: prepared.models, test_dataset: prepared.test_dataset } : {};
  return suite.models.map((model, index) => ({ suite, index, label: nameOf(model), ...held }));
}

/** The measured points as suiteReport reads them back ({kind, index, model}). */
export const reportPoints = (rows) => rows.map((r) => ({ kind: r.kind, index: r.index, model: r.model }));

/** One chart's rows: each measured model's value of `metric` (core's field of the same name). */
export function metricRows(rows, metric) {
  // A model without a value (accuracy, not measured for random weights) has no bar.
  return rows.filter((r) => typeof r.model?.[metric] === 'number').map((r) => ({ model: r.label, value: r.model[metric] }));
}

/** Whether the run's controls ticked metric #i. */
export const metricChosen = (values, i) => Boolean(values?.[metricId(i)]);

export const SUITE_COLUMNS = Object.freeze([
  { key: 'label', label: 'model', format: 'text' },
  { key: 'model.batch', label: 'batch', format: 'int' },
  { key: 'model.latency_ms', label: 'latency (median)', unit: 'ms', format: 'sig' },
  {
    label: 'latency mean ± spread',
    unit: 'ms',
    format: (r) => `${formatSig(r.model.latency_mean_ms)} ± ${formatSig(r.model.latency_spread_ms)}`,
  },
  { key: 'model.throughput_samples_per_s', label: 'throughput', unit: 'samples/s', format: 'sig' },
  // Sizes as core writes them (the report beside the table prints the same text).
  { key: 'model.peak_memory_bytes', label: 'peak memory', format: (r) => r.model.peak_memory_text },
  { key: 'model.parameters', label: 'parameters', format: 'int' },
  { key: 'model.size_bytes', label: 'size', format: (r) => r.model.size_text },
  { key: 'model.flops_per_sample', label: 'FLOPs per sample', format: 'int' },
  // Core's text: a percentage (trained weights), or "not measured" (the zoo's random weights).
  { key: 'model.accuracy', label: 'accuracy', format: (r) => r.model.accuracy_text },
  { key: 'model.latency.warning', label: 'timer warning', format: 'text' },
]);

const fromModel = (name) => ({ name, value: (r) => r.model?.[name] });
export const SUITE_CSV_COLUMNS = Object.freeze([
  'build',
  'index',
  { name: 'model', value: (r) => r.label },
  ...[
    'batch',
    'latency_ms',
    'latency_mean_ms',
    'latency_spread_ms',
    'latency_spread_kind',
    'throughput_samples_per_s',
    'peak_memory_bytes',
    'activation_bytes',
    'parameters',
    'size_bytes',
    'flops_per_sample',
    'flops_per_batch',
    'accuracy',
  ].map(fromModel),
  { name: 'samples', value: (r) => r.model?.latency?.samples },
  { name: 'warning', value: (r) => r.model?.latency?.warning },
]);

/** The report's file names, one per format core writes. */
export const REPORT_FILES = Object.freeze([
  { key: 'markdown', label: 'Markdown', filename: 'perflab-suite-report.md', type: 'text/markdown' },
  { key: 'json', label: 'JSON', filename: 'perflab-suite-report.json', type: 'application/json' },
  { key: 'csv', label: 'CSV', filename: 'perflab-suite-report.csv', type: 'text/csv' },
]);

/** The text of one report file: core's Markdown and CSV as they are, its JSON indented. */
export function reportText(report, key) {
  return key === 'json' ? `${JSON.stringify(report.json, null, 2)}\n` : report[key];
}
