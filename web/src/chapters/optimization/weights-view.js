// The "Look at the weights" block of "A model worth optimizing": after each evaluation, core's
// weight distribution of the model just evaluated (weightDistribution: per weight tensor and
// over all of them), as a table, a histogram of the picked tensor with ± its median magnitude
// marked, and a sentence read from the same figures; what magnitude pruning will cut. Not for:
// the figures (core computes every one; weights-data.js arranges them), pruning itself.

import { BinnedHistogramChart } from '../../charts/binned-histogram-chart.js';
import { h, setChildren } from '../../ui/dom.js';
import { createTable } from '../../ui/table.js';
import { block, showError } from './section-ui.js';
import { WEIGHT_COLUMNS, medianRules, tensorsOf, weightBins, weightSentence } from './weights-data.js';

const where = 'optimization-weights';

/**
 * The block. `show(modelId, name)` asks core for that model's distribution (the evaluation
 * block calls it after each evaluation, while the id is surely held); `forget()` after a
 * restart of the lab. `forgetIfRestarted(err)` is told every error.
 */
export function createWeightsView({ lab, forgetIfRestarted }) {
  const status = h('p', { class: 'note', 'data-role': 'weights-status', text: 'Evaluate a model above (the pretrained baseline, or one trained here) to see its weights.' });
  const error = h('p', { class: 'error', role: 'alert', 'data-role': 'weights-error', hidden: true });
  const picker = h('select', { 'data-role': 'weights-tensor', 'aria-label': 'weight tensor', disabled: true });
  const sentence = h('p', { class: 'result-note', 'data-role': 'weights-sentence', hidden: true });
  const chartBox = h('div', { class: 'chart', 'data-role': 'weights-chart' });
  const tableBox = h('div', { class: 'table-wrap', 'data-role': 'weights-table' });
  const chart = new BinnedHistogramChart(chartBox, {
    xLabel: 'weight value →',
    ariaLabel: 'Histogram of the picked weight tensor’s values, with ± its median magnitude marked',
    emptyText: 'No model evaluated yet.',
  });
  let shown = null; // {distribution, name}

  function draw() {
    if (!shown) return;
    const tensors = tensorsOf(shown.distribution);
    const s = tensors.find((t) => t.name === picker.value) ?? tensors[tensors.length - 1];
    chart.update({ bins: weightBins(s), rules: medianRules(s) });
    sentence.textContent = weightSentence(s, shown.distribution.model);
    sentence.hidden = false;
  }

  picker.addEventListener('change', draw);

  async function show(modelId, name) {
    error.hidden = true;
    status.textContent = `Reading the weights of ${name}…`;
    try {
      const d = await lab.weightDistribution(modelId, { where });
      const tensors = tensorsOf(d);
      const keep = picker.value;
      setChildren(picker, tensors.map((t) => h('option', { value: t.name, text: t.name === 'all' ? 'all weight tensors' : `${t.name} (${t.layer_type} #${t.layer})` })));
      picker.value = tensors.some((t) => t.name === keep) ? keep : 'all';
      picker.disabled = false;
      shown = { distribution: d, name };
      const table = createTable(WEIGHT_COLUMNS, {
        rows: tensors,
        caption: `The weights of ${name}, per weight tensor (biases left out) and all together. |w| pN: the magnitude below which N% of the weights lie; <t: the share of weights whose magnitude is below t.`,
        role: 'weights-rows',
        className: 'numbers',
      });
      setChildren(tableBox, table.element);
      status.textContent = `The weights of ${name}.`;
      draw();
    } catch (err) {
      forgetIfRestarted(err);
      showError(error, err);
      status.textContent = 'The weights could not be read.';
    }
  }

  const element = block(
    'weights-block',
    'Look at the weights',
    status,
    error,
    tableBox,
    h('div', { class: 'controls' }, h('label', {}, 'Histogram of ', picker)),
    sentence,
    chartBox,
  );

  return {
    element,
    show,
    forget() {
      shown = null;
    },
    destroy() {
      chart.destroy();
    },
  };
}
