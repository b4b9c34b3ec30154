// How long the Benchmarking chapter's whole experiment set takes in this machine's Chromium,
// each experiment run to Done one after the other as a student would (quick mode by default,
// `--full` for the full plans), and optionally a screenshot of each experiment after its run.
// A benchmark, not a test: it prints the times and their total against the 60 s budget for
// quick mode (docs/PERFORMANCE.md), and fails only when an experiment does not reach Done.
// Usage: tools/lab build && node bench/benchmarking-chapter.mjs [--full] [--screenshots DIR]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openLab } from '../tests/browser/harness.mjs';

const full = process.argv.includes('--full');
const shotsAt = process.argv.indexOf('--screenshots');
const shots = shotsAt > 0 ? process.argv[shotsAt + 1] : null;
if (shots) await mkdir(shots, { recursive: true });
const BUDGET_S = 60;

const lab = await openLab({ query: full ? '' : '?quick=1', hash: '#benchmarking' });
let failed = 0;
try {
  const { page } = lab;
  await page.setViewportSize({ width: 1280, height: 900 });
  // Every experiment the chapter mounted, in page order.
  await page.waitForSelector('[data-slot] section.experiment', { timeout: 60000 });
  const ids = await page.$$eval('[data-slot] section.experiment', (s) => s.map((e) => e.dataset.experiment));
  if (ids.length === 0) throw new Error('the Benchmarking chapter mounted no experiments');
  const times = [];
  const started = performance.now();
  // The regression check runs twice, as a student would: a baseline, saved, then a new run.
  const runs = (id) => (id === 'benchmarking-regression' ? 2 : 1);
  for (const id of ids) {
    const scope = `[data-experiment="${id}"]`;
    let seconds = 0;
    for (let run = 0; run < runs(id); run += 1) {
      if (run > 0) await page.click(`[data-action="save-baseline"]`);
      await page.waitForSelector(`${scope} [data-action="run"]:not([disabled])`, { timeout: 60000 });
      const t0 = performance.now();
      await page.click(`${scope} [data-action="run"]`);
      await page.waitForFunction(
        (sel) => /^(Done|Stopped|Error|Failed)/.test(document.querySelector(sel)?.textContent ?? ''),
        `${scope} [data-role="status"]`,
        { timeout: 600000 },
      );
      seconds += (performance.now() - t0) / 1000;
    }
    const status = await page.textContent(`${scope} [data-role="status"]`);
    const done = /^Done/.test(status);
    if (!done) failed += 1;
    times.push({ id, seconds, status: done ? 'done' : status });
    console.log(`${id.padEnd(28)} ${seconds.toFixed(1).padStart(7)} s  ${done ? '' : status}`);
    if (shots) {
      await page.mouse.move(0, 0);
      const el = await page.$(scope);
      await el.scrollIntoViewIfNeeded();
      await el.screenshot({ path: path.join(shots, `${id}.png`) });
    }
  }
  const total = (performance.now() - started) / 1000;
  const sum = times.reduce((s, t) => s + t.seconds, 0);
  console.log(`\n${times.length} experiments, ${full ? 'full' : 'quick'} mode: ${sum.toFixed(1)} s running, ${total.toFixed(1)} s in all`);
  if (!full) console.log(`budget for quick mode: ${BUDGET_S} s -> ${total <= BUDGET_S ? 'met' : 'NOT MET'} (${(total / BUDGET_S * 100).toFixed(0)}%)`);
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
process.exit(failed ? 1 : 0);
