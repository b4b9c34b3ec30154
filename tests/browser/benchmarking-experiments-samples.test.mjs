// Protects the Benchmarking chapter's sample experiments end to end (page -> bridge -> lab
// worker -> wasm core) in quick mode: the distribution, complexity, intervals, warmup and clock
// experiments each run to Done, fill their table with the planned rows, draw their chart's
// marks, show core's analysis with sentences that agree with its table, and download a CSV
// holding the raw samples. No timing and no measured value is asserted.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { openLab } from './harness.mjs';

let lab;
before(async () => {
  lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
});
after(async () => {
  await lab?.close();
});

const scope = (id) => `[data-experiment="benchmarking-${id}"]`;
const role = (id, r) => `${scope(id)} [data-role="${r}"]`;
const chart = (id, name) => `${scope(id)} [data-chart="${name}"]`;
const count = (sel) => lab.page.$$eval(sel, (els) => els.length);
const text = (sel) => lab.page.textContent(sel);

/** Clicks Run once core's choices have loaded and waits for "Done". */
async function runToDone(id) {
  const { page } = lab;
  await page.waitForSelector(`${scope(id)} [data-action="run"]:not([disabled])`, { timeout: 30000 });
  await page.click(`${scope(id)} [data-action="run"]`);
  await page.waitForFunction(
    (sel) => /^(Done|Stopped)/.test(document.querySelector(sel)?.textContent ?? ''),
    role(id, 'status'),
    { timeout: 90000 },
  );
  // The points, or the timed calls and the points when the rows carry their samples.
  assert.match(await text(role(id, 'status')), /^Done: (.+ \()?(1 point|([02-9]|\d\d+) points)\)? in/, await text(role(id, 'error')));
  assert.equal(await lab.page.isVisible(role(id, 'error')), false);
  assert.equal(await lab.page.isVisible(role(id, 'analysis')), true);
}

