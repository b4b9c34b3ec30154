// Protects the Profiling chapter end to end (page -> bridge -> lab worker -> wasm core):
// the model builder profiles a zoo model and its parameter count equals the native CLI's
// (and the hand count 128·64 + 64 = 8,256); a bad spec shows core's error right under the
// editor, keeps the text, and a good spec then profiles; the spec survives a reload;
// Cancel stops a profile and an experiment; the model selects hold core's zoo (as the wasm
// module lists it); one experiment runs to Done with rows, chart marks and a CSV download.
// With ?quick=1. No timing asserted beyond "within a second or two" for cancel.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { openLab, repoRoot } from './harness.mjs';

// The native CLI to compare counts with: PERFLAB_CLI when set (tools/lab test sets it, and a
// missing file then fails the test), else build/native/tools/perflab when it was built.
const CLI_NAMED = Boolean(process.env.PERFLAB_CLI);
const CLI = path.resolve(repoRoot, process.env.PERFLAB_CLI ?? 'build/native/tools/perflab');

const builder = '[data-role="builder"]';
const b = (sel) => `${builder} ${sel}`;

async function setEditorText(page, text) {
  await page.click(b('.cm-content'));
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const editorText = (page) => page.$eval(b('.cm-content'), (el) => el.cmView?.view?.state.doc.toString() ?? el.innerText);

async function profileAndWait(page) {
  await page.click(b('[data-action="profile"]'));
  await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'idle', builder, { timeout: 60000 });
}

const parseCount = (text) => Number(text.replaceAll(',', ''));

// The zoo as the Node build of the wasm module lists it, read in a child process: the
// module loads only without Node's fetch (as tests/wasm run), which this process keeps.
async function moduleZoo() {
  const loader = pathToFileURL(path.join(repoRoot, 'tests/wasm/perflab_module.mjs')).href;
  const script =
    `const { BUILDS, loadPerflab } = await import(${JSON.stringify(loader)});` +
    'const m = await loadPerflab(BUILDS[0]);' +
    'console.log(JSON.stringify({ names: m.zooNames(), descriptions: m.zooModels().map((z) => z.description), layerTypes: m.layerTypes(), ' +
    'resolution_multiple: m.profileTimerDefaults().resolution_multiple }));';
  const { stdout } = await promisify(execFile)(process.execPath, ['--no-experimental-fetch', '--input-type=module', '-e', script], {
    timeout: 60000,
  });
  return JSON.parse(stdout);
}

