// The pure half of the experiment framework: checks a spec, parses and validates control
// values, scales points for Measure longer, labels points. No DOM, so node:test covers all
// of it; experiment.js wires it to the page. Not for: a run's phases, the plan's checks and
// the progress and Done lines (runner.js), measuring (the lab worker) or drawing (charts/).

import { FORMATS, formatCount, formatInt } from '../ui/format.js';
import { API, POINT, labelOf as declaredLabel } from '../lab/api.js';

export const CONTROL_TYPES = Object.freeze(['select', 'number', 'numbers', 'checkbox']);

const ID_PATTERN = /^[a-z][a-z0-9-]*$/;
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `?quick=1` (or `?quick`) in the page's address; `?quick=0` and `?quick=false` are off. */
export function isQuick(search) {
  const value = new URLSearchParams(search).get('quick');
  return value !== null && value !== '0' && value !== 'false';
}

/** The build selector most experiments share; its value goes to the worker as `build`. */
export function buildControl(overrides = {}) {
  return {
    id: 'build',
    type: 'select',
    label: 'Build',
    options: [
      { value: 'auto', label: 'automatic (SIMD if available)' },
      { value: 'simd', label: 'SIMD build (-msimd128)' },
      { value: 'scalar', label: 'scalar build (no -msimd128)' },
    ],
    default: 'auto',
    ...overrides,
  };
}

/**
 * "Measure longer": the control the framework adds to every experiment (a spec opts out with
 * `measureLonger: false`), the remedy core's timer warnings name. Factor f runs f × the
 * samples in up to f² × the time budget: the budget grows faster than the samples, so a plan
 * whose budget stopped sampling early gets its samples too. Sample length is unchanged.
 */
export const MEASURE_LONGER_ID = 'measure-longer';
export const MEASURE_LONGER = Object.freeze({
  id: MEASURE_LONGER_ID,
  type: 'select',
  label: 'Measure longer',
  options: Object.freeze([
    Object.freeze({ value: '1', label: 'normal', title: 'the plan’s samples and time budget' }),
    Object.freeze({ value: '2', label: '2× (2× samples, 4× time)', title: 'twice the samples in up to 4 × the time budget' }),
    Object.freeze({ value: '4', label: '4× (4× samples, 16× time)', title: '4 × the samples in up to 16 × the time budget' }),
  ]),
  default: '1',
});

/** The controls an experiment shows: the spec's, then Measure longer unless it opts out. */
export function experimentControls(spec) {
  return [...(spec.controls ?? []), ...(spec.measureLonger === false ? [] : [MEASURE_LONGER])];
}

/**
 * A point with its timer options scaled by Measure longer's factor: `options.samples` × f
 * and `options.max_total_ms` × f² (other fields and points without them unchanged).
 * @returns {{point: object, scaled: boolean}}
 */
export function scalePoint(point, factor) {
  const o = point?.options;
  const f = Number(factor);
  if (!isObject(o) || !(f > 1)) return { point, scaled: false };
  const options = { ...o };
  let scaled = false;
  if (Number.isFinite(o.samples)) {
    options.samples = Math.round(o.samples * f);
    scaled = true;
  }
  if (Number.isFinite(o.max_total_ms)) {
    options.max_total_ms = o.max_total_ms * f * f;
    scaled = true;
  }
  return { point: scaled ? { ...point, options } : point, scaled };
}

/**
 * The controls core's timer advice names on an experiment with Measure longer: that control,
 * for more samples and for a longer time budget (core's TimerControls; a measurement that
 * names none gets advice that names none, so an experiment without the control never reads
 * "Measure longer").
 */
export const MEASURE_LONGER_CONTROLS = Object.freeze({ samples: MEASURE_LONGER.label, budget: MEASURE_LONGER.label });

/**
 * A point whose timer options Measure longer scales (`samples` or `max_total_ms` set), with
 * `options.controls` naming Measure longer for core's advice; other points unchanged.
 */
export function withMeasureLongerControls(point) {
  const o = point?.options;
  if (!isObject(o) || !(Number.isFinite(o.samples) || Number.isFinite(o.max_total_ms))) return point;
  return { ...point, options: { ...o, controls: MEASURE_LONGER_CONTROLS } };
}

/** Every point scaled by the value of Measure longer (a string "1", "2", "4"). */
export function scalePoints(points, factor) {
  return points.map((p) => scalePoint(p, factor).point);
}

// Timer warnings in a row: `warning` at its top level or one level down (latency.warning).
function rowWarnings(row) {
  if (!isObject(row)) return [];
  const out = [];
  for (const [key, value] of Object.entries(row)) {
    if (key === 'warning' && typeof value === 'string' && value !== '') out.push(value);
    else if (isObject(value) && typeof value.warning === 'string' && value.warning !== '') out.push(value.warning);
  }
  return out;
}

