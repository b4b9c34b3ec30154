// Protects the bar and scatter charts in a real browser (fixture page): grouped bars sit
// side by side and stacked bars pile up with their totals; the roofline draws the
// bandwidth diagonal and the peak line with labels, the labelled points on log-log axes;
// an empty scatter shows its hint. Checks the SVG structure, not pixels.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openFixture } from './experiment-fixture.mjs';

let fx;
before(async () => {
  fx = await openFixture();
  await fx.page.evaluate(() => window.fixture.mountCharts());
});
after(async () => {
  await fx?.close();
});

const chart = (name) => `[data-chart="${name}"] svg`;
const texts = (page, sel) => page.$$eval(sel, (els) => els.map((e) => e.textContent));

test('grouped bars: one bar per series side by side in each category, with a legend', async () => {
  const { page } = fx;
  assert.ok(await page.$(`${chart('grouped')}[aria-label="grouped training memory"]`));
  const bars = await page.$$eval(`${chart('grouped')} g[aria-label="bar"] rect`, (rs) =>
    rs.map((r) => ({ x: r.getAttribute('x'), y: Number(r.getAttribute('y')) })),
  );
  assert.equal(bars.length, 8, 'two models × four parts');
  assert.equal(new Set(bars.map((b) => b.x)).size, 4, 'four positions inside each model’s group');
  assert.deepEqual(await texts(page, '[data-chart="grouped"] [class$="-swatch"]'), [
    'parameters',
    'activations',
    'gradients',
    'optimizer state',
  ]);
});

test('stacked bars: the parts of a model share one column, with its total above', async () => {
  const { page } = fx;
  const bars = await page.$$eval(`${chart('stacked')} g[aria-label="bar"] rect`, (rs) =>
    rs.map((r) => r.getAttribute('x')),
  );
  assert.equal(bars.length, 8);
  assert.equal(new Set(bars).size, 2, 'one column per model');
  // mlp: 0.9 + 0.3 + 0.9 + 1.8 = 3.9 MB; cnn: 0.4 + 2.1 + 0.4 + 0.8 = 3.7 MB.
  assert.deepEqual((await texts(page, `${chart('stacked')} g[aria-label="text"] text`)).sort(), ['3.70', '3.90']);
});

test('roofline: bandwidth diagonal and peak line with labels, labelled points on log axes', async () => {
  const { page } = fx;
  assert.equal((await page.$$(`${chart('roofline')} g[aria-label="link"] path`)).length, 2);
  const labels = await texts(page, `${chart('roofline')} g[aria-label="text"] text`);
  for (const expected of ['memory 8 GB/s', 'peak 32 GFLOP/s', 'add', 'gelu fused', 'matmul N=64', 'matmul N=512']) {
    assert.ok(labels.includes(expected), `missing label "${expected}" in ${JSON.stringify(labels)}`);
  }
  assert.equal((await page.$$(`${chart('roofline')} g[aria-label="dot"] circle`)).length, 4);
  const xTicks = await texts(page, `${chart('roofline')} g[aria-label="x-axis tick label"] text`);
  assert.ok(xTicks.includes('1') && xTicks.includes('10'), `log ticks: ${JSON.stringify(xTicks)}`);
});

test('an empty scatter shows its hint instead of failing on an empty log axis', async () => {
  const { page } = fx;
  assert.deepEqual(await texts(page, `${chart('empty')} g[aria-label="text"] text`), ['Press Run.']);
});

test('logged no console errors', () => {
  assert.deepEqual(fx.errors, []);
});

test('tables with long warnings fit their card: warning cells wrap instead of widening the table', async () => {
  const { page } = fx;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.evaluate(() => window.fixture.mountWarningTables());
  for (const name of ['overhead', 'backward']) {
    const { table, card } = await page.$eval(`[data-table="${name}"]`, (el) => ({
      table: el.querySelector('table').getBoundingClientRect().width,
      card: el.querySelector('.table-wrap').clientWidth,
    }));
    assert.ok(table <= card + 1, `${name}: the table is ${table} px wide in a ${card} px card`);
  }
  await page.evaluate(() => window.fixture.mountCharts());
});
