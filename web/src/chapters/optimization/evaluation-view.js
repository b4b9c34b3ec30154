// The "Evaluation on the test split" block of "A model worth optimizing": core's evaluation of
// a model (accuracy, per class, the confusion matrix, the misclassified images drawn from the
// page's copy of the test split), for the model trained here (train-view.js asks) or the
// pretrained baseline (its button: the manifest's model file, loaded by core). Not for: the
// numbers (core computes every one), fetching (data.js), drawing pixels (images.js).

import { h, setChildren } from '../../ui/dom.js';
import { formatInt, formatPercent, formatSig } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { MODEL } from './facts.js';
import { imageCanvas, labelAt } from './images.js';
import { addMadeModel } from './made-models.js';
import { block, mbText, showError } from './section-ui.js';

const MISCLASSIFIED_SHOWN = 40;
const where = 'optimization-evaluation';

/**
 * The evaluation block. `testSplit()` gives the test split in core (data block);
 * `isTraining()` says whether a training run holds the lab; `onBusy(busy)` hears when the
 * baseline's evaluation starts and ends (training waits); `forgetIfRestarted(err)` is told
 * every error; `onEvaluated(modelId, name)` hears each evaluation that succeeded. Returns the block's element and what the section drives.
 */
export function createEvaluationView({ lab, data, testSplit, isTraining, onBusy, forgetIfRestarted, onEvaluated = () => {} }) {
  const evaluateBaselineButton = h('button', { type: 'button', 'data-action': 'evaluate-baseline', text: 'Load the pretrained baseline and evaluate it', disabled: true });
  const baselineNote = h('p', { class: 'note', 'data-role': 'baseline-note', hidden: true });
  const evaluationStatus = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': 'evaluation-status', text: 'No model evaluated yet.' });
  const evaluationError = h('p', { class: 'error', role: 'alert', 'data-role': 'evaluation-error', hidden: true });
  const evaluationBox = h('div', { class: 'fm-evaluation', 'data-role': 'evaluation' });
  let baselineModel = null;
  let hasPretrained = false; // the page build shipped the pretrained model
  let busy = false; // a training run holds the lab

  async function evaluate(modelId, name) {
    evaluationError.hidden = true;
    evaluationStatus.textContent = `Evaluating ${name} on the test split…`;
    const test = await testSplit();
    const e = await lab.evaluateModel(modelId, test.dataset, MISCLASSIFIED_SHOWN, { where });
    evaluationStatus.textContent = `Evaluated ${name}.`;
    showEvaluation(e, test, name);
    // While the id is surely held: the weights block reads the same model's weights, and the
    // made models keep its file as the baseline every transform starts from.
    onEvaluated(modelId, name);
    const [bytes, info] = await Promise.all([lab.modelFileBytes(modelId, { where }), lab.modelInfo(modelId, { where })]);
    addMadeModel({ key: 'baseline', name, lineage: [], bytes, baseline: true, evaluation: e, info });
    return e;
  }

  function showEvaluation(e, test, name) {
    const names = e.class_names;
    const perClass = names.map((className, c) => ({ className, count: e.per_class_count[c], accuracy: e.per_class[c] ?? NaN }));
    const perClassTable = createTable(
      [
        { label: 'class', key: 'className', rowHeader: true, format: 'text' },
        { label: 'test images', key: 'count', format: 'int' },
        { label: 'accuracy', key: 'accuracy', format: 'percent' },
      ],
      { rows: perClass, caption: 'Accuracy per true class', role: 'per-class', className: 'numbers fm-compact' },
    );
    // Shading: the diagonal against its largest cell, the mistakes against theirs, so the
    // large off-diagonal cells stand out beside counts ten times their size.
    const cells = e.confusion.flatMap((row, t) => row.map((count, p) => ({ count, diagonal: t === p })));
    const maxOf = (diagonal) => Math.max(1, ...cells.filter((c) => c.diagonal === diagonal).map((c) => c.count));
    const maxDiagonal = maxOf(true);
    const maxWrong = maxOf(false);
    const confusion = h(
      'table',
      { class: 'numbers fm-confusion', 'data-role': 'confusion' },
      h('caption', { text: 'Confusion matrix: rows are the true class, columns the predicted one; the diagonal is correct' }),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'text', text: 'true ↓ predicted →' }), names.map((n) => h('th', { scope: 'col', text: n })))),
      h(
        'tbody',
        {},
        e.confusion.map((row, t) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row', class: 'text', text: names[t] }),
            row.map((count, p) => {
              const cell = h('td', { text: formatInt(count), 'data-count': String(count), class: t === p ? 'diagonal' : undefined });
              cell.style.setProperty('--shade', String(count / (t === p ? maxDiagonal : maxWrong)));
              return cell;
            }),
          ),
        ),
      ),
    );
    const wrong = e.misclassified.map((m) =>
      h(
        'figure',
        { class: 'fm-wrong', 'data-predicted': names[m.predicted], 'data-true': names[m.label] },
        imageCanvas(test.images, m.index, test.info, { label: `test image ${m.index}: predicted ${names[m.predicted]}, true ${names[m.label]}`, size: 56 }),
        h(
          'figcaption',
          {},
          h('span', { class: 'predicted', text: `predicted ${names[m.predicted]} (${formatPercent(m.confidence)})` }),
          h('span', { class: 'true', text: `true ${names[m.label]}` }),
        ),
      ),
    );
    // The true label the page drew is the one core reported (a check that the row is the image core saw).
    const drawnAgree = e.misclassified.every((m) => labelAt(test.labels, m.index) === m.label);
    setChildren(
      evaluationBox,
      h(
        'p',
        { class: 'result-note', 'data-role': 'accuracy', 'data-accuracy': String(e.accuracy), 'data-n': String(e.n) },
        `Test accuracy of ${name}: `,
        h('b', { text: formatPercent(e.accuracy) }),
        ` (${formatInt(e.correct)} of ${formatInt(e.n)} test images right; mean loss ${formatSig(e.mean_loss)} nats; parameters ${mbText(e.parameter_bytes)}).`,
      ),
      h('div', { class: 'table-wrap fm-compact-wrap' }, perClassTable.element),
      h('div', { class: 'table-wrap' }, confusion),
      h('h4', { text: `Misclassified: the first ${formatInt(e.misclassified.length)} of ${formatInt(e.misclassified_total)}, in test-set order` }),
      drawnAgree ? null : h('p', { class: 'error', text: 'The labels of the drawn images differ from core’s: the page’s copy of the test split is not the one core read.' }),
      h('div', { class: 'fm-wrong-grid', 'data-role': 'misclassified' }, wrong),
    );
  }

  evaluateBaselineButton.addEventListener('click', async () => {
    if (isTraining()) return;
    evaluateBaselineButton.disabled = true;
    onBusy(true);
    try {
      if (baselineModel === null) {
        evaluationStatus.textContent = 'Fetching the pretrained model…';
        const [, pretrained] = await Promise.all([testSplit(), data.pretrained()]);
        if (!pretrained) throw new Error('this page was built without the pretrained model (tools/lab build trains it)');
        const info = await lab.loadModelFile(pretrained.bytes, { where });
        baselineModel = { id: info.model, info, facts: pretrained.facts };
        const t = info.training;
        baselineNote.textContent = t
          ? `The pretrained baseline: ${MODEL} trained natively by the page’s build (${formatInt(t.epochs)} epochs on ${formatInt(t.train_samples)} images). ` +
            `The native evaluation recorded test accuracy ${formatPercent(pretrained.facts.test_accuracy)}; the evaluation below ran in your browser.`
          : `The pretrained baseline; the native evaluation recorded test accuracy ${formatPercent(pretrained.facts.test_accuracy)}.`;
        baselineNote.hidden = false;
      }
      await evaluate(baselineModel.id, `the pretrained ${MODEL}`);
    } catch (err) {
      forgetIfRestarted(err);
      showError(evaluationError, err);
      evaluationStatus.textContent = 'Not evaluated.';
    } finally {
      evaluateBaselineButton.disabled = busy || !hasPretrained;
      onBusy(false);
    }
  });

  const element = block(
    'evaluation-block',
    'Evaluation on the test split',
    h('div', { class: 'controls' }, evaluateBaselineButton, evaluationStatus),
    baselineNote,
    evaluationError,
    evaluationBox,
  );

  return {
    element,
    evaluate,
    /** Whether the page build shipped the pretrained model (the manifest's answer). */
    ready(pretrained) {
      hasPretrained = pretrained;
      evaluateBaselineButton.disabled = busy || !hasPretrained;
      if (!pretrained) {
        baselineNote.textContent = 'This page was built without the pretrained model (tools/lab build trains it).';
        baselineNote.hidden = false;
      }
    },
    /** A training run starts (busy) or ends: the baseline waits for it. */
    setBusy(value) {
      busy = value;
      evaluateBaselineButton.disabled = busy || !hasPretrained;
    },
    /** Clears the shown evaluation, with a status sentence. */
    clear(status) {
      setChildren(evaluationBox);
      evaluationStatus.textContent = status;
    },
    /** Shows a note where the evaluation would be. */
    note(text) {
      setChildren(evaluationBox, h('p', { class: 'note', text }));
    },
    /** The lab restarted: the baseline's model id is stale. */
    forget() {
      baselineModel = null;
    },
  };
}
