// Protects the pure half of the experiment framework: number formats, CSV export (RFC 4180,
// one-level flattening, computed columns), control parsing and validation with messages that
// name the input and what is allowed, spec checks, planning, table cells, the progress line
// and the results registry that exercises read.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { columnsOf, csvField, flattenRow, toCsv } from '../../web/src/experiments/csv.js';
import { formatBytes, formatCount, formatElapsed, formatInt, formatPercent, formatSig } from '../../web/src/ui/format.js';
import {
  allowedText,
  buildControl,
  checkOptions,
  controlDefaults,
  MEASURE_LONGER,
  experimentControls,
  hasLateOptions,
  isQuick,
  labelOf,
  loadOptions,
  measureLongerHint,
  measureOf,
  parseControl,
  pickOption,
  rawOf,
  readControls,
  scalePoint,
  scalePoints,
  specProblems,
  withMeasureLongerControls,
} from '../../web/src/experiments/model.js';
import { planPoints, progressText } from '../../web/src/experiments/runner.js';
import { cellText, headerText, isTextColumn } from '../../web/src/ui/columns.js';
import { latestResult, publishResult, subscribeResults } from '../../web/src/experiments/results.js';
import { API, POINT } from '../../web/src/lab/api.js';
import { declaredSweep } from '../../web/src/lab/client.js';

test('?quick=1 or ?quick turn quick mode on; absent, 0 or false leave it off', () => {
  assert.equal(isQuick('?quick=1'), true);
  assert.equal(isQuick('?a=b&quick'), true);
  assert.equal(isQuick(''), false);
  assert.equal(isQuick('?quick=0'), false);
  assert.equal(isQuick('?quick=false'), false);
});

test('formats print significant digits, percentages, integers, bytes and elapsed time', () => {
  assert.equal(formatSig(0.0123456), '0.0123');
  assert.equal(formatSig(1.23456), '1.23');
  assert.equal(formatSig(123.456), '123');
  assert.equal(formatSig(98765.4), '98,765');
  assert.equal(formatSig(-1234.4), '-1,234');
  assert.equal(formatSig(999.94), '1,000');
  assert.equal(formatSig(999.4), '999');
  assert.equal(formatSig(0), '0');
  assert.equal(formatSig(NaN), '—');
  assert.equal(formatPercent(0.0385), '3.9%');
  assert.equal(formatInt(2362368), '2,362,368');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(1536), '1.50 KiB');
  assert.equal(formatBytes(3 * 2 ** 20), '3.00 MiB');
  assert.equal(formatElapsed(4200), '4.2 s');
  assert.equal(formatElapsed(125000), '2 min 05 s');
  // "Done: 1 points" was on the page for a one-point run.
  assert.equal(formatCount(1, 'point'), '1 point');
  assert.equal(formatCount(8, 'point'), '8 points');
  assert.equal(formatCount(0, 'entry', 'entries'), '0 entries');
  assert.equal(formatCount(1200, 'sample'), '1,200 samples');
});

test('csvField quotes commas, quotes and line breaks, and doubles quotes', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField(1.5), '1.5');
  assert.equal(csvField(undefined), '');
  assert.equal(csvField('a, b'), '"a, b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('two\nlines'), '"two\nlines"');
});

test('rows flatten one level, top-level fields winning, and name the default columns', () => {
  const row = { n: 4, stats: { median_ms: 2, n: 99 }, shape: [1, 2] };
  assert.deepEqual(flattenRow(row), { median_ms: 2, n: 4, shape: [1, 2] });
  assert.deepEqual(columnsOf([row, { extra: true }]), ['median_ms', 'n', 'shape', 'extra']);
});

test('toCsv picks named columns, computes {name, value} ones, and ends lines with CRLF', () => {
  const rows = [{ n: 4, stats: { median_ms: 2 } }];
  const csv = toCsv(rows, ['n', 'median_ms', { name: 'ns per n', value: (r) => (r.stats.median_ms * 1e6) / r.n }]);
  assert.equal(csv, 'n,median_ms,ns per n\r\n4,2,500000\r\n');
  assert.equal(toCsv(rows), 'median_ms,n\r\n2,4\r\n', 'every field when no columns are named');
});

