// The pure half of the profiling-overhead experiment: each chosen zoo model's forward
// median timed plainly and inside a ProfilerContext (core's profilingOverhead), the table
// and CSV columns. No DOM and no arithmetic (core gives the overhead and its percent).

import { ciText, timerOptions, zooSpecOf } from './common.js';
import { formatList, formatSig } from '../../ui/format.js';
import { planOf } from '../../experiments/plans.js';

/** One point per model of core's plan (`info.plan.models`) at its spec's batch: `{name, spec, options}` for profilingOverhead. */
export function overheadPoints(values, { info }) {
  const { models } = planOf(info, 'models', ['models', 'options']);
  return models.map((name) => ({ name, spec: zooSpecOf(info, name), options: timerOptions(info) }));
}

/**
 * The table's caption from core's plans: the full plan's models and which quick mode skips
 * ("Models: a, b, c (quick mode skips the last), each at its zoo batch."); null before init.
 */
export function modelsCaption(info) {
  const full = info?.fullPlan?.models;
  const quick = info?.quickPlan?.models;
  if (!full || !quick) return null;
  const skipped = full.filter((m) => !quick.includes(m));
  const skips =
    skipped.length === 0 ? '' : skipped.length === 1 && skipped[0] === full.at(-1) ? ' (quick mode skips the last)' : ` (quick mode skips ${formatList(skipped)})`;
  return `Models: ${full.join(', ')}${skips}, each at its zoo batch.`;
}

export const OVERHEAD_COLUMNS = Object.freeze([
  { key: 'name', label: 'model', format: 'text', align: 'left' },
  { key: 'layer_calls_per_forward', label: 'layer calls per forward', format: 'int' },
  { key: 'plain_ms', label: 'plain', unit: 'ms', format: 'sig' },
  { label: 'plain 95% CI', unit: 'ms', format: (r) => ciText(r.plain) },
  { key: 'with_context_ms', label: 'with context', unit: 'ms', format: 'sig' },
  { label: 'with context 95% CI', unit: 'ms', format: (r) => ciText(r.with_context) },
  { key: 'overhead_ms', label: 'overhead', unit: 'ms', format: 'sig' },
  { label: 'overhead', format: (r) => `${formatSig(r.overhead_percent)}%` },
  { key: 'clock_read_ms', label: 'one clock read', unit: 'ms', format: 'sig' },
  { label: 'warning', align: 'left', format: (r) => [r.plain?.warning, r.with_context?.warning].filter(Boolean).join(' / ') },
]);

export const OVERHEAD_CSV = Object.freeze([
  'build',
  'name',
  'layer_calls_per_forward',
  'plain_ms',
  'with_context_ms',
  'overhead_ms',
  'overhead_percent',
  'clock_read_ms',
  { name: 'plain_ci95_low_ms', value: (r) => r.plain?.ci95_low_ms },
  { name: 'plain_ci95_high_ms', value: (r) => r.plain?.ci95_high_ms },
  { name: 'with_context_ci95_low_ms', value: (r) => r.with_context?.ci95_low_ms },
  { name: 'with_context_ci95_high_ms', value: (r) => r.with_context?.ci95_high_ms },
]);
