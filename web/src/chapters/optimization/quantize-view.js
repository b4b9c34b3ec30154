// The quantization experiment (optimization-quantization): a float model of the made models
// (made-models.js: the baseline, or a pruned or distilled one, so transforms compose: prune →
// fine-tune → quantize) loaded into core and quantized to int8 by core (quantizeHeldModel) with
// each calibration of core's plan, on core's number of training images; each int8 model
// evaluated on the test split, its per-layer error, and its forward timed against the float
// model's by core's interleaved A/B (forwardAB) at each batch of the plan. Progress between
// calls, Cancel between them (and of the call running). Each int8 model joins the made
// models. A mount function for the chapter shell. Not for: any number (core), the rows and
// sentences (quantize-data.js).

import { experimentPlans } from '../../experiments/plans.js';
import { publishResult } from '../../experiments/results.js';
import { isQuick } from '../../experiments/model.js';
import { labOf } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatCount, formatInt, formatList } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { addMadeModel, madeModels, subscribeMadeModels } from './made-models.js';
import { block, createRunFrame, madeModelText, needBaselineText, showError, showSentences } from './section-ui.js';
import {
  LATENCY_COLUMNS,
  LAYER_COLUMNS,
  QUANTIZE_ID,
  SUMMARY_COLUMNS,
  calibrationLabel,
  evidenceRows,
  latencyRow,
  latencySentences,
  layerRows,
  layerSentence,
  madeEntry,
  quantizeSources,
  summaryRow,
  summarySentences,
} from './quantize-data.js';

const where = `${QUANTIZE_ID}-run`;

