// Protects the experiment framework in a real browser, on a fixture page with a demo spec
// (every control type) and a scripted bridge: defaults and hints from the spec, invalid
// settings shown beside their control, "point i of n" with elapsed time, Cancel and errors
// keeping a result on screen, the CSV of what is shown, results exposed to other code,
// a select whose options arrive later (loading, failure and Try again, then filled), quick
// mode, Measure longer (scaled points, the hint after warned rows), and a bad spec failing
// at mount. matmul-experiment.test.mjs (the vectorization experiment) covers the real
// worker. No timing asserted.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { openFixture } from './experiment-fixture.mjs';
import { API, POINT } from '../../web/src/lab/api.js';

const exp = (role) => `.experiment [data-role="${role}"]`;
const btn = (action) => `.experiment [data-action="${action}"]`;
const rowCount = (page) => page.$$eval(`${exp('table')} tbody tr`, (rows) => rows.length);
const waitStatus = (page, pattern, timeout = 10000) =>
  page.waitForFunction(
    ([sel, source]) => new RegExp(source).test(document.querySelector(sel)?.textContent ?? ''),
    [exp('status'), pattern.source],
    { timeout },
  );

describe('Measure longer, the control timer warnings point to', () => {
  let fx;
  before(async () => {
    fx = await openFixture();
    await fx.page.evaluate(() => window.fixture.mountDemo({ bridge: { delay_ms: 10, warnBelowSamples: 4 } }));
  });
  after(async () => {
    await fx?.close();
  });

  test('every experiment gets it after its own controls, set to normal', async () => {
    const { page } = fx;
    assert.deepEqual(
      await page.$$eval('.experiment .controls .field', (fields) => fields.map((f) => f.dataset.control)),
      ['build', 'sizes', 'repeats', 'both', 'measure-longer'],
    );
    assert.equal(await page.inputValue('#demo-measure-longer'), '1');
    assert.deepEqual(await page.$$eval('#demo-measure-longer option', (os) => os.map((o) => o.textContent)), [
      'normal',
      '2× (2× samples, 4× time)',
      '4× (4× samples, 16× time)',
    ]);
    assert.equal(await page.isVisible(exp('measure-hint')), false);
  });

  test('rows that warn bring a line pointing at it; a longer run scales the samples and clears it', async () => {
    const { page } = fx;
    await page.click(btn('run'));
    await waitStatus(page, /^Done/);
    assert.equal(await rowCount(page), 4);
    assert.equal(
      await page.textContent(exp('measure-hint')),
      '4 of 4 rows carry a timer warning (see the table’s warning column): choose a longer setting in Measure longer above, then Run again.',
    );
    assert.equal(await page.evaluate(() => window.demo.bridge.calls[0].payload.points[0].options.samples), 1);

    await page.selectOption('#demo-measure-longer', '4');
    await page.click(btn('run'));
    await waitStatus(page, /^Done/);
    assert.deepEqual(
      await page.evaluate(() => window.demo.bridge.calls[1].payload.points.map((p) => p.options.samples)),
      [4, 4, 4, 4],
    );
    assert.equal(await page.isVisible(exp('measure-hint')), false, 'no row warns at 4 samples');
    assert.equal(await page.evaluate(() => window.demo.handle.getResult().values['measure-longer']), '4');
  });

  test('logged no console errors', () => {
    assert.deepEqual(fx.errors, []);
  });
});

