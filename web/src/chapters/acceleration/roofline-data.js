// The pure half of the roofline experiment (acceleration-roofline): core's roofline plan
// (the kernels `perflab roofline` places) as points, each carrying this machine's probed
// roofs so core returns the placement; the kernel labels, the chart's reference lines (one
// core's roofs, and every core's once the kernel engine has measured them), the columns.
// No DOM.

import { rooflineReferences } from '../../charts/shape.js';
import { formatSig } from '../../ui/format.js';
import { enginePeaksProblem } from '../../state/machine-probe.js';
import { operationCsvColumns } from '../operation-row.js';

/** The chart's intensity axis (FLOP/byte): from below add's 1/12 to above N/6 at N = 1024. */
export const X_DOMAIN = Object.freeze([1 / 32, 512]);

/**
 * Points `{op, n, options}` for measureOperation, one per point of core's roofline plan
 * (`info.plan`, rooflinePlan: the same kernels `perflab roofline` places); each options
 * object carries the plan's timer, the roofs (`info` is the probe's result) and the
 * point's variant when it names one.
 */
export function rooflinePoints(values, { info }) {
  const peak = info?.peak_gflops_per_s;
  const bandwidth = info?.bandwidth_gb_per_s;
  if (!(peak > 0) || !(bandwidth > 0)) {
    throw new Error('the machine probe gave no peak and bandwidth, so there is no roofline to place kernels on');
  }
  const plan = info?.plan;
  if (!Array.isArray(plan?.points) || plan.points.length === 0) {
    throw new Error('the lab worker gave no roofline plan, so there is nothing to place');
  }
  return plan.points.map(({ op, n, variant }) => ({
    op,
    n,
    options: {
      ...plan.timer,
      ...(variant ? { variant } : {}),
      peak_gflops_per_s: peak,
      bandwidth_gb_per_s: bandwidth,
    },
  }));
}

/**
 * How a kernel is named on the chart and in the table: "matmul packed N=64" (every matmul
 * names its variant; packed is the layers' kernel), "gelu fused-simd", "softmax naive", "add".
 */
export function kernelName({ op, n, variant, options }) {
  const v = variant ?? options?.variant;
  if (op === 'matmul') return `matmul ${v || 'packed'} N=${n}`;
  if (op === 'gelu') return `gelu ${v ?? ''}`.trim();
  return v === 'naive' ? `${op} naive` : op;
}

// Compute roofs closer than this ratio would print their labels on one another at the right
// end (a label is about 14 px tall; the y axis gives a factor of 1.4 about that much), as one
// core's FMA and every core's peak do on a machine whose second core is busy.
const CLOSE_ROOFS = 1.4;
// How far left each further label in a crowd moves: 1.6 decades of intensity, about a label's
// width on the chart.
const LABEL_SHIFT = 10 ** 1.6;

// Gives each compute roof's label its own slot along x: the highest roof keeps the right end,
// and a roof within CLOSE_ROOFS of one already placed in a slot takes the next slot to its left.
function spreadComputeLabels(lines) {
  const computes = lines.filter((l) => l.kind !== 'bandwidth' && l.kind !== 'ridge' && l.y1 === l.y2 && l.label);
  const placed = [];
  for (const l of [...computes].sort((a, b) => b.y1 - a.y1)) {
    let slot = 0;
    while (placed.some((p) => p.slot === slot && p.value / l.y1 < CLOSE_ROOFS)) slot += 1;
    placed.push({ slot, value: l.y1 });
    if (slot > 0) Object.assign(l, { labelX: l.x2 / LABEL_SHIFT ** slot, labelY: l.y1 });
  }
}

// The kernel engine's figures (core's probeEngine object) when they check, else null: the chart
// then draws only the machine probe's roofs, and the text compares nothing.
const checkedEngine = (info) => (info?.engine && enginePeaksProblem(info.engine) === null ? info.engine : null);

/** Display: the kernel's name for the chart label. */
export const withKernelName = (row) => ({ ...row, kernel: kernelName(row) });

/**
 * Display: the chart's point labels. Kernels that land on the same spot, such as add and mul
 * often do, share one label ("add, mul") on the first of them; `near` is the largest ratio
 * between two points' coordinates still counted as the same spot (5%: their dots overlap on
 * the chart). Points further apart keep their own labels, which the scatter chart places
 * clear of each other (charts/labels.js).
 */
export function chartPoints(rows, near = 1.05) {
  const labelled = [];
  return rows.map((row) => {
    const twin = labelled.find(
      (l) =>
        Math.max(l.row.intensity / row.intensity, row.intensity / l.row.intensity) <= near &&
        Math.max(l.row.gflops_per_s / row.gflops_per_s, row.gflops_per_s / l.row.gflops_per_s) <= near,
    );
    if (twin) {
      twin.point.label = `${twin.point.label}, ${row.kernel}`;
      return { ...row, label: '' };
    }
    const point = { ...row, label: row.kernel };
    labelled.push({ row, point });
    return point;
  });
}