/**
 * The line under the controls after a run whose rows carry timer warnings: points at Measure
 * longer when a warning names it as the remedy ("measure longer", core's timer), else (a busy
 * machine) or at its longest setting at the machine; null when no row warns.
 */
export function measureLongerHint(rows, factor, { hasControl = true } = {}) {
  const warnings = rows.map(rowWarnings).filter((w) => w.length > 0);
  if (warnings.length === 0) return null;
  // "1 of 1 row carries", "2 of 3 rows carry": the verb goes with the rows named.
  const carry = rows.length === 1 ? 'carries' : 'carry';
  const which = `${formatInt(warnings.length)} of ${formatCount(rows.length, 'row')} ${carry} a timer warning (see the table’s warning column)`;
  const wantsLonger = warnings.some((w) => w.some((text) => /measure longer/i.test(text)));
  if (!hasControl || !wantsLonger) return `${which}: close other tabs and run again.`;
  const longest = MEASURE_LONGER.options.at(-1);
  if (String(factor) === longest.value) {
    return `${which}, even with Measure longer at ${longest.label}: close other tabs and run again.`;
  }
  return `${which}: choose a longer setting in Measure longer above, then Run again.`;
}

/** What a number control accepts, in words: "an integer from 1 to 512". */
export function allowedText(control) {
  const kind = control.integer ? 'an integer' : 'a number';
  const { min, max } = control;
  if (min !== undefined && max !== undefined) return `${kind} from ${min} to ${max}`;
  if (min !== undefined) return `${kind} of at least ${min}`;
  if (max !== undefined) return `${kind} of at most ${max}`;
  return kind;
}

function numberProblem(control, text) {
  const value = Number(text);
  const ok =
    text !== '' &&
    Number.isFinite(value) &&
    (!control.integer || Number.isInteger(value)) &&
    (control.min === undefined || value >= control.min) &&
    (control.max === undefined || value <= control.max);
  return ok ? { value } : { problem: `must be ${allowedText(control)}, got "${text}"` };
}

/**
 * Parses one control's raw input (a string, or a boolean for a checkbox).
 * @returns {{value: any} | {problem: string}} the problem is a sentence naming the control,
 *          the offending input and what is allowed
 */
export function parseControl(control, raw) {
  const name = control.label;
  switch (control.type) {
    case 'select': {
      if (typeof control.options === 'function') return { problem: `${name}: its choices have not loaded yet` };
      const allowed = control.options.map((o) => String(o.value));
      return allowed.includes(String(raw))
        ? { value: String(raw) }
        : { problem: `${name} must be one of ${allowed.join(', ')}, got "${raw}"` };
    }
    case 'number': {
      const parsed = numberProblem(control, String(raw).trim());
      return parsed.problem ? { problem: `${name} ${parsed.problem}` } : parsed;
    }
    case 'numbers': {
      const items = String(raw)
        .split(/[\s,;]+/)
        .filter((s) => s !== '');
      const example = control.example ?? '64, 128, 256';
      if (items.length === 0) return { problem: `${name}: enter at least one value, e.g. ${example}` };
      const maxCount = control.maxCount ?? 32;
      if (items.length > maxCount) return { problem: `${name}: at most ${maxCount} values, got ${items.length}` };
      const values = [];
      for (const item of items) {
        const parsed = numberProblem(control, item);
        if (parsed.problem) return { problem: `${name}: each value ${parsed.problem}` };
        values.push(parsed.value);
      }
      return { value: values };
    }
    case 'checkbox':
      return { value: raw === true || raw === 'true' };
    default:
      return { problem: `${name}: unknown control type "${control.type}"` };
  }
}

/** A select whose options come later, from core: `options: async ({lab, bridge, quick}) => [...]`. */
export function hasLateOptions(control) {
  return control?.type === 'select' && typeof control.options === 'function';
}

/**
 * Checks the options a select's `options` function returned: a non-empty list of
 * `{value, label, title?}` with distinct values. Returns them with string values and labels,
 * or throws an Error naming the control and saying what came instead.
 */
export function checkOptions(control, options) {
  const name = control.label ?? control.id;
  if (!Array.isArray(options) || options.length === 0) {
    throw new Error(`${name}: expected a non-empty list of choices, got ${Array.isArray(options) ? 'an empty list' : JSON.stringify(options)}`);
  }
  const out = options.map((o, i) => {
    if (!isObject(o) || (typeof o.value !== 'string' && typeof o.value !== 'number')) {
      throw new Error(`${name}: choice #${i} must be {value, label}, got ${JSON.stringify(o)}`);
    }
    const value = String(o.value);
    const option = { value, label: typeof o.label === 'string' && o.label !== '' ? o.label : value };
    if (typeof o.title === 'string' && o.title !== '') option.title = o.title;
    return option;
  });
  const values = out.map((o) => o.value);
  const twice = values.find((v, i) => values.indexOf(v) !== i);
  if (twice !== undefined) throw new Error(`${name}: the choice "${twice}" appears twice`);
  return out;
}