test('a select accepts only its options and names them when it refuses', () => {
  const build = buildControl();
  assert.deepEqual(parseControl(build, 'scalar'), { value: 'scalar' });
  assert.deepEqual(parseControl(build, 'avx'), { problem: 'Build must be one of auto, simd, scalar, got "avx"' });
});

test('a select may take its options later, from an async function; until then nothing parses', () => {
  const late = { id: 'model', type: 'select', label: 'Model', default: 'b', options: async () => [] };
  assert.equal(hasLateOptions(late), true);
  assert.equal(hasLateOptions(buildControl()), false);
  assert.equal(hasLateOptions({ id: 'n', type: 'number', options: () => [] }), false);
  assert.deepEqual(parseControl(late, 'b'), { problem: 'Model: its choices have not loaded yet' });
  // The default is checked against the options when they arrive, not at mount.
  const spec = {
    id: 'late',
    title: 'Late options',
    controls: [late],
    plan: () => [{}],
    measure: declaredSweep('measureMatmul'),
    columns: [{ key: 'n', label: 'N' }],
    csv: { filename: 'perflab-late.csv' },
  };
  assert.deepEqual(specProblems(spec), []);
  assert.deepEqual(specProblems({ ...spec, controls: [{ ...late, options: [] }] }), [
    'control "model": a select needs options (a list, or an async function returning one)',
  ]);
});

