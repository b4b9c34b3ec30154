// The class analytics as files, written the same way for the instructor view's downloads:
// analytics.csv (one row per exercise, hardest first: who attempted it, who failed it, the
// common wrong values), roofline.csv (one row per student of the class roofline) and
// analytics.md (both, to read). Pure text from summary.js's results; the caller saves it.
// Not for: computing the figures (summary.js; the statistics are core's).

import { csvField } from '../experiments/csv.js';
import { formatCount, formatPercent, formatSig } from '../ui/format.js';

const toText = (rows) => `${rows.map((cells) => cells.map(csvField).join(',')).join('\r\n')}\r\n`;
// A cell a spreadsheet would read as a formula gets an apostrophe (a choice's text is the bank's, a test name too, but a value is typed).
const safeText = (value) => {
  const text = String(value ?? '');
  return /^[=+\-@\t\r]/.test(text) && !/^[-+]?\d/.test(text) ? `'${text}` : text;
};
const number = (x) => (Number.isFinite(x) ? String(x) : '');

/** One wrong value as the instructor view and the files say it: "p90: 12.11", "“compute”", "fails the test “edge”". */
export function wrongValueText(v) {
  if (v.test !== null && v.test !== undefined) return `fails the test “${v.test}”`;
  // Twelve significant digits: a value found by arithmetic shows without its binary tail (27.787264, not 27.787263999999997).
  const value = typeof v.value === 'string' ? `“${v.value}”` : String(Number(v.value.toPrecision(12)));
  return v.part ? `${v.part}: ${value}` : value;
}

/** How many gave it: "3 students, 2 different questions" (questions only for values). */
export function wrongValueCount(v) {
  const students = formatCount(v.students, 'student');
  if (v.questions === null || v.questions === undefined) return students;
  return v.students === 1 ? students : `${students}, ${v.questions === 1 ? 'the same question' : `${v.questions} different questions`}`;
}

/**
 * analytics.csv: one row per exercise in the distributions' order (hardest first).
 * @param {object[]} distributions exerciseDistributions' result
 * @param {object[]} wrong commonWrongValues' result
 */
export function analyticsCsv(distributions, wrong) {
  const byId = new Map(wrong.map((w) => [w.id, w]));
  const rows = [['exercise', 'title', 'points', 'students', 'attempted', 'not_attempted', 'failed', 'full_points', 'part_of_the_points', 'no_points', 'mean_fraction_of_points', 'common_wrong_values']];
  for (const d of distributions) {
    const values = byId.get(d.id)?.values ?? [];
    rows.push([
      d.id, safeText(d.title), d.points, d.fractions.length, d.attempted, d.not_attempted, d.failed,
      d.counts['full points'], d.counts['part of the points'], d.counts['no points'], number(d.mean),
      safeText(values.map((v) => `${wrongValueText(v)} (${wrongValueCount(v)})`).join('; ')),
    ]);
  }
  return toText(rows);
}

/** roofline.csv: one row per student of classRoofline's result. */
export function rooflineCsv(roofline) {
  const rows = [['student_id', 'roofs_from', 'peak_gflops_per_s', 'bandwidth_gb_per_s', 'kernel', 'intensity', 'gflops_per_s', 'fraction_of_attainable']];
  for (const r of roofline) {
    rows.push([safeText(r.student), r.roofs_from, number(r.peak_gflops_per_s), number(r.bandwidth_gb_per_s), r.kernel ?? '', number(r.intensity), number(r.gflops_per_s), number(r.fraction_of_attainable)]);
  }
  return toText(rows);
}

const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** analytics.md: the same figures to read. */
export function analyticsMarkdown({ distributions, wrong, roofline, students }) {
  const byId = new Map(wrong.map((w) => [w.id, w]));
  const out = ['# Class analytics', '', `${formatCount(students, 'student')} in the gradebook. Exercises hardest first (core's mean fraction of points; a student who did not attempt one counts 0 there).`, ''];
  out.push('| exercise | attempted | not attempted | failed | mean | common wrong values |', '|---|---|---|---|---|---|');
  for (const d of distributions) {
    const values = byId.get(d.id)?.values ?? [];
    out.push(`| ${cell(d.id)} | ${d.attempted} | ${d.not_attempted} | ${d.failed} | ${d.mean === null ? '' : formatPercent(d.mean)} | ${cell(values.map((v) => `${wrongValueText(v)} (${wrongValueCount(v)})`).join('; '))} |`);
  }
  out.push('', '## The class roofline', '');
  const measured = roofline.filter((r) => r.kernel !== null);
  out.push(`${formatCount(measured.length, 'student')} with a roofline run in their file (their fastest kernel against their own roofs); ${roofline.length - measured.length} with only the machine probe's roofs.`, '');
  if (roofline.length) {
    out.push('| student | roofs from | peak GFLOP/s | bandwidth GB/s | fastest kernel | intensity FLOP/byte | GFLOP/s | of attainable |', '|---|---|---|---|---|---|---|---|');
    for (const r of roofline) {
      out.push(`| ${cell(r.student)} | ${r.roofs_from} | ${formatSig(r.peak_gflops_per_s)} | ${formatSig(r.bandwidth_gb_per_s)} | ${cell(r.kernel ?? '')} | ${r.intensity === null ? '' : formatSig(r.intensity)} | ${r.gflops_per_s === null ? '' : formatSig(r.gflops_per_s)} | ${r.fraction_of_attainable === null ? '' : formatPercent(r.fraction_of_attainable)} |`);
    }
  }
  return `${out.join('\n')}\n`;
}

/** The analytics' files as {path: text}. */
export function analyticsFiles(analytics) {
  return {
    'analytics.md': analyticsMarkdown(analytics),
    'analytics.csv': analyticsCsv(analytics.distributions, analytics.wrong),
    'roofline.csv': rooflineCsv(analytics.roofline),
  };
}
