// Takes the README's screenshot: the Acceleration chapter after a full "matmul: loops vs
// SIMD" sweep on this machine (about 20 s), and the page header. Not a test.
// Usage: tools/lab build && node tools/screenshot.mjs [out.png] [--quick]
import { openLab } from '../tests/browser/harness.mjs';

const out = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'docs/screenshot.png';
const quick = process.argv.includes('--quick');
const lab = await openLab({ query: quick ? '?quick=1' : '', hash: '#acceleration' });
try {
  const { page } = lab;
  await page.waitForSelector('.experiment .variants li');
  await page.click('.experiment [data-action="run"]');
  await page.waitForFunction(
    () => document.querySelector('.experiment [data-role="status"]')?.textContent.startsWith('Done'),
    null,
    { timeout: 120000 },
  );
  await page.mouse.move(0, 0);
  // The header, the chapter text and the chart; the table below it is long.
  await page.screenshot({ path: out, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: 1400 } });
  console.log(`wrote ${out}`);
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}
