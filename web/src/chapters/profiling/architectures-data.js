// The pure half of the architecture-comparison experiment: an MLP, two CNNs and a
// transformer block (zoo specs, plus one wider CNN written here so that a CNN sits near
// the others' parameter count), each measured at one batch; table and CSV columns.
// No DOM and no counting (core counts the parameters the page shows).

import { latencyColumns, latencyCsv, timerOptions, zooSpecOf } from './common.js';

/** A CNN for 28×28 images sized to sit near the MLP's and the transformer's parameter counts. */
export const CNN_WIDE_SPEC = Object.freeze({
  name: 'cnn_wide',
  input: [32, 1, 28, 28],
  layers: [
    { type: 'Conv2d', in_channels: 1, out_channels: 32, kernel: 3 },
    { type: 'ReLU' },
    { type: 'MaxPool2d', kernel: 2 },
    { type: 'Conv2d', in_channels: 32, out_channels: 64, kernel: 3 },
    { type: 'ReLU' },
    { type: 'MaxPool2d', kernel: 2 },
    { type: 'Flatten' },
    { type: 'Linear', in: 1600, out: 128 },
    { type: 'ReLU' },
    { type: 'Linear', in: 128, out: 10 },
  ],
});

export const ARCHITECTURES = Object.freeze([
  { name: 'mlp_784', family: 'MLP' },
  { name: 'cnn_28', family: 'CNN (small)' },
  { name: 'cnn_wide', family: 'CNN' },
  { name: 'transformer_block', family: 'Transformer' },
]);

/** One point per architecture at the chosen batch: `{spec, batch, options}` for measureForwardPoint. */
export function architecturePoints(values, { info }) {
  return ARCHITECTURES.map(({ name }) => ({
    spec: name === CNN_WIDE_SPEC.name ? CNN_WIDE_SPEC : zooSpecOf(info, name),
    batch: values.batch,
    options: timerOptions(info),
  }));
}

/** The family label of a row, by its model name (display only). */
export function withFamily(row) {
  return { ...row, family: ARCHITECTURES.find((a) => a.name === row.name)?.family ?? row.name };
}

export const ARCHITECTURE_COLUMNS = Object.freeze([
  { key: 'name', label: 'model', format: 'text', align: 'left' },
  { key: 'family', label: 'family', format: 'text' },
  { key: 'parameters', label: 'parameters', format: 'int' },
  { key: 'flops_per_sample', label: 'FLOPs per sample', format: 'int' },
  { key: 'activation_bytes', label: 'activations', format: 'bytes' },
  ...latencyColumns(),
  { key: 'ms_per_sample', label: 'per sample', unit: 'ms', format: 'sig' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
  { key: 'latency.warning', label: 'warning', format: 'text' },
]);

export const ARCHITECTURE_CSV = Object.freeze([
  'build',
  'name',
  { name: 'family', value: (r) => withFamily(r).family },
  'batch_size',
  'parameters',
  'flops_per_sample',
  'flops_per_batch',
  'activation_bytes',
  'peak_bytes',
  'ms_per_sample',
  'samples_per_s',
  'gflops_per_s',
  ...latencyCsv(),
]);
