// Screenshots of the Optimization chapter for looking at it (not a test): the chapter's top,
// then the data, training and evaluation blocks after a short training (or, with --baseline,
// after evaluating the pretrained baseline too), one PNG each.
// Usage: node tools/screenshot-optimization.mjs [out-dir] [--epochs=N] [--images=N] [--baseline]
//        (with PERFLAB_DIST_DIR pointing at a built page, as for the browser tests)
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openLab } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const outDir = args.find((a) => !a.startsWith('--')) ?? 'build/screenshots-optimization';
const value = (name, fallback) => (args.find((a) => a.startsWith(`--${name}=`)) ?? `--${name}=${fallback}`).split('=')[1];
const epochs = value('epochs', '4');
const images = value('images', '3000');
await mkdir(outDir, { recursive: true });

const lab = await openLab({ hash: '#optimization' });
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
    await page.click('[data-action="evaluate-baseline"]');
    await page.waitForFunction(() => /^Evaluated the pretrained/.test(document.querySelector('[data-role="evaluation-status"]').textContent), null, { timeout: 60000 });
    await shot('[data-role="evaluation-block"]', 'baseline');
  }
  if (lab.errors.length) console.error(`page errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
