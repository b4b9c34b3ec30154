// The pure half of the quantization section (optimization-quantization) and of the Pareto
// frontier (optimization-pareto): the rows of the summary, per-layer error and latency
// tables from core's answers, the sentences under them (computed from the rows), the made
// models' entries, and the frontier chart's rows and segments. No DOM and no statistic: core
// quantizes, evaluates, times, compares and finds the frontier.

import { formatCount, formatList, formatPercent, formatSig } from '../../ui/format.js';
import { forwardAbRow, ratioCell } from './forward-ab.js';

// Two decimals: accuracies a few hundredths of a point apart must not print alike.
const percent2 = (fraction) => formatPercent(fraction, 2);

export const QUANTIZE_ID = 'optimization-quantization';
export const PARETO_ID = 'optimization-pareto';

/** How the page names core's calibration methods. */
export const CALIBRATION_LABELS = Object.freeze({ minmax: 'min/max', percentile: 'percentile' });
export const calibrationLabel = (method) => CALIBRATION_LABELS[method] ?? method;

/**
 * One summary row per quantized model against the float baseline.
 * @param {object} q core's quantizeHeldModel answer
 * @param {object} evaluation core's evaluateModel answer of the int8 model
 * @param {number} floatAccuracy the float baseline's test accuracy (same split)
 */
export function summaryRow(q, evaluation, floatAccuracy) {
  return {
    calibration: calibrationLabel(q.calibration),
    method: q.calibration,
    calibration_images: q.calibration_images,
    float_bytes: q.float_parameter_bytes,
    int8_bytes: q.parameter_bytes,
    bytes_ratio: q.parameter_bytes / q.float_parameter_bytes,
    float_accuracy: floatAccuracy,
    accuracy: evaluation.accuracy,
    points: 100 * (evaluation.accuracy - floatAccuracy),
    n: evaluation.n,
  };
}

export const SUMMARY_COLUMNS = Object.freeze([
  { key: 'calibration', label: 'calibration', rowHeader: true, format: 'text' },
  { key: 'calibration_images', label: 'calibration images', format: 'int' },
  { key: 'float_bytes', label: 'float32 parameters', unit: 'bytes', format: 'int' },
  { key: 'int8_bytes', label: 'int8 parameters', unit: 'bytes', format: 'int' },
  { label: 'int8 ÷ float32', format: (r) => `${formatSig(r.bytes_ratio)}×` },
  { label: 'float32 accuracy', format: (r) => percent2(r.float_accuracy) },
  { label: 'int8 accuracy', format: (r) => percent2(r.accuracy) },
  { label: 'difference', format: (r) => `${r.points >= 0 ? '+' : '−'}${Math.abs(r.points).toFixed(2)} points` },
]);

/** The sentences under the summary table, one per quantized model, from its row. */
export function summarySentences(rows) {
  return rows.map((r) => {
    const change =
      Math.abs(r.points) < 0.005
        ? 'the same test accuracy as the float model'
        : `${Math.abs(r.points).toFixed(2)} points ${r.points > 0 ? 'more' : 'less'} test accuracy than the float model (${percent2(r.accuracy)} against ${percent2(r.float_accuracy)})`;
    return (
      `With ${r.calibration} calibration on ${formatCount(r.calibration_images, 'training image')}, the int8 model ` +
      `stores its parameters in ${formatSig(r.bytes_ratio)}× the float model’s bytes (${formatSig(1 / r.bytes_ratio)}× smaller) and has ${change}.`
    );
  });
}

/**
 * The per-layer rows of one quantized model: each layer's output error with the calibrated
 * input range, scale and zero point of the Linear layers (core's header entries).
 */
export function layerRows(q) {
  const linear = new Map(q.layers.map((l) => [l.layer, l]));
  return q.layer_errors.map((e) => {
    const l = linear.get(e.layer);
    return {
      calibration: calibrationLabel(q.calibration),
      layer: `layers[${e.layer}] ${e.type}`,
      input_range: l ? `[${formatSig(l.input_range[0])}, ${formatSig(l.input_range[1])}]` : 'float32',
      input_scale: l ? l.input_scale : NaN,
      input_zero_point: l ? l.input_zero_point : NaN,
      max_abs: e.max_abs,
      mean_abs: e.mean_abs,
      float_max_abs: e.float_max_abs,
      relative: e.float_max_abs > 0 ? e.max_abs / e.float_max_abs : NaN,
    };
  });
}