describe('the demo experiment', () => {
  let fx;
  before(async () => {
    fx = await openFixture();
    await fx.page.evaluate(() => window.fixture.mountDemo({ bridge: { delay_ms: 50 } }));
  });
  after(async () => {
    await fx?.close();
  });

  test('mounts what the spec declares: controls with defaults, hint, headers, two empty charts', async () => {
    const { page } = fx;
    assert.equal(await page.textContent('.experiment h3'), 'Experiment: demo sweep');
    assert.equal(await page.textContent('.experiment p code'), 'every', 'the explanation is HTML');
    assert.equal(await page.inputValue('#demo-build'), 'auto');
    assert.equal(await page.inputValue('#demo-sizes'), '8, 16, 32, 64');
    assert.equal(await page.inputValue('#demo-repeats'), '1');
    assert.equal(await page.isChecked('#demo-both'), false);
    assert.equal(await page.textContent('#demo-sizes-note'), 'Matrix sizes N, separated by commas.');
    assert.match(await page.getAttribute('#demo-sizes', 'aria-describedby'), /demo-sizes-note/);
    assert.deepEqual(await page.$$eval(`${exp('table')} th`, (ths) => ths.map((t) => t.textContent)), [
      'N',
      'variant',
      'GFLOP/s',
      'median (ms)',
    ]);
    assert.equal((await page.$$(`${exp('chart')} svg`)).length, 2);
    assert.equal(await page.textContent('.experiment .chart-title'), 'Median time by size');
    assert.equal(await page.isDisabled(btn('csv')), true);
    assert.equal(await page.isVisible('[data-role="quick-note"]'), false);
  });

  test('an invalid setting is shown beside its control, and nothing runs until it is fixed', async () => {
    const { page } = fx;
    await page.fill('#demo-sizes', '8, x');
    await page.fill('#demo-repeats', '9');
    await page.click(btn('run'));
    const problems = await page.$$eval('.experiment .field-error:not([hidden])', (els) =>
      els.map((e) => e.textContent),
    );
    assert.deepEqual(problems, [
      'Sizes: each value must be an integer from 1 to 4096, got "x"',
      'Repeats must be an integer from 1 to 5, got "9"',
    ]);
    assert.equal(await page.getAttribute('#demo-sizes', 'aria-invalid'), 'true');
    assert.equal(await page.textContent(exp('status')), 'Fix the setting marked in red, then Run.');
    assert.equal(await page.evaluate(() => window.demo.bridge.calls.length), 0);

    await page.fill('#demo-sizes', '8, 16, 32, 64');
    assert.equal(await page.getAttribute('#demo-sizes', 'aria-invalid'), null, 'editing clears the complaint');
    await page.fill('#demo-repeats', '2');
    assert.equal(await page.$$eval('.experiment .field-error:not([hidden])', (els) => els.length), 0);
  });

  test('a run says which point of how many and the time elapsed, then fills table and charts', async () => {
    const { page } = fx;
    await page.evaluate(() => (window.demo.bridge.config.delay_ms = 250));
    await page.check('#demo-both');
    await page.click(btn('run'));
    await waitStatus(page, /^Measuring point [2-8] of 8 \((naive|simd) at N=\d+\) · \d+\.\d s elapsed$/);
    assert.equal(await page.isDisabled('#demo-sizes'), true, 'controls are locked while running');
    assert.equal(await page.isEnabled(btn('cancel')), true);
    await waitStatus(page, /^Done/);
    assert.match(await page.textContent(exp('status')), /^Done: 8 points in \d+\.\d s \(simd build\)\.$/);
    assert.equal(await rowCount(page), 8);
    assert.deepEqual(
      await page.$$eval(`${exp('table')} tbody tr:first-child td`, (tds) => tds.map((t) => t.textContent)),
      ['8', 'naive', '1.00', '0.00102'],
    );
    assert.equal((await page.$$(`[data-chart="0"] svg g[aria-label="line"] path`)).length, 2);
    assert.equal((await page.$$(`[data-chart="bars"] svg g[aria-label="bar"] rect`)).length, 8);

    const call = await page.evaluate(() => window.demo.bridge.calls[0]);
    assert.equal(call.kind, 'measureMatmul');
    assert.equal(call.where, 'demo-run');
    assert.equal(call.payload.build, 'auto');
    // Timer options name the experiment's Measure longer as the control core's advice names.
    const controls = { samples: 'Measure longer', budget: 'Measure longer' };
    assert.deepEqual(call.payload.points.slice(0, 2), [
      { variant: 'naive', n: 8, options: { samples: 2, controls } },
      { variant: 'simd', n: 8, options: { samples: 2, controls } },
    ]);
  });

  test('a complete run reaches onResult, getRows and the results registry', async () => {
    const { page } = fx;
    assert.deepEqual(await page.evaluate(() => window.demo.results), [8]);
    assert.equal(await page.evaluate(() => window.demo.handle.getRows().length), 8);
    assert.equal(await page.evaluate(() => window.fixture.latestRows('demo')), 8);
    assert.equal(await page.evaluate(() => window.demo.handle.getResult().values.repeats), 2);
  });

  test('Cancel keeps the partial result on screen, and the CSV holds exactly those points', async () => {
    const { page } = fx;
    await page.uncheck('#demo-both');
    await page.click(btn('run'));
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 2, `${exp('table')} tbody tr`);
    await page.click(btn('cancel'));
    await waitStatus(page, /^Cancelled after/, 1000);
    const kept = await rowCount(page);
    assert.ok(kept >= 2 && kept < 4, `kept ${kept} rows`);
    assert.equal(await page.textContent(exp('status')), `Cancelled after ${kept} of 4 points.`);
    assert.equal(
      await page.textContent(exp('result-note')),
      `Partial result: ${kept} of 4 points, cancelled. The table and the CSV hold these points only.`,
    );
    assert.equal(await page.isVisible(exp('error')), false);
    assert.equal(
      await page.evaluate(() => window.demo.handle.getRows().length),
      8,
      'the last complete run is kept for grading',
    );

    const [download] = await Promise.all([page.waitForEvent('download'), page.click(btn('csv'))]);
    assert.equal(download.suggestedFilename(), 'perflab-demo.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    assert.equal(lines[0], 'build,variant,n,gflops_per_s,median_ms');
    assert.equal(lines.length, 1 + kept);
    assert.equal(lines[1], 'simd,naive,8,1,0.001024');
  });

  test('an error before the first point keeps the last result on screen and shows beside Run', async () => {
    const { page } = fx;
    const kept = await rowCount(page);
    await page.evaluate(
      () => (window.demo.bridge.config.failBeforeStart = 'could not load the scalar wasm build: 404'),
    );
    await page.selectOption('#demo-build', 'scalar');
    await page.click(btn('run'));
    await waitStatus(page, /^Stopped by an error\.$/);
    assert.equal(await page.textContent(exp('error')), 'Error: could not load the scalar wasm build: 404');
    assert.equal(await rowCount(page), kept);
    assert.equal((await page.$$(`[data-chart="bars"] svg g[aria-label="bar"] rect`)).length, kept);
    assert.equal(
      await page.textContent(exp('result-note')),
      `The new run was stopped by an error before its first point; still showing the previous result (${kept} points).`,
    );
    assert.equal(await page.isEnabled(btn('run')), true);
    assert.equal(await page.isEnabled(btn('csv')), true);
  });

  test('an error in a point keeps the points before it; a good run then clears error and note', async () => {
    const { page } = fx;
    await page.evaluate(() =>
      Object.assign(window.demo.bridge.config, { failBeforeStart: null, failAtN: 32, delay_ms: 20 }),
    );
    await page.click(btn('run'));
    await waitStatus(page, /^Stopped by an error\.$/);
    assert.equal(await page.textContent(exp('error')), 'Error: n = 32 is too large (measuring naive at N=32)');
    assert.equal(await rowCount(page), 2);
    assert.equal(
      await page.textContent(exp('result-note')),
      'Partial result: 2 of 4 points, stopped by an error. The table and the CSV hold these points only.',
    );

    await page.evaluate(() => (window.demo.bridge.config.failAtN = null));
    await page.click(btn('run'));
    await waitStatus(page, /^Done: 4 points in .* \(scalar build\)\.$/);
    assert.equal(await page.isVisible(exp('error')), false);
    assert.equal(await page.isVisible(exp('result-note')), false);
    assert.deepEqual(await page.evaluate(() => window.demo.results), [8, 4]);
  });

  test('logged no console errors', () => {
    assert.deepEqual(fx.errors, []);
  });
});

