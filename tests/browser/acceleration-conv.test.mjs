// Protects the Acceleration chapter's convolution experiment in quick mode (?quick=1): core's
// im2col and col2im worked example shows the original course's 3×3 numbers; a run measures
// every size of core's quick plan by both methods to Done, draws both charts, and every
// sentence under Run agrees with the table beside it (who was faster, by the speedup the
// table prints, and the unfolded matrix's bytes). No timing asserted.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLab } from './harness.mjs';

const ID = 'acceleration-conv';
const sel = (role) => `[data-experiment="${ID}"] [data-role="${role}"]`;
const MARKS = 'svg g[aria-label="bar"] rect';

describe('the convolution experiment, quick mode', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  test('shows core’s im2col of the 3×3 example and col2im’s patch counts', async () => {
    const { page } = lab;
    await page.waitForSelector(`${sel('im2col-example')} table`, { timeout: 60000 });
    const tables = await page.$$eval(`${sel('im2col-example')} table`, (ts) =>
      ts.map((t) => [...t.querySelectorAll('td')].map((td) => Number(td.textContent))),
    );
    assert.deepEqual(tables, [
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
      [1, 2, 4, 5, 2, 3, 5, 6, 4, 5, 7, 8, 5, 6, 8, 9],
      [1, 2, 1, 2, 4, 2, 1, 2, 1],
    ]);
  });

  test('runs both methods on every quick size to Done, and its sentences agree with its table', async () => {
    const { page } = lab;
    await page.click(`[data-experiment="${ID}"] [data-action="run"]`);
    await page.waitForFunction((s) => /^(Done|Stopped)/.test(document.querySelector(s)?.textContent ?? ''), sel('status'), {
      timeout: 180000,
    });
    const status = await page.textContent(sel('status'));
    assert.match(status, /^Done/, `${status} ${await page.textContent(sel('error'))}`);
    const headers = await page.$$eval(`${sel('table')} thead th`, (ths) => ths.map((th) => th.textContent));
    const rows = (await page.$$eval(`${sel('table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent))))
      .map((cells) => Object.fromEntries(headers.map((hd, i) => [hd, cells[i]])));
    assert.equal(rows.length, 4, 'two sizes × two methods');
    const marks = await page.$$eval(`[data-experiment="${ID}"] [data-role="chart"]`, (charts, m) =>
      charts.map((c) => c.querySelectorAll(m).length), MARKS);
    assert.deepEqual(marks, [4, 2], 'a bar per row in the rate chart, one per size in the memory chart');

    const sentences = await page.$$eval(`${sel('analysis')} [data-role="conv-comparison"]`, (ps) => ps.map((p) => p.textContent));
    assert.equal(sentences.length, 2, sentences.join('\n'));
    for (const sentence of sentences) {
      const m = /^(.+?): im2col \+ matmul (?:was ([\d.]+)× (faster|slower)|took the same time) .*its unfolded matrix took (\S+ \S+), /.exec(sentence);
      assert.ok(m, sentence);
      const [, size, factor, direction, colText] = m;
      const im2col = rows.find((r) => r.convolution === size && r.method === 'im2col');
      assert.ok(im2col, `a row for ${size}`);
      const shown = Number(im2col['speedup vs direct'].replace('×', ''));
      if (direction === 'faster') assert.equal(Number(factor), shown, sentence);
      if (direction === 'slower') assert.ok(Math.abs(1 / Number(factor) - shown) / shown < 0.02, `${sentence} against ${shown}×`);
      assert.equal(colText, im2col['unfolded matrix'], sentence);
    }
    assert.deepEqual(lab.errors, []);
  });
});