describe('model builder', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#profiling' });
    await lab.page.waitForSelector(`${builder}[data-zoo="ready"]`, { timeout: 30000 });
  });
  after(async () => {
    await lab?.close();
  });

  test('profiles a zoo model; its parameter count equals the hand count and the CLI’s', async (t) => {
    const { page } = lab;
    await page.selectOption('#builder-zoo', 'linear_128_64');
    await page.click(b('[data-action="load-zoo"]'));
    assert.match(await editorText(page), /"name": "linear_128_64"/);
    await profileAndWait(page);
    assert.equal(await page.getAttribute(builder, 'data-profiled'), 'linear_128_64');
    assert.match(await page.textContent(b('[data-role="profile-status"]')), /^Done in /);
    assert.equal(await page.isVisible(b('[data-role="spec-error"]')), false);

    // The per-layer table: one Linear, parameters in the fourth column.
    const cells = await page.$$eval(b('[data-role="layers"] tbody tr'), (rows) =>
      rows.map((r) => [...r.cells].map((c) => c.textContent)),
    );
    assert.equal(cells.length, 1);
    assert.equal(cells[0][1], 'Linear #0');
    const pageCount = parseCount(cells[0][3]);
    assert.equal(pageCount, 128 * 64 + 64);
    // The totals table says the same.
    const totals = await page.$$eval(b('[data-role="totals"] tbody tr'), (rows) =>
      Object.fromEntries(rows.filter((r) => r.cells.length === 3).map((r) => [r.cells[0].textContent, r.cells[1].firstChild.textContent])),
    );
    assert.equal(totals.Parameters, '8,256');
    assert.match(totals['Per sample (matmul)'], /^16,384/);
    // Top operations: a chart with bars and a table.
    assert.ok((await page.$$(b('[data-role="top-ops-chart"] svg rect'))).length > 0, 'bars drawn');
    assert.ok((await page.$$(b('[data-role="top-ops"] tbody tr'))).length >= 1);

    if (CLI_NAMED) assert.ok(existsSync(CLI), `PERFLAB_CLI=${CLI} names no file: build the native CLI`);
    if (!existsSync(CLI)) {
      t.diagnostic(`no native CLI at ${CLI}: the page was not compared with the CLI (set PERFLAB_CLI)`);
    } else {
      const { stdout } = await promisify(execFile)(CLI, ['profile', '--zoo', 'linear_128_64', '--json'], { timeout: 60000 });
      const cli = JSON.parse(stdout);
      assert.equal(pageCount, cli.parameters, `page ${pageCount} vs CLI ${cli.parameters} (${CLI})`);
      assert.equal(parseCount(totals['Per sample (matmul)'].split(' ')[0]), cli.flops_per_sample);
    }
  });

  test('Measure longer, the remedy the timer warnings name, is beside Profile and a longer profile runs', async () => {
    const { page } = lab;
    assert.equal(await page.inputValue('#builder-measure-longer'), '1');
    assert.deepEqual(await page.$$eval('#builder-measure-longer option', (os) => os.map((o) => o.value)), ['1', '2', '4']);
    await page.selectOption('#builder-zoo', 'linear_128_64');
    await page.click(b('[data-action="load-zoo"]'));
    await page.selectOption('#builder-measure-longer', '2');
    await profileAndWait(page);
    assert.match(await page.textContent(b('[data-role="profile-status"]')), /^Done in /);
    await page.selectOption('#builder-measure-longer', '1');
  });

  test('a bad spec shows core’s error under the editor and keeps the text; a good one then works', async () => {
    const { page } = lab;
    const error = b('[data-role="spec-error"]');
    const bad = [
      ['{"name": "x", "input": [2, 3], "layers": [', /model spec is not valid JSON/],
      ['{"name": "x", "input": [2, 3], "layers": [{"type": "Dense"}]}', /"Dense" is not a known layer type/],
      [
        '{"name": "x", "input": [2, 3], "layers": [{"type": "Linear", "in": 3, "out": 4}, {"type": "Linear", "in": 5, "out": 2}]}',
        /^Error: layers\[1\]\.in is 5 but the previous layer gives 4 features; set layers\[1\]\.in to 4/,
      ],
    ];
    for (const [text, message] of bad) {
      await setEditorText(page, text);
      await profileAndWait(page);
      assert.equal(await page.isVisible(error), true, text);
      assert.match(await page.textContent(error), message);
      assert.equal(await editorText(page), text, 'the editor keeps the student’s text');
      // The error sits right after the editor.
      assert.equal(await page.$eval(error, (el) => el.previousElementSibling.dataset.role), 'editor');
    }
    const good = '{"name": "small", "input": [4, 3], "layers": [{"type": "Linear", "in": 3, "out": 4}, {"type": "ReLU"}]}';
    await setEditorText(page, good);
    await profileAndWait(page);
    assert.equal(await page.isVisible(error), false);
    assert.equal(await page.getAttribute(builder, 'data-profiled'), 'small');
    assert.equal(await page.$$eval(b('[data-role="layers"] tbody tr'), (rows) => rows.length), 2);
  });

  test('the MLP field builds a spec with core’s mlpSpec', async () => {
    const { page } = lab;
    await page.fill('#builder-widths', '32, 16, 4');
    await page.fill('#builder-mlp-batch', '8');
    await page.click(b('[data-action="build-mlp"]'));
    await page.waitForFunction(() => document.querySelector('[data-role="builder"] .cm-content').textContent.includes('mlp_32_16_4'));
    const spec = JSON.parse(await editorText(page));
    assert.deepEqual(spec.input, [8, 32]);
    assert.deepEqual(spec.layers.map((l) => l.type), ['Linear', 'ReLU', 'Linear']);
    await page.fill('#builder-widths', '32');
    await page.click(b('[data-action="build-mlp"]'));
    assert.match(await page.textContent(b('[data-role="picker-error"]')), /at least an input and an output width/);
  });

  test('the spec in the editor survives a reload', async () => {
    const { page } = lab;
    const text = '{"name": "kept", "input": [1, 2], "layers": [{"type": "Linear", "in": 2, "out": 2}]}';
    await setEditorText(page, text);
    await page.waitForTimeout(600); // the save runs 400 ms after typing stops
    await page.reload();
    await page.waitForSelector(`${builder}[data-zoo="ready"]`, { timeout: 30000 });
    assert.equal(await editorText(page), text);
  });

  test('Cancel stops a profile, and Profile works again', async () => {
    const { page } = lab;
    await page.selectOption('#builder-zoo', 'conv7x7_224');
    await page.click(b('[data-action="load-zoo"]'));
    await page.fill('#builder-batch', '8');
    await page.click(b('[data-action="profile"]'));
    await page.waitForTimeout(300);
    const clicked = Date.now();
    await page.click(b('[data-action="cancel-profile"]'));
    await page.waitForFunction((sel) => document.querySelector(sel)?.dataset.state === 'idle', builder, { timeout: 2000 });
    assert.ok(Date.now() - clicked < 2000);
    assert.match(await page.textContent(b('[data-role="profile-status"]')), /^Cancelled/);
    assert.equal(await page.isVisible(b('[data-role="spec-error"]')), false);
    await page.fill('#builder-batch', '');
    await page.selectOption('#builder-zoo', 'linear_128_64');
    await page.click(b('[data-action="load-zoo"]'));
    await profileAndWait(page);
    assert.equal(await page.getAttribute(builder, 'data-profiled'), 'linear_128_64');
  });

  test('lists core’s layer types and fields, says whose results a failed profile left, and which spec the editor holds', async () => {
    const { page } = lab;
    const zooNote = b('[data-role="zoo-description"]');
    const stale = b('[data-role="stale-results"]');
    // The reference is core's own table (the one its errors quote), folded under the editor.
    await page.click(b('.layer-reference summary'));
    await page.waitForSelector(b('[data-role="layer-reference"] tbody tr'), { timeout: 20000 });
    const rows = await page.$$eval(b('[data-role="layer-reference"] tbody tr'), (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
    const { layerTypes } = await moduleZoo();
    assert.deepEqual(rows.map((r) => r[0]), layerTypes.map((t) => t.type));
    assert.equal(rows[1][1], 'in_channels (positive integer), out_channels (positive integer), kernel (positive integer), stride = 1 (positive integer), padding = 0 (non-negative integer), bias = true (true or false)');

    await page.selectOption('#builder-zoo', 'linear_128_64');
    await page.click(b('[data-action="load-zoo"]'));
    assert.match(await page.textContent(zooNote), /^In the editor: linear_128_64, /);
    await profileAndWait(page);
    assert.equal(await page.isVisible(stale), false);
    // The student's own spec: the note stops saying the zoo model is in the editor.
    await setEditorText(page, '{"name": "x", "input": [2, 3], "layers": [{"type": "Dense"}]}');
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.startsWith('linear_128_64 (not in the editor'), zooNote, { timeout: 5000 });
    // It fails; the results below are marked as the previous model's.
    await profileAndWait(page);
    assert.equal(await page.isVisible(b('[data-role="spec-error"]')), true);
    assert.equal(await page.isVisible(stale), true);
    assert.match(await page.textContent(stale), /^These results are of the previous profile \(linear_128_64 at batch \d+\)/);
    assert.equal(await page.getAttribute(b('[data-role="results"]'), 'data-stale'), 'true');
    // A good spec replaces them, unmarked.
    await setEditorText(page, '{"name": "small", "input": [4, 3], "layers": [{"type": "Linear", "in": 3, "out": 4}]}');
    await profileAndWait(page);
    assert.equal(await page.getAttribute(builder, 'data-profiled'), 'small');
    assert.equal(await page.isVisible(stale), false);
    assert.equal(await page.getAttribute(b('[data-role="results"]'), 'data-stale'), 'false');
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('experiments', () => {
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#profiling' });
  });
  after(async () => {
    await lab?.close();
  });

  const exp = (id, sel) => `[data-experiment="${id}"] ${sel}`;
  const waitDone = (page, id) =>
    page.waitForFunction((sel) => /^Done/.test(document.querySelector(sel)?.textContent ?? ''), exp(id, '[data-role="status"]'), {
      timeout: 60000,
    });

  test('the latency section quotes the clock ticks a sample lasts from core’s timer, not a number of its own', async () => {
    const { page } = lab;
    const { resolution_multiple } = await moduleZoo();
    const fact = '#profiling-latency [data-fact="resolution_multiple"]';
    await page.waitForFunction((sel) => /\d/.test(document.querySelector(sel)?.textContent ?? ''), fact, { timeout: 30000 });
    assert.equal(Number((await page.textContent(fact)).replaceAll(',', '')), resolution_multiple);
    assert.match(await page.textContent('#profiling-latency p'), /each sample lasts at least [\d,]+ ticks of the clock/);
  });

  test('the model selects list core’s zoo, as the module’s zooNames() and zooModels() say', async () => {
    const { page } = lab;
    const { names, descriptions } = await moduleZoo();
    assert.ok(names.length >= 2, `the module lists ${names.length} zoo models`);
    for (const id of ['profiling-batch-size', 'profiling-training-memory']) {
      const select = `#${id}-model`;
      await page.waitForSelector(`${select}[data-options="ready"]`, { timeout: 30000 });
      const options = await page.$$eval(`${select} option`, (os) => os.map((o) => [o.value, o.textContent, o.title]));
      assert.deepEqual(options.map((o) => o[0]), names, id);
      assert.deepEqual(options.map((o) => o[1]), names, id);
      assert.deepEqual(options.map((o) => o[2]), descriptions, id);
      assert.equal(await page.inputValue(select), 'mlp_784', `${id} keeps its default`);
      assert.equal(await page.isEnabled(exp(id, '[data-action="run"]')), true);
    }
  });

  test('batch size runs to Done with batch 1 and 32, chart marks and a CSV', async () => {
    const { page } = lab;
    const id = 'profiling-batch-size';
    await page.click(exp(id, '[data-action="run"]'));
    await waitDone(page, id);
    const batches = await page.$$eval(exp(id, '[data-role="table"] tbody tr'), (rows) => rows.map((r) => r.cells[0].textContent));
    assert.ok(batches.includes('1') && batches.includes('32'), `batches ${batches}`);
    assert.ok((await page.$$(exp(id, '[data-role="chart"] svg g[aria-label="line"] path'))).length >= 3, 'lines drawn');
    assert.ok((await page.$$(exp(id, '[data-role="chart"] svg g[aria-label="dot"] circle'))).length >= batches.length);
    const [download] = await Promise.all([page.waitForEvent('download'), page.click(exp(id, '[data-action="csv"]'))]);
    assert.equal(download.suggestedFilename(), 'perflab-profiling-batch-size.csv');
    const lines = (await readFile(await download.path(), 'utf8')).trimEnd().split('\r\n');
    assert.match(lines[0], /^build,name,batch_size,/);
    assert.equal(lines.length, 1 + batches.length);
    assert.equal(await page.isVisible(exp(id, '[data-role="error"]')), false);
  });

  test('training memory draws one stacked bar per optimizer and batch', async () => {
    const { page } = lab;
    const id = 'profiling-training-memory';
    await page.click(exp(id, '[data-action="run"]'));
    await waitDone(page, id);
    assert.equal(await page.$$eval(exp(id, '[data-role="table"] tbody tr'), (rows) => rows.length), 2);
    // 2 batches × 4 optimizers × 4 components
    assert.equal((await page.$$(exp(id, '[data-role="chart"] svg g[aria-label="bar"] rect'))).length, 32);
  });

  test('forward vs backward: a single Linear counts 1 × its forward, beside the 2 × estimate', async () => {
    const { page } = lab;
    const id = 'profiling-forward-backward';
    await page.click(exp(id, '[data-action="run"]'));
    await waitDone(page, id);
    const headers = await page.$$eval(exp(id, '[data-role="table"] th'), (ths) => ths.map((t) => t.textContent));
    const cell = (row, label) => row[headers.indexOf(label)];
    const rows = await page.$$eval(exp(id, '[data-role="table"] tbody tr'), (trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
    const linear = rows.find((r) => r[0] === 'linear_128_64');
    assert.ok(linear, `rows ${rows.map((r) => r[0])}`);
    // dW only: the first layer computes no dx, so backward FLOPs equal the forward's.
    assert.equal(cell(linear, 'counted / forward FLOPs'), '1.00 ×');
    const mlp = rows.find((r) => r[0] === 'mlp_784');
    assert.equal(cell(mlp, 'counted / forward FLOPs'), '1.15 ×');  // 537,600 / 469,504
    assert.equal(cell(mlp, '2 × forward FLOPs (estimate)'), '60,096,512');
    // Three bars per model: measured time ratio, counted FLOP ratio, the estimate.
    assert.equal((await page.$$(exp(id, '[data-role="chart"] svg g[aria-label="bar"] rect'))).length, 3 * rows.length);
  });

  test('Cancel stops a long experiment within a second or two and Run works again', async () => {
    const { page } = lab;
    const id = 'profiling-model-scaling';
    await page.fill(`#${id}-hidden`, '2048, 4096');
    await page.fill(`#${id}-batch`, '512');
    await page.click(exp(id, '[data-action="run"]'));
    await page.waitForFunction((sel) => /^Measuring point/.test(document.querySelector(sel)?.textContent ?? ''), exp(id, '[data-role="status"]'), {
      timeout: 30000,
    });
    const clicked = Date.now();
    await page.click(exp(id, '[data-action="cancel"]'));
    await page.waitForFunction((sel) => /^Cancelled/.test(document.querySelector(sel).textContent), exp(id, '[data-role="status"]'), {
      timeout: 2000,
    });
    assert.ok(Date.now() - clicked < 2000);
    await page.fill(`#${id}-hidden`, '16, 32');
    await page.fill(`#${id}-batch`, '4');
    await page.click(exp(id, '[data-action="run"]'));
    await waitDone(page, id);
    assert.equal(await page.$$eval(exp(id, '[data-role="table"] tbody tr'), (rows) => rows.length), 2);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
