// Runs a training session core has started (startTraining, startFinetuning,
// startDistillation) to its end in chunks of trainSteps, for the sections that train after
// "A model worth optimizing": chunks of about CHUNK_MS inside core, a few per request, so the
// progress bar moves and a cancel is seen between requests (never inside a step: core keeps
// the model it holds). With `atEpochs`, no chunk crosses an epoch's end, so the caller can
// evaluate the weights of each finished epoch before the next step changes them.
// Not for: the numbers (core), drawing (the sections).

import { sweepOnce } from '../../lab/client.js';

const CHUNK_MS = 120;
const SWEEP_MS = 600;

/**
 * The sizes of the next request's chunks: up to `chunks` of `chunk` steps from `done`, none
 * past `total`, and (when `stopAtEpochs`) none past the end of the epoch `done` is in.
 * Pure, for tests/js.
 */
export function planChunks({ done, total, stepsPerEpoch, chunk, chunks, stopAtEpochs }) {
  const out = [];
  let planned = done;
  const end = stopAtEpochs ? Math.min(total, (Math.floor(done / stepsPerEpoch) + 1) * stepsPerEpoch) : total;
  for (let i = 0; i < chunks && planned < end; i++) {
    const n = Math.min(chunk, end - planned);
    out.push(n);
    planned += n;
  }
  return out;
}

/**
 * Trains model `modelId` (its session started: `start` is core's answer) from step `from` up
 * to step `until` (default: the end), stopping early when `isCancelled()` is true between
 * requests. `onRow(row)` hears every chunk's row (progress), `atEpoch(record)` (awaited) each
 * finished epoch's record, with that epoch's weights in core when `stopAtEpochs`. `pace` is
 * the milliseconds per step measured so far (undefined at first). Returns {steps_done,
 * epochs (the records finished here), finished, pace}. Cancelling is the caller's
 * (cancelTraining), so two sessions can take turns.
 */
export async function trainSteps({ bridge, modelId, start, where, from = 0, until = start.steps_total, pace, isCancelled = () => false, onRow = () => {}, atEpoch = async () => {}, stopAtEpochs = false }) {
  const total = Math.min(until, start.steps_total);
  const epochs = [];
  let done = from;
  let finished = done >= start.steps_total;
  let msPerStep = pace;
  while (done < total && !isCancelled()) {
    const sizes = planChunks({
      done,
      total,
      stepsPerEpoch: start.steps_per_epoch,
      chunk: msPerStep ? Math.max(1, Math.min(5000, Math.round(CHUNK_MS / msPerStep))) : 2,
      chunks: msPerStep ? Math.max(1, Math.round(SWEEP_MS / CHUNK_MS)) : 1,
      stopAtEpochs,
    });
    const before = performance.now();
    const records = [];
    const result = await sweepOnce(bridge, 'trainSteps', { points: sizes.map((steps) => ({ model_id: modelId, steps })) }, {
      where,
      onProgress: (fraction, detail) => {
        const row = detail?.row;
        if (!row) return;
        records.push(...row.epochs);
        onRow(row);
      },
    });
    const last = result.rows.at(-1);
    msPerStep = (performance.now() - before) / Math.max(1, last.steps_done - done);
    done = last.steps_done;
    finished = last.finished;
    for (const record of records) {
      epochs.push(record);
      await atEpoch(record);
    }
    if (finished) break;
  }
  return { steps_done: done, epochs, finished, pace: msPerStep };
}

/**
 * trainSteps to the end; when cancelled first, core's cancelTraining puts back the last
 * finished epoch's weights. Returns {epochs (core's records of the epochs kept), cancelled,
 * steps_done}.
 */
export async function trainToEnd({ lab, modelId, where, ...rest }) {
  const r = await trainSteps({ modelId, where, ...rest });
  if (!r.finished) {
    const kept = await lab.cancelTraining(modelId, { where });
    return { epochs: kept.epochs, cancelled: true, steps_done: r.steps_done };
  }
  return { epochs: r.epochs, cancelled: false, steps_done: r.steps_done };
}