/** Downloads the CSV: its file name and lines (header first). */
async function csvOf(id) {
  const [download] = await Promise.all([lab.page.waitForEvent('download'), lab.page.click(`${scope(id)} [data-action="csv"]`)]);
  assert.equal(download.suggestedFilename(), `perflab-benchmarking-${id}.csv`);
  return (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
}

const cellsOf = (sel) => lab.page.$$eval(sel, (rows) => rows.map((r) => [...r.children].map((c) => c.textContent)));
const samplesIn = (line) => line.split(',').at(-1).split(' ').length;

test('distribution: a sample summarized by core, its histogram and box plot, every sample in the CSV', async () => {
  await runToDone('distribution');
  const rows = await cellsOf(`${role('distribution', 'table')} tbody tr`);
  assert.equal(rows.length, 1);
  assert.equal(await count(`${chart('distribution', 'distribution')} svg[aria-label^="distribution of"]`), 2, 'histogram and box plot');
  assert.ok((await count(`${chart('distribution', 'distribution')} g[aria-label="rect"] rect`)) > 0);
  assert.ok((await count(`${chart('distribution', 'zoom')} svg[aria-label^="distribution of"] g[aria-label="rect"] rect`)) > 0);
  const summary = Object.fromEntries(await cellsOf(`${role('distribution', 'summary')} tbody tr`));
  const n = summary['samples n'];
  assert.equal(rows[0][3], n, 'the row’s sample count is core’s n');
  const centre = await text(role('distribution', 'centre'));
  assert.equal(centre.split(':')[0], `Median ${summary.median}, mean ${summary.mean}`);
  assert.match(centre, /the mean lies (above|below|on) the median/);
  const outliers = await text(role('distribution', 'outliers'));
  assert.ok(outliers.startsWith(`${summary['outliers beyond the fences']} of ${n} samples`), outliers);
  const csv = await csvOf('distribution');
  assert.equal(csv.length, 2);
  assert.match(csv[0], /^build,op,variant,n,inner_iterations,resolution_ms,warning,samples_ms$/);
  assert.equal(String(samplesIn(csv[1])), n.replace(/,/g, ''));
});

test('complexity: every planned size measured, core’s fits per kernel, medians and best curves drawn', async () => {
  await runToDone('complexity');
  const rows = await cellsOf(`${role('complexity', 'table')} tbody tr`);
  assert.equal(rows.length, 9, 'quick mode: three kernels × three sizes');
  const fits = await lab.page.$$eval(role('complexity', 'fit'), (ps) => ps.map((p) => p.textContent));
  assert.equal(fits.length, 3);
  // Core's conclusion: a class only when the RMS ranking and the slope agree, else it says so.
  for (const f of fits) {
    assert.match(f, / — (O\([^)]+\)|No class named|Too close to tell): the best fit by RMS is O\([^)]+\) \(normalized RMS [\d.]+%\)/);
    assert.match(f, /log-log slope b = -?[\d.]+ (\(95% interval -?[\d.]+ to -?[\d.]+\)|has no interval)/);
    const named = f.match(/ — (O\([^)]+\)): /);
    if (named) assert.ok(f.includes(`the best fit by RMS is ${named[1]} `), `${f}: a named class is the best fit`);
  }
  const tables = await count(role('complexity', 'fits'));
  assert.equal(tables, 3);
  // The sentence's best class is the first row of its kernel's ranked table.
  const firstRanked = await lab.page.$$eval(`${role('complexity', 'fits')} tbody tr:first-child th`, (ths) => ths.map((t) => t.textContent));
  fits.forEach((f, i) => assert.ok(f.includes(`best fit by RMS is ${firstRanked[i]} `), `${f} / ${firstRanked[i]}`));
  assert.equal(await count(`${chart('complexity', 'fit')} g[aria-label="dot"] path`), 9);
  assert.equal(await count(`${chart('complexity', 'fit')} g[aria-label="line"] path`), 3, 'one best curve per kernel');
  const csv = await csvOf('complexity');
  assert.equal(csv.length, 10);
  // build, op, variant, n, calls per sample, resolution, the timer's warning (quoted when it has commas), samples.
  for (const line of csv.slice(1)) assert.match(line, /^\w+,(matmul|gelu),[\w-]+,\d+,\d+,[\d.e-]+,("[^"]*"|[^,"]*),[\d.e -]+$/);
});

test('intervals: a reference run, core’s widths and coverage per n for z, t and bootstrap', async () => {
  await runToDone('intervals');
  assert.equal(await count(`${role('intervals', 'table')} tbody tr`), 1);
  const coverage = await cellsOf(`${role('intervals', 'coverage')} tbody tr`);
  assert.deepEqual(coverage.map((r) => r[0]), ['5', '10', '20', '30', '50', '100']);
  const sentence = await text(`${scope('intervals')} p[data-role="coverage"]`);
  const [n5] = coverage;
  // Core's sentence quotes the table's coverages, and says "fell short" of exactly the methods
  // whose Monte Carlo interval, as the table prints it, lies below 95%.
  const cov = (cell) => /^([\d.]+%) \(([\d.]+)–([\d.]+)%\)$/.exec(cell);
  const [z, t, b] = [n5[2], n5[4], n5[6]].map(cov);
  assert.ok(z && t && b, n5.join(' | '));
  assert.ok(sentence.startsWith(`At n = 5: z ${z[1]} of `), sentence);
  assert.ok(sentence.includes(`, t ${t[1]} (${t[2]}% to ${t[3]}%) and bootstrap ${b[1]} (${b[2]}% to ${b[3]}%).`), sentence);
  const short = [['z', z], ['t', t], ['bootstrap', b]].filter(([, c]) => Number(c[3]) < 95).map(([m]) => m);
  const joined = (v) => (v.length < 2 ? v.join('') : `${v.slice(0, -1).join(', ')} and ${v.at(-1)}`);
  if (short.length) assert.ok(sentence.includes(`${joined(short)} fell short`), sentence);
  else assert.doesNotMatch(sentence, /fell short/);
  assert.match(await text(role('intervals', 'reference')), /^Reference: \d[\d,]* samples of the /);
  for (const name of ['width', 'coverage']) {
    assert.equal(await count(`${chart('intervals', name)} g[aria-label="line"] path`), 3, `${name}: one line per method`);
  }
  const csv = await csvOf('intervals');
  assert.equal(csv.length, 2);
  assert.ok(samplesIn(csv[1]) >= 20);
});