describe('a select whose options come later', () => {
  let fx;
  const model = '#late-model';
  const fieldError = '.experiment [data-control="model"] [data-role="field-error"]';
  const retry = '.experiment [data-action="retry-options"]';
  before(async () => {
    fx = await openFixture();
    await fx.page.evaluate(() => window.fixture.mountLateOptions());
  });
  after(async () => {
    await fx?.close();
  });

  const optionTexts = (page) => page.$$eval(`${model} option`, (os) => os.map((o) => o.textContent));

  test('shows "loading…", disabled, with Run disabled until the options exist', async () => {
    const { page } = fx;
    assert.deepEqual(await optionTexts(page), ['loading…']);
    assert.equal(await page.isDisabled(model), true);
    assert.equal(await page.isDisabled(btn('run')), true);
    assert.equal(await page.isEnabled('#late-sizes'), true, 'the other controls can be edited meanwhile');
    assert.deepEqual(await page.evaluate(() => window.late.contexts), [['bridge', 'lab', 'quick']]);
  });

  test('a failed load is shown beside the control, Run stays disabled, Try again loads again', async () => {
    const { page } = fx;
    await page.evaluate(() => window.late.fail('the lab worker failed to start'));
    await page.waitForSelector(retry, { state: 'visible' });
    assert.equal(await page.textContent(fieldError), 'could not load the choices of Model: the lab worker failed to start');
    assert.equal(await page.isVisible(fieldError), true);
    assert.equal(await page.isDisabled(btn('run')), true);
    await page.click(retry);
    assert.equal(await page.evaluate(() => window.late.loads), 2);
    assert.deepEqual(await optionTexts(page), ['loading…']);
    assert.equal(await page.isVisible(fieldError), false);
    assert.equal(await page.isVisible(retry), false);
  });

  test('the options arrive: the default is selected, Run is enabled and the value reaches the plan', async () => {
    const { page } = fx;
    await page.evaluate(() =>
      window.late.answer([
        { value: 'a', label: 'model a', title: 'the first' },
        { value: 'b', label: 'model b' },
        { value: 'c', label: 'model c' },
      ]),
    );
    await page.waitForSelector(`${model}:enabled`);
    assert.deepEqual(await optionTexts(page), ['model a', 'model b', 'model c']);
    assert.equal(await page.getAttribute(`${model} option[value="a"]`, 'title'), 'the first');
    assert.equal(await page.inputValue(model), 'b');
    assert.equal(await page.isEnabled(btn('run')), true);
    await page.selectOption(model, 'c');
    await page.click(btn('run'));
    await waitStatus(page, /^Done: 4 points/);
    assert.deepEqual(await page.evaluate(() => window.late.bridge.calls.map((c) => c.payload.points.map((p) => p.model))), [
      ['c', 'c', 'c', 'c'],
    ]);
    assert.equal(await page.isEnabled(model), true, 'the select is editable again after the run');
  });

  test('logged no console errors', () => {
    assert.deepEqual(fx.errors, []);
  });
});

