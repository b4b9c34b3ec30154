// The warmup experiment (benchmarking-warmup): the first few hundred calls of one kernel, each
// timed on its own from the very first (sampleKernel, warmup 0, one call per sample), drawn
// against the call's number; core summarizes the first calls and the last ones apart.
// Not for: any statistic (core) or drawing (charts/).

import { declaredSweep, labOf } from '../../lab/client.js';
import { createTable } from '../../ui/table.js';
import { formatInt, formatSig } from '../../ui/format.js';
import { kernelControl, kernelText, sizeControl } from './samples-common.js';
import { experimentPlans } from '../../experiments/plans.js';
import { CSV_COLUMNS, DEFAULT_KERNEL, DEFAULT_N, ID, TABLE_COLUMNS, callRows, stretches, warmupOf, warmupPoints } from './warmup-data.js';

const ms = (v) => `${formatSig(v)} ms`;

const PART_COLUMNS = [
  { key: 'label', label: 'calls', format: 'text', rowHeader: true },
  { label: 'call numbers', format: (r) => `${r.from} – ${r.to}` },
  { key: 'summary.median', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'summary.mean', label: 'mean', unit: 'ms', format: 'sig' },
  { key: 'summary.min', label: 'min', unit: 'ms', format: 'sig' },
  { key: 'summary.max', label: 'max', unit: 'ms', format: 'sig' },
  { key: 'summary.mad', label: 'MAD', unit: 'ms', format: 'sig' },
];

// How two medians compare, at the precision they are printed: equal when they print alike.
function levelText(firstMedian, lastMedian) {
  if (ms(firstMedian) === ms(lastMedian)) return ': equal at the precision shown, so by their medians the first calls are at the steady level.';
  return `, so by their medians the first calls are ${firstMedian > lastMedian ? 'above' : 'below'} the steady level.`;
}

const listText = (items) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);
const MAX_NAMED = 5;

/**
 * What a median of the first calls hides: the first calls slower than every one of the last
 * calls (compared as printed), named one by one, and the two stretches' means and maxima, which
 * a warmup of one or two calls moves although the median does not.
 */
export function firstCallsText(firstCalls, first, last) {
  const slowest = last.summary.max;
  const slow = firstCalls
    .map((time, i) => ({ call: i + 1, time }))
    .filter((c) => c.time > slowest && ms(c.time) !== ms(slowest));
  const means = `The mean of the ${first.label} is ${ms(first.summary.mean)} against ${ms(last.summary.mean)} for the ${last.label}; their slowest took ${ms(first.summary.max)}.`;
  if (slow.length === 0) {
    return `None of the ${first.label} was slower than the slowest of the ${last.label} (${ms(slowest)}): no warmup stands out in this run. ${means}`;
  }
  const named = slow.slice(0, MAX_NAMED);
  const more = slow.length > named.length ? ` (and ${slow.length - named.length} more)` : '';
  return (
    `${named.length === 1 ? 'Call' : 'Calls'} ${listText(named.map((c) => String(c.call)))}${more} took ` +
    `${listText(named.map((c) => formatSig(c.time)))} ms, slower than every one of the ${last.label} (at most ${ms(slowest)}): ` +
    `a warmup the median of the ${first.label} hides. ${means}`
  );
}

/** The two stretches in sentences and a table; every statistic is core's. */
export function renderWarmup(a, { h }) {
  const [first, last] = a.parts;
  const nodes = [
    h('p', {
      'data-role': 'first-call',
      text:
        `${formatInt(a.calls)} calls of the ${kernelText(a.kernel)}, each timed on its own from the first. ` +
        `The first call took ${ms(a.first_call_ms)}.`,
    }),
  ];
  if (last) {
    nodes.push(
      h('p', {
        'data-role': 'parts',
        text:
          `Median of the ${first.label}: ${ms(first.summary.median)}; of the ${last.label}: ${ms(last.summary.median)}` +
          `${levelText(first.summary.median, last.summary.median)} Where the line in the chart flattens is how many ` +
          'calls this kernel needs untimed before its samples count.',
      }),
      h('p', { 'data-role': 'first-calls', text: firstCallsText(a.first_calls_ms ?? [], first, last) }),
    );
  }
  if (last && last.summary.median < 20 * a.resolution_ms) {
    nodes.push(
      h('p', {
        class: 'warning',
        'data-role': 'too-short',
        text:
          `A steady call (${ms(last.summary.median)}) lasts under 20 ticks of this page’s clock (${ms(a.resolution_ms)}), ` +
          'so single readings are coarse: choose a larger n.',
      }),
    );
  }
  if (a.kernel.warning) nodes.push(h('p', { class: 'warning', text: `Timer: ${a.kernel.warning}` }));
  nodes.push(h('div', { class: 'table-wrap' }, createTable(PART_COLUMNS, { rows: a.parts, caption: 'Core’s summary of the first and the last calls', role: 'parts' }).element));
  return nodes;
}

