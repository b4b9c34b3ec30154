// "A model worth optimizing": four blocks sharing one session with core. The data (fetched
// on first need with a progress bar, sample images per class once the test split is in core)
// is this file's; training in the lab worker is train-view.js's, evaluation on the test
// split evaluation-view.js's and the evaluated model's weight distribution weights-view.js's. This file wires them: one data store, one restart rule (core
// lost every id), and the rule that a training run and the baseline's evaluation wait for
// each other. A mount function for the chapter shell. Not for: the numbers (core computes
// every one), fetching (data.js), drawing pixels (images.js).

import { labOf } from '../../lab/client.js';
import { h, setChildren } from '../../ui/dom.js';
import { formatInt } from '../../ui/format.js';
import { createDataStore, loadManifest } from './data.js';
import { createEvaluationView } from './evaluation-view.js';
import { MODEL } from './facts.js';
import { imageCanvas, rowsByClass } from './images.js';
import { block, isLabRestart, mbText, showError } from './section-ui.js';
import { createTrainView } from './train-view.js';
import { createWeightsView } from './weights-view.js';

const SAMPLES_PER_CLASS = 8;

export function mountModelSection(section, { bridge }) {
  const lab = labOf(bridge);
  const where = 'optimization-model';

  // ---- data: one progress bar for every fetch
  const dataProgress = h('progress', { max: '1', value: '0', 'aria-label': 'data fetched', 'data-role': 'data-progress' });
  const dataStatus = h('span', { class: 'status', 'aria-live': 'polite', 'data-role': 'data-status', text: 'Nothing fetched yet.' });
  const dataError = h('p', { class: 'error', role: 'alert', 'data-role': 'data-error', hidden: true });
  const samplesBox = h('div', { class: 'fm-samples', 'data-role': 'samples' });
  const dataFacts = h('p', { class: 'note', 'data-role': 'data-facts', hidden: true });
  const showButton = h('button', { type: 'button', 'data-action': 'show-samples', text: 'Fetch the test split and show samples' });
  const data = createDataStore(bridge, {
    progress(p) {
      if (!p) return;
      dataProgress.value = p.total > 0 ? p.received / p.total : 0;
      dataStatus.textContent = `Fetching ${p.what}: ${mbText(p.received)} of ${mbText(p.total)}`;
      if (p.received === p.total) dataStatus.textContent = `Fetched ${p.what} (${mbText(p.total)}); core is reading it…`;
    },
  });
  // What core holds of the data, and the bytes fetched for it.
  let trainInCore = null; // the training images' count core holds, once loaded
  const showInCore = () => {
    const train = trainInCore === null ? '' : ` and ${formatInt(trainInCore)} training images`;
    dataStatus.textContent = `Test split${train} in core. ${mbText(data.fetchedBytes())} fetched so far.`;
  };

  let samplesShown = false;
  async function testSplit() {
    const test = await data.testSplit();
    if (!samplesShown) {
      samplesShown = true;
      showSamples(test);
    }
    showInCore();
    return test;
  }

  function showSamples(test) {
    const { info } = test;
    const perClass = rowsByClass(test.labels, info.classes, info.count, SAMPLES_PER_CLASS);
    dataFacts.textContent =
      `Core read ${formatInt(info.count)} test images of ${info.rows}×${info.cols} pixels in ${info.classes} classes ` +
      `(${info.class_counts.map((n, c) => `${info.class_names[c]} ${formatInt(n)}`).join(', ')}).`;
    dataFacts.hidden = false;
    setChildren(
      samplesBox,
      h('h4', { text: `The first ${SAMPLES_PER_CLASS} test images of each class` }),
      h(
        'div',
        { class: 'fm-sample-grid' },
        perClass.map((rows, c) =>
          h(
            'div',
            { class: 'fm-sample-row', 'data-class': String(c) },
            h('span', { class: 'fm-class-name', text: info.class_names[c] }),
            rows.map((i) => imageCanvas(test.images, i, info, { label: `test image ${i}: ${info.class_names[c]}`, size: 42 })),
          ),
        ),
      ),
    );
  }

  showButton.addEventListener('click', async () => {
    showButton.disabled = true;
    dataError.hidden = true;
    try {
      await testSplit();
    } catch (err) {
      showError(dataError, err);
      showButton.disabled = false;
    }
  });

  // ---- training and evaluation: each waits while the other holds the lab
  const weights = createWeightsView({ lab, forgetIfRestarted });
  const evaluation = createEvaluationView({
    lab,
    data,
    testSplit,
    isTraining: () => training.isTraining(),
    onBusy: (busy) => training.setBusy(busy),
    forgetIfRestarted,
    onEvaluated: (modelId, name) => weights.show(modelId, name),
  });
  const training = createTrainView({
    bridge,
    lab,
    data,
    testSplit,
    trainLoaded: (trainSet) => {
      trainInCore = trainSet.info.count;
      showInCore();
    },
    evaluation,
    onBusy: (busy) => evaluation.setBusy(busy),
    forgetIfRestarted,
  });

  Promise.all([lab.baselineRecipe(MODEL, { where }), lab.zooModels({ where }), loadManifest()])
    .then(([recipe, zoo, manifest]) => {
      const spec = zoo.find((z) => z.name === MODEL)?.spec;
      if (!spec) throw new Error(`core's zoo has no ${MODEL}`);
      training.ready({ recipe, manifest, spec });
      evaluation.ready(Boolean(manifest.pretrained));
    })
    .catch((err) => training.showError(err));

  // Core's answer when an id it was given is not held: the worker restarted and its module
  // with it, so every id this section keeps is stale; the next action loads afresh.
  function forgetIfRestarted(err) {
    if (!isLabRestart(err)) return;
    data.forget();
    samplesShown = false;
    trainInCore = null;
    training.forget();
    evaluation.forget();
    weights.forget();
    err.message += ' (the lab restarted, so its data and models are gone; they load again on the next action)';
  }

  section.append(
    block(
      'data-block',
      'The data',
      h('div', { class: 'controls' }, showButton, dataProgress, dataStatus),
      dataError,
      dataFacts,
      samplesBox,
    ),
    training.element,
    evaluation.element,
    weights.element,
  );

  return {
    destroy() {
      training.destroy();
      weights.destroy();
    },
  };
}
