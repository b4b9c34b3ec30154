// The "Training in your browser" block of "A model worth optimizing": the recipe controls
// (defaults from core's baseline recipe), training in the lab worker (core's startTraining,
// then trainSteps chunks as sweep points; progress, Cancel keeping the finished epochs, live
// curves, samples/s and the time per step split by part), the model file's download, and the
// evaluation of the trained model when training ends (evaluation-view.js). Not for: the
// numbers (core computes every one), reshaping them (train-data.js), fetching (data.js).

import { LineChart } from '../../charts/line-chart.js';
import { loadPlot } from '../../charts/plot-lib.js';
import { sweepOnce } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatInt, formatSig } from '../../ui/format.js';
import { downloadBytes } from '../../ui/download.js';
import { createTable } from '../../ui/table.js';
import { fileOf, loadManifest } from './data.js';
import { MODEL } from './facts.js';
import { block, showError } from './section-ui.js';
import { LOSS_SERIES, RECIPE_CONTROLS, STEP_SERIES, controlOfError, epochRows, epochTicks, recipeOf, ruleSentence, stepRow, stepSplit } from './train-data.js';

// A training chunk aims at this long inside core, so progress moves and Cancel is seen soon;
// one sweep request holds about SWEEP_MS of chunks.
const CHUNK_MS = 120;
const SWEEP_MS = 600;
const where = 'optimization-model';

// Draws rows on an epoch axis with whole-epoch ticks (changed only when they change).
function drawOnEpochs(chart, rows, ticks) {
  if (JSON.stringify(ticks) !== JSON.stringify(chart.options.xTicks ?? [])) chart.setOptions({ xTicks: ticks });
  chart.update(rows);
}

function field(control, value) {
  const id = `optimization-${control.key}`;
  const input = h('input', { id, type: control.type, step: control.step, value: String(value ?? ''), 'data-control': control.key, inputmode: control.type === 'number' ? 'decimal' : undefined });
  const error = h('p', { class: 'field-error', role: 'alert', 'data-error-for': control.key, hidden: true });
  const wrapper = h('label', { class: 'field', for: id }, h('span', { text: control.label }), input);
  return { control, input, error, wrapper };
}

/**
 * The training block. `data` is the section's data store, `testSplit()` the test split in
 * core (the data block shows its samples), `trainLoaded(trainSet)` hears when the training
 * images are in core, `evaluation` is the evaluation block, `onBusy(busy)` hears a run start
 * and end, `forgetIfRestarted(err)` is told every error.
 */