export const warmupExperiment = {
  id: ID,
  title: 'Experiment: the first calls of a kernel',
  // The numbers are core's plan (init's facts): "…" until it arrives.
  explanation: ({ info }) => [
    `No warmup and no batching: the lab times each of the first ${info ? formatInt(info.fullPlan.calls) : '…'} calls of the ` +
      'chosen kernel by itself, on inputs allocated just before the first call. Each point of the chart is one ' +
      'call. A kernel a few hundred clock ticks long keeps each single reading precise; the clock’s resolution ' +
      'is shown below once the lab has measured it.',
    'The engine compiles per function and keeps its optimized code for the life of the page: if another ' +
      'experiment already ran this kernel, its tier-up has happened. Reload the page and run this one first to ' +
      'see it.',
  ],
  quickNote: ({ info }) => info && `Quick mode (?quick=1): the first ${info.plan.calls} calls instead of ${info.fullPlan.calls}.`,
  controls: [
    kernelControl({ default: DEFAULT_KERNEL, hint: 'A kernel this page has not run yet shows the compiler’s tier-up.' }),
    sizeControl({ default: DEFAULT_N }),
  ],

  // The clock's resolution, and core's plan of the run (and the full one, for the quick note).
  async init({ bridge, slot, h, quick }) {
    const [resolution_ms, plans] = await Promise.all([
      labOf(bridge).timerResolutionMs({ where: `${ID}-run` }),
      experimentPlans(bridge, ID, quick),
    ]);
    slot.replaceChildren(h('p', { 'data-role': 'resolution', text: `This page’s clock resolution: ${ms(resolution_ms)}.` }));
    return { resolution_ms, ...plans };
  },
  plan: warmupPoints,
  measure: declaredSweep('sampleKernel'),
  pointLabel: (p) => `the first ${p.options.samples} calls of the ${kernelText(p)}`,

  async analyze(rows, { lab, info, signal, where }) {
    const row = rows[0];
    const parts = [];
    for (const part of stretches(row.samples_ms, warmupOf(info))) {
      const { values, ...rest } = part;
      parts.push({ ...rest, summary: await lab.summarizeSample(values, undefined, { signal, where }) });
    }
    return {
      calls: row.samples_ms.length,
      first_call_ms: row.samples_ms[0],
      // The first stretch's calls one by one: what its median hides.
      first_calls_ms: row.samples_ms.slice(0, parts[0].to),
      resolution_ms: info?.resolution_ms ?? row.resolution_ms,
      parts,
      kernel: { op: row.op, variant: row.variant, n: row.n, warning: row.warning },
    };
  },
  renderAnalysis: renderWarmup,

  columns: TABLE_COLUMNS,
  tableCaption: 'The run; every call’s time is in the CSV, in order.',
  csv: { filename: 'perflab-benchmarking-warmup.csv', columns: CSV_COLUMNS },

  charts: [
    {
      type: 'line',
      name: 'calls',
      title: 'Time of each call against its number',
      options: ({ info }) => ({
        x: 'call',
        y: 'time_ms',
        series: 'series',
        yType: 'log',
        xDomain: info ? [1, warmupOf(info).calls] : undefined,
        xLabel: 'call number (1 = the first call) →',
        yLabel: '↑ time of the call (ms, log scale)',
        ariaLabel: 'time of each call in milliseconds against the call number',
        emptyText: 'Press Run to time the first calls.',
      }),
      data: (rows) => callRows(rows),
    },
  ],
};
