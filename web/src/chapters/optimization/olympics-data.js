// The pure half of the Olympics section (optimization-olympics): the events' rows from core's
// olympicsEvents answer, an entry assembled from core's answers (the pipeline of the held
// model, the forward A/B's raw samples, the model's evaluation and info) in the submission's
// format, the figures olympicsJudge takes, the standing's rows from core's judgements, the
// kept entries' rows, and the list operations on the kept entries (add within core's
// max_entries, remove). No DOM, no statistic: core times, computes the ratio, judges.

import { formatInt, formatList, formatPercent, formatSig } from '../../ui/format.js';

export const OLYMPICS_ID = 'optimization-olympics';

/** The fields of a forward A/B an entry's timing keeps (core's olympicsLatency reads them). */
export const TIMING_FIELDS = Object.freeze(['batch', 'mode', 'a_ms', 'b_ms', 'a_first', 'inner_iterations_a', 'inner_iterations_b', 'resolution_ms']);

const ratioText = (r) => `${formatSig(r)}×`;
const intervalText = ([lo, hi], f) => `${f(lo)}–${f(hi)}`;

/** A score in its event's metric, with its interval when it has one (a latency-based score). */
export function scoreText(metric, score, interval) {
  if (metric === 'parameter_bytes') return `${formatInt(score)} bytes`;
  if (metric === 'accuracy') return formatPercent(score, 2);
  const f = metric === 'latency_ratio' ? ratioText : formatSig;
  const spread = interval && interval[0] !== interval[1] ? ` (${intervalText(interval, f)})` : '';
  return `${f(score)}${spread}`;
}

/** One row per event of core's olympicsEvents answer, for the events' table. */
export function eventRows(events) {
  if (!Array.isArray(events?.events)) throw new Error('core’s Olympics events answer has no events');
  return events.events.map((e) => ({
    id: e.id,
    name: e.name,
    summary: e.summary,
    direction: e.direction === 'higher' ? 'higher is better' : 'lower is better',
    constraints: e.constraints.length ? e.constraints.map((c) => c.sentence).join('; ') : 'none',
    formula: e.formula,
  }));
}

export const EVENT_COLUMNS = Object.freeze([
  { key: 'name', label: 'event', rowHeader: true, format: 'text' },
  { key: 'summary', label: 'what it ranks', format: 'text' },
  { key: 'direction', label: 'direction', format: 'text' },
  { key: 'constraints', label: 'an entry needs', format: 'text' },
]);

/** The next free entry id: "entry-N", N one above the highest kept. */
export function nextEntryId(entries) {
  const n = entries.map((e) => /^entry-(\d+)$/.exec(e.id)?.[1]).filter(Boolean).map(Number);
  return `entry-${n.length ? Math.max(...n) + 1 : 1}`;
}

/** The kept entries with `entry` added; throws a sentence when core's max_entries are kept. */
export function withEntry(entries, entry, maxEntries) {
  if (entries.length >= maxEntries) {
    throw new Error(`You keep ${formatInt(entries.length)} entries and a submission holds at most ${formatInt(maxEntries)} (core’s limit): remove one below before entering another.`);
  }
  return [...entries, entry];
}

/** The kept entries without the one of this id. */
export const withoutEntry = (entries, id) => entries.filter((e) => e.id !== id);

/** An entry's timing: the fields of core's forward A/B answer the entry keeps. */
export function timingOf(ab) {
  const out = {};
  for (const k of TIMING_FIELDS) {
    if (!(k in ab)) throw new Error(`core’s forward A/B answer has no ${k}`);
    out[k] = ab[k];
  }
  return out;
}

/**
 * The entry, in the submission's format (docs/SUBMISSION.md, "olympics"): `model` the made
 * model, `pipeline` and `base` core's answers, `timing` timingOf's.
 */
export function entryOf({ id, model, events, base, pipeline, timing, finishedAt }) {
  return {
    id,
    name: model.name,
    events: [...events],
    base: { ...base },
    pipeline,
    claimed: { accuracy: model.evaluation.accuracy, parameter_bytes: model.info.parameter_bytes },
    timing,
    finished_at: finishedAt,
  };
}

