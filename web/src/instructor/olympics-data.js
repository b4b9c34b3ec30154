// The Olympics leaderboard as the instructor view shows it: the table columns, each event's
// podium (the rows ranked 1 to 3, ties on one step) and its sentence, the refused entries and
// the class's Pareto frontier, all read off core's leaderboard JSON (olympics_leaderboard:
// events[].rows, refused, pareto). Pure: no DOM, no Plot. Not for: ranking, scoring or the
// frontier (core did them), drawing (charts/), the files (core's CSV and Markdown).

import { countWord, formatCount, formatInt, formatPercent, formatSig } from '../ui/format.js';

/** The podium's places, and what a place is called. */
export const PODIUM_PLACES = Object.freeze([1, 2, 3]);
const ORDINAL = Object.freeze({ 1: '1st', 2: '2nd', 3: '3rd' });
export const placeName = (place) => ORDINAL[place] ?? `${place}th`;

const finite = (x) => typeof x === 'number' && Number.isFinite(x);

/** A latency ratio to the baseline: 0.412 -> "0.412×". */
export const formatRatio = (x) => (finite(x) ? `${formatSig(x)}×` : '—');

/** An interval [lo, hi] in one format: "0.390–0.430×"; '' when it is not two numbers. */
export function formatInterval([lo, hi] = [], format = formatRatio) {
  if (!finite(lo) || !finite(hi)) return '';
  const low = format(lo);
  const high = format(hi);
  // The unit is written once, after the upper end.
  const unit = high.match(/[^\d.,]+$/)?.[0] ?? '';
  return `${unit && low.endsWith(unit) ? low.slice(0, -unit.length) : low}–${high}`;
}

/** Whether an interval is a real spread (the deterministic metrics give [s, s]). */
const spread = (interval) => Array.isArray(interval) && finite(interval[0]) && finite(interval[1]) && interval[0] !== interval[1];

// How each metric's score is written (events' `metric`, as core names it).
const SCORE_FORMATS = Object.freeze({
  latency_ratio: formatRatio,
  parameter_bytes: (x) => (finite(x) ? `${formatInt(x)} B` : '—'),
  accuracy: (x) => (finite(x) ? formatPercent(x, 2) : '—'),
  all_around: (x) => (finite(x) ? formatSig(x) : '—'),
});

/** A score in its event's metric, with its interval when it has one: "0.412× [0.390–0.430×]". */
export function scoreText(metric, score, interval) {
  const format = SCORE_FORMATS[metric] ?? ((x) => (finite(x) ? formatSig(x) : '—'));
  const text = format(score);
  return spread(interval) ? `${text} [${formatInterval(interval, format)}]` : text;
}

/** What the event ranks by and which way, for the table's caption. */
export function eventCaption(event) {
  const by = { latency_ratio: 'latency ratio to the baseline', parameter_bytes: 'parameter bytes', accuracy: 'test accuracy', all_around: 'all-around score' }[event.metric] ?? event.metric;
  return `${event.name}: ranked by ${by}, ${event.direction === 'higher' ? 'higher' : 'lower'} is better`;
}

/**
 * The columns of an event's table (ui/table.js), for the event's metric. An event scored by
 * latency, size or accuracy ranks by that column (the caption says which); the all-around's
 * score gets its own.
 */
export function eventColumns(event) {
  const columns = [
    { label: 'rank', format: (r) => String(r.rank) },
    { label: 'tied', format: (r) => (r.tied ? 'tied' : ''), align: 'left' },
    { label: 'student', key: 'student', format: 'text', rowHeader: true },
    // The name the student gave, when it says more than the lineage beside it.
    { label: 'entry', format: (r) => (r.name && r.name !== r.lineage_text ? `${r.entry}: ${r.name}` : r.entry), align: 'left' },
    { label: 'lineage', key: 'lineage_text', format: 'text' },
    { label: 'accuracy', format: (r) => formatPercent(r.accuracy, 2) },
    { label: 'size', format: (r) => `${formatInt(r.parameter_bytes)} B (${formatRatio(r.bytes_ratio)})` },
    { label: 'latency ratio [95% interval]', format: (r) => `${formatRatio(r.latency_ratio)} [${formatInterval(r.latency_interval)}]` },
    { label: 'all-around score [95% interval]', format: (r) => scoreText(event.metric, r.score, r.score_interval) },
    { label: 'flags', format: (r) => (r.flags?.length ? r.flags.join(', ') : 'none'), align: 'left' },
  ];
  return event.metric === 'all_around' ? columns : columns.filter((c) => !c.label.startsWith('all-around'));
}

/** The rows on an event's podium: ranks 1 to 3, as the board ranked them. */
export function podiumRows(event) {
  return event.rows
    .filter((r) => PODIUM_PLACES.includes(r.rank))
    .map((r) => ({ place: r.rank, student: r.student, entry: r.entry, tied: r.tied, score_text: scoreText(event.metric, r.score, r.score_interval) }));
}