describe('an experiment with an analysis step', () => {
  let fx;
  before(async () => {
    fx = await openFixture();
  });
  after(async () => {
    await fx?.close();
  });
  const median = (page) => page.textContent(`${exp('analysis')} [data-role="median"]`);

  test('after the sweep, core’s analysis of the rows is shown and published with them', async () => {
    const { page } = fx;
    await page.evaluate(() => window.fixture.mountAnalysed());
    assert.equal(await page.isHidden(exp('analysis')), true);
    await page.click(btn('run'));
    await waitStatus(page, /^Done: 4 points/);
    // The scripted median of the four medians (N = 8, 16, 32, 64 at n/8 GFLOP/s: 2n²/1e6·8 ms).
    const medians = [8, 16, 32, 64].map((n) => (2 * n ** 3) / ((n / 8) * 1e6));
    assert.equal(await median(page), `median of medians ${medians[2]} over 4`);
    const kinds = await page.evaluate(() => window.analysed.bridge.calls.map((c) => c.kind));
    assert.deepEqual(kinds, ['measureMatmul', 'summarizeSample']);
    const published = await page.evaluate(() => window.analysed.seen.map((r) => r.analysis));
    assert.deepEqual(published, [{ n: 4, median: medians[2] }]);
  });

  test('Cancel during the analysis keeps the measured rows and says what happened', async () => {
    const { page } = fx;
    await page.evaluate(() => window.fixture.mountAnalysed({ bridge: { analysis_ms: 5000 } }));
    await page.click(btn('run'));
    await waitStatus(page, /^Analysing 4 rows/);
    await page.click(btn('cancel'));
    await waitStatus(page, /^Cancelled during the analysis, after all 4 points\./);
    assert.equal(await rowCount(page), 4);
    assert.match(await page.textContent(exp('result-note')), /the analysis was cancelled/);
    assert.equal(await page.evaluate(() => window.analysed.seen.length), 0);
  });

  test('a failed analysis is shown beside Run, with the rows kept', async () => {
    const { page } = fx;
    await page.evaluate(() => window.fixture.mountAnalysed({ bridge: { failAnalysis: 'values[2] is NaN; a sample must be finite' } }));
    await page.click(btn('run'));
    await waitStatus(page, /^Stopped by an error/);
    assert.equal(await rowCount(page), 4);
    assert.match(await page.textContent(exp('error')), /values\[2\] is NaN/);
    assert.equal(await page.isHidden(exp('analysis')), true);
  });

  test('logged no console errors', () => {
    assert.deepEqual(fx.errors, []);
  });
});

describe('quick mode and spec checks', () => {
  let fx;
  before(async () => {
    fx = await openFixture();
  });
  after(async () => {
    await fx?.close();
  });

  test('?quick=1 shrinks the plan and says so', async () => {
    const { page } = fx;
    await page.evaluate(() => window.fixture.mountDemo({ search: '?quick=1', bridge: { delay_ms: 10 } }));
    assert.match(await page.textContent('[data-role="quick-note"]'), /^Quick mode \(\?quick=1 in the address\)/);
    await page.click(btn('run'));
    await waitStatus(page, /^Done: 2 points/);
    assert.equal(await rowCount(page), 2);
  });

  test('a spec with mistakes fails at mount, naming each one', async () => {
    assert.equal(
      await fx.page.evaluate(() => window.fixture.mountBadSpec()),
      'TypeError: experiment spec "demo": measure.fn "eval" is not a declared sweep point (lab/api.js); declared: ' +
        `${Object.keys(API).filter((k) => API[k].type === POINT).join(', ')}; ` +
        'renderAnalysis needs analyze: there is nothing to render without it; ' +
        'csv.filename must be a file name ending in .csv',
    );
  });

  test('logged no console errors', () => {
    assert.deepEqual(fx.errors, []);
  });
});