export const LAYER_COLUMNS = Object.freeze([
  { key: 'layer', label: 'layer (output)', rowHeader: true, format: 'text' },
  { key: 'input_range', label: 'calibrated input range', format: 'text' },
  { key: 'input_scale', label: 'input scale', format: 'sig' },
  { key: 'input_zero_point', label: 'zero point', format: 'int' },
  { key: 'max_abs', label: 'max |float − int8|', format: 'sig' },
  { key: 'mean_abs', label: 'mean |float − int8|', format: 'sig' },
  { key: 'float_max_abs', label: 'max |float|', format: 'sig' },
]);

/** The sentence under a model's per-layer table: where the error is largest against the output's size. */
export function layerSentence(rows) {
  const judged = rows.filter((r) => Number.isFinite(r.relative));
  if (judged.length === 0) return '';
  const worst = judged.reduce((a, b) => (b.relative > a.relative ? b : a));
  const last = rows[rows.length - 1];
  return (
    `${rows[0].calibration}: the largest error relative to the layer’s own largest output is at ${worst.layer} ` +
    `(${formatSig(worst.max_abs)} against ${formatSig(worst.float_max_abs)}, ${formatPercent(worst.relative)}); ` +
    `the logits (${last.layer}) move by ${formatSig(last.mean_abs)} on average.`
  );
}

/** One latency row from core's forward A/B (forwardAB: A the float model, B the int8 one). */
export function latencyRow(ab, calibration) {
  return { calibration: calibrationLabel(calibration), ...forwardAbRow(ab) };
}

export const LATENCY_COLUMNS = Object.freeze([
  { key: 'calibration', label: 'calibration', rowHeader: true, format: 'text' },
  { key: 'batch', label: 'batch', format: 'int' },
  { key: 'a_ms', label: 'float32 (median)', unit: 'ms', format: 'sig' },
  { key: 'b_ms', label: 'int8 (median)', unit: 'ms', format: 'sig' },
  { label: 'float ÷ int8', format: ratioCell },
  { key: 'word', label: 'int8 is', format: 'text' },
  { key: 'rounds', label: 'rounds', format: 'int' },
]);

/** The sentences under the latency table: core's verdict per batch, in words. */
export function latencySentences(rows) {
  const byBatch = new Map();
  for (const r of rows) byBatch.set(r.batch, [...(byBatch.get(r.batch) ?? []), r]);
  return [...byBatch.entries()].map(([batch, list]) => {
    const parts = list.map((r) => {
      const what =
        r.verdict === 'faster'
          ? `${formatSig(r.speedup)}× as fast as the float model`
          : r.verdict === 'slower'
            ? `slower than the float model (${formatSig(1 / r.speedup)}× its time)`
            : r.verdict === 'no_difference'
              ? `not measurably different from the float model (${formatSig(r.speedup)}×)`
              : 'not decided: too few samples';
      return `with ${r.calibration} calibration it was ${what}`;
    });
    return `At batch ${batch}, by core’s interleaved A/B of the forwards (the int8 one quantizing each Linear’s input included): ${formatList(parts)}.`;
  });
}

/**
 * The rows an exercise grades from (optimization.int8-my-run): each quantized Linear's
 * calibrated input range, {percentile (0: min/max, 1: percentile), linear (its index among
 * the Linears), lo, hi}, from core's answer.
 */
export function evidenceRows(q) {
  return q.layers.map((l, linear) => ({ percentile: q.calibration === 'percentile' ? 1 : 0, linear, lo: l.input_range[0], hi: l.input_range[1] }));
}

/** The made-models entry of one int8 model. */
export function madeEntry(q, source = { key: 'baseline', baseline: true, lineage: [] }) {
  const label = calibrationLabel(q.calibration);
  const step = `int8 (${label} calibration, ${formatCount(q.calibration_images, 'image')})`;
  return source.baseline
    ? { key: `int8-${q.calibration}`, name: `int8, ${label} calibration`, lineage: [...(source.lineage ?? []), step] }
    : { key: `int8-${q.calibration}-of-${source.key}`, name: `int8 (${label}) of ${source.name}`, lineage: [...(source.lineage ?? []), step] };
}

