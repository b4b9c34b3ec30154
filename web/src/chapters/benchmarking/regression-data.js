// The pure half of the regression experiment (benchmarking-regression): the kernels
// `perflab bench` times (core's benchPlan) sampled by core's sampleKernel, a baseline kept in
// localStorage (a run of this browser, or a `perflab bench --json` file), and core's
// compareRuns of the baseline against this run. The plan, the baseline store, the run handed
// to core, the chart rows, the table and CSV columns, the compare table's columns and the
// sentence that counts core's verdicts.
// No DOM and no statistic: core times, compares and judges; this keeps and counts.

import { readJsonText } from '../../lab/json-text.js';
import { readStoredJson, writeStoredJson } from '../../state/stored-json.js';
import { formatChange, formatSig } from '../../ui/format.js';
import { formatP } from './compare-common.js';
import { kernelRowCsvColumns } from './samples-common.js';

/** localStorage key of the baseline (a versioned JSON object). */
export const BASELINE_KEY = 'perflab.benchmarking.regression-baseline.v1';

export const THRESHOLD_CONTROL = Object.freeze({
  id: 'threshold',
  type: 'number',
  label: 'Noise threshold',
  unit: '%',
  min: 0,
  max: 100,
  default: 5,
  hint:
    'A benchmark is a regression only when it is significantly slower and its median grew by more than this ' +
    '(perflab compare --threshold PCT). A browser tab is noisier than a native run, so this check starts at 5%.',
});

/** One sampleKernel point per kernel of core's bench plan, with the plan's timer. */
export function regressionPoints(values, { info } = {}) {
  const points = info?.points;
  if (!Array.isArray(points) || points.length === 0) {
    throw new Error('the lab listed no benchmarks (benchPlan), so there is nothing to run');
  }
  return points.map((p) => ({ op: p.op, variant: p.variant, n: p.n, options: { ...info.timer } }));
}

/** The run as compareRuns reads it: each row's kernel and raw samples, nothing else. */
export const runOf = (rows) => rows.map((r) => ({ op: r.op, variant: r.variant, n: r.n, samples_ms: r.samples_ms }));

const kernelOf = (r) => `${r.op} ${r.variant}`;

/** The samples chart's points: every per-call sample of this run, numbered in the order taken. */
export function sampleRows(rows) {
  let order = 0;
  return rows.flatMap((r) => r.samples_ms.map((ms) => ({ order: ++order, kernel: kernelOf(r), n: r.n, ms })));
}

// Core names a benchmark "matmul packed n=64" (regression.hpp BenchSamples.key).
const KEY = /^(\S+) (\S+) n=(\d+)$/;

/**
 * The change chart's rows, grouped by size: core's change of each benchmark against the
 * baseline, in %, with the kernel as the series. A name core writes differently stays whole.
 */
export function changeRows(comparison) {
  return (comparison?.rows ?? []).map((r) => {
    const m = KEY.exec(r.benchmark);
    return {
      size: m ? `n=${m[3]}` : r.benchmark,
      kernel: m ? `${m[1]} ${m[2]}` : r.benchmark,
      change_percent: 100 * r.change,
      verdict: r.verdict_word,
    };
  });
}

export const REGRESSION_COLUMNS = Object.freeze([
  { key: 'op', label: 'op', format: 'text' },
  { key: 'variant', label: 'variant', format: 'text' },
  { key: 'n', label: 'n', format: 'int' },
  { label: 'samples', format: (r) => String(r.samples_ms.length) },
  { key: 'inner_iterations', label: 'calls per sample', format: 'int' },
  { key: 'warning', label: 'timer warning', format: 'text' },
]);

// A regression run's rows are sampleKernel rows: the sample experiments' CSV fields.
export const REGRESSION_CSV_COLUMNS = kernelRowCsvColumns();

/** A change (new / base − 1) as a signed percentage (ui/format.js): "+105%", "-3.20%"; "—" when unbounded. */
export { formatChange };

/**
 * The compare table (core's compareRuns rows at core's alpha), for ui/table.js. The interval
 * beside the change is the change's own (core's change_interval, in the same percent), and the
 * verdict is core's word for it; the verdict identifiers stay in compareRuns' JSON.
 */