/**
 * The roofs as the chart's reference segments and the ridge point core reported with the
 * probe as a vertical line, or none yet. Without the kernel engine's figures (`info.engine`,
 * core's probeEngine object): the probe's peak and bandwidth, as "peak …" and "memory …".
 * With them, every roof says whose it is: one core's (solid: the memory roof up to the
 * higher compute roof, the SIMD multiply-add peak and, where measured, the FMA peak) and,
 * on more than one thread, every core's at once (dashed: the all-core peak and triad).
 * Each line has `kind` (bandwidth, peak, fma, ridge) and `scope` ('core' or 'all').
 */
export function roofLines(info) {
  if (!(info?.peak_gflops_per_s > 0) || !(info?.bandwidth_gb_per_s > 0)) return [];
  const xDomain = [...X_DOMAIN];
  const peak = info.peak_gflops_per_s;
  const bandwidth = info.bandwidth_gb_per_s;
  const engine = checkedEngine(info);
  const lines = [];
  if (!engine) {
    lines.push(...rooflineReferences({ peak_gflops_per_s: peak, bandwidth_gb_per_s: bandwidth, xDomain }).map((l) => ({ ...l, scope: 'core' })));
  } else {
    const gflops = (v) => `${formatSig(v)} GFLOP/s`;
    const computes = [{ kind: 'peak', value: peak, label: `1 core: multiply-add ${gflops(peak)}` }];
    const fma = engine.fma_gflops_per_s;
    if (fma > 0) computes.push({ kind: 'fma', value: fma, label: `1 core: FMA ${gflops(fma)}` });
    // The memory roof runs up to the highest compute roof; each compute roof from its own ridge.
    const top = computes.reduce((a, b) => (b.value > a.value ? b : a));
    const memoryLabel = `1 core: memory ${formatSig(bandwidth)} GB/s`;
    for (const c of computes) {
      const segments = rooflineReferences({ peak_gflops_per_s: c.value, bandwidth_gb_per_s: bandwidth, xDomain, peakLabel: c.label, bandwidthLabel: memoryLabel });
      for (const l of segments) {
        if (l.kind === 'peak') lines.push({ ...l, kind: c.kind, scope: 'core' });
        else if (c === top) lines.push({ ...l, scope: 'core' });
      }
    }
    if (engine.threads > 1) {
      const cores = `${engine.threads} cores`;
      const all = rooflineReferences({
        peak_gflops_per_s: engine.all_core_gflops_per_s,
        bandwidth_gb_per_s: engine.all_core_triad_gb_per_s,
        xDomain,
        peakLabel: `${cores}: peak ${gflops(engine.all_core_gflops_per_s)}`,
        bandwidthLabel: `${cores}: memory ${formatSig(engine.all_core_triad_gb_per_s)} GB/s`,
      });
      for (const l of all) {
        // Its memory label three quarters up the diagonal (on log axes), clear of one core's halfway up.
        const shifted = l.kind === 'bandwidth' ? { labelX: l.x1 ** 0.25 * l.x2 ** 0.75, labelY: l.y1 ** 0.25 * l.y2 ** 0.75 } : {};
        lines.push({ ...l, ...shifted, dashed: true, scope: 'all' });
      }
    }
  }
  spreadComputeLabels(lines);
  const ridge = info.ridge_flops_per_byte;
  if (ridge > X_DOMAIN[0] && ridge < X_DOMAIN[1]) {
    // Labelled at its foot: at its top the roofs meet, each with its own label.
    lines.push({ kind: 'ridge', scope: 'core', x: ridge, dashed: true, labelAt: 'bottom', label: `ridge ${formatSig(ridge)} FLOP/byte` });
  }
  return lines;
}

/**
 * Where every core's roof came out at or below one core's as the chart draws them: the dashed
 * peak against the highest solid compute roof, the dashed memory roof (the engine's all-core
 * triad) against the solid one (the machine probe's triad, a run of its own). Each is
 * { roof: 'peak' | 'memory', all, one } (and for memory `own`, the engine's one-core triad of
 * the same run as `all`). [] without checked engine figures or on one thread.
 */
export function allCoreShortfalls(info) {
  const engine = checkedEngine(info);
  if (!engine || !(engine.threads > 1) || !(info.peak_gflops_per_s > 0) || !(info.bandwidth_gb_per_s > 0)) return [];
  const out = [];
  const oneCompute = Math.max(info.peak_gflops_per_s, engine.fma_gflops_per_s ?? 0);
  if (engine.all_core_gflops_per_s <= oneCompute) {
    out.push({ roof: 'peak', all: engine.all_core_gflops_per_s, one: oneCompute });
  }
  if (engine.all_core_triad_gb_per_s <= info.bandwidth_gb_per_s) {
    out.push({ roof: 'memory', all: engine.all_core_triad_gb_per_s, one: info.bandwidth_gb_per_s, own: engine.per_core_triad_gb_per_s });
  }
  return out;
}

export const TABLE_COLUMNS = Object.freeze([
  { key: 'kernel', label: 'kernel', format: 'text' },
  { key: 'intensity', label: 'intensity', unit: 'FLOP/byte', format: 'sig' },
  { key: 'gflops_per_s', label: 'measured', unit: 'GFLOP/s', format: 'sig' },
  { key: 'attainable_gflops_per_s', label: 'attainable', unit: 'GFLOP/s', format: 'sig' },
  { key: 'fraction_of_attainable', label: 'of attainable', format: 'percent' },
  { key: 'verdict', label: 'verdict', format: 'text' },
]);

export const CSV_COLUMNS = operationCsvColumns();
