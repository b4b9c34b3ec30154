// Protects the Acceleration chapter's parallelism section end to end in quick mode (?quick=1),
// on a machine with at least two cores and a cross-origin isolated page: the section's text
// quotes core's numbers; the thread scaling runs the matmul, then GELU, to Done on every
// thread count the engine allows (two or more here), with core's speedup, efficiency and
// Karp-Flatt fraction in the table (checked against the table's own medians), the three
// series drawn, and sentences that quote the table's figures; the FMA experiment measures
// the main module's packed kernel and every engine flavour at each planned size, and its
// sentences quote the table. No timing asserted: only that text and figures agree.
// Env: PERFLAB_SCREENSHOT_PARALLEL, a path for a screenshot of the section after the runs.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { exerciseCards, openLab, printedRange } from './harness.mjs';

const sel = (id, role) => `[data-experiment="${id}"] [data-role="${role}"]`;
const MARKS = 'svg g[aria-label="dot"] circle, svg g[aria-label="line"] path, svg g[aria-label="bar"] rect';
const SCALING = 'acceleration-thread-scaling';
const FMA = 'acceleration-fma';

async function runToDone(page, id, timeout = 120000) {
  await page.click(`[data-experiment="${id}"] [data-action="run"]`);
  await page.waitForFunction(
    (s) => /^(Done|Stopped)/.test(document.querySelector(s)?.textContent ?? ''),
    sel(id, 'status'),
    { timeout },
  );
  const status = await page.textContent(sel(id, 'status'));
  if (!status.startsWith('Done')) assert.fail(`${id}: ${status} ${await page.textContent(sel(id, 'error'))}`);
}