export function compareColumns(alpha) {
  const level = Number(formatSig(100 * (1 - alpha)));
  return Object.freeze([
    { key: 'benchmark', label: 'benchmark', format: 'text' },
    { key: 'base_median_ms', label: 'baseline median', unit: 'ms', format: 'sig' },
    { key: 'new_median_ms', label: 'this run’s median', unit: 'ms', format: 'sig' },
    { label: 'change', format: (r) => formatChange(r.change) },
    {
      label: `${level}% CI of the change`,
      format: (r) => (r.change_interval ? `${formatChange(r.change_interval.low)} to ${formatChange(r.change_interval.high)}` : '—'),
    },
    { label: 'p', format: (r) => formatP(r.p_value) },
    { key: 'verdict_word', label: 'verdict', format: 'text' },
    { key: 'sentence', label: 'what core concludes', format: 'text' },
  ]);
}

/**
 * The sentence above the compare table, counting core's verdicts: how many benchmarks were
 * called slower (each a regression) or faster, and whether a CI job would fail.
 */
export function regressionSentence(c) {
  const slower = c.rows.filter((r) => r.verdict === 'slower').length;
  const faster = c.rows.filter((r) => r.verdict === 'faster').length;
  const threshold = `${Number(formatSig(100 * c.threshold))}%`;
  const head = c.regression
    ? `Regression: ${slower} of ${c.rows.length} benchmarks are significantly slower than the baseline (p < ${c.alpha}) by more than ${threshold}; perflab compare would exit with 1.`
    : `No regression: none of the ${c.rows.length} benchmarks is significantly slower than the baseline by more than ${threshold}; perflab compare would exit with 0.`;
  return faster ? `${head} ${faster} ${faster === 1 ? 'is' : 'are'} significantly faster.` : head;
}

/**
 * The baseline, kept in `storage` (localStorage) under BASELINE_KEY as
 * {version: 1, source: 'browser' | 'file', label, saved_at_ms, data} where data is what
 * compareRuns reads (a bench --json document or an array of rows). A stored value that is not
 * such an object reads as no baseline.
 */
export function baselineStore(storage) {
  return {
    get() {
      return readStoredJson(storage, BASELINE_KEY, 1, (v) => typeof v.label === 'string' && v.data !== null && typeof v.data === 'object');
    },
    /** Stores a baseline; throws an Error saying why when the browser refuses (quota, private mode). */
    set({ source, label, data, saved_at_ms }) {
      if (!storage) throw new Error('this browser does not let the page keep data (localStorage is off)');
      const fields = { source, label, saved_at_ms, data };
      const err = writeStoredJson(storage, BASELINE_KEY, 1, fields);
      if (err) throw new Error(`the browser refused to keep the baseline: ${err.message}`);
      return { version: 1, ...fields };
    },
    clear() {
      storage?.removeItem(BASELINE_KEY);
    },
  };
}

/** A baseline of this browser's run. */
export const browserBaseline = (rows, build, now) => ({
  source: 'browser',
  label: `this browser’s run (${build ?? 'auto'} build, ${rows.length} benchmarks)`,
  data: runOf(rows),
  saved_at_ms: now,
});

/**
 * Parses a loaded file's text; core checks its shape afterwards (compareRuns). Throws an Error
 * naming the file and core's reason (`jsonTextProblem`, the lab's binding: the place) when it
 * is not JSON.
 */
export async function parseBaselineFile(name, text, jsonTextProblem) {
  const read = await readJsonText(text, jsonTextProblem);
  if ('reason' in read) throw new Error(`${name} is not JSON: ${read.reason}; make one with perflab bench --json > base.json`);
  return read.value;
}

/** A baseline of a loaded `perflab bench --json` file. */
export function fileBaseline(name, doc, now) {
  const rows = Array.isArray(doc) ? doc.length : (doc?.rows?.length ?? 0);
  const where = doc?.simd_backend ? `, ${doc.simd_backend}` : '';
  return { source: 'file', label: `${name} (perflab bench --json, ${rows} benchmarks${where})`, data: doc, saved_at_ms: now };
}