/**
 * The value a select shows once its options exist: `wanted` (a value it was given before,
 * e.g. a saved one) when it is among them, else the control's default when it is, else the
 * first option.
 */
export function pickOption(options, wanted, fallback) {
  const values = options.map((o) => o.value);
  for (const v of [wanted, fallback]) {
    if (v !== undefined && v !== null && values.includes(String(v))) return String(v);
  }
  return values[0];
}

/**
 * Runs a select's `options` function with `ctx` and checks its answer.
 * @returns {Promise<{value: string, label: string, title?: string}[]>}
 * @throws {Error} "could not load the choices of Model: <why>"
 */
export async function loadOptions(control, ctx) {
  let options;
  try {
    options = await control.options(ctx);
  } catch (err) {
    throw new Error(`could not load the choices of ${control.label ?? control.id}: ${err?.message ?? err}`, { cause: err });
  }
  return checkOptions(control, options);
}

/** The raw input that shows `value` in a control (a list prints as "64, 128"). */
export function rawOf(control, value) {
  if (control.type === 'checkbox') return Boolean(value);
  if (control.type === 'numbers') return value.join(', ');
  return String(value);
}

/** `{id: default}` for every control. */
export function controlDefaults(controls = []) {
  return Object.fromEntries(controls.map((c) => [c.id, c.default]));
}

/**
 * Parses every control, then runs each control's own `validate(value, values)` (which may
 * compare controls) on the parsed values.
 * @param {object[]} controls
 * @param {Object<string, string|boolean>} raws raw inputs by control id
 * @returns {{values: object, problems: Object<string, string>}} problems by control id
 */
export function readControls(controls = [], raws = {}) {
  const values = {};
  const problems = {};
  for (const control of controls) {
    const parsed = parseControl(control, raws[control.id]);
    if ('problem' in parsed) problems[control.id] = parsed.problem;
    else values[control.id] = parsed.value;
  }
  for (const control of controls) {
    if (control.validate && !(control.id in problems)) {
      const problem = control.validate(values[control.id], values);
      if (problem) problems[control.id] = problem;
    }
  }
  return { values, problems };
}

/** A spec field that is a value or a function of the run's context. */
export function resolve(field, ctx) {
  return typeof field === 'function' ? field(ctx) : field;
}

/**
 * Everything wrong with a spec, as sentences (an empty list when it is fine). Mounting a
 * spec with problems throws, so a mistake shows at page load, not at the first Run.
 * @param {object} spec
 * @param {{chartTypes?: string[]}} [options] chart type names the page knows
 */
