// Protects the Benchmarking chapter's comparison experiments end to end (page -> bridge -> lab
// worker -> wasm core) in quick mode: the A/B experiment runs both modes to Done and shows
// core's two verdicts side by side, the per-round chart, the table and both CSVs, and refuses
// A = B beside the control; the A/A experiment runs its repeats, plots each p-value against
// alpha, counts core's verdicts in a sentence that agrees with the table, and keeps its
// partial rows on Cancel; the suite runs the ticked zoo models and shows a chart per metric and
// core's report with its three files, refuses a suite without models beside the checkbox, and
// measures the pretrained fashion_mlp's accuracy on the 10,000 test images (fetched for it) as
// the native evaluation recorded it;
// the regression check saves a run as its baseline (in localStorage), compares the next run
// with it in core's table, refuses a bad or oversized file beside the loader keeping the
// baseline, and loads a perflab bench --json file as the baseline.
// No timing and no verdict is asserted (they are this machine's).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { answerCapstoneFromRounds, exerciseCards, openLab, printedRange } from './harness.mjs';

const scope = (id) => {
  const EXP = `[data-experiment="${id}"]`;
  return {
    EXP,
    role: (r) => `${EXP} [data-role="${r}"]`,
    btn: (a) => `${EXP} [data-action="${a}"]`,
  };
};

async function waitDone(page, { role }, timeout = 60000) {
  await page.waitForFunction((sel) => /^Done/.test(document.querySelector(sel)?.textContent ?? ''), role('status'), { timeout });
}

async function waitOptions(page, EXP) {
  await page.waitForFunction(
    (sel) => [...document.querySelectorAll(`${sel} select[data-options]`)].every((s) => s.dataset.options === 'ready'),
    EXP,
    { timeout: 30000 },
  );
}

