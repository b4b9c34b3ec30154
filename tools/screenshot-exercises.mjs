// Takes a screenshot of the Profiling chapter's exercises after a few attempts (a wrong
// numeric answer with its hint, a partly wrong median with its test list), or with
// `--acceleration` of the Acceleration chapter's (a numeric answer, attainable() run, the
// experiment-backed ones waiting for a run), for looking at the engine's layout. Not a test
// (node --test does not pick up this file name).
// Usage: npx vite build && node tools/screenshot-exercises.mjs [--acceleration] [out.png]
import { openLab } from '../tests/browser/harness.mjs';

const acceleration = process.argv.includes('--acceleration');
const out = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? '/tmp/perflab-exercises.png';
if (acceleration) {
  await screenshotAcceleration();
  process.exit(0);
}
const lab = await openLab({ hash: '#profiling' });
const { page } = lab;
try {
  const card = (id) => page.locator(`article[data-exercise-id="${id}"]`);
  await page.waitForSelector('article[data-exercise-id="profiling.median"][data-params]', { timeout: 20000 });
  const attempts = (id) => card(id).evaluate((el) => Number(el.dataset.attempts));
  const waitAttempt = (id, n) =>
    page.waitForFunction(([cid, k]) => Number(document.querySelector(`article[data-exercise-id="${cid}"]`).dataset.attempts) === k, [id, n]);

  const p = JSON.parse(await card('profiling.linear-params').getAttribute('data-params'));
  await card('profiling.linear-params').locator('input').fill(String(p.in * p.out));
  await card('profiling.linear-params').locator('button[type="submit"]').click();
  await waitAttempt('profiling.linear-params', 1);

  const c = JSON.parse(await card('profiling.bound-classify').getAttribute('data-params'));
  const side = (mflop, mb) => (mflop / mb > c.peak_gflops_per_s / c.bandwidth_gb_per_s ? 'compute-bound' : 'memory-bound');
  const right = `A ${side(c.a_mflop, c.a_mb)}, B ${side(c.b_mflop, c.b_mb)}`;
  await card('profiling.bound-classify').getByLabel(right, { exact: true }).check();
  await card('profiling.bound-classify').locator('button[type="submit"]').click();
  await waitAttempt('profiling.bound-classify', 1);

  await card('profiling.median').locator('.cm-content').click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText('function median(times) {\n  const s = [...times].sort((a, b) => a - b);\n  console.log("n =", s.length);\n  return s[Math.floor(s.length / 2)];\n}');
  await card('profiling.median').locator('button[data-role="run"]').click();
  await waitAttempt('profiling.median', 1);
  await page.mouse.move(0, 0);
  await page.locator('section.chapter[data-chapter="profiling"]').screenshot({ path: out });
  console.log(`wrote ${out}`);
  if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
} finally {
  await lab.close();
}

async function screenshotAcceleration() {
  const lab = await openLab({ query: '?quick=1', hash: '#acceleration' });
  const { page } = lab;
  try {
    const card = (id) => page.locator(`article[data-exercise-id="${id}"]`);
    await page.waitForSelector('article[data-exercise-id="acceleration.my-roofline-classify"][data-params]', { timeout: 30000 });
    const waitAttempt = (id, n) =>
      page.waitForFunction(([cid, k]) => Number(document.querySelector(`article[data-exercise-id="${cid}"]`).dataset.attempts) === k, [id, n]);
    const p = JSON.parse(await card('acceleration.intensity').getAttribute('data-params'));
    await card('acceleration.intensity').locator('input').nth(0).fill(String(p.n / 6));
    await card('acceleration.intensity').locator('input').nth(1).fill('0.25');
    await card('acceleration.intensity').locator('button[type="submit"]').click();
    await waitAttempt('acceleration.intensity', 1);
    await card('acceleration.attainable-code').locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText('function attainable(peak, bandwidth, intensity) {\n  return Math.min(peak, intensity * bandwidth);\n}');
    await card('acceleration.attainable-code').locator('button[data-role="run"]').click();
    await waitAttempt('acceleration.attainable-code', 1);
    await page.mouse.move(0, 0);
    await page.locator('section.chapter[data-chapter="acceleration"] [data-role="exercises"]').screenshot({ path: out });
    console.log(`wrote ${out}`);
    if (lab.errors.length) console.log(`console errors:\n${lab.errors.join('\n')}`);
  } finally {
    await lab.close();
  }
}