// The table as objects keyed by header text.
async function tableRows(page, id) {
  const headers = await page.$$eval(`${sel(id, 'table')} thead th`, (ths) => ths.map((th) => th.textContent));
  const cells = await page.$$eval(`${sel(id, 'table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  return cells.map((c) => Object.fromEntries(headers.map((hd, i) => [hd, c[i]])));
}

const analysisText = (page, id, role) => page.textContent(`${sel(id, 'analysis')} [data-role="${role}"]`);
const num = (text) => Number(String(text).replace(/[×%,]/g, ''));
// Two printed figures agree when they differ by less than their rounding (3 significant digits).
const close = (a, b, rel = 0.01) => Math.abs(a / b - 1) < rel;
// Half a unit in the last printed digit of a figure ("1.04" → 0.005, "115.1%" → 0.05).
const printedHalfUnit = (text) => (printedRange(text)[1] - printedRange(text)[0]) / 2;
// A printed quotient (× scale) agrees with its printed (or exact) parts when some pair of values
// that print as the parts gives a quotient that prints as it.
const quotientAgrees = (shown, a, b, scale = 1) => {
  const [a0, a1] = printedRange(a); const [b0, b1] = printedRange(b); const h = printedHalfUnit(shown);
  return num(shown) >= scale * a0 / b1 - h - 1e-9 && num(shown) <= scale * a1 / b0 + h + 1e-9;
};

async function checkScalingRun(page, kernelLabel) {
  const rows = await tableRows(page, SCALING);
  const engine = await analysisText(page, SCALING, 'scaling-engine');
  const max = Number(/on at most (\d+) threads?/.exec(engine)?.[1]);
  assert.ok(max >= 2, `this test needs two threads: ${engine}`);
  assert.deepEqual(rows.map((r) => Number(r.threads)), Array.from({ length: max }, (_, i) => i + 1));
  const base = num(rows[0]['median (ms)']);
  assert.equal(rows[0].speedup, '1.00×');
  assert.equal(rows[0]['Karp-Flatt serial fraction'], '—');
  for (const r of rows.slice(1)) {
    const p = Number(r.threads);
    assert.ok(quotientAgrees(r.speedup, rows[0]['median (ms)'], r['median (ms)']), `speedup ${r.speedup} at ${p} against medians ${base} / ${r['median (ms)']}`);
    // Core divides its exact speedup, not the printed one: the printed speedup's range, over p.
    assert.ok(quotientAgrees(r.efficiency, r.speedup, p, 100), `efficiency ${r.efficiency} = ${r.speedup} / ${p}`);
    // From the printed medians, not the rounded speedup: e = (1/S - 1/p) / (1 - 1/p) rises with
    // the p-thread median and falls with the one-thread one, so its range is taken over every
    // pair of medians that prints as these two (a slowdown makes e large and sensitive: medians
    // 1.04 / 1.11 ms allow 111.5% to 115.5%), widened by the printed percent's own rounding.
    const karp = (b, m) => (m / b - 1 / p) / (1 - 1 / p);
    const [b0, b1] = printedRange(rows[0]['median (ms)']);
    const [m0, m1] = printedRange(r['median (ms)']);
    const shown = num(r['Karp-Flatt serial fraction']) / 100;
    const half = printedHalfUnit(r['Karp-Flatt serial fraction']) / 100;
    assert.ok(shown >= karp(b1, m0) - half - 1e-9 && shown <= karp(b0, m1) + half + 1e-9,
      `Karp-Flatt ${r['Karp-Flatt serial fraction']} from medians ${base} / ${r['median (ms)']} at ${p}`);
  }
  const top = rows.at(-1);
  assert.equal(
    await analysisText(page, SCALING, 'scaling-speedup'),
    `On ${top.threads} threads the ${kernelLabel} ran ${top.speedup} as fast as on 1 thread (efficiency ${top.efficiency}; ideal: ${top.threads}×, efficiency 100%).`,
  );
  const fit = await analysisText(page, SCALING, 'scaling-fit');
  const m = /serial fraction s = (-?[\d.]+)%, so (?:a speedup of at most ([\d.,]+)× however many threads|no bound on the speedup); the fit misses the measured speedups by ([\d.]+)×/.exec(fit);
  assert.ok(m, fit);
  const s = Number(m[1]) / 100;
  assert.ok(s >= 0 && s <= 1, fit);
  if (m[2]) assert.ok(close(num(m[2]), 1 / s, 0.05), `the bound ${m[2]} is 1/s for s = ${m[1]}%`);
  // The chart: the measured speedups, the ideal line and core's fitted curve.
  const legend = await page.$$eval(`[data-experiment="${SCALING}"] [data-role="chart"]`, (charts) => charts[0].textContent);
  for (const name of ['measured', 'ideal (speedup = threads)', 'Amdahl fit']) assert.ok(legend.includes(name), `the legend names ${name}: ${legend}`);
  const marks = await page.$$eval(`[data-experiment="${SCALING}"] [data-role="chart"]`, (charts, sel) => charts[0].querySelectorAll(sel).length, MARKS);
  assert.ok(marks >= 3 * max, `three series of ${max} points drawn: ${marks} marks`);
}

describe('the Acceleration chapter’s parallelism section, quick mode', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  test('the section quotes core’s numbers', async () => {
    const { page } = lab;
    const section = 'section[data-section="parallelism"]';
    await page.waitForFunction((s) => ![...document.querySelectorAll(`${s} [data-fact]`)].some((el) => el.textContent === '…'), section, { timeout: 30000 });
    const text = await page.textContent(section);
    assert.match(text, /The matmul at N = \d+ is compute-bound/);
    assert.match(text, /over \d+ Mi elements \(\d+ MiB read and written per call/);
    assert.match(text, /S\(p\) = T\(1\)\/T\(p\) = 1 \/ \(s \+ \(1 − s\)\/p\)/);
  });

  test('thread scaling of the matmul, then of GELU: core’s figures in the table, the sentences and the chart agree', async () => {
    const { page } = lab;
    await runToDone(page, SCALING);
    await checkScalingRun(page, 'packed matmul');
    await page.selectOption(`#${SCALING}-kernel`, 'gelu');
    await runToDone(page, SCALING);
    await checkScalingRun(page, 'fused GELU');
    const rows = await tableRows(page, SCALING);
    assert.ok(rows.every((r) => num(r['bandwidth (GB/s)']) > 0));
  });

  test('the evidence exercise is graded from this run: the fit’s s, Amdahl at the drawn cores, the 1-thread median', async () => {
    const { page } = lab;
    const { card, params, submitAndWait, waitForCards } = exerciseCards(page);
    const id = 'acceleration.parallel-my-scaling';
    await waitForCards([id]);
    const submit = card(id).locator('button[type="submit"]');
    await page.waitForFunction((cid) => !document.querySelector(`article[data-exercise-id="${cid}"] button[type="submit"]`).disabled, id, { timeout: 30000 });
    // The latest run (GELU, the test before): what a student reads off the page and computes.
    const fit = await analysisText(page, SCALING, 'scaling-fit');
    const s = Number(/serial fraction s = (-?[\d.]+)%/.exec(fit)[1]) / 100;
    const rows = await tableRows(page, SCALING);
    const { cores } = await params(id);
    assert.ok(Number.isInteger(cores) && cores > rows.length, `the drawn machine (${cores} cores) is larger than this one`);
    const speedup = 1 / (s + (1 - s) / cores);
    const time = num(rows[0]['median (ms)']) / speedup;
    const boxes = card(id).locator('input[data-role="answer"]');
    const answer = async (values) => {
      for (const [i, v] of values.entries()) await boxes.nth(i).fill(String(v));
      return submitAndWait(id, () => submit.click());
    };
    // 10% off the speedup fails (the tolerance is 2.5%); the computed pair passes.
    assert.equal(await answer([speedup * 1.1, time]), 'false');
    assert.equal(await answer([speedup, time]), 'true');
    const note = await card(id).locator('[data-role="evidence"]').textContent();
    const saved = await page.evaluate((cid) => JSON.parse(localStorage.getItem('perflab.progress.v1')).exercises[cid], id);
    assert.equal(saved.best_answer.evidence.experiment, SCALING);
    assert.equal(saved.best_answer.evidence.rows.length, rows.length, note);
  });

  test('FMA against multiply-add: every source at every planned size, the sentences quoting the table', async () => {
    const { page } = lab;
    await runToDone(page, FMA);
    const rows = await tableRows(page, FMA);
    const sources = [...new Set(rows.map((r) => r.kernel))];
    const sizes = [...new Set(rows.map((r) => r.N))];
    assert.ok(sources.includes('packed (main module)') && sources.includes('simd (engine, 1 thread)'), sources.join(', '));
    assert.equal(rows.length, sources.length * sizes.length);
    const at = (n, kernel) => rows.find((r) => r.N === n && r.kernel === kernel);
    for (const r of rows) {
      const main = at(r.N, 'packed (main module)');
      assert.ok(quotientAgrees(r['vs packed (main module)'], r['GFLOP/s'], main['GFLOP/s']), `${r.kernel} at ${r.N}`);
    }
    const largest = sizes.at(-1);
    const rates = await analysisText(page, FMA, 'fma-rates');
    for (const kernel of sources) assert.ok(rates.includes(`${kernel} ${at(largest, kernel)['GFLOP/s']} GFLOP/s`), `${rates} quotes ${kernel}`);
    if (sources.includes('fma (engine, 1 thread)')) {
      const ratio = await analysisText(page, FMA, 'fma-ratio');
      const shownText = /= ([\d.]+)×/.exec(ratio)[1];
      const shown = num(shownText);
      const fma = at(largest, 'fma (engine, 1 thread)')['GFLOP/s'];
      const simd = at(largest, 'simd (engine, 1 thread)')['GFLOP/s'];
      assert.ok(quotientAgrees(shownText, fma, simd), `${ratio} against ${fma} / ${simd}`);
      assert.match(ratio, shown > 1 ? /did more FLOPs per second/ : /bought no speed/);
    } else {
      assert.match(await analysisText(page, FMA, 'fma-no-fma'), /^The fma flavour did not run: /);
    }
    const marks = await page.$$eval(`[data-experiment="${FMA}"] [data-role="chart"]`, (charts, sel) => charts[0].querySelectorAll(sel).length, MARKS);
    assert.equal(marks, rows.length);
    if (process.env.PERFLAB_SCREENSHOT_PARALLEL) {
      await page.locator('section[data-section="parallelism"]').screenshot({ path: process.env.PERFLAB_SCREENSHOT_PARALLEL });
    }
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
