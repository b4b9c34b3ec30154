// The distillation experiment (optimization-distillation): core's default student trained
// from the made models' baseline as teacher (startDistillation) and the same student on the
// labels alone (startTraining), same seed, recipe and split, taking turns epoch by epoch in
// the lab worker (chunked-training.js: progress bar, Cancel keeping the epochs both
// finished), each evaluated on the test split after every epoch; the two curves, the
// difference and what one seed can say. The distilled student joins the made models.
// A mount function for the chapter shell. Not for: any number (core), the rows and
// sentences (distill-data.js).

import { LineChart } from '../../charts/line-chart.js';
import { loadPlot } from '../../charts/plot-lib.js';
import { experimentPlans } from '../../experiments/plans.js';
import { isQuick } from '../../experiments/model.js';
import { labOf } from '../../lab/client.js';
import { h } from '../../ui/dom.js';
import { formatInt, formatPercent } from '../../ui/format.js';
import { createTable } from '../../ui/table.js';
import { trainSteps } from './chunked-training.js';
import { DISTILL_ID, SERIES, curveRows, distillSentences, madeEntry, tableRows } from './distill-data.js';
import { linearWidths } from './facts.js';
import { accuracyDomain } from './structured-data.js';
import { epochTicks } from './train-data.js';
import { addMadeModel, baselineModel, subscribeMadeModels } from './made-models.js';
import { block, createRunFrame, madeModelText, needBaselineText, showError, showSentences } from './section-ui.js';

const where = `${DISTILL_ID}-run`;

