// The pure half of the thread-scaling experiment (acceleration-thread-scaling): the kernel
// engine's packed matmul or fused GELU at core's planned size on each thread count the
// student chose (only counts this page's engine can run: its facts, asked at Run), the table
// and CSV columns, the speedup chart's three series (measured, ideal, core's Amdahl fit), and
// the sentences that quote core's analysis. No DOM and no measuring; every speedup,
// efficiency and fit is core's (analyzeScaling).

import { planOf } from '../../experiments/plans.js';
import { formatInt, formatList, formatPercent, formatSig } from '../../ui/format.js';
import { SPREAD_COLUMNS } from './timed-columns.js';
import { elementsName } from './gelu-fusion-data.js';

/** What each kernel measures: its declared sweep function and its size from core's plan. */
export const KERNELS = Object.freeze({
  matmul: { fn: 'measureParallelMatmul', size: 'matmul_n', arg: 'n', label: 'packed matmul' },
  gelu: { fn: 'measureParallelGelu', size: 'gelu_elements', arg: 'elements', label: 'fused GELU' },
});

/** The flavour choice: the fastest the engine runs (its facts list it first), or one by name. */
export const FASTEST = 'fastest';

// The thread-count choice: every count from 1 to the engine's maximum, or the student's list.
export const EVERY = 'every';
export const LISTED = 'list';

/**
 * The flavour a run measures: `choice` itself when the engine can run it, its first (fastest)
 * flavour for FASTEST; an Error naming what it can run, and why, otherwise.
 * @param {string} choice FASTEST or a flavour name
 * @param {{flavours: string[], why: string}} facts core's EngineFacts
 */
export function chosenFlavour(choice, facts) {
  const flavours = facts?.flavours ?? [];
  if (flavours.length === 0) throw new Error('the kernel engine listed no flavours, so there is nothing to measure');
  if (choice === FASTEST) return flavours[0];
  if (flavours.includes(choice)) return choice;
  throw new Error(`this browser’s kernel engine cannot run the ${choice} flavour (${facts.why}); it runs ${formatList(flavours)}`);
}

/**
 * The thread counts a run measures, ascending and distinct: every count from 1 to the
 * engine's `max_threads`, or the student's list with 1 added (every speedup is against it)
 * and the counts above `max_threads` set apart as `dropped`.
 * @returns {{counts: number[], dropped: number[]}}
 */
export function threadCounts(values, facts) {
  const max = facts?.max_threads;
  if (!Number.isInteger(max) || max < 1) throw new Error(`the kernel engine gave no thread count it can run (max_threads ${max})`);
  if (values.threads !== LISTED) return { counts: Array.from({ length: max }, (_, i) => i + 1), dropped: [] };
  const listed = [...new Set([1, ...(values['thread-list'] ?? [])])].sort((a, b) => a - b);
  return { counts: listed.filter((t) => t <= max), dropped: listed.filter((t) => t > max) };
}

/**
 * One point per thread count, ascending: the chosen kernel (`values.kernel`) in the chosen
 * flavour at core's planned size (`info.plan`), with core's Timer options. `prepared` is the
 * engine's facts (the experiment's prepare asks for them at Run).
 */
export function scalingPoints(values, { info, prepared }) {
  const kernel = KERNELS[values.kernel];
  if (!kernel) throw new Error(`Kernel must be one of ${Object.keys(KERNELS).join(', ')}, got "${values.kernel}"`);
  const plan = planOf(info, 'thread scaling', [kernel.size, 'options']);
  const flavour = chosenFlavour(values.flavour, prepared);
  const { counts } = threadCounts(values, prepared);
  return counts.map((threads) => ({ kernel: values.kernel, flavour, threads, [kernel.arg]: plan[kernel.size], options: { ...plan.options } }));
}

/** "packed matmul at N = 512", "fused GELU over 8 Mi elements": the size a point measures. */
export function sizeText(kernel, plan) {
  if (kernel === 'matmul') return `${KERNELS.matmul.label} at N = ${formatInt(plan.matmul_n)}`;
  return `${KERNELS.gelu.label} over ${elementsName(plan.gelu_elements)} elements`;
}

export const threadsText = (t) => `${formatInt(t)} thread${t === 1 ? '' : 's'}`;

/** The measured rows with core's per-row figures (speedup, efficiency, Karp-Flatt) merged in by thread count. */
export function withScaling(rows, analysis) {
  const byThreads = new Map((analysis?.rows ?? []).map((r) => [r.threads, r]));
  return rows.map((row) => {
    const s = byThreads.get(row.threads);
    return s ? { ...row, speedup: s.speedup, efficiency: s.efficiency, karp_flatt: s.karp_flatt, fitted_speedup: s.fitted_speedup } : row;
  });
}