export function createTrainView({ bridge, lab, data, testSplit, trainLoaded, evaluation, onBusy, forgetIfRestarted }) {
  const trainImages = field({ key: 'train_images', label: 'Training images', type: 'number' }, '');
  const recipeFields = RECIPE_CONTROLS.map((c) => field(c, ''));
  const allFields = [trainImages, ...recipeFields];
  // Validation images: empty until the first run, then core's default for the training images
  // chosen (datasetInfo's default_validation_samples) unless a number was typed; emptied, the
  // box is core's again.
  const validation = recipeFields.find((f) => f.control.key === 'validation_samples');
  let validationTyped = false;
  validation.input.placeholder = 'default'; // core's, as the note under the controls says
  validation.input.addEventListener('input', () => {
    validationTyped = validation.input.value.trim() !== '';
  });
  const trainButton = h('button', { type: 'button', class: 'primary', 'data-action': 'train', text: 'Train', disabled: true });
  const cancelButton = h('button', { type: 'button', 'data-action': 'cancel', text: 'Cancel', disabled: true });
  // The trained model as core writes it (architecture, weights, preprocessing, training facts):
  // `perflab evaluate FILE` reads it natively.
  const downloadButton = h('button', { type: 'button', 'data-action': 'download-model', text: 'Download the model file', disabled: true });
  const trainProgress = h('progress', { max: '1', value: '0', 'aria-label': 'training progress', 'data-role': 'train-progress' });
  const trainStatus = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': 'train-status', text: 'Not trained yet.' });
  const trainError = h('p', { class: 'error', role: 'alert', 'data-role': 'train-error', hidden: true });
  const trainNote = h('p', { class: 'note', 'data-role': 'train-note', hidden: true });
  const chartBox = (name) => h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': name });
  const lossBox = chartBox('loss');
  const accuracyBox = chartBox('accuracy');
  const stepBox = chartBox('step-loss');
  const lossChart = new LineChart(lossBox, {
    x: 'epoch', y: 'value', series: 'series', seriesDomain: [...LOSS_SERIES], xLabel: 'epoch', yLabel: 'loss (nats)',
    ariaLabel: 'Training and validation loss per epoch', emptyText: 'The loss per epoch appears here as training runs.', height: 260,
  });
  const accuracyChart = new LineChart(accuracyBox, {
    x: 'epoch', y: 'value', series: 'series', seriesDomain: [...LOSS_SERIES], xLabel: 'epoch', yLabel: 'accuracy',
    yFormat: (v) => `${Math.round(v * 100)}%`, yDomain: [0, 1],
    ariaLabel: 'Training and validation accuracy per epoch', emptyText: 'The accuracy per epoch appears here as training runs.', height: 260,
  });
  const stepChart = new LineChart(stepBox, {
    x: 'epoch', y: 'value', series: 'series', seriesDomain: [STEP_SERIES], xLabel: 'epoch (fractional: step / steps per epoch)', yLabel: 'batch loss (nats)',
    ariaLabel: 'Loss of the last batch of each training chunk', emptyText: 'The batch loss appears here step by step.', height: 220,
  });
  const epochTable = createTable(
    [
      { label: 'epoch', key: 'epoch', format: 'int' },
      { label: 'train loss', key: 'train_loss', format: 'sig' },
      { label: 'train accuracy', key: 'train_accuracy', format: 'percent' },
      { label: 'validation loss', key: 'validation_loss', format: 'sig' },
      { label: 'validation accuracy', key: 'validation_accuracy', format: 'percent' },
      { label: 'samples/s', key: 'samples_per_s', format: 'int' },
      // Scientific: a schedule's rate spans decades (cosine ends near 10⁻⁷).
      { label: 'learning rate', key: 'learning_rate', format: 'sci' },
    ],
    { caption: 'Every finished epoch, as core recorded it', role: 'epochs' },
  );
  const splitTable = createTable(
    [
      { label: 'part of a step', key: 'part', rowHeader: true, format: 'text' },
      { label: 'time per step', unit: 'ms', key: 'ms_per_step', format: 'sig' },
      { label: 'share', key: 'share', format: 'percent' },
    ],
    { caption: 'Time per training step by part, measured by core', role: 'step-split', className: 'numbers fm-compact' },
  );
  const ruleNote = h('p', { class: 'result-note', 'data-role': 'rule-note', text: 'After the first epoch: how the backward pass compares with the forward pass.' });

  let running = null; // {cancelRequested}
  let busy = false; // the baseline's evaluation holds the lab
  let trainedModel = null; // core's model id of the last model trained here
  let spec = null;
  let trainedEpochs = 0; // of the model trained here, for the file's name
  const enableTrain = () => {
    trainButton.disabled = busy || running !== null || spec === null;
  };

  function clearFieldErrors() {
    for (const f of allFields) {
      f.error.hidden = true;
      f.input.removeAttribute('aria-invalid');
    }
  }
  function showFieldError(f, message) {
    f.error.textContent = message;
    f.error.hidden = false;
    f.input.setAttribute('aria-invalid', 'true');
  }

  function resetRun() {
    lossChart.update([]);
    accuracyChart.update([]);
    stepChart.update([]);
    epochTable.setRows([]);
    splitTable.setRows([]);
    trainProgress.value = 0;
    trainNote.hidden = true;
  }

  function showEpochs(epochs) {
    const rows = epochRows(epochs);
    const ticks = epochTicks(1, epochs.at(-1)?.epoch ?? 0);
    drawOnEpochs(lossChart, rows.loss, ticks);
    drawOnEpochs(accuracyChart, rows.accuracy, ticks);
    epochTable.setRows(epochs);
    const split = stepSplit(epochs);
    splitTable.setRows(split ? split.rows : []);
    ruleNote.textContent = ruleSentence(split);
    lossBox.dataset.epochs = accuracyBox.dataset.epochs = String(epochs.length);
  }

  async function train() {
    clearFieldErrors();
    trainError.hidden = true;
    const manifest = await loadManifest();
    const fullCount = fileOf(manifest, 'train', 'images').count;
    const count = Number(trainImages.input.value);
    if (!Number.isInteger(count) || count < 1 || count > fullCount) {
      showFieldError(trainImages, `Training images must be a whole number from 1 to ${formatInt(fullCount)} (the training split), got ${JSON.stringify(trainImages.input.value)}`);
      return;
    }
    const recipe = recipeOf(Object.fromEntries(recipeFields.map((f) => [f.control.key, f.input.value])));
    running = { cancelRequested: false };
    evaluation.clear('The model in training is evaluated when its training ends.');
    trainButton.disabled = true;
    downloadButton.disabled = true;
    cancelButton.disabled = false;
    onBusy(true);
    resetRun();
    const epochs = [];
    const steps = [];
    try {
      trainStatus.textContent = 'Fetching the data…';
      // One file after another under the one progress bar: the test split, then the training images.
      await testSplit();
      const trainSet = await data.trainSplit(count);
      trainLoaded(trainSet);
      if (!validationTyped) {
        const v = trainSet.info.default_validation_samples;
        if (!Number.isInteger(v)) throw new Error(`core's facts of the training images carry no default_validation_samples (got ${JSON.stringify(v)}); rebuild the page`);
        recipe.validation_samples = v;
        validation.input.value = String(v);
      }
      if (trainedModel !== null) {
        await lab.dropModel(trainedModel, { where }).catch(() => {});
        trainedModel = null;
      }
      const model = await lab.createModel(spec, { where });
      trainedModel = model.model;
      let start;
      try {
        start = await lab.startTraining(model.model, trainSet.dataset, recipe, { where });
      } catch (err) {
        const key = controlOfError(err.message);
        const f = allFields.find((x) => x.control.key === key);
        if (f) showFieldError(f, err.message);
        else showError(trainError, err);
        trainStatus.textContent = 'Not started: core refused the recipe.';
        return;
      }
      // Core's recipe as it will run (an empty field took the baseline's value).
      for (const f of recipeFields) f.input.value = String(f.control.read(start.recipe));
      trainNote.textContent =
        `Training ${MODEL} on ${formatInt(start.train_samples)} images (validation: ${formatInt(start.validation_samples)}), ` +
        `${formatInt(start.steps_per_epoch)} steps per epoch, ${formatInt(start.steps_total)} steps in all.`;
      trainNote.hidden = false;
      loadPlot();
      const t0 = performance.now();
      let done = 0;
      let msPerStep = null;
      while (done < start.steps_total && !running.cancelRequested) {
        // Chunks sized from the steps so far: about CHUNK_MS each, about SWEEP_MS per request.
        const chunk = msPerStep ? Math.max(1, Math.min(5000, Math.round(CHUNK_MS / msPerStep))) : 2;
        const chunks = msPerStep ? Math.max(1, Math.round(SWEEP_MS / CHUNK_MS)) : 1;
        const points = [];
        for (let planned = done, i = 0; i < chunks && planned < start.steps_total; i++) {
          const n = Math.min(chunk, start.steps_total - planned);
          points.push({ model_id: model.model, steps: n });
          planned += n;
        }
        const before = performance.now();
        // No AbortSignal: a cancel is seen between requests (a request lasts about SWEEP_MS),
        // so the worker is never ended inside a step and core keeps the model it holds.
        const result = await sweepOnce(bridge, 'trainSteps', { points }, {
          where,
          onProgress: (fraction, detail) => {
            const row = detail?.row;
            if (!row) return;
            trainProgress.value = row.steps_done / row.steps_total;
            const point = stepRow(row, start.steps_per_epoch);
            if (point) steps.push(point);
            if (row.epochs.length) {
              epochs.push(...row.epochs);
              showEpochs(epochs);
            }
            drawOnEpochs(stepChart, [...steps], epochTicks(0, steps.at(-1)?.epoch ?? -1));
            const last = epochs.at(-1);
            trainStatus.textContent =
              `Epoch ${row.epoch} of ${formatInt(start.recipe.epochs)} · step ${formatInt(row.steps_done)} of ${formatInt(row.steps_total)}` +
              (last ? ` · ${formatInt(last.samples_per_s)} samples/s in epoch ${last.epoch}` : '');
          },
        });
        const last = result.rows.at(-1);
        msPerStep = (performance.now() - before) / Math.max(1, last.steps_done - done);
        done = last.steps_done;
        if (last.finished) break;
      }
      let outcome;
      if (running.cancelRequested && done < start.steps_total) {
        const kept = await lab.cancelTraining(model.model, { where });
        outcome =
          `Cancelled at step ${formatInt(done)} of ${formatInt(start.steps_total)}: the model keeps the weights of the ` +
          `${formatInt(kept.epochs.length)} epoch${kept.epochs.length === 1 ? '' : 's'} finished.`;
        // Core's record of the kept epochs (the same the chunks reported).
        epochs.splice(0, epochs.length, ...kept.epochs);
        showEpochs(epochs);
      } else {
        outcome = `Trained ${formatInt(epochs.length)} epoch${epochs.length === 1 ? '' : 's'} in ${formatSig((performance.now() - t0) / 1000)} s.`;
      }
      trainProgress.value = done / start.steps_total;
      trainStatus.textContent = outcome;
      trainStatus.dataset.epochsKept = String(epochs.length);
      if (epochs.length > 0) {
        trainedEpochs = epochs.length;
        downloadButton.disabled = false;
        await evaluation.evaluate(model.model, `${MODEL} trained here (${formatInt(epochs.length)} epoch${epochs.length === 1 ? '' : 's'})`);
      } else {
        evaluation.note('No epoch finished, so there is no trained model to evaluate yet.');
      }
    } catch (err) {
      forgetIfRestarted(err);
      showError(trainError, err);
      trainStatus.textContent = 'Stopped by an error.';
    } finally {
      running = null;
      enableTrain();
      cancelButton.disabled = true;
      onBusy(false);
    }
  }

  trainButton.addEventListener('click', () => {
    if (!running) train();
  });
  downloadButton.addEventListener('click', async () => {
    if (running || trainedModel === null) return;
    trainError.hidden = true;
    try {
      const bytes = await lab.modelFileBytes(trainedModel, { where });
      downloadBytes(`${MODEL}-${trainedEpochs}-epochs.perflab`, bytes);
    } catch (err) {
      forgetIfRestarted(err);
      showError(trainError, err);
    }
  });
  cancelButton.addEventListener('click', () => {
    if (!running) return;
    running.cancelRequested = true;
    cancelButton.disabled = true;
    trainStatus.textContent = 'Cancelling after the current chunk…';
  });

  const element = block(
    'train-block',
    'Training in your browser',
    h('div', { class: 'controls' }, ...allFields.map((f) => f.wrapper), trainButton, cancelButton, trainProgress, trainStatus),
    ...allFields.map((f) => f.error),
    h('p', { class: 'note', text: 'Training images are the first images of the training split; the validation images are taken from them, the rest train. Left empty, Validation images is core’s default for the training images chosen, filled in when training starts. Core checks every recipe value.' }),
    trainError,
    trainNote,
    h('h4', { class: 'chart-title', text: 'Loss per epoch' }),
    lossBox,
    h('h4', { class: 'chart-title', text: 'Accuracy per epoch' }),
    accuracyBox,
    h('h4', { class: 'chart-title', text: 'Batch loss, step by step (the last batch of each chunk)' }),
    stepBox,
    h('div', { class: 'table-wrap' }, epochTable.element),
    h('h4', { text: 'Where a training step’s time goes' }),
    h('div', { class: 'table-wrap fm-compact-wrap' }, splitTable.element),
    ruleNote,
    h(
      'div',
      { class: 'actions' },
      downloadButton,
      h('span', { class: 'status', html: 'The file holds the architecture, the weights, the preprocessing and the training facts; <code>perflab evaluate FILE</code> evaluates it natively.' }),
    ),
  );

  return {
    element,
    /** The controls' defaults (core's baseline recipe, the manifest's training subset) and the model's spec. */
    ready({ recipe, manifest, spec: modelSpec }) {
      spec = modelSpec;
      trainImages.input.value = String(fileOf(manifest, 'train_subset', 'images').count);
      // Validation images stay empty: core's default depends on the training images chosen.
      for (const f of recipeFields) if (f !== validation) f.input.value = String(f.control.read(recipe));
      enableTrain();
    },
    /** Whether a training run holds the lab. */
    isTraining: () => running !== null,
    /** The baseline's evaluation starts (busy) or ends: training waits for it. */
    setBusy(value) {
      busy = value;
      enableTrain();
    },
    showError: (err) => showError(trainError, err),
    /** The lab restarted: the trained model's id is stale. */
    forget() {
      trainedModel = null;
      downloadButton.disabled = true;
    },
    destroy() {
      if (running) running.cancelRequested = true;
      lossChart.destroy();
      accuracyChart.destroy();
      stepChart.destroy();
    },
  };
}