test('warmup: each first call timed on its own, the first and last calls summarized by core', async () => {
  await runToDone('warmup');
  const rows = await cellsOf(`${role('warmup', 'table')} tbody tr`);
  assert.equal(rows.length, 1);
  assert.equal(rows[0][4], '1', 'one call per sample');
  // The status counts the calls timed, not only the one point they make.
  assert.equal((await text(role('warmup', 'status'))).replace(/ in .*/, ''), `Done: ${rows[0][3]} calls timed one by one (1 point)`);
  assert.match(await text(role('warmup', 'resolution')), /^This page’s clock resolution: [\d.]+ ms\.$/);
  const parts = await cellsOf(`${role('warmup', 'parts')} tbody tr`);
  assert.deepEqual(parts.map((p) => p[0]), ['first 10 calls', 'last 50 calls']);
  const sentence = await text(role('warmup', 'parts'));
  assert.ok(sentence.startsWith(`Median of the first 10 calls: ${parts[0][2]} ms; of the last 50 calls: ${parts[1][2]} ms`), sentence);
  // Medians that print alike are called equal, never above or below.
  if (parts[0][2] === parts[1][2]) assert.match(sentence, /: equal at the precision shown/);
  else assert.match(sentence, /so by their medians the first calls are (above|below) the steady level/);
  // What the median hides: the first calls slower than every later one, named, and the means.
  const firstCalls = await text(role('warmup', 'first-calls'));
  assert.match(firstCalls, /^(Calls? \d+(, \d+)*( and \d+)?( \(and \d+ more\))? took [\d., and]+ ms, slower than every one of the last 50 calls \(at most [\d.]+ ms\)|None of the first 10 calls was slower than the slowest of the last 50 calls)/);
  assert.ok(firstCalls.includes(`The mean of the first 10 calls is ${parts[0][3]} ms against ${parts[1][3]} ms for the last 50 calls; their slowest took ${parts[0][5]} ms.`), firstCalls);
  assert.equal(await count(`${chart('warmup', 'calls')} g[aria-label="line"] path`), 1);
  const csv = await csvOf('warmup');
  assert.equal(samplesIn(csv[1]), Number(rows[0][3]));
});

test('clock: every batch on both clocks, core’s errors against the reference drawn per clock', async () => {
  await runToDone('clock');
  const rows = await cellsOf(`${role('clock', 'table')} tbody tr`);
  assert.equal(rows.length, 10, 'quick mode: five batch sizes on two clocks');
  assert.deepEqual(rows.slice(0, 2).map((r) => r[0]), ['page', 'coarsened'], 'the clocks alternate');
  const errors = await cellsOf(`${role('clock', 'errors')} tbody tr`);
  assert.equal(errors.length, 10);
  assert.equal(errors.filter((r) => r[4] === 'reference').length, 1);
  assert.match(await text(role('clock', 'reference')), /^Reference: the median of 256-call batches on this page’s clock/);
  assert.match(await text(role('clock', 'single')), /^One call per sample \(k = 1\): this page’s clock: [\d.]+ ms \(error -?[\d.]+%\); clock coarsened to 0\.1 ms: /);
  assert.equal(await count(`${chart('clock', 'error')} g[aria-label="line"] path`), 2, 'one line per clock');
  const csv = await csvOf('clock');
  assert.equal(csv.length, 11);
  assert.match(csv[0], /^build,clock,clock_tick_ms,op,variant,n,inner_iterations,/);
});

test('logged no console errors', () => {
  assert.deepEqual(lab.errors, []);
});
