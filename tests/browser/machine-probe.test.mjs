// Protects issue 12's two agreements on the built page: (1) the model builder shows each
// timed quantity once, under a label that says which time it is (the inference forward,
// the training forward timed interleaved with the backward, the backward, each layer alone,
// the top operations' totals over N recorded passes), and the backward's "× the training
// forward" divides the figures shown under those labels; (2) the page has one machine probe:
// the builder's verdict and the roofline name the same probe (time and figures), Re-probe
// in one place updates both, and a reload keeps it. With ?quick=1; no timing asserted.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openLab, waitForMachineFacts } from './harness.mjs';

const builder = '[data-role="builder"]';
const b = (sel) => `${builder} ${sel}`;
const roofline = 'section[data-experiment="acceleration-roofline"]';

let lab;
before(async () => {
  lab = await openLab({ query: '?quick=1', hash: '#profiling' });
});
after(async () => {
  await lab?.close();
});

// The probe a line names: its time (ms, data-probe-at) and its text, once it has one.
async function probeOf(page, line) {
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.probeAt, line, { timeout: 60000 });
  return page.$eval(line, (el) => ({ at: el.dataset.probeAt, text: el.querySelector('[data-role="probe-text"]').textContent }));
}

// "peak 37.0 GFLOP/s, bandwidth 19.4 GB/s" out of a probe line's text.
function figuresOf(text) {
  const m = /peak (\S+) GFLOP\/s, bandwidth (\S+) GB\/s/.exec(text);
  assert.ok(m, `no figures in "${text}"`);
  return { peak: m[1], bandwidth: m[2] };
}

// The roofline's list of the probe's figures, as shown: {term: text}.
const rooflineFigures = (page) =>
  page.$eval(`${roofline} [data-role="probe"]`, (dl) =>
    Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])),
  );

