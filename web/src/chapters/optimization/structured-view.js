// The structured-pruning experiment (optimization-structured): the baseline of the made
// models (made-models.js) loaded into core, its hidden units pruned by core
// (pruneStructured), evaluated on the test split, then fine-tuned epoch by epoch on the
// training images (startFinetuning, chunked by chunked-training.js: progress bar, Cancel
// keeping the epochs done) with the test accuracy after each epoch; the sizes core reports,
// and the forwards of pruned and baseline timed by core's interleaved A/B (forwardAB) at each
// batch of core's plan. The result joins the made models. A mount function for the chapter
// shell. Not for: any number (core), the rows and sentences (structured-data.js).

import { LineChart } from '../../charts/line-chart.js';
import { loadPlot } from '../../charts/plot-lib.js';
import { experimentPlans } from '../../experiments/plans.js';
import { publishResult } from '../../experiments/results.js';
import { isQuick } from '../../experiments/model.js';
import { labOf } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatInt, formatPercent, formatSig } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { trainToEnd } from './chunked-training.js';
import { epochTicks } from './train-data.js';
import { fileOf, loadManifest } from './data.js';
import { addMadeModel, baselineModel, subscribeMadeModels } from './made-models.js';
import { block, createRunFrame, madeModelText, mbText, needBaselineText, showError, showSentences } from './section-ui.js';
import {
  CURVE_SERIES,
  LATENCY_COLUMNS,
  STRUCTURED_ID,
  accuracyDomain,
  accuracySentences,
  curveRows,
  evidenceRows,
  fractionLabel,
  latencyRow,
  latencySentences,
  layerRows,
  madeEntry,
  sizeRows,
} from './structured-data.js';

const where = `${STRUCTURED_ID}-run`;