/**
 * The made models quantization can start from: every float one (core's modelInfo says an
 * int8 model's quantization; quantizing one again is refused by core), baseline first.
 */
export function quantizeSources(models) {
  const float = models.filter((m) => !m.info?.quantization);
  return [...float.filter((m) => m.baseline), ...float.filter((m) => !m.baseline)];
}

// ---- the Pareto frontier

/**
 * The frontier's points: one per made model with its measured latency (core's median of all
 * its samples), its parameter bytes and test accuracy, and whether core put it on each
 * frontier (onLatency, onBytes: paretoFront's answers in the models' order).
 */
export function paretoRows(models, latencies, onLatency, onBytes) {
  return models.map((m, i) => ({
    key: m.key,
    // The point's label on both charts: a number, which the table's first column explains
    // (the models' names, drawn beside their points, overlapped where points crowd).
    mark: i + 1,
    name: m.name,
    baseline: m.baseline,
    lineage: m.baseline ? 'the baseline' : ['baseline', ...(m.lineage ?? [])].join(' → '),
    latency_ms: latencies[i],
    parameter_bytes: m.evaluation.parameter_bytes,
    accuracy: m.evaluation.accuracy,
    on_latency_front: onLatency[i],
    on_bytes_front: onBytes[i],
  }));
}

/** The chart's rows for one cost: each point's series says baseline, on the frontier or dominated. */
export function chartRows(rows, cost) {
  const flag = cost === 'latency_ms' ? 'on_latency_front' : 'on_bytes_front';
  return rows.map((r) => ({
    ...r,
    cost: r[cost],
    series: r.baseline ? 'baseline' : r[flag] ? 'on the frontier' : 'dominated',
    label: String(r.mark),
  }));
}
export const PARETO_SERIES = Object.freeze(['baseline', 'on the frontier', 'dominated']);

/** The frontier line: segments between the frontier's points in order of cost. */
export function frontierSegments(rows, cost) {
  const flag = cost === 'latency_ms' ? 'on_latency_front' : 'on_bytes_front';
  const front = rows.filter((r) => r[flag]).sort((a, b) => a[cost] - b[cost] || a.accuracy - b.accuracy);
  const out = [];
  for (let i = 1; i < front.length; i += 1) {
    out.push({ x1: front[i - 1][cost], y1: front[i - 1].accuracy, x2: front[i][cost], y2: front[i].accuracy, dashed: true });
  }
  return out;
}

export const PARETO_COLUMNS = Object.freeze([
  { key: 'mark', label: 'point', format: 'int' },
  { key: 'name', label: 'model', rowHeader: true, format: 'text' },
  { key: 'lineage', label: 'made by', format: 'text' },
  { key: 'latency_ms', label: 'latency (median)', unit: 'ms', format: 'sig' },
  { key: 'parameter_bytes', label: 'parameters', unit: 'bytes', format: 'int' },
  { label: 'test accuracy', format: (r) => percent2(r.accuracy) },
  { label: 'frontier: latency', format: (r) => (r.on_latency_front ? 'on it' : 'dominated') },
  { label: 'frontier: bytes', format: (r) => (r.on_bytes_front ? 'on it' : 'dominated') },
]);

/** The sentences under the frontier: which models are on each, and what the baseline is. */
export function paretoSentences(rows) {
  if (rows.length === 0) return [];
  const names = (flag) => rows.filter((r) => r[flag]).map((r) => r.name);
  const out = [
    `On the latency–accuracy frontier: ${formatList(names('on_latency_front'))}.`,
    `On the bytes–accuracy frontier: ${formatList(names('on_bytes_front'))}.`,
  ];
  const b = rows.find((r) => r.baseline);
  if (b && !b.on_latency_front) {
    const better = rows.filter((r) => r !== b && r.latency_ms <= b.latency_ms && r.accuracy >= b.accuracy).map((r) => r.name);
    out.push(`The baseline is dominated on latency: ${formatList(better)} ${better.length === 1 ? 'is' : 'are'} at least as fast and as accurate.`);
  }
  return out;
}
