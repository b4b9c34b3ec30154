// The Pareto frontier (optimization-pareto): every made model (made-models.js) loaded into
// core from its file and timed by core in one interleaved run (timeHeldModels, in chunks of
// core's plan: progress and Cancel between chunks; the models' order rotates per chunk), its
// latency core's median of all its samples (summarizeSample), and core's frontier
// (paretoFront) of latency against accuracy and of parameter bytes against accuracy, drawn
// with the lab's scatter chart. A mount function for the chapter shell. Not for: any number
// (core), the rows and sentences (quantize-data.js).

import { ScatterChart } from '../../charts/scatter-chart.js';
import { experimentPlans } from '../../experiments/plans.js';
import { isQuick } from '../../experiments/model.js';
import { labOf, sweepOnce } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatCount, formatInt } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { madeModels, subscribeMadeModels } from './made-models.js';
import { block, createRunFrame, showError, showSentences } from './section-ui.js';
import { PARETO_COLUMNS, PARETO_ID, PARETO_SERIES, chartRows, frontierSegments, paretoRows, paretoSentences } from './quantize-data.js';

const where = `${PARETO_ID}-run`;

function chart(box, cost) {
  const latency = cost === 'latency_ms';
  return new ScatterChart(box, {
    x: 'cost',
    y: 'accuracy',
    series: 'series',
    seriesDomain: [...PARETO_SERIES],
    label: 'label',
    xType: 'log',
    yType: 'linear',
    xFormat: latency ? (v) => `${v} ms` : 'bytes',
    yFormat: (v) => `${(v * 100).toFixed(2)}%`,
    xLabel: latency ? 'Latency: median forward time (ms, log scale) →' : 'Parameter bytes (log scale) →',
    yLabel: '↑ test accuracy',
    ariaLabel: latency
      ? 'Each made model’s test accuracy against its measured latency, the Pareto frontier joined by a dashed line'
      : 'Each made model’s test accuracy against its parameter bytes, the Pareto frontier joined by a dashed line',
    emptyText: 'Press “Time every made model” to place them.',
    height: 300,
  });
}

export function mountParetoSection(section, { bridge }) {
  const lab = labOf(bridge);
  const quick = isQuick(globalThis.location?.search ?? '');
  let plan = null;
  const timeable = () => madeModels().filter((m) => m.evaluation);
  const frame = createRunFrame(bridge, {
    prefix: 'pareto',
    where,
    runText: 'Time every made model',
    progressLabel: 'timing progress',
    abortOnCancel: true,
    cancelledText: 'Cancelled; nothing placed.',
    dropAfterRun: true,
    ready: () => timeable().length > 0,
    run: (ctx) => run(ctx),
  });
  const { progress, status, errorBox, data } = frame;
  const madeNote = h('p', { class: 'note', 'data-role': 'pareto-made' });
  const latencyBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'pareto-latency' });
  const bytesBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'pareto-bytes' });
  const latencyChart = chart(latencyBox, 'latency_ms');
  const bytesChart = chart(bytesBox, 'parameter_bytes');
  const table = createTable(PARETO_COLUMNS, { caption: 'Every made model: its latency in the same interleaved run, its bytes and its test accuracy', role: 'pareto-table' });
  const text = h('div', { 'data-role': 'pareto-sentences' });

  const unsubscribe = subscribeMadeModels((list) => {
    madeNote.textContent =
      list.length === 0
        ? 'No model made yet: train or load the baseline above, then quantize, prune or distil it.'
        : `${formatCount(list.length, 'model')} made so far: ${list.map((m) => m.name).join('; ')}.`;
    frame.enable();
  });

  experimentPlans(bridge, PARETO_ID, quick, where)
    .then((plans) => {
      plan = plans.plan;
      frame.showPlan(
        (quick ? 'Quick mode (?quick=1): every' : 'Every') +
          ` model’s forward at batch ${formatInt(plan.batch)}, timed in ${formatCount(plan.chunks, 'chunk')} of ${formatInt(plan.options.samples)} interleaved rounds.`,
      );
    })
    .catch((err) => showError(errorBox, err));

  async function run(ctx) {
    const models = timeable();
    if (models.length === 0) return;
    const opts = { where, signal: ctx.signal };
    const held = [];
    const test = await data.testSplit();
    status.textContent = `Core is loading ${formatCount(models.length, 'model')}…`;
    for (const m of models) held.push(ctx.hold((await lab.loadModelFile(m.bytes, opts)).model));
    // One chunk per point; the order rotates so that no model always runs first in a round.
    const points = Array.from({ length: plan.chunks }, (_, c) => ({
      model_ids: held.map((_, i) => held[(i + c) % held.length]),
      dataset_id: test.dataset,
      batch: plan.batch,
      options: plan.options,
    }));
    status.textContent = `Timing ${formatCount(models.length, 'model')} interleaved…`;
    const { rows } = await sweepOnce(bridge, 'timeHeldModels', { points }, {
      ...opts,
      onProgress: (fraction) => {
        progress.value = fraction;
      },
    });
    const samples = held.map((id) => rows.flatMap((r) => r.models.find((m) => m.model === id).per_call_ms));
    const latencies = [];
    for (const s of samples) latencies.push((await lab.summarizeSample(s, { bootstrap_resamples: 1000 }, opts)).median);
    const accuracy = models.map((m) => m.evaluation.accuracy);
    const [onLatency, onBytes] = await Promise.all([
      lab.paretoFront(latencies.map((cost, i) => ({ cost, accuracy: accuracy[i] })), opts),
      lab.paretoFront(models.map((m, i) => ({ cost: m.evaluation.parameter_bytes, accuracy: accuracy[i] })), opts),
    ]);
    const result = paretoRows(models, latencies, onLatency, onBytes);
    latencyChart.setOptions({ references: frontierSegments(result, 'latency_ms') });
    bytesChart.setOptions({ references: frontierSegments(result, 'parameter_bytes') });
    latencyChart.update(chartRows(result, 'latency_ms'));
    bytesChart.update(chartRows(result, 'parameter_bytes'));
    latencyBox.dataset.points = String(result.length);
    table.setRows(result);
    showSentences(text, paretoSentences(result));
    progress.value = 1;
    status.textContent = `Timed ${formatCount(models.length, 'model')} in ${formatCount(rows.length, 'chunk')}.`;
    section.dataset.done = 'true';
  }

  section.append(
    block(
      'pareto-block',
      'Experiment: every made model on the frontier',
      madeNote,
      frame.controls(),
      frame.planNote,
      errorBox,
      h('h4', { class: 'chart-title', text: 'Latency against accuracy' }),
      latencyBox,
      h('h4', { class: 'chart-title', text: 'Parameter bytes against accuracy' }),
      bytesBox,
      h('div', { class: 'table-wrap' }, table.element),
      text,
    ),
  );

  return {
    destroy() {
      frame.destroy();
      unsubscribe();
      latencyChart.destroy();
      bytesChart.destroy();
    },
  };
}