const tableRows = (page, { role }) =>
  page.$$eval(`${role('table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
const headers = (page, { role }) => page.$$eval(`${role('table')} thead th`, (ths) => ths.map((th) => th.textContent));

async function download(page, selector) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.click(selector)]);
  const text = await readFile(await file.path(), 'utf8');
  return { name: file.suggestedFilename(), text, lines: text.trimEnd().split('\r\n') };
}

describe('A/B, quick', () => {
  const ab = scope('benchmarking-ab');
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
    await waitOptions(lab.page, ab.EXP);
  });
  after(async () => {
    await lab?.close();
  });

  test('the kernel choices are core’s matmul and GELU variants', async () => {
    const options = await lab.page.$$eval('#benchmarking-ab-variant-a option', (os) => os.map((o) => o.value));
    assert.ok(options.includes('matmul:naive') && options.includes('gelu:fused'), options.join(', '));
  });

  test('A and B must differ: the message sits beside B and nothing runs', async () => {
    const { page } = lab;
    await page.selectOption('#benchmarking-ab-variant-a', 'matmul:simd');
    await page.selectOption('#benchmarking-ab-variant-b', 'matmul:simd');
    await page.click(ab.btn('run'));
    assert.match(await page.textContent(`${ab.EXP} [data-control="variant-b"] [data-role="field-error"]`), /B must differ from A/);
    assert.equal(await page.textContent(ab.role('status')), 'Fix the setting marked in red, then Run.');
    assert.equal((await tableRows(page, ab)).length, 0);
  });

  test('runs interleaved and sequential and shows core’s two verdicts, the chart and the table', async () => {
    const { page } = lab;
    await page.selectOption('#benchmarking-ab-variant-a', 'gelu:unfused');
    await page.selectOption('#benchmarking-ab-variant-b', 'gelu:fused-simd');
    await page.fill('#benchmarking-ab-n', '4096');
    await page.click(ab.btn('run'));
    await waitDone(page, ab);
    const rows = await tableRows(page, ab);
    assert.deepEqual(rows.map((r) => r[0]), ['interleaved', 'sequential']);
    const head = await headers(page, ab);
    const verdictCol = head.indexOf('verdict');
    // Each card shows core's sentence for its mode, and the same verdict as its table row.
    const cards = await page.$$eval(`${ab.role('analysis')} .compare-card`, (els) =>
      els.map((el) => ({ mode: el.dataset.mode, verdict: el.dataset.verdictWord, sentence: el.querySelector('.verdict').textContent, text: el.textContent })),
    );
    assert.deepEqual(cards.map((c) => c.mode), ['interleaved', 'sequential']);
    for (const [i, c] of cards.entries()) {
      // The table shows core's word for the verdict, never its identifier (no_difference).
      assert.equal(c.verdict, rows[i][verdictCol]);
      assert.doesNotMatch(rows[i][verdictCol], /_/);
      // Each arm's drift is core's sentence: what the rule found, with the rule, at these rounds.
      assert.match(c.text, /drift of A across rounds(detected|not detected): Spearman ρ -?[\d.]+ against the round \(p [<=] [\d.e-]+\)/);
      assert.match(c.text, /the rule needs both p below 0\.01 \(at 8 rounds, \|ρ\| of at least 0\.881\)|the rule: p below 0\.01/);
      assert.ok(c.sentence.length > 10, c.sentence);
      assert.match(c.text, /A = unfused, B = fused-simd/);
      assert.match(c.text, /ratio of medians A\/B \(> 1: B faster\)[\d.]+×, 95% CI [\d.]+–[\d.]+×/);
      assert.match(c.text, /Cohen’s d/);
      assert.match(c.text, /Cliff’s δ/);
      // The ratio the card prints is the table's.
      assert.ok(c.text.includes(rows[i][head.indexOf('ratio A/B')]), `${c.text} has ${rows[i][head.indexOf('ratio A/B')]}`);
    }
    // One line per arm in each mode's chart, one dot per round of each arm.
    for (const mode of ['interleaved', 'sequential']) {
      const lines = await page.$$(`${ab.role('chart')}[data-chart="${mode}"] svg g[aria-label="line"] path`);
      assert.equal(lines.length, 2, mode);
      const dots = await page.$$(`${ab.role('chart')}[data-chart="${mode}"] svg g[aria-label="dot"] circle`);
      assert.equal(dots.length, 2 * Number(rows[0][1]), mode);
    }
    assert.equal(await page.isVisible(ab.role('error')), false);
  });

  test('Download CSV has a line per mode; the per-round CSV a line per round of each arm pair', async () => {
    const { page } = lab;
    const csv = await download(page, ab.btn('csv'));
    assert.equal(csv.name, 'perflab-benchmarking-ab.csv');
    assert.equal(csv.lines.length, 3);
    assert.match(csv.lines[1], /^(simd|scalar),gelu,4096,unfused,fused-simd,(simd|scalar),(simd|scalar),interleaved,\d+,/);
    const rounds = await download(page, ab.btn('rounds-csv'));
    assert.equal(rounds.name, 'perflab-benchmarking-ab-rounds.csv');
    assert.equal(rounds.lines[0], 'mode,op,n,variant_a,variant_b,build_a,build_b,round,a_first,a_ms,b_ms');
    const perMode = Number((await tableRows(page, ab))[0][1]);
    assert.equal(rounds.lines.length, 1 + 2 * perMode);
    assert.match(rounds.lines[1], /^interleaved,gelu,4096,unfused,fused-simd,(simd|scalar),(simd|scalar),1,(true|false),[\d.e-]+,[\d.e-]+$/);
    assert.match(rounds.lines.at(-1), new RegExp(`^sequential,gelu,4096,unfused,fused-simd,(simd|scalar),(simd|scalar),${perMode},true,`));
  });

  test('the capstone, computed from the per-round CSV (paired ratios, B’s wins, the rounds A ran first), is graded correct by core', async () => {
    const { page } = lab;
    const rounds = await download(page, ab.btn('rounds-csv'));
    const { wrongWins, right } = await answerCapstoneFromRounds(page, rounds.lines);
    // A wrong count first: the grade must be able to fail.
    assert.equal(wrongWins, 'false');
    assert.equal(right, 'true');
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('A/A, quick', () => {
  const aa = scope('benchmarking-aa');
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
    await waitOptions(lab.page, aa.EXP);
  });
  after(async () => {
    await lab?.close();
  });

  test('runs its repeats and counts core’s verdicts in a sentence that agrees with the table', async () => {
    const { page } = lab;
    await page.selectOption('#benchmarking-aa-kernel', 'gelu:fused');
    await page.fill('#benchmarking-aa-n', '1024');
    await page.click(aa.btn('run'));
    await waitDone(page, aa);
    const rows = await tableRows(page, aa);
    assert.equal(rows.length, 8, 'quick mode: 8 repeats');
    const head = await headers(page, aa);
    const p = rows.map((r) => r[head.indexOf('Mann-Whitney p')]);
    const verdicts = rows.map((r) => r[head.indexOf('verdict')]);
    // The table prints p to three digits ("< 0.0001" when tiny); below 0.05 either way.
    const below = p.filter((t) => t.startsWith('<') || Number(t) < 0.05).length;
    const called = verdicts.filter((v) => v === 'faster' || v === 'slower').length;
    const text = await page.textContent(aa.role('aa-summary'));
    // First what the exercise counts (core's verdicts), then the p-values below alpha.
    assert.match(text, new RegExp(`^Core’s verdict called B faster or slower in ${called} of 8 A/A runs`));
    assert.match(text, new RegExp(`${below} of 8 \\(\\d+(\\.\\d+)?%\\) had Mann-Whitney p < 0\\.05, below the dashed line\\.`));
    assert.match(text, /p < 0\.05 is not enough for the verdict: it also needs the ratio’s interval to exclude 1/);
    // One dot per repeat in each chart, the alpha line, the threshold lines; the dots coloured
    // as the verdict called are exactly the ones the sentence and the exercise count.
    for (const name of ['p-values', 'ratios']) {
      const sel = `${aa.role('chart')}[data-chart="${name}"]`;
      const fills = await page.$$eval(`${sel} svg circle`, (cs) => cs.map((c) => c.getAttribute('fill')));
      assert.equal(fills.length, 8);
      const swatch = await page.$$eval(`${sel} [class$="-swatch"]`, (els) =>
        els.map((e) => ({ text: e.textContent.trim(), fill: e.querySelector('[fill]')?.getAttribute('fill') })),
      );
      const calledFill = swatch.find((w) => w.text === 'verdict: B faster or slower')?.fill;
      assert.ok(calledFill, JSON.stringify(swatch));
      assert.equal(fills.filter((f) => f === calledFill).length, called, name);
    }
    assert.match(await page.textContent(`${aa.role('chart')}[data-chart="p-values"]`), /α = 0\.05/);
    assert.match(await page.textContent(`${aa.role('chart')}[data-chart="ratios"]`), /±2% noise threshold/);
    assert.equal(await page.isVisible(aa.role('error')), false);
  });

  test('the A/A exercise, counted from the CSV (p below α, interval excluding 1), is graded correct by core', async () => {
    const { page } = lab;
    const { card, submitAndWait } = exerciseCards(page);
    const id = 'benchmarking.aa-false-positives';
    // The columns before the sentence hold no comma: split, read by the header's names.
    const csv = await download(page, aa.btn('csv'));
    const head = csv.lines[0].split(',');
    const rows = csv.lines.slice(1).map((l) => l.split(','));
    const at = (row, name) => Number(row[head.indexOf(name)]);
    const rank = rows.filter((r) => at(r, 'mann_whitney_p') < 0.05).length;
    const interval = rows.filter((r) => at(r, 'ratio_low') > 1 || at(r, 'ratio_high') < 1).length;
    await page.waitForFunction((cid) => !document.querySelector(`article[data-exercise-id="${cid}"] button[type="submit"]`).disabled, id);
    const parts = card(id).locator('input[data-role="answer"]');
    const submit = () => card(id).locator('button[type="submit"]').click();
    const answer = async (values) => {
      for (const [i, v] of values.entries()) await parts.nth(i).fill(String(v));
      return submitAndWait(id, submit);
    };
    assert.equal(await answer([rank + 3, interval]), 'false');
    assert.equal(await answer([rank, interval]), 'true');
  });

  test('Download CSV has one line per repeat with the repeat index and both samples', async () => {
    const { page } = lab;
    const csv = await download(page, aa.btn('csv'));
    assert.equal(csv.name, 'perflab-benchmarking-aa.csv');
    assert.equal(csv.lines.length, 1 + 8);
    assert.match(csv.lines[0], /^repeat,build,op,n,variant_a,variant_b,mode,rounds,.*,a_ms,b_ms$/);
    assert.match(csv.lines[3], /^3,(simd|scalar),gelu,1024,fused,fused,interleaved,\d+,/);
  });

  test('Cancel keeps the repeats measured so far and says so', async () => {
    const { page } = lab;
    // naive matmul at N = 192: each repeat lasts long enough that the cancel lands mid-run.
    await page.selectOption('#benchmarking-aa-kernel', 'matmul:naive');
    await page.fill('#benchmarking-aa-n', '192');
    await page.click(aa.btn('run'));
    await page.waitForFunction((sel) => document.querySelectorAll(sel).length >= 1, `${aa.role('table')} tbody tr`, {
      timeout: 60000,
    });
    await page.click(aa.btn('cancel'));
    await page.waitForFunction((sel) => /^Cancelled/.test(document.querySelector(sel).textContent), aa.role('status'), {
      timeout: 5000,
    });
    const kept = (await tableRows(page, aa)).length;
    assert.ok(kept >= 1 && kept < 8, `kept ${kept}`);
    assert.match(await page.textContent(aa.role('result-note')), new RegExp(`^Partial result: ${kept} of 8 points, cancelled\\.`));
    assert.equal(await page.isEnabled(aa.btn('run')), true);
    const csv = await download(page, aa.btn('csv'));
    assert.equal(csv.lines.length, 1 + kept);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('suite, quick', () => {
  const su = scope('benchmarking-suite');
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
    await lab.page.waitForSelector(`${su.btn('run')}:not([disabled])`, { timeout: 30000 });
  });
  after(async () => {
    await lab?.close();
  });

  const checkboxes = (page) =>
    page.$$eval(`${su.EXP} input[type="checkbox"]`, (els) =>
      els.map((el) => ({ id: el.id, label: el.labels[0].textContent.trim().replace(/^metric /, '') })),
    );

  test('no model ticked: the message sits beside the first model and nothing runs', async () => {
    const { page } = lab;
    const models = (await checkboxes(page)).filter((c) => c.id.includes('-model-'));
    assert.ok(models.length >= 2, 'the zoo has models');
    for (const m of models) await page.uncheck(`#${m.id}`);
    await page.click(su.btn('run'));
    assert.equal(await page.textContent(`${su.EXP} [data-control="model-0"] [data-role="field-error"]`), 'tick at least one model');
    assert.equal((await tableRows(page, su)).length, 0);
  });

  test('runs the ticked models, draws each ticked metric and shows core’s report', async () => {
    const { page } = lab;
    const boxes = await checkboxes(page);
    const models = boxes.filter((c) => c.id.includes('-model-'));
    const metrics = boxes.filter((c) => c.id.includes('-metric-'));
    await page.check(`#${models[0].id}`);
    await page.check(`#${models[1].id}`);
    const latency = metrics.find((m) => m.label === 'latency_ms');
    const params = metrics.find((m) => m.label === 'parameters');
    for (const m of metrics) if (m !== latency && m !== params) await page.uncheck(`#${m.id}`);
    await page.click(su.btn('run'));
    await waitDone(page, su);
    const rows = await tableRows(page, su);
    assert.deepEqual(rows.map((r) => r[0]), [models[0].label, models[1].label]);
    // A bar per model in each ticked metric's chart; an unticked metric's chart says so.
    for (const name of ['latency_ms', 'parameters']) {
      assert.equal((await page.$$(`${su.role('chart')}[data-chart="${name}"] svg g[aria-label="bar"] rect`)).length, 2, name);
    }
    const unticked = metrics.find((m) => m !== latency && m !== params);
    assert.match(await page.textContent(`${su.role('chart')}[data-chart="${unticked.label}"]`), /is not ticked for this suite/);
    const report = await page.textContent(su.role('report'));
    assert.match(report, /^# Suite: page suite/);
    assert.match(report, /## Best per metric/);
    for (const m of [models[0].label, models[1].label]) assert.ok(report.includes(`| ${m} |`), `${m} is in the report`);
    assert.doesNotMatch(report, /flops_per_sample \|/, 'only ticked metrics are ranked');
    // The same report rendered: its headings and one table row per model under Models.
    const headings = await page.$$eval(`${su.role('report-rendered')} h4, ${su.role('report-rendered')} h5`, (els) => els.map((e) => e.textContent));
    assert.deepEqual(headings.slice(0, 3), ['Suite: page suite', 'System', 'Models']);
    const rendered = await page.textContent(su.role('report-rendered'));
    for (const m of [models[0].label, models[1].label]) assert.ok(rendered.includes(m), `${m} is in the rendered report`);
    assert.equal(await page.isVisible(su.role('error')), false);
  });

  test('the report downloads as Markdown, JSON and CSV, and the rows as CSV', async () => {
    const { page } = lab;
    const md = await download(page, su.btn('report-markdown'));
    assert.equal(md.name, 'perflab-suite-report.md');
    assert.equal(md.text, await page.textContent(su.role('report')), 'the file is the report shown');
    const json = await download(page, su.btn('report-json'));
    const doc = JSON.parse(json.text);
    assert.equal(doc.kind, 'suite');
    assert.deepEqual(doc.metrics.map((m) => m.name), ['latency_ms', 'parameters']);
    assert.equal(doc.models.length, 2);
    const csv = await download(page, su.btn('report-csv'));
    assert.equal(csv.name, 'perflab-suite-report.csv');
    const reportLines = csv.text.trimEnd().split(/\r?\n/);
    assert.match(reportLines[0], /^kind,name,/);
    assert.equal(reportLines.length, 3);
    const rows = await download(page, su.btn('csv'));
    assert.equal(rows.name, 'perflab-benchmarking-suite.csv');
    assert.equal(rows.lines.length, 3);
  });

  test('an optimized model against its base: a half pair is refused beside it, a whole one adds core’s comparison', async () => {
    const { page } = lab;
    const models = (await checkboxes(page)).filter((c) => c.id.includes('-model-'));
    const [base, optimized] = [models[0].label, models[1].label];
    const select = (id) => `${su.EXP} [data-control="${id}"] select`;
    await page.selectOption(select('optimized'), optimized);
    await page.click(su.btn('run'));
    assert.equal(await page.textContent(`${su.EXP} [data-control="base"] [data-role="field-error"]`), 'choose both the optimized model and its base, or none for neither');
    await page.selectOption(select('base'), base);
    await page.click(su.btn('run'));
    await waitDone(page, su);
    const report = await page.textContent(su.role('report'));
    assert.match(report, /## Optimized against base/);
    assert.ok(report.includes(`| ${optimized} | ${base} | `), 'the pair’s row');
    assert.match(report, new RegExp(`- ${optimized} against ${base}: latency `));
    const doc = JSON.parse((await download(page, su.btn('report-json'))).text);
    assert.deepEqual(doc.optimizations.map((o) => [o.optimized, o.base]), [[optimized, base]]);
    const [b, o] = [doc.models.find((m) => m.name === base), doc.models.find((m) => m.name === optimized)];
    assert.equal(doc.optimizations[0].size_ratio, o.size_bytes / b.size_bytes);
  });

  test('the pretrained fashion_mlp: its accuracy is measured on the 10,000 test images, as the native evaluation recorded it', async () => {
    const { page } = lab;
    const select = (id) => `${su.EXP} [data-control="${id}"] select`;
    await page.selectOption(select('optimized'), '');
    await page.selectOption(select('base'), '');
    const boxes = await checkboxes(page);
    const models = boxes.filter((c) => c.id.includes('-model-'));
    for (const m of models.slice(1)) await page.uncheck(`#${m.id}`);
    await page.check(`#${models[0].id}`);
    const pretrained = boxes.find((c) => c.label === 'fashion_mlp (pretrained)');
    assert.ok(pretrained, 'the pretrained model has its checkbox');
    await page.check(`#${pretrained.id}`);
    const metrics = boxes.filter((c) => c.id.includes('-metric-'));
    for (const m of metrics) {
      if (['latency_ms', 'accuracy'].includes(m.label)) await page.check(`#${m.id}`);
      else await page.uncheck(`#${m.id}`);
    }
    await page.click(su.btn('run'));
    await waitDone(page, su, 120000);
    const rows = await tableRows(page, su);
    assert.deepEqual(rows.map((r) => r[0]), [models[0].label, 'fashion_mlp (pretrained)']);
    const accuracyColumn = (await headers(page, su)).indexOf('accuracy');
    assert.equal(rows[0][accuracyColumn], 'not measured');
    assert.match(rows[1][accuracyColumn], /^\d+(\.\d+)?%$/);
    // One bar in the accuracy chart: the zoo model's random weights have none.
    assert.equal((await page.$$(`${su.role('chart')}[data-chart="accuracy"] svg g[aria-label="bar"] rect`)).length, 1);
    const doc = JSON.parse((await download(page, su.btn('report-json'))).text);
    const trained = doc.models.find((m) => m.name === 'fashion_mlp (pretrained)');
    assert.equal(trained.accuracy_images, 10000);
    const manifest = await page.evaluate(() => fetch('data/fashion-mnist/manifest.json').then((r) => r.json()));
    // The wasm build and the native one agree within 0.2 points (issue 23's bound).
    assert.ok(Math.abs(trained.accuracy - manifest.pretrained.test_accuracy) <= 0.002, `${trained.accuracy} against ${manifest.pretrained.test_accuracy}`);
    assert.match(doc.accuracy, /^measured by evaluate\(\) on Fashion-MNIST's test split, 10,000 images \(data\/fashion-mnist\/\) for fashion_mlp \(pretrained\)/);
    const accurate = doc.recommendations.find((r) => r.use === 'accuracy-preserving');
    assert.equal(accurate.model, 'fashion_mlp (pretrained)');
    // A second run reuses what the lab holds (no second fetch is needed, the result is the same).
    await page.click(su.btn('run'));
    await waitDone(page, su, 120000);
    const again = JSON.parse((await download(page, su.btn('report-json'))).text);
    assert.equal(again.models.find((m) => m.name === 'fashion_mlp (pretrained)').accuracy, trained.accuracy);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});

describe('regression, quick', () => {
  const re = scope('benchmarking-regression');
  let lab;
  before(async () => {
    lab = await openLab({ query: '?quick=1', hash: '#benchmarking' });
    await lab.page.waitForSelector(`${re.EXP} [data-role="baseline-panel"]`, { timeout: 30000 });
  });
  after(async () => {
    await lab?.close();
  });

  const baselineText = (page) => page.textContent(re.role('baseline'));
  const loadFile = (page, name, text) =>
    page.setInputFiles('#benchmarking-regression-baseline-file', { name, mimeType: 'application/json', buffer: Buffer.from(text) });

  test('a first run has no baseline to compare with and says how to get one', async () => {
    const { page } = lab;
    assert.match(await baselineText(page), /^No baseline yet/);
    assert.equal(await page.isDisabled(re.btn('save-baseline')), true);
    await page.click(re.btn('run'));
    await waitDone(page, re);
    assert.ok((await tableRows(page, re)).length > 0);
    assert.match(await page.textContent(re.role('no-baseline')), /No baseline to compare with/);
    assert.ok((await page.$$(`${re.role('chart')}[data-chart="samples"] svg circle`)).length > 0, 'the samples are drawn');
  });

  test('Save keeps the run as the baseline; the next run is compared with it by core', async () => {
    const { page } = lab;
    await page.click(re.btn('save-baseline'));
    assert.match(await baselineText(page), /^Baseline: this browser’s run \((simd|scalar) build, \d+ benchmarks\)/);
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('regression')));
    assert.deepEqual(keys, ['perflab.benchmarking.regression-baseline.v1']);
    await page.click(re.btn('run'));
    await waitDone(page, re);
    const runRows = (await tableRows(page, re)).length;
    const compare = await page.$$eval(`${re.role('compare-table')} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    // Every failure names what the table held (a run's numbers are this machine's).
    const shown = () => JSON.stringify(compare);
    assert.equal(compare.length, runRows, `every benchmark compared: ${shown()}`);
    const head = await page.$$eval(`${re.role('compare-table')} thead th`, (ths) => ths.map((th) => th.textContent));
    assert.deepEqual(head.slice(3, 7), ['change', '95% CI of the change', 'p', 'verdict']);
    for (const r of compare) {
      // Core's words, never its identifiers (no_difference).
      assert.match(r[6], /^(faster|slower|no clear difference|too few samples)$/, shown());
      // The sentence names the two runs, and its factor's interval is the column's beside the
      // change, read as a factor: slower by 1 + change, faster by 1 / (1 + change).
      assert.match(r[7], /this run|the baseline/);
      const said = /this run is ([\d.]+)x (slower|faster) than the baseline.*95% CI ([\d.]+)-([\d.]+)x/.exec(r[7]);
      if (!said) continue;
      // Each end of the change's interval as printed ("-98.8%") stands for every value that
      // prints so (-98.85% to -98.75%), and read as a factor of "faster" near -100% that range
      // is wide (80x to 87x): the sentence's factor must fall in the range of its printed end,
      // widened by its own rounding (two decimals, three digits).
      const ends = r[4].split(' to ').map((t) => printedRange(t).map((v) => v / 100));
      const factor = said[2] === 'slower' ? (c) => 1 + c : (c) => 1 / (1 + c);
      const [lowEnd, highEnd] = said[2] === 'slower' ? ends : [ends[1], ends[0]];
      const within = (printed, [a, b]) => {
        const [x, y] = [factor(a), factor(b)].sort((m, n) => m - n);
        return printed >= x - 0.006 - 0.005 * x && printed <= y + 0.006 + 0.005 * y;
      };
      assert.ok(within(Number(said[3]), lowEnd) && within(Number(said[4]), highEnd), `${r[7]} against ${r[4]}`);
    }
    const slower = compare.filter((r) => r[6] === 'slower').length;
    const summary = await page.textContent(re.role('regression-summary'));
    if (slower) assert.match(summary, new RegExp(`^Regression: ${slower} of ${runRows} benchmarks`));
    else assert.match(summary, new RegExp(`^No regression: none of the ${runRows} benchmarks`));
    assert.equal(await page.$eval(re.role('regression-summary'), (el) => el.dataset.regression), String(slower > 0));
    assert.equal((await page.$$(`${re.role('chart')}[data-chart="change"] svg g[aria-label="bar"] rect`)).length, runRows, shown());
  });

  test('a bad file is refused beside the loader and the baseline stays', async () => {
    const { page } = lab;
    const before = await baselineText(page);
    await loadFile(page, 'notes.json', 'this is not json');
    await page.waitForFunction((sel) => !document.querySelector(sel).hidden, re.role('baseline-error'));
    assert.match(await page.textContent(re.role('baseline-error')), /^notes\.json was not loaded: notes\.json is not JSON: parse error at line 1, column 1: /);
    await loadFile(page, 'other.json', JSON.stringify({ tool: 'perflab', kind: 'bench', rows: [{ op: 'matmul', variant: 'naive', n: 32 }] }));
    await page.waitForFunction((sel) => /other\.json/.test(document.querySelector(sel).textContent), re.role('baseline-error'));
    assert.match(await page.textContent(re.role('baseline-error')), /^other\.json was not loaded: .*samples_ms/);
    assert.equal(await baselineText(page), before);
  });

  test('a file over core’s JSON limit is refused unread beside the loader and the baseline stays', async () => {
    const { page } = lab;
    const before = await baselineText(page);
    const stored = await page.evaluate(() => localStorage.getItem('perflab.benchmarking.regression-baseline.v1'));
    await page.setInputFiles('#benchmarking-regression-baseline-file', {
      name: 'huge.json',
      mimeType: 'application/json',
      buffer: Buffer.alloc(16 * 1024 * 1024 + 1, 0x20),
    });
    await page.waitForFunction((sel) => /^huge\.json/.test(document.querySelector(sel).textContent), re.role('baseline-error'));
    assert.equal(
      await page.textContent(re.role('baseline-error')),
      'huge.json was not loaded: huge.json is 16.0 MiB (16,777,217 bytes); the lab reads JSON files of at most 16.0 MiB ' +
        '(16,777,216 bytes). Load the file that perflab bench --json wrote.',
    );
    assert.equal(await baselineText(page), before);
    assert.equal(await page.evaluate(() => localStorage.getItem('perflab.benchmarking.regression-baseline.v1')), stored);
  });

  test('a perflab bench --json file becomes the baseline', async () => {
    const { page } = lab;
    const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('perflab.benchmarking.regression-baseline.v1')).data);
    const doc = { tool: 'perflab', kind: 'bench', version: 'x', quick: true, simd_backend: 'sse2', rows: saved };
    await loadFile(page, 'base.json', JSON.stringify(doc));
    await page.waitForFunction((sel) => /^Baseline: base\.json/.test(document.querySelector(sel).textContent), re.role('baseline'));
    assert.match(await baselineText(page), new RegExp(`^Baseline: base\\.json \\(perflab bench --json, ${saved.length} benchmarks, sse2\\)`));
    assert.equal(await page.isVisible(re.role('baseline-error')), false);
    await page.click(re.btn('run'));
    await waitDone(page, re);
    assert.match(await page.textContent(`${re.role('compare-table')} caption`), /^Baseline: base\.json/);
  });

  test('logged no console errors', () => {
    assert.deepEqual(lab.errors, []);
  });
});