test('late options are checked, then pick the wanted value, else the default, else the first', async () => {
  const control = { id: 'model', type: 'select', label: 'Model', default: 'b' };
  assert.deepEqual(checkOptions(control, [{ value: 'a', label: 'A', title: 'the a' }, { value: 7 }]), [
    { value: 'a', label: 'A', title: 'the a' },
    { value: '7', label: '7' },
  ]);
  assert.throws(() => checkOptions(control, []), { message: 'Model: expected a non-empty list of choices, got an empty list' });
  assert.throws(() => checkOptions(control, undefined), { message: 'Model: expected a non-empty list of choices, got undefined' });
  assert.throws(() => checkOptions(control, ['a']), { message: 'Model: choice #0 must be {value, label}, got "a"' });
  assert.throws(() => checkOptions(control, [{ value: 'a' }, { value: 'a' }]), { message: 'Model: the choice "a" appears twice' });

  const options = checkOptions(control, [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
  assert.equal(pickOption(options, 'c', 'b'), 'c', 'a saved value among the options is kept');
  assert.equal(pickOption(options, 'gone', 'b'), 'b', 'else the default');
  assert.equal(pickOption(options, undefined, 'gone'), 'a', 'else the first');

  const seen = [];
  const loaded = await loadOptions({ ...control, options: async (ctx) => (seen.push(ctx), [{ value: 'x', label: 'X' }]) }, { quick: true });
  assert.deepEqual(loaded, [{ value: 'x', label: 'X' }]);
  assert.deepEqual(seen, [{ quick: true }], 'the function gets the framework’s context');
  await assert.rejects(
    loadOptions({ ...control, options: async () => Promise.reject(new Error('the lab worker failed to start')) }, {}),
    { message: 'could not load the choices of Model: the lab worker failed to start' },
  );
  await assert.rejects(loadOptions({ ...control, options: () => 'a, b' }, {}), {
    message: 'Model: expected a non-empty list of choices, got "a, b"',
  });
  // Once loaded, the resolved control parses like any select.
  assert.deepEqual(parseControl({ ...control, options: loaded }, 'x'), { value: 'x' });
});

test('a number control checks integer and range and says what is allowed', () => {
  const tile = { id: 'tile', type: 'number', label: 'Tile size', integer: true, min: 1, max: 512, default: 64 };
  assert.deepEqual(parseControl(tile, ' 32 '), { value: 32 });
  assert.deepEqual(parseControl(tile, '1.5'), { problem: 'Tile size must be an integer from 1 to 512, got "1.5"' });
  assert.deepEqual(parseControl(tile, '0'), { problem: 'Tile size must be an integer from 1 to 512, got "0"' });
  assert.deepEqual(parseControl(tile, ''), { problem: 'Tile size must be an integer from 1 to 512, got ""' });
  assert.deepEqual(parseControl(tile, 'abc'), { problem: 'Tile size must be an integer from 1 to 512, got "abc"' });
  assert.equal(allowedText({ min: 0 }), 'a number of at least 0');
  assert.equal(allowedText({ max: 2, integer: true }), 'an integer of at most 2');
});

test('a numbers control reads a list separated by commas or spaces, each value checked', () => {
  const sizes = { id: 'sizes', type: 'numbers', label: 'Sizes', integer: true, min: 1, max: 2048, maxCount: 4 };
  assert.deepEqual(parseControl(sizes, '64, 128 256;512'), { value: [64, 128, 256, 512] });
  assert.deepEqual(parseControl(sizes, ' , '), { problem: 'Sizes: enter at least one value, e.g. 64, 128, 256' });
  assert.deepEqual(parseControl(sizes, '1 2 3 4 5'), { problem: 'Sizes: at most 4 values, got 5' });
  assert.deepEqual(parseControl(sizes, '64, x'), {
    problem: 'Sizes: each value must be an integer from 1 to 2048, got "x"',
  });
  assert.equal(rawOf(sizes, [64, 128]), '64, 128');
});

test('a checkbox reads true or false', () => {
  const fused = { id: 'fused', type: 'checkbox', label: 'Fused' };
  assert.deepEqual(parseControl(fused, true), { value: true });
  assert.deepEqual(parseControl(fused, false), { value: false });
});

test('readControls parses every control, then runs each validate with all values', () => {
  const controls = [
    { id: 'lo', type: 'number', label: 'From', integer: true, min: 1, default: 1 },
    {
      id: 'hi',
      type: 'number',
      label: 'To',
      integer: true,
      min: 1,
      default: 8,
      validate: (hi, values) => (hi < values.lo ? `To must be at least From (${values.lo}), got ${hi}` : null),
    },
    buildControl(),
  ];
  assert.deepEqual(controlDefaults(controls), { lo: 1, hi: 8, build: 'auto' });
  assert.deepEqual(readControls(controls, { lo: '4', hi: '16', build: 'simd' }), {
    values: { lo: 4, hi: 16, build: 'simd' },
    problems: {},
  });
  assert.deepEqual(readControls(controls, { lo: '4', hi: '2', build: 'simd' }).problems, {
    hi: 'To must be at least From (4), got 2',
  });
  const bad = readControls(controls, { lo: 'x', hi: '2', build: 'simd' });
  assert.deepEqual(Object.keys(bad.problems), ['lo'], 'validate is skipped while what it compares is invalid');
});

const goodSpec = () => ({
  id: 'demo',
  title: 'Demo',
  controls: [buildControl(), { id: 'n', type: 'number', label: 'N', integer: true, min: 1, default: 8 }],
  plan: (values, { quick }) => (quick ? [{ n: 1 }] : [{ n: values.n }, { n: values.n * 2 }]),
  measure: { fn: 'measureMatmul' },
  columns: [{ key: 'n', label: 'N' }],
  csv: { filename: 'demo.csv' },
  charts: [{ type: 'line', options: {} }],
});

test('a well-formed spec has no problems', () => {
  assert.deepEqual(specProblems(goodSpec()), []);
  // A heading that quotes core's plan is a function of {quick, info}.
  assert.deepEqual(specProblems({ ...goodSpec(), title: ({ info }) => `Demo of ${info?.plan.n ?? '…'}` }), []);
  assert.deepEqual(specProblems({ ...goodSpec(), title: 7 }), ['title must be a non-empty string, or a function of {quick, info} returning one']);
  assert.deepEqual(specProblems({ ...goodSpec(), measure: declaredSweep('measureMatmul', { payload: (v, points) => ({ points, builds: ['simd'] }) }) }), []);
});

test('a measure chosen per run needs pointLabel, and what it returns is checked at the run', () => {
  const perRun = { ...goodSpec(), measure: ({ values }) => declaredSweep(values.n > 8 ? 'runAB' : 'measureMatmul') };
  assert.deepEqual(specProblems(perRun), ['a measure chosen per run (a function) needs pointLabel']);
  const labelled = { ...perRun, pointLabel: (p) => `n=${p.n}` };
  assert.deepEqual(specProblems(labelled), []);
  assert.equal(measureOf(labelled, { values: { n: 4 } }).fn, 'measureMatmul');
  assert.equal(measureOf(labelled, { values: { n: 16 } }).fn, 'runAB');
  assert.equal(labelOf(labelled, { n: 3 }), 'n=3');
  assert.throws(() => measureOf({ ...labelled, measure: () => ({ fn: 'eval' }) }, { values: {} }), /^Error: experiment "demo": measure.fn "eval" is not a declared sweep point/);
  assert.deepEqual(specProblems({ ...goodSpec(), prepare: 1, assemble: 'rows' }), [
    'prepare must be an async function (values, {lab, bridge, values, quick, info, prepared, signal, where})',
    'assemble must be an async function (rows, {lab, bridge, values, quick, info, prepared, signal, where})',
  ]);
  assert.deepEqual(specProblems({ ...goodSpec(), prepare: async () => null, assemble: async (rows) => rows }), []);
});

test('specProblems lists every mistake in a spec as a sentence', () => {
  const spec = {
    ...goodSpec(),
    id: 'Bad Id',
    plan: null,
    measure: { fn: 'eval' },
    columns: [{ label: 'x' }, { key: 'y', label: 'y', format: 'hex' }],
    csv: { filename: 'data.txt' },
    charts: [{ type: 'pie' }],
    controls: [
      buildControl({ default: 'avx' }),
      { id: 'n', type: 'slider', label: 'N' },
      { id: 'n', type: 'number', label: 'N', default: 1 },
    ],
  };
  assert.deepEqual(specProblems(spec), [
    'id must be lower-case letters, digits and dashes, got "Bad Id"',
    'plan must be a function (values, {quick, info}) -> points',
    `measure.fn "eval" is not a declared sweep point (lab/api.js); declared: ${Object.keys(API).filter((k) => API[k].type === POINT).join(', ')}`,
    'column "x" needs a key or a format function',
    'column "y": format "hex" is not one of text, sig, sci, percent, int, bytes',
    'csv.filename must be a file name ending in .csv',
    'chart #0: type must be one of line, bar, scatter (or a chart class)',
    'control "build": its default is invalid (Build must be one of auto, simd, scalar, got "avx")',
    'control "n": type must be one of select, number, numbers, checkbox, got "slider"',
    'control "n" appears twice',
  ]);
  assert.deepEqual(specProblems({ ...goodSpec(), measure: { kind: 'sweepBuilds' } }), [
    "measure must be a sweep of a declared point function (lab/client.js declaredSweep('measureMatmul'))",
  ]);
  assert.deepEqual(specProblems({ ...goodSpec(), measure: { fn: 'profileModel' } })[0], `measure.fn "profileModel" is not a declared sweep point (lab/api.js); declared: ${Object.keys(API).filter((k) => API[k].type === POINT).join(', ')}`);
  assert.deepEqual(specProblems({ ...goodSpec(), measure: { fn: 'measureMatmul', payload: {} } }), [
    'measure.payload must be a function (values, points, ctx) -> {points, build | builds}',
  ]);
});

test('every spec gets Measure longer after its own controls, unless it opts out', () => {
  assert.deepEqual(experimentControls(goodSpec()).map((c) => c.id), ['build', 'n', 'measure-longer']);
  assert.deepEqual(experimentControls({ ...goodSpec(), measureLonger: false }).map((c) => c.id), ['build', 'n']);
  assert.deepEqual(experimentControls({ ...goodSpec(), controls: undefined }).map((c) => c.id), ['measure-longer']);
  assert.deepEqual(readControls(experimentControls(goodSpec()), { build: 'auto', n: '8', 'measure-longer': '4' }).values, {
    build: 'auto',
    n: 8,
    'measure-longer': '4',
  });
  assert.equal(MEASURE_LONGER.default, '1');
  assert.deepEqual(specProblems({ ...goodSpec(), measureLonger: 'yes' }), [
    'measureLonger must be true or false when given (false: no Measure longer control)',
  ]);
  assert.deepEqual(specProblems({ ...goodSpec(), controls: [{ ...MEASURE_LONGER }] }), [
    'control id "measure-longer" is the framework\'s Measure longer control; choose another id',
  ]);
});

test('Measure longer scales the points’ samples by f and their time budget by f²', () => {
  const point = { name: 'mlp_784', batch: 8, options: { warmup: 1, samples: 10, min_sample_ms: 5, max_total_ms: 800 } };
  assert.deepEqual(scalePoint(point, '1'), { point, scaled: false });
  const twice = scalePoint(point, '2');
  assert.equal(twice.scaled, true);
  assert.deepEqual(twice.point, { name: 'mlp_784', batch: 8, options: { warmup: 1, samples: 20, min_sample_ms: 5, max_total_ms: 3200 } });
  assert.equal(point.options.samples, 10, 'the planned point is not changed');
  assert.deepEqual(scalePoint(point, '4').point.options, { warmup: 1, samples: 40, min_sample_ms: 5, max_total_ms: 12800 });
  // Points without timer options pass through.
  const bare = { n: 64 };
  assert.deepEqual(scalePoint(bare, '4'), { point: bare, scaled: false });
  assert.deepEqual(scalePoints([bare, point], '2').map((p) => p.options?.samples), [undefined, 20]);
});

test('points whose timer options Measure longer scales name it as the control core’s advice may name', () => {
  const point = { n: 64, options: { samples: 10, max_total_ms: 800 } };
  const named = withMeasureLongerControls(point);
  assert.deepEqual(named.options.controls, { samples: MEASURE_LONGER.label, budget: MEASURE_LONGER.label });
  assert.equal(named.options.controls.samples, 'Measure longer');
  assert.equal(point.options.controls, undefined, 'the planned point is not changed');
  // Nothing for Measure longer to scale: nothing to name (core's advice then names no control).
  const bare = { n: 64 };
  assert.equal(withMeasureLongerControls(bare), bare);
  const warmupOnly = { n: 64, options: { warmup: 2 } };
  assert.equal(withMeasureLongerControls(warmupOnly), warmupOnly);
});

test('after a run whose rows warn, the hint points at Measure longer when a warning asks for it, else at the machine', () => {
  const rows = [
    { name: 'a', latency: { warning: '' } },
    { name: 'b', latency: { warning: 'CV 12% over 10 samples: the machine was busy; close other tabs and run again' } },
    { name: 'c', warning: 'only 2 samples kept: too few for an interval of the median; measure longer (more samples)' },
  ];
  assert.equal(measureLongerHint([rows[0]], '1'), null);
  assert.equal(
    measureLongerHint(rows, '1'),
    '2 of 3 rows carry a timer warning (see the table’s warning column): choose a longer setting in Measure longer above, then Run again.',
  );
  assert.equal(
    measureLongerHint(rows, '4'),
    '2 of 3 rows carry a timer warning (see the table’s warning column), even with Measure longer at 4× (4× samples, 16× time): close other tabs and run again.',
  );
  assert.equal(measureLongerHint(rows, '1', { hasControl: false }), '2 of 3 rows carry a timer warning (see the table’s warning column): close other tabs and run again.');
  // A busy machine alone: more samples would not help.
  assert.equal(measureLongerHint(rows.slice(0, 2), '1'), '1 of 2 rows carry a timer warning (see the table’s warning column): close other tabs and run again.');
  // One row, and it warns: the row in the singular.
  assert.equal(measureLongerHint([rows[2]], '1'), '1 of 1 row carries a timer warning (see the table’s warning column): choose a longer setting in Measure longer above, then Run again.');
});

test('planPoints passes quick mode to the plan and refuses an empty plan', () => {
  const spec = goodSpec();
  assert.deepEqual(planPoints(spec, { n: 8 }, { quick: false }), [{ n: 8 }, { n: 16 }]);
  assert.deepEqual(planPoints(spec, { n: 8 }, { quick: true }), [{ n: 1 }]);
  assert.throws(() => planPoints({ ...spec, plan: () => [] }, {}, {}), {
    message: 'the plan of experiment "demo" produced no points for these settings',
  });
});

test('labelOf uses the spec’s pointLabel, else the sweep allow-list’s', () => {
  assert.equal(labelOf(goodSpec(), { variant: 'simd', n: 64 }), 'simd at N=64');
  assert.equal(labelOf({ ...goodSpec(), pointLabel: (p) => `n=${p.n}` }, { n: 3 }), 'n=3');
  assert.equal(labelOf({ measure: { kind: 'x' } }, { n: 3 }), null);
  assert.equal(labelOf(goodSpec(), undefined), null);
});

test('cells follow the column’s format; text columns align left', () => {
  const row = { n: 2048, stats: { cv: 0.05, median_ms: 1.23456 }, v: 'simd' };
  assert.equal(cellText({ key: 'stats.median_ms', label: 'm' }, row), '1.23', 'numbers default to sig');
  assert.equal(cellText({ key: 'n', label: 'N', format: 'int' }, row), '2,048');
  assert.equal(cellText({ key: 'stats.cv', label: 'CV', format: 'percent' }, row), '5.0%');
  assert.equal(cellText({ key: 'v', label: 'v' }, row), 'simd');
  assert.equal(cellText({ key: 'missing.deep', label: 'x', format: 'text' }, row), '');
  assert.equal(cellText({ label: 'x', format: (r) => r.n / 2 }, row), '1024');
  assert.equal(headerText({ label: 'median', unit: 'ms' }), 'median (ms)');
  assert.equal(isTextColumn({ format: 'text' }), true);
  assert.equal(isTextColumn({ format: 'text', align: 'right' }), false);
  assert.equal(isTextColumn({ format: 'sig' }), false);
});

test('the progress line says which point of how many, and the time elapsed', () => {
  assert.equal(progressText({ started: false, done: 0, total: 9, elapsed_ms: 300 }), 'Starting the lab worker… 0.3 s');
  assert.equal(
    progressText({ started: true, done: 3, total: 9, label: 'simd at N=64', elapsed_ms: 2150 }),
    'Measuring point 4 of 9 (simd at N=64) · 2.1 s elapsed',
  );
  assert.equal(
    progressText({ started: true, done: 0, total: 2, elapsed_ms: 0 }),
    'Measuring point 1 of 2 · 0.0 s elapsed',
  );
  assert.equal(
    progressText({ started: true, done: 9, total: 9, elapsed_ms: 5000 }),
    'Measured 9 of 9 points · 5.0 s elapsed',
  );
});

test('published results are copies, kept per experiment, and reach subscribers', () => {
  const seen = [];
  const unsubscribe = subscribeResults((r) => seen.push(r.id), { id: 'a' });
  const rows = [{ n: 1, stats: { median_ms: 2 } }];
  const stored = publishResult({ id: 'a', rows, build: 'simd', values: { n: 1 } });
  publishResult({ id: 'b', rows: [] });
  rows[0].stats.median_ms = 99;
  assert.equal(latestResult('a').rows[0].stats.median_ms, 2, 'a later change to the rows does not leak in');
  assert.equal(latestResult('a'), stored);
  assert.equal(latestResult('a').build, 'simd');
  assert.equal(latestResult('b').build, null);
  assert.equal(latestResult('never'), null);
  assert.throws(() => stored.rows.push({}), TypeError);
  unsubscribe();
  publishResult({ id: 'a', rows: [] });
  assert.deepEqual(seen, ['a'], 'only experiment a, and nothing after unsubscribing');
});
