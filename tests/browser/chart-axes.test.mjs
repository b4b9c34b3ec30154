// Protects the charts of the Profiling and Acceleration chapters as a student sees them, in
// quick mode (?quick=1): before a run every empty chart shows its hint and no axis (no stray
// "0.000000" tick), with nothing drawn outside its card; every experiment runs to Done without
// a single Observable Plot warning (the "implicit z channel has high cardinality" ones); and
// afterwards every axis tick carries a label in the table's units: none blank on a log axis,
// no "1e+6" or "200000", bytes in KiB and MiB. No timing asserted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const TICKS = 'g[aria-label="x-axis tick label"] text, g[aria-label="y-axis tick label"] text, g[aria-label="fx-axis tick label"] text';
const MARKS = 'g[aria-label="dot"] circle, g[aria-label="line"] path, g[aria-label="bar"] rect, g[aria-label="link"] path';

/** Every chart of the page: its experiment, axis labels, tick texts, whether it drew data. */
function readCharts(page) {
  return page.$$eval(
    '[data-experiment] [data-role="chart"]',
    (charts, [ticks, marks]) =>
      charts.map((c, i) => {
        const card = c.closest('[data-experiment]');
        const box = card.getBoundingClientRect();
        const outside = [...c.querySelectorAll('svg text')]
          .filter((t) => t.textContent.trim())
          .map((t) => ({ text: t.textContent, r: t.getBoundingClientRect() }))
          .filter(({ r }) => r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
          .map(({ text }) => text);
        const axisLabel = (dim) =>
          c.querySelector(`g[aria-label="${dim}-axis label"] text`)?.textContent ?? '';
        return {
          name: `${card.dataset.experiment} chart ${c.dataset.chart ?? i}`,
          ticks: [...c.querySelectorAll(ticks)].map((t) => t.textContent),
          xTicks: [...c.querySelectorAll('g[aria-label="x-axis tick label"] text')].map((t) => t.textContent),
          yTicks: [...c.querySelectorAll('g[aria-label="y-axis tick label"] text')].map((t) => t.textContent),
          xLabel: axisLabel('x'),
          yLabel: axisLabel('y'),
          drawn: c.querySelectorAll(marks).length,
          text: c.textContent,
          outside,
        };
      }),
    [TICKS, MARKS],
  );
}

async function runAll(page) {
  const ids = await page.$$eval('[data-experiment]', (els) =>
    els.filter((e) => e.querySelector('[data-action="run"]')).map((e) => e.dataset.experiment),
  );
  for (const id of ids) {
    const status = `[data-experiment="${id}"] [data-role="status"]`;
    await page.waitForSelector(`[data-experiment="${id}"] [data-action="run"]:not([disabled])`, { timeout: 60000 });
    await page.click(`[data-experiment="${id}"] [data-action="run"]`);
    await page.waitForFunction((s) => /^(Done|Stopped|Cancelled)/.test(document.querySelector(s)?.textContent ?? ''), status, {
      timeout: 120000,
    });
    assert.match(await page.textContent(status), /^Done/, id);
  }
  return ids;
}

// A bytes axis says so in its label's unit: "(bytes, log scale)".
const BYTES_AXIS = /\(bytes\b/;
const BYTES_TICK = /^\d+(\.\d+)? (B|KiB|MiB|GiB)$/;

for (const chapter of ['profiling', 'acceleration']) {
  describe(`the ${chapter} chapter's charts, quick mode`, () => {
    let lab;
    const warnings = [];
    before(async () => {
      lab = await openLab({ query: '?quick=1', hash: `#${chapter}` });
      const record = (msg) => {
        if (msg.type() === 'warning') warnings.push(msg.text());
      };
      lab.page.on('console', record);
      lab.page.on('worker', (w) => w.on('console', record));
    });
    after(async () => {
      await lab?.close();
    });

    test('before a run, an empty chart shows its hint and no axis, inside its card', async () => {
      const charts = await readCharts(lab.page);
      assert.ok(charts.length >= 8, `charts found: ${charts.length}`);
      for (const c of charts) {
        if (c.drawn === 0) {
          assert.deepEqual(c.ticks, [], `${c.name} has ticks before any data`);
          assert.ok(c.text.trim().length > 0, `${c.name} shows a hint`);
        }
        assert.deepEqual(c.outside, [], `${c.name} draws text outside its card`);
      }
    });

    test('every experiment runs to Done with no Plot warning in the console', async () => {
      const ids = await runAll(lab.page);
      assert.ok(ids.length >= 7, ids.join(', '));
      assert.deepEqual(warnings.filter((w) => /cardinality|^Warning:/.test(w)), []);
    });

    test('after the runs every tick is labelled in the table’s units', async () => {
      const charts = await readCharts(lab.page);
      for (const c of charts) {
        assert.ok(c.drawn > 0, `${c.name} drew its data`);
        assert.ok(c.ticks.length > 0, `${c.name} has ticks`);
        for (const t of c.ticks) {
          assert.ok(t.trim() !== '', `${c.name}: a blank tick label among ${JSON.stringify(c.ticks)}`);
          assert.doesNotMatch(t, /e[+-]\d/, `${c.name}: exponent in ${JSON.stringify(c.ticks)}`);
          assert.doesNotMatch(t, /^\d{5,}$|^\d{1,3}(,\d{3})+$/, `${c.name}: a raw count in ${JSON.stringify(c.ticks)}`);
          assert.doesNotMatch(t, /^0\.0{4,}$/, `${c.name}: a stray zero tick`);
        }
        for (const [label, ticks] of [[c.xLabel, c.xTicks], [c.yLabel, c.yTicks]]) {
          if (!BYTES_AXIS.test(label)) continue;
          for (const t of ticks) assert.match(t, BYTES_TICK, `${c.name} (${label}): ${JSON.stringify(ticks)}`);
        }
        assert.deepEqual(c.outside, [], `${c.name} draws text outside its card`);
      }
      // The byte axes of these chapters are among them.
      const byteAxes = charts.filter((c) => BYTES_AXIS.test(c.xLabel) || BYTES_AXIS.test(c.yLabel));
      assert.ok(byteAxes.length >= (chapter === 'profiling' ? 2 : 1), byteAxes.map((c) => c.name).join(', '));
    });

    test('logged no console errors', () => {
      assert.deepEqual(lab.errors, []);
    });
  });
}
