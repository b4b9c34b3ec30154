// Protects the Acceleration chapter end to end in quick mode (?quick=1): every experiment
// runs to Done with rows and chart marks; the roofline places every kernel (one labelled
// dot each, one core's roofs drawn solid and, from the kernel engine's step of the probe,
// every core's dashed, each labelled with the probe's figure) and its rows carry the probed roofs; the intensity
// calculator answers from core; the CLI comparison accepts real `perflab roofline --json
// --quick` output (table, page-against-native chart with marks, CSV with its header) and
// rejects garbage with core's message, keeping what was pasted, and a file over core's JSON
// limit unread; the cache sweep states the
// memory cap it planned with; and a cancel (full plan, Measure longer 4x) stops a run. No
// timing asserted beyond "within two seconds" for cancel.
// Env: PERFLAB_CLI, the native perflab binary (default build/native/tools/perflab).

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { openLab, repoRoot } from './harness.mjs';

const cliPath = path.resolve(repoRoot, process.env.PERFLAB_CLI || 'build/native/tools/perflab');

const sel = (id, role) => `[data-experiment="${id}"] [data-role="${role}"]`;
const MARKS = 'svg g[aria-label="dot"] circle, svg g[aria-label="line"] path, svg g[aria-label="bar"] rect';

async function runToDone(page, id, timeout = 120000) {
  await page.click(`[data-experiment="${id}"] [data-action="run"]`);
  await page.waitForFunction(
    (s) => /^(Done|Stopped)/.test(document.querySelector(s)?.textContent ?? ''),
    sel(id, 'status'),
    { timeout },
  );
  const status = await page.textContent(sel(id, 'status'));
  if (!status.startsWith('Done')) assert.fail(`${id}: ${status} ${await page.textContent(sel(id, 'error'))}`);
  return {
    rows: await page.$$eval(`${sel(id, 'table')} tbody tr`, (trs) => trs.length),
    marks: await page.$$eval(`[data-experiment="${id}"] [data-role="chart"]`, (charts, m) =>
      charts.map((c) => c.querySelectorAll(m).length),
    MARKS),
  };
}

