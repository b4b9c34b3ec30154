// The training block's data, reshaped from core's answers (no arithmetic beyond dividing
// core's sums by core's counts): the recipe controls and the recipe JSON they give, which
// control a recipe error names, the chart rows of the epoch records and the chunks' batch
// losses, the time per step split by part (EpochRecord's forward_ms, loss_ms, backward_ms,
// optimizer_ms, data_ms over its steps) and the sentence comparing backward with forward
// against the profiler's "backward ≈ 2× forward" rule, worded from the measured ratio.
// Pure (no DOM), so tests/js can check it. Not for: training or timing (core).

import { formatPercent, formatSig } from '../../ui/format.js';

/**
 * The recipe fields a student may change, in the order shown; defaults come from core's
 * baseline recipe (`read`), and core checks every value (its error names the field).
 */
export const RECIPE_CONTROLS = Object.freeze([
  { key: 'epochs', label: 'Epochs', type: 'number', read: (r) => r.epochs },
  { key: 'batch', label: 'Batch', type: 'number', read: (r) => r.batch },
  { key: 'learning_rate', label: 'Learning rate', type: 'number', step: 'any', read: (r) => r.learning_rate },
  { key: 'optimizer', label: 'Optimizer', type: 'text', read: (r) => r.optimizer.name },
  { key: 'validation_samples', label: 'Validation images', type: 'number', read: (r) => r.validation_samples },
]);

/**
 * The recipe JSON from the controls' texts: numbers as typed (an empty field is left out, so
 * core's baseline value applies), the optimizer by name. Core validates everything.
 */
export function recipeOf(texts) {
  const recipe = {};
  for (const c of RECIPE_CONTROLS) {
    const text = String(texts[c.key] ?? '').trim();
    if (text === '') continue;
    recipe[c.key] = c.type === 'number' ? Number(text) : text;
  }
  return recipe;
}

/** The control key core's recipe error names ("recipe batch must be ...", "optimizer \"x\" ..."), or null. */
export function controlOfError(message) {
  const m = /^recipe[ .]([a-z_]+)/.exec(message);
  if (m && RECIPE_CONTROLS.some((c) => c.key === m[1])) return m[1];
  if (/^optimizer\b/.test(message)) return 'optimizer';
  return null;
}

export const LOSS_SERIES = Object.freeze(['train (epoch mean)', 'validation']);
export const STEP_SERIES = 'batch loss';

/** Per-epoch rows for the loss and accuracy charts: one point per epoch and series. */
export function epochRows(epochs) {
  const loss = [];
  const accuracy = [];
  for (const e of epochs) {
    loss.push({ epoch: e.epoch, value: e.train_loss, series: LOSS_SERIES[0] });
    accuracy.push({ epoch: e.epoch, value: e.train_accuracy, series: LOSS_SERIES[0] });
    // Null in JSON when training had no validation images.
    if (e.validation_loss !== null && e.validation_loss !== undefined) {
      loss.push({ epoch: e.epoch, value: e.validation_loss, series: LOSS_SERIES[1] });
      accuracy.push({ epoch: e.epoch, value: e.validation_accuracy, series: LOSS_SERIES[1] });
    }
  }
  return { loss, accuracy };
}

/**
 * Whole-epoch tick values from `first` to `last` for an epoch axis (a chart's own ticks would
 * fall on 1.2, 1.4, ...): every epoch, or every 2, 5, 10, 20, 50, ... so at most `most`.
 */
export function epochTicks(first, last, most = 10) {
  if (!Number.isFinite(first) || !Number.isFinite(last) || last < first) return [];
  let step = 1;
  for (let decade = 1; Math.floor(last / step) - Math.ceil(first / step) + 1 > most; ) {
    if (step === decade) step = 2 * decade;
    else if (step === 2 * decade) step = 5 * decade;
    else step = decade *= 10;
  }
  const ticks = [];
  for (let t = Math.ceil(first / step) * step; t <= last; t += step) ticks.push(t);
  return ticks;
}

/** A chunk's row (trainSteps) as a point of the batch-loss chart: x in epochs (steps / steps per epoch). */
export function stepRow(row, stepsPerEpoch) {
  if (row.loss === null || row.loss === undefined) return null;
  return { epoch: row.steps_done / stepsPerEpoch, value: row.loss, series: STEP_SERIES, step: row.steps_done };
}

/**
 * The time per step of the epochs given, by part, summed over them and divided by their steps:
 * rows {part, ms_per_step, share}, the ratio of backward (with the loss) to forward, and the
 * steps and epochs counted.
 */
export function stepSplit(epochs) {
  const sum = (k) => epochs.reduce((s, e) => s + e[k], 0);
  const steps = sum('steps');
  if (epochs.length === 0 || steps === 0) return null;
  const parts = [
    { part: 'forward', ms: sum('forward_ms') },
    { part: 'backward (with the loss)', ms: sum('backward_ms') + sum('loss_ms') },
    { part: 'optimizer step', ms: sum('optimizer_ms') },
    { part: 'building the batch', ms: sum('data_ms') },
  ];
  const total = parts.reduce((s, p) => s + p.ms, 0);
  return {
    steps,
    epochs: epochs.length,
    rows: parts.map((p) => ({ part: p.part, ms_per_step: p.ms / steps, share: total > 0 ? p.ms / total : NaN })),
    backward_over_forward: parts[0].ms > 0 ? parts[1].ms / parts[0].ms : NaN,
    optimizer_share: total > 0 ? parts[2].ms / total : NaN,
  };
}

/** How the measured backward/forward ratio reads against the profiler's 2× rule. */
export function ruleSentence(split) {
  const r = split?.backward_over_forward;
  if (!Number.isFinite(r)) return 'No step was timed yet, so the backward/forward ratio is not measured.';
  const ratio = `${formatSig(r, 2)}×`;
  let verdict;
  if (r < 1.8) verdict = `below the rule’s 2×: the first layer’s backward computes only its weight gradient (nothing reads its input gradient), and it is the widest layer`;
  else if (r > 2.2) verdict = `above the rule’s 2×: here the backward’s extra work (transposed matmuls, the ReLU masks, the loss) costs more than the forward’s`;
  else verdict = 'close to the rule’s 2×';
  const steps = `${split.steps.toLocaleString('en-US')} step${split.steps === 1 ? '' : 's'}`;
  return (
    `Measured over ${steps}: the backward pass (with the loss) took ${ratio} the forward pass’s time, ${verdict}. ` +
    `The optimizer step took ${formatPercent(split.optimizer_share)} of a step.`
  );
}
