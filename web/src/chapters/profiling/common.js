// Shared by the Profiling chapter's experiments (pure, no DOM): their init (core's plan of
// the experiment, and core's zoo read once per bridge) and their model select's options, the
// plan's timer budget per point, the zoo lookup every spec-based plan uses, the latency
// columns of tables and CSVs, and a long-form helper for charts. Not for: measuring or
// counting (core), or the plans' numbers (core's experimentPlan).

import { experimentPlans, planOf } from '../../experiments/plans.js';
import { formatSig } from '../../ui/format.js';
import { labOf } from '../../lab/client.js';

/** A fresh copy of core's Timer options for one point (`info.plan.options`), or an Error. */
export function timerOptions(info) {
  return { ...planOf(info, 'Timer options', ['options']).options };
}

/**
 * An experiment's init: core's plan of experiment `id` (`info.plan` for this mode and
 * `info.fullPlan`, experiments/plans.js), with core's zoo (`info.zoo`) when `zoo` is true.
 */
export function planInit(id, { zoo = false } = {}) {
  return async ({ bridge, quick }) => {
    const [plans, models] = await Promise.all([experimentPlans(bridge, id, quick), zoo ? zooInit({ bridge }) : {}]);
    return { ...models, ...plans };
  };
}

// One zoo request per bridge, shared by every experiment's init and model select; a failed
// one is forgotten so that the next asker tries again.
const zoos = new WeakMap();
function zooOf(bridge, where) {
  if (!zoos.has(bridge)) {
    const loading = labOf(bridge).zooModels({ where });
    zoos.set(bridge, loading);
    loading.catch(() => zoos.delete(bridge));
  }
  return zoos.get(bridge);
}

/** The experiments' shared init: core's zoo ([{name, description, spec}]) as `info.zoo`. */
export async function zooInit({ bridge }) {
  const zoo = await zooOf(bridge, 'profiling-zoo');
  return { zoo };
}

/** The zoo spec called `name`, or an Error naming the ones there are. */
export function zooSpecOf(info, name) {
  const zoo = info?.zoo;
  if (!Array.isArray(zoo) || zoo.length === 0) {
    throw new Error('the lab worker listed no zoo models, so there is nothing to measure');
  }
  const entry = zoo.find((m) => m.name === name);
  if (!entry) throw new Error(`unknown zoo model "${name}"; the zoo has ${zoo.map((m) => m.name).join(', ')}`);
  return entry.spec;
}

/** A zoo model select: its options are core's zoo (name, with the description as a tooltip). */
export function zooControl(overrides = {}) {
  return {
    id: 'model',
    type: 'select',
    label: 'Model',
    options: async ({ bridge }) =>
      (await zooOf(bridge, 'profiling-zoo')).map((m) => ({ value: m.name, label: m.name, title: m.description })),
    default: 'mlp_784',
    ...overrides,
  };
}

/** "0.245 – 0.255" from a stats object. */
export const ciText = (stats) => `${formatSig(stats.ci95_low_ms)} – ${formatSig(stats.ci95_high_ms)}`;

/** Table columns for a `latency` stats object at `key` (default 'latency'). */
export function latencyColumns(key = 'latency', label = 'median latency') {
  return [
    { key: `${key}.median_ms`, label, unit: 'ms', format: 'sig' },
    { label: '95% CI', unit: 'ms', format: (row) => ciText(row[key]) },
    { key: `${key}.cv`, label: 'CV', format: 'percent' },
  ];
}

/** CSV columns for a `latency` stats object at `key`: {name, value} pairs, C++ names prefixed. */
export function latencyCsv(key = 'latency', prefix = '') {
  return ['median_ms', 'ci95_low_ms', 'ci95_high_ms', 'p95_ms', 'cv', 'samples', 'warning'].map((f) => ({
    name: `${prefix}${f}`,
    value: (row) => row[key]?.[f],
  }));
}

/** Unique positive integers in ascending order. */
export function sortedUnique(values) {
  return [...new Set(values)].sort((a, b) => a - b);
}