export function mountStructuredSection(section, { bridge }) {
  const lab = labOf(bridge);
  const quick = isQuick(globalThis.location?.search ?? '');
  const fraction = h('select', { id: `${STRUCTURED_ID}-fraction`, 'data-control': 'fraction' });
  const epochsInput = h('input', { id: `${STRUCTURED_ID}-epochs`, type: 'number', min: '1', step: '1', 'data-control': 'finetune_epochs' });
  let plan = null;
  const frame = createRunFrame(bridge, {
    prefix: 'structured',
    where,
    runText: 'Prune and fine-tune',
    progressLabel: 'pruning and fine-tuning progress',
    ready: () => baselineModel() !== null,
    run: (ctx) => run(ctx),
  });
  const { progress, status, errorBox, data } = frame;
  const baselineNote = h('p', { class: 'note', 'data-role': 'structured-baseline' });
  const layerTable = createTable(
    [
      { key: 'layer', label: 'layer', rowHeader: true, format: 'text' },
      { key: 'before', label: 'units before', format: 'int' },
      { key: 'after', label: 'units kept', format: 'int' },
    ],
    { caption: 'The hidden layers core shrank (the last layer keeps one output per class)', role: 'structured-layers', className: 'numbers fm-compact' },
  );
  const sizeTable = createTable(
    [
      { key: 'what', label: 'whole model', rowHeader: true, format: 'text' },
      { key: 'before', label: 'baseline', format: 'int' },
      { key: 'after', label: 'pruned', format: 'int' },
      { key: 'ratio', label: 'pruned ÷ baseline', format: 'sig' },
    ],
    { caption: 'What core counted of both models', role: 'structured-sizes', className: 'numbers fm-compact' },
  );
  const curveTable = createTable(
    [
      { key: 'epoch', label: 'fine-tuning epochs', format: 'int' },
      { key: 'accuracy', label: 'test accuracy', format: 'percent' },
      { key: 'train_loss', label: 'train loss', format: 'sig' },
      { key: 'validation_accuracy', label: 'validation accuracy', format: 'percent' },
    ],
    { caption: 'The pruned model after each epoch of fine-tuning (0: before any)', role: 'structured-curve', className: 'numbers fm-compact' },
  );
  const latencyTable = createTable(LATENCY_COLUMNS, { caption: 'Forward pass of the baseline against the pruned model, timed interleaved by core', role: 'structured-latency' });
  const curveBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'structured-curve' });
  const curveChart = new LineChart(curveBox, {
    x: 'epoch',
    y: 'accuracy',
    series: 'series',
    seriesDomain: [CURVE_SERIES],
    xLabel: 'fine-tuning epochs (0: pruned, not yet fine-tuned) →',
    yLabel: '↑ test accuracy',
    yFormat: (v) => `${Math.round(v * 100)}%`,
    ariaLabel: 'Test accuracy of the pruned model after each epoch of fine-tuning, with the baseline’s accuracy as a reference line',
    emptyText: 'The test accuracy after each fine-tuning epoch appears here.',
    height: 260,
  });
  const accuracyText = h('div', { 'data-role': 'structured-accuracy-sentences' });
  const latencyText = h('div', { 'data-role': 'structured-latency-sentences' });

  const unsubscribe = subscribeMadeModels(() => {
    const b = baselineModel();
    baselineNote.textContent = b
      ? `The baseline: ${madeModelText(b)}.`
      : needBaselineText('this experiment prunes it');
    frame.enable();
  });

  experimentPlans(bridge, STRUCTURED_ID, quick, where)
    .then((plans) => {
      plan = plans.plan;
      for (const f of plan.fractions) fraction.append(h('option', { value: String(f), text: fractionLabel(f) }));
      epochsInput.value = String(plan.finetune_epochs);
      frame.showPlan(
        (quick ? 'Quick mode (?quick=1): fine-tuning' : 'Fine-tuning') +
          ` on ${plan.train_images === null ? 'the training subset' : `the first ${formatInt(plan.train_images)} training images`}; ` +
          `forwards timed at batch ${plan.batches.map(formatInt).join(' and ')}, ${formatInt(plan.ab.rounds)} interleaved rounds each.`,
      );
    })
    .catch((err) => showError(errorBox, err));

  function clearResults() {
    layerTable.setRows([]);
    sizeTable.setRows([]);
    curveTable.setRows([]);
    latencyTable.setRows([]);
    curveChart.update([]);
    accuracyText.replaceChildren();
    latencyText.replaceChildren();
  }

  async function run(ctx) {
    const baseline = baselineModel();
    if (!baseline) return;
    clearResults();
    const f = Number(fraction.value);
    const epochs = Number(epochsInput.value);
    const manifest = await loadManifest();
    const count = plan.train_images ?? fileOf(manifest, 'train_subset', 'images').count;
    const test = await data.testSplit();
    const train = await data.trainSplit(count);
    status.textContent = 'Core is loading the baseline and pruning it…';
    const base = await lab.loadModelFile(baseline.bytes, { where });
    ctx.hold(base.model);
    const baseEval = await lab.evaluateModel(base.model, test.dataset, 0, { where });
    const pruned = await lab.pruneStructured(base.model, f, { where });
    ctx.hold(pruned.model);
    const report = pruned.report;
    layerTable.setRows(layerRows(report));
    sizeTable.setRows(sizeRows(report, base.parameter_bytes, pruned.info.parameter_bytes));
    section.dataset.keptWidths = report.layers.map((l) => l.after).join(',');
    const prunedEval = await lab.evaluateModel(pruned.model, test.dataset, 0, { where });
    curveChart.setOptions({ yReferences: [{ y: baseEval.accuracy, label: `baseline ${formatPercent(baseEval.accuracy)}` }] });
    loadPlot();
    const tuned = [];
    const showCurve = () => {
      const rows = curveRows(prunedEval.accuracy, tuned);
      curveChart.setOptions({ xTicks: epochTicks(0, Math.max(1, epochs)), xDomain: [0, Math.max(1, epochs)], yDomain: accuracyDomain([...rows.map((r) => r.accuracy), baseEval.accuracy]) });
      curveChart.update(rows);
      curveTable.setRows([{ epoch: 0, accuracy: prunedEval.accuracy }, ...tuned]);
      curveBox.dataset.epochs = String(tuned.length);
      showSentences(accuracyText, accuracySentences({ baseline: baseEval.accuracy, pruned: prunedEval.accuracy, tuned }));
    };
    showCurve();

    const start = await lab.startFinetuning(pruned.model, train.dataset, epochs, { where });
    status.textContent = `Fine-tuning on ${formatInt(start.train_samples)} images at learning rate ${formatSig(start.recipe.learning_rate)}, ${formatInt(start.steps_total)} steps…`;
    const result = await trainToEnd({
      bridge,
      lab,
      modelId: pruned.model,
      start,
      where,
      stopAtEpochs: true,
      isCancelled: ctx.cancelled,
      onRow: (row) => {
        progress.value = row.steps_done / row.steps_total;
        status.textContent = `Fine-tuning: epoch ${row.epoch} of ${formatInt(start.recipe.epochs)}, step ${formatInt(row.steps_done)} of ${formatInt(row.steps_total)}`;
      },
      atEpoch: async (record) => {
        const e = await lab.evaluateModel(pruned.model, test.dataset, 0, { where });
        tuned.push({ epoch: record.epoch, accuracy: e.accuracy, train_loss: record.train_loss, validation_accuracy: record.validation_accuracy ?? NaN });
        showCurve();
      },
    });
    // A cancel put back the last finished epoch's weights: those the curve's last point measured.
    tuned.splice(result.epochs.length);
    showCurve();
    const kept = result.epochs.length;
    status.textContent = result.cancelled
      ? `Cancelled: the pruned model keeps ${formatInt(kept)} fine-tuned epoch${kept === 1 ? '' : 's'}. Timing the forwards…`
      : 'Timing the forwards of both models…';

    const rows = [];
    for (const batch of plan.batches) {
      const ab = await lab.forwardAB(base.model, pruned.model, batch, plan.ab, { where });
      rows.push(latencyRow(ab));
      latencyTable.setRows(rows);
    }
    showSentences(latencyText, latencySentences(rows));

    const bytes = await lab.modelFileBytes(pruned.model, { where });
    const finalEval = tuned.length ? await lab.evaluateModel(pruned.model, test.dataset, 0, { where }) : prunedEval;
    const info = await lab.modelInfo(pruned.model, { where });
    const entry = madeEntry(f, kept);
    addMadeModel({
      key: `structured-${Math.round(100 * f)}`,
      name: entry.name,
      lineage: [...(baseline.lineage ?? []), ...entry.lineage],
      bytes,
      baseline: false,
      evaluation: finalEval,
      info,
    });
    progress.value = 1;
    status.textContent =
      `${result.cancelled ? 'Cancelled, the epochs done kept' : 'Done'}: ${formatInt(report.parameters_before)} → ${formatInt(report.parameters_after)} parameters, ` +
      `test accuracy ${formatPercent(finalEval.accuracy)} after ${formatInt(kept)} fine-tuning epoch${kept === 1 ? '' : 's'} (the model file is ${mbText(bytes.length)}).`;
    // The pruned model's layers, for the exercise graded from this run.
    publishResult({ id: STRUCTURED_ID, rows: evidenceRows(pruned.info.spec), values: { fraction: f, finetune_epochs: kept } });
    section.dataset.done = 'true';
  }

  section.append(
    block(
      'structured-block',
      'Experiment: prune the baseline’s hidden units, then fine-tune',
      baselineNote,
      frame.controls(
        h('label', { class: 'field', for: fraction.id }, h('span', { text: 'Remove' }), fraction),
        h('label', { class: 'field', for: epochsInput.id }, h('span', { text: 'Fine-tuning epochs' }), epochsInput),
      ),
      frame.planNote,
      errorBox,
      h('div', { class: 'table-wrap fm-compact-wrap' }, layerTable.element),
      h('div', { class: 'table-wrap fm-compact-wrap' }, sizeTable.element),
      h('h4', { class: 'chart-title', text: 'The fine-tuning curve: test accuracy after each epoch' }),
      curveBox,
      h('div', { class: 'table-wrap fm-compact-wrap' }, curveTable.element),
      accuracyText,
      h('h4', { text: 'Does the smaller model run faster?' }),
      h('div', { class: 'table-wrap' }, latencyTable.element),
      latencyText,
    ),
  );

  return {
    destroy() {
      frame.destroy();
      unsubscribe();
      curveChart.destroy();
    },
  };
}