const names = (rows) => {
  const list = rows.map((r) => r.student);
  return list.length <= 2 ? list.join(' and ') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
};

/**
 * The podium in words, place by place; a place two or more share says they tie, and a place
 * nobody holds says why (the ones above it tied, or too few entries qualified).
 */
export function podiumSentence(event) {
  const rows = podiumRows(event);
  if (!rows.length) return `${event.name}: no entry qualified, so there is no podium.`;
  const parts = [];
  for (const place of PODIUM_PLACES) {
    const at = rows.filter((r) => r.place === place);
    if (at.length === 1) parts.push(`${placeName(place)} ${at[0].student} (${at[0].score_text})`);
    else if (at.length > 1) parts.push(`${placeName(place)}, ${countWord(at.length)} tied: ${names(at)} (${at.map((r) => r.score_text).join('; ')})`);
    // Ranks count the entries that beat a row, so a place is skipped only after a tie above it.
    else if (event.rows.some((r) => r.rank > place)) parts.push(`no ${placeName(place)} (the places above it are shared)`);
  }
  const qualified = formatCount(event.rows.length, 'student');
  return `${event.name} (${qualified} qualified): ${parts.join('; ')}.`;
}

/** The refused entries, one row per student, entry and event, with core's sentences. */
export const REFUSED_COLUMNS = Object.freeze([
  { label: 'student', key: 'student', format: 'text', rowHeader: true },
  { label: 'entry', key: 'entry', format: 'text' },
  { label: 'event', format: (r) => r.event ?? 'every event (the entry is invalid)', align: 'left' },
]);

/** The Pareto chart's series. */
export const PARETO_SERIES = Object.freeze(['on the frontier', 'behind the frontier']);
const MAX_POINT_LABELS = 16;

/**
 * The ScatterChart's options and points for the class's Pareto frontier: every valid entry's
 * latency ratio (log) against its test accuracy, the frontier's points marked and joined.
 */
export function paretoChart(pareto) {
  const labelled = pareto.length <= MAX_POINT_LABELS;
  const points = pareto
    .filter((p) => finite(p.latency_ratio) && p.latency_ratio > 0 && finite(p.accuracy))
    .map((p) => ({ ...p, series: p.on_front ? PARETO_SERIES[0] : PARETO_SERIES[1], label: labelled ? p.student : '' }));
  // The baseline's 1× and every point, with room beyond the outermost for their labels.
  const xs = [1, ...points.map((p) => p.latency_ratio)];
  const ys = points.map((p) => p.accuracy);
  return {
    options: {
      x: 'latency_ratio',
      y: 'accuracy',
      series: 'series',
      seriesDomain: [...PARETO_SERIES],
      label: 'label',
      front: 'on_front',
      xType: 'log',
      yType: 'linear',
      xDomain: [Math.min(...xs) / 1.25, Math.max(...xs) * 1.25],
      yDomain: ys.length ? [Math.max(0, Math.min(...ys) - 0.01), Math.min(1, Math.max(...ys) + 0.01)] : undefined,
      xFormat: (v) => `${v}×`,
      yFormat: (v) => `${(v * 100).toFixed(1)}%`,
      references: [{ x: 1, label: 'baseline', dashed: true }],
      xLabel: 'latency ratio to the baseline (log scale, lower is faster) →',
      yLabel: '↑ test accuracy (re-computed)',
      ariaLabel: 'Every valid entry of the class: test accuracy against latency ratio to the baseline; the Pareto frontier’s entries ringed and joined',
      emptyText: 'No valid entry to place.',
      height: 320,
    },
    points,
  };
}

/** The frontier in words: which entries are on it, from fastest to most accurate. */
export function paretoSentence(pareto) {
  if (!pareto.length) return 'No valid entry, so there is no frontier.';
  const front = pareto.filter((p) => p.on_front).sort((a, b) => a.latency_ratio - b.latency_ratio || a.accuracy - b.accuracy);
  const list = front.map((p) => `${p.student}’s ${p.entry} (${formatRatio(p.latency_ratio)}, ${formatPercent(p.accuracy, 2)})`);
  return `${formatCount(front.length, 'entry', 'entries')} of ${formatCount(pareto.length, 'valid entry', 'valid entries')} on the frontier (no other entry is both faster and more accurate), from fastest to most accurate: ${list.join('; ')}. Latency ratios are self-reported, measured on each student’s own machine; accuracy is the grader’s rebuild.`;
}

/** Counts for the section's summary line. */
export function boardCounts(board) {
  const students = new Set([...board.events.flatMap((e) => e.rows.map((r) => r.student)), ...board.refused.map((r) => r.student), ...board.pareto.map((p) => p.student)]);
  return { students: students.size, valid: board.pareto.length, refused: board.refused.length };
}