export function mountDistillSection(section, { bridge }) {
  const lab = labOf(bridge);
  const quick = isQuick(globalThis.location?.search ?? '');
  let plans = null;
  const frame = createRunFrame(bridge, {
    prefix: 'distill',
    where,
    runText: 'Train both students',
    progressLabel: 'distillation progress',
    ready: () => baselineModel() !== null,
    run: (ctx) => run(ctx),
  });
  const { progress, status, errorBox, data } = frame;
  const baselineNote = h('p', { class: 'note', 'data-role': 'distill-baseline' });
  const curveBox = h('div', { class: 'chart', 'data-role': 'chart', 'data-chart': 'distill-curves' });
  const chart = new LineChart(curveBox, {
    x: 'epoch',
    y: 'accuracy',
    series: 'series',
    seriesDomain: [...SERIES],
    xLabel: 'epoch →',
    yLabel: '↑ test accuracy',
    yFormat: (v) => `${Math.round(v * 100)}%`,
    ariaLabel: 'Test accuracy after each epoch of the student distilled from the baseline and of the same student trained on the labels alone',
    emptyText: 'Both students’ test accuracy after each epoch appears here.',
    height: 260,
  });
  const table = createTable(
    [
      { key: 'epoch', label: 'epoch', format: 'int' },
      // Two decimals and a signed difference: each row's difference is its printed accuracies'.
      { key: 'distilled', label: SERIES[0], format: (r) => formatPercent(r.distilled, 2) },
      { key: 'labels', label: SERIES[1], format: (r) => formatPercent(r.labels, 2) },
      { key: 'difference_points', label: 'difference (points)', format: (r) => `${r.difference_points < 0 ? '−' : '+'}${Math.abs(r.difference_points).toFixed(2)}` },
    ],
    { caption: 'Test accuracy of both students after each epoch (difference: distilled − labels alone)', role: 'distill-epochs', className: 'numbers fm-compact' },
  );
  const sentences = h('div', { 'data-role': 'distill-sentences' });

  const unsubscribe = subscribeMadeModels(() => {
    const b = baselineModel();
    baselineNote.textContent = b
      ? `The teacher: the baseline, ${madeModelText(b)}.`
      : needBaselineText('it is the teacher');
    frame.enable();
  });

  experimentPlans(bridge, DISTILL_ID, quick, where)
    .then((p) => {
      plans = p;
      const { plan } = p;
      frame.showPlan(
        (quick ? 'Quick mode (?quick=1): the student' : 'The student') +
          ` is core’s default, an MLP ${linearWidths(plan.student)}; both train on the first ${formatInt(plan.train_images)} training images ` +
          `for ${formatInt(plan.recipe.epochs)} epochs with seed ${plan.recipe.seed}, at temperature ${plan.temperature} and α ${plan.alpha} (core’s defaults).`,
      );
    })
    .catch((err) => showError(errorBox, err));

  async function run(ctx) {
    const baseline = baselineModel();
    if (!baseline) return;
    const { plan, fullPlan } = plans;
    chart.update([]);
    table.setRows([]);
    sentences.replaceChildren();
    const test = await data.testSplit();
    const train = await data.trainSplit(plan.train_images);
    status.textContent = 'Core is loading the teacher and computing its logits…';
    const teacher = await lab.loadModelFile(baseline.bytes, { where });
    ctx.hold(teacher.model);
    const teacherEval = await lab.evaluateModel(teacher.model, test.dataset, 0, { where });
    const distilled = await lab.createModel(plan.student, { where });
    ctx.hold(distilled.model);
    const labels = await lab.createModel(plan.student, { where });
    ctx.hold(labels.model);
    const recipe = { ...plan.recipe, validation_samples: train.info.default_validation_samples };
    const startD = await lab.startDistillation(distilled.model, teacher.model, train.dataset, recipe, plan.temperature, plan.alpha, { where });
    const startL = await lab.startTraining(labels.model, train.dataset, recipe, { where });
    // The teacher's logits are in core now; it is not needed any more.
    await ctx.release(teacher.model);
    loadPlot();

    const curves = { distilled: [], labels: [] };
    const show = () => {
      const rows = curveRows(curves.distilled, curves.labels);
      chart.setOptions({ xTicks: epochTicks(1, Math.max(2, startD.recipe.epochs)), xDomain: [1, Math.max(2, startD.recipe.epochs)], yDomain: accuracyDomain(rows.map((r) => r.accuracy)) });
      chart.update(rows);
      table.setRows(tableRows(curves.distilled, curves.labels));
      curveBox.dataset.epochs = String(Math.min(curves.distilled.length, curves.labels.length));
    };
    const students = [
      { key: 'distilled', id: distilled.model, start: startD, done: 0, pace: undefined },
      { key: 'labels', id: labels.model, start: startL, done: 0, pace: undefined },
    ];
    const total = startD.steps_total + startL.steps_total;
    const epochs = startD.recipe.epochs;
    // Epoch by epoch, one student then the other, so a cancel leaves both with the same epochs.
    for (let e = 1; e <= epochs && !ctx.cancelled(); e++) {
      for (const s of students) {
        const r = await trainSteps({
          bridge,
          modelId: s.id,
          start: s.start,
          where,
          from: s.done,
          until: e * s.start.steps_per_epoch,
          pace: s.pace,
          stopAtEpochs: true,
          isCancelled: ctx.cancelled,
          onRow: (row) => {
            progress.value = (students.reduce((sum, x) => sum + x.done, 0) - s.done + row.steps_done) / total;
            status.textContent = `Epoch ${e} of ${formatInt(epochs)}: ${s.key === 'distilled' ? 'the distilled student' : 'the student on labels alone'}, step ${formatInt(row.steps_done)} of ${formatInt(row.steps_total)}`;
          },
          atEpoch: async (record) => {
            const ev = await lab.evaluateModel(s.id, test.dataset, 0, { where });
            curves[s.key].push({ epoch: record.epoch, accuracy: ev.accuracy });
            show();
          },
        });
        s.done = r.steps_done;
        s.pace = r.pace;
        if (ctx.cancelled()) break;
      }
    }
    const finished = Math.min(curves.distilled.length, curves.labels.length);
    if (ctx.cancelled()) {
      // Both go back to their last finished epoch; the curves keep the epochs both finished.
      for (const s of students) if (s.done < s.start.steps_total) await lab.cancelTraining(s.id, { where });
      curves.distilled.splice(finished);
      curves.labels.splice(finished);
      show();
    }
    progress.value = ctx.cancelled() ? progress.value : 1;
    if (finished === 0) {
      status.textContent = 'Cancelled before an epoch finished: nothing to compare.';
      return;
    }
    // After a cancel the distilled student holds its last finished epoch's weights, which
    // its last curve point measured.
    const d = curves.distilled[finished - 1].accuracy;
    const l = curves.labels[finished - 1].accuracy;
    showSentences(sentences, distillSentences({ distilled: d, labels: l, epochs: finished, seed: startD.recipe.seed, teacher: teacherEval.accuracy }, fullPlan));
    section.dataset.difference = String(100 * (d - l));
    const bytes = await lab.modelFileBytes(distilled.model, { where });
    const info = await lab.modelInfo(distilled.model, { where });
    const entry = madeEntry({ studentName: plan.student.name, teacherName: baseline.name, temperature: plan.temperature, alpha: plan.alpha, epochs: finished });
    addMadeModel({
      key: 'distilled',
      name: entry.name,
      lineage: [...(baseline.lineage ?? []), ...entry.lineage],
      bytes,
      baseline: false,
      evaluation: await lab.evaluateModel(distilled.model, test.dataset, 0, { where }),
      info,
    });
    status.textContent = ctx.cancelled()
      ? `Cancelled: both students keep ${formatInt(finished)} epoch${finished === 1 ? '' : 's'}.`
      : `Done: both students trained ${formatInt(finished)} epochs.`;
    section.dataset.done = 'true';
  }

  section.append(
    block(
      'distill-block',
      'Experiment: a small student, with and without the teacher',
      baselineNote,
      frame.controls(),
      frame.planNote,
      errorBox,
      h('h4', { class: 'chart-title', text: 'Test accuracy after each epoch, both students' }),
      curveBox,
      h('div', { class: 'table-wrap fm-compact-wrap' }, table.element),
      sentences,
    ),
  );

  return {
    destroy() {
      frame.destroy();
      unsubscribe();
      chart.destroy();
    },
  };
}
