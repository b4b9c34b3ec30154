// Screenshots of the Acceleration chapter after running its experiments (quick by default;
// --full for the full sweeps, many minutes), one PNG per lesson section, for looking at the
// layout. Not a test (node --test does not pick up this file name).
// Usage: npx vite build && node tools/screenshot-acceleration.mjs [out-dir] [--full] [--only=id,id]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { openLab } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const outDir = args.find((a) => !a.startsWith('--')) ?? '/tmp/perflab-acceleration';
const full = args.includes('--full');
const only = args.find((a) => a.startsWith('--only='))?.slice(7).split(',');
await mkdir(outDir, { recursive: true });

const lab = await openLab({ query: full ? '' : '?quick=1', hash: '#acceleration' });
const { page } = lab;
try {
  await page.waitForSelector('[data-experiment="acceleration-roofline"] [data-role="probe"]', { timeout: 30000 });
  const ids = await page.$$eval('#chapter-acceleration [data-experiment] [data-action="run"]', (buttons) =>
    buttons.map((b) => b.closest('[data-experiment]').dataset.experiment),
  );
  for (const id of ids.filter((i) => !only || only.includes(i))) {
    const status = `[data-experiment="${id}"] [data-role="status"]`;
    await page.click(`[data-experiment="${id}"] [data-action="run"]`);
    await page.waitForFunction((s) => /^(Done|Stopped)/.test(document.querySelector(s).textContent), status, {
      timeout: full ? 900000 : 180000,
    });
    console.log(`${id}: ${await page.textContent(status)}`);
  }
  await page.mouse.move(0, 0);
  for (const section of await page.$$('#chapter-acceleration section.lesson')) {
    const name = await section.getAttribute('data-section');
    await section.screenshot({ path: path.join(outDir, `${name}.png`) });
  }
  console.log(`wrote ${outDir}/*.png`);
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
