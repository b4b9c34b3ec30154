// Protects the Benchmarking chapter's charts in a real browser (fixture page, fixed data):
// the histogram colours the samples outside Tukey's fences apart and labels the median and
// the mean, the box plot rings every outlier, the fit chart draws one line per (kernel,
// class) on log axes with a legend by class, the line chart draws its reference, and the
// empty charts show only their hint (no axis ticks). Checks the SVG structure, not pixels.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFixture } from './experiment-fixture.mjs';

let fx;
const warnings = [];
before(async () => {
  fx = await openFixture();
  fx.page.on('console', (msg) => {
    if (msg.type() === 'warning') warnings.push(msg.text());
  });
  await fx.page.evaluate(() => window.fixture.mountBenchmarkCharts());
});
after(async () => {
  await fx?.close();
});

const chart = (name) => `[data-chart="${name}"]`;
const texts = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent));

test('distribution: bars split at the fences, median and mean labelled, outliers ringed in the box plot', async () => {
  const { page } = fx;
  const svgs = await page.$$(`${chart('distribution')} svg[aria-label^="distribution of 1,000 samples"]`);
  assert.equal(svgs.length, 2, 'the histogram and the box plot');
  assert.deepEqual(await texts(page, `${chart('distribution')} [class$="-swatch"]`), ['within fences', 'Tukey outlier']);
  const bars = `${chart('distribution')} svg[aria-label="distribution of 1,000 samples"] g[aria-label="rect"] rect`;
  const fills = await page.$$eval(bars, (rs) =>
    rs.map((r) => r.getAttribute('fill')),
  );
  assert.equal(new Set(fills).size, 2, `two colours of bars, got ${JSON.stringify([...new Set(fills)])}`);
  const labels = await texts(page, `${chart('distribution')} g[aria-label="text"] text`);
  assert.ok(labels.some((t) => /^median \d+(\.\d+)? µs$/.test(t)), JSON.stringify(labels));
  assert.ok(labels.some((t) => /^mean \d+(\.\d+)? µs$/.test(t)), JSON.stringify(labels));
  // The fixture's four slow samples (24, 26.5, 31, 40 µs) are among the ringed outliers.
  const rings = await page.$$(`${chart('distribution')} svg[aria-label$="box plot"] g[aria-label="dot"] circle`);
  assert.ok(rings.length >= 4, `at least the 4 slow samples ringed, got ${rings.length}`);
  const description = await page.getAttribute(`${chart('distribution')} svg[aria-label$="box plot"]`, 'aria-description');
  assert.match(description, new RegExp(`, ${rings.length} outliers$`));
});

test('fit: one line per kernel and class on log axes, the legend by class, points by kernel', async () => {
  const { page } = fx;
  assert.equal((await page.$$(`${chart('fit')} g[aria-label="line"] path`)).length, 4);
  assert.equal((await page.$$(`${chart('fit')} g[aria-label="dot"] path`)).length, 10, '5 sizes × 2 kernels');
  const swatches = await texts(page, `${chart('fit')} [class$="-swatch"]`);
  for (const name of ['O(n^3)', 'O(n^2)', 'O(n)', 'O(n log n)', 'matmul', 'gelu']) {
    assert.ok(swatches.includes(name), `legend lacks ${name}: ${JSON.stringify(swatches)}`);
  }
  const xTicks = await texts(page, `${chart('fit')} g[aria-label="x-axis tick label"] text`);
  assert.ok(xTicks.includes('100'), `log ticks as plain numbers: ${JSON.stringify(xTicks)}`);
});

test('line chart: the reference rule and its label drawn with the series', async () => {
  const { page } = fx;
  assert.ok((await texts(page, `${chart('coverage')} g[aria-label="text"] text`)).includes('target 95%'));
  assert.equal((await page.$$(`${chart('coverage')} g[aria-label="line"] path`)).length, 3);
});

test('empty charts show their hint and no axis', async () => {
  const { page } = fx;
  for (const name of ['distribution-empty', 'fit-empty', 'coverage-empty']) {
    assert.deepEqual(await texts(page, `${chart(name)} g[aria-label="text"] text`), ['Press Run.'], name);
    assert.equal((await page.$$(`${chart(name)} g[aria-label$="-axis tick"]`)).length, 0, `${name} has ticks`);
    assert.equal((await page.$$(`${chart(name)} g[aria-label$="tick label"]`)).length, 0, `${name} has tick labels`);
  }
});

test('logged no console errors and no Plot warnings', () => {
  assert.deepEqual(fx.errors, []);
  assert.deepEqual(warnings, []);
});
