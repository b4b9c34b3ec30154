// The suite experiment (benchmarking-suite): zoo models (and the pretrained fashion_mlp and the
// models made in the Optimization chapter, whose accuracy is measured) × metrics measured
// model by model by
// core's measureSuitePoint, one chart per metric, and core's report (suiteReport) shown as
// Markdown with Download Markdown / JSON / CSV. Its checkboxes are core's lists (zooModels,
// modelMetrics) and its timer core's plan (experimentPlan), so the spec is built once they
// arrive (suite-mount.js asks core, then mounts `suiteSpec(lists)`).
// Not for: measuring, ranking or writing the report (core), or running (the framework).

import { declaredSweep } from '../../lab/client.js';
import { downloadText } from '../../ui/download.js';
import { renderMarkdown } from './markdown.js';
import { madeModels } from '../optimization/made-models.js';
import { holdSuiteModels } from './suite-trained.js';
import {
  MADE_ID,
  PRETRAINED_ID,
  REPORT_FILES,
  SUITE_COLUMNS,
  SUITE_CSV_COLUMNS,
  SUITE_ID,
  metricChosen,
  metricRows,
  reportPoints,
  reportText,
  suiteControls,
  suiteOf,
  suitePoints,
} from './suite-data.js';

export { SUITE_ID };
export const TITLE = 'Experiment: a benchmark suite and its report';

function metricChart(metric, i) {
  return {
    type: 'bar',
    name: metric.name,
    title: `${metric.label} (${metric.unit}; ${metric.lower_is_better ? 'lower' : 'higher'} is better)`,
    options: ({ values }) => ({
      x: 'model',
      y: 'value',
      xLabel: 'Model',
      yLabel: `↑ ${metric.name} (${metric.unit})`,
      ariaLabel: `${metric.label} of each model of the suite, in ${metric.unit}`,
      // A model without a value of the metric (accuracy of random weights) has no bar.
      emptyText:
        values && !metricChosen(values, i)
          ? `${metric.name} is not ticked for this suite.`
          : 'Press Run to measure. A model without a value here (accuracy, not measured for random weights) has no bar.',
      height: 300,
    }),
    data: (rows, ctx) => (metricChosen(ctx.values, i) ? metricRows(rows, metric.name) : []),
  };
}

/** The report: core's Markdown rendered (and as source), and its three files to download. */
function renderReport(report, { h: make }) {
  return [
    make(
      'div',
      { class: 'actions', 'data-role': 'report-downloads' },
      ...REPORT_FILES.map((f) =>
        make('button', {
          type: 'button',
          'data-action': `report-${f.key}`,
          text: `Download ${f.label}`,
          onclick: () => downloadText(f.filename, reportText(report, f.key), f.type),
        }),
      ),
    ),
    make('div', { class: 'compare-rendered', 'data-role': 'report-rendered' }, ...renderMarkdown(make, report.markdown)),
    make(
      'details',
      {},
      make('summary', { text: 'The report’s Markdown source' }),
      make('pre', { class: 'compare-report', 'data-role': 'report', text: report.markdown }),
    ),
  ];
}

/**
 * The suite experiment's spec for core's lists and plan.
 * @param {{models: {name: string, description?: string}[], metrics: object[], plan: object, fullPlan: object}} lists
 *   zooModels, modelMetrics, and experimentPlan('benchmarking-suite') for this page's mode (and the full one)
 */
export function suiteSpec(lists) {
  return {
    id: SUITE_ID,
    // Its runs are sized by their own controls (rounds, repeats, the suite's timer), not by
    // a point's samples: Measure longer would have nothing to scale.
    measureLonger: false,
    title: TITLE,
    explanation: [
      'Tick the zoo models (named as in the zoo) and the metrics the suite compares. Each model is one point: core runs it at its ' +
        'batch (or the batch below), times the forward pass with its timer, and measures its peak memory with the ' +
        'tracking allocator; parameters, size and FLOPs are counted. Then core writes the report, the same one ' +
        '<code>perflab suite SUITE.json --markdown</code> prints: the system it ran on, every model with its ' +
        'timed values as median (mean ± spread), the best model per metric, recommendations, and what was not measured.',
      'Accuracy is measured only for trained weights. Tick <em>fashion_mlp (pretrained)</em>, the baseline the page ' +
        'build trained natively on Fashion-MNIST, and core evaluates it on the whole test split (fetched at the ' +
        'first run that ticks it), as <code>perflab suite</code> evaluates the model files a suite names. The zoo ' +
        'models get random weights from their specs’ seeds, so their accuracy is reported as not measured, never ' +
        'simulated: an untrained model’s accuracy is chance.',
      'Pick an optimized model and its base to add the original course’s comparison of the two: speedup, throughput, ' +
        'peak memory, size and FLOPs as ratios, accuracy retention when both accuracies were measured, and advice. ' +
        'Tick <em>the models made in the Optimization chapter</em> and the suite measures real twins: each model you ' +
        'quantized, pruned or distilled there, loaded from its model file, is compared with the baseline it was made ' +
        'from, accuracy retention included.',
    ],
    quickNote: lists.plan.options
      ? `Quick mode (?quick=1): each model timed with ${lists.plan.options.samples} samples of at least ${lists.plan.options.min_sample_ms} ms, so the latencies are rough.`
      : null,
    controls: suiteControls(lists, { madeCount: () => madeModels().length }),
    // The pretrained model, the made models and the test split, held in the lab's training
    // module (each fetched or loaded once).
    prepare: (values, { bridge, where, status }) =>
      values[PRETRAINED_ID] || values[MADE_ID]
        ? holdSuiteModels(bridge, { where, status, pretrained: values[PRETRAINED_ID], made: values[MADE_ID] ? madeModels() : [] })
        : null,
    plan: (values, ctx) => suitePoints(values, { ...ctx, info: lists }),
    measure: declaredSweep('measureSuitePoint'),
    pointLabel: (p) => p.label,
    // Core writes the report of the measured points; the page shows it and offers its files.
    analyze: async (rows, { lab, values, prepared, signal, where }) => {
      const suite = suiteOf(values, lists, prepared);
      const info = await lab.buildInfo({ where, signal });
      return lab.suiteReport(suite, reportPoints(rows), `perflab ${info.version} (web page)`, prepared?.models, { where, signal });
    },
    renderAnalysis: renderReport,
    columns: SUITE_COLUMNS,
    tableCaption: 'One row per model, as core measured it; the report below ranks them on the ticked metrics.',
    csv: { filename: 'perflab-benchmarking-suite.csv', columns: SUITE_CSV_COLUMNS },
    charts: lists.metrics.map(metricChart),
  };
}
