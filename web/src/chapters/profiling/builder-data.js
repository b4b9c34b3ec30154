// The pure half of the Profiling chapter's model builder: the saved editor content (a
// versioned localStorage entry, checked on read), the MLP widths and batch fields, the
// profile options (normal or ?quick=1), and the rows the page prints from core's profile
// (totals beside the original course's estimates, per-layer rows, top operations).
// No DOM and no arithmetic on measurements: every number comes from profileModel.

import { scalePoint } from '../../experiments/model.js';
import { readStoredJson, writeStoredJson } from '../../state/stored-json.js';
import { formatBytes, formatCount, formatInt, formatPercent, formatSig } from '../../ui/format.js';

export const BUILDER_STORAGE_KEY = 'perflab.profiling.builder.v1';
export const BUILDER_STORAGE_VERSION = 1;
/** A spec longer than this is not something a student typed; refuse to store or load it. */
export const MAX_SPEC_CHARS = 100000;

/** The spec the editor starts with when nothing is saved (the zoo's mlp_784 may replace it). */
export const DEFAULT_SPEC_TEXT = `{
  "name": "my_mlp",
  "input": [64, 784],
  "layers": [
    {"type": "Linear", "in": 784, "out": 256},
    {"type": "ReLU"},
    {"type": "Linear", "in": 256, "out": 10}
  ]
}
`;

/**
 * The saved editor text, or null when nothing valid is saved. A value of another version,
 * not JSON, or of the wrong shape is ignored (never thrown): the page then starts fresh.
 * @param {{getItem: (key: string) => string|null}} storage
 */
export function readSavedSpec(storage) {
  const saved = readStoredJson(
    storage,
    BUILDER_STORAGE_KEY,
    BUILDER_STORAGE_VERSION,
    (s) => typeof s.text === 'string' && s.text.length <= MAX_SPEC_CHARS,
  );
  return saved ? saved.text : null;
}

/**
 * Saves the editor text; returns null, or a sentence when it could not be saved.
 * @param {{setItem: (key: string, value: string) => void}} storage
 */
export function saveSpec(storage, text) {
  if (typeof text !== 'string') return `the model spec must be text, got ${typeof text}`;
  if (text.length > MAX_SPEC_CHARS) {
    return `the model spec is ${text.length} characters; at most ${MAX_SPEC_CHARS} are saved`;
  }
  const err = writeStoredJson(storage, BUILDER_STORAGE_KEY, BUILDER_STORAGE_VERSION, { text });
  return err ? `your model spec could not be saved in this browser: ${err.message}` : null;
}

/**
 * The MLP field "784, 256, 128, 10" as widths (input, hidden..., output). Checks the form
 * only; core's mlpSpec checks the values again.
 * @returns {{widths: number[]} | {problem: string}}
 */
export function parseWidths(text) {
  const items = String(text)
    .split(/[\s,;]+/)
    .filter((s) => s !== '');
  if (items.length < 2) {
    return { problem: `Layer widths: enter at least an input and an output width, e.g. 784, 256, 10; got "${text}"` };
  }
  if (items.length > 16) return { problem: `Layer widths: at most 16 widths, got ${items.length}` };
  const widths = [];
  for (const item of items) {
    const value = Number(item);
    if (!Number.isInteger(value) || value < 1 || value > 65536) {
      return { problem: `Layer widths: each width must be an integer from 1 to 65536, got "${item}"` };
    }
    widths.push(value);
  }
  return { widths };
}

/**
 * The batch field: blank means the spec's own batch (null), else an integer 1..4096.
 * @returns {{batch: number|null} | {problem: string}}
 */
export function parseBatch(text) {
  const t = String(text ?? '').trim();
  if (t === '') return { batch: null };
  const value = Number(t);
  if (!Number.isInteger(value) || value < 1 || value > 4096) {
    return { problem: `Batch must be empty (the spec's batch) or an integer from 1 to 4096, got "${t}"` };
  }
  return { batch: value };
}

/**
 * Timer budgets for one profile: core's defaults, or small ones under ?quick=1; with Measure
 * longer (`factor` "2" or "4") the samples and time budget of those, scaled as the
 * experiments' (experiments/model.js scalePoint). `defaults` is core's profileTimerDefaults,
 * needed only to scale core's defaults.
 */
