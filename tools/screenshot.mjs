// Takes the README's screenshot: the Profiling chapter's model builder
// after profiling the MNIST MLP on this machine (totals, the original course's estimates
// beside the measurements, per-layer table). Not a test.
// Usage: tools/lab build && node tools/screenshot.mjs [out.png] [--quick]
import { openLab } from '../tests/browser/harness.mjs';

const out = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'docs/screenshot.png';
const quick = process.argv.includes('--quick');
const lab = await openLab({ query: quick ? '?quick=1' : '', hash: '#profiling' });
try {
  const { page } = lab;
  await page.waitForSelector('[data-role="builder"][data-zoo="ready"]', { timeout: 30000 });
  await page.selectOption('#builder-zoo', 'mlp_784');
  await page.click('[data-action="load-zoo"]');
  await page.click('[data-action="profile"]');
  await page.waitForFunction(() => document.querySelector('[data-role="builder"]').dataset.state === 'idle', null, {
    timeout: 120000,
  });
  // Page coordinates (boundingBox() is relative to the scrolled viewport).
  const builder = await page.$eval('[data-role="builder"]', (el) => {
    const r = el.getBoundingClientRect();
    return { y: r.top + window.scrollY, height: r.height };
  });
  await page.mouse.move(0, 0);
  // The builder and the profile it drew (the per-layer table and chart come below it).
  const y = Math.max(0, Math.floor(builder.y) - 12);
  const height = Math.min(1900, Math.ceil(builder.height) + 24);
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y, width: 1280, height } });
  console.log(`wrote ${out}`);
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
