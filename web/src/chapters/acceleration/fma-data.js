// The pure half of the FMA experiment (acceleration-fma): the packed matmul at core's planned
// sizes on one thread in each flavour the kernel engine runs (fma: one fused multiply-add per
// vector; simd: a multiply, then an add) beside the main module's own packed kernel (its
// measureMatmul), GFLOP/s side by side, each against the main module's at the same N, and the
// sentences that compare the measured rows. No DOM and no measuring.

import { planOf } from '../../experiments/plans.js';
import { formatInt, formatList, formatSig } from '../../ui/format.js';
import { TIMED_COLUMNS } from './timed-columns.js';

/** The main module's kernel every engine flavour is set against (core's matmul variant list names it). */
export const MAIN_VARIANT = 'packed';
export const MAIN = 'main';

/** Each source's name in the chart and the table: an engine flavour, or the main module. */
export function sourceName(source) {
  if (source === MAIN) return `${MAIN_VARIANT} (main module)`;
  return `${source} (engine, 1 thread)`;
}

/** The main module's points, measured first (the experiment's prepare): its packed kernel at each planned N. */
export function mainPoints(info) {
  const { sizes, options } = planOf(info, 'FMA sizes', ['sizes', 'options']);
  return sizes.map((n) => ({ source: MAIN, variant: MAIN_VARIANT, n, options: { ...options } }));
}

/**
 * The engine's points: every flavour it runs (`facts.flavours`, fastest first) at every
 * planned N on one thread, sizes outermost.
 */
export function enginePoints(values, { info, prepared }) {
  const flavours = prepared?.facts?.flavours ?? [];
  if (flavours.length === 0) throw new Error('the kernel engine listed no flavours, so there is nothing to measure');
  const { sizes, options } = planOf(info, 'FMA sizes', ['sizes', 'options']);
  return sizes.flatMap((n) => flavours.map((flavour) => ({ source: flavour, flavour, threads: 1, n, options: { ...options } })));
}

/**
 * The run's rows: the main module's and the engine's, each with its source's name and
 * `vs_main`, its GFLOP/s over the main module's at the same N (1.3 = 30% faster).
 */
export function combineRows(mainRows, engineRows) {
  const main = new Map(mainRows.map((r) => [r.n, r.gflops_per_s]));
  return [...mainRows, ...engineRows]
    .map((r) => {
      const base = main.get(r.n);
      const named = { ...r, source_name: sourceName(r.source) };
      return base > 0 && r.gflops_per_s > 0 ? { ...named, vs_main: r.gflops_per_s / base } : named;
    })
    .sort((a, b) => a.n - b.n);
}

const times = (v) => `${formatSig(v)}×`;
const rate = (r) => `${formatSig(r.gflops_per_s)} GFLOP/s`;

/**
 * What the rows say, quoting them: which flavours ran (and why fma did not, when it did not),
 * then, at the largest N every source was measured at, each source's GFLOP/s and fma over simd.
 * @param {object[]} rows combined rows
 * @param {{flavours: string[], why: string}} facts the engine's
 * @returns {{role: string, text: string}[]}
 */
export function fmaSentences(rows, facts) {
  const out = [];
  if (!facts.flavours.includes('fma')) out.push({ role: 'no-fma', text: `The fma flavour did not run: ${facts.why}` });
  const sources = [MAIN, ...facts.flavours];
  const at = (n, source) => rows.find((r) => r.n === n && r.source === source && r.gflops_per_s > 0);
  const n = [...new Set(rows.map((r) => r.n))].sort((a, b) => b - a).find((size) => sources.every((s) => at(size, s)));
  if (n === undefined) return out;
  const parts = sources.map((s) => `${sourceName(s)} ${rate(at(n, s))}`);
  out.push({ role: 'rates', text: `At N = ${formatInt(n)}: ${formatList(parts)}.` });
  if (at(n, 'fma') && at(n, 'simd')) {
    const ratio = at(n, 'fma').gflops_per_s / at(n, 'simd').gflops_per_s;
    // Judged on the ratio as printed, so the verdict never contradicts its own figure.
    const shown = Number(formatSig(ratio));
    const verdict =
      shown > 1
        ? 'the same loop with one fused instruction per multiply-add did more FLOPs per second'
        : 'fusing the multiply and the add bought no speed at this size on this machine';
    out.push({ role: 'ratio', text: `fma ÷ simd = ${times(ratio)} at N = ${formatInt(n)}: ${verdict}.` });
  }
  return out;
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'n', label: 'N', format: 'int' },
  { key: 'source_name', label: 'kernel', format: 'text' },
  { key: 'vs_main', label: `vs ${MAIN_VARIANT} (main module)`, format: (r) => (Number.isFinite(r.vs_main) ? times(r.vs_main) : '—') },
  ...TIMED_COLUMNS,
]);

export const CSV_COLUMNS = Object.freeze([
  'build',
  'source',
  'flavour',
  'threads',
  'n',
  'flops',
  'vs_main',
  'max_error',
  'gflops_per_s',
  'median_ms',
  'min_ms',
  'cv',
  'samples',
  'warning',
]);