test('the builder shows each timed quantity once, named for what it is', async () => {
  const { page } = lab;
  await page.waitForSelector(`${builder}[data-zoo="ready"]`, { timeout: 30000 });
  await page.selectOption('#builder-zoo', 'mlp_784');
  await page.click(b('[data-action="load-zoo"]'));
  await page.click(b('[data-action="profile"]'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.profiled, builder, { timeout: 120000 });

  const figures = await page.$$eval(b('[data-quantity]'), (els) => els.map((el) => ({ quantity: el.dataset.quantity, label: el.dataset.label, text: el.textContent })));
  const quantities = figures.map((f) => f.quantity);
  assert.deepEqual([...quantities].sort(), ['backward-ms', 'forward-inference-ms', 'forward-training-ms', 'step-total-ms']);
  assert.equal(new Set(figures.map((f) => f.label)).size, figures.length, 'each quantity has its own label');
  const byQuantity = Object.fromEntries(figures.map((f) => [f.quantity, f]));
  assert.match(byQuantity['forward-inference-ms'].label, /^Forward time, inference, per batch of 64$/);
  assert.match(byQuantity['forward-training-ms'].label, /^Forward time, training, per batch of 64$/);

  // The ratio divides the two figures shown as its operands (3 significant digits each).
  const backward = /^(\S+) ms median = (\S+) × the training forward$/.exec(byQuantity['backward-ms'].text);
  const forward = /^(\S+) ms median$/.exec(byQuantity['forward-training-ms'].text);
  assert.ok(backward && forward, `${byQuantity['backward-ms'].text} / ${byQuantity['forward-training-ms'].text}`);
  const ratio = Number(backward[2]);
  assert.ok(Math.abs(Number(backward[1]) / Number(forward[1]) / ratio - 1) < 0.02, `${backward[1]} / ${forward[1]} is not ${ratio}`);
  // The step total is the two medians shown above it, summed (3 significant digits each).
  const total = /^(\S+) ms · /.exec(byQuantity['step-total-ms'].text);
  assert.ok(total, byQuantity['step-total-ms'].text);
  const num = (t) => Number(t.replace(/,/g, ''));
  assert.ok(Math.abs(num(backward[1]) + num(forward[1]) - num(total[1])) <= 0.01 * num(total[1]), `${backward[1]} + ${forward[1]} is not ${total[1]}`);
  const note = await page.$eval(b('[data-quantity="forward-training-ms"]'), (el) => el.nextElementSibling?.textContent ?? '');
  assert.match(note, /timed interleaved with the backward: one forward, then one backward in each of \d+ rounds/);

  // Row labels of the totals are distinct, and no time column is a bare "forward".
  const rowLabels = await page.$$eval(b('[data-role="totals"] tbody th[scope="row"]'), (ths) => ths.map((th) => th.textContent));
  assert.equal(new Set(rowLabels).size, rowLabels.length, `a label appears twice: ${rowLabels.join(' | ')}`);
  const headers = await page.$$eval(b('[data-role="layers"] thead th, [data-role="top-ops"] thead th'), (ths) => ths.map((th) => th.textContent));
  assert.ok(headers.includes('forward alone, per batch (ms)'), headers.join(' | '));
  assert.ok(headers.some((t) => /^total over \d+ recorded pass(es)? \(ms\)$/.test(t)), headers.join(' | '));
  assert.ok(!headers.some((t) => /^(forward|total) \(ms\)$/.test(t)), headers.join(' | '));
});

test('the builder’s verdict and the roofline name the same probe; Re-probe updates both; a reload keeps it', async () => {
  const { page } = lab;
  const builderLine = b('[data-role="probe-line"]');
  const first = await probeOf(page, builderLine);
  const verdictAt = await page.$eval(b('[data-role="totals"] [data-probe-at]'), (el) => el.dataset.probeAt);
  assert.equal(verdictAt, first.at, 'the verdict was judged against the probe the builder shows');
  const verdictNote = await page.$eval(b('[data-role="totals"] [data-probe-at]'), (el) => el.nextElementSibling.textContent);
  const time = /^Machine probe of (\S+):/.exec(first.text)?.[1];
  assert.ok(time, first.text);
  assert.match(verdictNote, new RegExp(`judged by core against the machine probe of ${time}`));

  await page.evaluate(() => (location.hash = '#acceleration'));
  const rooflineLine = `${roofline} [data-role="probe-line"]`;
  const shown = await probeOf(page, rooflineLine);
  assert.equal(shown.at, first.at, 'the roofline uses the builder’s probe, not a second one');
  assert.match(shown.text, new RegExp(`^Machine probe of ${time} `));
  const listed = await rooflineFigures(page);
  const builderFigures = figuresOf(first.text);
  assert.equal(listed['peak (SIMD multiply-adds)'], `${builderFigures.peak} GFLOP/s`);
  assert.equal(listed['memory bandwidth (triad, the roof)'], `${builderFigures.bandwidth} GB/s`);

  // The roofline's verdicts name the probe they were placed against.
  await page.click(`${roofline} [data-action="run"]`);
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.probeAt, `${roofline} [data-role="placed-against"]`, { timeout: 120000 });
  const placed = () => page.$eval(`${roofline} [data-role="placed-against"]`, (el) => ({ at: el.dataset.probeAt, text: el.textContent }));
  assert.equal((await placed()).at, first.at);
  assert.equal((await placed()).text, `Every kernel below was placed against the machine probe of ${time}.`);

  // Re-probe in the roofline: a new probe everywhere, the builder's verdict judged again.
  await page.click(`${rooflineLine} [data-action="reprobe"]`);
  await page.waitForFunction(([sel, at]) => document.querySelector(sel)?.dataset.probeAt !== at, [rooflineLine, first.at], { timeout: 60000 });
  const second = await probeOf(page, rooflineLine);
  assert.equal(second.at, (await probeOf(page, builderLine)).at);
  await page.waitForFunction(
    ([sel, at]) => document.querySelector(sel)?.dataset.probeAt === at,
    [b('[data-role="totals"] [data-probe-at]'), second.at],
    { timeout: 30000 },
  );
  // The kernels already placed keep naming their probe, and say a Run places them on the new one.
  const stale = await placed();
  assert.equal(stale.at, first.at);
  assert.match(stale.text, new RegExp(`placed against the machine probe of ${time}\\. The probe in force is now the one of \\S+: Run again to use it\\.$`));
  const after = await probeOf(page, builderLine);
  const afterListed = await rooflineFigures(page);
  assert.equal(afterListed['peak (SIMD multiply-adds)'], `${figuresOf(after.text).peak} GFLOP/s`);
  assert.equal(afterListed['memory bandwidth (triad, the roof)'], `${figuresOf(after.text).bandwidth} GB/s`);

  // A reload keeps the probe (localStorage) instead of measuring another.
  await page.reload();
  await waitForMachineFacts(page);
  assert.equal((await probeOf(page, rooflineLine)).at, second.at);
});

test('the page logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
