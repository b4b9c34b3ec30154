// Protects the Benchmarking chapter's charts in a real browser (fixture page, fixed data):
// the histogram colours the samples outside Tukey's fences apart and labels the median and
// the mean, the box plot rings every outlier, the fit chart draws one line per (kernel,
// class) on log axes with a legend by class, the line chart draws its reference, and the
// empty charts show only their hint (no axis ticks). Checks the SVG structure, not pixels.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

// The experiments' own chart specs on fixed analyses (fixture.mountChartEdges), where a chart
// once misled its reader. Geometry is read from the SVG Plot drew, in pixels.
describe('charts that once misled', () => {
  before(async () => {
    await fx.page.evaluate(() => window.fixture.mountChartEdges());
  });

  // The chart's plot (a chart with a legend wraps it in a figure beside the swatches' SVGs).
  const plot = (name) => `${chart(name)} svg[aria-label]:not([class$="-swatch"] svg)`;
  // The y axis's tick values of a chart, as numbers ("20", "−5", "1k").
  const yTickValues = (name) =>
    fx.page.$$eval(`${plot(name)} g[aria-label="y-axis tick label"] text`, (ts) =>
      ts.map((t) => Number(t.textContent.replace('−', '-').replace(/k$/, 'e3'))),
    );

  test('distribution: the zoom cuts at Tukey’s fence when 18% are outliers, and says so', async () => {
    const description = await fx.page.getAttribute(plot('zoom'), 'aria-description');
    // 82 samples, not the 99 up to p99 (2.6 ms), which spanned the whole tail again.
    assert.match(description, /^82 samples,/);
    const note = await fx.page.textContent(`${chart('zoom')} [data-role="chart-note"]`);
    assert.match(note, /^Up to 0\.1\d\d ms, Tukey’s upper fence, which lies below the 99th percentile .*: the slowest 18 samples left out\. The mean \(0\.417 ms\) lies beyond the cut/);
  });

  test('A/A: every interval ends inside the frame with a cap, an infinite end is an arrowhead on the edge', async () => {
    const svg = plot('aa-ratios');
    const { top, bottom, caps, cuts } = await fx.page.$eval(svg, (s) => {
      const frame = s.getBoundingClientRect();
      const centre = (el) => {
        const r = el.getBoundingClientRect();
        return (r.top + r.bottom) / 2 - frame.top;
      };
      return {
        top: 20,
        bottom: Number(s.getAttribute('height')) - 44,
        caps: [...s.querySelectorAll('g.interval-end path')].map(centre),
        cuts: [...s.querySelectorAll('g.cut-at-frame path')].map(centre),
      };
    });
    assert.equal(caps.length, 15, '8 intervals, 16 ends, one of them infinite');
    for (const y of caps) assert.ok(y > top + 2 && y < bottom - 2, `a cap at y = ${y} lies on the frame (${top}–${bottom})`);
    assert.equal(cuts.length, 1);
    assert.ok(Math.abs(cuts[0] - top) <= 6, `the arrowhead sits on the top edge, at ${cuts[0]}`);
    const ticks = await yTickValues('aa-ratios');
    assert.ok(Math.max(...ticks) >= 1.1 * 3.6, `the axis reaches past the highest finite end: ${ticks}`);
  });

  test('clock: the reference (error 0) is marked on the bottom edge and the chart says why', async () => {
    assert.equal((await fx.page.$$(`${plot('clock')} g.zero path`)).length, 1);
    const texts = await fx.page.$$eval(`${plot('clock')} g.zero-note text`, (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(texts, ['▽ on the bottom edge: error 0, the reference or a median equal to it (a log axis has no 0)']);
  });

  test('regression: the noise threshold is drawn on both sides, inside the frame, not only named', async () => {
    const texts = await fx.page.$$eval(`${plot('regression')} g[aria-label="text"] text`, (ts) => ts.map((t) => t.textContent));
    assert.deepEqual(texts, ['+5% noise threshold', '−5%']);
    // Every change is within 4%: the axis reaches the lines all the same (a dashed rule per facet).
    const dashed = await fx.page.$$eval(`${plot('regression')} g[aria-label="rule"] line`, (ls) =>
      ls.filter((l) => l.closest('[stroke-dasharray]')).length,
    );
    assert.equal(dashed, 2 * 4, 'both lines in each of the 4 sizes');
    const yLabel = await fx.page.textContent(`${plot('regression')} g[aria-label="y-axis label"] text`);
    assert.doesNotMatch(yLabel, /threshold/);
  });

  test('roofline: each label sits by its own point, or a leader line ties it to its point', async () => {
    const { dots, labels, leaders } = await fx.page.$eval(plot('roofline'), (s) => {
      const box = (el) => {
        const r = el.getBoundingClientRect();
        return { x0: r.left, x1: r.right, y0: r.top, y1: r.bottom };
      };
      const origin = s.getBoundingClientRect();
      return {
        dots: [...s.querySelectorAll('g[aria-label="dot"] circle')].map((c) => {
          const r = c.getBoundingClientRect();
          return { x: (r.left + r.right) / 2, y: (r.top + r.bottom) / 2 };
        }),
        labels: [...s.querySelectorAll('g[aria-label="text"] text')].map((t) => ({ text: t.textContent, ...box(t) })),
        leaders: [...s.querySelectorAll('g.leader path')].map((p) => {
          const [x, y] = p.getAttribute('d').slice(1).split(/[ ,L]/).map(Number);
          return { x: x + origin.left, y: y + origin.top };
        }),
      };
    });
    const distance = (p, b) => Math.hypot(Math.max(b.x0 - p.x, 0, p.x - b.x1), Math.max(b.y0 - p.y, 0, p.y - b.y1));
    // The points in the order drawn (the fixture's order); a label names its first point.
    const ORDER = ['add', 'mul', 'sum', 'sum naive', 'gelu unfused', 'gelu unfused-simd', 'gelu fused', 'gelu fused-simd', 'layernorm',
      'softmax naive', 'softmax', 'layernorm naive', 'matmul naive N=64', 'matmul reordered N=64', 'matmul blocked N=64',
      'matmul simd N=64', 'matmul packed N=64', 'matmul packed N=128'];
    const pointLabels = labels.filter((l) => ORDER.includes(l.text.split(', ')[0]));
    assert.ok(pointLabels.length >= 12, JSON.stringify(labels.map((l) => l.text)));
    for (const l of pointLabels) {
      const own = dots[ORDER.indexOf(l.text.split(', ')[0])];
      const nearest = Math.min(...dots.map((d) => distance(d, l)));
      const onItsLine = own.y >= l.y0 && own.y <= l.y1;
      const tied = leaders.some((p) => Math.hypot(p.x - own.x, p.y - own.y) < 1.5);
      assert.ok((onItsLine && distance(own, l) <= nearest + 0.5) || tied, `"${l.text}" is off its point with no leader line`);
    }
  });

  test('class machines: the y axis reaches past the highest peak', async () => {
    const ticks = await yTickValues('machines');
    assert.ok(Math.max(...ticks) >= 46.2, `y ticks ${ticks} stop below the 46.2 GFLOP/s point`);
  });
});
