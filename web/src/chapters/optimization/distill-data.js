// The pure half of the distillation section (optimization-distillation): the two students'
// curve rows (test accuracy after each epoch), the table's rows, the made-models entry, and
// the sentences under the results, read from the accuracies core measured: which student is
// ahead and by how much, and why one seed cannot decide it (the native bench's five-seed
// command is quoted, never a number it printed). No DOM, no statistic.

import { formatCount, formatInt, formatPercent, formatPoints } from '../../ui/format.js';

export const DISTILL_ID = 'optimization-distillation';
export const SERIES = Object.freeze(['distilled from the baseline', 'labels alone']);

/** The native command that measures the difference over five seeds (bench/bench_optimize_floors.cpp). */
export const SEEDS_COMMAND = 'build/native/bench/perflab_bench_optimize_floors';

/**
 * The curve rows: one point per epoch and student.
 * @param {Array<{epoch: number, accuracy: number}>} distilled
 * @param {Array<{epoch: number, accuracy: number}>} labels
 */
export function curveRows(distilled, labels) {
  return [
    ...distilled.map((p) => ({ epoch: p.epoch, accuracy: p.accuracy, series: SERIES[0] })),
    ...labels.map((p) => ({ epoch: p.epoch, accuracy: p.accuracy, series: SERIES[1] })),
  ];
}

/** Epoch by epoch, both students side by side (an epoch one of them has not finished is left out). */
export function tableRows(distilled, labels) {
  const byEpoch = new Map(labels.map((p) => [p.epoch, p.accuracy]));
  return distilled
    .filter((p) => byEpoch.has(p.epoch))
    .map((p) => ({ epoch: p.epoch, distilled: p.accuracy, labels: byEpoch.get(p.epoch), difference_points: 100 * (p.accuracy - byEpoch.get(p.epoch)) }));
}

/** The made-models entry's name and lineage. */
export function madeEntry({ studentName, teacherName, temperature, alpha, epochs }) {
  return {
    name: `${studentName} distilled from ${teacherName} (T ${temperature}, α ${alpha}, ${formatCount(epochs, 'epoch')})`,
    lineage: [`distill into ${studentName} (T ${temperature}, α ${alpha})`],
  };
}

/**
 * The sentences under the curves, from the last epoch both students finished.
 * @param {{distilled: number, labels: number, epochs: number, seed: number, teacher: number}} r
 * @param {{train_images: number, recipe: {epochs: number}}} fullPlan core's full plan, which the native bench runs
 */
export function distillSentences({ distilled, labels, epochs, seed, teacher }, fullPlan) {
  const d = 100 * (distilled - labels);
  const lead =
    d > 0
      ? `the distilled student is ahead by ${formatPoints(d)} points`
      : d < 0
        ? `the student trained on the labels alone is ahead by ${formatPoints(-d)} points`
        : 'the two students tie';
  return [
    // Two decimals: the difference of the printed accuracies is the one quoted in points.
    `After ${formatCount(epochs, 'epoch')} on seed ${seed}: distilled ${formatPercent(distilled, 2)}, labels alone ${formatPercent(labels, 2)} on the test split: ${lead}. ` +
      `The teacher itself reads ${formatPercent(teacher, 2)}.`,
    'This is one seed. The seed decides the students’ initial weights and the order of their batches, and another seed ' +
      'moves each student’s accuracy on its own, so one run’s difference mixes the teacher’s effect with the seed’s: it is ' +
      'noise until repeated. The lab’s native bench repeats the pair over 5 seeds (the same teacher and student, ' +
      `${formatInt(fullPlan.train_images)} images and ${formatCount(fullPlan.recipe.epochs, 'epoch')}: this experiment’s full plan) and prints the mean difference with its 95% t interval: ${SEEDS_COMMAND} ` +
      '(tools/lab bench builds and runs it).',
  ];
}
