// What the instructor view shows about a graded class, from gradeClass's result: each
// exercise's score distribution (students who did not attempt it apart from those who
// failed it), the wrong values students gave, grouped within the exercise's tolerance, and
// the class roofline, one point per student from their own roofline run. Pure (no DOM); the
// statistics are core's: each exercise's mean score that orders them hardest first
// (summarizeSample, passed in as `meanOf`), and the roofline figures each run's rows carry.
// Not for: drawing (charts/), writing files (analytics-files.js) or grading.

import { kernelName } from '../chapters/acceleration/roofline-data.js';

/** Score bands of the distribution chart, in stacking order. */
export const SCORE_BANDS = Object.freeze(['not attempted', 'no points', 'part of the points', 'full points']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Whether the file holds an answer the re-grade graded for this row: code that is not blank,
 * or an answer object for every other kind. What the page counted as tries is not used (the
 * student's browser writes it).
 */
export const isAttempted = (row) => (row.kind === 'code' ? typeof row.code === 'string' && row.code.trim() !== '' : isObject(row.answer));

const bandOf = (row) => {
  if (!isAttempted(row)) return 'not attempted';
  const { score, max_score: max } = row;
  return score >= max - 1e-9 ? 'full points' : score > 1e-9 ? 'part of the points' : 'no points';
};

/**
 * summarizeSample's options when only its mean is read (the order of the exercises): the
 * fewest bootstrap resamples core allows, since the median's interval is not used.
 */
export const MEAN_ONLY_OPTIONS = Object.freeze({ bootstrap_resamples: 100 });

/** The files the class view counts: one per student (the gradebook's). */
export const gradebookEntries = (graded) => graded.students.filter((s) => s.in_gradebook);

/**
 * Exercises ordered hardest first (lowest mean fraction of points, by core's mean), each with
 * its fractions and counts: [{id, title, chapter, points, mean, fractions, counts, attempted,
 * failed, not_attempted}]; failed: attempted and not right by core's verdict (a right choice
 * on a later try, with part of the points, is not failed); a student who did not attempt the
 * exercise counts in not_attempted only (and as 0 in the mean).
 * @param {(values: number[]) => Promise<number>} meanOf core's mean of a sample
 */
export async function exerciseDistributions(graded, meanOf) {
  const entries = gradebookEntries(graded);
  const out = [];
  for (const exercise of graded.exercises) {
    const fractions = [];
    const counts = Object.fromEntries(SCORE_BANDS.map((b) => [b, 0]));
    let failed = 0;
    for (const s of entries) {
      const row = s.result.exercises.find((e) => e.id === exercise.id);
      if (!row) continue;
      fractions.push(row.max_score > 0 ? row.score / row.max_score : 0);
      counts[bandOf(row)] += 1;
      if (isAttempted(row) && !row.correct) failed += 1;
    }
    const mean = fractions.length ? await meanOf(fractions) : null;
    const notAttempted = counts['not attempted'];
    out.push({ id: exercise.id, title: exercise.title, chapter: exercise.chapter, points: exercise.points, mean, fractions, counts, attempted: fractions.length - notAttempted, failed, not_attempted: notAttempted });
  }
  return out.sort((a, b) => (a.mean ?? 1) - (b.mean ?? 1) || a.id.localeCompare(b.id));
}

/** The chart's long rows: one per exercise and band, {exercise, band, students}. */
export function distributionRows(distributions) {
  return distributions.flatMap((d) => SCORE_BANDS.map((band) => ({ exercise: d.id, title: d.title, band, students: d.counts[band] })));
}

// Values closer than this relative gap are one value even for an exact exercise: what a
// number copied with a rounding step differs by (12.11 and 12.1100001).
const MIN_RELATIVE_GAP = 1e-6;
const within = (tolerance, a, b) => Math.abs(a - b) <= Math.max(tolerance?.abs ?? 0, (tolerance?.rel ?? 0) * Math.abs(a), MIN_RELATIVE_GAP * Math.abs(a));

// The wrong values one row holds: [{part, value}] (a number, or the chosen choice's text), or
// for code the tests it failed ({part: null, test}).
function wrongValuesOf(row) {
  if (row.correct || row.error || !isAttempted(row)) return [];
  if (row.kind === 'code') return (row.tests ?? []).filter((t) => !t.passed).map((t) => ({ part: null, test: t.name }));
  if (row.kind === 'choice') return [{ part: null, value: row.answer_text ?? `choice ${Number(row.answer.choice) + 1} in that student’s order` }];
  if (Array.isArray(row.parts)) {
    const values = Array.isArray(row.answer.values) ? row.answer.values : [];
    return row.parts.flatMap((p, i) => (p.correct || !Number.isFinite(values[i]) ? [] : [{ part: p.label, value: values[i] }]));
  }
  return Number.isFinite(row.answer.value) ? [{ part: null, value: row.answer.value }] : [];
}

// Numbers grouped within the tolerance: sorted, each group reaching from its first value as
// far as the tolerance allows; a group's value is its most common one (the lowest on a tie).
function groupNumbers(items, tolerance) {
  const sorted = [...items].sort((a, b) => a.value - b.value);
  const groups = [];
  for (const item of sorted) {
    const last = groups.at(-1);
    if (last && within(tolerance, last.first, item.value)) last.items.push(item);
    else groups.push({ first: item.value, items: [item] });
  }
  return groups.map((g) => {
    const tally = new Map();
    for (const { value } of g.items) tally.set(value, (tally.get(value) ?? 0) + 1);
    const [value] = [...tally].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
    return { value, items: g.items };
  });
}

/**
 * Per exercise (in `order`), the wrong values students gave: numbers grouped within the
 * exercise's (or the part's) tolerance, choices by the text the student saw, code by the
 * tests it failed; each group with how many students gave it and how many different
 * questions (variants, with a choice's try, or evidence rows) they had: a value shared
 * across different questions is one answer given to different numbers.
 * @param {object} graded gradeClass's result
 * @param {{bank: object[], variantOf: (id: string, seed: number) => Promise<object>, order?: string[], limit?: number}} options
 *        bank: core's exerciseBank (the tolerances); variantOf: core's exerciseVariant
 * @returns {Promise<Array<{id, title, wrong, values: Array<{part, value, test, students, questions}>}>>}
 */
export async function commonWrongValues(graded, { bank, variantOf, order = graded.exercises.map((e) => e.id), limit = 5 }) {
  if (!Array.isArray(bank)) throw new TypeError('commonWrongValues: bank must be core\'s exercise bank (an array)');
  if (typeof variantOf !== 'function') throw new TypeError('commonWrongValues: variantOf must be core\'s exerciseVariant (id, seed)');
  const byId = new Map(bank.map((e) => [e.id, e]));
  const titles = new Map(graded.exercises.map((e) => [e.id, e.title]));
  const questions = new Map(); // id + seed -> the variant's parameters as text
  const questionOf = async (row, seed) => {
    const key = `${row.id}\u0000${seed}`;
    if (!questions.has(key)) questions.set(key, JSON.stringify((await variantOf(row.id, seed))?.params ?? null));
    // A choice answers the variant of the try it names (a new variant is drawn for each try).
    const evidence = row.answer?.evidence;
    return `${questions.get(key)}${Number.isInteger(row.try) ? `#${row.try}` : ''}${evidence ? JSON.stringify(evidence.rows ?? null) : ''}`;
  };
  const out = [];
  for (const id of order) {
    const exercise = byId.get(id);
    if (!exercise) continue;
    const items = [];
    const wrongStudents = new Set();
    for (const s of gradebookEntries(graded)) {
      const row = s.result.exercises.find((e) => e.id === id);
      if (!row) continue;
      const values = wrongValuesOf(row);
      if (!values.length) continue;
      wrongStudents.add(s);
      for (const v of values) items.push({ ...v, student: s, row });
    }
    if (!wrongStudents.size) continue;
    const groups = [];
    const byPart = new Map();
    for (const item of items) {
      const key = item.test !== undefined ? `test\u0000${item.test}` : `part\u0000${item.part ?? ''}\u0000${typeof item.value}`;
      if (!byPart.has(key)) byPart.set(key, []);
      byPart.get(key).push(item);
    }
    for (const [key, list] of byPart) {
      const first = list[0];
      if (key.startsWith('test')) groups.push({ part: null, value: null, test: first.test, items: list });
      else if (typeof first.value === 'string') {
        const texts = new Map();
        for (const item of list) texts.set(item.value, [...(texts.get(item.value) ?? []), item]);
        for (const [value, members] of texts) groups.push({ part: first.part, value, test: null, items: members });
      } else {
        const tolerance = first.part === null ? exercise.tolerance : exercise.parts?.find((p) => p.label === first.part)?.tolerance;
        for (const g of groupNumbers(list, tolerance)) groups.push({ part: first.part, value: g.value, test: null, items: g.items });
      }
    }
    const partIndex = (v) => exercise.parts?.findIndex((p) => p.label === v.part) ?? -1;
    const kept = groups
      .map((g) => ({ ...g, students: new Set(g.items.map((i) => i.student)).size }))
      .sort((a, b) => b.students - a.students || partIndex(a) - partIndex(b) || String(a.test ?? '').localeCompare(String(b.test ?? '')) || (typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : String(a.value).localeCompare(String(b.value))))
      .slice(0, limit);
    // Questions are looked up for the groups shown that several students share (one variant
    // per student and exercise: a lookup costs core a draw).
    const values = [];
    for (const { part, value, test, students, items: members } of kept) {
      let count = null;
      if (test === null) count = students === 1 ? 1 : new Set(await Promise.all(members.map((i) => questionOf(i.row, i.student.result.seed)))).size;
      values.push({ part, value, test, students, questions: count });
    }
    out.push({ id, title: titles.get(id) ?? exercise.title, wrong: wrongStudents.size, values });
  }
  return out;
}

const positive = (x) => typeof x === 'number' && Number.isFinite(x) && x > 0;

// Rows of the student's own runs that place a kernel on a roofline, from every graded answer
// that came with evidence (each run once).
function rooflineRows(result) {
  const seen = new Set();
  const rows = [];
  for (const e of result.exercises) {
    const evidence = e.answer?.evidence;
    if (!Array.isArray(evidence?.rows)) continue;
    const text = JSON.stringify(evidence.rows);
    if (seen.has(text)) continue;
    seen.add(text);
    for (const row of evidence.rows) if (isObject(row) && positive(row.peak_gflops_per_s) && positive(row.bandwidth_gb_per_s)) rows.push(row);
  }
  return rows;
}

/**
 * The class roofline: one row per gradebook student whose file gives roofs, [{student, file,
 * roofs_from, peak_gflops_per_s, bandwidth_gb_per_s, kernel, intensity, gflops_per_s,
 * fraction_of_attainable}]. The roofs are those of the student's roofline run (its first
 * row's, as core grades it), else the machine probe the file carries ('probe'); the point is
 * the fastest kernel that run measured (null fields without a run), with the fraction of its
 * attainable rate as core computed it in the run.
 */
export function classRoofline(graded) {
  const out = [];
  for (const s of gradebookEntries(graded)) {
    const rows = rooflineRows(s.result);
    const probe = s.submission?.machine?.probe;
    const roofs = rows[0] ?? (positive(probe?.peak_gflops_per_s) && positive(probe?.bandwidth_gb_per_s) ? probe : null);
    if (!roofs) continue;
    const kernels = rows.filter((r) => positive(r.intensity) && positive(r.gflops_per_s));
    const best = kernels.reduce((a, b) => (b.gflops_per_s > (a?.gflops_per_s ?? 0) ? b : a), null);
    out.push({
      student: s.result.student.id,
      file: s.file,
      roofs_from: rows.length ? 'roofline run' : 'probe',
      peak_gflops_per_s: roofs.peak_gflops_per_s,
      bandwidth_gb_per_s: roofs.bandwidth_gb_per_s,
      kernel: best ? kernelName(best) : null,
      intensity: best?.intensity ?? null,
      gflops_per_s: best?.gflops_per_s ?? null,
      fraction_of_attainable: Number.isFinite(best?.fraction_of_attainable) ? best.fraction_of_attainable : null,
    });
  }
  return out;
}

/**
 * Everything the instructor view and analytics-files.js show: {students, distributions,
 * wrong, roofline}, exercises hardest first.
 * @param {{meanOf: Function, bank: object[], variantOf: Function}} core core's mean
 *        (summarizeSample's), exercise bank and exerciseVariant
 */
export async function classAnalytics(graded, { meanOf, bank, variantOf }) {
  const distributions = await exerciseDistributions(graded, meanOf);
  const wrong = await commonWrongValues(graded, { bank, variantOf, order: distributions.map((d) => d.id) });
  return { students: gradebookEntries(graded).length, distributions, wrong, roofline: classRoofline(graded) };
}