export function specProblems(spec, { chartTypes = ['line', 'bar', 'scatter'] } = {}) {
  if (!isObject(spec)) return ['a spec must be an object'];
  const out = [];
  if (typeof spec.id !== 'string' || !ID_PATTERN.test(spec.id)) {
    out.push(`id must be lower-case letters, digits and dashes, got ${JSON.stringify(spec.id)}`);
  }
  if (typeof spec.title !== 'function' && (typeof spec.title !== 'string' || spec.title === '')) {
    out.push('title must be a non-empty string, or a function of {quick, info} returning one');
  }
  if (typeof spec.plan !== 'function') out.push('plan must be a function (values, {quick, info}) -> points');

  const m = spec.measure;
  if (typeof m === 'function') {
    // Chosen per run (measureProblem checks what it returns): labels cannot come from one declaration.
    if (typeof spec.pointLabel !== 'function') out.push('a measure chosen per run (a function) needs pointLabel');
  } else {
    const problem = measureProblem(m);
    if (problem) out.push(problem);
  }
  for (const hook of ['prepare', 'assemble']) {
    if (spec[hook] !== undefined && typeof spec[hook] !== 'function') {
      out.push(`${hook} must be an async function (${hook === 'prepare' ? 'values' : 'rows'}, {lab, bridge, values, quick, info, prepared, signal, where})`);
    }
  }

  if (spec.analyze !== undefined && typeof spec.analyze !== 'function') {
    out.push('analyze must be an async function (rows, {lab, values, quick, info, build, signal, where}) -> analysis');
  }
  if (spec.renderAnalysis !== undefined && typeof spec.renderAnalysis !== 'function') {
    out.push('renderAnalysis must be a function (analysis, {h}) -> nodes');
  } else if (spec.renderAnalysis !== undefined && spec.analyze === undefined) {
    out.push('renderAnalysis needs analyze: there is nothing to render without it');
  }

  if (!Array.isArray(spec.columns) || spec.columns.length === 0) {
    out.push('columns must be a non-empty array');
  } else {
    spec.columns.forEach((c, i) => {
      if (!isObject(c) || typeof c.label !== 'string') out.push(`column #${i} needs a label`);
      else if (typeof c.format === 'function') return;
      else if (typeof c.key !== 'string') out.push(`column "${c.label}" needs a key or a format function`);
      else if (c.format !== undefined && !Object.hasOwn(FORMATS, c.format)) {
        out.push(`column "${c.label}": format "${c.format}" is not one of ${Object.keys(FORMATS).join(', ')}`);
      }
    });
  }

  if (!isObject(spec.csv) || typeof spec.csv.filename !== 'string' || !spec.csv.filename.endsWith('.csv')) {
    out.push('csv.filename must be a file name ending in .csv');
  } else if (spec.csv.columns !== undefined && !Array.isArray(spec.csv.columns)) {
    out.push('csv.columns must be an array of names or {name, value} when given');
  }

  (spec.charts ?? []).forEach((c, i) => {
    if (!isObject(c) || !(typeof c.type === 'function' || chartTypes.includes(c.type))) {
      out.push(`chart #${i}: type must be one of ${chartTypes.join(', ')} (or a chart class)`);
    }
  });

  if (spec.measureLonger !== undefined && typeof spec.measureLonger !== 'boolean') {
    out.push('measureLonger must be true or false when given (false: no Measure longer control)');
  }
  const seen = new Set([MEASURE_LONGER_ID]);
  if ((spec.controls ?? []).some((c) => c?.id === MEASURE_LONGER_ID)) {
    out.push(`control id "${MEASURE_LONGER_ID}" is the framework's Measure longer control; choose another id`);
  }
  (spec.controls ?? []).forEach((c, i) => {
    if (!isObject(c) || typeof c.id !== 'string' || !ID_PATTERN.test(c.id)) {
      out.push(`control #${i}: id must be lower-case letters, digits and dashes`);
      return;
    }
    if (seen.has(c.id) && c.id !== MEASURE_LONGER_ID) out.push(`control "${c.id}" appears twice`);
    seen.add(c.id);
    if (!CONTROL_TYPES.includes(c.type)) {
      out.push(`control "${c.id}": type must be one of ${CONTROL_TYPES.join(', ')}, got "${c.type}"`);
      return;
    }
    if (typeof c.label !== 'string' || c.label === '') out.push(`control "${c.id}" needs a label`);
    // Late options (a function) are checked when they arrive; the default then picks among them.
    if (hasLateOptions(c)) return;
    if (c.type === 'select' && (!Array.isArray(c.options) || c.options.length === 0)) {
      out.push(`control "${c.id}": a select needs options (a list, or an async function returning one)`);
      return;
    }
    const parsed = parseControl(c, rawOf(c, c.default ?? (c.type === 'numbers' ? [] : '')));
    if ('problem' in parsed) out.push(`control "${c.id}": its default is invalid (${parsed.problem})`);
  });
  return out;
}

/** Null when `m` is a sweep of a declared point function (declaredSweep), else why not. */
export function measureProblem(m) {
  if (!isObject(m) || typeof m.fn !== 'string') {
    return "measure must be a sweep of a declared point function (lab/client.js declaredSweep('measureMatmul'))";
  }
  if (!Object.hasOwn(API, m.fn) || API[m.fn].type !== POINT) {
    const points = Object.keys(API).filter((k) => API[k].type === POINT);
    return `measure.fn "${m.fn}" is not a declared sweep point (lab/api.js); declared: ${points.join(', ')}`;
  }
  if (m.payload !== undefined && typeof m.payload !== 'function') {
    return 'measure.payload must be a function (values, points, ctx) -> {points, build | builds}';
  }
  return null;
}

/** The run's measure: the spec's, or what its function returns for the run's context. */
export function measureOf(spec, ctx) {
  const m = typeof spec.measure === 'function' ? spec.measure(ctx) : spec.measure;
  const problem = measureProblem(m);
  if (problem) throw new Error(`experiment "${spec.id}": ${problem}`);
  return m;
}

/** A point's label: the spec's `pointLabel`, else the declared function's (lab/api.js), else none. */
export function labelOf(spec, point) {
  if (!point) return null;
  if (spec.pointLabel) return spec.pointLabel(point);
  return typeof spec.measure?.fn === 'string' ? declaredLabel(spec.measure.fn, point) : null;
}