export function mountQuantizeSection(section, { bridge }) {
  const lab = labOf(bridge);
  const quick = isQuick(globalThis.location?.search ?? '');
  let plan = null;
  const frame = createRunFrame(bridge, {
    prefix: 'quantize',
    where,
    runText: 'Quantize',
    progressLabel: 'quantization progress',
    abortOnCancel: true,
    cancellingText: 'Cancelling…',
    cancelledText: 'Cancelled; the rows above are those finished.',
    ready: () => chosenSource() !== null,
    run: (ctx) => run(ctx),
  });
  const { progress, status, errorBox, data } = frame;
  const baselineNote = h('p', { class: 'note', 'data-role': 'quantize-baseline' });
  const sourceSelect = h('select', { id: `${QUANTIZE_ID}-source`, 'data-control': 'source' });
  // The chosen float model, or null before the baseline exists.
  function chosenSource() {
    const sources = quantizeSources(madeModels());
    return sources.find((m) => m.key === sourceSelect.value) ?? sources[0] ?? null;
  }
  sourceSelect.addEventListener('change', () => {
    showSource();
    frame.enable();
  });
  function showSource() {
    const m = chosenSource();
    baselineNote.textContent = m
      ? `Quantizing ${m.baseline ? 'the baseline, ' : ''}${madeModelText(m)}${m.lineage?.length ? ` (made by ${m.lineage.join(' → ')})` : ''}.`
      : needBaselineText('this experiment quantizes it, or a model made from it');
  }
  const summaryTable = createTable(SUMMARY_COLUMNS, {
    caption: 'Each int8 model against the float model: parameter bytes and test accuracy, measured by core',
    role: 'quantize-summary',
  });
  const summaryText = h('div', { 'data-role': 'quantize-summary-sentences' });
  const layersBox = h('div', { 'data-role': 'quantize-layers' });
  const latencyTable = createTable(LATENCY_COLUMNS, {
    caption: 'Forward pass of the float model against each int8 model, timed interleaved by core',
    role: 'quantize-latency',
  });
  const latencyText = h('div', { 'data-role': 'quantize-latency-sentences' });

  const unsubscribe = subscribeMadeModels((models) => {
    const kept = sourceSelect.value;
    const sources = quantizeSources(models);
    sourceSelect.replaceChildren(...sources.map((m) => h('option', { value: m.key, text: m.baseline ? `${m.name} (the baseline)` : m.name })));
    if (sources.some((m) => m.key === kept)) sourceSelect.value = kept;
    sourceSelect.disabled = sources.length === 0;
    showSource();
    frame.enable();
  });

  experimentPlans(bridge, QUANTIZE_ID, quick, where)
    .then((plans) => {
      plan = plans.plan;
      frame.showPlan(
        (quick ? 'Quick mode (?quick=1): calibration' : 'Calibration') +
          ` on the first ${formatInt(plan.calibration_images)} training images by ${formatList(plan.calibrations.map(calibrationLabel))}; ` +
          `each layer’s error on the first ${formatInt(plan.error_images)} test images; ` +
          `forwards timed at batch ${formatList(plan.batches.map(formatInt))}, ${formatInt(plan.ab.rounds)} interleaved rounds each.`,
      );
    })
    .catch((err) => showError(errorBox, err));

  async function run(ctx) {
    const source = chosenSource();
    if (!source) return;
    const opts = { where, signal: ctx.signal };
    summaryTable.setRows([]);
    latencyTable.setRows([]);
    summaryText.replaceChildren();
    layersBox.replaceChildren();
    latencyText.replaceChildren();
    const steps = plan.calibrations.length * (2 + plan.batches.length);
    let done = 0;
    const step = (text) => {
      progress.value = done / steps;
      status.textContent = text;
    };
    const test = await data.testSplit();
    const train = await data.trainSplit(plan.calibration_images);
    ctx.stopIfCancelled();
    step(`Core is loading ${source.baseline ? 'the baseline' : source.name}…`);
    const base = await lab.loadModelFile(source.bytes, opts);
    ctx.hold(base.model);
    const floatEval = await lab.evaluateModel(base.model, test.dataset, 0, opts);
    const made = [];
    const rows = [];
    const evidence = [];
    for (const method of plan.calibrations) {
      ctx.stopIfCancelled();
      step(`Quantizing with ${calibrationLabel(method)} calibration on ${formatInt(plan.calibration_images)} training images…`);
      const q = await lab.quantizeHeldModel(base.model, train.dataset, test.dataset, plan.calibration_images, method, plan.error_images, opts);
      ctx.hold(q.model);
      done += 1;
      ctx.stopIfCancelled();
      step(`Evaluating the int8 model (${calibrationLabel(method)}) on the test split…`);
      const e = await lab.evaluateModel(q.model, test.dataset, 0, opts);
      done += 1;
      rows.push(summaryRow(q, e, floatEval.accuracy));
      summaryTable.setRows(rows);
      showSentences(summaryText, summarySentences(rows));
      const layers = layerRows(q);
      const table = createTable(LAYER_COLUMNS, {
        rows: layers,
        caption: `Each layer’s output, float against int8 (${calibrationLabel(method)} calibration), on the first ${formatInt(Math.min(plan.error_images, test.info.count))} test images`,
        role: `quantize-layers-${method}`,
        className: 'numbers fm-compact',
      });
      layersBox.append(h('div', { class: 'table-wrap' }, table.element), h('p', { class: 'result-note', text: layerSentence(layers) }));
      made.push({ q, e });
      evidence.push(...evidenceRows(q));
    }
    const latencyRows = [];
    for (const { q } of made) {
      for (const batch of plan.batches) {
        ctx.stopIfCancelled();
        step(`Timing the float and int8 (${calibrationLabel(q.calibration)}) forwards at batch ${batch}, interleaved…`);
        const ab = await lab.forwardAB(base.model, q.model, batch, plan.ab, opts);
        done += 1;
        latencyRows.push(latencyRow(ab, q.calibration));
        latencyTable.setRows(latencyRows);
      }
    }
    showSentences(latencyText, latencySentences(latencyRows));
    for (const { q, e } of made) {
      const [bytes, info] = await Promise.all([lab.modelFileBytes(q.model, opts), lab.modelInfo(q.model, opts)]);
      addMadeModel({ ...madeEntry(q, source), bytes, baseline: false, evaluation: e, info });
    }
    progress.value = 1;
    status.textContent = `Done: ${formatCount(made.length, 'int8 model')}, added to the made models (the Pareto frontier below).`;
    // The calibrated ranges of this run, for the exercise graded from it.
    publishResult({ id: QUANTIZE_ID, rows: evidence, values: { calibration_images: plan.calibration_images } });
    section.dataset.done = 'true';
  }

  section.append(
    block(
      'quantize-block',
      'Experiment: quantize a model to int8',
      baselineNote,
      frame.controls(h('label', { class: 'field', for: sourceSelect.id }, h('span', { text: 'Model' }), sourceSelect)),
      frame.planNote,
      errorBox,
      h('div', { class: 'table-wrap' }, summaryTable.element),
      summaryText,
      h('h4', { text: 'Where the error comes from: each layer’s output' }),
      layersBox,
      h('h4', { text: 'Is the int8 model faster?' }),
      h('div', { class: 'table-wrap' }, latencyTable.element),
      latencyText,
    ),
  );

  return {
    destroy() {
      frame.destroy();
      unsubscribe();
    },
  };
}