export function profileOptions({ quick = false, batch = null, factor = '1', defaults = null } = {}) {
  let options = quick ? { samples: 3, warmup: 1, min_sample_ms: 1, max_total_ms: 120, context_passes: 1 } : {};
  if (factor !== '1') {
    const base = quick ? options : { samples: defaults?.samples, max_total_ms: defaults?.max_total_ms };
    options = { ...options, ...scalePoint({ options: base }, factor).point.options };
  }
  if (batch !== null && batch !== undefined) options.batch = batch;
  return options;
}

const ms = (v) => `${formatSig(v)} ms`;
const flops = (v) => formatInt(v);
const bytes = (v) => `${formatBytes(v)} (${formatInt(v)} B)`;

/**
 * The totals of a profile as table groups: [{group, rows: [{label, value, estimate?, note?,
 * quantity?, probeAt?}]}]. `value` is what this lab counted or measured, `estimate` the
 * original course's rule where it had one. Each timed figure names which time it is (the
 * whole model's inference forward, the training forward timed with the backward, the
 * backward) and carries a `quantity` key, unique on the builder, so no quantity is shown
 * twice. `judged` is the bottleneck verdict in force `{reason, probeTime, probeAt}` (core's
 * sentence against the page's machine probe; default: the profile's own, unnamed probe).
 * Strings only: formatting, no arithmetic.
 */
