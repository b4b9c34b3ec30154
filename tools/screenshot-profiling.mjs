// Screenshots of the Profiling chapter for looking at it (not a test): the model builder
// after profiling a zoo model, then every experiment after a run, one PNG each.
// Usage: node tools/screenshot-profiling.mjs [out-dir] [--quick] [--model=NAME]
//        (with PERFLAB_DIST_DIR pointing at a built page, as for the browser tests)
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openLab } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const outDir = args.find((a) => !a.startsWith('--')) ?? 'build/screenshots-profiling';
const quick = args.includes('--quick');
const model = (args.find((a) => a.startsWith('--model=')) ?? '--model=mlp_784').slice('--model='.length);
await mkdir(outDir, { recursive: true });

const lab = await openLab({ query: quick ? '?quick=1' : '', hash: '#profiling' });
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

  await page.screenshot({ path: path.join(outDir, 'top.png') });
  await page.waitForSelector('[data-role="builder"][data-zoo="ready"]', { timeout: 30000 });
  await page.selectOption('#builder-zoo', model);
  await page.click('[data-action="load-zoo"]');
  await page.click('[data-action="profile"]');
  await page.waitForFunction(() => document.querySelector('[data-role="builder"]').dataset.state === 'idle', null, {
    timeout: 120000,
  });
  await shot('[data-role="builder"]', 'builder');

  const ids = await page.$$eval('[data-experiment]', (els) => els.map((e) => e.dataset.experiment));
  for (const id of ids) {
    await page.click(`[data-experiment="${id}"] [data-action="run"]`);
    await page.waitForFunction(
      (sel) => /^(Done|Stopped|Cancelled)/.test(document.querySelector(sel)?.textContent ?? ''),
      `[data-experiment="${id}"] [data-role="status"]`,
      { timeout: 300000 },
    );
    await shot(`[data-experiment="${id}"]`, id);
  }
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
