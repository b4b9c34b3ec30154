// The pure half of the training-memory experiment: core's memoryBreakdown of one zoo model
// at each batch, reshaped into stacked bars per optimizer (parameters, activations,
// gradients, optimizer state), and the table and CSV columns. Reshaping only: every byte
// count comes from core.

import { sortedUnique, zooSpecOf } from './common.js';

export const DEFAULT_BATCHES = Object.freeze([1, 32]);
export const OPTIMIZERS = Object.freeze([
  { key: 'sgd', label: 'SGD' },
  { key: 'momentum', label: 'momentum' },
  { key: 'adam', label: 'Adam' },
  { key: 'adamw', label: 'AdamW' },
]);
export const COMPONENTS = Object.freeze(['parameters', 'activations (step peak)', 'gradients', 'optimizer state']);
const MIB = 2 ** 20;

/** `{name, spec, batch}` per batch for memoryBreakdown. Counting and one step: quick needs no cut. */
export function memoryPoints(values, { info }) {
  const spec = zooSpecOf(info, values.model);
  return sortedUnique(values.batches).map((batch) => ({ name: values.model, spec, batch }));
}

/** The bar's category: "Adam · B=32". */
export const barLabel = (optimizer, batch) => `${optimizer} · B=${batch}`;

/** Stacked-bar rows in MiB: one stack per optimizer and batch, one segment per component. */
export function memoryBars(rows) {
  return rows.flatMap((r) => {
    const t = r.training;
    const batch = r.inference.batch_size;
    return OPTIMIZERS.flatMap(({ key, label }) => {
      const category = barLabel(label, batch);
      return [
        { category, component: COMPONENTS[0], mib: t.parameter_bytes / MIB },
        { category, component: COMPONENTS[1], mib: t.step_peak_bytes / MIB },
        { category, component: COMPONENTS[2], mib: t.gradient_bytes / MIB },
        { category, component: COMPONENTS[3], mib: t.optimizer_bytes[key] / MIB },
      ];
    });
  });
}

export const MEMORY_COLUMNS = Object.freeze([
  { key: 'name', label: 'model', format: 'text', align: 'left' },
  { key: 'inference.batch_size', label: 'batch', format: 'int' },
  { key: 'training.parameter_bytes', label: 'parameters', format: 'bytes' },
  { key: 'inference.activation_bytes', label: 'activations (counted)', format: 'bytes' },
  { key: 'inference.activation_estimate_bytes', label: 'input × 2 estimate', format: 'bytes' },
  { key: 'inference.peak_bytes', label: 'inference peak (measured)', format: 'bytes' },
  { key: 'training.step_peak_bytes', label: 'training step peak (measured)', format: 'bytes' },
  { key: 'training.gradient_bytes', label: 'gradients', format: 'bytes' },
  { key: 'training.optimizer_bytes.adam', label: 'Adam state', format: 'bytes' },
  { key: 'training.total_bytes.sgd', label: 'total with SGD', format: 'bytes' },
  { key: 'training.total_bytes.adam', label: 'total with Adam', format: 'bytes' },
]);

export const MEMORY_CSV = Object.freeze([
  'build',
  'name',
  { name: 'batch_size', value: (r) => r.inference.batch_size },
  { name: 'parameter_bytes', value: (r) => r.training.parameter_bytes },
  { name: 'activation_bytes', value: (r) => r.inference.activation_bytes },
  { name: 'activation_estimate_bytes', value: (r) => r.inference.activation_estimate_bytes },
  { name: 'inference_peak_bytes', value: (r) => r.inference.peak_bytes },
  { name: 'step_peak_bytes', value: (r) => r.training.step_peak_bytes },
  { name: 'gradient_bytes', value: (r) => r.training.gradient_bytes },
  ...OPTIMIZERS.map(({ key }) => ({ name: `optimizer_${key}_bytes`, value: (r) => r.training.optimizer_bytes[key] })),
  ...OPTIMIZERS.map(({ key }) => ({ name: `total_${key}_bytes`, value: (r) => r.training.total_bytes[key] })),
]);
