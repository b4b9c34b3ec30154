// The pure half of the forward-vs-backward experiment: measureBackwardPoint for each zoo
// model of core's plan (the measured backward time and counted FLOPs beside the original's 2× estimate), the
// chart rows and the table and CSV columns. No DOM and no arithmetic (core gives the ratio).

import { formatSig } from '../../ui/format.js';
import { planOf } from '../../experiments/plans.js';
import { timerOptions, zooSpecOf } from './common.js';

/** One point per model of core's plan (`info.plan.models`) at its zoo batch: `{name, spec, options}`. */
export function backwardPoints(values, { info }) {
  const { models } = planOf(info, 'models', ['models', 'options']);
  return models.map((name) => ({ name, spec: zooSpecOf(info, name), options: timerOptions(info) }));
}

/** The rule of thumb the measurement is compared with: backward takes 2 × the forward. */
export const RULE_RATIO = 2;

/**
 * Grouped bars per model: the measured backward / forward ratio (core's ratio_to_forward)
 * beside the rule's 2. Ratios, not times, so models of very different sizes share an axis.
 */
export function ratioSeries(rows) {
  return rows.flatMap((r) => [
    { name: r.name, series: 'measured backward / forward', value: r.ratio_to_forward },
    { name: r.name, series: 'counted FLOPs backward / forward', value: r.flops_ratio_to_forward },
    { name: r.name, series: 'estimate (2)', value: RULE_RATIO },
  ]);
}

/** The chart's series, in the order of ratioSeries. */
export const RATIO_SERIES = Object.freeze(['measured backward / forward', 'counted FLOPs backward / forward', 'estimate (2)']);

export const BACKWARD_COLUMNS = Object.freeze([
  { key: 'name', label: 'model', format: 'text', align: 'left' },
  { key: 'batch_size', label: 'batch', format: 'int' },
  { key: 'forward_ms', label: 'training forward', unit: 'ms', format: 'sig' },
  { key: 'measured_ms', label: 'backward', unit: 'ms', format: 'sig' },
  // The estimate's time (2 × forward) is the chart's third bar and the CSV's estimated_ms.
  { label: 'backward / forward time', format: (r) => `${formatSig(r.ratio_to_forward)} ×` },
  { key: 'flops', label: 'backward FLOPs (counted)', format: 'int' },
  { label: 'counted / forward FLOPs', format: (r) => `${formatSig(r.flops_ratio_to_forward)} ×` },
  { key: 'estimated_flops', label: '2 × forward FLOPs (estimate)', format: 'int' },
  { key: 'training_memory.step_peak_bytes', label: 'step peak', format: 'bytes' },
  { key: 'latency.warning', label: 'warning', format: 'text' },
]);

export const BACKWARD_CSV = Object.freeze([
  'build',
  'name',
  'batch_size',
  'forward_ms',
  'measured_ms',
  'estimated_ms',
  'ratio_to_forward',
  'flops',
  'forward_flops',
  'flops_ratio_to_forward',
  'skipped_input_grad_flops',
  'estimated_flops',
  'gflops_per_s',
  { name: 'step_peak_bytes', value: (r) => r.training_memory?.step_peak_bytes },
  { name: 'backward_ci95_low_ms', value: (r) => r.latency?.ci95_low_ms },
  { name: 'backward_ci95_high_ms', value: (r) => r.latency?.ci95_high_ms },
  { name: 'backward_cv', value: (r) => r.latency?.cv },
  { name: 'forward_cv', value: (r) => r.forward_latency?.cv },
]);
