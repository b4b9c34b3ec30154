// What the instructor view shows about a graded class, from gradeClass's result: each
// exercise's score distribution (students with full, part and no points), what wrong
// answers had in common, and each machine the class measured on. Pure (no DOM); the one
// statistic, each exercise's mean score that orders them hardest first, is core's
// (summarizeSample, passed in as `meanOf`). Not for: drawing (charts/) or grading.

/** Score bands of the distribution chart, in stacking order. */
export const SCORE_BANDS = Object.freeze(['no points', 'part of the points', 'full points']);

const bandOf = (score, max) => (score >= max - 1e-9 ? 'full points' : score > 1e-9 ? 'part of the points' : 'no points');

/** The files the class view counts: one per student (the gradebook's). */
export const gradebookEntries = (graded) => graded.students.filter((s) => s.in_gradebook);

/**
 * Exercises ordered hardest first (lowest mean fraction of points, by core's mean), each with
 * its fractions and band counts: [{id, title, chapter, points, mean, fractions, counts}].
 * @param {(values: number[]) => Promise<number>} meanOf core's mean of a sample
 */
export async function exerciseDistributions(graded, meanOf) {
  const entries = gradebookEntries(graded);
  const out = [];
  for (const exercise of graded.exercises) {
    const fractions = [];
    const counts = Object.fromEntries(SCORE_BANDS.map((b) => [b, 0]));
    for (const s of entries) {
      const row = s.result.exercises.find((e) => e.id === exercise.id);
      if (!row) continue;
      fractions.push(row.max_score > 0 ? row.score / row.max_score : 0);
      counts[bandOf(row.score, row.max_score)] += 1;
    }
    const mean = fractions.length ? await meanOf(fractions) : null;
    out.push({ id: exercise.id, title: exercise.title, chapter: exercise.chapter, points: exercise.points, mean, fractions, counts });
  }
  return out.sort((a, b) => (a.mean ?? 1) - (b.mean ?? 1) || a.id.localeCompare(b.id));
}

/** The chart's long rows: one per exercise and band, {exercise, band, students}. */
export function distributionRows(distributions) {
  return distributions.flatMap((d) => SCORE_BANDS.map((band) => ({ exercise: d.id, title: d.title, band, students: d.counts[band] })));
}

// What a wrong answer had: the choice picked (its text as that student saw it), the parts
// core found too high or too low, or the tests the code failed.
function wrongKeys(row) {
  if (row.correct) return [];
  if (row.error) return ['the answer could not be graded'];
  if (row.kind === 'choice') return row.answer_text ? [`chose “${row.answer_text}”`] : [];
  if (row.kind === 'code') {
    if (!row.code) return [];
    const failed = (row.tests ?? []).filter((t) => !t.passed).map((t) => t.name);
    return failed.length ? failed.map((name) => `fails the test “${name}”`) : [row.feedback];
  }
  if (!row.answer) return [];
  if (Array.isArray(row.parts)) return row.parts.filter((p) => !p.correct).map((p) => `${p.label}: ${p.feedback}`);
  return [row.feedback];
}

/**
 * Per exercise (in `order`), the most common things wrong answers had, with how many
 * students: [{id, title, wrong, answers: [{text, students}]}] (at most `limit` each).
 */
export function commonWrongAnswers(graded, order = graded.exercises.map((e) => e.id), { limit = 3 } = {}) {
  const byExercise = new Map(order.map((id) => [id, new Map()]));
  const wrongCount = new Map();
  for (const s of gradebookEntries(graded)) {
    for (const row of s.result.exercises) {
      const keys = [...new Set(wrongKeys(row))];
      if (!keys.length || !byExercise.has(row.id)) continue;
      wrongCount.set(row.id, (wrongCount.get(row.id) ?? 0) + 1);
      const tally = byExercise.get(row.id);
      for (const k of keys) tally.set(k, (tally.get(k) ?? 0) + 1);
    }
  }
  const titles = new Map(graded.exercises.map((e) => [e.id, e.title]));
  return order
    .filter((id) => wrongCount.get(id))
    .map((id) => ({
      id,
      title: titles.get(id) ?? id,
      wrong: wrongCount.get(id),
      answers: [...byExercise.get(id)].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, limit).map(([text, students]) => ({ text, students })),
    }));
}

/** Each student's probed machine: [{student, file, peak_gflops_per_s, bandwidth_gb_per_s, cores, build}]. */
export function classMachines(graded) {
  const out = [];
  for (const s of gradebookEntries(graded)) {
    const m = s.submission?.machine;
    const p = m?.probe;
    if (!(p?.peak_gflops_per_s > 0 && p?.bandwidth_gb_per_s > 0)) continue;
    out.push({ student: s.result.student.id, file: s.file, peak_gflops_per_s: p.peak_gflops_per_s, bandwidth_gb_per_s: p.bandwidth_gb_per_s, cores: m.cores ?? null, build: m.build ?? null });
  }
  return out;
}