export function totalsRows(p, judged = null) {
  const lat = p.latency;
  const b = p.bottleneck;
  const batch = `per batch of ${p.batch_size}`;
  const verdict = judged ?? { reason: b.reason, probeTime: null, probeAt: null };
  const groups = [
    {
      group: 'Size',
      rows: [
        { label: 'Parameters', value: formatInt(p.parameters), note: 'Linear: in·out + out; Conv2d: k²·C_in·C_out + C_out' },
        { label: 'Parameter memory', value: bytes(p.parameter_bytes), note: '4 bytes per float32 parameter' },
        { label: 'Input → output', value: `[${p.input.join(', ')}] → [${p.output_shape.join(', ')}]` },
      ],
    },
    {
      group: 'FLOPs (2 per multiply-accumulate)',
      rows: [
        { label: 'Per sample (matmul)', value: flops(p.flops_per_sample), note: 'independent of the batch' },
        { label: `Per batch of ${p.batch_size}`, value: flops(p.flops_per_batch) },
        {
          label: 'Per batch by category',
          value:
            `matmul ${flops(p.flops_breakdown.matmul)} · bias ${flops(p.flops_breakdown.bias)} · ` +
            `element-wise ${flops(p.flops_breakdown.elementwise)} · total ${flops(p.flops_breakdown.total)}`,
        },
      ],
    },
    {
      group: `Memory at batch ${p.batch_size}`,
      rows: [
        {
          label: 'Activations (every layer output)',
          value: bytes(p.activation_bytes),
          estimate: `${bytes(p.activation_estimate_bytes)} (input × 2)`,
        },
        {
          label: 'Peak during a forward pass (measured)',
          value: bytes(p.peak_bytes),
          estimate: `${bytes(p.peak_estimate_bytes)} (parameters + input × 2)`,
          note: 'what the tracking allocator saw above the parameters and the input',
        },
        {
          label: 'Memory efficiency (useful ÷ held at the peak)',
          value: `${formatPercent(p.memory_efficiency)}: ${formatBytes(p.useful_bytes)} useful of ${formatBytes(p.held_bytes)} held`,
          note:
            'useful = parameters + input + output; held = parameters + input + the measured peak above them ' +
            '(gradients in neither). 100% would mean the pass held nothing else; the original gives no threshold',
        },
        { label: 'Gradients', value: bytes(p.gradient_bytes), note: 'one per parameter' },
        {
          label: 'Optimizer state',
          value:
            `SGD ${formatBytes(p.optimizer_bytes.sgd)} · momentum ${formatBytes(p.optimizer_bytes.momentum)} · ` +
            `Adam ${formatBytes(p.optimizer_bytes.adam)} · AdamW ${formatBytes(p.optimizer_bytes.adamw)}`,
          note: 'Adam keeps two extra copies of the parameters',
        },
      ],
    },
    {
      group: 'Inference on this machine (whole model, caches off)',
      rows: [
        {
          label: `Forward time, inference, ${batch}`,
          quantity: 'forward-inference-ms',
          value: `${ms(lat.median_ms)} median (95% CI ${formatSig(lat.ci95_low_ms)} – ${formatSig(lat.ci95_high_ms)} ms)`,
          note: `p95 ${ms(lat.p95_ms)} · CV ${formatPercent(lat.cv)} · ${lat.samples} samples`,
        },
        ...(lat.warning ? [{ label: 'Timer warning', value: lat.warning, warn: true }] : []),
        {
          label: 'Throughput',
          value: `${formatSig(p.gflops_per_s)} GFLOP/s (matmul) · ${formatSig(p.samples_per_s)} samples/s`,
          estimate: `${formatPercent(b.original_efficiency)} of an assumed 100 GFLOP/s`,
        },
        {
          label: 'Memory bandwidth',
          value: `${formatInt(p.memory_bandwidth_mb_per_s)} MB/s (bytes moved ÷ the median forward)`,
          estimate: `${formatInt(b.original_memory_bandwidth_mb_per_s)} MB/s (peak memory ÷ the median), which its rule compares with 100 × GFLOP/s`,
          note: 'MB = 2²⁰ bytes, as the original; the ideal traffic, so a lower bound of what the memory served',
        },
        {
          label: 'Bottleneck',
          value: verdict.reason,
          probeAt: verdict.probeAt,
          estimate: `"${b.original_verdict}-bound" (peak MB/s vs 100 × GFLOP/s)`,
          note:
            `intensity ${formatSig(p.arithmetic_intensity)} FLOP/byte over ${formatBytes(p.bytes_moved)} moved` +
            (verdict.probeTime ? `; judged by core against the machine probe of ${verdict.probeTime} (above)` : ''),
        },
      ],
    },
  ];
  if (p.backward) {
    const bw = p.backward;
    const rounds = bw.rounds ? ` in each of ${bw.rounds} rounds` : '';
    // The interleaved run's warnings (they often agree: one budget, the same rounds).
    const warnings = [
      ['training forward', bw.forward_latency?.warning],
      ['backward', bw.latency?.warning],
    ].filter(([, w]) => w);
    const trainingWarning =
      warnings.length === 2 && warnings[0][1] === warnings[1][1]
        ? warnings[0][1]
        : warnings.map(([what, w]) => `${what}: ${w}`).join(' · ');
    groups.push({
      group: 'Training on this machine (whole model, caches kept for the backward)',
      rows: [
        {
          label: `Forward time, training, ${batch}`,
          quantity: 'forward-training-ms',
          value: `${ms(bw.forward_ms)} median`,
          note: `timed interleaved with the backward: one forward, then one backward${rounds}; each layer keeps its input for the backward`,
        },
        {
          label: `Backward time, ${batch}`,
          quantity: 'backward-ms',
          value: `${ms(bw.measured_ms)} median = ${formatSig(bw.ratio_to_forward)} × the training forward`,
          estimate: `${ms(bw.estimated_ms)} (2 × the training forward)`,
          note: 'both medians from the same interleaved run',
        },
        ...(trainingWarning ? [{ label: 'Timer warning (training run)', value: trainingWarning, warn: true }] : []),
        {
          label: 'Backward FLOPs (counted, matmul)',
          value: `${flops(bw.flops)} = ${formatSig(bw.flops_ratio_to_forward)} × forward; the first layer’s dx (${flops(bw.skipped_input_grad_flops)}) is not computed`,
          estimate: `${flops(bw.estimated_flops)} (2 × forward)`,
        },
        {
          label: `Step total, training forward + backward, ${batch}`,
          quantity: 'step-total-ms',
          value:
            `${ms(bw.total_ms)} · ${flops(bw.total_flops)} FLOPs (${formatSig(bw.total_gflops_per_s)} GFLOP/s) · ` +
            `${formatBytes(bw.total_memory_bytes)}`,
          estimate: `${ms(bw.estimated_total_ms)} · ${flops(bw.estimated_total_flops)} FLOPs (3 × the training forward)`,
          note:
            'time: the two medians above, summed; FLOPs: forward + counted backward; memory: parameters + gradients + ' +
            'the step’s measured peak (SGD, no optimizer state)',
        },
        {
          label: 'Training step memory',
          value:
            `step peak ${formatBytes(bw.training_memory.step_peak_bytes)}; with Adam in all ` +
            formatBytes(bw.training_memory.total_bytes.adam),
          note: 'parameters + gradients + optimizer state + the step’s measured peak',
        },
      ],
    });
  }
  return groups;
}

/** The per-layer table's columns (experiments/model.js column format). */
export const LAYER_COLUMNS = Object.freeze([
  { key: 'index', label: '#', format: 'text', align: 'right' },
  { key: 'label', label: 'layer', format: 'text' },
  { label: 'output shape', format: (r) => `[${r.output_shape.join(', ')}]` },
  { key: 'parameters', label: 'parameters', format: 'int' },
  { key: 'flops_per_sample', label: 'FLOPs per sample', format: 'int' },
  { key: 'activation_bytes', label: 'activation', format: 'bytes' },
  { key: 'forward_ms', label: 'forward alone, per batch', unit: 'ms', format: 'sig' },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
]);

