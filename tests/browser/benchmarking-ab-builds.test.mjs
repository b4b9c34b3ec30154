// Protects the A/B experiment across the two wasm builds end to end (page -> bridge -> lab
// worker -> both wasm modules -> core) in quick mode: "scalar build against SIMD build" runs
// variant A in each build round by round, both modes reach Done with core's verdicts in the
// cards and the table, the chart and the CSVs name both builds, the capstone grades the run,
// and a Cancel partway keeps the complete rounds, assembled by core, with a note that says
// how many points ran.
// No timing and no verdict is asserted (they are this machine's).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { answerCapstoneFromRounds, openLab } from './harness.mjs';

const EXP = '[data-experiment="benchmarking-ab"]';
const role = (r) => `${EXP} [data-role="${r}"]`;
const btn = (a) => `${EXP} [data-action="${a}"]`;

const tableRows = (page) =>
  page.$$eval(`${role('table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
const headers = (page) => page.$$eval(`${role('table')} thead th`, (ths) => ths.map((th) => th.textContent));

async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const text = await readFile(await file.path(), 'utf8');
  return { name: file.suggestedFilename(), lines: text.trimEnd().split('\r\n') };
}

async function waitStatus(page, pattern, timeout = 90000) {
  await page.waitForFunction(
    ([sel, source]) => new RegExp(source).test(document.querySelector(sel)?.textContent ?? ''),
    [role('status'), pattern.source],
    { timeout },
  );
}

describe('A/B across builds, quick', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
    await lab.page.waitForFunction(
      (sel) => [...document.querySelectorAll(`${sel} select[data-options]`)].every((s) => s.dataset.options === 'ready'),
      EXP,
      { timeout: 30000 },
    );
  });
  after(async () => {
    await lab?.close();
  });

  test('runs variant A in the scalar and the SIMD build, round by round, to core’s two verdicts', async () => {
    const { page } = lab;
    await page.selectOption('#benchmarking-ab-variant-a', 'gelu:fused-simd');
    // B's select is not consulted across builds, even when it names A's variant: it is off,
    // and says why, while Compare is across builds, and on again for two variants.
    await page.selectOption('#benchmarking-ab-variant-b', 'gelu:fused-simd');
    const bState = () => page.$eval('#benchmarking-ab-variant-b', (el) => {
      const note = el.closest('.field').querySelector('[data-role="ignored-reason"]');
      return { disabled: el.disabled, reason: note.hidden ? '' : note.textContent };
    });
    assert.deepEqual(await bState(), { disabled: false, reason: '' });
    await page.selectOption('#benchmarking-ab-compare', 'builds');
    assert.deepEqual(await bState(), { disabled: true, reason: 'not used: across builds, B is variant A in the SIMD build' });
    await page.selectOption('#benchmarking-ab-compare', 'variants');
    assert.deepEqual(await bState(), { disabled: false, reason: '' });
    await page.selectOption('#benchmarking-ab-compare', 'builds');
    await page.fill('#benchmarking-ab-n', '4096');
    await page.click(btn('run'));
    await waitStatus(page, /^Done/);
    assert.match(await page.textContent(role('status')), /\(scalar \+ simd build\)/);
    assert.equal((await bState()).disabled, true, 'B stays off after the run');

    const head = await headers(page);
    const rows = await tableRows(page);
    assert.deepEqual(rows.map((r) => r[0]), ['interleaved', 'sequential']);
    const rounds = Number(rows[0][head.indexOf('rounds')]);
    assert.ok(rounds >= 2, `${rounds} rounds`);
    const cards = await page.$$eval(`${role('analysis')} .compare-card`, (els) =>
      els.map((el) => ({ mode: el.dataset.mode, verdict: el.dataset.verdictWord, sentence: el.querySelector('.verdict').textContent, text: el.textContent })),
    );
    assert.deepEqual(cards.map((c) => c.mode), ['interleaved', 'sequential']);
    for (const [i, c] of cards.entries()) {
      assert.match(c.text, /A = fused-simd in the scalar build, B = fused-simd in the SIMD build/);
      assert.equal(c.verdict, rows[i][head.indexOf('verdict')]);
      // Core's sentence, and the ratio beside it is the table's.
      assert.match(c.sentence, /^(B is [\d.]+x (faster|slower) than A|no significant difference|too few samples)/);
      assert.ok(c.text.includes(rows[i][head.indexOf('ratio A/B')]), `${c.text} has ${rows[i][head.indexOf('ratio A/B')]}`);
    }
    // Each mode's chart: one line per build, one dot per round of each.
    for (const mode of ['interleaved', 'sequential']) {
      const chart = `${role('chart')}[data-chart="${mode}"]`;
      assert.equal((await page.$$(`${chart} svg g[aria-label="line"] path`)).length, 2, mode);
      assert.equal((await page.$$(`${chart} svg g[aria-label="dot"] circle`)).length, 2 * rounds, mode);
      const legend = await page.textContent(chart);
      assert.match(legend, /A: fused-simd, scalar build/);
      assert.match(legend, /B: fused-simd, SIMD build/);
    }
    assert.equal(await page.isVisible(role('error')), false);
  });

  test('the CSVs name the build of each arm; the per-round CSV has every round of both', async () => {
    const { page } = lab;
    const csv = await download(page, btn('csv'));
    assert.equal(csv.lines.length, 3);
    assert.match(csv.lines[0], /^build,op,n,variant_a,variant_b,build_a,build_b,mode,rounds,/);
    assert.match(csv.lines[1], /^scalar \+ simd,gelu,4096,fused-simd,fused-simd,scalar,simd,interleaved,\d+,/);
    const rounds = await download(page, btn('rounds-csv'));
    const perMode = Number((await tableRows(page))[0][1]);
    assert.equal(rounds.lines.length, 1 + 2 * perMode);
    assert.match(rounds.lines[1], /^interleaved,gelu,4096,fused-simd,fused-simd,scalar,simd,1,(true|false),[\d.e-]+,[\d.e-]+$/);
    assert.match(rounds.lines.at(-1), new RegExp(`^sequential,gelu,4096,fused-simd,fused-simd,scalar,simd,${perMode},true,`));
  });

  test('the capstone grades the cross-build run: its per-round CSV gives the right answer', async () => {
    const { page } = lab;
    const rounds = await download(page, btn('rounds-csv'));
    const { wrongWins, right } = await answerCapstoneFromRounds(page, rounds.lines);
    // A wrong count first: the grade must be able to fail.
    assert.equal(wrongWins, 'false');
    assert.equal(right, 'true');
  });

  test('Cancel partway keeps the complete rounds, assembled and judged by core', async () => {
    const { page } = lab;
    // Naive matmul at N = 256: a few calls per point, so the run lasts long enough to cancel.
    await page.selectOption('#benchmarking-ab-variant-a', 'matmul:naive');
    await page.fill('#benchmarking-ab-n', '256');
    await page.click(btn('run'));
    await page.waitForFunction(
      (sel) => Number(/Measuring point (\d+) of/.exec(document.querySelector(sel)?.textContent ?? '')?.[1] ?? 0) >= 6,
      role('status'),
      { timeout: 90000 },
    );
    await page.click(btn('cancel'));
    await waitStatus(page, /^Cancelled after \d+ of \d+ points/);
    const [, done, total] = /^Cancelled after (\d+) of (\d+) points/.exec(await page.textContent(role('status'))).map(Number);
    assert.ok(done >= 5 && done < total, `${done} of ${total}`);
    const note = await page.textContent(role('result-note'));
    assert.match(note, new RegExp(`^Partial result: ${done} of ${total} points, cancelled\\. The table and the CSV hold the \\d+ rows? core assembled from them\\.$`));
    const head = await headers(page);
    const rows = await tableRows(page);
    assert.ok(rows.length >= 1, 'at least the interleaved mode has complete rounds');
    assert.equal(rows[0][0], 'interleaved');
    // Two points per round: the complete rounds kept are at most half of the points measured.
    const kept = Number(rows[0][head.indexOf('rounds')]);
    assert.ok(kept >= 2 && kept <= Math.floor(done / 2), `${kept} rounds from ${done} points`);
    assert.ok(rows[0][head.indexOf('verdict')].length > 0);
    const csv = await download(page, btn('csv'));
    assert.equal(csv.lines.length, 1 + rows.length);
    assert.match(csv.lines[1], new RegExp(`^scalar \\+ simd,matmul,256,naive,naive,scalar,simd,interleaved,${kept},`));
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