/** The points core's analyzeScaling takes: each row's thread count and median time. */
export const scalingInput = (rows) => rows.map((r) => ({ threads: r.threads, median_ms: r.stats?.median_ms ?? r.median_ms }));

export const SERIES = Object.freeze({ measured: 'measured', ideal: 'ideal (speedup = threads)', fit: 'Amdahl fit' });

/**
 * The speedup chart's rows: the measured speedups (core's), the ideal line (speedup = thread
 * count, the definition of perfect scaling) and core's Amdahl fit at each measured count,
 * all at the run's thread counts. Before the analysis arrives, nothing (speedups are core's).
 */
export function speedupSeries(rows) {
  const measured = rows.filter((r) => Number.isFinite(r.speedup));
  if (measured.length === 0) return [];
  return [
    ...measured.map((r) => ({ threads: r.threads, speedup: r.threads, series: SERIES.ideal })),
    ...measured.filter((r) => Number.isFinite(r.fitted_speedup)).map((r) => ({ threads: r.threads, speedup: r.fitted_speedup, series: SERIES.fit })),
    ...measured.map((r) => ({ threads: r.threads, speedup: r.speedup, series: SERIES.measured })),
  ];
}

// As the table prints them, so a sentence and its row read the same.
const percent = (v) => formatPercent(v);
const times = (v) => `${formatSig(v)}×`;

/**
 * What the run says, in sentences that quote core's figures: the engine that ran (flavour,
 * its thread limit and why), the counts left out, the speedup and efficiency at the most
 * threads, and the Amdahl fit (serial fraction, the speedup no count passes, how well it fits).
 * @param {object} analysis {kernel, flavour, facts, dropped, scaling (core's ScalingAnalysis, or null with one count)}
 * @returns {{role: string, text: string}[]}
 */
export function scalingSentences({ kernel, flavour, facts, dropped = [], scaling }) {
  const name = KERNELS[kernel]?.label ?? kernel;
  const out = [{ role: 'engine', text: `The engine ran the ${flavour} flavour on at most ${threadsText(facts.max_threads)}: ${facts.why}` }];
  if (dropped.length) {
    out.push({ role: 'dropped', text: `Not measured: ${formatList(dropped.map(threadsText))}, more than the ${threadsText(facts.max_threads)} this page can run.` });
  }
  const rows = scaling?.rows ?? [];
  if (rows.length < 2) {
    out.push({ role: 'one-thread', text: `Only 1 thread ran, so there is no speedup to measure here: ${facts.why}` });
    return out;
  }
  const top = rows.at(-1);
  out.push({
    role: 'speedup',
    text:
      `On ${threadsText(top.threads)} the ${name} ran ${times(top.speedup)} as fast as on 1 thread ` +
      `(efficiency ${percent(top.efficiency)}; ideal: ${formatInt(top.threads)}×, efficiency 100%).`,
  });
  const { serial_fraction: s, max_speedup: cap, rms_error: rms } = scaling.fit;
  const bound = cap === null || !Number.isFinite(cap) ? 'no bound on the speedup' : `a speedup of at most ${times(cap)} however many threads`;
  out.push({
    role: 'fit',
    text: `Amdahl’s law fitted through every point gives a serial fraction s = ${percent(s)}, so ${bound}; the fit misses the measured speedups by ${times(rms)} (root mean square).`,
  });
  return out;
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'threads', label: 'threads', format: 'int' },
  { key: 'flavour', label: 'flavour', format: 'text' },
  { key: 'stats.median_ms', label: 'median', unit: 'ms', format: 'sig' },
  { key: 'speedup', label: 'speedup', format: (r) => (Number.isFinite(r.speedup) ? times(r.speedup) : '—') },
  { key: 'efficiency', label: 'efficiency', format: 'percent' },
  { key: 'karp_flatt', label: 'Karp-Flatt serial fraction', format: 'percent' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  { key: 'gb_per_s', label: 'bandwidth', unit: 'GB/s', format: 'sig' },
  ...SPREAD_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'kernel',
  'flavour',
  'threads',
  'n',
  'flops',
  'bytes',
  'median_ms',
  'speedup',
  'efficiency',
  'karp_flatt',
  'gflops_per_s',
  'gb_per_s',
  'max_error',
  'min_ms',
  'cv',
  'samples',
  'warning',
]);