// The GELU table's speedups are each row's baseline time over its own, and the comparison
// sentence names the faster variant the table shows (read from the rendered page).
async function checkGeluText(page) {
  const id = 'acceleration-gelu-fusion';
  const headers = await page.$$eval(`${sel(id, 'table')} thead th`, (ths) => ths.map((th) => th.textContent));
  const rows = (await page.$$eval(`${sel(id, 'table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent))))
    .map((cells) => Object.fromEntries(headers.map((hd, i) => [hd, cells[i]])));
  const ns = (r) => Number(r['per element (ns)']);
  for (const r of rows) {
    const base = rows.find((b) => b.elements === r.elements && b.variant === 'unfused');
    const shown = Number(r['speedup vs unfused'].replace('×', ''));
    assert.ok(Math.abs(shown / (ns(base) / ns(r)) - 1) < 0.01, `${r.variant} at ${r.elements}: ${shown} vs ${ns(base)} / ${ns(r)}`);
  }
  const sentences = await page.$$eval(`${sel(id, 'analysis')} [data-role="fusion-comparison"]`, (ps) => ps.map((p) => p.textContent));
  assert.equal(sentences.length, 2, sentences.join('\n'));
  const m = /^At (\S+ \S+) elements, (\S+) moved [\d.]+× fewer bytes than (\S+) .*(faster|slower|same time)/.exec(sentences[0]);
  assert.ok(m, sentences[0]);
  const [, size, fewer, more, verdict] = m;
  const at = (v) => rows.find((r) => r.elements === size && r.variant === v);
  const faster = ns(at(fewer)) < ns(at(more));
  if (verdict !== 'same time') assert.equal(verdict, faster ? 'faster' : 'slower', `${sentences[0]} against ${ns(at(fewer))} and ${ns(at(more))} ns`);
}

describe('the Acceleration chapter, quick mode', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  const EXPECTED_ROWS = {
    'acceleration-builds': (variants) => 2 * 2 * variants, // two sizes, two builds
    'acceleration-cache-sweep': () => 5,
    'acceleration-blocking': () => 6, // four square tiles, yours, core's default
    'acceleration-linear-loops': () => 4,
    'acceleration-gelu-fusion': () => 8, // four variants, two sizes
  };
  for (const [id, expected] of Object.entries(EXPECTED_ROWS)) {
    test(`${id} runs to Done with rows and chart marks`, async () => {
      const { page } = lab;
      const list = '[data-experiment="acceleration-vectorization"] .variants li';
      // The list fills in once core's kernel list has arrived: count it after that, not before.
      await page.waitForSelector(list, { timeout: 30000 });
      const variants = await page.$$eval(list, (l) => l.length);
      const { rows, marks } = await runToDone(page, id);
      assert.equal(rows, expected(variants));
      assert.ok(marks.length > 0 && marks.every((m) => m > 0), `every chart drew marks: ${marks}`);
      if (id === 'acceleration-builds') {
        // The ratio chart marks no gain and the four-lane limit the text compares with.
        const labels = await page.$$eval(
          '[data-experiment="acceleration-builds"] [data-chart="speedup"] g[aria-label="text"] text',
          (t) => t.map((x) => x.textContent),
        );
        assert.deepEqual(labels, ['1× (no gain)', '4× (four float lanes)']);
      }
      if (id === 'acceleration-gelu-fusion') await checkGeluText(page);
    });
  }

  test('the cache sweep’s bandwidth is its row’s bytes per call ÷ fastest call', async () => {
    const { page } = lab;
    const id = 'acceleration-cache-sweep';
    if (!(await page.$$eval(`${sel(id, 'table')} tbody tr`, (trs) => trs.length))) await runToDone(page, id);
    const headers = await page.$$eval(`${sel(id, 'table')} thead th`, (ths) => ths.map((th) => th.textContent));
    const col = (name) => headers.indexOf(name);
    for (const name of ['bytes per call', 'fastest call (ms)', 'read bandwidth (GB/s)', 'median call (ms)']) {
      assert.ok(col(name) >= 0, `the table has "${name}": ${headers.join(' | ')}`);
    }
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(`[data-experiment="${id}"] [data-action="csv"]`)]);
    const [head, ...lines] = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    const names = head.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
    assert.ok(rows.length > 0);
    for (const r of rows) {
      const perCall = Number(r.bytes_per_call);
      assert.ok(perCall >= Number(r.bytes), `a call reads the working set at least once: ${JSON.stringify(r)}`);
      const gbPerS = perCall / (Number(r.min_ms) * 1e6);
      assert.ok(Math.abs(gbPerS / Number(r.gb_per_s) - 1) < 1e-9, `${perCall} B / ${r.min_ms} ms = ${gbPerS} GB/s, row says ${r.gb_per_s}`);
    }
  });

  test('the roofline places every kernel under the probed roofs', async () => {
    const { page } = lab;
    await page.waitForSelector(sel('acceleration-roofline', 'probe'));
    // The kernel engine's step of the probe ends (measured here: Chromium runs the engine)
    // before the Run, so the chart draws every core's roofs beside one core's.
    const engineState = `[data-experiment="acceleration-roofline"] [data-role="probe-engine"]`;
    await page.waitForFunction((s) => ['measured', 'none'].includes(document.querySelector(s)?.dataset.state), engineState, { timeout: 60000 });
    assert.equal(await page.$eval(engineState, (el) => el.dataset.state), 'measured', await page.textContent(engineState));
    const { rows, marks } = await runToDone(page, 'acceleration-roofline');
    // Quick: matmul packed at 64 and 128, the four other variants at 64; add, mul, sum and
    // sum naive, softmax and layernorm in both forms; the four GELU variants.
    assert.equal(rows, 18);
    assert.deepEqual(marks, [18]);
    const chart = `[data-experiment="acceleration-roofline"] [data-role="chart"] svg`;
    // Kernels on the same spot share a label ("add, mul"); every kernel is named.
    const texts = await page.$$eval(`${chart} g[aria-label="text"] text`, (t) => t.map((x) => x.textContent));
    const labels = texts.flatMap((l) => l.split(', '));
    const kernels = [
      'matmul packed N=64',
      'matmul packed N=128',
      'matmul naive N=64',
      'matmul reordered N=64',
      'matmul blocked N=64',
      'matmul simd N=64',
      'add',
      'mul',
      'sum',
      'sum naive',
      'softmax',
      'softmax naive',
      'layernorm',
      'layernorm naive',
      'gelu fused-simd',
      'gelu fused',
      'gelu unfused-simd',
      'gelu unfused',
    ];
    for (const kernel of kernels) {
      assert.ok(labels.includes(kernel), `${kernel} is labelled on the chart (labels: ${labels.join(', ')})`);
    }
    // No two kernel labels print over each other (charts/labels.js places them).
    const boxes = await page.$$eval(`${chart} g[aria-label="text"] text`, (t) =>
      t
        .filter((x) => x.textContent && !/^(peak|memory|ridge|1 core:|\d+ cores:) /.test(x.textContent))
        .map((x) => ({ text: x.textContent, ...x.getBoundingClientRect().toJSON() })),
    );
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        assert.ok(!overlap, `labels '${a.text}' and '${b.text}' overlap`);
      }
    }
    assert.ok(labels.some((l) => /^ridge [\d.]+ FLOP\/byte$/.test(l)), 'the ridge point is marked');
    // Each roof says whose it is, with the figure the probe's list shows: one core's memory
    // and multiply-add roofs, its FMA roof where the engine measured one, and every core's
    // peak and memory roofs on more than one thread.
    const figures = await page.$eval(sel('acceleration-roofline', 'probe'), (dl) =>
      Object.fromEntries([...dl.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])),
    );
    const allCoresKey = Object.keys(figures).find((t) => /^peak, all \d+ cores/.test(t));
    const allCores = allCoresKey && [allCoresKey, /^peak, all (\d+) cores/.exec(allCoresKey)[1]];
    const expected = [
      `1 core: multiply-add ${figures['peak (SIMD multiply-adds)']}`,
      `1 core: memory ${figures['memory bandwidth (triad, the roof)']}`,
      ...(figures['FMA peak, one core (kernel engine)'] ? [`1 core: FMA ${figures['FMA peak, one core (kernel engine)']}`] : []),
      ...(allCores
        ? [`${allCores[1]} cores: peak ${figures[allCores[0]]}`, `${allCores[1]} cores: memory ${figures[`triad, all ${allCores[1]} cores (kernel engine)`]}`]
        : []),
    ];
    const roofLabels = texts.filter((t) => /^(1 core|\d+ cores): /.test(t));
    assert.deepEqual([...roofLabels].sort(), [...expected].sort());
    assert.equal(await page.$$eval(`${chart} g[aria-label="link"] path`, (p) => p.length), expected.length, 'a segment per roof');
    // Every core's roofs are dashed, one core's solid.
    const dashed = await page.$$eval(`${chart} g[aria-label="link"] path`, (p) => p.filter((x) => x.getAttribute('stroke-dasharray') || x.parentElement.getAttribute('stroke-dasharray')).length);
    assert.equal(dashed, allCores ? 2 : 0);
    // The roofs' labels print clear of each other.
    const roofBoxes = await page.$$eval(`${chart} g[aria-label="text"] text`, (t) =>
      t.filter((x) => /^(1 core|\d+ cores): /.test(x.textContent)).map((x) => ({ text: x.textContent, ...x.getBoundingClientRect().toJSON() })),
    );
    for (const [i, a] of roofBoxes.entries()) {
      for (const b of roofBoxes.slice(i + 1)) {
        const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
        assert.ok(!overlap, `roof labels '${a.text}' and '${b.text}' overlap`);
      }
    }
    // The explanation beside the chart says what each roof is.
    const explanation = await page.$$eval('section[data-experiment="acceleration-roofline"] > p', (ps) => ps.map((p) => p.textContent).join(' '));
    assert.match(explanation, /Solid lines are one core’s roofs: the slanted one its memory bandwidth \(the triad\)/);
    assert.match(explanation, figures['FMA peak, one core (kernel engine)'] ? /the FMA peak \(relaxed SIMD/ : /no FMA roof/);
    if (allCores) assert.match(explanation, new RegExp(`Dashed lines are all ${allCores[1]} cores working at once`));
    if (process.env.PERFLAB_SCREENSHOT_ROOFLINE) {
      await page.locator('[data-experiment="acceleration-roofline"]').screenshot({ path: process.env.PERFLAB_SCREENSHOT_ROOFLINE });
    }
    // What exercises grade from: every row carries the roofs and the placement.
    const verdicts = await page.$$eval(`${sel('acceleration-roofline', 'table')} tbody tr td:last-child`, (tds) =>
      tds.map((td) => td.textContent),
    );
    assert.ok(verdicts.every((v) => /^(memory|compute)-bound: /.test(v)), verdicts.join('\n'));
  });

  test('the vectorization experiment shows the share of the probed peak', async () => {
    const { page } = lab;
    const { rows, marks } = await runToDone(page, 'acceleration-vectorization');
    assert.ok(rows >= 6);
    assert.ok(marks.every((m) => m > 0));
    const shares = await page.$$eval(`${sel('acceleration-vectorization', 'table')} tbody tr td:nth-child(6)`, (tds) =>
      tds.map((td) => td.textContent),
    );
    assert.ok(shares.every((s) => /^\d+\.\d%$/.test(s)), shares.join(', '));
  });

  test('the intensity calculator places a kernel with core’s verdict, and reports bad input', async () => {
    const { page } = lab;
    const calc = '[data-experiment="acceleration-intensity"]';
    await page.fill('#acceleration-intensity-flops', '1000');
    await page.fill('#acceleration-intensity-bytes', '12000');
    await page.click(`${calc} [data-action="place"]`);
    const placement = `${calc} [data-role="placement"]`;
    await page.waitForFunction((s) => document.querySelector(s)?.textContent.includes('memory-bound'), placement, {
      timeout: 20000,
    });
    assert.match(await page.textContent(`${calc} [data-role="placement"]`), /intensity0\.0833 FLOP\/byte/);
    await page.fill('#acceleration-intensity-bytes', '0');
    await page.click(`${calc} [data-action="place"]`);
    await page.waitForSelector(`${calc} [data-role="error"]:not([hidden])`, { timeout: 20000 });
    assert.match(await page.textContent(`${calc} [data-role="error"]`), /^Error: .*bytes/);
  });

  test('the CLI comparison rejects garbage with a message and keeps the pasted text', async () => {
    const { page } = lab;
    const garbage = '{"tool": "not-perflab", oops';
    await page.fill('#acceleration-cli-input', garbage);
    await page.click('[data-experiment="acceleration-cli"] [data-action="compare"]');
    await page.waitForSelector(`${sel('acceleration-cli', 'error')}:not([hidden])`, { timeout: 20000 });
    assert.match(await page.textContent(sel('acceleration-cli', 'error')), /^Error: pasted text is not perflab JSON: /);
    assert.equal(await page.inputValue('#acceleration-cli-input'), garbage);
  });

  // Under tools/lab test PERFLAB_CLI is set: a missing CLI then fails these tests instead of
  // skipping them; without it, a missing build/native/tools/perflab is a visible skip.
  const cliNamed = Boolean(process.env.PERFLAB_CLI);
  const noCli = !cliNamed && !existsSync(cliPath) && `no CLI at ${cliPath}`;
  const requireCli = () => assert.ok(existsSync(cliPath), `PERFLAB_CLI=${cliPath} names no file: build the native CLI`);
  const cliRows = (page) => page.$$eval(`${sel('acceleration-cli', 'table')} tbody tr`, (trs) => trs.length);

  test('the CLI comparison accepts real `perflab roofline --json --quick` output', { skip: noCli }, async () => {
    requireCli();
    const { page } = lab;
    const { stdout } = await promisify(execFile)(cliPath, ['roofline', '--json', '--quick'], { maxBuffer: 1 << 24 });
    const native = JSON.parse(stdout);
    await page.fill('#acceleration-cli-input', stdout);
    await page.click('[data-experiment="acceleration-cli"] [data-action="compare"]');
    await page.waitForSelector(`${sel('acceleration-cli', 'table')}:not([hidden]) tbody tr`, { timeout: 20000 });
    assert.equal(await page.isVisible(sel('acceleration-cli', 'error')), false);
    assert.equal(await cliRows(page), native.rows.length);
    // The roofline ran above, so the page column has numbers for the kernels it shares.
    const page64 = await page.$$eval(`${sel('acceleration-cli', 'table')} tbody tr`, (trs) =>
      trs
        .map((tr) => [...tr.children].map((td) => td.textContent))
        .find((c) => c[0] === 'matmul packed' && c[1] === 'N=64 / N=64'),
    );
    assert.ok(page64 && /GFLOP\/s$/.test(page64[3]), `matmul packed at 64 compared: ${page64}`);
    assert.ok(await page.$(`${sel('acceleration-cli', 'machine')} table`), 'the machine figures side by side');
    // The chart: one dot per kernel the page measured too, and the diagonal page = native.
    const chart = `[data-experiment="acceleration-cli"] [data-role="chart"][data-chart="gflops_per_s"] svg`;
    await page.waitForSelector(chart);
    const dots = await page.$$eval(`${chart} g[aria-label="dot"] circle`, (c) => c.length);
    assert.ok(dots >= 1, `the chart has dots: ${dots}`);
    assert.equal(await page.$$eval(`${chart} g[aria-label="link"] path`, (p) => p.length), 1, 'the diagonal');
    // The CSV of the comparison rows.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-experiment="acceleration-cli"] [data-action="csv"]'),
    ]);
    assert.equal(download.suggestedFilename(), 'perflab-acceleration-cli.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    assert.equal(
      lines[0],
      'kernel,op,native_size,page_size,metric,native_value,page_value,page_vs_native,native_verdict,page_verdict',
    );
    assert.equal(lines.length, 1 + native.rows.length);
    assert.ok(lines.some((l) => l.startsWith('matmul packed,matmul,64,64,gflops_per_s,')), lines.join('\n'));
  });

  test('the memory section quotes the cache sweep’s range from core’s plan, as the sweep’s quick note does', async () => {
    const { page } = lab;
    const from = '[data-fact="cache_sweep_from"]';
    const to = '[data-fact="cache_sweep_to"]';
    await page.waitForFunction((s) => /\d/.test(document.querySelector(s)?.textContent ?? ''), to, { timeout: 20000 });
    const range = `${await page.textContent(from)} – ${await page.textContent(to)}`;
    const note = await page.textContent(sel('acceleration-cache-sweep', 'quick-note'));
    assert.ok(note.includes(`Remove it for the full ${range} sweep.`), `${range} / ${note}`);
    assert.match(range, /^\d+ [KMG]iB – \d+ [KMG]iB$/);
  });

  test('the cache sweep says how much the lab may allocate', async () => {
    const { page } = lab;
    const note = await page.waitForSelector(sel('acceleration-cache-sweep', 'cap-note'), { timeout: 20000 });
    assert.match(await note.textContent(), /^The lab may allocate \d+ MiB more \(its cap is 768 MiB\)/);
  });

  test('the CLI comparison accepts `perflab bench --json --quick` output too', { skip: noCli }, async () => {
    requireCli();
    const { page } = lab;
    const { stdout } = await promisify(execFile)(cliPath, ['bench', '--json', '--quick'], { maxBuffer: 1 << 24 });
    await page.fill('#acceleration-cli-input', stdout);
    await page.click('[data-experiment="acceleration-cli"] [data-action="compare"]');
    const status = sel('acceleration-cli', 'status');
    await page.waitForFunction((s) => /^bench report: /.test(document.querySelector(s).textContent), status, {
      timeout: 20000,
    });
    assert.equal(await cliRows(page), JSON.parse(stdout).rows.length);
    assert.equal(await page.isVisible(sel('acceleration-cli', 'error')), false);
  });

  test('the CLI comparison refuses a file over core’s JSON limit unread, keeping what it showed', async () => {
    const { page } = lab;
    const pasted = await page.inputValue('#acceleration-cli-input');
    const rows = await cliRows(page);
    const tableShown = await page.isVisible(sel('acceleration-cli', 'table'));
    await page.setInputFiles('#acceleration-cli-file', {
      name: 'huge.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20),
    });
    await page.waitForSelector(`${sel('acceleration-cli', 'error')}:not([hidden])`, { timeout: 20000 });
    assert.equal(
      await page.textContent(sel('acceleration-cli', 'error')),
      'Error: huge.json is 16.0 MiB (16,777,217 bytes); the lab reads JSON files of at most 16.0 MiB (16,777,216 bytes). ' +
        'Load the file that perflab roofline --json or perflab bench --json wrote.',
    );
    assert.equal(await page.inputValue('#acceleration-cli-input'), pasted, 'the pasted text stays');
    assert.equal(await cliRows(page), rows, 'the last comparison stays');
    assert.equal(await page.isVisible(sel('acceleration-cli', 'table')), tableShown);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

// Cancel needs a run that is still going when the click lands: in quick mode the GELU sweep's
// eight short points can all finish between the first row and the click on a loaded machine
// (CI saw it). Here the full plan with Measure longer at 4x: 20 points of at least 40 samples.
describe('the Acceleration chapter, cancel', () => {
  let lab;
  before(async () => {
    lab = await openLab({ hash: '#acceleration' });
  });
  after(async () => {
    await lab?.close();
  });

  test('Cancel stops a run and keeps the points measured so far', async () => {
    const { page } = lab;
    const id = 'acceleration-gelu-fusion';
    await page.selectOption(`#${id}-measure-longer`, '4');
    await page.click(`[data-experiment="${id}"] [data-action="run"]`);
    await page.waitForFunction((s) => document.querySelectorAll(s).length >= 1, `${sel(id, 'table')} tbody tr`, {
      timeout: 60000,
    });
    await page.click(`[data-experiment="${id}"] [data-action="cancel"]`);
    try {
      await page.waitForFunction((s) => /^Cancelled/.test(document.querySelector(s).textContent), sel(id, 'status'), {
        timeout: 2000,
      });
    } catch (err) {
      assert.fail(`status two seconds after Cancel: "${await page.textContent(sel(id, 'status'))}" (${err.message})`);
    }
    const note = await page.textContent(sel(id, 'result-note'));
    const m = /^Partial result: (\d+) of (\d+) points, cancelled\./.exec(note);
    assert.ok(m, note);
    const [measured, total] = [Number(m[1]), Number(m[2])];
    assert.ok(measured >= 1 && measured < total, note);
    assert.equal(await page.$$eval(`${sel(id, 'table')} tbody tr`, (trs) => trs.length), measured);
    assert.equal(await page.isEnabled(`[data-experiment="${id}"] [data-action="run"]`), true);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