/** The caption of the per-layer table: what its time column is, and what it is not. */
export const LAYER_CAPTION =
  'Each layer counted, and its forward timed alone (inference, median per batch) on an input of its shape. ' +
  'Each is its own run, apart from the whole model’s, so they need not add up to the whole model’s forward.';

/** Top operations as bar rows {layer, pass, total_ms}: the first `limit` (core sorts them). */
export function topOperationBars(profile, limit = 10) {
  return (profile.top_operations ?? [])
    .slice(0, limit)
    .map((r) => ({ layer: r.layer, pass: r.pass, total_ms: r.total_ms }));
}

/** "3 recorded passes" from core's top_operations_passes. */
export function passesText(profile) {
  const n = profile.top_operations_passes;
  if (!Number.isInteger(n)) return 'the recorded passes';
  return formatCount(n, 'recorded pass', 'recorded passes');
}

/** The top operations' columns; total_ms sums every recorded pass, and says so. */
export const topOperationColumns = (profile) => [
  { key: 'layer', label: 'layer', format: 'text' },
  { key: 'pass', label: 'pass', format: 'text' },
  { key: 'calls', label: 'calls', format: 'int' },
  { key: 'total_ms', label: `total over ${passesText(profile)}`, unit: 'ms', format: 'sig' },
  { key: 'percent_of_total', label: '% of total', format: (r) => `${formatSig(r.percent_of_total)}%` },
  { key: 'gflops_per_s', label: 'GFLOP/s', format: 'sig' },
];

/**
 * A spec as the editor shows it: name, input and other fields first, one layer per line
 * with its type first. Display only; the text parses back to the same spec.
 */
export function formatSpec(spec) {
  const inline = (v) =>
    Array.isArray(v) ? `[${v.map(inline).join(', ')}]` : v !== null && typeof v === 'object' ? inlineObject(v) : JSON.stringify(v);
  const inlineObject = (o) => {
    const keys = Object.keys(o).sort((a, b) => (a === 'type' ? -1 : b === 'type' ? 1 : 0));
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${inline(o[k])}`).join(', ')}}`;
  };
  const order = ['name', 'input'];
  const keys = [
    ...order.filter((k) => k in spec),
    ...Object.keys(spec).filter((k) => !order.includes(k) && k !== 'layers'),
    ...('layers' in spec ? ['layers'] : []),
  ];
  const lines = keys.map((k) => {
    if (k === 'layers' && Array.isArray(spec.layers)) {
      const layers = spec.layers.map((l) => `    ${inline(l)}`).join(',\n');
      return `  "layers": [\n${layers}\n  ]`;
    }
    return `  ${JSON.stringify(k)}: ${inline(spec[k])}`;
  });
  return `{\n${lines.join(',\n')}\n}\n`;
}

/**
 * Core's layer type reference (layerTypes) as the builder's table rows: a required field by
 * name and kind, a defaulted one with its default ("bias = true (true or false)").
 */
export function layerReferenceRows(types) {
  return types.map((t) => ({
    type: t.type,
    fields: t.fields.length
      ? t.fields.map((f) => (f.default === null ? `${f.name} (${f.kind})` : `${f.name} = ${f.default} (${f.kind})`)).join(', ')
      : 'none besides type',
  }));
}

/** JSON with every object's keys sorted, so two specs compare by content, not key order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Whether the editor's text is the given spec (any layout or key order); false when it does not parse. */
export function editorHoldsSpec(text, spec) {
  try {
    return canonical(JSON.parse(text)) === canonical(spec);
  } catch {
    return false;
  }
}

/**
 * The line under the zoo picker: the chosen zoo model's description, saying whether the
 * editor holds that model or the student's own spec (which Load into editor would replace).
 */
export function zooNoteText(entry, editorText) {
  if (!entry) return '';
  return editorHoldsSpec(editorText, entry.spec)
    ? `In the editor: ${entry.name}, ${entry.description}`
    : `${entry.name} (not in the editor, which holds another spec; Load into editor replaces it): ${entry.description}`;
}

/** The note over results a failed profile left standing: they are of the previous model. */
export function staleResultsText(profile) {
  return `These results are of the previous profile (${profile.name} at batch ${profile.batch_size}): the spec in the editor could not be profiled, see the error under it.`;
}