/** The figures olympicsJudge takes: an entry's measured ones and the baseline's, with core's latency. */
export function figuresOf(claimed, baseline, latency) {
  return {
    accuracy: claimed.accuracy,
    parameter_bytes: claimed.parameter_bytes,
    baseline_accuracy: baseline.evaluation.accuracy,
    baseline_parameter_bytes: baseline.info.parameter_bytes,
    latency_ratio: latency.ratio,
    latency_ratio_low: latency.interval[0],
    latency_ratio_high: latency.interval[1],
  };
}

/**
 * The standing: one row per event (core's order), whether the entry entered it, core's
 * verdict (qualified, or its refusal sentences) and the score with its interval.
 */
export function standingRows(events, judgements, entered) {
  const byId = new Map(judgements.map((j) => [j.event, j]));
  return events.events.map((e) => {
    const j = byId.get(e.id);
    if (!j) throw new Error(`core judged no ${e.id}`);
    return {
      event: e.id,
      name: e.name,
      entered: entered.includes(e.id),
      qualified: j.qualified,
      verdict: j.qualified ? 'qualifies' : `refused: ${j.refusals.join('; ')}`,
      score: scoreText(e.metric, j.score, j.score_interval),
    };
  });
}

export const STANDING_COLUMNS = Object.freeze([
  { key: 'name', label: 'event', rowHeader: true, format: 'text' },
  { label: 'entered', format: (r) => (r.entered ? 'yes' : 'no') },
  { key: 'score', label: 'score (95% interval)', format: 'text' },
  { key: 'verdict', label: 'core’s verdict', format: 'text' },
]);

/** The sentence under the standing: the events the entry entered that it qualifies for, and those it does not. */
export function standingSentence(rows) {
  const entered = rows.filter((r) => r.entered);
  const ok = entered.filter((r) => r.qualified).map((r) => r.name);
  const refused = entered.filter((r) => !r.qualified).map((r) => r.name);
  const parts = [];
  if (ok.length) parts.push(`qualifies for ${formatList(ok)}`);
  if (refused.length) parts.push(`is refused from ${formatList(refused)} (the sentence in its row says why)`);
  const others = rows.filter((r) => !r.entered && r.qualified).map((r) => r.name);
  const also = others.length ? ` It would also qualify for ${formatList(others)}, which it did not enter.` : '';
  return `This entry ${parts.join(' and ')}.${also}`;
}

/**
 * One row per kept entry: its events, the figures it claims, core's latency ratio from its
 * timing (`latencies`: entry id -> olympicsLatency's answer or {error}) and, when the
 * baseline's figures are known, a summary of its standing (`standings`: id -> standingRows).
 */
export function keptRows(entries, latencies, standings) {
  return entries.map((e) => {
    const l = latencies.get(e.id);
    const s = standings.get(e.id);
    return {
      id: e.id,
      name: e.name,
      events: e.events.join(', '),
      accuracy: e.claimed?.accuracy,
      parameter_bytes: e.claimed?.parameter_bytes,
      latency: !l ? '…' : l.error ? l.error : scoreText('latency_ratio', l.ratio, l.interval),
      standing: !s
        ? 'the baseline’s figures are needed (load it above)'
        : s.filter((r) => r.entered).map((r) => `${r.name}: ${r.qualified ? 'qualifies' : 'refused'}`).join('; '),
      finished_at: e.finished_at,
    };
  });
}

export const KEPT_COLUMNS = Object.freeze([
  { key: 'id', label: 'entry', rowHeader: true, format: 'text' },
  { key: 'name', label: 'model', format: 'text' },
  { key: 'events', label: 'events entered', format: 'text' },
  { label: 'test accuracy', format: (r) => formatPercent(r.accuracy, 2) },
  { key: 'parameter_bytes', label: 'parameters', unit: 'bytes', format: 'int' },
  { key: 'latency', label: 'latency ÷ baseline’s (95% interval)', format: 'text' },
  { key: 'standing', label: 'standing', format: 'text' },
]);
