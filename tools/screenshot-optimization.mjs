// Screenshots of the Optimization chapter for looking at it (not a test). Two modes:
// - the model section (default): the chapter's top, then the data, training and evaluation
//   blocks after a short training (or, with --baseline, after evaluating the pretrained
//   baseline too), one PNG each, into out-dir (default build/screenshots-optimization);
// - the later sections (--sections): evaluates the pretrained baseline, then runs each later
//   section's experiment in page order with the page's own controls and defaults, waits for
//   it to finish and writes the whole section as optimization-<name>.png into out-dir
//   (default docs/screenshots). --sections=sparsity,kv-cache runs only those (the Pareto
//   frontier then times only the models the sections run made).
// Usage: node tools/screenshot-optimization.mjs [out-dir] [--epochs=N] [--images=N] [--baseline]
//        node tools/screenshot-optimization.mjs [out-dir] --sections[=name,...] [--quick]
//        (--quick: the page's quick mode, ?quick=1; with PERFLAB_DIST_DIR pointing at a built
//        page, as for the browser tests)
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openLab } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const value = (name, fallback) => (args.find((a) => a.startsWith(`--${name}=`)) ?? `--${name}=${fallback}`).split('=')[1];
const sectionsArg = args.find((a) => a === '--sections' || a.startsWith('--sections='));
const outDir = args.find((a) => !a.startsWith('--')) ?? (sectionsArg ? 'docs/screenshots' : 'build/screenshots-optimization');
const epochs = value('epochs', '4');
const images = value('images', '3000');
const quick = args.includes('--quick');

// The later sections in page order: the section's id (#optimization-<section>), the PNG's
// name, and how to start its run and recognise its end. `experiment`: a framework experiment
// ([data-experiment] with its Run button and status); otherwise the section's own button and
// status roles. Every section ends with a status line starting with one of `END`.
const SECTIONS = [
  { name: 'sparsity', section: 'sparsity', experiment: 'optimization-sparsity' },
  { name: 'structured', section: 'structured', run: 'run-structured', status: 'structured-status' },
  { name: 'distillation', section: 'distillation', run: 'run-distill', status: 'distill-status' },
  { name: 'kv-cache', section: 'kv-cache', experiment: 'optimization-kv-cache' },
  { name: 'quantization', section: 'quantization', run: 'run-quantize', status: 'quantize-status' },
  { name: 'int8', section: 'int8-roofline', experiment: 'optimization-int8' },
  { name: 'pareto', section: 'pareto', run: 'run-pareto', status: 'pareto-status' },
  { name: 'olympics', section: 'olympics', run: 'run-olympics', status: 'olympics-status' },
];
const END = '^(Done|Timed|Cancelled|Stopped)';
const RUN_TIMEOUT = 30 * 60 * 1000; // full mode trains and times on this machine's cores

await mkdir(outDir, { recursive: true });
const lab = await openLab({ query: quick ? '?quick=1' : '', hash: '#optimization' });
try {
  const { page } = lab;
  const shot = async (selector, name) => {
    const el = page.locator(selector).first();
    await el.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    const file = path.join(outDir, `${name}.png`);
    await el.screenshot({ path: file });
    console.log(`wrote ${file}`);
  };
  const evaluateBaseline = async () => {
    await page.waitForFunction(() => document.querySelector('[data-action="evaluate-baseline"]')?.disabled === false, null, { timeout: 60000 });
    await page.click('[data-action="evaluate-baseline"]');
    await page.waitForFunction(() => /^Evaluated the pretrained/.test(document.querySelector('[data-role="evaluation-status"]').textContent), null, { timeout: 120000 });
  };

  if (sectionsArg) {
    const only = sectionsArg.includes('=') ? sectionsArg.split('=')[1].split(',') : null;
    const unknown = (only ?? []).filter((n) => !SECTIONS.some((s) => s.name === n));
    if (unknown.length) throw new Error(`unknown section ${unknown.join(', ')}; the sections are ${SECTIONS.map((s) => s.name).join(', ')}`);
    await evaluateBaseline();
    for (const s of SECTIONS.filter((x) => !only || only.includes(x.name))) {
      const scope = s.experiment ? `[data-experiment="${s.experiment}"] ` : '';
      const runSel = s.experiment ? `${scope}[data-action="run"]` : `[data-action="${s.run}"]`;
      const statusSel = s.experiment ? `${scope}[data-role="status"]` : `[data-role="${s.status}"]`;
      const started = Date.now();
      // Enabled once the section has core's plan (and its choices) and a baseline or made models.
      await page.waitForFunction(
        ([run, sc]) =>
          document.querySelector(run)?.disabled === false &&
          (sc === '' || [...document.querySelectorAll(`${sc}select[data-options]`)].every((el) => el.dataset.options === 'ready')),
        [runSel, scope],
        { timeout: 120000 },
      );
      await page.click(runSel);
      await page.waitForFunction(([st, end]) => new RegExp(end).test(document.querySelector(st)?.textContent ?? ''), [statusSel, END], { timeout: RUN_TIMEOUT });
      const status = await page.textContent(statusSel);
      console.log(`${s.name}: ${status} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      const alerts = await page.$$eval(`#optimization-${s.section} [role="alert"]`, (els) => els.filter((el) => !el.hidden && el.textContent.trim()).map((el) => el.textContent));
      if (alerts.length) console.error(`${s.name}: the section shows an error: ${alerts.join(' | ')}`);
      await shot(`#optimization-${s.section}`, `optimization-${s.name}`);
    }
  } else {
    await page.waitForFunction(() => document.querySelector('[data-action="train"]')?.disabled === false, null, { timeout: 30000 });
    await page.screenshot({ path: path.join(outDir, 'top.png') });
    await page.fill('[data-control="train_images"]', images);
    await page.fill('[data-control="epochs"]', epochs);
    await page.click('[data-action="train"]');
    await page.waitForSelector('[data-role="evaluation"] [data-role="accuracy"]', { timeout: 300000 });
    await shot('[data-role="data-block"]', 'data');
    await shot('[data-role="train-block"]', 'training');
    await shot('[data-role="evaluation-block"]', 'evaluation');
    if (args.includes('--baseline')) {
      await evaluateBaseline();
      await shot('[data-role="evaluation-block"]', 'baseline');
    }
  }
  if (lab.errors.length) console.error(`page errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
