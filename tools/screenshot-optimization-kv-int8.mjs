// Takes the screenshots of the Optimization chapter's KV cache and int8 sections after a run
// of each (docs/screenshots/optimization-kv-cache.png and optimization-int8.png). Not a test.
// Usage: tools/lab build && node tools/screenshot-optimization-kv-int8.mjs [--quick]
import { openLab } from '../tests/browser/harness.mjs';

const quick = process.argv.includes('--quick');
const lab = await openLab({ query: quick ? '?quick=1' : '', hash: '#optimization' });

async function shoot(page, section, experiment, out) {
  const sel = `[data-experiment="${experiment}"]`;
  await page.waitForFunction((s) => document.querySelector(`${s} [data-action="run"]`)?.disabled === false, sel, { timeout: 60000 });
  await page.click(`${sel} [data-action="run"]`);
  await page.waitForFunction((s) => /^Done/.test(document.querySelector(`${s} [data-role="status"]`)?.textContent ?? ''), sel, { timeout: 300000 });
  await page.mouse.move(0, 0);
  await page.locator(`#${section}`).screenshot({ path: out });
  console.log(`wrote ${out}`);
}

try {
  const { page } = lab;
  await page.setViewportSize({ width: 1280, height: 900 });
  await shoot(page, 'optimization-kv-cache', 'optimization-kv-cache', 'docs/screenshots/optimization-kv-cache.png');
  await shoot(page, 'optimization-int8-roofline', 'optimization-int8', 'docs/screenshots/optimization-int8.png');
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
