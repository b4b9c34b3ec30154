// The class roofline's chart: one point per student (the fastest kernel of their own roofline
// run, at its intensity and rate) and each student's roofs, while few enough to read, on the
// lab's scatter chart. Options and data only; the numbers arrive from grading/summary.js's
// classRoofline. Not for: computing roofs or rates (the student's run did, in core).

import { rooflineReferences } from '../charts/shape.js';

// Roofs are drawn for at most this many students (more would hide the points).
export const MAX_ROOFS = 8;
const MAX_POINT_LABELS = 16;

/**
 * The ScatterChart's options and data for classRoofline's rows (rows without a measured
 * kernel give roofs only).
 */
export function machinesChart(rows) {
  const points = rows
    .filter((r) => r.intensity > 0 && r.gflops_per_s > 0)
    .map((r, _, all) => ({ intensity: r.intensity, gflops_per_s: r.gflops_per_s, label: all.length <= MAX_POINT_LABELS ? r.student : '', student: r.student, kernel: r.kernel }));
  const ridges = rows.map((r) => r.peak_gflops_per_s / r.bandwidth_gb_per_s);
  const xs = [...ridges, ...points.map((p) => p.intensity)];
  const xDomain = xs.length ? [Math.min(0.05, Math.min(...xs) / 4), Math.max(64, Math.max(...xs) * 4)] : [0.05, 64];
  const references = rows.length <= MAX_ROOFS
    ? rows.flatMap((r) => rooflineReferences({ ...r, xDomain, peakLabel: '', bandwidthLabel: '' }).map((ref) => ({ ...ref, label: '' })))
    : [];
  return {
    options: {
      x: 'intensity',
      y: 'gflops_per_s',
      label: 'label',
      xDomain,
      xLabel: 'arithmetic intensity (FLOP/byte) →',
      yLabel: '↑ GFLOP/s',
      ariaLabel: 'The class roofline: each student’s fastest measured kernel, and their own roofs',
      emptyText: 'No student’s file carries a roofline run or a machine probe.',
    },
    data: { points, references },
  };
}
